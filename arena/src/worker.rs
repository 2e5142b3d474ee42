//! `arena worker`: plays pairs of the open runs of a shared database. It
//! joins every running run (or one, with `--run`) whose engines it can
//! start — bundled presets always, external engines by name from this
//! machine's own `engines.toml`, checked once by starting each — and says
//! why when it cannot. Its slots claim pairs oldest run first, under a lease
//! renewed by heartbeats (see [`crate::run::Slot`]). Ctrl-C once: finish the
//! pairs in flight and exit; twice: give them back at once.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use db::{ClaimedPair, DbError};
use tokio::sync::watch;

use crate::engines::Registry;
use crate::run::{
    ABANDON, FINISH_IN_FLIGHT, PairEnd, PlayableRun, RUNNING, RunError, RunSpec, Runtime, Slot, preflight, tally_of,
    worker_name,
};

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
    /// Pairs given up because the lease was lost (taken over, or the run ended).
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
    Refused(String),
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

fn lock(shared: &Mutex<Shared>) -> MutexGuard<'_, Shared> {
    shared.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
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
        let row = context.config.runtime.db.run(run).await?;
        if row.kind == "suite" {
            return Err(WorkerError::Refused {
                run,
                why: "suite runs are played by the process that starts them".into(),
            });
        }
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
    let signals = tokio::spawn(watch_ctrl_c(stop_tx, context.clone()));
    let mut slots = tokio::task::JoinSet::new();
    for index in 0..context.config.concurrency.max(1) {
        let slot = Slot::new(context.config.runtime.clone(), format!("{name}/{index}"), context.config.lease);
        slots.spawn(context.clone().work(slot, stop_rx.clone()));
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
        for (run, _, spec) in &open {
            if self.config.only_run.is_some_and(|only| only != *run) {
                continue;
            }
            if !lock(&self.shared).catalogue.entries.contains_key(run) {
                let entry = self.prepare(*run, spec).await;
                match &entry {
                    Entry::Ready(playable) => self.note(&format!(
                        "serving run {run}: {} {} at {}",
                        playable.spec.kind,
                        playable.spec.engines.iter().map(|e| e.name.as_str()).collect::<Vec<_>>().join(" vs "),
                        playable.spec.tc
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
        for engine in &mut spec.engines {
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
                    return Entry::Refused(format!(
                        "it needs engine '{}', which {file} on this machine does not define (add it with its command)",
                        engine.name
                    ));
                }
            }
        }
        let runtime = &self.config.runtime;
        if let Err(e) = preflight(&runtime.arena_exe, runtime.timeouts, &spec.engines).await {
            return Entry::Refused(e.to_string());
        }
        match PlayableRun::new(run, spec) {
            Ok(playable) => Entry::Ready(Arc::new(playable)),
            Err(e) => Entry::Refused(e.to_string()),
        }
    }

    /// The next pair from the oldest open run this worker serves.
    async fn claim(&self, slot: &Slot) -> Result<Option<(Arc<PlayableRun>, ClaimedPair)>, DbError> {
        self.refresh(false).await?;
        let ready: Vec<Arc<PlayableRun>> = {
            let shared = lock(&self.shared);
            let catalogue = &shared.catalogue;
            catalogue
                .open
                .iter()
                .filter_map(|run| match catalogue.entries.get(run) {
                    Some(Entry::Ready(playable)) => Some(playable.clone()),
                    _ => None,
                })
                .collect()
        };
        for playable in ready {
            if let Some(pair) = slot.db().claim_pair(playable.run, slot.worker(), slot.lease()).await? {
                return Ok(Some((playable, pair)));
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

    async fn work(self: Arc<Self>, mut slot: Slot, stop: watch::Receiver<u8>) {
        let db = slot.db().clone();
        while *stop.borrow() == RUNNING {
            let claimed = match self.claim(&slot).await {
                Ok(claimed) => claimed,
                Err(e) => {
                    self.note(&format!("{e}; trying again in {} s", self.config.poll.as_secs()));
                    None
                }
            };
            let Some((playable, pair)) = claimed else {
                match self.only_run_ended().await {
                    Ok(true) => break,
                    Ok(false) => {}
                    Err(e) => self.note(&format!("{e}; trying again in {} s", self.config.poll.as_secs())),
                }
                let mut stop = stop.clone();
                let wait = self.config.poll.min(Duration::from_secs(1)).max(Duration::from_millis(200));
                let _ = tokio::time::timeout(wait, stop.wait_for(|level| *level != RUNNING)).await;
                continue;
            };
            let mut abandon_rx = stop.clone();
            let abandon = async move {
                let _ = abandon_rx.wait_for(|level| *level >= ABANDON).await;
            };
            let run = playable.run;
            let index = pair.plan.index;
            match slot.play(&playable, &pair, || {}, abandon).await {
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
                    self.note(&format!(
                        "run {run} pair {index}: taken over (lease expired) or the run ended; moving on"
                    ));
                }
                Ok(PairEnd::Abandoned) => {
                    if let Err(e) = db.release_pair(&pair).await {
                        self.note(&format!(
                            "run {run} pair {index}: could not give it back ({e}); its lease will expire"
                        ));
                    }
                    break;
                }
                Err(RunError::Db(e)) => {
                    let _ = db.release_pair(&pair).await;
                    self.note(&format!("run {run} pair {index}: {e}; the pair goes back to the queue"));
                }
                Err(e) => {
                    let _ = db.release_pair(&pair).await;
                    self.note(&format!("not serving run {run} any more: {e}"));
                    lock(&self.shared).catalogue.entries.insert(run, Entry::Refused(e.to_string()));
                }
            }
        }
        slot.shutdown().await;
    }
}

async fn watch_ctrl_c(stop: watch::Sender<u8>, context: Arc<Context>) {
    for (level, message) in [
        (FINISH_IN_FLIGHT, "stopping: no new pairs; finishing the pairs in flight (Ctrl-C again to give them back)"),
        (ABANDON, "giving the pairs in flight back to the queue"),
    ] {
        if tokio::signal::ctrl_c().await.is_err() {
            return;
        }
        context.note(message);
        let _ = stop.send(level);
    }
}
