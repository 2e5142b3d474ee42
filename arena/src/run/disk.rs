//! A full disk, handled in one place. A run played here keeps a little room
//! beside its database ([`Reserve`]); when the database's or the I/O logs'
//! disk fills up ([`RunError::is_disk_full`]) the logs of fault-free games
//! this process wrote are deleted (expendable; the games' records are not)
//! and the reserve is given back, so that the run can still be marked
//! stopped and `arena resume` replays its pairs in flight whole.

use std::path::PathBuf;

use super::error::RunError;
use super::slot::Runtime;
use crate::engine_io::iolog::LogStore;

/// Bytes kept free beside the database while a run plays here.
const RESERVE_BYTES: usize = 256 * 1024;

/// Room kept beside the database while run plays here.
#[derive(Debug)]
pub struct Reserve(Option<PathBuf>);

impl Reserve {
    /// Keeps [`RESERVE_BYTES`] in the logs' folder for run `run` (nothing
    /// when there is no folder or no room: it is a margin, not a need).
    pub fn keep(runtime: &Runtime, run: i64) -> Reserve {
        let path = runtime.log_dir.as_ref().map(|dir| dir.join(format!("run-{run}.reserve")));
        if let Some(path) = &path
            && std::fs::create_dir_all(path.parent().unwrap_or(path)).is_ok()
        {
            let _ = std::fs::write(path, vec![0u8; RESERVE_BYTES]);
        }
        Reserve(path)
    }

    /// Gives the room back (the run's last writes may need it).
    pub fn give_back(self) {
        if let Some(path) = &self.0 {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// Frees what can be freed when `error` is a full disk (see the module's
/// docs); the error goes on.
pub fn on_failure(error: RunError) -> RunError {
    if error.is_disk_full() {
        LogStore::drop_fault_free();
    }
    error
}
