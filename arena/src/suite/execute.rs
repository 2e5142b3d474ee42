//! Running a suite: a queue of (engine, limit, position) jobs not yet
//! stored, `concurrency` workers that each keep one process per engine
//! (`ucinewgame`, hash cleared, `position fen`, `go`), and one writer that
//! stores answers in batches and draws the progress line. Ctrl-C: no new
//! positions; those in flight finish and are stored; `arena resume` continues.

use std::collections::{HashMap, HashSet, VecDeque};
use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use db::SuiteResult;
use tokio::sync::{Mutex, mpsc};

use super::epd::TestPosition;
use super::{SuiteLimit, SuiteSpec};
use crate::clock::{Limit, TimeControl};
use crate::player::Player;
use crate::run::{RunEnd, RunError, Runtime};
use crate::uci::command;
use crate::uci::output::Score;

/// Tolerance beyond a `movetime` before the search counts as stalled.
const MOVETIME_GRACE: Duration = Duration::from_secs(10);
/// Answers stored per transaction at most.
const BATCH: usize = 256;

#[derive(Clone, Copy, Debug)]
struct Job {
    engine: usize,
    limit: usize,
    position: usize,
}

/// Answers the positions of `positions` not yet stored for run `run`.
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
    if let Some(dir) = &runtime.log_dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| RunError::Spec(format!("cannot create log folder {}: {e}", dir.display())))?;
    }
    let done: HashSet<(String, i64, i64)> =
        db.suite_results(run).await?.into_iter().map(|r| (r.engine, r.limit_index, r.position)).collect();
    let mut queue = VecDeque::new();
    for (engine, spec_engine) in spec.engines.iter().enumerate() {
        for limit in 0..spec.limits.len() {
            for position in 0..positions.len() {
                if !done.contains(&(spec_engine.name.clone(), limit as i64, position as i64)) {
                    queue.push_back(Job { engine, limit, position });
                }
            }
        }
    }
    let total = spec.engines.len() * spec.limits.len() * positions.len();
    let queue = Arc::new(Mutex::new(queue));
    let stop = Arc::new(AtomicBool::new(false));
    let failure: Arc<Mutex<Option<RunError>>> = Arc::new(Mutex::new(None));
    let signals = tokio::spawn({
        let stop = stop.clone();
        async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                eprintln!("\nstopping: finishing the positions in flight; `arena resume {run}` continues");
                stop.store(true, Ordering::Relaxed);
            }
        }
    });
    let (results_tx, results_rx) = mpsc::channel::<SuiteResult>(4 * BATCH);
    let writer = tokio::spawn(write_results(runtime.clone(), run, results_rx, done.len(), total, failure.clone()));
    let positions = Arc::new(positions.to_vec());
    let mut workers = tokio::task::JoinSet::new();
    for worker in 0..spec.concurrency.max(1) {
        let context = Worker {
            runtime: runtime.clone(),
            spec: spec.clone(),
            positions: positions.clone(),
            queue: queue.clone(),
            stop: stop.clone(),
            failure: failure.clone(),
            results: results_tx.clone(),
            worker,
        };
        workers.spawn(context.work());
    }
    drop(results_tx);
    while workers.join_next().await.is_some() {}
    let _ = writer.await;
    signals.abort();
    if let Some(error) = failure.lock().await.take() {
        db.set_status(run, "stopped", None).await?;
        return Err(error);
    }
    let stored = db.suite_results(run).await?.len();
    if stored == total {
        db.set_status(run, "finished", None).await?;
        Ok(RunEnd::Finished(None))
    } else {
        db.set_status(run, "stopped", None).await?;
        Ok(RunEnd::Stopped)
    }
}

/// Stores answers in batches and shows progress.
async fn write_results(
    runtime: Runtime,
    run: i64,
    mut results: mpsc::Receiver<SuiteResult>,
    mut done: usize,
    total: usize,
    failure: Arc<Mutex<Option<RunError>>>,
) {
    let started = Instant::now();
    let done_at_start = done;
    let terminal = std::io::stderr().is_terminal();
    let mut last_line = Instant::now();
    let mut solved = 0usize;
    let mut batch = Vec::with_capacity(BATCH);
    while let Some(first) = results.recv().await {
        batch.push(first);
        while batch.len() < BATCH {
            match results.try_recv() {
                Ok(next) => batch.push(next),
                Err(_) => break,
            }
        }
        if let Err(e) = runtime.db.save_suite_results(run, &batch).await {
            failure.lock().await.get_or_insert(e.into());
            return;
        }
        done += batch.len();
        solved += batch.iter().filter(|r| r.solved).count();
        batch.clear();
        if runtime.progress && (last_line.elapsed() >= Duration::from_millis(250) || done == total) {
            last_line = Instant::now();
            let new = done - done_at_start;
            let rate = new as f64 / started.elapsed().as_secs_f64().max(1e-3);
            let eta = if rate > 0.0 { (total - done) as f64 / rate } else { 0.0 };
            let line = format!(
                "suite run {run}: {done}/{total} answers, {solved} of {new} new solved, {rate:.1}/s, ETA {:.0} s",
                eta
            );
            let mut err = std::io::stderr().lock();
            let _ = if terminal { write!(err, "\r{line}\x1b[K") } else { writeln!(err, "{line}") };
            let _ = err.flush();
        }
    }
    if runtime.progress && terminal {
        eprintln!();
    }
}

struct Worker {
    runtime: Runtime,
    spec: SuiteSpec,
    positions: Arc<Vec<TestPosition>>,
    queue: Arc<Mutex<VecDeque<Job>>>,
    stop: Arc<AtomicBool>,
    failure: Arc<Mutex<Option<RunError>>>,
    results: mpsc::Sender<SuiteResult>,
    worker: usize,
}

impl Worker {
    async fn work(self) {
        let mut players: HashMap<usize, Player> = HashMap::new();
        loop {
            if self.stop.load(Ordering::Relaxed) || self.failure.lock().await.is_some() {
                break;
            }
            let Some(job) = self.queue.lock().await.pop_front() else { break };
            match self.answer(job, &mut players).await {
                Ok(result) => {
                    if self.results.send(result).await.is_err() {
                        break;
                    }
                }
                Err(error) => {
                    self.failure.lock().await.get_or_insert(error);
                    break;
                }
            }
        }
        for (_, mut player) in players {
            player.shutdown().await;
        }
    }

    async fn answer(&self, job: Job, players: &mut HashMap<usize, Player>) -> Result<SuiteResult, RunError> {
        let engine = &self.spec.engines[job.engine];
        let limit = self.spec.limits[job.limit];
        let position = &self.positions[job.position];
        let player = players.entry(job.engine).or_insert_with(|| {
            let log = self.runtime.log_dir.as_ref().map(|dir| {
                let name: String =
                    engine.name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect();
                dir.join(format!("{name}-w{}.stderr.log", self.worker))
            });
            Player::new(
                engine.clone(),
                TimeControl {
                    limit: Limit::Infinite,
                    margin_ms: 0,
                    node_time: None,
                    stall_ms: self.spec.stall_s.saturating_mul(1000),
                },
                engine.launch(&self.runtime.arena_exe),
                log,
                self.runtime.timeouts,
            )
        });
        let process = player.ready_for_game().await?;
        process.clear_hash(self.runtime.timeouts.ready).await?;
        let deadline = match limit {
            SuiteLimit::MoveTime(ms) => Duration::from_millis(ms) + MOVETIME_GRACE,
            SuiteLimit::Depth(_) | SuiteLimit::Nodes(_) => Duration::from_secs(self.spec.stall_s),
        };
        let mut result = SuiteResult {
            engine: engine.name.clone(),
            limit_index: job.limit as i64,
            limit_label: limit.label(),
            position: job.position as i64,
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
}
