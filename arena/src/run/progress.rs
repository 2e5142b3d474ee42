//! The live progress line. For one run: units done of planned (games or
//! answers), the run's state as its work reports it (W-D-L, Elo ± CI, LLR;
//! solved), and the ETA, as a [`Meter`] draws them. For a worker serving
//! many runs: one line per stored unit, its log.

use super::Stored;
use crate::term::{self, Meter};

/// What the line counts.
enum Mode {
    /// One run.
    Run(Meter),
    /// Units of any run, one line each.
    Log,
}

/// The progress line of a process.
pub struct Progress {
    mode: Mode,
    enabled: bool,
}

impl Progress {
    /// The line of run `run`: `done` of `planned` `noun` (games, answers) so far.
    pub fn run(run: i64, enabled: bool, noun: &'static str, done: u64, planned: u64) -> Progress {
        Progress { mode: Mode::Run(Meter::new(format!("run {run}"), noun, done, planned, enabled)), enabled }
    }

    /// One line per stored unit (`arena worker`).
    pub fn log(enabled: bool) -> Progress {
        Progress { mode: Mode::Log, enabled }
    }

    /// Says `message` above the line, unless progress is off (`--quiet`).
    pub fn note(&self, message: &str) {
        if self.enabled {
            term::note(message);
        }
    }

    /// A unit (`what`) was stored.
    pub fn stored(&mut self, what: &str, stored: &Stored) {
        match &mut self.mode {
            Mode::Log if self.enabled => {
                let end = if stored.run_finished { "; run finished" } else { "" };
                term::note(&format!("{what}: {}{end}", stored.status));
            }
            Mode::Log => {}
            Mode::Run(meter) => meter.advance(stored.added, &stored.status),
        }
    }

    /// Ends the line.
    pub fn finish(&mut self) {
        if let Mode::Run(meter) = &mut self.mode {
            meter.finish();
        }
    }
}
