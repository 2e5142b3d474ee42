//! The one work loop: each slot claims a unit, plays it under a lease
//! renewed by a heartbeat, stores it or gives it back, until the work is
//! done or the stop level says so; [`start_slots`] runs a process's slots.

use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use db::Db;
use model::WorkerBeat;
use tokio::sync::watch;

use super::error::RunError;
use super::shared::{Shared, worker_name};
use super::slot::{Runtime, Slot};
use super::stop::{Stop, pause};
use super::unit::{Outcome, Played, Storing, Work};
use crate::util::lock;

/// How long a claimed unit stays with its worker without a heartbeat.
pub const DEFAULT_LEASE: Duration = Duration::from_secs(60);

/// How often an idle slot looks again while work may still come.
pub const IDLE_POLL: Duration = Duration::from_secs(1);

/// What a slot does next.
enum Next<U> {
    /// Play this unit.
    Play(U),
    /// Nothing free now, but work may come: look again.
    Wait,
    /// No more work.
    Done,
}

/// Whether the loop goes on after a unit.
#[derive(PartialEq, Eq)]
enum After {
    /// Claim the next unit.
    ClaimNext,
    /// The work in flight was given back: the slot ends.
    End,
}

/// A unit whose play is over, with its last write.
struct Pending<U> {
    unit: U,
    what: String,
    storing: Storing,
}

impl<U> Pending<U> {
    /// Finishes the last write and settles the unit (see [`settled`]).
    async fn settle<W: Work<Unit = U>>(mut self, work: &W, shared: &Shared, db: &Db) -> Option<i64> {
        let stored = self.storing.as_mut().await;
        settled(work, shared, db, self.unit, &self.what, stored).await
    }
}

/// The work loop of one slot: claim, play under a heartbeat, store, or give
/// back; until the work is done or the stop level says so. A unit's last
/// write ([`Outcome::Storing`]) goes on while the next unit plays.
pub async fn run_slot<W: Work>(work: Arc<W>, mut slot: Slot, shared: Arc<Shared>, idle: Duration) {
    let stop = shared.stop.subscribe();
    let db = slot.db().clone();
    // The unit played last, while its last write goes on beside this one's play.
    let mut pending: Option<Pending<W::Unit>> = None;
    while *stop.borrow() == Stop::Running {
        // Listening before the claim: a unit stored or given back by another
        // slot between the claim and the wait still wakes this one.
        let changed = shared.changed.notified();
        tokio::pin!(changed);
        changed.as_mut().enable();
        let claimed = claim(&*work, &slot, &db).await;
        if claimed.is_ok() {
            shared.reached(&db);
        }
        let unit = match claimed {
            Ok(Next::Play(unit)) => unit,
            // Nothing claimed while the last unit is still being stored: what
            // comes next depends on it (it may end the run), so it goes first.
            _ if pending.is_some() => {
                if let Some(last) = pending.take() {
                    last.settle(&*work, &shared, &db).await;
                }
                continue;
            }
            Ok(Next::Done) => break,
            Ok(Next::Wait) => {
                // Nothing to play for now (the runs are done, or their last
                // units are out): its engines need not wait with it.
                slot.shutdown().await;
                shared.beat(&db, WorkerBeat::default(), false).await;
                tokio::select! {
                    () = pause(&stop, idle.min(IDLE_POLL)) => {}
                    () = changed => {}
                }
                continue;
            }
            Err(e) => {
                if shared.fail(e, |e| format!("{e}; trying again")) {
                    break;
                }
                pause(&stop, idle).await;
                continue;
            }
        };
        if play_one(&work, &mut slot, &shared, &stop, unit, &mut pending).await == After::End {
            break;
        }
    }
    if let Some(last) = pending.take() {
        last.settle(&*work, &shared, &db).await;
    }
    slot.shutdown().await;
}

/// The next unit to play, or whether to wait for one.
async fn claim<W: Work>(work: &W, slot: &Slot, db: &Db) -> Result<Next<W::Unit>, RunError> {
    match work.claim(slot).await? {
        Some(unit) => Ok(Next::Play(unit)),
        None if work.more_may_come(db).await? => Ok(Next::Wait),
        None => Ok(Next::Done),
    }
}

/// What a slot tells the database it is doing.
fn doing(run: i64, what: &str) -> WorkerBeat {
    WorkerBeat { run: Some(run), doing: what.to_string(), ..WorkerBeat::default() }
}

/// Plays `unit` and settles it, or leaves its last write `pending` to go on
/// beside the next unit's play; gives it back when the stop level says so.
async fn play_one<W: Work>(
    work: &Arc<W>,
    slot: &mut Slot,
    shared: &Shared,
    stop: &watch::Receiver<Stop>,
    unit: W::Unit,
    pending: &mut Option<Pending<W::Unit>>,
) -> After {
    let db = slot.db().clone();
    let what = work.describe(&unit);
    shared.beat(&db, doing(work.run_of(&unit), &what), false).await;
    let played = match race(work, slot, shared, stop, &unit, &what, pending).await {
        Some(Ok(Outcome::Storing(storing))) => {
            *pending = Some(Pending { unit, what, storing });
            slot.retire_idle().await;
            return After::ClaimNext;
        }
        Some(Ok(Outcome::Done(played))) => Ok(played),
        Some(Err(error)) => Err(error),
        None => {
            if let Some(last) = pending.take() {
                last.settle(&**work, shared, &db).await;
            }
            let _wake = WakeOnDrop(&shared.changed);
            if let Err(e) = work.release(&db, &unit).await {
                shared.note(&format!("{what}: could not give it back ({e}); its lease will expire"));
            }
            return After::End;
        }
    };
    let keep_engines = matches!(played, Ok(Played::Stored(_)));
    settled(&**work, shared, &db, unit, &what, played).await;
    if keep_engines {
        slot.retire_idle().await;
    } else {
        // Possibly mid-game or mid-search: fresh processes for the next unit.
        slot.shutdown().await;
    }
    After::ClaimNext
}

/// Plays `unit` until it ends, its lease is lost, or the stop level says
/// to give it back (`None`); meanwhile drives the last unit's write and
/// settles it. When that write ended the run (an SPRT decided), this unit
/// was skipped with it and its games are not kept.
async fn race<W: Work>(
    work: &Arc<W>,
    slot: &mut Slot,
    shared: &Shared,
    stop: &watch::Receiver<Stop>,
    unit: &W::Unit,
    what: &str,
    pending: &mut Option<Pending<W::Unit>>,
) -> Option<Result<Outcome, RunError>> {
    let db = slot.db().clone();
    let run = work.run_of(unit);
    let ended = {
        let heartbeat = heartbeat(&**work, shared, &db, slot.lease(), unit, doing(run, what));
        let mut abandon = stop.clone();
        let play = work.clone().play(slot, unit, stop);
        tokio::pin!(play, heartbeat);
        loop {
            let storing = async {
                match pending.as_mut() {
                    Some(last) => last.storing.as_mut().await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                played = &mut play => break Some(played),
                () = &mut heartbeat => break Some(Ok(Outcome::Done(Played::LeaseLost))),
                () = async { let _ = abandon.wait_for(|level| *level >= Stop::Abandon).await; } => break None,
                stored = storing => {
                    let Some(last) = pending.take() else { continue };
                    if settled(&**work, shared, &db, last.unit, &last.what, stored).await == Some(run) {
                        return Some(Ok(Outcome::Done(Played::RunEnded)));
                    }
                }
            }
        }
    };
    // The heartbeat (dropped above) or the last unit's write may have held
    // the database's one SQLite connection mid-way. That write finishes now,
    // before this slot asks for the database again (settling this unit, the
    // next claim), which would wait for a connection nobody drives, and
    // before a new pending write could replace it.
    if let Some(last) = pending.take() {
        last.settle(&**work, shared, &db).await;
    }
    ended
}

/// Renews `unit`'s lease every third of its length, and beats, until a
/// renewal says the lease is lost.
async fn heartbeat<W: Work>(work: &W, shared: &Shared, db: &Db, lease: Duration, unit: &W::Unit, doing: WorkerBeat) {
    loop {
        tokio::time::sleep(lease / 3).await;
        shared.beat(db, doing.clone(), false).await;
        // A failed renewal (database unreachable) is retried: storing checks the lease anyway.
        if let Ok(false) = work.renew(db, lease, unit).await {
            return;
        }
    }
}

/// Settles `unit` (described as `what`) once its play and storing ended
/// with `stored`: counted, on the progress line and in the worker's beat
/// when stored; given back to the queue otherwise. Idle slots look again.
/// The unit's run when it ended with this unit.
async fn settled<W: Work>(
    work: &W,
    shared: &Shared,
    db: &Db,
    unit: W::Unit,
    what: &str,
    stored: Result<Played, RunError>,
) -> Option<i64> {
    let _wake = WakeOnDrop(&shared.changed);
    let run = work.run_of(&unit);
    match stored {
        Ok(Played::Stored(stored)) => {
            shared.reached(db);
            let added = i64::try_from(stored.added).unwrap_or(0);
            shared.beat(db, WorkerBeat { units: 1, progress: added, ..doing(run, what) }, false).await;
            lock(&shared.counts).stored += 1;
            shared.events.stored();
            lock(&shared.progress).stored(what, &stored);
            if let Some(line) = crate::engine_io::starvation::overcommitted(crate::engine_io::affinity::cpu_count) {
                crate::term::warn(&line);
            }
            return stored.run_finished.then_some(run);
        }
        Ok(lost @ (Played::LeaseLost | Played::RunEnded)) => {
            // Back to the queue if it is still ours (its run was stopped, say
            // from the dashboard); a no-op when another slot holds it now.
            let _ = work.release(db, &unit).await;
            lock(&shared.counts).lost += 1;
            // A run that ended (an SPRT decided, the last pair stored by
            // another slot) drops its units in flight: nothing to say.
            let ended = matches!(db.run(run).await, Ok(info) if info.status == model::RunStatus::Finished);
            if lost == Played::LeaseLost && !ended {
                shared.note(&format!("{what}: taken over (lease expired) or the run was stopped; moving on"));
            }
        }
        Err(error) => {
            let _ = work.release(db, &unit).await;
            if !matches!(error, RunError::Db(_)) {
                // Storing failing is not the unit's fault (and a full disk
                // must keep its last room for the run's stopped status).
                shared.beat(db, WorkerBeat { faults: 1, ..doing(run, what) }, false).await;
            }
            work.failed(&unit, &error);
            // A local run stops every slot here (they finish what they
            // play); a worker says it and goes on.
            shared.fail(error, |e| format!("{what}: {e}; it goes back to the queue"));
        }
    }
    None
}

/// Wakes every idle slot when dropped, that is once the unit in hand is
/// stored or given back, whichever way the slot's loop goes on.
struct WakeOnDrop<'a>(&'a tokio::sync::Notify);

impl Drop for WakeOnDrop<'_> {
    fn drop(&mut self) {
        self.0.notify_waiters();
    }
}

/// Starts `concurrency` slots of this process on `work` and waits for them.
///
/// On SQLite the slots run on threads of their own, each with a
/// single-threaded runtime: a slot's engines' pipes, timers and loop then
/// stay on one thread, and no ply waits for a task to move between threads.
/// With scripted instant engines this took a concurrency-2 game loop from
/// 12.6–13.5 to 8.4 µs per ply (`examples/overhead`, BENCHMARKS.md). There
/// is one such thread per CPU at most ([`hosts`]): with more slots than
/// CPUs, each thread plays several slots' games, so that a slot costs its
/// games' buffers and not a thread's stack and allocator heap (a thread per
/// slot held about 22 MB a slot at 64 slots), and the CPUs switch between
/// as many threads as they have, not one per game. On PostgreSQL the slots
/// stay tasks of the process's runtime, because a connection opened by a
/// slot would belong to that slot's runtime and break once the slot ends;
/// SQLite's connection is a thread of its own.
pub async fn start_slots<W: Work>(
    work: Arc<W>,
    runtime: &Runtime,
    shared: &Arc<Shared>,
    concurrency: usize,
    lease: Duration,
    idle: Duration,
) {
    let name = worker_name();
    let concurrency = concurrency.max(1);
    let mut tasks = tokio::task::JoinSet::new();
    let mut hosted: Vec<Vec<SlotFuture>> = (0..hosts(concurrency)).map(|_| Vec::new()).collect();
    let mut pins: Vec<Option<Vec<usize>>> = vec![None; hosted.len()];
    for index in 0..concurrency {
        let mut slot = Slot::new(runtime.clone(), format!("{name}/{index}"), lease);
        let cpus = runtime.affinity.as_ref().map(|affinity| affinity.slot(index, concurrency));
        if let Some(cpus) = &cpus {
            slot.pin(cpus.clone());
        }
        let serving: SlotFuture = Box::pin(run_slot(work.clone(), slot, shared.clone(), idle));
        if runtime.db.is_shared() {
            tasks.spawn(serving);
        } else {
            let host = index % hosted.len();
            // A thread is pinned with its slot's CPUs when it plays that slot alone.
            pins[host] = if hosted[host].is_empty() { cpus } else { None };
            hosted[host].push(serving);
        }
    }
    let mut threads = Vec::new();
    for (index, (servings, cpus)) in hosted.into_iter().zip(pins).enumerate() {
        if servings.is_empty() {
            continue;
        }
        match slot_thread(index, cpus, runtime.db.clone(), servings) {
            Ok(done) => threads.push(done),
            Err(servings) => {
                for serving in servings {
                    tasks.spawn(serving);
                }
            }
        }
    }
    while tasks.join_next().await.is_some() {}
    for done in threads {
        // An error: the thread panicked, and its units' leases expire.
        let _ = done.await;
    }
    shared.beat(&runtime.db, WorkerBeat::default(), true).await;
}

/// A slot's loop, boxed so that the slots a thread plays share one type.
type SlotFuture = std::pin::Pin<Box<dyn Future<Output = ()> + Send + 'static>>;

/// Threads that play `concurrency` slots: one per slot up to the CPUs this
/// process may use, never more threads than CPUs.
fn hosts(concurrency: usize) -> usize {
    concurrency.clamp(1, crate::engine_io::affinity::cpu_count())
}

/// Runs `servings` on a new thread with a single-threaded runtime, each as
/// a task of it; the receiver hears when all have ended. The futures back
/// when the thread or its runtime cannot be made (then they run as tasks).
fn slot_thread(
    index: usize,
    cpus: Option<Vec<usize>>,
    db: Db,
    servings: Vec<SlotFuture>,
) -> Result<tokio::sync::oneshot::Receiver<()>, Vec<SlotFuture>> {
    let slot_runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(slot_runtime) => slot_runtime,
        Err(_) => return Err(servings),
    };
    let (done, ended) = tokio::sync::oneshot::channel();
    let hand_over = Arc::new(Mutex::new(Some(servings)));
    let taken = hand_over.clone();
    let started = std::thread::Builder::new().name(format!("slot-{index}")).spawn(move || {
        if let Some(cpus) = &cpus {
            crate::engine_io::affinity::pin_thread(cpus);
        }
        if let Some(servings) = lock(&taken).take() {
            slot_runtime.block_on(async move {
                let mut slots = tokio::task::JoinSet::new();
                for serving in servings {
                    slots.spawn(serving);
                }
                while slots.join_next().await.is_some() {}
            });
            // A connection a slot dropped mid-query returns through a task on this runtime.
            slot_runtime.block_on(db.quiesce(Duration::from_secs(2)));
        }
        let _ = done.send(());
    });
    match started {
        Ok(_) => Ok(ended),
        // The closure was dropped unrun: the futures are still handed over.
        Err(_) => lock(&hand_over).take().map_or_else(|| Ok(tokio::sync::oneshot::channel().1), Err),
    }
}
