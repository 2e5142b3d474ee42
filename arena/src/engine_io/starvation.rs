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
//! time. A stall names both, and so does a loss on time (a clock is wall
//! time, but its detail tells a machine too busy for it from an engine).

use std::fs::File;
use std::os::unix::fs::{FileExt, MetadataExt};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
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

/// A process's threads, the `schedstat` files of its first
/// [`KEPT_OPEN`] kept open: reading the schedule again costs an `fstat` of
/// `/proc/PID/task` (whose link count is the thread count plus two) and a
/// `pread` per thread, where listing the folder and opening each file cost
/// some 18 µs, a third of arena's time per ply with engines that answer at
/// once. Further threads' files are opened at each read, so an engine of
/// many threads holds no more descriptors (`open_files.rs` counts these).
/// The threads are listed again when their count changed or one of them
/// has ended, so the schedule is always of the threads alive.
#[derive(Debug)]
pub struct Threads {
    pid: u32,
    folder: File,
    files: Vec<(u64, Option<File>)>,
}

/// `schedstat` files kept open per process: a single-threaded engine's
/// and one beside it (a UCI thread and a search thread).
pub const KEPT_OPEN: usize = 2;

impl Threads {
    /// The threads of process `pid`; `None` when the system does not say.
    pub fn of(pid: u32) -> Option<Threads> {
        let folder = File::open(format!("/proc/{pid}/task")).ok()?;
        let mut threads = Threads { pid, folder, files: Vec::new() };
        threads.list()?;
        Some(threads)
    }

    /// Each thread's time on a processor and all threads' wait for one,
    /// now; `None` once the process is gone or the system does not say.
    pub fn schedule(&mut self) -> Option<Schedule> {
        if self.count()? != self.files.len() {
            self.list()?;
        }
        match self.read() {
            Some(schedule) => Some(schedule),
            // A thread ended since the listing: list the live ones.
            None => {
                self.list()?;
                self.read()
            }
        }
    }

    /// The process's thread count: its task folder's links less `.` and
    /// `..` (a system that counts otherwise lists the threads each time).
    fn count(&self) -> Option<usize> {
        let links = self.folder.metadata().ok()?.nlink();
        usize::try_from(links.saturating_sub(2)).ok()
    }

    fn list(&mut self) -> Option<()> {
        self.files.clear();
        for task in std::fs::read_dir(format!("/proc/{}/task", self.pid)).ok()?.flatten() {
            let Some(tid) = task.file_name().to_str().and_then(|t| t.parse().ok()) else { continue };
            let file = match self.files.len() < KEPT_OPEN {
                // A thread that ended since the listing has no time to add.
                true => match File::open(task.path().join("schedstat")) {
                    Ok(file) => Some(file),
                    Err(_) => continue,
                },
                false => None,
            };
            self.files.push((tid, file));
        }
        Some(())
    }

    /// Every listed thread's times; `None` when one cannot be read.
    fn read(&self) -> Option<Schedule> {
        let mut schedule = Schedule::default();
        let mut buffer = [0u8; 128];
        for (tid, file) in &self.files {
            let read = match file {
                Some(file) => file.read_at(&mut buffer, 0).ok(),
                None => File::open(format!("/proc/{}/task/{tid}/schedstat", self.pid))
                    .and_then(|file| file.read_at(&mut buffer, 0))
                    .ok(),
            };
            let read = read.filter(|n| *n > 0)?;
            let (ran, waited) = parse(std::str::from_utf8(&buffer[..read]).ok()?)?;
            schedule.threads.push((*tid, Duration::from_nanos(ran)));
            schedule.waited += Duration::from_nanos(waited);
        }
        Some(schedule)
    }
}

/// This process's engines on a clock, over every search since it started:
/// time on a processor (the busiest thread's) and waiting for one, in
/// microseconds, and searches; and whether the machine was said to be
/// overcommitted. One per process: the engines share its machine.
struct Watch {
    ran: AtomicU64,
    waited: AtomicU64,
    searches: AtomicU64,
    said: AtomicBool,
}

static WATCH: Watch = Watch {
    ran: AtomicU64::new(0),
    waited: AtomicU64::new(0),
    searches: AtomicU64::new(0),
    said: AtomicBool::new(false),
};

/// Searches on a clock the watch sees before it judges the machine.
const WATCHED_SEARCHES: u64 = 200;

/// Adds one search on a clock to the machine's watch.
pub fn count_clocked(spent: Spent) {
    let micros = |d: Duration| u64::try_from(d.as_micros()).unwrap_or(u64::MAX);
    WATCH.ran.fetch_add(micros(spent.busiest), Ordering::Relaxed);
    WATCH.waited.fetch_add(micros(spent.waited), Ordering::Relaxed);
    WATCH.searches.fetch_add(1, Ordering::Relaxed);
}

/// Once per process, when its engines on a clock have waited for a
/// processor at least twice as long as they ran over
/// [`WATCHED_SEARCHES`] searches or more: the line that says the machine
/// is overcommitted, with a concurrency that fits its CPUs (`cpus`, asked
/// only then). An
/// engine that runs a third of the time it thinks plays far weaker than its
/// clock says and loses on time through no fault of its own; a quiet
/// machine's engines wait a few per cent.
pub fn overcommitted(cpus: impl FnOnce() -> usize) -> Option<String> {
    let (ran, waited, searches) = (
        WATCH.ran.load(Ordering::Relaxed),
        WATCH.waited.load(Ordering::Relaxed),
        WATCH.searches.load(Ordering::Relaxed),
    );
    if WATCH.said.load(Ordering::Relaxed) {
        return None;
    }
    let judged = judge(ran, waited, searches, cpus)?;
    (!WATCH.said.swap(true, Ordering::Relaxed)).then_some(judged)
}

/// The overcommit line for these totals, if they say so.
fn judge(ran: u64, waited: u64, searches: u64, cpus: impl FnOnce() -> usize) -> Option<String> {
    if searches < WATCHED_SEARCHES || waited < 2 * ran.max(1) {
        return None;
    }
    let share = 100.0 * waited as f64 / (ran + waited) as f64;
    Some(format!(
        "this machine is overcommitted: over {searches} searches on a clock its engines waited for a processor \
         {share:.0} % of the time they thought, so their play and time losses say more about the machine than \
         about them; --concurrency auto ({} here) fits its CPUs, and a node-time clock (e.g. 10+0.1,nodetime=1000) \
         does not depend on them",
        cpus().max(1)
    ))
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
    fn a_machine_is_overcommitted_when_its_engines_wait_twice_what_they_run() {
        // Too few searches to judge, and a quiet machine's few per cent.
        assert_eq!(judge(1_000, 50_000, 199, || 2), None);
        assert_eq!(judge(1_000_000, 40_000, 5_000, || 2), None);
        // Waiting as long as running (3 searching engines on 2 CPUs) is not yet said.
        assert_eq!(judge(1_000_000, 1_000_000, 5_000, || 2), None);
        let line = judge(1_000_000, 15_000_000, 640, || 2).unwrap();
        assert!(line.contains("over 640 searches") && line.contains(" 94 % of the time"), "{line}");
        assert!(line.contains("--concurrency auto (2 here)"), "{line}");
        // Engines that report no time at all are not judged by a zero.
        assert!(judge(0, 5, 300, || 2).is_some());
        assert_eq!(judge(0, 1, 300, || 2), None);
    }

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
            let mut threads = Threads::of(std::process::id()).unwrap();
            let before = threads.schedule().unwrap();
            assert!(before.since(&Schedule::default()).busiest > Duration::ZERO);
            // Threads started and ended since (this one's and the other
            // tests'): read again from the threads alive.
            let spun = std::thread::spawn(|| (0..1_000_000_u64).fold(0, |a, b| a ^ b.wrapping_mul(31)));
            std::hint::black_box(spun.join().unwrap());
            let after = threads.schedule().unwrap();
            assert!(!after.threads.is_empty());
        }
        assert!(Threads::of(u32::MAX).is_none());
    }
}
