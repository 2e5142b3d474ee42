//! Playing a run: workers claim pairs from the database, play both games,
//! store each finished game in one transaction, and update the tally and
//! SPRT after every pair. Ctrl-C once: no new pairs, those in flight finish.
//! Twice: games in flight are abandoned (engines killed) and their pairs
//! return to pending, so `arena resume` replays them whole.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use db::{ClaimedPair, Db, DbError};
use openings::Opening;
use reports::stats::sprt::Verdict;
use reports::tally::Tally;
use tokio::sync::{Mutex, watch};

use super::RunSpec;
use super::progress::Progress;
use crate::engines::EngineSpec;
use crate::game;
use crate::player::Player;
use crate::process::{EngineError, EngineProcess, Timeouts};

/// Where the run executes.
#[derive(Clone, Debug)]
pub struct Runtime {
    /// The database.
    pub db: Db,
    /// The `arena` binary (runs the bundled engine).
    pub arena_exe: PathBuf,
    /// Folder for engines' stderr logs.
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

/// Stop levels sent to workers.
const RUNNING: u8 = 0;
const FINISH_IN_FLIGHT: u8 = 1;
const ABANDON: u8 = 2;

struct Shared {
    tally: Vec<Tally>,
    verdict: Option<Verdict>,
    progress: Progress,
    failure: Option<RunError>,
}

/// Plays the pending pairs of run `run` until done, decided or stopped.
///
/// # Errors
///
/// [`RunError`] for a database failure or a bad time control (call
/// [`preflight`] first to check the engines).
pub async fn execute(runtime: &Runtime, run: i64, spec: &RunSpec) -> Result<RunEnd, RunError> {
    let db = &runtime.db;
    let reset = db.reset_unfinished(run).await?;
    let tcs = (0..spec.engines.len())
        .map(|i| spec.time_control(i).map_err(|e| RunError::Spec(e.to_string())))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(dir) = &runtime.log_dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| RunError::Spec(format!("cannot create log folder {}: {e}", dir.display())))?;
    }
    let outcomes = db.pair_outcomes(run).await?;
    let tally: Vec<Tally> = spec
        .pairings
        .iter()
        .map(|&(a, b)| Tally::between(&outcomes, &spec.engines[a].name, &spec.engines[b].name))
        .collect();
    let info = db.run(run).await?;
    let planned_games = 2 * info.pairs_planned as u64;
    let games_done = 2 * outcomes.len() as u64;
    let names: Vec<(String, String)> =
        spec.pairings.iter().map(|&(a, b)| (spec.engines[a].name.clone(), spec.engines[b].name.clone())).collect();
    let progress = Progress::new(run, runtime.progress, planned_games, games_done, names, spec.sprt);
    if reset > 0 {
        progress.note(&format!("resuming run {run}: {reset} unfinished pair(s) will be replayed whole"));
    }
    let shared = Arc::new(Mutex::new(Shared { tally, verdict: None, progress, failure: None }));
    let (stop_tx, stop_rx) = watch::channel(RUNNING);
    let stop_tx = Arc::new(stop_tx);
    let signals = tokio::spawn(watch_ctrl_c(stop_tx.clone(), shared.clone()));

    let mut workers = tokio::task::JoinSet::new();
    for worker in 0..spec.concurrency.max(1) {
        let context = WorkerContext {
            runtime: runtime.clone(),
            run,
            spec: spec.clone(),
            tcs: tcs.clone(),
            shared: shared.clone(),
            stop: stop_rx.clone(),
            stop_tx: stop_tx.clone(),
            worker,
        };
        workers.spawn(context.work());
    }
    while workers.join_next().await.is_some() {}
    signals.abort();

    let mut shared = shared.lock().await;
    shared.progress.finish();
    if let Some(failure) = shared.failure.take() {
        db.reset_unfinished(run).await?;
        db.set_status(run, "stopped", None).await?;
        return Err(failure);
    }
    if let Some(verdict) = shared.verdict {
        db.skip_pending(run).await?;
        db.set_status(run, "finished", Some(verdict.as_str())).await?;
        return Ok(RunEnd::Finished(Some(verdict)));
    }
    let info = db.run(run).await?;
    if info.pairs_done == info.pairs_planned {
        let verdict = spec.sprt.map(|_| Verdict::Inconclusive);
        db.set_status(run, "finished", verdict.map(Verdict::as_str)).await?;
        return Ok(RunEnd::Finished(verdict));
    }
    db.reset_unfinished(run).await?;
    db.set_status(run, "stopped", None).await?;
    Ok(RunEnd::Stopped)
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

async fn watch_ctrl_c(stop: Arc<watch::Sender<u8>>, shared: Arc<Mutex<Shared>>) {
    for (level, message) in [
        (FINISH_IN_FLIGHT, "stopping: no new pairs; finishing the games in flight (Ctrl-C again to abandon them)"),
        (ABANDON, "abandoning the games in flight; their pairs will be replayed by `arena resume`"),
    ] {
        if tokio::signal::ctrl_c().await.is_err() {
            return;
        }
        shared.lock().await.progress.note(message);
        let _ = stop.send(level);
    }
}

struct WorkerContext {
    runtime: Runtime,
    run: i64,
    spec: RunSpec,
    tcs: Vec<crate::clock::TimeControl>,
    shared: Arc<Mutex<Shared>>,
    stop: watch::Receiver<u8>,
    stop_tx: Arc<watch::Sender<u8>>,
    worker: usize,
}

impl WorkerContext {
    async fn work(self) {
        let mut players: HashMap<String, Player> = HashMap::new();
        loop {
            if *self.stop.borrow() != RUNNING || self.shared.lock().await.verdict.is_some() {
                break;
            }
            let claimed = match self.runtime.db.claim_pair(self.run).await {
                Ok(Some(claimed)) => claimed,
                Ok(None) => break,
                Err(e) => {
                    self.fail(e.into()).await;
                    break;
                }
            };
            let mut stop = self.stop.clone();
            let abandoned = async move {
                let _ = stop.wait_for(|level| *level >= ABANDON).await;
            };
            tokio::select! {
                result = self.play_pair(&claimed, &mut players) => {
                    if let Err(e) = result {
                        self.fail(e).await;
                        break;
                    }
                }
                () = abandoned => break,
            }
        }
        for (_, mut player) in players {
            player.shutdown().await;
        }
    }

    async fn fail(&self, error: RunError) {
        let mut shared = self.shared.lock().await;
        shared.failure.get_or_insert(error);
        let _ = self.stop_tx.send(FINISH_IN_FLIGHT);
    }

    fn player(&self, players: &mut HashMap<String, Player>, name: &str) -> Result<Player, RunError> {
        if let Some(player) = players.remove(name) {
            return Ok(player);
        }
        let index = self
            .spec
            .engines
            .iter()
            .position(|e| e.name == name)
            .ok_or_else(|| RunError::Spec(format!("pair names engine '{name}', which the run does not have")))?;
        let engine = &self.spec.engines[index];
        let log = self
            .runtime
            .log_dir
            .as_ref()
            .map(|dir| dir.join(format!("{}-w{}.stderr.log", sanitize(name), self.worker)));
        Ok(Player::new(
            engine.clone(),
            self.tcs[index].clone(),
            engine.launch(&self.runtime.arena_exe),
            log,
            self.runtime.timeouts,
        ))
    }

    async fn play_pair(&self, claimed: &ClaimedPair, players: &mut HashMap<String, Player>) -> Result<(), RunError> {
        let plan = &claimed.plan;
        let opening = Opening {
            name: plan.opening_name.clone(),
            fen: plan.fen.clone(),
            moves: plan.opening_moves.clone(),
            san: plan.opening_san.clone(),
        };
        let mut a = self.player(players, &plan.engine_a)?;
        let mut b = self.player(players, &plan.engine_b)?;
        let mut results = Vec::with_capacity(2);
        for game_in_pair in 0..2 {
            let record = if game_in_pair == 0 {
                game::play(&mut a, &mut b, &opening, self.spec.adjudication).await
            } else {
                game::play(&mut b, &mut a, &opening, self.spec.adjudication).await
            };
            results.push(record.result);
            if game_in_pair == 0 {
                self.runtime.db.save_game(self.run, claimed.id, 0, &record, None).await?;
                self.shared.lock().await.progress.game_done();
                continue;
            }
            let mut shared = self.shared.lock().await;
            let pairing = self.spec.pairings.iter().position(|&(x, y)| {
                self.spec.engines[x].name == plan.engine_a && self.spec.engines[y].name == plan.engine_b
            });
            let mut llr = None;
            if let Some(p) = pairing {
                shared.tally[p].add_pair(results[0], results[1]);
                if let Some(test) = self.spec.sprt.filter(|_| p == 0) {
                    let value = test.llr(&shared.tally[0].pairs());
                    llr = Some(value);
                    if shared.verdict.is_none() {
                        shared.verdict = test.decide(value);
                    }
                }
            }
            self.runtime.db.save_game(self.run, claimed.id, 1, &record, Some(llr)).await?;
            let tallies = shared.tally.clone();
            shared.progress.pair_done(&tallies, llr);
        }
        players.insert(plan.engine_a.clone(), a);
        players.insert(plan.engine_b.clone(), b);
        Ok(())
    }
}

fn sanitize(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect()
}
