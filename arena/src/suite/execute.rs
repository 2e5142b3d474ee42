//! Running a suite. Its work is cut into chunks (one engine, one limit, up
//! to [`CHUNK`] positions) stored with the run; seats — `concurrency` here,
//! and any in `arena worker`s — claim chunks under a lease renewed by a
//! heartbeat, answer each position with one process per engine
//! (`ucinewgame`, hash cleared, `position fen`, `go`), and store a chunk's
//! answers in the transaction that finishes it. Ctrl-C: the position in
//! flight finishes, the chunk's answers so far are stored and the chunk goes
//! back to the queue; `arena resume` continues.

use std::collections::{HashMap, HashSet};
use std::io::{IsTerminal, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use db::{ClaimedChunk, SuiteChunkPlan, SuiteResult};
use tokio::sync::watch;

use super::epd::TestPosition;
use super::{SuiteLimit, SuiteSpec};
use crate::clock::{Limit, TimeControl};
use crate::player::Player;
use crate::run::{
    DEFAULT_LEASE, FINISH_IN_FLIGHT, RUNNING, RunEnd, RunError, Runtime, lock, pause, sanitize, worker_name,
};
use crate::uci::command;
use crate::uci::output::Score;

/// Tolerance beyond a `movetime` before the search counts as stalled.
const MOVETIME_GRACE: Duration = Duration::from_secs(10);
/// Positions per chunk: small enough to spread a suite over many workers
/// and lose little on Ctrl-C, large enough that a commit per chunk is cheap.
pub const CHUNK: usize = 8;
/// How often an idle seat looks again while other workers hold chunks.
const IDLE_POLL: Duration = Duration::from_secs(1);

/// A suite run as this process plays it: its spec (engines resolved here)
/// and its positions.
#[derive(Clone, Debug)]
pub struct PlayableSuite {
    /// Run id.
    pub run: i64,
    /// The spec.
    pub spec: SuiteSpec,
    /// The positions, cut to the spec's count.
    pub positions: Arc<Vec<TestPosition>>,
}

impl PlayableSuite {
    /// The chunks of the run, engine by engine (so seats reuse processes),
    /// leaving out chunks whose every position is `answered` already.
    pub fn chunks(&self, answered: &HashSet<(String, i64, i64)>) -> Vec<SuiteChunkPlan> {
        let mut chunks = Vec::new();
        for engine in &self.spec.engines {
            for limit in 0..self.spec.limits.len() as i64 {
                for first in (0..self.positions.len()).step_by(CHUNK) {
                    let count = CHUNK.min(self.positions.len() - first);
                    let open = (first..first + count)
                        .any(|position| !answered.contains(&(engine.name.clone(), limit, position as i64)));
                    if open {
                        chunks.push(SuiteChunkPlan {
                            index: chunks.len() as i64,
                            engine: engine.name.clone(),
                            limit_index: limit,
                            first_position: first as i64,
                            positions: count as i64,
                        });
                    }
                }
            }
        }
        chunks
    }
}

/// How a chunk ended for a seat.
#[derive(Debug, PartialEq, Eq)]
pub enum ChunkEnd {
    /// Answers stored; `complete` unless stopped midway.
    Stored {
        /// Answers stored.
        answers: usize,
        /// Of which solved.
        solved: usize,
        /// The run ended with this chunk.
        run_finished: bool,
    },
    /// The lease was lost: nothing of this chunk stored by us.
    LeaseLost,
}

/// One seat: a process per engine, reused across chunks and runs.
pub struct SuiteSeat {
    runtime: Runtime,
    worker: String,
    lease: Duration,
    players: HashMap<(i64, String), Player>,
}

impl SuiteSeat {
    /// A seat of worker `worker`, holding chunks for `lease` between heartbeats.
    pub fn new(runtime: Runtime, worker: String, lease: Duration) -> SuiteSeat {
        SuiteSeat { runtime, worker, lease, players: HashMap::new() }
    }

    /// Claims the next chunk of a suite run.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn claim(&self, run: i64) -> Result<Option<ClaimedChunk>, db::DbError> {
        self.runtime.db.claim_suite_chunk(run, &self.worker, self.lease).await
    }

    /// Answers the positions of a claimed chunk and stores them. When `stop`
    /// leaves [`RUNNING`], the answers so far are stored and the chunk goes
    /// back to the queue.
    ///
    /// # Errors
    ///
    /// [`RunError`] when storing fails or an engine cannot be started.
    pub async fn play(
        &mut self,
        suite: &PlayableSuite,
        chunk: &ClaimedChunk,
        stop: &watch::Receiver<u8>,
    ) -> Result<ChunkEnd, RunError> {
        let db = self.runtime.db.clone();
        let (lease, worker) = (self.lease, self.worker.clone());
        let heartbeat = async {
            loop {
                tokio::time::sleep(lease / 3).await;
                if let Ok(false) = db.renew_suite_chunk(chunk, lease).await {
                    return;
                }
            }
        };
        let players = &mut self.players;
        let runtime = &self.runtime;
        let answers = async {
            let mut results = Vec::with_capacity(chunk.plan.positions as usize);
            for position in chunk.plan.first_position..chunk.plan.first_position + chunk.plan.positions {
                if *stop.borrow() != RUNNING {
                    break;
                }
                results.push(answer(runtime, &worker, suite, chunk, position as usize, players).await?);
            }
            Ok::<_, RunError>(results)
        };
        let results = tokio::select! {
            results = answers => results?,
            () = heartbeat => return Ok(ChunkEnd::LeaseLost),
        };
        let complete = results.len() as i64 == chunk.plan.positions;
        match self.runtime.db.finish_suite_chunk(chunk, &results, complete).await? {
            Some(run_finished) => Ok(ChunkEnd::Stored {
                answers: results.len(),
                solved: results.iter().filter(|r| r.solved).count(),
                run_finished,
            }),
            None => Ok(ChunkEnd::LeaseLost),
        }
    }

    /// Quits every engine process of the seat.
    pub async fn shutdown(self) {
        for (_, mut player) in self.players {
            player.shutdown().await;
        }
    }
}

/// One answer: the engine's best move for one position under the chunk's limit.
async fn answer(
    runtime: &Runtime,
    worker: &str,
    suite: &PlayableSuite,
    chunk: &ClaimedChunk,
    index: usize,
    players: &mut HashMap<(i64, String), Player>,
) -> Result<SuiteResult, RunError> {
    let spec = &suite.spec;
    let engine = spec.engines.iter().find(|e| e.name == chunk.plan.engine).ok_or_else(|| {
        RunError::Spec(format!("chunk names engine '{}', which the run does not have", chunk.plan.engine))
    })?;
    let limit = *spec.limits.get(chunk.plan.limit_index as usize).ok_or_else(|| {
        RunError::Spec(format!("chunk names limit {}, which the run does not have", chunk.plan.limit_index))
    })?;
    let position = suite
        .positions
        .get(index)
        .ok_or_else(|| RunError::Spec(format!("chunk names position {index}, which the suite does not have")))?;
    let player = players.entry((suite.run, engine.name.clone())).or_insert_with(|| {
        let log = runtime.log_dir.as_ref().map(|dir| {
            let folder = dir.join(format!("run-{}", suite.run));
            let _ = std::fs::create_dir_all(&folder);
            folder.join(format!("{}-{}.stderr.log", sanitize(&engine.name), sanitize(worker)))
        });
        Player::new(
            engine.clone(),
            TimeControl {
                limit: Limit::Infinite,
                margin_ms: 0,
                node_time: None,
                stall_ms: spec.stall_s.saturating_mul(1000),
            },
            engine.launch(&runtime.arena_exe),
            log,
            runtime.timeouts,
        )
    });
    let process = player.ready_for_game().await?;
    process.clear_hash(runtime.timeouts.ready).await?;
    let deadline = match limit {
        SuiteLimit::MoveTime(ms) => Duration::from_millis(ms) + MOVETIME_GRACE,
        SuiteLimit::Depth(_) | SuiteLimit::Nodes(_) => Duration::from_secs(spec.stall_s),
    };
    let mut result = SuiteResult {
        engine: engine.name.clone(),
        limit_index: chunk.plan.limit_index,
        limit_label: limit.label(),
        position: index as i64,
        position_id: position.id.clone(),
        ..SuiteResult::default()
    };
    match process.think(&command::position(&position.fen, &[]), &command::go(&limit.go()), deadline).await {
        Ok(thought) => {
            let mate = match thought.info.score {
                Some(Score::Mate(m)) => Some(m),
                _ => None,
            };
            result.solved = position.solved_by(thought.best.as_deref(), mate);
            result.best_move = thought.best;
            result.nodes = thought.info.nodes;
            result.depth = thought.info.depth;
            result.time_ms = u64::try_from(thought.elapsed.as_millis()).unwrap_or(u64::MAX);
            result.score_cp = match thought.info.score {
                Some(Score::Cp(cp)) => Some(cp),
                _ => None,
            };
            result.score_mate = mate;
        }
        Err(failure) => {
            result.fault = match failure {
                crate::process::ThinkFailure::Timeout { elapsed, .. } => {
                    format!("no bestmove after {} ms", elapsed.as_millis())
                }
                crate::process::ThinkFailure::Disconnected => "engine exited".to_string(),
            };
            result.time_ms = u64::try_from(deadline.as_millis()).unwrap_or(u64::MAX);
            player.discard().await;
        }
    }
    Ok(result)
}

/// The progress line of a suite run.
struct Progress {
    run: i64,
    enabled: bool,
    terminal: bool,
    done: usize,
    done_at_start: usize,
    total: usize,
    solved: usize,
    started: Instant,
}

impl Progress {
    fn add(&mut self, answers: usize, solved: usize) {
        self.done = (self.done + answers).min(self.total);
        self.solved += solved;
        if !self.enabled {
            return;
        }
        let new = self.done - self.done_at_start;
        let rate = new as f64 / self.started.elapsed().as_secs_f64().max(1e-3);
        let eta = if rate > 0.0 { (self.total - self.done) as f64 / rate } else { 0.0 };
        let line = format!(
            "suite run {}: {}/{} answers, {} of {new} new solved, {rate:.1}/s, ETA {eta:.0} s",
            self.run, self.done, self.total, self.solved
        );
        let mut err = std::io::stderr().lock();
        let _ = if self.terminal { write!(err, "\r{line}\x1b[K") } else { writeln!(err, "{line}") };
        let _ = err.flush();
    }
}

/// Answers the positions of suite run `run` not yet stored, here and with
/// any workers, until the run is finished or stopped.
///
/// # Errors
///
/// [`RunError`] when storage fails or an engine cannot be started.
pub async fn execute_suite(
    runtime: &Runtime,
    run: i64,
    spec: &SuiteSpec,
    positions: &[TestPosition],
) -> Result<RunEnd, RunError> {
    let db = &runtime.db;
    let suite = Arc::new(PlayableSuite { run, spec: spec.clone(), positions: Arc::new(positions.to_vec()) });
    db.reset_suite_chunks(run).await?;
    let answered: HashSet<(String, i64, i64)> =
        db.suite_results(run).await?.into_iter().map(|r| (r.engine, r.limit_index, r.position)).collect();
    db.plan_suite_chunks(run, &suite.chunks(&answered)).await?;
    if db.run(run).await?.status != "running" {
        db.set_status(run, "running", None).await?;
    }
    let total = spec.engines.len() * spec.limits.len() * positions.len();
    let progress = Arc::new(Mutex::new(Progress {
        run,
        enabled: runtime.progress,
        terminal: std::io::stderr().is_terminal(),
        done: answered.len(),
        done_at_start: answered.len(),
        total,
        solved: 0,
        started: Instant::now(),
    }));
    let (stop_tx, stop_rx) = watch::channel(RUNNING);
    let signals = tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            eprintln!("\nstopping: finishing the positions in flight; `arena resume {run}` continues");
            let _ = stop_tx.send(FINISH_IN_FLIGHT);
        }
    });
    let worker = worker_name();
    let mut seats = tokio::task::JoinSet::new();
    for index in 0..spec.concurrency.max(1) {
        let seat = SuiteSeat::new(runtime.clone(), format!("{worker}/{index}"), DEFAULT_LEASE);
        seats.spawn(sit(seat, suite.clone(), progress.clone(), stop_rx.clone()));
    }
    let mut failure = None;
    while let Some(joined) = seats.join_next().await {
        if let Ok(Err(error)) = joined {
            failure.get_or_insert(error);
        }
    }
    signals.abort();
    if runtime.progress && lock(&progress).terminal {
        eprintln!();
    }
    let info = db.run(run).await?;
    if info.status == "finished" {
        return Ok(RunEnd::Finished(None));
    }
    if db.suite_results(run).await?.len() == total {
        db.set_status(run, "finished", None).await?;
        return Ok(RunEnd::Finished(None));
    }
    if info.status == "running" {
        db.set_status(run, "stopped", None).await?;
    }
    match failure {
        Some(error) => Err(error),
        None => Ok(RunEnd::Stopped),
    }
}

/// One seat of the local run: claims chunks until none is left or Ctrl-C.
async fn sit(
    mut seat: SuiteSeat,
    suite: Arc<PlayableSuite>,
    progress: Arc<Mutex<Progress>>,
    stop: watch::Receiver<u8>,
) -> Result<(), RunError> {
    let db = seat.runtime.db.clone();
    let outcome = async {
        while *stop.borrow() == RUNNING {
            let Some(chunk) = seat.claim(suite.run).await? else {
                // Other workers may hold the last chunks: wait for them (or their expiry).
                if db.run(suite.run).await?.status != "running" || db.open_suite_chunks(suite.run).await? == 0 {
                    break;
                }
                pause(&stop, IDLE_POLL).await;
                continue;
            };
            match seat.play(&suite, &chunk, &stop).await? {
                ChunkEnd::Stored { answers, solved, run_finished } => {
                    lock(&progress).add(answers, solved);
                    if run_finished {
                        break;
                    }
                }
                ChunkEnd::LeaseLost => {}
            }
        }
        Ok(())
    }
    .await;
    seat.shutdown().await;
    outcome
}
