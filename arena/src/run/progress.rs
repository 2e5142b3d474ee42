//! The live progress line. For one run: units done of planned (games or
//! answers), the run's state as its work reports it (W-D-L, Elo ± CI, LLR;
//! solved), and the ETA — redrawn in place on a terminal, one line per stored
//! unit otherwise (drawn by [`crate::term`], below any warning). For a
//! worker serving many runs: one line per stored unit.

use std::time::Instant;

use super::Stored;
use crate::term;

/// What the line counts.
enum Mode {
    /// One run.
    Run { run: i64, noun: &'static str, planned: u64, done: u64, done_at_start: u64, status: String },
    /// Units of any run, one line each.
    Log,
}

/// The progress line of a process.
pub struct Progress {
    mode: Mode,
    enabled: bool,
    started: Instant,
}

impl Progress {
    /// The line of run `run`: `done` of `planned` `noun` (games, answers) so far.
    pub fn run(run: i64, enabled: bool, noun: &'static str, done: u64, planned: u64) -> Progress {
        let mode = Mode::Run { run, noun, planned, done, done_at_start: done, status: String::new() };
        Progress { mode, enabled, started: Instant::now() }
    }

    /// One line per stored unit (`arena worker`).
    pub fn log(enabled: bool) -> Progress {
        Progress { mode: Mode::Log, enabled, started: Instant::now() }
    }

    /// Says `message` above the line, unless progress is off (`--quiet`).
    pub fn note(&self, message: &str) {
        if self.enabled {
            term::note(message);
        }
    }

    /// A unit (`what`) was stored.
    pub fn stored(&mut self, what: &str, stored: &Stored) {
        let line = match &mut self.mode {
            Mode::Log => {
                let end = if stored.run_finished { "; run finished" } else { "" };
                format!("{what}: {}{end}", stored.status)
            }
            Mode::Run { run, noun, planned, done, done_at_start, status } => {
                *done = (*done + stored.added).min(*planned);
                *status = stored.status.clone();
                let mut line = format!("run {run}  {done}/{planned} {noun}  {status}");
                let played = *done - *done_at_start;
                if played > 0 && *done < *planned {
                    let per_unit = self.started.elapsed().as_secs_f64() / played as f64;
                    line += &format!("  ETA {}", duration((*planned - *done) as f64 * per_unit));
                }
                line
            }
        };
        if !self.enabled {
            return;
        }
        match self.mode {
            Mode::Log => term::note(&line),
            Mode::Run { .. } => term::set_line(&line),
        }
    }

    /// Ends the line.
    pub fn finish(&mut self) {
        if self.enabled {
            term::end_line();
        }
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
