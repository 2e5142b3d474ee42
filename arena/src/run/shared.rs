//! What the slots of one process share: the stop level, the progress line,
//! the first failure, counts, the beat that tells the database this process
//! is alive, and the signal that wakes idle slots.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use db::Db;
use model::WorkerBeat;
use tokio::sync::watch;

use super::error::RunError;
use super::progress::Progress;
use super::stop::{self, Stop};
use crate::util::lock;

/// What the slots of one process do when a unit fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnError {
    /// Stop every slot (finishing the units in flight) and report the first error: a local run.
    Stop,
    /// Say it and go on with other work: a worker.
    Continue,
}

/// What the slots did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Units stored.
    pub stored: u64,
    /// Units given up because the lease was lost (taken over, or the run ended).
    pub lost: u64,
}

/// What a local run's front end follows while it plays: how many units of
/// work (pairs, suite chunks) the slots of this process have stored, raised
/// as each one is. The printers of the run's games (a live PGN, a tool's
/// `Finished game` lines) wait on it instead of polling the database, and
/// end when the play ends (the events are dropped with the slots).
#[derive(Debug)]
pub struct Events(watch::Sender<u64>);

impl Events {
    /// Events no one follows yet.
    pub fn new() -> Events {
        Events(watch::Sender::new(0))
    }

    /// A follower: changes once per stored unit (or once for several, if it
    /// was busy), and ends when the play does.
    pub fn follow(&self) -> watch::Receiver<u64> {
        self.0.subscribe()
    }

    /// A unit was stored.
    pub(super) fn stored(&self) {
        self.0.send_modify(|units| *units += 1);
    }
}

impl Default for Events {
    fn default() -> Events {
        Events::new()
    }
}

/// What the slots of one process share.
pub struct Shared {
    /// Raised as each unit of work is stored here, for the front end.
    pub(super) events: Events,
    pub(super) stop: watch::Sender<Stop>,
    pub(super) progress: Mutex<Progress>,
    on_error: OnError,
    failure: Mutex<Option<RunError>>,
    pub(super) counts: Mutex<Counts>,
    /// When this process last told the database it is alive (`workers`),
    /// and what it did since.
    beats: Mutex<(Option<Instant>, WorkerBeat)>,
    /// Raised when a slot of this process stores or gives back a unit: an
    /// idle slot looks again at once instead of at its next poll (the last
    /// pair of a local run ends the run without a second's wait).
    pub(super) changed: tokio::sync::Notify,
    /// Whether the database cannot be reached (a worker's slots go on
    /// trying): said once when it starts and once when it ends.
    outage: std::sync::atomic::AtomicBool,
}

/// Beats are written at most this often.
const BEAT_EVERY: Duration = Duration::from_secs(5);

impl Shared {
    /// Slots that report to `progress` and `events`, and treat failures as
    /// `on_error` says.
    pub fn new(progress: Progress, events: Events, on_error: OnError) -> Arc<Shared> {
        Arc::new(Shared {
            events,
            stop: watch::Sender::new(Stop::Running),
            progress: Mutex::new(progress),
            on_error,
            failure: Mutex::new(None),
            counts: Mutex::new(Counts::default()),
            beats: Mutex::new((None, WorkerBeat::default())),
            changed: tokio::sync::Notify::new(),
            outage: std::sync::atomic::AtomicBool::new(false),
        })
    }

    /// Tells the database this process is alive and what it did (the
    /// dashboard's workers page): counts add up here and are written at most
    /// every [`BEAT_EVERY`] (or at once with `now`), so a fast match does not
    /// pay a write per pair; a failed write is only bookkeeping lost.
    pub(super) async fn beat(&self, db: &Db, beat: WorkerBeat, now: bool) {
        let due = {
            let mut beats = lock(&self.beats);
            let (last, pending) = &mut *beats;
            pending.add(beat);
            if !now && last.is_some_and(|at| at.elapsed() < BEAT_EVERY) {
                return;
            }
            *last = Some(Instant::now());
            std::mem::take(pending)
        };
        if db.worker_beat(&worker_name(), &due).await.is_err() {
            // Try the counts again with the next beat.
            lock(&self.beats).1.add(WorkerBeat { run: None, doing: String::new(), ..due });
        }
    }

    /// Says `message` above the progress line.
    pub fn note(&self, message: &str) {
        lock(&self.progress).note(message);
    }

    /// Raises the stop level at each Ctrl-C, SIGTERM or SIGHUP until the slots are done.
    pub fn watch_signals(self: &Arc<Self>) -> tokio::task::JoinHandle<()> {
        let shared = self.clone();
        tokio::spawn(async move {
            let messages = [
                "stopping: the work in flight finishes and nothing new starts; Ctrl-C again stops at once (the work \
                 in flight then goes back to the queue)",
                "stopping now: the work in flight goes back to the queue; `arena resume` or a worker replays it whole",
            ];
            // Said even with --quiet (and in a tool's dialect): a signal is answered at once.
            stop::watch_signals(&shared.stop, messages, crate::term::note).await;
        })
    }

    /// What the slots did.
    pub fn counts(&self) -> Counts {
        *lock(&self.counts)
    }

    /// The first failure, for a local run.
    pub fn take_failure(&self) -> Option<RunError> {
        lock(&self.failure).take()
    }

    /// Ends the progress line.
    pub fn finish(&self) {
        lock(&self.progress).finish();
    }

    /// The database answered: an outage, if there was one, is over.
    pub(super) fn reached(&self, db: &Db) {
        if self.outage.swap(false, std::sync::atomic::Ordering::Relaxed) {
            self.note(&format!("reconnected to {}: the work goes on", db.describe()));
        }
    }

    /// Records a failure; `true` when the slot should stop. `note` says it
    /// when slots go on.
    pub(super) fn fail(&self, error: RunError, note: impl FnOnce(&RunError) -> String) -> bool {
        // A worker's role refused a statement (without the grants this
        // arena needs): trying again cannot help, so it stops as a local run does.
        let denied = matches!(error, RunError::Db(db::DbError::Denied { .. }));
        if self.on_error == OnError::Stop || denied {
            lock(&self.failure).get_or_insert(error);
            let _ = self.stop.send(Stop::FinishInFlight);
            return true;
        }
        if matches!(error, RunError::Db(db::DbError::Unreachable { .. })) {
            // Said once per outage; `reached` says its end.
            if !self.outage.swap(true, std::sync::atomic::Ordering::Relaxed) {
                self.note(&format!(
                    "{error}; trying again: the games in flight play on, and what cannot be stored goes back to the queue"
                ));
            }
            return false;
        }
        self.note(&note(&error));
        false
    }
}

/// This process's name in the database: `host:pid`.
pub fn worker_name() -> String {
    format!("{}:{}", crate::util::machine_name(), std::process::id())
}

/// Whether `holder`, a slot's name in the database (`host:pid/slot`, a
/// [`worker_name`] and its slot), is a process of this machine that has
/// ended: its pairs in flight will never be finished.
pub fn holder_ended(holder: &str) -> bool {
    let Some((machine, rest)) = holder.rsplit_once(':') else { return false };
    let pid = rest.split('/').next().and_then(|pid| pid.parse().ok());
    machine == crate::util::machine_name() && pid.is_some_and(crate::util::process_ended)
}

#[cfg(test)]
mod tests {
    use super::{holder_ended, worker_name};

    #[test]
    fn only_an_ended_process_of_this_machine_has_ended_as_a_holder() {
        assert!(!holder_ended(&format!("{}/0", worker_name())), "this process plays on");
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        let here = crate::util::machine_name();
        assert!(holder_ended(&format!("{here}:{pid}/1")), "its process ended");
        assert!(!holder_ended(&format!("{here}-elsewhere:{pid}/1")), "another machine's: only its lease tells");
        for odd in ["", "w1", "host:", ":/0", "host:abc/0", "host:0/0"] {
            assert!(!holder_ended(odd), "{odd:?} names no process of this machine");
        }
    }
}
