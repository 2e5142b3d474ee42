//! Playing a stored run in this process (`arena elo`, `suite`, `resume` …):
//! the run's work is made ready (units of a crashed process back in the
//! queue, a suite's chunks planned), then `concurrency` slots serve it until
//! it is finished — here or by `arena worker`s sharing the database — or
//! stopped by Ctrl-C or a failure.

use std::collections::HashSet;
use std::sync::Arc;

use model::{GamesSpec, RunStatus, SuiteSpec, Verdict};

use super::chunks::{ChunkWork, plan_chunks};
use super::disk::Reserve;
use super::error::RunError;
use super::pairs::PairWork;
use super::progress::Progress;
use super::shared::{Events, OnError, Shared, holder_ended};
use super::slot::Runtime;
use super::speed::clock_scale;
use super::unit::Work;
use super::work_loop::{DEFAULT_LEASE, IDLE_POLL, start_slots};
use openings::epd::TestPosition;

/// How a run ended here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// All its work is done (or the SPRT decided).
    Finished(Option<Verdict>),
    /// Stopped by Ctrl-C; resumable.
    Stopped,
}

/// Plays the pending pairs of run `run`.
///
/// # Errors
///
/// [`RunError`] for a database failure, a bad time control or an engine
/// that fails (check the engines with [`super::preflight`] first).
pub async fn play_pairs(runtime: &Runtime, run: i64, spec: &GamesSpec, events: Events) -> Result<RunEnd, RunError> {
    let db = &runtime.db;
    // The pairs of a process that ended (a crash, a kill) are replayed; a
    // worker's still playing, on this machine or another, stay its own.
    let ended: Vec<String> = db.pair_holders(run).await?.into_iter().filter(|h| holder_ended(h)).collect();
    let reset = db.reset_unfinished(run, &ended).await?;
    let concurrency = spec.playable()?.concurrency;
    let scale = clock_scale(db, run, spec, &runtime.arena_exe, concurrency).await?;
    let work = PairWork::new(run, spec.clone(), &db.pairing_counts(run).await?, scale)?;
    let info = db.run(run).await?;
    let done = 2 * u64::try_from(info.pairs_done).unwrap_or(0);
    let progress =
        Progress::run(run, runtime.progress, "games", done, 2 * u64::try_from(info.pairs_planned).unwrap_or(0));
    if reset > 0 {
        progress.note(&format!("resuming run {run}: {reset} unfinished pair(s) will be replayed whole"));
    }
    drive(runtime, run, Arc::new(work), progress, events, concurrency).await
}

/// Answers the positions of suite run `run` not yet stored.
///
/// # Errors
///
/// [`RunError`] when storage fails or an engine cannot be started.
pub async fn play_suite(
    runtime: &Runtime,
    run: i64,
    spec: &SuiteSpec,
    positions: Vec<TestPosition>,
    events: Events,
) -> Result<RunEnd, RunError> {
    let db = &runtime.db;
    let work = ChunkWork::new(run, spec.clone(), positions);
    db.reset_suite_chunks(run).await?;
    let answered: HashSet<(String, i64, i64)> =
        db.suite_results(run).await?.into_iter().map(|r| (r.engine, r.limit_index, r.position)).collect();
    db.plan_suite_chunks(run, &plan_chunks(spec, &answered)).await?;
    if db.open_suite_chunks(run).await? == 0 {
        db.set_status(run, RunStatus::Finished, None).await?;
    }
    let planned = spec.answers_planned() as u64;
    let progress = Progress::run(run, runtime.progress, "answers", answered.len() as u64, planned);
    drive(runtime, run, Arc::new(work), progress, events, spec.concurrency).await
}

/// Serves `work` with `concurrency` slots of this process; the first
/// failure stops them all and is returned, the run marked stopped.
async fn drive<W: Work>(
    runtime: &Runtime,
    run: i64,
    work: Arc<W>,
    progress: Progress,
    events: Events,
    concurrency: usize,
) -> Result<RunEnd, RunError> {
    let db = &runtime.db;
    if db.run(run).await?.status == RunStatus::Stopped {
        db.set_status(run, RunStatus::Running, None).await?;
    }
    let reserve = Reserve::keep(runtime, run);
    let shared = Shared::new(progress, events, OnError::Stop);
    let signals = shared.watch_signals();
    start_slots(work, runtime, &shared, concurrency, DEFAULT_LEASE, IDLE_POLL).await;
    signals.abort();
    shared.finish();
    reserve.give_back();
    let info = db.run(run).await?;
    if info.status == RunStatus::Running {
        db.set_status(run, RunStatus::Stopped, None).await?;
    }
    if let Some(failure) = shared.take_failure() {
        return Err(failure);
    }
    Ok(match info.status {
        RunStatus::Finished => RunEnd::Finished(info.verdict),
        RunStatus::Running | RunStatus::Stopped => RunEnd::Stopped,
    })
}
