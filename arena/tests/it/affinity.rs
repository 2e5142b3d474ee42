//! Core pinning through the binary: with `--affinity`, and by default with
//! two slots, every engine process (and every thread of it) and the slot
//! thread that plays its games run on its game slot's CPUs, read from /proc
//! while the games are played; `--affinity none` pins nothing; impossible
//! settings are one line.

use std::collections::{BTreeMap, BTreeSet};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{ARENA, assert_refused, temp_dir};

/// The children of `parent` (pid → the CPU list of each of its threads).
fn children_cpus(parent: u32) -> BTreeMap<u32, Vec<String>> {
    let mut found = BTreeMap::new();
    let Ok(entries) = std::fs::read_dir("/proc") else { return found };
    for entry in entries.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else { continue };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { continue };
        let ppid =
            stat.rsplit(')').next().and_then(|rest| rest.split_whitespace().nth(1)).and_then(|p| p.parse::<u32>().ok());
        if ppid != Some(parent) {
            continue;
        }
        let mut lists = Vec::new();
        for task in std::fs::read_dir(format!("/proc/{pid}/task")).into_iter().flatten().flatten() {
            let status = std::fs::read_to_string(task.path().join("status")).unwrap_or_default();
            if let Some(line) = status.lines().find(|l| l.starts_with("Cpus_allowed_list:")) {
                lists.push(line.split_whitespace().nth(1).unwrap_or_default().to_string());
            }
        }
        if !lists.is_empty() {
            found.insert(pid, lists);
        }
    }
    found
}

/// The arena's own slot threads (name → CPU list).
fn slots_cpus(arena: u32) -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    for task in std::fs::read_dir(format!("/proc/{arena}/task")).into_iter().flatten().flatten() {
        let name = std::fs::read_to_string(task.path().join("comm")).unwrap_or_default().trim().to_string();
        let status = std::fs::read_to_string(task.path().join("status")).unwrap_or_default();
        let cpus =
            status.lines().find(|l| l.starts_with("Cpus_allowed_list:")).and_then(|l| l.split_whitespace().nth(1));
        if let (true, Some(cpus)) = (name.starts_with("slot-"), cpus) {
            found.insert(name, cpus.to_string());
        }
    }
    found
}

/// What a match's threads showed while it played.
struct Seen {
    /// The CPU lists each engine's threads showed.
    engines: Vec<Vec<String>>,
    /// The CPU list of each slot thread of the arena.
    slots: BTreeMap<String, String>,
}

/// Starts a match and looks at its engines until four were seen, each with
/// its search thread, and at its slot threads.
fn engines_while_playing(dir: &std::path::Path, extra: &[&str]) -> Seen {
    let mut args = vec![
        "match",
        "--a",
        "fhr",
        "--b",
        "plain",
        "--games",
        "400",
        "--tc",
        "nodes=20000",
        "--concurrency",
        "2",
        "--db",
        "a.db",
        "--quiet",
    ];
    args.extend(extra);
    let mut child =
        Command::new(ARENA).args(&args).current_dir(dir).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    // The engines' search threads come and go with each search: gather what
    // each engine's threads showed until every engine was seen searching.
    let deadline = Instant::now() + Duration::from_secs(60);
    // Only engines seen searching count, and only once the slots play: the
    // preflight's engines, each started for one search before the games,
    // are no slot's.
    let mut seen: BTreeMap<u32, (usize, BTreeSet<String>)> = BTreeMap::new();
    let mut slots = BTreeMap::new();
    while Instant::now() < deadline {
        slots.extend(slots_cpus(child.id()));
        if slots.len() < 2 {
            std::thread::sleep(Duration::from_millis(10));
            continue;
        }
        for (pid, threads) in children_cpus(child.id()) {
            let entry = seen.entry(pid).or_default();
            entry.0 = entry.0.max(threads.len());
            entry.1.extend(threads);
        }
        if seen.values().filter(|(most, _)| *most >= 2).count() >= 4 {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    seen.retain(|_, (most, _)| *most >= 2);
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_file(dir.join("a.db"));
    Seen { engines: seen.into_values().map(|(_, lists)| lists.into_iter().collect()).collect(), slots }
}

/// This machine's CPUs when there are two or more (CI has); otherwise the
/// test says it skips.
fn two_cpus_or_more() -> Option<usize> {
    let cpus = std::thread::available_parallelism().map_or(1, usize::from);
    if cpus < 2 {
        assert!(std::env::var_os("CI").is_none(), "CI has at least 2 CPUs");
        eprintln!("skipping: one CPU");
        return None;
    }
    Some(cpus)
}

#[test]
fn every_engine_thread_runs_on_its_slots_cpus() {
    let Some(cpus) = two_cpus_or_more() else { return };
    let dir = temp_dir("affinity");
    let Seen { engines: pinned, slots } = engines_while_playing(&dir, &["--affinity", "0,1"]);
    let expected: BTreeMap<String, String> =
        [("slot-0", "0"), ("slot-1", "1")].map(|(s, c)| (s.into(), c.into())).into();
    assert_eq!(slots, expected, "each slot's thread on its slot's CPU, beside its engines");
    assert!(pinned.len() >= 4, "{pinned:?}");
    let mut per_cpu: BTreeMap<String, usize> = BTreeMap::new();
    for threads in &pinned {
        assert_eq!(threads.len(), 1, "every thread of an engine on the same CPUs: {threads:?}");
        *per_cpu.entry(threads[0].clone()).or_default() += 1;
    }
    assert_eq!(per_cpu.keys().collect::<Vec<_>>(), ["0", "1"], "one CPU per slot: {pinned:?}");
    assert!(per_cpu.values().all(|&n| n >= 2), "both engines of a slot on its CPU: {pinned:?}");

    let Seen { engines: free, slots } = engines_while_playing(&dir, &["--affinity", "none"]);
    let all = format!("0-{}", cpus - 1);
    assert!(free.iter().flatten().all(|list| list == &all), "with --affinity none, every CPU: {free:?}");
    assert!(slots.len() == 2 && slots.values().all(|list| list == &all), "with --affinity none, every CPU: {slots:?}");
}

#[test]
fn two_slots_are_pinned_by_default_when_each_has_a_cpu() {
    let Some(cpus) = two_cpus_or_more() else { return };
    let dir = temp_dir("affinity-default");
    let Seen { engines, slots } = engines_while_playing(&dir, &[]);
    // Each slot gets an equal share of every CPU, in order (2 CPUs: 0 and 1).
    let half = cpus / 2 + cpus % 2;
    let span = |first: usize, last: usize| if first == last { first.to_string() } else { format!("{first}-{last}") };
    let expected: BTreeMap<String, String> =
        [("slot-0".to_string(), span(0, half - 1)), ("slot-1".to_string(), span(half, cpus - 1))].into();
    assert_eq!(slots, expected, "each slot's thread on its slot's CPUs");
    assert!(engines.len() >= 4, "{engines:?}");
    for threads in &engines {
        assert_eq!(threads.len(), 1, "every thread of an engine on one slot's CPUs: {threads:?}");
        assert!(expected.values().any(|slot| slot == &threads[0]), "an engine on a slot's CPUs: {engines:?}");
    }
}

#[test]
fn impossible_affinity_is_one_line() {
    let dir = temp_dir("affinity-bad");
    for (flags, needle) in [
        (vec!["--affinity", "0", "--concurrency", "2"], "1 CPU(s) (0) for --concurrency 2"),
        (vec!["--affinity", "0-x"], "is not a CPU or range"),
        (vec!["--affinity", "4096"], "not available to this process"),
    ] {
        let mut args = vec!["match", "--a", "fhr", "--b", "plain", "--games", "2", "--db", "x.db"];
        args.extend(&flags);
        assert_refused(&dir, &args, needle, "x.db");
    }
}
