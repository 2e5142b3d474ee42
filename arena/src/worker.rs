//! `arena worker`: plays pairs (and answers suite chunks) of the open runs of
//! a shared database. It
//! joins every running run (or one, with `--run`) whose engines it can
//! start — bundled presets always, external engines by name from this
//! machine's own `engines.toml`, checked once by starting each — and says
//! why when it cannot. Its slots claim pairs oldest run first, under a lease
//! renewed by heartbeats (see [`crate::run::Slot`]). Ctrl-C once: finish the
//! pairs in flight and exit; twice: give them back at once.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use db::{ClaimedChunk, ClaimedPair, DbError};
use tokio::sync::watch;

use crate::engines::{EngineSpec, Registry};
use crate::run::{
    ABANDON, PairEnd, PlayableRun, RUNNING, RunError, RunSpec, Runtime, Slot, lock, pause, preflight, tally_of,
    watch_ctrl_c, worker_name,
};
use crate::suite::{ChunkEnd, PlayableSuite, SuiteSeat, SuiteSpec, load_suite};

/// What a worker is asked to do.
#[derive(Clone, Debug)]
pub struct WorkerConfig {
    /// Database, engine binary, logs, timeouts.
    pub runtime: Runtime,
    /// Games played at once.
    pub concurrency: usize,
    /// This machine's `engines.toml` (default: `./engines.toml` if present).
    pub engines_file: Option<PathBuf>,
    /// Serve only this run, and exit when it ends.
    pub only_run: Option<i64>,
    /// How long a claimed pair stays with this worker without a heartbeat.
    pub lease: Duration,
    /// How often to look for new runs (and for pairs) when there is no work.
    pub poll: Duration,
}

/// What a worker did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WorkerSummary {
    /// Pairs played and counted.
    pub pairs: u64,
    /// Suite chunks answered and stored.
    pub chunks: u64,
    /// Pairs or chunks given up because the lease was lost (taken over, or the run ended).
    pub lost: u64,
}

/// Why a worker stopped.
#[derive(Debug, thiserror::Error)]
pub enum WorkerError {
    /// The run given with `--run` does not exist or cannot be played here.
    #[error("this worker cannot serve run {run}: {why}")]
    Refused {
        /// The run.
        run: i64,
        /// Why.
        why: String,
    },
    /// Storage failed.
    #[error(transparent)]
    Db(#[from] DbError),
}

enum Entry {
    Ready(Arc<PlayableRun>),
    Suite(Arc<PlayableSuite>),
    Refused(String),
}

/// An open run this worker can take work from.
enum Claimable {
    Pairs(Arc<PlayableRun>),
    Chunks(Arc<PlayableSuite>),
}

/// Work claimed from one of the open runs.
enum Claimed {
    Pair(Arc<PlayableRun>, ClaimedPair),
    Chunk(Arc<PlayableSuite>, ClaimedChunk),
}

/// The open runs and what this machine can do with each.
struct Catalogue {
    entries: HashMap<i64, Entry>,
    open: Vec<i64>,
    refreshed: Option<Instant>,
}

struct Shared {
    catalogue: Catalogue,
    summary: WorkerSummary,
}

/// Serves runs until Ctrl-C, or until the `--run` run has ended.
///
/// # Errors
///
/// [`WorkerError::Refused`] when the `--run` run does not exist or its
/// engines cannot be started here; [`WorkerError::Db`] when the database
/// cannot be read at the start.
pub async fn serve(config: WorkerConfig) -> Result<WorkerSummary, WorkerError> {
    let name = worker_name();
    let registry = Registry::load(config.engines_file.as_deref())
        .map_err(|e| WorkerError::Refused { run: config.only_run.unwrap_or(0), why: e.to_string() })?;
    let shared = Arc::new(Mutex::new(Shared {
        catalogue: Catalogue { entries: HashMap::new(), open: Vec::new(), refreshed: None },
        summary: WorkerSummary::default(),
    }));
    let context = Arc::new(Context { config, registry, shared: shared.clone() });
    if let Some(run) = context.config.only_run {
        context.config.runtime.db.run(run).await?;
        context.refresh(true).await?;
        let entries = &lock(&shared).catalogue.entries;
        if let Some(Entry::Refused(why)) = entries.get(&run) {
            return Err(WorkerError::Refused { run, why: why.clone() });
        }
    }
    context.note(&format!(
        "worker {name}: {} slot(s), lease {} s, database {}",
        context.config.concurrency,
        context.config.lease.as_secs_f64(),
        context.config.runtime.db.describe()
    ));
    let (stop_tx, stop_rx) = watch::channel(RUNNING);
    let signals = tokio::spawn({
        let context = context.clone();
        async move {
            let messages = [
                "stopping: no new pairs; finishing the pairs in flight (Ctrl-C again to give them back)",
                "giving the pairs in flight back to the queue",
            ];
            watch_ctrl_c(&stop_tx, messages, |message| context.note(message)).await;
        }
    });
    let mut slots = tokio::task::JoinSet::new();
    for index in 0..context.config.concurrency.max(1) {
        let runtime = context.config.runtime.clone();
        let slot = Slot::new(runtime.clone(), format!("{name}/{index}"), context.config.lease);
        let seat = SuiteSeat::new(runtime, format!("{name}/{index}"), context.config.lease);
        slots.spawn(context.clone().work(slot, seat, stop_rx.clone()));
    }
    while slots.join_next().await.is_some() {}
    signals.abort();
    Ok(lock(&shared).summary)
}

struct Context {
    config: WorkerConfig,
    registry: Registry,
    shared: Arc<Mutex<Shared>>,
}

impl Context {
    fn note(&self, message: &str) {
        if self.config.runtime.progress {
            eprintln!("{message}");
        }
    }

    /// Lists the open runs (at most once per poll interval unless `now`) and
    /// prepares the new ones: engines resolved and started once.
    async fn refresh(&self, now: bool) -> Result<(), DbError> {
        let stale = lock(&self.shared).catalogue.refreshed.is_none_or(|at| at.elapsed() >= self.config.poll);
        if !now && !stale {
            return Ok(());
        }
        let open = self.config.runtime.db.open_runs().await?;
        let mut fresh = Vec::new();
        for (run, kind, spec) in &open {
            if self.config.only_run.is_some_and(|only| only != *run) {
                continue;
            }
            if !lock(&self.shared).catalogue.entries.contains_key(run) {
                let entry =
                    if kind == "suite" { self.prepare_suite(*run, spec).await } else { self.prepare(*run, spec).await };
                match &entry {
                    Entry::Ready(playable) => self.note(&format!(
                        "serving run {run}: {} {} at {}",
                        playable.spec.kind,
                        playable.spec.engines.iter().map(|e| e.name.as_str()).collect::<Vec<_>>().join(" vs "),
                        playable.spec.tc
                    )),
                    Entry::Suite(suite) => self.note(&format!(
                        "serving run {run}: suite {} ({} positions), {}",
                        suite.spec.suite,
                        suite.positions.len(),
                        suite.spec.engines.iter().map(|e| e.name.as_str()).collect::<Vec<_>>().join(", ")
                    )),
                    // With --run the refusal is the worker's error, said once.
                    Entry::Refused(why) if self.config.only_run.is_none() => {
                        self.note(&format!("not serving run {run}: {why}"));
                    }
                    Entry::Refused(_) => {}
                }
                lock(&self.shared).catalogue.entries.insert(*run, entry);
            }
            fresh.push(*run);
        }
        let mut shared = lock(&self.shared);
        shared.catalogue.open = fresh;
        shared.catalogue.refreshed = Some(Instant::now());
        Ok(())
    }

    /// Resolves a run's engines on this machine and starts each once.
    async fn prepare(&self, run: i64, spec_json: &str) -> Entry {
        let mut spec: RunSpec = match serde_json::from_str(spec_json) {
            Ok(spec) => spec,
            Err(e) => return Entry::Refused(format!("its spec is from another arena version ({e})")),
        };
        if let Err(why) = self.resolve(&mut spec.engines).await {
            return Entry::Refused(why);
        }
        match PlayableRun::new(run, spec) {
            Ok(playable) => Entry::Ready(Arc::new(playable)),
            Err(e) => Entry::Refused(e.to_string()),
        }
    }

    /// A suite run: engines resolved and started once, and its positions,
    /// which must be on this machine as they were where the run started.
    async fn prepare_suite(&self, run: i64, spec_json: &str) -> Entry {
        let mut spec: SuiteSpec = match serde_json::from_str(spec_json) {
            Ok(spec) => spec,
            Err(e) => return Entry::Refused(format!("its spec is from another arena version ({e})")),
        };
        if let Err(why) = self.resolve(&mut spec.engines).await {
            return Entry::Refused(why);
        }
        let mut positions = match load_suite(&spec.suite) {
            Ok(suite) => suite.positions,
            Err(e) => return Entry::Refused(format!("its suite is not readable here: {e}")),
        };
        positions.truncate(spec.count.unwrap_or(usize::MAX));
        if positions.len() != spec.positions {
            return Entry::Refused(format!(
                "suite {} has {} positions here but the run has {} (copy the file it started with)",
                spec.suite,
                positions.len(),
                spec.positions
            ));
        }
        Entry::Suite(Arc::new(PlayableSuite { run, spec, positions: Arc::new(positions) }))
    }

    /// Points a run's external engines at this machine's programs (by name,
    /// from its `engines.toml`; the run's options and time control stay) and
    /// starts each engine once.
    async fn resolve(&self, engines: &mut [EngineSpec]) -> Result<(), String> {
        for engine in engines.iter_mut() {
            if engine.preset.is_some() {
                continue; // the bundled engine: this arena binary
            }
            match self.registry.get(&engine.name) {
                Ok(local) if local.preset.is_none() => {
                    engine.command = local.command;
                    engine.args = local.args;
                    engine.dir = local.dir;
                }
                _ => {
                    let file =
                        self.config.engines_file.as_ref().map_or("./engines.toml".into(), |p| p.display().to_string());
                    return Err(format!(
                        "it needs engine '{}', which {file} on this machine does not define (add it with its command)",
                        engine.name
                    ));
                }
            }
        }
        let runtime = &self.config.runtime;
        preflight(&runtime.arena_exe, runtime.timeouts, engines).await.map_err(|e| e.to_string())
    }

    /// The next pair or chunk from the oldest open run this worker serves.
    async fn claim(&self, slot: &Slot, seat: &SuiteSeat) -> Result<Option<Claimed>, DbError> {
        self.refresh(false).await?;
        let ready: Vec<Claimable> = {
            let shared = lock(&self.shared);
            let catalogue = &shared.catalogue;
            catalogue
                .open
                .iter()
                .filter_map(|run| match catalogue.entries.get(run) {
                    Some(Entry::Ready(playable)) => Some(Claimable::Pairs(playable.clone())),
                    Some(Entry::Suite(suite)) => Some(Claimable::Chunks(suite.clone())),
                    _ => None,
                })
                .collect()
        };
        for claimable in ready {
            match claimable {
                Claimable::Pairs(playable) => {
                    if let Some(pair) = slot.db().claim_pair(playable.run, slot.worker(), slot.lease()).await? {
                        return Ok(Some(Claimed::Pair(playable, pair)));
                    }
                }
                Claimable::Chunks(suite) => {
                    if let Some(chunk) = seat.claim(suite.run).await? {
                        return Ok(Some(Claimed::Chunk(suite, chunk)));
                    }
                }
            }
        }
        Ok(None)
    }

    /// Whether the `--run` run has ended.
    async fn only_run_ended(&self) -> Result<bool, DbError> {
        match self.config.only_run {
            Some(run) => Ok(self.config.runtime.db.run(run).await?.status != "running"),
            None => Ok(false),
        }
    }

    async fn work(self: Arc<Self>, mut slot: Slot, mut seat: SuiteSeat, stop: watch::Receiver<u8>) {
        while *stop.borrow() == RUNNING {
            let claimed = match self.claim(&slot, &seat).await {
                Ok(claimed) => claimed,
                Err(e) => {
                    self.note(&format!("{e}; trying again in {} s", self.config.poll.as_secs()));
                    None
                }
            };
            match claimed {
                Some(Claimed::Pair(playable, pair)) => self.play_pair(&mut slot, &playable, &pair, &stop).await,
                Some(Claimed::Chunk(suite, chunk)) => self.play_chunk(&mut seat, &suite, &chunk, &stop).await,
                None => {
                    match self.only_run_ended().await {
                        Ok(true) => break,
                        Ok(false) => {}
                        Err(e) => self.note(&format!("{e}; trying again in {} s", self.config.poll.as_secs())),
                    }
                    pause(&stop, self.config.poll.min(Duration::from_secs(1))).await;
                }
            }
        }
        slot.shutdown().await;
        seat.shutdown().await;
    }

    async fn play_pair(&self, slot: &mut Slot, playable: &PlayableRun, pair: &ClaimedPair, stop: &watch::Receiver<u8>) {
        let db = slot.db().clone();
        let mut abandon_rx = stop.clone();
        let abandon = async move {
            let _ = abandon_rx.wait_for(|level| *level >= ABANDON).await;
        };
        let run = playable.run;
        let index = pair.plan.index;
        match slot.play(playable, pair, || {}, abandon).await {
            Ok(PairEnd::Counted(commit)) => {
                let tally = tally_of(&commit.counts);
                let mut line = format!(
                    "run {run} pair {index} done: {} vs {} +{} ={} -{} over {} games",
                    commit.counts.engine_a,
                    commit.counts.engine_b,
                    tally.wins,
                    tally.draws,
                    tally.losses,
                    tally.games()
                );
                if let Some(step) = &commit.sprt {
                    line += &format!(", LLR {:.2}", step.llr);
                }
                if commit.run_finished {
                    line += "; run finished";
                }
                lock(&self.shared).summary.pairs += 1;
                self.note(&line);
            }
            Ok(PairEnd::LeaseLost) => {
                lock(&self.shared).summary.lost += 1;
                self.note(&format!("run {run} pair {index}: taken over (lease expired) or the run ended; moving on"));
            }
            Ok(PairEnd::Abandoned) => {
                if let Err(e) = db.release_pair(pair).await {
                    self.note(&format!("run {run} pair {index}: could not give it back ({e}); its lease will expire"));
                }
            }
            Err(RunError::Db(e)) => {
                let _ = db.release_pair(pair).await;
                self.note(&format!("run {run} pair {index}: {e}; the pair goes back to the queue"));
            }
            Err(e) => {
                let _ = db.release_pair(pair).await;
                self.note(&format!("not serving run {run} any more: {e}"));
                lock(&self.shared).catalogue.entries.insert(run, Entry::Refused(e.to_string()));
            }
        }
    }

    async fn play_chunk(
        &self,
        seat: &mut SuiteSeat,
        suite: &PlayableSuite,
        chunk: &ClaimedChunk,
        stop: &watch::Receiver<u8>,
    ) {
        let run = suite.run;
        let (first, last) = (chunk.plan.first_position, chunk.plan.first_position + chunk.plan.positions - 1);
        let limit = suite.spec.limits.get(chunk.plan.limit_index as usize).map(|l| l.label()).unwrap_or_default();
        let what = format!("run {run} {} {limit} positions {first}-{last}", chunk.plan.engine);
        match seat.play(suite, chunk, stop).await {
            Ok(ChunkEnd::Stored { answers, solved, run_finished }) => {
                lock(&self.shared).summary.chunks += 1;
                let end = if run_finished { "; run finished" } else { "" };
                self.note(&format!("{what}: {solved} of {answers} solved{end}"));
            }
            Ok(ChunkEnd::LeaseLost) => {
                lock(&self.shared).summary.lost += 1;
                self.note(&format!("{what}: taken over (lease expired) or the run ended; moving on"));
            }
            Err(RunError::Db(e)) => {
                self.note(&format!("{what}: {e}; its lease will expire and it goes back to the queue"))
            }
            Err(e) => {
                self.note(&format!("not serving run {run} any more: {e}"));
                lock(&self.shared).catalogue.entries.insert(run, Entry::Refused(e.to_string()));
            }
        }
    }
}
