//! Standard error as the process's one live line and the notes above it.
//!
//! A long job draws its state on one line, redrawn in place on a terminal
//! ([`set_line`]); a warning or note from any layer ([`warn`], [`note`])
//! clears that line, prints itself and draws the line again below it, so
//! the two never interleave. Off a terminal the line is printed as lines
//! of their own, once each time it changes.
//!
//! Every long job counts on it through a [`Meter`]: done of total, the
//! job's own state, and an ETA, redrawn at most ten times a second on a
//! terminal and once a minute off one (a log shows that a night's run is
//! alive without a line per game).

use std::io::{IsTerminal, Write};
use std::sync::{LazyLock, Mutex};
use std::time::{Duration, Instant};

use crate::util::lock;

/// The live line as last drawn on a terminal (`None`: none is drawn).
static LINE: Mutex<Option<String>> = Mutex::new(None);

/// Whether standard error is a terminal, read once.
static TERMINAL: LazyLock<bool> = LazyLock::new(|| std::io::stderr().is_terminal());

/// Clears the live line on a terminal.
const CLEAR: &str = "\r\x1b[2K";

/// Whether standard error is a terminal (the live line redrawn in place).
pub fn is_terminal() -> bool {
    *TERMINAL
}

/// Prints `message` on a line of its own above the live line (a closed
/// standard error is no error).
pub fn note(message: &str) {
    let line = lock(&LINE);
    let mut err = std::io::stderr().lock();
    match line.as_deref() {
        Some(live) if *TERMINAL => {
            let _ = write!(err, "{CLEAR}{message}\n{live}");
        }
        _ => {
            let _ = writeln!(err, "{message}");
        }
    }
    let _ = err.flush();
}

/// [`note`] with `warning: ` before it.
pub fn warn(message: &str) {
    note(&format!("warning: {message}"));
}

/// Draws `text` as the live line: in place on a terminal, as a line of its
/// own otherwise.
pub fn set_line(text: &str) {
    let mut line = lock(&LINE);
    let mut err = std::io::stderr().lock();
    if *TERMINAL {
        let _ = write!(err, "{CLEAR}{text}");
        *line = Some(text.to_string());
    } else {
        let _ = writeln!(err, "{text}");
    }
    let _ = err.flush();
}

/// Ends the live line: what follows starts on a line of its own.
pub fn end_line() {
    if lock(&LINE).take().is_some() {
        let _ = writeln!(std::io::stderr().lock());
    }
}

/// A long job's count on the live line: `LABEL  DONE/TOTAL NOUN  STATE  ETA …`.
pub struct Meter {
    label: String,
    noun: &'static str,
    total: u64,
    done: u64,
    done_at_start: u64,
    state: String,
    started: Instant,
    /// When the line was last drawn (at first: when the job started).
    drawn_at: Instant,
    /// Whether the line was drawn at all: a job shorter than a minute off a
    /// terminal leaves no line.
    shown: bool,
    enabled: bool,
}

impl Meter {
    /// A meter of `total` `noun` (games, answers, positions), `done` of them
    /// already; draws nothing unless `enabled` (`--quiet` turns it off).
    pub fn new(label: impl Into<String>, noun: &'static str, done: u64, total: u64, enabled: bool) -> Meter {
        let (label, now) = (label.into(), Instant::now());
        Meter {
            label,
            noun,
            total,
            done,
            done_at_start: done,
            state: String::new(),
            started: now,
            drawn_at: now,
            shown: false,
            enabled,
        }
    }

    /// `added` more done, the job's state now `state` (W-D-L, Elo, LLR…).
    pub fn advance(&mut self, added: u64, state: &str) {
        self.done = (self.done + added).min(self.total);
        if state != self.state {
            self.state = state.to_string();
        }
        let due = if *TERMINAL {
            !self.shown || self.done == self.total || self.drawn_at.elapsed() >= Duration::from_millis(100)
        } else {
            self.drawn_at.elapsed() >= Duration::from_secs(60)
        };
        if due {
            self.draw();
        }
    }

    /// The line as it reads now.
    pub fn line(&self) -> String {
        let mut line = format!("{}  {}/{} {}", self.label, self.done, self.total, self.noun);
        if !self.state.is_empty() {
            line += &format!("  {}", self.state);
        }
        let counted = self.done - self.done_at_start;
        if counted > 0 && self.done < self.total {
            let per_unit = self.started.elapsed().as_secs_f64() / counted as f64;
            line += &format!("  ETA {}", duration((self.total - self.done) as f64 * per_unit));
        }
        line
    }

    fn draw(&mut self) {
        self.drawn_at = Instant::now();
        self.shown = true;
        if self.enabled {
            set_line(&self.line());
        }
    }

    /// Ends the line, drawn once more as it ends (if it was drawn at all).
    pub fn finish(&mut self) {
        if self.enabled && self.shown {
            set_line(&self.line());
            end_line();
        }
    }
}

/// `seconds` as `42s`, `3m05s` or `2h07m`.
pub fn duration(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, (s % 3600) / 60),
    }
}
