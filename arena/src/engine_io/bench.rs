//! An engine's bench signature: the node count its `bench` command prints
//! (`EXE bench`, as Stockfish, Ethereal and most engines accept), run twice
//! so that a bench that is not deterministic is caught, and its speed.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use model::spec::Launch;

/// How long one bench may take before it counts as hung.
pub const BENCH_TIMEOUT: Duration = Duration::from_secs(600);

/// What a bench printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Nodes searched: the signature.
    pub nodes: u64,
    /// Nodes per second, as printed or else measured.
    pub nps: u64,
}

/// A bench that cannot serve as a signature.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// The program could not be run, failed or hung.
    #[error("bench of {name} ({command}) {problem}")]
    Failed {
        /// The engine.
        name: String,
        /// The command line.
        command: String,
        /// What went wrong.
        problem: String,
    },
    /// No node count in the output.
    #[error(
        "bench of {name} ({command}) printed no node count (a line such as 'Nodes searched : N' or 'N nodes N nps'); set bench_args for this engine"
    )]
    NoCount {
        /// The engine.
        name: String,
        /// The command line.
        command: String,
    },
    /// Two runs of the same binary disagreed.
    #[error(
        "bench of {name} is not deterministic: {first} then {second} nodes (a signature needs the same count every run)"
    )]
    NotDeterministic {
        /// The engine.
        name: String,
        /// The first count.
        first: u64,
        /// The second.
        second: u64,
    },
    /// The count differs from the expected signature.
    #[error("bench of {name} is {found} nodes, not the {expected} the run expects (a different build or commit)")]
    Mismatch {
        /// The engine.
        name: String,
        /// The run's signature.
        expected: u64,
        /// What this machine's binary printed.
        found: u64,
    },
}

/// Runs the bench twice and returns the count and the faster speed;
/// `expected`, when known, must match.
///
/// # Errors
///
/// Any [`BenchError`].
pub fn signature(
    name: &str,
    launch: &Launch,
    args: &[String],
    expected: Option<u64>,
) -> Result<BenchResult, BenchError> {
    let first = run_once(name, launch, args)?;
    let second = run_once(name, launch, args)?;
    if first.nodes != second.nodes {
        return Err(BenchError::NotDeterministic { name: name.to_string(), first: first.nodes, second: second.nodes });
    }
    if let Some(expected) = expected
        && expected != first.nodes
    {
        return Err(BenchError::Mismatch { name: name.to_string(), expected, found: first.nodes });
    }
    Ok(BenchResult { nodes: first.nodes, nps: first.nps.max(second.nps) })
}

/// One run of the bench (`args`, default `bench`).
pub fn run_once(name: &str, launch: &Launch, args: &[String]) -> Result<BenchResult, BenchError> {
    let args: Vec<String> = if args.is_empty() { vec!["bench".into()] } else { args.to_vec() };
    let command = std::iter::once(launch.program.display().to_string())
        .chain(launch.args.iter().cloned())
        .chain(args.iter().cloned())
        .collect::<Vec<_>>()
        .join(" ");
    let failed = |problem: String| BenchError::Failed { name: name.to_string(), command: command.clone(), problem };
    let mut cmd = Command::new(&launch.program);
    cmd.args(&launch.args).args(&args).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    if let Some(dir) = &launch.dir {
        cmd.current_dir(dir);
    }
    let started = Instant::now();
    let mut child = cmd.spawn().map_err(|e| failed(format!("cannot start: {e}")))?;
    let (mut out, mut err) = (child.stdout.take().expect("piped"), child.stderr.take().expect("piped"));
    let reader = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = err.read_to_end(&mut text);
        text
    });
    let mut stdout = Vec::new();
    let _ = out.read_to_end(&mut stdout);
    let status = wait(&mut child, started).map_err(|e| failed(e.to_string()))?;
    let stderr = reader.join().unwrap_or_default();
    let elapsed = started.elapsed();
    if !status.success() {
        return Err(failed(format!("ended with {status}")));
    }
    let text = format!("{}\n{}", String::from_utf8_lossy(&stdout), String::from_utf8_lossy(&stderr));
    let (nodes, nps) = parse(&text);
    let nodes = nodes.ok_or_else(|| BenchError::NoCount { name: name.to_string(), command: command.clone() })?;
    let measured = (nodes as f64 / elapsed.as_secs_f64().max(1e-3)) as u64;
    Ok(BenchResult { nodes, nps: nps.unwrap_or(measured) })
}

/// The bench signature of the bundled engine playing `preset` with the
/// run's `options` for it. Its search depends only on the build and the
/// configuration, so each pair of the two is benched once per machine and
/// the count kept in the cache folder; arena builds that leave the search
/// as it was (BENCHMARKS.md) have the same count.
pub fn bundled_signature(arena_sha256: &str, preset: &str, options: &[(String, String)]) -> Option<BenchResult> {
    let config = bundled_config(preset, options)?;
    let key = {
        use sha2::{Digest, Sha256};
        let digest = Sha256::digest(format!("{arena_sha256} {config:?}").as_bytes());
        format!("{digest:x}")
    };
    let file = crate::util::cache_root().map(|root| root.join("bench").join(&key[..32]));
    if let Some(cached) = file.as_deref().and_then(|f| std::fs::read_to_string(f).ok())
        && let (Some(nodes), Some(nps)) = parse(&cached)
    {
        return Some(BenchResult { nodes, nps });
    }
    // No live line: it takes a second or two, once per build.
    let result = engine::bench::run(&config, engine::bench::DEFAULT_DEPTH);
    let found = BenchResult { nodes: result.nodes, nps: result.nps() };
    if let Some(file) = file {
        store(&file, &format!("{} nodes {} nps\n", found.nodes, found.nps));
    }
    Some(found)
}

/// What `arena engine-uci` searches with after `setoption`s of `options`
/// on `preset`: `Pruning` replaces the preset, a pruning parameter is set,
/// and a value it would refuse is left out, as it leaves it.
fn bundled_config(preset: &str, options: &[(String, String)]) -> Option<engine::search::PruningConfig> {
    let mut config = engine::search::PruningConfig::preset(preset).ok()?;
    for (name, value) in options {
        if name.eq_ignore_ascii_case("pruning") {
            if let Ok(replaced) = engine::search::PruningConfig::preset(value) {
                config = replaced;
            }
        } else {
            let _ = config.set_option(name, value);
        }
    }
    Some(config)
}

/// Writes `text` to `file` whole or not at all (a temporary file renamed
/// into place), so that two processes benching at once never read half a
/// count; a cache that cannot be written is only slower.
fn store(file: &std::path::Path, text: &str) {
    let Some(dir) = file.parent() else { return };
    let temporary = dir.join(format!(".{}.{}", std::process::id(), file.file_name().unwrap_or_default().display()));
    let written = std::fs::create_dir_all(dir).and_then(|()| std::fs::write(&temporary, text));
    if written.and_then(|()| std::fs::rename(&temporary, file)).is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
}

/// A bench that did not end by itself.
#[derive(Debug, thiserror::Error)]
enum Unended {
    /// Killed after [`BENCH_TIMEOUT`].
    #[error("took more than {} s", BENCH_TIMEOUT.as_secs())]
    TimedOut,
    /// The system could not wait for it.
    #[error("cannot be waited for: {0}")]
    Wait(std::io::Error),
}

/// Waits for the bench, killing it after [`BENCH_TIMEOUT`].
fn wait(child: &mut std::process::Child, started: Instant) -> Result<std::process::ExitStatus, Unended> {
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Ok(status),
            Ok(None) if started.elapsed() > BENCH_TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(Unended::TimedOut);
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(Unended::Wait(e)),
        }
    }
}

/// The node count and speed of a bench's output: the last line (not an
/// `info` line) with `Nodes searched : N`, `Nodes : N`, `nodes N` or
/// `N nodes`; the speed from `Nodes/second : N`, `NPS : N` or `N nps`.
pub fn parse(text: &str) -> (Option<u64>, Option<u64>) {
    let (mut nodes, mut nps) = (None, None);
    for line in text.lines().rev() {
        if line.trim_start().starts_with("info") {
            continue;
        }
        let words: Vec<String> = line
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_ascii_lowercase)
            .collect();
        let number = |i: usize| words.get(i).and_then(|w| w.parse::<u64>().ok());
        for (i, word) in words.iter().enumerate() {
            let before = i.checked_sub(1).and_then(number);
            let (found_nodes, found_nps) = match word.as_str() {
                "nodes" => match words.get(i + 1).map(String::as_str) {
                    Some("second") => (None, number(i + 2)),
                    Some("searched") => (number(i + 2), None),
                    _ => (before.or_else(|| number(i + 1)), None),
                },
                "nps" => (None, before.or_else(|| number(i + 1))),
                _ => (None, None),
            };
            nodes = nodes.or(found_nodes);
            nps = nps.or(found_nps);
        }
        if nodes.is_some() && nps.is_some() {
            break;
        }
    }
    (nodes, nps)
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn the_counts_of_stockfish_ethereal_and_the_bundled_engine_are_read() {
        let stockfish = "info depth 13 nodes 99 nps 5\nbestmove e2e4\n\n===========================\nTotal time (ms) : 2496\nNodes searched  : 3467381\nNodes/second    : 1389175\n";
        assert_eq!(parse(stockfish), (Some(3467381), Some(1389175)));
        let ethereal = "Bench [#50] ...\nTime  : 3064ms\nNodes : 5132900\nNPS   : 1675228\n";
        assert_eq!(parse(ethereal), (Some(5132900), Some(1675228)));
        let bundled = "info string counters nodes 8663190 qnodes 6962305\n8663190 nodes 2255451 nps\n";
        assert_eq!(parse(bundled), (Some(8663190), Some(2255451)));
        assert_eq!(parse("no numbers here\n"), (None, None));
    }
}
