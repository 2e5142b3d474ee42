//! The live progress line: games done of planned, W-D-L, Elo ± CI, LLR, ETA.
//! Redrawn in place on a terminal; one line per finished pair otherwise.

use std::io::{IsTerminal, Write};
use std::time::Instant;

use reports::stats::sprt::Test;
use reports::stats::summarize;
use reports::tally::Tally;

pub(super) struct Progress {
    run: i64,
    enabled: bool,
    terminal: bool,
    planned: u64,
    done: u64,
    done_at_start: u64,
    started: Instant,
    names: Vec<(String, String)>,
    sprt: Option<Test>,
    tallies: Vec<Tally>,
    llr: Option<f64>,
}

impl Progress {
    pub(super) fn new(
        run: i64,
        enabled: bool,
        planned: u64,
        done: u64,
        names: Vec<(String, String)>,
        sprt: Option<Test>,
    ) -> Progress {
        Progress {
            run,
            enabled,
            terminal: std::io::stderr().is_terminal(),
            planned,
            done,
            done_at_start: done,
            started: Instant::now(),
            tallies: vec![Tally::default(); names.len()],
            names,
            sprt,
            llr: None,
        }
    }

    pub(super) fn note(&self, message: &str) {
        if self.enabled {
            let clear = if self.terminal { "\r\x1b[2K" } else { "" };
            eprintln!("{clear}{message}");
        }
    }

    pub(super) fn game_done(&mut self) {
        self.done += 1;
        if self.terminal {
            self.draw();
        }
    }

    /// A pair finished (here or by another worker): `tallies` are the
    /// database's counts, which also count other workers' games.
    pub(super) fn pair_done(&mut self, tallies: &[Tally], llr: Option<f64>) {
        self.done = (self.done + 1).max(tallies.iter().map(Tally::games).sum());
        self.tallies = tallies.to_vec();
        if llr.is_some() {
            self.llr = llr;
        }
        self.draw();
    }

    pub(super) fn finish(&mut self) {
        if self.enabled && self.terminal {
            eprintln!();
        }
    }

    fn draw(&self) {
        if !self.enabled {
            return;
        }
        let mut line = format!("run {}  {}/{} games", self.run, self.done, self.planned);
        if let [tally] = self.tallies.as_slice() {
            let (a, b) = &self.names[0];
            line += &format!("  {a} vs {b} +{} ={} -{}", tally.wins, tally.draws, tally.losses);
            if let Some(s) = summarize(&tally.pairs()) {
                line += &format!("  Elo {:+.1} ± {:.1}", s.elo, (s.elo_ci95.1 - s.elo_ci95.0) / 2.0);
            }
        } else {
            let pairs: u64 = self.tallies.iter().map(|t| t.games()).sum();
            line += &format!("  {} pairings, {pairs} games scored", self.tallies.len());
        }
        if let (Some(test), Some(llr)) = (self.sprt, self.llr) {
            let bounds = test.bounds();
            line += &format!("  LLR {llr:.2} ({:.2}, {:.2})", bounds.lower, bounds.upper);
        }
        let played = self.done - self.done_at_start;
        if played > 0 && self.done < self.planned {
            let per_game = self.started.elapsed().as_secs_f64() / played as f64;
            line += &format!("  ETA {}", duration((self.planned - self.done) as f64 * per_game));
        }
        let mut err = std::io::stderr().lock();
        let _ = if self.terminal { write!(err, "\r\x1b[2K{line}") } else { writeln!(err, "{line}") };
        let _ = err.flush();
    }
}

fn duration(seconds: f64) -> String {
    let s = seconds.round() as u64;
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, (s % 3600) / 60),
    }
}
