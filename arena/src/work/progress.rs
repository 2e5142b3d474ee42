//! The live progress line. For one run: units done of planned (games or
//! answers), the run's state as its work reports it (W-D-L, Elo ± CI, LLR;
//! solved), and the ETA — redrawn in place on a terminal, one line per stored
//! unit otherwise. For a worker serving many runs: one line per stored unit.

use std::io::{IsTerminal, Write};
use std::time::Instant;

use super::Stored;

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
    terminal: bool,
    started: Instant,
}

impl Progress {
    /// The line of run `run`: `done` of `planned` `noun` (games, answers) so far.
    pub fn run(run: i64, enabled: bool, noun: &'static str, done: u64, planned: u64) -> Progress {
        let mode = Mode::Run { run, noun, planned, done, done_at_start: done, status: String::new() };
        Progress { mode, enabled, terminal: std::io::stderr().is_terminal(), started: Instant::now() }
    }

    /// One line per stored unit (`arena worker`).
    pub fn log(enabled: bool) -> Progress {
        Progress { mode: Mode::Log, enabled, terminal: false, started: Instant::now() }
    }

    /// Says `message` on a line of its own (a closed terminal is no error).
    pub fn note(&self, message: &str) {
        if self.enabled {
            let clear = if self.terminal { "\r\x1b[2K" } else { "" };
            let _ = writeln!(std::io::stderr().lock(), "{clear}{message}");
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
        let mut err = std::io::stderr().lock();
        let _ = if self.terminal { write!(err, "\r\x1b[2K{line}") } else { writeln!(err, "{line}") };
        let _ = err.flush();
    }

    /// Ends the line.
    pub fn finish(&mut self) {
        if self.enabled && self.terminal {
            let _ = writeln!(std::io::stderr().lock());
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
