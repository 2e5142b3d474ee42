//! The time an engine waited for a processor, and the time it ran. On a
//! machine busier than its cores (a build beside a niced worker), an engine
//! searching to a node or depth limit can take minutes of wall time for a
//! second of work; its stall deadline
//! ([`crate::engine_io::process::Deadline::Available`]) counts only the time
//! it could have run. Linux reports each thread's time on a processor and
//! its time on a run queue, waiting for one, as the first two numbers of
//! `/proc/PID/task/TID/schedstat` (nanoseconds); elsewhere both are unknown
//! and such a deadline is wall time. A stall names both, so that an engine
//! that searched on and one that was blocked (on a busy disk, say: neither
//! running nor waiting for a processor) tell apart.

use std::time::Duration;

/// A process's threads' time on a processor and waiting for one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Schedule {
    /// Time on a processor.
    pub ran: Duration,
    /// Time waiting for a processor.
    pub waited: Duration,
}

impl Schedule {
    /// What was added since `before`.
    pub fn since(self, before: Schedule) -> Schedule {
        Schedule { ran: self.ran.saturating_sub(before.ran), waited: self.waited.saturating_sub(before.waited) }
    }
}

/// The schedule of process `pid`, summed over the threads alive now;
/// `None` when the system does not say.
pub fn schedule(pid: u32) -> Option<Schedule> {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).ok()?;
    let (mut ran, mut waited) = (0u64, 0u64);
    for task in tasks.flatten() {
        // A thread that ended since the listing has no time to add.
        let Ok(schedstat) = std::fs::read_to_string(task.path().join("schedstat")) else { continue };
        let (r, w) = parse(&schedstat)?;
        ran = ran.saturating_add(r);
        waited = waited.saturating_add(w);
    }
    Some(Schedule { ran: Duration::from_nanos(ran), waited: Duration::from_nanos(waited) })
}

/// The times in one `schedstat` line: "time on a processor, time waiting
/// for one (both in nanoseconds), time slices".
fn parse(schedstat: &str) -> Option<(u64, u64)> {
    let mut numbers = schedstat.split_whitespace();
    Some((numbers.next()?.parse().ok()?, numbers.next()?.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_run_and_the_wait_are_the_first_two_numbers() {
        assert_eq!(parse("5623402722 1111495207 1434\n"), Some((5_623_402_722, 1_111_495_207)));
        assert_eq!(parse("5623402722\n"), None);
        assert_eq!(parse("5623402722 x 1434"), None);
        let before = Schedule { ran: Duration::from_millis(5), waited: Duration::from_millis(9) };
        let now = Schedule { ran: Duration::from_millis(12), waited: Duration::from_millis(9) };
        assert_eq!(now.since(before), Schedule { ran: Duration::from_millis(7), waited: Duration::ZERO });
    }

    #[test]
    fn a_live_process_has_a_schedule_and_a_gone_one_none() {
        if cfg!(target_os = "linux") {
            // This test has run, so its process has time on a processor.
            assert!(schedule(std::process::id()).is_some_and(|s| s.ran > Duration::ZERO));
        }
        assert_eq!(schedule(u32::MAX), None);
    }
}
