//! Core pinning (`--affinity [CPUS]`): each game slot gets its own CPUs and
//! both engines of its games run there, with the slot thread that plays
//! them (SQLite; [`pin_thread`]), so two games never share a core, the
//! operating system does not move an engine between cores mid-search, and
//! an engine's reply wakes its slot on the same core.
//!
//! It is on by default when two or more slots can each have a CPU of their
//! own ([`Affinity::auto`]): left to the kernel, two games of instant
//! engines on two cores shared a core about a fifth of the time while the
//! other idled, and their wall time per ply spread by 30 % from run to run
//! (BENCHMARKS.md, "Throughput against c-chess-cli and fastchess"). `--affinity none` turns it off. Two
//! arenas with the same concurrency on one machine pin their slots to the
//! same CPU sets, so each set still carries an equal share.
//!
//! An engine inherits its CPU set from the thread that starts it: the
//! starting thread narrows its own set to the slot's CPUs, spawns the
//! process and restores its set, all without yielding to the runtime. That
//! pins every thread the engine ever makes, including those it makes before
//! reading `uci`, which pinning the process after the start would miss.
//! `sched_setaffinity` comes from `nix`, the maintained safe wrapper of the
//! POSIX and Linux calls (MIT; the workspace forbids `unsafe`, and
//! `core_affinity` can only pin the calling thread to a single core).

use model::Invalid;
use nix::sched::{CpuSet, sched_getaffinity, sched_setaffinity};
use nix::unistd::Pid;

/// The CPUs a run's slots share out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Affinity {
    cpus: Vec<usize>,
}

impl Affinity {
    /// From `--affinity`'s value: a list such as `0-3,6` (each CPU once, all
    /// available to this process), or empty for every CPU this process may use.
    ///
    /// # Errors
    ///
    /// One line naming a malformed list or a CPU this process cannot use.
    pub fn parse(text: &str) -> Result<Affinity, Invalid> {
        let available = available()
            .map_err(|e| Invalid::new("affinity", format!("--affinity: cannot read this process's CPUs: {e}")))?;
        Affinity::parse_among(text, &available)
    }

    /// [`Affinity::parse`] on a machine whose process may use `available`.
    fn parse_among(text: &str, available: &[usize]) -> Result<Affinity, Invalid> {
        let available = available.to_vec();
        if text.trim().is_empty() {
            return Ok(Affinity { cpus: available });
        }
        let mut cpus = Vec::new();
        for part in text.split(',') {
            let bad = || {
                Invalid::new(
                    "affinity",
                    format!(
                        "--affinity {text}: '{part}' is not a CPU or range (give e.g. 0-3,6, or none to pin nothing)"
                    ),
                )
            };
            let (first, last) = match part.split_once('-') {
                Some((a, b)) => (a.trim().parse::<usize>().map_err(|_| bad())?, b.trim().parse().map_err(|_| bad())?),
                None => {
                    let cpu = part.trim().parse::<usize>().map_err(|_| bad())?;
                    (cpu, cpu)
                }
            };
            if first > last {
                return Err(bad());
            }
            if last >= CpuSet::count() || !available.contains(&last) {
                return Err(affinity_error(format!(
                    "--affinity {text}: CPU {last} is not available to this process (available: {})",
                    list(&available)
                )));
            }
            for cpu in first..=last {
                if cpus.contains(&cpu) {
                    return Err(affinity_error(format!("--affinity {text}: CPU {cpu} is named twice")));
                }
                if !available.contains(&cpu) {
                    return Err(affinity_error(format!(
                        "--affinity {text}: CPU {cpu} is not available to this process (available: {})",
                        list(&available)
                    )));
                }
                cpus.push(cpu);
            }
        }
        Ok(Affinity { cpus })
    }

    /// The default: every CPU this process may use, shared among `slots`
    /// slots when there are two or more and each can have `per_slot` CPUs of
    /// its own (two when its engines ponder: one thinks while the other
    /// ponders); otherwise `None` (one slot has every CPU anyway, and slots
    /// that would share CPUs are left to the operating system).
    pub fn auto(slots: usize, per_slot: usize) -> Option<Affinity> {
        let cpus = available().ok()?;
        (slots >= 2 && slots * per_slot <= cpus.len()).then_some(Affinity { cpus })
    }

    /// The CPUs of each slot, as `0-1 | 2-3` (for the run's first line).
    pub fn describe(&self, slots: usize) -> String {
        let slots = slots.clamp(1, self.cpus.len().max(1));
        (0..slots).map(|index| list(&self.slot(index, slots))).collect::<Vec<_>>().join(" | ")
    }

    /// Checks that `slots` game slots can each have a CPU of their own.
    ///
    /// # Errors
    ///
    /// One line saying how many CPUs there are for how many slots.
    pub fn fits(&self, slots: usize, per_slot: usize) -> Result<(), Invalid> {
        if slots * per_slot > self.cpus.len() {
            let each =
                if per_slot == 1 { "a CPU".to_string() } else { format!("{per_slot} CPUs (its engines ponder)") };
            return Err(Invalid::new(
                "affinity",
                format!(
                    "--affinity: {} CPU(s) ({}) for --concurrency {slots}: each game slot needs {each} of its own; lower --concurrency or name more CPUs",
                    self.cpus.len(),
                    list(&self.cpus)
                ),
            ));
        }
        Ok(())
    }

    /// The CPUs of slot `index` of `slots`: an equal share, in order (the
    /// first slots get one more when the CPUs do not divide evenly).
    pub fn slot(&self, index: usize, slots: usize) -> Vec<usize> {
        let slots = slots.clamp(1, self.cpus.len().max(1));
        let (share, extra) = (self.cpus.len() / slots, self.cpus.len() % slots);
        let index = index % slots;
        let start = index * share + index.min(extra);
        let len = share + usize::from(index < extra);
        self.cpus[start..start + len].to_vec()
    }
}

/// How many CPUs this process may run on (1 when the system does not say).
pub fn cpu_count() -> usize {
    available().map_or(1, |cpus| cpus.len().max(1))
}

/// A warning when `slots` game slots of `per_slot` CPUs each (two when
/// their engines ponder) would share `cpus` CPUs: an engine on a clock then
/// loses thinking time to the other games, plays weaker and loses on time,
/// by how busy the others are. Node and depth limits are unaffected.
/// fastchess refuses such a concurrency without `-force-concurrency`;
/// arena plays, and says so.
pub fn sharing_warning(slots: usize, per_slot: usize, cpus: usize) -> Option<String> {
    if slots * per_slot <= cpus {
        return None;
    }
    let ponder = if per_slot > 1 { format!(" ({per_slot} a game slot: its engines ponder)") } else { String::new() };
    let fix = match cpus / per_slot {
        0 => "play without --ponder".to_string(),
        fits => format!("give --concurrency {fits} or less"),
    };
    Some(format!(
        "--concurrency {slots} with {cpus} CPU(s){ponder}: game slots share processors, so an engine on a clock \
         loses thinking time to the other games (weaker play, losses on time); {fix} (nodes= and depth= limits \
         are unaffected)"
    ))
}

/// The CPUs this process may run on.
fn available() -> Result<Vec<usize>, nix::errno::Errno> {
    let set = sched_getaffinity(Pid::from_raw(0))?;
    Ok((0..CpuSet::count()).filter(|&cpu| set.is_set(cpu).unwrap_or(false)).collect())
}

/// `problem` with `--affinity`.
fn affinity_error(problem: String) -> Invalid {
    Invalid::new("affinity", problem)
}

/// `cpus` as a list of ranges: `0-63,128-191`.
fn list(cpus: &[usize]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < cpus.len() {
        let mut j = i;
        while j + 1 < cpus.len() && cpus[j + 1] == cpus[j] + 1 {
            j += 1;
        }
        parts.push(if j > i { format!("{}-{}", cpus[i], cpus[j]) } else { cpus[i].to_string() });
        i = j + 1;
    }
    parts.join(",")
}

/// Narrows the calling thread to `cpus` for the rest of its life; a set
/// that cannot be applied leaves it unpinned.
pub fn pin_thread(cpus: &[usize]) {
    let mut set = CpuSet::new();
    for &cpu in cpus {
        let _ = set.set(cpu);
    }
    let _ = sched_setaffinity(Pid::from_raw(0), &set);
}

/// Runs `spawn` with the calling thread narrowed to `cpus` (when given), so
/// that the process it starts inherits them; the thread's own set is
/// restored afterwards. A set that cannot be applied leaves the engine
/// unpinned rather than unstarted.
pub fn spawn_on<T>(cpus: Option<&[usize]>, spawn: impl FnOnce() -> T) -> T {
    let Some(cpus) = cpus else { return spawn() };
    let here = Pid::from_raw(0);
    let Ok(saved) = sched_getaffinity(here) else { return spawn() };
    let mut set = CpuSet::new();
    for &cpu in cpus {
        let _ = set.set(cpu);
    }
    let pinned = sched_setaffinity(here, &set).is_ok();
    let result = spawn();
    if pinned {
        let _ = sched_setaffinity(here, &saved);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_past_64_cpus_are_read_and_shared_out() {
        // A 256-CPU machine whose process may use 0-63 and 128-191.
        let available: Vec<usize> = (0..64).chain(128..192).collect();
        let affinity = Affinity::parse_among("0-63,128-191", &available).unwrap();
        assert_eq!(affinity.cpus, available);
        assert_eq!(list(&affinity.cpus), "0-63,128-191");
        // 128 slots: one CPU each, the 65th slot on CPU 128.
        assert!(affinity.fits(128, 1).is_ok());
        assert_eq!(affinity.slot(64, 128), [128]);
        assert_eq!(affinity.slot(127, 128), [191]);
        // 64 pondering slots: two each, never across the gap's sides unevenly.
        assert_eq!(affinity.slot(31, 64), [62, 63]);
        assert_eq!(affinity.slot(32, 64), [128, 129]);
        assert!(affinity.fits(65, 2).is_err());
        // A CPU outside the process's set is named with the set, as ranges.
        let error = Affinity::parse_among("60-70", &available).unwrap_err().to_string();
        assert!(error.contains("CPU 70 is not available") && error.contains("(available: 0-63,128-191)"), "{error}");
        let error = Affinity::parse_among("0-3,2", &available).unwrap_err().to_string();
        assert!(error.contains("CPU 2 is named twice"), "{error}");
        assert!(Affinity::parse_among("7-3", &available).is_err());
        assert!(Affinity::parse_among("1000", &available).is_err());
        assert_eq!(Affinity::parse_among("", &available).unwrap().cpus.len(), 128);
    }

    #[test]
    fn slots_share_the_cpus() {
        let affinity = Affinity { cpus: vec![0, 1, 2, 3, 4] };
        assert_eq!(affinity.slot(0, 2), [0, 1, 2]);
        assert_eq!(affinity.slot(1, 2), [3, 4]);
        assert_eq!(affinity.slot(3, 5), [3]);
        assert!(affinity.fits(5, 1).is_ok());
        let error = affinity.fits(6, 1).unwrap_err().to_string();
        assert!(error.contains("5 CPU(s) (0-4) for --concurrency 6"), "{error}");
        // Pondering games need two CPUs each.
        assert!(affinity.fits(2, 2).is_ok());
        let error = affinity.fits(3, 2).unwrap_err().to_string();
        assert!(error.contains("each game slot needs 2 CPUs (its engines ponder)"), "{error}");
    }

    #[test]
    fn by_default_only_slots_with_a_cpu_each_are_pinned() {
        let cpus = available().unwrap().len();
        assert_eq!(Affinity::auto(1, 1), None, "one slot has every CPU");
        assert_eq!(Affinity::auto(cpus + 1, 1), None, "slots that would share a CPU are not pinned");
        assert_eq!(Affinity::auto(cpus / 2 + 1, 2), None, "pondering slots that would share CPUs are not pinned");
        if cpus >= 2 {
            let affinity = Affinity::auto(2, 1).unwrap();
            assert_eq!(affinity.cpus, available().unwrap());
            assert_eq!(affinity.slot(0, 2).len() + affinity.slot(1, 2).len(), cpus);
        }
        let affinity = Affinity { cpus: vec![0, 1, 2, 3, 6] };
        assert_eq!(affinity.describe(2), "0-2 | 3,6");
        assert_eq!(affinity.describe(5), "0 | 1 | 2 | 3 | 6");
    }

    #[test]
    fn lists_are_checked_against_this_process() {
        let all = available().unwrap();
        assert_eq!(Affinity::parse("").unwrap().cpus, all);
        assert_eq!(Affinity::parse(&all[0].to_string()).unwrap().cpus, [all[0]]);
        for (text, needle) in [
            ("x", "is not a CPU"),
            ("3-1", "is not a CPU"),
            ("0,0", "named twice"),
            ("99999", "not available"),
            ("0-4000000000", "not available"),
        ] {
            let error = Affinity::parse(text).unwrap_err().to_string();
            assert!(error.contains(needle), "{text}: {error}");
        }
    }

    #[test]
    fn a_spawned_process_inherits_the_slot() {
        let cpu = available().unwrap()[0];
        let before = sched_getaffinity(Pid::from_raw(0)).unwrap();
        let child = spawn_on(Some(&[cpu]), || std::process::Command::new("sleep").arg("5").spawn().unwrap());
        let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
        let allowed = status.lines().find(|l| l.starts_with("Cpus_allowed_list:")).unwrap();
        assert_eq!(allowed.split_whitespace().nth(1), Some(cpu.to_string().as_str()), "{allowed}");
        let after = sched_getaffinity(Pid::from_raw(0)).unwrap();
        assert_eq!(format!("{before:?}"), format!("{after:?}"), "the thread's own set is restored");
        let mut child = child;
        let _ = child.kill();
        let _ = child.wait();
    }

    #[test]
    fn slots_that_would_share_cpus_are_warned_of_with_the_concurrency_that_fits() {
        assert_eq!(sharing_warning(2, 1, 2), None);
        assert_eq!(sharing_warning(1, 2, 2), None);
        let over = sharing_warning(4, 1, 2).unwrap();
        assert!(over.starts_with("--concurrency 4 with 2 CPU(s): game slots share processors"), "{over}");
        assert!(over.contains("give --concurrency 2 or less"), "{over}");
        let pondering = sharing_warning(2, 2, 2).unwrap();
        assert!(pondering.contains("(2 a game slot: its engines ponder)"), "{pondering}");
        assert!(pondering.contains("give --concurrency 1 or less"), "{pondering}");
        assert!(sharing_warning(1, 2, 1).unwrap().contains("play without --ponder"));
    }
}
