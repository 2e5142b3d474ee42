//! Small helpers every layer may use: file-name parts and a lock that
//! survives a panicked holder.

use std::sync::{Mutex, MutexGuard};

/// `name` as a file-name part: letters, digits, `-` and `_` kept, the rest `_`.
pub fn sanitize(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect()
}

/// Locks `mutex`, taking the data as it is if a holder panicked: what it
/// guards here (counts, progress, the current game's log) stays usable.
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
