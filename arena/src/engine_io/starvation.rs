//! The time an engine waited for a processor. On a machine busier than its
//! cores (a build beside a niced worker), an engine searching to a node or
//! depth limit can take minutes of wall time for a second of work; its stall
//! deadline ([`crate::engine_io::process::Deadline::Available`]) counts only
//! the time it could have run. Linux reports each thread's time on a run
//! queue, waiting for a processor, as the second number of
//! `/proc/PID/task/TID/schedstat` (nanoseconds); elsewhere the wait is
//! unknown and such a deadline is wall time.

use std::time::Duration;

/// The time the threads of process `pid` have spent waiting for a
/// processor, summed over the threads alive now; `None` when the system
/// does not say.
pub fn run_queue_wait(pid: u32) -> Option<Duration> {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).ok()?;
    let mut nanos: u64 = 0;
    for task in tasks.flatten() {
        // A thread that ended since the listing has no wait to add.
        let Ok(schedstat) = std::fs::read_to_string(task.path().join("schedstat")) else { continue };
        nanos = nanos.saturating_add(waited_nanos(&schedstat)?);
    }
    Some(Duration::from_nanos(nanos))
}

/// The wait in one `schedstat` line: "time on a processor, time waiting for
/// one (both in nanoseconds), time slices".
fn waited_nanos(schedstat: &str) -> Option<u64> {
    schedstat.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_is_the_second_number() {
        assert_eq!(waited_nanos("5623402722 1111495207 1434\n"), Some(1_111_495_207));
        assert_eq!(waited_nanos("5623402722\n"), None);
        assert_eq!(waited_nanos("5623402722 x 1434"), None);
    }

    #[test]
    fn a_live_process_has_a_wait_and_a_gone_one_none() {
        if cfg!(target_os = "linux") {
            assert!(run_queue_wait(std::process::id()).is_some());
        }
        assert_eq!(run_queue_wait(u32::MAX), None);
    }
}
