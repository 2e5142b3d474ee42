//! Playing a run in this process: `concurrency` slots claim its pairs from
//! the database and play them under a lease (see [`super::slot`]); other
//! processes (`arena worker`) may play pairs of the same run at the same
//! time. The tally and the SPRT live in the database and are updated in the
//! transaction that finishes each pair, so the run ends there — all pairs
//! done, or the SPRT decided — whoever plays the last pair. Ctrl-C once: no
//! new pairs, those in flight finish. Twice: games in flight are abandoned
//! (engines killed) and their pairs go back to the queue, so `arena resume`
//! (or a worker) replays them whole.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use db::{Db, DbError};
use reports::stats::sprt::Verdict;
use reports::tally::Tally;
use tokio::sync::watch;

use super::RunSpec;
use super::progress::Progress;
use super::slot::{DEFAULT_LEASE, PairEnd, PlayableRun, Slot, tally_of};
use super::stop::{ABANDON, FINISH_IN_FLIGHT, RUNNING, lock, pause, watch_ctrl_c};
use crate::engines::EngineSpec;
use crate::process::{EngineError, EngineProcess, Timeouts};

/// Where the run executes.
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
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// All pairs played (or the SPRT decided).
    Finished(Option<Verdict>),
    /// Stopped by Ctrl-C; resumable.
    Stopped,
}

/// Why a run could not be played.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// Storage failed.
    #[error(transparent)]
    Db(#[from] DbError),
    /// An engine could not be started or configured (checked before the first game).
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// The spec is inconsistent.
    #[error("{0}")]
    Spec(String),
}

/// How often a slot with nothing to claim looks again while other workers
/// still hold pairs of the run.
const IDLE_POLL: Duration = Duration::from_secs(1);

struct Shared {
    tallies: Vec<Tally>,
    progress: Progress,
    failure: Option<RunError>,
}

/// Plays the pending pairs of run `run` until it is finished (here or by
/// other workers) or stopped.
///
/// # Errors
///
/// [`RunError`] for a database failure or a bad time control (call
/// [`preflight`] first to check the engines).
pub async fn execute(runtime: &Runtime, run: i64, spec: &RunSpec) -> Result<RunEnd, RunError> {
    let db = &runtime.db;
    let reset = db.reset_unfinished(run).await?;
    let playable = Arc::new(PlayableRun::new(run, spec.clone())?);
    let info = db.run(run).await?;
    if info.status != "running" {
        db.set_status(run, "running", None).await?;
    }
    let names: Vec<(String, String)> =
        spec.pairings.iter().map(|&(a, b)| (spec.engines[a].name.clone(), spec.engines[b].name.clone())).collect();
    let counts = db.pairing_counts(run).await?;
    let tallies: Vec<Tally> = names
        .iter()
        .map(|(a, b)| counts.iter().find(|c| &c.engine_a == a && &c.engine_b == b).map(tally_of).unwrap_or_default())
        .collect();
    let planned_games = 2 * info.pairs_planned as u64;
    let games_done = 2 * info.pairs_done as u64;
    let progress = Progress::new(run, runtime.progress, planned_games, games_done, names, spec.sprt);
    if reset > 0 {
        progress.note(&format!("resuming run {run}: {reset} unfinished pair(s) will be replayed whole"));
    }
    let shared = Arc::new(Mutex::new(Shared { tallies, progress, failure: None }));
    let (stop_tx, stop_rx) = watch::channel(RUNNING);
    let stop_tx = Arc::new(stop_tx);
    let signals = tokio::spawn({
        let (stop, shared) = (stop_tx.clone(), shared.clone());
        async move {
            let messages = [
                "stopping: no new pairs; finishing the games in flight (Ctrl-C again to abandon them)",
                "abandoning the games in flight; their pairs will be replayed by `arena resume`",
            ];
            watch_ctrl_c(&stop, messages, |message| lock(&shared).progress.note(message)).await;
        }
    });

    let worker = worker_name();
    let mut slots = tokio::task::JoinSet::new();
    for index in 0..spec.concurrency.max(1) {
        let slot = Slot::new(runtime.clone(), format!("{worker}/{index}"), DEFAULT_LEASE);
        let context = SlotContext {
            playable: playable.clone(),
            shared: shared.clone(),
            stop: stop_rx.clone(),
            stop_tx: stop_tx.clone(),
        };
        slots.spawn(context.work(slot));
    }
    while slots.join_next().await.is_some() {}
    signals.abort();

    let failure = {
        let mut shared = lock(&shared);
        shared.progress.finish();
        shared.failure.take()
    };
    let info = db.run(run).await?;
    if let Some(failure) = failure {
        if info.status == "running" {
            db.set_status(run, "stopped", None).await?;
        }
        return Err(failure);
    }
    if info.status == "finished" {
        return Ok(RunEnd::Finished(info.verdict.as_deref().and_then(parse_verdict)));
    }
    if info.status == "running" {
        db.set_status(run, "stopped", None).await?;
    }
    Ok(RunEnd::Stopped)
}

fn parse_verdict(text: &str) -> Option<Verdict> {
    [Verdict::AcceptH0, Verdict::AcceptH1, Verdict::Inconclusive].into_iter().find(|v| v.as_str() == text)
}

/// This process's name in the database: `host:pid`.
pub fn worker_name() -> String {
    format!("{}:{}", db::record::host_name(), std::process::id())
}

/// Starts and quits every engine once, so that a bad command or
/// option is reported before anything is stored or played.
///
/// # Errors
///
/// The first engine's [`EngineError`].
pub async fn preflight(arena_exe: &Path, timeouts: Timeouts, engines: &[EngineSpec]) -> Result<(), EngineError> {
    for engine in engines {
        let launch = engine.launch(arena_exe);
        let process = EngineProcess::start(engine, &launch, &[], None, timeouts).await?;
        process.quit(timeouts.quit).await;
    }
    Ok(())
}

struct SlotContext {
    playable: Arc<PlayableRun>,
    shared: Arc<Mutex<Shared>>,
    stop: watch::Receiver<u8>,
    stop_tx: Arc<watch::Sender<u8>>,
}

impl SlotContext {
    async fn work(self, mut slot: Slot) {
        let db = slot.db().clone();
        let run = self.playable.run;
        loop {
            if *self.stop.borrow() != RUNNING {
                break;
            }
            let claimed = match db.claim_pair(run, slot.worker(), slot.lease()).await {
                Ok(Some(claimed)) => claimed,
                Ok(None) => match db.run(run).await {
                    // Other workers hold the last pairs: wait for them (or their expiry).
                    Ok(info) if info.status == "running" && info.pairs_done < info.pairs_planned => {
                        pause(&self.stop, IDLE_POLL).await;
                        continue;
                    }
                    Ok(_) => break,
                    Err(e) => {
                        self.fail(e.into()).await;
                        break;
                    }
                },
                Err(e) => {
                    self.fail(e.into()).await;
                    break;
                }
            };
            let mut stop = self.stop.clone();
            let abandon = async move {
                let _ = stop.wait_for(|level| *level >= ABANDON).await;
            };
            let shared = self.shared.clone();
            let first_game = move || lock(&shared).progress.game_done();
            match slot.play(&self.playable, &claimed, first_game, abandon).await {
                Ok(PairEnd::Counted(commit)) => {
                    let mut shared = lock(&self.shared);
                    let spec = &self.playable.spec;
                    if let Some(p) = spec.pairings.iter().position(|&(a, b)| {
                        spec.engines[a].name == commit.counts.engine_a && spec.engines[b].name == commit.counts.engine_b
                    }) {
                        shared.tallies[p] = tally_of(&commit.counts);
                    }
                    let tallies = shared.tallies.clone();
                    shared.progress.pair_done(&tallies, commit.sprt.map(|step| step.llr));
                    if commit.run_finished {
                        break;
                    }
                }
                Ok(PairEnd::LeaseLost) => {
                    let note = format!(
                        "run {run}: pair {} was taken over (lease expired) or the run ended; moving on",
                        claimed.plan.index
                    );
                    lock(&self.shared).progress.note(&note);
                }
                Ok(PairEnd::Abandoned) => {
                    if let Err(e) = db.release_pair(&claimed).await {
                        self.fail(e.into()).await;
                    }
                    break;
                }
                Err(e) => {
                    let _ = db.release_pair(&claimed).await;
                    self.fail(e).await;
                    break;
                }
            }
        }
        slot.shutdown().await;
    }

    async fn fail(&self, error: RunError) {
        let mut shared = lock(&self.shared);
        shared.failure.get_or_insert(error);
        let _ = self.stop_tx.send(FINISH_IN_FLIGHT);
    }
}
