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
    /// The running program cannot be found (it starts the bundled engine).
    #[error("cannot find the arena binary to start bundled engines: {0}")]
    Exe(std::io::Error),
    /// The spec is inconsistent, or cannot be played on this machine.
    #[error("{0}")]
    Spec(String),
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
