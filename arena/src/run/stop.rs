//! What the slots of one process share to stop and wait: the stop levels
//! sent on a `watch` channel, the Ctrl-C watcher that raises them, an idle
//! pause that a stop cuts short, and a lock on shared counters that a panic
//! elsewhere does not poison.

use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::watch;

/// Keep claiming work.
pub(crate) const RUNNING: u8 = 0;
/// Claim nothing new; finish what is in flight (first Ctrl-C).
pub(crate) const FINISH_IN_FLIGHT: u8 = 1;
/// Drop what is in flight (second Ctrl-C).
pub(crate) const ABANDON: u8 = 2;

/// Raises the stop level at each Ctrl-C: [`FINISH_IN_FLIGHT`], then
/// [`ABANDON`], saying `messages[0]` and `messages[1]` through `note`.
pub(crate) async fn watch_ctrl_c(stop: &watch::Sender<u8>, messages: [&str; 2], note: impl Fn(&str)) {
    for (level, message) in [FINISH_IN_FLIGHT, ABANDON].into_iter().zip(messages) {
        if tokio::signal::ctrl_c().await.is_err() {
            return;
        }
        note(message);
        let _ = stop.send(level);
    }
}

/// Waits `duration`, or less when the stop level leaves [`RUNNING`].
pub(crate) async fn pause(stop: &watch::Receiver<u8>, duration: Duration) {
    let mut stop = stop.clone();
    let _ = tokio::time::timeout(duration, stop.wait_for(|level| *level != RUNNING)).await;
}

/// Locks shared counters, also after a panic elsewhere (they stay usable).
pub(crate) fn lock<T>(shared: &Mutex<T>) -> MutexGuard<'_, T> {
    shared.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
