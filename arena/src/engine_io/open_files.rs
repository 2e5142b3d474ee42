//! What the machine lets the arena open. At start the soft limit on open
//! files is raised to the hard limit (`rlimit`: a safe wrapper of
//! `getrlimit`/`setrlimit`, since this workspace forbids `unsafe`), and a
//! concurrency that still cannot fit is refused before the run exists, so
//! that running out of descriptors is never met mid-run (where it would
//! look like engines failing to start).

/// Open files the arena needs beside its engines: standard streams, the
/// async runtime, the database (file, write-ahead log, shared memory, or
/// sockets), with room to spare.
const BASE_FILES: u64 = 64;
/// Open files per game slot: two engines with three pipes and a log file
/// each, their threads' schedules (a folder and
/// [`crate::engine_io::starvation::KEPT_OPEN`] files each), and room for a
/// restart while the old process is reaped.
const FILES_PER_SLOT: u64 = 12 + 2 * (1 + crate::engine_io::starvation::KEPT_OPEN as u64);

/// A concurrency this machine cannot hold.
#[derive(Debug, thiserror::Error)]
pub enum OpenFilesError {
    /// The limit could not be read or raised.
    #[error("cannot read this process's limit on open files")]
    Unknown(#[source] std::io::Error),
    /// More files needed (1) for a concurrency (0) than the limit (2)
    /// allows; (3) fits.
    #[error(
        "--concurrency {0} needs about {1} open files, but this process may open only {2}; \
         lower --concurrency to {3} or raise the limit (ulimit -n)"
    )]
    TooFew(usize, u64, u64, u64),
}

/// Raises this process's soft limit on open files as far as the hard limit
/// allows and checks that `concurrency` slots fit; returns the limit.
///
/// # Errors
///
/// [`OpenFilesError`] naming the concurrency, what it needs and the limit, with the fix.
pub fn fit_open_files(concurrency: usize) -> Result<u64, OpenFilesError> {
    let needed = BASE_FILES + FILES_PER_SLOT * concurrency as u64;
    let limit = rlimit::increase_nofile_limit(u64::MAX).map_err(OpenFilesError::Unknown)?;
    if needed > limit {
        return Err(OpenFilesError::TooFew(
            concurrency,
            needed,
            limit,
            limit.saturating_sub(BASE_FILES) / FILES_PER_SLOT,
        ));
    }
    Ok(limit)
}
