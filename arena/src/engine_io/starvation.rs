//! The time an engine ran on a processor and waited for one. On a machine
//! busier than its cores (a build beside a niced worker), an engine
//! searching to a node or depth limit can take minutes of wall time for a
//! second of work, and on a frozen one (a paused virtual machine, a disk
//! that blocks it) it neither runs nor waits for a processor at all; its
//! stall deadline ([`crate::engine_io::process::Deadline::Available`])
//! counts the time its busiest thread ran instead. Linux reports each
//! thread's time on a processor and its time on a run queue, waiting for
//! one, as the first two numbers of `/proc/PID/task/TID/schedstat`
//! (nanoseconds); elsewhere both are unknown and such a deadline is wall
//! time. A stall names both.

use std::time::Duration;

/// A process's threads' time on a processor and waiting for one, at a moment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Schedule {
    /// Each thread's id and time on a processor.
    threads: Vec<(u64, Duration)>,
    /// All threads' time waiting for a processor.
    waited: Duration,
}

/// What a process's threads did between two [`Schedule`]s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Spent {
    /// Time on a processor of the thread that ran most.
    pub busiest: Duration,
    /// Time waiting for a processor, all threads.
    pub waited: Duration,
}

impl Schedule {
    /// What was spent since `before` (a thread started since counts from zero).
    pub fn since(&self, before: &Schedule) -> Spent {
        let mut spent = Spent { waited: self.waited.saturating_sub(before.waited), ..Spent::default() };
        for (tid, ran) in &self.threads {
            let then = before.threads.iter().find(|(t, _)| t == tid).map_or(Duration::ZERO, |(_, r)| *r);
            let ran = ran.saturating_sub(then);
            spent.busiest = spent.busiest.max(ran);
        }
        spent
    }
}

/// The schedule of process `pid`, over the threads alive now; `None` when
/// the system does not say.
pub fn schedule(pid: u32) -> Option<Schedule> {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).ok()?;
    let mut schedule = Schedule::default();
    for task in tasks.flatten() {
        let Some(tid) = task.file_name().to_str().and_then(|t| t.parse().ok()) else { continue };
        // A thread that ended since the listing has no time to add.
        let Ok(schedstat) = std::fs::read_to_string(task.path().join("schedstat")) else { continue };
        let (ran, waited) = parse(&schedstat)?;
        schedule.threads.push((tid, Duration::from_nanos(ran)));
        schedule.waited += Duration::from_nanos(waited);
    }
    Some(schedule)
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
    }

    #[test]
    fn spent_counts_each_thread_from_its_own_start() {
        let ms = Duration::from_millis;
        let before = Schedule { threads: vec![(1, ms(5)), (2, ms(40))], waited: ms(9) };
        // Thread 2 ended, thread 3 started.
        let now = Schedule { threads: vec![(1, ms(12)), (3, ms(20))], waited: ms(10) };
        assert_eq!(now.since(&before), Spent { busiest: ms(20), waited: ms(1) });
    }

    #[test]
    fn a_live_process_has_a_schedule_and_a_gone_one_none() {
        if cfg!(target_os = "linux") {
            // This test has run, so its process has time on a processor.
            let now = schedule(std::process::id()).unwrap();
            assert!(now.since(&Schedule::default()).busiest > Duration::ZERO);
        }
        assert_eq!(schedule(u32::MAX), None);
    }
}
