//! Why a unit of work could not be done.

use db::DbError;

use crate::engine_io::iolog::LogError;
use crate::engine_io::process::EngineError;

/// Why work could not be done.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// Storage failed.
    #[error(transparent)]
    Db(#[from] DbError),
    /// An engine I/O log could not be stored because its disk is full (a
    /// log that fails otherwise costs only itself: see `pairs`).
    #[error(transparent)]
    Log(#[from] LogError),
    /// An engine could not be started or configured.
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// The machine, not an engine, failed; nothing of the game was stored.
    #[error(transparent)]
    Machine(#[from] crate::game::MachineFault),
    /// The run's settings are unknown (imported games): nothing to play.
    #[error(transparent)]
    NotPlayable(#[from] model::NotPlayable),
    /// A stored spec cannot be read.
    #[error(transparent)]
    StoredSpec(#[from] model::spec::SpecError),
    /// A setting this machine cannot play: a concurrency or CPU list that
    /// leaves a slot without a CPU.
    #[error(transparent)]
    Setting(#[from] model::Invalid),
    /// The machine's limit on open files cannot hold the games at once.
    #[error(transparent)]
    OpenFiles(#[from] crate::engine_io::open_files::OpenFilesError),
    /// A finished run cannot be resumed.
    #[error("run {run} is already finished (see `arena show {run}`)")]
    Finished {
        /// The run.
        run: i64,
    },
    /// A run of imported games cannot be resumed.
    #[error("run {run} holds imported games, played elsewhere: there is nothing to play")]
    Imported {
        /// The run.
        run: i64,
    },
    /// The run's stored spec has no concurrency (a run of another kind than games or a suite).
    #[error("run {run}: its concurrency is not stored")]
    NoConcurrency {
        /// The run.
        run: i64,
    },
    /// The running program cannot be found (it starts the bundled engine).
    #[error("cannot find the arena binary to start bundled engines: {0}")]
    Exe(std::io::Error),
    /// An engine built from source cannot be built here (boxed: the
    /// largest cause, which every other error would carry the size of).
    #[error(transparent)]
    Source(Box<crate::engine_io::source::SourceError>),
    /// This machine will not build, or cannot run, an engine of the run.
    #[error(transparent)]
    NotHere(#[from] NotHere),
    /// An engine's bench failed.
    #[error(transparent)]
    Bench(#[from] crate::engine_io::bench::BenchError),
    /// A job run beside the runtime (a build, a bench) ended abnormally.
    #[error("{what} failed: {source}")]
    Task {
        /// The job.
        what: &'static str,
        /// How it ended.
        #[source]
        source: tokio::task::JoinError,
    },
    /// A bench thread of the speed measurement panicked.
    #[error("a bench thread of the speed measurement panicked")]
    BenchPanicked,
    /// An engine's program is not here.
    #[error("engine '{engine}': no executable {} here", program.display())]
    NoProgram {
        /// The engine.
        engine: String,
        /// The program looked for.
        program: std::path::PathBuf,
    },
    /// A program (an engine's, or arena's own) cannot be read to be hashed.
    #[error("{what}: cannot read {}: {source}", program.display())]
    Unreadable {
        /// Whose program: `engine 'x'`, `the arena binary`.
        what: String,
        /// The program.
        program: std::path::PathBuf,
        /// Why not.
        #[source]
        source: std::io::Error,
    },
    /// An engine is not what this machine played the run with before.
    #[error(
        "engine '{engine}' of run {run} is not what this machine ({host}) played before: {change} (restore it, or accept the change with --accept-change)"
    )]
    NotAsBefore {
        /// The engine.
        engine: String,
        /// The run.
        run: i64,
        /// This machine.
        host: String,
        /// What changed, in words.
        change: String,
    },
    /// An engine failed its first search before the run (the preflight).
    #[error("engine '{engine}' {why}")]
    FirstSearch {
        /// The engine.
        engine: String,
        /// What it did, and what to do, in words.
        why: String,
    },
    /// A run names one engine twice.
    #[error("run {run} names engine '{engine}' twice")]
    NamedTwice {
        /// The run.
        run: i64,
        /// The engine.
        engine: String,
    },
    /// A unit names a part of its run the run does not have.
    #[error("{unit} names {part}, which the {whole} does not have")]
    NotInRun {
        /// The unit: `pair`, `chunk`.
        unit: &'static str,
        /// What it names: `engine 'x'`, `limit 3`, `position 17`.
        part: String,
        /// What should have it: `run`, `suite`.
        whole: &'static str,
    },
    /// The run's tablebases cannot be opened here.
    #[error("run {run}: {source}")]
    Tablebase {
        /// The run.
        run: i64,
        /// Why not.
        #[source]
        source: crate::game::tablebase::TablebaseError,
    },
    /// A run that measures the machine's speed has no engine to bench.
    #[error("run {run} has no engines")]
    NoEngines {
        /// The run.
        run: i64,
    },
    /// This machine is slower than the run's floor.
    #[error(
        "{} k nps is below the run's floor of {} k nps (--min-nps; the reference is {} k nps)",
        nps / 1000,
        floor / 1000,
        reference / 1000
    )]
    BelowFloor {
        /// This machine's speed.
        nps: u64,
        /// The run's floor.
        floor: u64,
        /// The run's reference speed.
        reference: u64,
    },
    /// A suite's file holds another number of positions than the run started with.
    #[error(
        "suite {suite} has {now} positions now but run {run} started with {then}; restore the file it started with to resume"
    )]
    SuiteChanged {
        /// The suite file.
        suite: String,
        /// The run.
        run: i64,
        /// Positions the file has now.
        now: usize,
        /// Positions the run started with.
        then: usize,
    },
    /// Imported games, paired, leave one game over.
    #[error("an odd game among the pairs")]
    OddGame,
    /// Imported games cannot be stored as pairs.
    #[error("run {run}: {problem}")]
    Unpaired {
        /// The run.
        run: i64,
        /// What does not pair, in words.
        problem: String,
    },
    /// The run's spec changed after this process read it: a claimed pair
    /// names an engine it does not have (budgets added by `arena extend`).
    /// The pair was given back.
    #[error(
        "the run changed after this process read it (its engine '{engine}' is new: budgets added by arena extend?)"
    )]
    Changed {
        /// The run.
        run: i64,
        /// The engine this process does not have.
        engine: String,
    },
}

impl From<crate::engine_io::source::SourceError> for RunError {
    fn from(error: crate::engine_io::source::SourceError) -> RunError {
        RunError::Source(Box::new(error))
    }
}

impl RunError {
    /// The disk under the database or the I/O logs is full: the run stops,
    /// and `arena resume` replays its pairs in flight once there is room.
    pub fn is_disk_full(&self) -> bool {
        matches!(self, RunError::Db(DbError::DiskFull { .. }) | RunError::Log(LogError::DiskFull(_)))
    }

    /// The run stopped here for a reason that `arena resume` removes: a
    /// full disk (once there is room), or a run that changed meanwhile.
    pub fn resume_helps(&self) -> bool {
        self.is_disk_full() || matches!(self, RunError::Changed { .. })
    }
}

/// Why this machine will not build, or cannot run, an engine of a run.
#[derive(Debug, thiserror::Error)]
pub enum NotHere {
    /// A repository was asked for an engine that is not built from source.
    #[error("engine '{0}' is not built from source")]
    NotSource(String),
    /// This worker allows no repository for the engine's.
    #[error(
        "engine '{name}' is built from source (repository {repo}, commit {commit}) and this worker allows no repository for it: add --repo {repo}=PATH|URL, or an engines.toml entry '{name}' with git = …"
    )]
    NoRepo {
        /// The engine.
        name: String,
        /// Its repository's name.
        repo: String,
        /// The commit, shortened.
        commit: String,
    },
    /// An external engine this machine's `engines.toml` does not define.
    #[error("it needs engine '{name}', which {file} on this machine does not define (add it with its command)")]
    Undefined {
        /// The engine.
        name: String,
        /// The `engines.toml` read.
        file: String,
    },
}
