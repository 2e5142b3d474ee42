//! Small helpers every layer may use: file-name parts and a lock that
//! survives a panicked holder.

use std::sync::{Mutex, MutexGuard};

/// `name` as a file-name part: letters, digits, `-` and `_` kept, the rest `_`.
pub fn sanitize(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect()
}

/// An error as one line: its text, then each cause its text does not
/// already say (`cannot listen on …: address in use`).
pub fn one_line(error: &(dyn std::error::Error + 'static)) -> String {
    let mut line = error.to_string();
    let mut cause = error.source();
    while let Some(next) = cause {
        let text = next.to_string();
        if !line.contains(&text) {
            line = format!("{line}: {text}");
        }
        cause = next.source();
    }
    line.replace('\n', " ")
}

/// Locks `mutex`, taking the data as it is if a holder panicked: what it
/// guards here (counts, progress, the current game's log) stays usable.
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
