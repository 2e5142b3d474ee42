//! Small helpers every layer may use: file-name parts, a lock that
//! survives a panicked holder, and this machine's cache folder.

use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard};

/// This machine's cache folder: `$ARENA_CACHE`, else `$XDG_CACHE_HOME/arena`,
/// else `~/.cache/arena` (`None` without any of them).
pub fn cache_root() -> Option<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    var("ARENA_CACHE")
        .or_else(|| var("XDG_CACHE_HOME").map(|dir| dir.join("arena")))
        .or_else(|| var("HOME").map(|home| home.join(".cache").join("arena")))
}

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
