//! Standard error as the process's one live line and the notes above it.
//!
//! A long job draws its state on one line, redrawn in place on a terminal
//! ([`set_line`]); a warning or note from any layer ([`warn`], [`note`])
//! clears that line, prints itself and draws the line again below it, so
//! the two never interleave. Off a terminal the line is printed as lines
//! of their own, once each time it changes.

use std::io::{IsTerminal, Write};
use std::sync::{LazyLock, Mutex};

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
