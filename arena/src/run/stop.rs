//! What the slots of one process share to stop and wait: the stop level
//! sent on a `watch` channel, the signal watcher that raises it, an idle
//! pause that a stop cuts short, and a lock on shared state that a panic
//! elsewhere does not poison.

use std::time::Duration;

use tokio::sync::watch;

/// How far a process has been asked to stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stop {
    /// Keep claiming work.
    Running,
    /// Claim nothing new; finish what is in flight (first Ctrl-C).
    FinishInFlight,
    /// Give what is in flight back (second Ctrl-C).
    Abandon,
}

/// Raises the stop level at each Ctrl-C, SIGTERM (systemd, Docker,
/// `timeout`) or SIGHUP (the terminal closed): [`Stop::FinishInFlight`],
/// then [`Stop::Abandon`], saying `messages[0]` and `messages[1]` through `note`.
pub(crate) async fn watch_signals(stop: &watch::Sender<Stop>, messages: [&str; 2], note: impl Fn(&str)) {
    use tokio::signal::unix::{SignalKind, signal};
    let (Ok(mut term), Ok(mut hangup)) = (signal(SignalKind::terminate()), signal(SignalKind::hangup())) else {
        return;
    };
    for (level, message) in [Stop::FinishInFlight, Stop::Abandon].into_iter().zip(messages) {
        let name = tokio::select! {
            interrupt = tokio::signal::ctrl_c() => match interrupt {
                Ok(()) => "Ctrl-C",
                Err(_) => return,
            },
            _ = term.recv() => "SIGTERM",
            _ = hangup.recv() => "SIGHUP",
        };
        note(&format!("{name}: {message}"));
        let _ = stop.send(level);
    }
}

/// Waits `duration`, or less when the stop level leaves [`Stop::Running`].
pub(crate) async fn pause(stop: &watch::Receiver<Stop>, duration: Duration) {
    let mut stop = stop.clone();
    let _ = tokio::time::timeout(duration, stop.wait_for(|level| *level != Stop::Running)).await;
}
