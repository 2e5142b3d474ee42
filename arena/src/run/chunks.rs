//! Suite chunks as units of work: one engine, one limit, up to [`CHUNK`]
//! positions of a test suite, answered with one process per engine
//! (`ucinewgame`, hash cleared, `position fen`, `go`) and stored in the
//! transaction that finishes the chunk. Asked to finish in flight, a chunk
//! stops after the position in flight and stores the answers so far; the
//! chunk goes back to the queue for the rest.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use db::{ClaimedChunk, Db, DbError};
use model::{RunStatus, SuiteChunkPlan, SuiteLimit, SuiteResult, SuiteSpec};
use tokio::sync::watch;

use super::error::RunError;
use super::slot::Slot;
use super::stop::Stop;
use super::unit::{Outcome, Played, Stored, Work};
use crate::engine_io::process::Deadline;
use crate::engine_io::uci::command;
use crate::engine_io::uci::output::Score;
use crate::run::suite::go_limits;
use model::{Limit, TimeControl};
use openings::epd::TestPosition;

/// Tolerance beyond a `movetime` before the search counts as stalled.
const MOVETIME_GRACE: Duration = Duration::from_secs(10);
/// Positions per chunk: small enough to spread a suite over many workers
/// and lose little on Ctrl-C, large enough that a commit per chunk is cheap.
pub const CHUNK: usize = 8;

/// A suite run as this process plays it: its spec (engines resolved here)
/// and its positions.
#[derive(Debug)]
pub struct ChunkWork {
    /// Run id.
    pub run: i64,
    /// The spec.
    pub spec: SuiteSpec,
    /// The positions, cut to the spec's count.
    pub positions: Vec<TestPosition>,
    tc: TimeControl,
    solved: AtomicU64,
    answered: AtomicU64,
}

impl ChunkWork {
    /// A suite run with its positions.
    pub fn new(run: i64, spec: SuiteSpec, positions: Vec<TestPosition>) -> ChunkWork {
        let tc = time_control(&spec);
        ChunkWork { run, spec, positions, tc, solved: AtomicU64::new(0), answered: AtomicU64::new(0) }
    }
}

/// The clock of a suite search: none (the limit is in the `go`), with the
/// run's stall timeout.
pub fn time_control(spec: &SuiteSpec) -> TimeControl {
    TimeControl { limit: Limit::Infinite, margin_ms: 0, node_time: None, stall_ms: spec.stall_s.saturating_mul(1000) }
}

/// The chunks of a suite run, engine by engine (so slots reuse processes),
/// leaving out chunks whose every position is `answered` already.
pub fn plan_chunks(spec: &SuiteSpec, answered: &HashSet<(String, i64, i64)>) -> Vec<SuiteChunkPlan> {
    let mut chunks = Vec::new();
    for engine in &spec.engines {
        for limit in 0..spec.limits.len() as i64 {
            for first in (0..spec.positions).step_by(CHUNK) {
                let count = CHUNK.min(spec.positions - first);
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

impl Work for ChunkWork {
    type Unit = ClaimedChunk;

    async fn claim(&self, slot: &Slot) -> Result<Option<ClaimedChunk>, RunError> {
        Ok(slot.db().claim_suite_chunk(self.run, slot.name(), slot.lease()).await?)
    }

    async fn play(
        self: Arc<Self>,
        slot: &mut Slot,
        chunk: &ClaimedChunk,
        stop: &watch::Receiver<Stop>,
    ) -> Result<Outcome, RunError> {
        let mut results = Vec::with_capacity(chunk.plan.positions as usize);
        for position in chunk.plan.first_position..chunk.plan.first_position + chunk.plan.positions {
            if *stop.borrow() != Stop::Running {
                break;
            }
            results.push(self.answer(slot, chunk, position as usize).await?);
        }
        let complete = results.len() as i64 == chunk.plan.positions;
        let Some(run_finished) = slot.db().finish_suite_chunk(chunk, &results, complete).await? else {
            return Ok(Outcome::Done(Played::LeaseLost));
        };
        let solved = results.iter().filter(|r| r.solved).count() as u64;
        let total_solved = self.solved.fetch_add(solved, Ordering::Relaxed) + solved;
        let answered = self.answered.fetch_add(results.len() as u64, Ordering::Relaxed) + results.len() as u64;
        let limit = self.spec.limits.get(chunk.plan.limit_index as usize).map(SuiteLimit::label).unwrap_or_default();
        let status = format!(
            "{} {limit}: {solved} of {} solved; {total_solved} of {answered} new answers solved",
            chunk.plan.engine,
            results.len()
        );
        Ok(Outcome::Done(Played::Stored(Stored { added: results.len() as u64, status, run_finished })))
    }

    async fn renew(&self, db: &Db, lease: Duration, chunk: &ClaimedChunk) -> Result<bool, DbError> {
        db.renew_suite_chunk(chunk, lease).await
    }

    async fn release(&self, db: &Db, chunk: &ClaimedChunk) -> Result<(), DbError> {
        db.release_suite_chunk(chunk).await
    }

    async fn more_may_come(&self, db: &Db) -> Result<bool, RunError> {
        Ok(db.run(self.run).await?.status == RunStatus::Running && db.open_suite_chunks(self.run).await? > 0)
    }

    fn describe(&self, chunk: &ClaimedChunk) -> String {
        let (first, last) = (chunk.plan.first_position, chunk.plan.first_position + chunk.plan.positions - 1);
        format!("run {} {} positions {first}-{last}", self.run, chunk.plan.engine)
    }

    fn run_of(&self, _unit: &Self::Unit) -> i64 {
        self.run
    }
}

impl ChunkWork {
    /// One answer: the engine's best move for one position under the chunk's limit.
    async fn answer(&self, slot: &mut Slot, chunk: &ClaimedChunk, index: usize) -> Result<SuiteResult, RunError> {
        let spec = &self.spec;
        let engine = spec.engines.iter().find(|e| e.name == chunk.plan.engine).ok_or_else(|| RunError::NotInRun {
            unit: "chunk",
            part: format!("engine '{}'", chunk.plan.engine),
            whole: "run",
        })?;
        let limit = *spec.limits.get(chunk.plan.limit_index as usize).ok_or_else(|| RunError::NotInRun {
            unit: "chunk",
            part: format!("limit {}", chunk.plan.limit_index),
            whole: "run",
        })?;
        let position = self.positions.get(index).ok_or_else(|| RunError::NotInRun {
            unit: "chunk",
            part: format!("position {index}"),
            whole: "suite",
        })?;
        let [player] = slot.players(self.run, [(engine, &self.tc)])?;
        let timeouts = player.timeouts();
        let process = player.ready_for_game().await?;
        process.clear_hash(timeouts.ready).await?;
        let deadline = match limit {
            SuiteLimit::MoveTime(ms) => Deadline::Wall(Duration::from_millis(ms) + MOVETIME_GRACE),
            SuiteLimit::Depth(_) | SuiteLimit::Nodes(_) => Deadline::Available(Duration::from_secs(spec.stall_s)),
        };
        let mut result = SuiteResult {
            engine: engine.name.clone(),
            limit_index: chunk.plan.limit_index,
            limit_label: limit.label(),
            position: index as i64,
            position_id: position.id.clone(),
            ..SuiteResult::default()
        };
        match process.think(&command::position(&position.fen, &[]), &command::go(&go_limits(limit)), deadline).await {
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
                    crate::engine_io::process::ThinkFailure::Timeout { elapsed, spent, .. } => {
                        crate::game::stalled(elapsed, spent)
                    }
                    crate::engine_io::process::ThinkFailure::Disconnected => "engine exited".to_string(),
                    crate::engine_io::process::ThinkFailure::StopIgnored { waited } => {
                        format!("no bestmove {} ms after stop", waited.as_millis())
                    }
                };
                result.time_ms = u64::try_from(deadline.limit().as_millis()).unwrap_or(u64::MAX);
                player.discard().await;
            }
        }
        Ok(result)
    }
}
