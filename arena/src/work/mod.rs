//! One work loop for every kind of run. A run's work is cut into units — a
//! pair of games ([`pairs`]), a chunk of test positions ([`chunks`]) — that
//! live in the database as a leased queue. Seats claim a unit, play it under
//! a lease renewed by a heartbeat, store it, and give it back when stopped or
//! failed; [`serve`] is that loop, written once. The local run
//! ([`local`]: `arena elo`, `suite`, `resume` …) and `arena worker`
//! ([`worker`]: every open run of a shared database) both drive it.
//!
//! Ctrl-C once ([`Stop::FinishInFlight`]): no new unit is claimed and those
//! in flight finish (a suite chunk stops after the position in flight and
//! stores what it has). Twice ([`Stop::Abandon`]): units in flight are given
//! back at once, to be replayed whole by `arena resume` or a worker.

pub mod chunks;
pub mod local;
pub mod pairs;
pub mod progress;
pub mod stop;
pub mod worker;

use std::collections::HashMap;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use db::{Db, DbError};
use model::{Spec, WorkerBeat};
use tokio::sync::watch;

use crate::clock::TimeControl;
use crate::engines::EngineSpec;
use crate::plan::time_control;
use crate::player::Player;
use crate::process::{EngineError, Timeouts};
use progress::Progress;
pub use stop::Stop;
use stop::{lock, pause};

/// How long a claimed unit stays with its worker without a heartbeat.
pub const DEFAULT_LEASE: Duration = Duration::from_secs(60);

/// Where work executes: the database, the engines' binary, logs, timeouts.
#[derive(Clone, Debug)]
pub struct Runtime {
    /// The database.
    pub db: Db,
    /// The `arena` binary (runs the bundled engine).
    pub arena_exe: PathBuf,
    /// Folder for engines' stderr logs (a `run-N` folder per run inside).
    pub log_dir: Option<PathBuf>,
    /// Protocol timeouts.
    pub timeouts: Timeouts,
    /// Print progress to stderr.
    pub progress: bool,
    /// Core pinning: each seat's engines on its own CPUs (`--affinity`).
    pub affinity: Option<crate::affinity::Affinity>,
    /// Keep each game's engine I/O log in `log_dir` (`--no-io-log` turns it off).
    pub io_logs: bool,
}

/// Why work could not be done.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// Storage failed.
    #[error(transparent)]
    Db(#[from] DbError),
    /// An engine could not be started or configured.
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// The machine, not an engine, failed; nothing of the game was stored.
    #[error(transparent)]
    Machine(#[from] crate::game::MachineFault),
    /// The spec is inconsistent, or cannot be played on this machine.
    #[error("{0}")]
    Spec(String),
}

/// What storing a unit did, for the progress line.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stored {
    /// Progress made: games or answers.
    pub added: u64,
    /// The run's state after it, for the progress line (`fhr vs plain +3 =1 -2, LLR 0.4`).
    pub status: String,
    /// The run ended with this unit.
    pub run_finished: bool,
}

/// How a unit ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Played {
    /// Stored.
    Stored(Stored),
    /// The lease was lost (taken over, or the run stopped or decided):
    /// nothing more of this unit is stored by us.
    LeaseLost,
    /// The unit before it on the same seat ended its run (an SPRT decided):
    /// it was skipped with the run's other open units.
    RunEnded,
}

/// The last write of a unit whose play is over, as a future the seat
/// drives while its next unit plays.
pub type Storing = std::pin::Pin<Box<dyn Future<Output = Result<Played, RunError>> + Send>>;

/// How playing a unit ended, as its seat sees it at once.
pub enum Outcome {
    /// Stored (or lost) already.
    Done(Played),
    /// Played; storing it ends with this future. The seat claims its next
    /// unit first, then drives it beside that unit's play, so the engines
    /// do not wait for the database between units.
    Storing(Storing),
}

/// A kind of work: how to claim a unit, play and store it, renew its lease
/// and give it back. Pairs of games and suite chunks implement it, and so
/// does the worker's catalogue of open runs, which dispatches to them.
pub trait Work: Send + Sync + 'static {
    /// A claimed unit with its lease.
    type Unit: Send + Sync + 'static;

    /// The next free unit for `seat`; `None` when nothing is free now.
    fn claim(&self, seat: &Seat) -> impl Future<Output = Result<Option<Self::Unit>, RunError>> + Send;

    /// Plays a claimed unit and stores it, only while the lease holds. When
    /// `stop` asks to finish in flight, a unit that can stop midway (a suite
    /// chunk) stores what it has. Its last write may be left to the seat
    /// ([`Outcome::Storing`]).
    fn play(
        self: Arc<Self>,
        seat: &mut Seat,
        unit: &Self::Unit,
        stop: &watch::Receiver<Stop>,
    ) -> impl Future<Output = Result<Outcome, RunError>> + Send;

    /// Extends the unit's lease by `lease` from now; `false` when it is lost.
    fn renew(&self, db: &Db, lease: Duration, unit: &Self::Unit) -> impl Future<Output = Result<bool, DbError>> + Send;

    /// Gives an unfinished unit back to the queue.
    fn release(&self, db: &Db, unit: &Self::Unit) -> impl Future<Output = Result<(), DbError>> + Send;

    /// With nothing to claim: whether work may still come (units held by
    /// other workers, whose leases may expire; new runs).
    fn more_may_come(&self, db: &Db) -> impl Future<Output = Result<bool, RunError>> + Send;

    /// The unit in messages: `run 3 pair 12`.
    fn describe(&self, unit: &Self::Unit) -> String;

    /// The run the unit belongs to.
    fn run_of(&self, unit: &Self::Unit) -> i64;

    /// A unit failed with `error` (after it was given back).
    fn failed(&self, _unit: &Self::Unit, _error: &RunError) {}
}

/// One seat: claims units one at a time and keeps one engine process per
/// run and engine between them.
pub struct Seat {
    runtime: Runtime,
    /// Names this seat in the database (`host:pid/seat`) and in log files.
    name: String,
    lease: Duration,
    players: HashMap<(i64, String), Player>,
    /// The CPUs its engines run on (`--affinity`).
    cpus: Option<Vec<usize>>,
}

impl Seat {
    /// A seat named `name`, holding units for `lease` between heartbeats.
    pub fn new(runtime: Runtime, name: String, lease: Duration) -> Seat {
        Seat { runtime, name, lease, players: HashMap::new(), cpus: None }
    }

    /// A new I/O log for a game of run `run`, when logs are kept.
    pub fn io_log(&self, run: i64) -> Option<crate::iolog::IoLog> {
        let dir = self.runtime.log_dir.as_ref().filter(|_| self.runtime.io_logs)?;
        Some(crate::iolog::IoLog::new(dir.join(format!("run-{run}"))))
    }

    /// Runs the seat's engines on `cpus`.
    pub fn pin(&mut self, cpus: Vec<usize>) {
        self.cpus = Some(cpus);
    }

    /// The database.
    pub fn db(&self) -> &Db {
        &self.runtime.db
    }

    /// The name claims are made under.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The lease length.
    pub fn lease(&self) -> Duration {
        self.lease
    }

    /// The players of `engines` (each with its time control) for run `run`:
    /// the processes kept from earlier units, or new ones (started on first
    /// use). They stay with the seat, so a unit dropped midway leaves them
    /// here to be shut down.
    ///
    /// # Errors
    ///
    /// [`RunError::Spec`] when an engine is named twice.
    pub fn players<const N: usize>(
        &mut self,
        run: i64,
        engines: [(&EngineSpec, &TimeControl); N],
    ) -> Result<[&mut Player; N], RunError> {
        for (engine, tc) in engines {
            if !self.players.contains_key(&(run, engine.name.clone())) {
                let log = self.runtime.log_dir.as_ref().map(|dir| {
                    let folder = dir.join(format!("run-{run}"));
                    let _ = std::fs::create_dir_all(&folder);
                    folder.join(format!("{}-{}.stderr.log", sanitize(&engine.name), sanitize(&self.name)))
                });
                let launch = engine.launch(&self.runtime.arena_exe);
                let mut player = Player::new(engine.clone(), tc.clone(), launch, log, self.runtime.timeouts);
                player.pin(self.cpus.clone());
                self.players.insert((run, engine.name.clone()), player);
            }
        }
        let keys = engines.map(|(engine, _)| (run, engine.name.clone()));
        if (0..N).any(|i| keys[..i].contains(&keys[i])) {
            return Err(RunError::Spec(format!("run {run} names engine '{}' twice", keys[0].1)));
        }
        let players = self.players.get_disjoint_mut(keys.each_ref());
        Ok(players.map(|player| player.expect("inserted above")))
    }

    /// Quits every engine process of the seat.
    pub async fn shutdown(&mut self) {
        for (_, mut player) in self.players.drain() {
            player.shutdown().await;
        }
    }
}

/// What the seats of one process do when a unit fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnError {
    /// Stop every seat (finishing the units in flight) and report the first error: a local run.
    Stop,
    /// Say it and go on with other work: a worker.
    Continue,
}

/// What the seats of one process share.
pub struct Shared {
    stop: watch::Sender<Stop>,
    progress: Mutex<Progress>,
    on_error: OnError,
    failure: Mutex<Option<RunError>>,
    counts: Mutex<Counts>,
    /// When this process last told the database it is alive (`workers`),
    /// and what it did since.
    beats: Mutex<(Option<std::time::Instant>, WorkerBeat)>,
    /// Raised when a seat of this process stores or gives back a unit: an
    /// idle seat looks again at once instead of at its next poll (the last
    /// pair of a local run ends the run without a second's wait).
    changed: tokio::sync::Notify,
}

/// Beats are written at most this often.
const BEAT_EVERY: Duration = Duration::from_secs(5);

/// What the seats did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Units stored.
    pub stored: u64,
    /// Units given up because the lease was lost (taken over, or the run ended).
    pub lost: u64,
}

impl Shared {
    /// Seats that report to `progress` and treat failures as `on_error` says.
    pub fn new(progress: Progress, on_error: OnError) -> Arc<Shared> {
        Arc::new(Shared {
            stop: watch::Sender::new(Stop::Running),
            progress: Mutex::new(progress),
            on_error,
            failure: Mutex::new(None),
            counts: Mutex::new(Counts::default()),
            beats: Mutex::new((None, WorkerBeat::default())),
            changed: tokio::sync::Notify::new(),
        })
    }

    /// Tells the database this process is alive and what it did (the
    /// dashboard's workers page): counts add up here and are written at most
    /// every [`BEAT_EVERY`] (or at once with `now`), so a fast match does not
    /// pay a write per pair; a failed write is only bookkeeping lost.
    async fn beat(&self, db: &Db, beat: WorkerBeat, now: bool) {
        let due = {
            let mut beats = lock(&self.beats);
            let (last, pending) = &mut *beats;
            pending.add(beat);
            if !now && last.is_some_and(|at| at.elapsed() < BEAT_EVERY) {
                return;
            }
            *last = Some(std::time::Instant::now());
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

    /// Raises the stop level at each Ctrl-C, SIGTERM or SIGHUP until the seats are done.
    pub fn watch_signals(self: &Arc<Self>) -> tokio::task::JoinHandle<()> {
        let shared = self.clone();
        tokio::spawn(async move {
            let messages = [
                "stopping: nothing new is claimed and the work in flight finishes; a second signal gives it back",
                "giving the work in flight back to the queue; `arena resume` or a worker replays it whole",
            ];
            stop::watch_signals(&shared.stop, messages, |message| shared.note(message)).await;
        })
    }

    /// What the seats did.
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

    /// Records a failure; `true` when the seat should stop. `note` says it
    /// when seats go on.
    fn fail(&self, error: RunError, note: impl FnOnce(&RunError) -> String) -> bool {
        match self.on_error {
            OnError::Stop => {
                lock(&self.failure).get_or_insert(error);
                let _ = self.stop.send(Stop::FinishInFlight);
                true
            }
            OnError::Continue => {
                self.note(&note(&error));
                false
            }
        }
    }
}

/// What a seat does next.
enum Next<U> {
    /// Play this unit.
    Play(U),
    /// Nothing free now, but work may come: look again.
    Wait,
    /// No more work.
    Done,
}

/// How often an idle seat looks again while work may still come.
const IDLE_POLL: Duration = Duration::from_secs(1);

/// The work loop of one seat: claim, play under a heartbeat, store, or give
/// back; until the work is done or the stop level says so. A unit's last
/// write ([`Outcome::Storing`]) goes on while the next unit plays.
pub async fn serve<W: Work>(work: Arc<W>, mut seat: Seat, shared: Arc<Shared>, idle: Duration) {
    let stop = shared.stop.subscribe();
    let db = seat.db().clone();
    // The unit played last, while its last write goes on beside this one's play.
    let mut pending: Option<Pending<W::Unit>> = None;
    while *stop.borrow() == Stop::Running {
        // Listening before the claim: a unit stored or given back by another
        // seat between the claim and the wait still wakes this one.
        let changed = shared.changed.notified();
        tokio::pin!(changed);
        changed.as_mut().enable();
        let next = match work.claim(&seat).await {
            Ok(Some(unit)) => Ok(Next::Play(unit)),
            Ok(None) => work.more_may_come(&db).await.map(|more| if more { Next::Wait } else { Next::Done }),
            Err(e) => Err(e),
        };
        let unit = match next {
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
        let lease = seat.lease;
        let what = work.describe(&unit);
        let run = work.run_of(&unit);
        let doing = || WorkerBeat { run: Some(run), doing: what.clone(), ..WorkerBeat::default() };
        shared.beat(&db, doing(), false).await;
        let heartbeat = async {
            loop {
                tokio::time::sleep(lease / 3).await;
                shared.beat(&db, doing(), false).await;
                // A failed renewal (database unreachable) is retried: storing checks the lease anyway.
                if let Ok(false) = work.renew(&db, lease, &unit).await {
                    return;
                }
            }
        };
        let mut abandon = stop.clone();
        let outcome = {
            let play = work.clone().play(&mut seat, &unit, &stop);
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
                        let ended = settled(&*work, &shared, &db, last.unit, &last.what, stored).await;
                        if ended == Some(run) {
                            // The last unit ended the run (an SPRT decided): this
                            // one was skipped with it, and its games are not kept.
                            break Some(Ok(Outcome::Done(Played::RunEnded)));
                        }
                    }
                }
            }
        };
        let played = match outcome {
            Some(Ok(Outcome::Storing(storing))) => {
                pending = Some(Pending { unit, what, storing });
                continue;
            }
            Some(Ok(Outcome::Done(played))) => Ok(played),
            Some(Err(error)) => Err(error),
            None => {
                if let Some(last) = pending.take() {
                    last.settle(&*work, &shared, &db).await;
                }
                let _wake = WakeOnDrop(&shared.changed);
                if let Err(e) = work.release(&db, &unit).await {
                    shared.note(&format!("{what}: could not give it back ({e}); its lease will expire"));
                }
                break;
            }
        };
        let keep_engines = matches!(played, Ok(Played::Stored(_)));
        settled(&*work, &shared, &db, unit, &what, played).await;
        if !keep_engines {
            // Possibly mid-game or mid-search: fresh processes for the next unit.
            seat.shutdown().await;
        }
    }
    if let Some(last) = pending.take() {
        last.settle(&*work, &shared, &db).await;
    }
    seat.shutdown().await;
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

/// Settles `unit` (described as `what`) once its play and storing ended
/// with `stored`: counted, on the progress line and in the worker's beat
/// when stored; given back to the queue otherwise. Idle seats look again.
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
    let doing = WorkerBeat { run: Some(run), doing: what.to_string(), ..WorkerBeat::default() };
    match stored {
        Ok(Played::Stored(stored)) => {
            let added = i64::try_from(stored.added).unwrap_or(0);
            shared.beat(db, WorkerBeat { units: 1, progress: added, ..doing }, false).await;
            lock(&shared.counts).stored += 1;
            lock(&shared.progress).stored(what, &stored);
            return stored.run_finished.then_some(run);
        }
        Ok(lost @ (Played::LeaseLost | Played::RunEnded)) => {
            // Back to the queue if it is still ours (its run was stopped, say
            // from the dashboard); a no-op when another seat holds it now.
            let _ = work.release(db, &unit).await;
            lock(&shared.counts).lost += 1;
            // A run that ended (an SPRT decided, the last pair stored by
            // another seat) drops its units in flight: nothing to say.
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
                shared.beat(db, WorkerBeat { faults: 1, ..doing }, false).await;
            }
            work.failed(&unit, &error);
            // A local run stops every seat here (they finish what they
            // play); a worker says it and goes on.
            shared.fail(error, |e| format!("{what}: {e}; it goes back to the queue"));
        }
    }
    None
}

/// Wakes every idle seat when dropped, that is once the unit in hand is
/// stored or given back, whichever way the seat's loop goes on.
struct WakeOnDrop<'a>(&'a tokio::sync::Notify);

impl Drop for WakeOnDrop<'_> {
    fn drop(&mut self) {
        self.0.notify_waiters();
    }
}

/// Starts `concurrency` seats of this process on `work` and waits for them.
///
/// On SQLite each seat runs on a thread of its own with a single-threaded
/// runtime: its engines' pipes, timers and the seat's loop then stay on one
/// thread, and no ply waits for a task to move between threads. With
/// scripted instant engines this took a concurrency-2 game loop from
/// 12.6–13.5 to 8.4 µs per ply (`examples/overhead`, BENCHMARKS.md). On
/// PostgreSQL the seats stay tasks of the process's runtime, because a
/// connection opened by a seat would belong to that seat's runtime and
/// break once the seat ends; SQLite's connection is a thread of its own.
pub async fn seats<W: Work>(
    work: Arc<W>,
    runtime: &Runtime,
    shared: &Arc<Shared>,
    concurrency: usize,
    lease: Duration,
    idle: Duration,
) {
    let name = worker_name();
    let mut tasks = tokio::task::JoinSet::new();
    let mut threads = Vec::new();
    for index in 0..concurrency.max(1) {
        let mut seat = Seat::new(runtime.clone(), format!("{name}/{index}"), lease);
        let cpus = runtime.affinity.as_ref().map(|affinity| affinity.slot(index, concurrency.max(1)));
        if let Some(cpus) = &cpus {
            seat.pin(cpus.clone());
        }
        let serving = serve(work.clone(), seat, shared.clone(), idle);
        if runtime.db.is_shared() {
            tasks.spawn(serving);
        } else {
            match seat_thread(index, cpus, serving) {
                Ok(done) => threads.push(done),
                Err(serving) => {
                    tasks.spawn(serving);
                }
            }
        }
    }
    while tasks.join_next().await.is_some() {}
    for done in threads {
        // An error: the seat's thread panicked, and its unit's lease expires.
        let _ = done.await;
    }
    shared.beat(&runtime.db, WorkerBeat::default(), true).await;
}

/// Runs `serving` on a new thread with a single-threaded runtime; the
/// receiver hears when it ends. The future back when the thread or its
/// runtime cannot be made (then it runs as a task).
fn seat_thread<F>(index: usize, cpus: Option<Vec<usize>>, serving: F) -> Result<tokio::sync::oneshot::Receiver<()>, F>
where
    F: Future<Output = ()> + Send + 'static,
{
    let seat_runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(seat_runtime) => seat_runtime,
        Err(_) => return Err(serving),
    };
    let (done, ended) = tokio::sync::oneshot::channel();
    let slot = Arc::new(Mutex::new(Some(serving)));
    let taken = slot.clone();
    let started = std::thread::Builder::new().name(format!("seat-{index}")).spawn(move || {
        if let Some(cpus) = &cpus {
            crate::affinity::pin_thread(cpus);
        }
        if let Some(serving) = stop::lock(&taken).take() {
            seat_runtime.block_on(serving);
        }
        let _ = done.send(());
    });
    match started {
        Ok(_) => Ok(ended),
        // The closure was dropped unrun: the future is still in the slot.
        Err(_) => stop::lock(&slot).take().map_or_else(|| Ok(tokio::sync::oneshot::channel().1), Err),
    }
}

/// This process's name in the database: `host:pid`.
pub fn worker_name() -> String {
    format!("{}:{}", db::host_name(), std::process::id())
}

/// Starts every engine of a run once as its games or searches will start
/// it — its options, and under node-time the node-time option the clock
/// sets — and quits it, so that a bad command, option or setting is
/// reported before anything is stored or played.
///
/// # Errors
///
/// [`RunError::Spec`] for a bad time control; the first engine's [`EngineError`].
pub async fn preflight(arena_exe: &Path, timeouts: Timeouts, spec: &Spec) -> Result<(), RunError> {
    let engines: Vec<(&EngineSpec, TimeControl)> = match spec {
        Spec::Games(games) => games
            .engines
            .iter()
            .enumerate()
            .map(|(i, engine)| Ok((engine, time_control(games, i).map_err(|e| RunError::Spec(e.to_string()))?)))
            .collect::<Result<_, RunError>>()?,
        Spec::Suite(suite) => suite.engines.iter().map(|engine| (engine, chunks::time_control(suite))).collect(),
    };
    for (engine, tc) in engines {
        let mut player = Player::new(engine.clone(), tc, engine.launch(arena_exe), None, timeouts);
        let ready = player.ready_for_game().await.map(|_| ());
        player.shutdown().await;
        ready?;
    }
    Ok(())
}

/// `name` as a file-name part: letters, digits, `-` and `_` kept, the rest `_`.
pub(crate) fn sanitize(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect()
}
