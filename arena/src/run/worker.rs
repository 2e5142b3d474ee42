//! `arena worker`: serves the open runs of a shared database through the
//! same slots as a local run. It joins every running run (or one, with
//! `--run`) whose engines it can start — bundled presets always, external
//! engines by name from this machine's own `engines.toml`, checked once by
//! starting each — and says why when it cannot. Slots claim from the oldest
//! run first. Ctrl-C once: finish the units in flight and exit; twice: give
//! them back at once.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use db::{ClaimedChunk, ClaimedPair, Db, DbError};
use model::{GamesKind, GamesSpec, RunKind, RunStatus, Spec, WorkerBeat};
use tokio::sync::watch;

use super::chunks::ChunkWork;
use super::error::NotHere;
use super::error::RunError;
use super::identity::{check_identities, make_ready};
use super::pairs::PairWork;
use super::progress::Progress;
use super::shared::{Events, OnError, Shared, worker_name};
use super::slot::{Runtime, Slot};
use super::speed::clock_scale;
use super::stop::Stop;
use super::unit::{Outcome, Played, Work};
use super::work_loop::start_slots;
use crate::engine_io::engines::{DEFAULT_BUILD, EngineSpec, Registry};
use crate::util::lock;
use openings::suites::load_suite;

/// What a worker is asked to do.
#[derive(Clone, Debug)]
pub struct WorkerConfig {
    /// Database, engine binary, logs, timeouts.
    pub runtime: Runtime,
    /// Units played at once.
    pub concurrency: usize,
    /// This machine's `engines.toml` (default: `./engines.toml` if present).
    pub engines_file: Option<PathBuf>,
    /// Serve only this run, and exit when it ends.
    pub only_run: Option<i64>,
    /// How long a claimed unit stays with this worker without a heartbeat.
    pub lease: Duration,
    /// How often to look for new runs (and for work) when there is none.
    pub poll: Duration,
    /// Repositories this machine builds source engines from (`--repo
    /// NAME=PATH|URL`): NAME is an engine's name or a repository's short name.
    pub repos: Vec<(String, String)>,
    /// Play on although an engine is not what this machine played before.
    pub accept_change: bool,
}

/// What a worker did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WorkerSummary {
    /// Pairs played and counted.
    pub pairs: u64,
    /// Suite chunks answered and stored.
    pub chunks: u64,
    /// Units given up because the lease was lost (taken over, or the run ended).
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

/// An open run and what this machine can do with it.
#[derive(Clone)]
enum Job {
    Pairs(Arc<PairWork>),
    Chunks(Arc<ChunkWork>),
    Refused(String),
    /// This machine is set aside from the run until readmitted.
    SetAside,
}

/// A unit claimed from one of the open runs.
pub enum Claim {
    /// A pair of a match run.
    Pair(Arc<PairWork>, ClaimedPair),
    /// A chunk of a suite run.
    Chunk(Arc<ChunkWork>, ClaimedChunk),
}

/// The open runs this worker serves, as one kind of work.
struct Catalogue {
    config: WorkerConfig,
    registry: Registry,
    jobs: Mutex<Jobs>,
    /// Held by the slot that refreshes, so that a new run is prepared
    /// (built, benched, its identities recorded) once, not once per slot.
    refreshing: tokio::sync::Mutex<()>,
    done: Mutex<WorkerSummary>,
    shared: Arc<Shared>,
    /// Where the next claim starts among the open runs (taken modulo their number).
    turn: std::sync::atomic::AtomicUsize,
    /// Whether the worker has said it waits, since it last had work.
    idle_said: std::sync::atomic::AtomicBool,
}

struct Jobs {
    known: HashMap<i64, Job>,
    /// The stored spec each known run was prepared from: a run whose spec
    /// changes (`arena extend`) is prepared again.
    specs: HashMap<i64, String>,
    /// The open runs this worker serves, with their priorities, highest first.
    open: Vec<(i64, i64)>,
    refreshed: Option<Instant>,
}

/// Serves runs until Ctrl-C, or until the `--run` run has ended.
///
/// # Errors
///
/// [`WorkerError::Refused`] when the `--run` run does not exist or its
/// engines cannot be started here; [`WorkerError::Db`] when the database
/// cannot be read at the start.
pub async fn run_worker(config: WorkerConfig) -> Result<WorkerSummary, WorkerError> {
    let name = worker_name();
    let registry = Registry::load(config.engines_file.as_deref())
        .map_err(|e| WorkerError::Refused { run: config.only_run.unwrap_or(0), why: e.to_string() })?;
    let shared = Shared::new(Progress::log(config.runtime.progress), Events::new(), OnError::Continue);
    let jobs = Mutex::new(Jobs { known: HashMap::new(), specs: HashMap::new(), open: Vec::new(), refreshed: None });
    let catalogue = Arc::new(Catalogue {
        config,
        registry,
        jobs,
        refreshing: tokio::sync::Mutex::new(()),
        done: Mutex::new(WorkerSummary::default()),
        shared: shared.clone(),
        turn: std::sync::atomic::AtomicUsize::new(0),
        idle_said: std::sync::atomic::AtomicBool::new(false),
    });
    let db = catalogue.config.runtime.db.clone();
    if let Some(run) = catalogue.config.only_run {
        db.run(run).await?;
        catalogue.refresh(true).await?;
        if let Some(Job::Refused(why)) = lock(&catalogue.jobs).known.get(&run) {
            return Err(WorkerError::Refused { run, why: why.clone() });
        }
    }
    let config = &catalogue.config;
    shared.note(&format!(
        "worker {name}: {} slot(s), lease {} s, database {}",
        config.concurrency,
        config.lease.as_secs_f64(),
        db.describe()
    ));
    let signals = shared.watch_signals();
    let (runtime, concurrency, lease, poll) = (config.runtime.clone(), config.concurrency, config.lease, config.poll);
    start_slots(catalogue.clone(), &runtime, &shared, concurrency, lease, poll).await;
    signals.abort();
    if let Some(RunError::Db(denied)) = shared.take_failure() {
        return Err(WorkerError::Db(denied));
    }
    let mut summary = *lock(&catalogue.done);
    summary.lost = shared.counts().lost;
    Ok(summary)
}

impl Catalogue {
    /// Lists the open runs (at most once per poll interval unless `now`) and
    /// prepares the new ones: engines resolved and started once.
    async fn refresh(&self, now: bool) -> Result<(), DbError> {
        let stale = lock(&self.jobs).refreshed.is_none_or(|at| at.elapsed() >= self.config.poll);
        if !now && !stale {
            return Ok(());
        }
        let _refreshing = self.refreshing.lock().await;
        // Another slot may have refreshed while this one waited.
        let fresh = lock(&self.jobs).refreshed.is_some_and(|at| at.elapsed() < self.config.poll);
        if !now && fresh {
            return Ok(());
        }
        let db = &self.config.runtime.db;
        self.follow_set_aside(db).await?;
        let mut open = Vec::new();
        for db::OpenRun { id: run, kind, spec, priority } in db.open_runs().await? {
            if self.config.only_run.is_some_and(|only| only != run) {
                continue;
            }
            if self.to_prepare(run, &spec) {
                let job = self.prepare(db, run, kind, spec.clone()).await;
                match &job {
                    Job::Pairs(work) => self.shared.note(&format!("serving run {run}: {}", what_plays(&work.spec))),
                    Job::Chunks(work) => self.shared.note(&format!(
                        "serving run {run}: suite {} ({} positions), {}",
                        work.spec.suite,
                        work.positions.len(),
                        names(&work.spec.engines)
                    )),
                    // With --run the refusal is the worker's error, said once.
                    Job::Refused(why) if self.config.only_run.is_none() => {
                        let line = format!("not serving run {run}: {why}");
                        self.shared.note(&line);
                        self.shared.beat(db, WorkerBeat { refused: Some(line), ..WorkerBeat::default() }, true).await;
                    }
                    Job::Refused(_) | Job::SetAside => {}
                }
                let mut jobs = lock(&self.jobs);
                jobs.known.insert(run, job);
                jobs.specs.insert(run, spec);
            }
            open.push((run, priority));
        }
        let mut jobs = lock(&self.jobs);
        // A run no longer open (finished, stopped) is forgotten: its prepared
        // work holds its tallies and its tablebases' open files, and a worker
        // serves run after run for days. A run resumed later is prepared again.
        jobs.known.retain(|run, job| matches!(job, Job::SetAside) || open.iter().any(|(open, _)| open == run));
        let Jobs { known, specs, .. } = &mut *jobs;
        specs.retain(|run, _| known.contains_key(run));
        jobs.open = open;
        jobs.refreshed = Some(Instant::now());
        Ok(())
    }

    /// Whether open run `run`, stored with `spec`, needs preparing: it is
    /// new here, or its spec changed since (budgets added); a run this
    /// machine is set aside from stays left.
    fn to_prepare(&self, run: i64, spec: &str) -> bool {
        let jobs = lock(&self.jobs);
        match jobs.known.get(&run) {
            None => true,
            Some(Job::SetAside) => false,
            Some(_) => jobs.specs.get(&run).is_none_or(|prepared| prepared != spec),
        }
    }

    /// Forgets run `run`'s prepared work and looks at the runs again at the
    /// next claim: its spec changed after this worker prepared it.
    fn forget(&self, run: i64) {
        let mut jobs = lock(&self.jobs);
        jobs.known.remove(&run);
        jobs.refreshed = None;
    }

    /// Follows the runs this machine is set aside from: a run it served is
    /// left (said once, and shown on the workers page); a run it was
    /// readmitted to is prepared again at this refresh.
    async fn follow_set_aside(&self, db: &Db) -> Result<(), DbError> {
        let set_aside = db.set_aside_runs(&crate::util::machine_name()).await?;
        let mut told = Vec::new();
        {
            let mut jobs = lock(&self.jobs);
            jobs.known.retain(|run, job| !matches!(job, Job::SetAside) || set_aside.iter().any(|(r, _)| r == run));
            for (run, why) in &set_aside {
                if !matches!(jobs.known.get(run), Some(Job::SetAside)) {
                    jobs.known.insert(*run, Job::SetAside);
                    told.push(format!("not serving run {run} any more: this machine is set aside: {why}"));
                }
            }
        }
        for line in told {
            self.shared.note(&line);
            self.shared.beat(db, WorkerBeat { refused: Some(line), ..WorkerBeat::default() }, true).await;
        }
        Ok(())
    }

    /// A run as this machine can play it: its spec read, its engines
    /// resolved here and started once, a suite's positions loaded (they must
    /// be here as they were where the run started).
    async fn prepare(&self, db: &Db, run: i64, kind: RunKind, spec: String) -> Job {
        let mut spec = match Spec::parse(run, kind, &spec) {
            Ok(spec) => spec,
            Err(e) => return Job::Refused(format!("its spec is from another arena version ({})", e.cause)),
        };
        if let Err(why) = self.resolve(spec.engines_mut()) {
            return Job::Refused(why.to_string());
        }
        let runtime = &self.config.runtime;
        let allowed = |engine: &EngineSpec| self.allowed_repo(engine);
        let measured = match make_ready(&runtime.arena_exe, runtime.timeouts, &mut spec, &allowed).await {
            Ok(measured) => measured,
            Err(e) => return Job::Refused(e.to_string()),
        };
        if let Err(e) = check_identities(db, run, spec.engines(), &measured, self.config.accept_change).await {
            return Job::Refused(e.to_string());
        }
        match spec {
            Spec::Games(spec) => {
                let counts = match db.pairing_counts(run).await {
                    Ok(counts) => counts,
                    Err(e) => return Job::Refused(e.to_string()),
                };
                let scale = match clock_scale(db, run, &spec, &runtime.arena_exe, self.config.concurrency).await {
                    Ok(scale) => scale,
                    Err(e) => return Job::Refused(e.to_string()),
                };
                match PairWork::new(run, spec, &counts, scale) {
                    Ok(work) => Job::Pairs(Arc::new(work)),
                    Err(e) => Job::Refused(e.to_string()),
                }
            }
            Spec::Suite(spec) => {
                let mut positions = match load_suite(&spec.suite) {
                    Ok(suite) => suite.positions,
                    Err(e) => {
                        return Job::Refused(format!("its suite is not readable here: {}", crate::util::one_line(&e)));
                    }
                };
                positions.truncate(spec.count.unwrap_or(usize::MAX));
                if positions.len() != spec.positions {
                    return Job::Refused(format!(
                        "suite {} has {} positions here but the run has {} (copy the file it started with)",
                        spec.suite,
                        positions.len(),
                        spec.positions
                    ));
                }
                Job::Chunks(Arc::new(ChunkWork::new(run, spec, positions)))
            }
        }
    }

    /// Points a run's external engines at this machine's programs (by name,
    /// from its `engines.toml`; the run's options and time control stay).
    fn resolve(&self, engines: &mut [EngineSpec]) -> Result<(), NotHere> {
        for engine in engines.iter_mut() {
            if engine.preset.is_some() || engine.source.is_some() {
                continue; // the bundled engine (this arena binary), or built here: see allowed_repo
            }
            // A scaling run's copies `A@BUDGET` are engine A of this machine.
            match self.registry.get(model::base_name(&engine.name)) {
                Ok(local) if local.preset.is_none() => {
                    engine.command = local.command;
                    engine.args = local.args;
                    engine.dir = local.dir;
                }
                _ => {
                    let file =
                        self.config.engines_file.as_ref().map_or("./engines.toml".into(), |p| p.display().to_string());
                    return Err(NotHere::Undefined { name: engine.name.clone(), file });
                }
            }
        }
        Ok(())
    }
}

impl Catalogue {
    /// The repository and build command this machine uses for a source
    /// engine: its own `engines.toml` entry of that name (its build, else
    /// the run's), or a `--repo` naming the engine or the repository (the
    /// run's build). Never the repository the database names: whoever can
    /// write the database must not run programs on every worker.
    fn allowed_repo(&self, engine: &EngineSpec) -> Result<(String, String), NotHere> {
        let name = model::base_name(&engine.name);
        let source = engine.source.as_ref().ok_or_else(|| NotHere::NotSource(name.to_string()))?;
        if let Ok(local) = self.registry.get(name)
            && let Some(own) = local.source
        {
            return Ok((own.repo, if own.build == DEFAULT_BUILD { source.build.clone() } else { own.build }));
        }
        let repo_name = source.repo_name();
        match self.config.repos.iter().find(|(key, _)| key == name || key == repo_name) {
            Some((_, repo)) => Ok((repo.clone(), source.build.clone())),
            None => Err(NotHere::NoRepo {
                name: name.to_string(),
                repo: repo_name.to_string(),
                commit: source.short_commit().to_string(),
            }),
        }
    }
}

fn names(engines: &[EngineSpec]) -> String {
    engines.iter().map(|e| e.name.as_str()).collect::<Vec<_>>().join(" vs ")
}

/// A run of games in a few words: its kind, engines and time control; a
/// scaling run's engines once, with its budgets.
fn what_plays(spec: &GamesSpec) -> String {
    let GamesKind::Scale(budgets) = &spec.kind else {
        let tc = spec.tc.as_ref().map_or_else(|| "an unknown time control".into(), ToString::to_string);
        return format!("{} {} at {tc}", spec.kind, names(&spec.engines));
    };
    let [a, b] = [0, 1].map(|i| spec.engines.get(i).map_or("", |e| model::base_name(&e.name)));
    let budgets: Vec<String> = budgets.0.iter().map(ToString::to_string).collect();
    format!("{} {a} vs {b} at {}", spec.kind, budgets.join(", "))
}

impl Catalogue {
    /// Counts a stored pair or chunk for the worker's summary.
    fn count(&self, pair: bool, played: Played) -> Played {
        if let Played::Stored(_) = played {
            let mut done = lock(&self.done);
            if pair {
                done.pairs += 1;
            } else {
                done.chunks += 1;
            }
        }
        played
    }
}

impl Work for Catalogue {
    type Unit = Claim;

    async fn claim(&self, slot: &Slot) -> Result<Option<Claim>, RunError> {
        self.refresh(false).await?;
        let ready: Vec<(i64, Job)> = {
            let jobs = lock(&self.jobs);
            jobs.open.iter().filter_map(|(run, priority)| Some((*priority, jobs.known.get(run)?.clone()))).collect()
        };
        let turn = self.turn.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let in_turn = ready.chunk_by(|a, b| a.0 == b.0).flat_map(|runs| {
            let (before, after) = runs.split_at(turn % runs.len());
            after.iter().chain(before).map(|(_, job)| job.clone())
        });
        for job in in_turn.collect::<Vec<_>>() {
            match job {
                Job::Pairs(work) => match work.claim(slot).await {
                    Ok(Some(pair)) => {
                        self.idle_said.store(false, std::sync::atomic::Ordering::Relaxed);
                        return Ok(Some(Claim::Pair(work, pair)));
                    }
                    Ok(None) => {}
                    Err(RunError::Changed { run, .. }) => {
                        self.shared.note(&format!("run {run} changed (budgets added): preparing it again"));
                        self.forget(run);
                    }
                    Err(e) => return Err(e),
                },
                Job::Chunks(work) => {
                    if let Some(chunk) = work.claim(slot).await? {
                        self.idle_said.store(false, std::sync::atomic::Ordering::Relaxed);
                        return Ok(Some(Claim::Chunk(work, chunk)));
                    }
                }
                Job::Refused(_) | Job::SetAside => {}
            }
        }
        Ok(None)
    }

    async fn play(
        self: Arc<Self>,
        slot: &mut Slot,
        claim: &Claim,
        stop: &watch::Receiver<Stop>,
    ) -> Result<Outcome, RunError> {
        let outcome = match claim {
            Claim::Pair(work, pair) => work.clone().play(slot, pair, stop).await?,
            Claim::Chunk(work, chunk) => work.clone().play(slot, chunk, stop).await?,
        };
        let pair = matches!(claim, Claim::Pair(..));
        Ok(match outcome {
            Outcome::Done(played) => Outcome::Done(self.count(pair, played)),
            Outcome::Storing(storing) => {
                Outcome::Storing(Box::pin(async move { Ok(self.count(pair, storing.await?)) }))
            }
        })
    }

    async fn renew(&self, db: &Db, lease: Duration, claim: &Claim) -> Result<bool, DbError> {
        match claim {
            Claim::Pair(work, pair) => work.renew(db, lease, pair).await,
            Claim::Chunk(work, chunk) => work.renew(db, lease, chunk).await,
        }
    }

    async fn release(&self, db: &Db, claim: &Claim) -> Result<(), DbError> {
        match claim {
            Claim::Pair(work, pair) => work.release(db, pair).await,
            Claim::Chunk(work, chunk) => work.release(db, chunk).await,
        }
    }

    async fn more_may_come(&self, db: &Db) -> Result<bool, RunError> {
        let more = match self.config.only_run {
            Some(run) => db.run(run).await?.status == RunStatus::Running,
            None => true,
        };
        if more && !self.idle_said.swap(true, std::sync::atomic::Ordering::Relaxed) {
            let what = match self.config.only_run {
                Some(run) => format!("run {run}'s pairs are all taken; waiting for one to come back or the run to end"),
                None => "nothing to play: waiting for a run (one created with --no-local, or resumed); Ctrl-C stops"
                    .to_string(),
            };
            self.shared.note(&what);
        }
        Ok(more)
    }

    fn describe(&self, claim: &Claim) -> String {
        match claim {
            Claim::Pair(work, pair) => work.describe(pair),
            Claim::Chunk(work, chunk) => work.describe(chunk),
        }
    }

    fn run_of(&self, claim: &Claim) -> i64 {
        match claim {
            Claim::Pair(work, _) => work.run,
            Claim::Chunk(work, _) => work.run,
        }
    }

    /// An engine or spec failure: this worker stops serving the run.
    fn failed(&self, claim: &Claim, error: &RunError) {
        if matches!(error, RunError::Db(_)) {
            return;
        }
        let run = self.run_of(claim);
        self.shared.note(&format!("not serving run {run} any more: {error}"));
        lock(&self.jobs).known.insert(run, Job::Refused(error.to_string()));
    }
}
