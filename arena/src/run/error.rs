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
    /// The spec is inconsistent, or cannot be played on this machine.
    #[error("{0}")]
    Spec(String),
}

impl RunError {
    /// The disk under the database or the I/O logs is full: the run stops,
    /// and `arena resume` replays its pairs in flight once there is room.
    pub fn is_disk_full(&self) -> bool {
        matches!(self, RunError::Db(DbError::DiskFull { .. }) | RunError::Log(LogError::DiskFull(_)))
    }
}
