//! Benchmark: the arena's own cost per ply, with scripted engines that
//! answer at once (`fake-engine instant`), at concurrency 1 and 2.
//!
//! `cargo build --release -p arena && cargo run --release -p arena --example overhead [GAMES]`
//!
//! Prints wall time per ply, the arena process's CPU time per ply (user +
//! system, from /proc/self/stat; the engines are separate processes), and
//! games per minute.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use arena::engine_io::engines::EngineSpec;
use arena::engine_io::player::Player;
use arena::engine_io::process::Timeouts;
use arena::game::adjudication::Adjudication;
use model::TimeControl;

fn fake_engine() -> PathBuf {
    let exe = std::env::current_exe().expect("current exe");
    exe.parent().and_then(|p| p.parent()).expect("target dir").join("fake-engine")
}

/// CPU time (user + system) of this process.
fn cpu_time() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<u64> = stat
        .rsplit_once(')')
        .map(|(_, rest)| rest.split_whitespace().filter_map(|f| f.parse().ok()).collect())
        .unwrap_or_default();
    // After the state field: ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime.
    let ticks = fields.get(10).copied().unwrap_or(0) + fields.get(11).copied().unwrap_or(0);
    Duration::from_millis(ticks * 10)
}

fn player(name: &str) -> Player {
    let spec = EngineSpec {
        name: name.into(),
        command: fake_engine().display().to_string(),
        args: vec!["instant".into()],
        ..EngineSpec::default()
    };
    let launch = spec.launch(&fake_engine());
    Player::new(spec, "60+1".parse::<TimeControl>().expect("tc"), launch, None, Timeouts::default())
}

async fn worker(games: usize, opening: openings::Opening) -> usize {
    let (mut white, mut black) = (player("a"), player("b"));
    let rules = Adjudication { max_moves: Some(100), ..Adjudication::default() };
    let mut plies = 0;
    for _ in 0..games {
        plies += arena::game::play(&mut white, &mut black, &opening, rules.into()).await.expect("game").moves.len();
    }
    white.shutdown().await;
    black.shutdown().await;
    plies
}

/// How the slots are run: `ARENA_RUNTIME=shared` (one current-thread
/// runtime for all slots, the default), `multi` (tokio's multi-thread
/// runtime, as `arena` before), `slot` (a current-thread runtime on a thread
/// of its own per slot).
fn play(concurrency: usize, games: usize, book: &openings::Book) -> usize {
    let mode = std::env::var("ARENA_RUNTIME").unwrap_or_else(|_| "shared".into());
    let run_all = |runtime: tokio::runtime::Runtime| {
        runtime.block_on(async {
            let mut tasks = tokio::task::JoinSet::new();
            for w in 0..concurrency {
                tasks.spawn(worker(games / concurrency, book.get(w)));
            }
            let mut total = 0;
            while let Some(result) = tasks.join_next().await {
                total += result.expect("worker");
            }
            total
        })
    };
    match mode.as_str() {
        "multi" => run_all(tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime")),
        "slot" => std::thread::scope(|scope| {
            let threads: Vec<_> = (0..concurrency)
                .map(|w| {
                    let opening = book.get(w);
                    scope.spawn(move || {
                        let runtime =
                            tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
                        runtime.block_on(worker(games / concurrency, opening))
                    })
                })
                .collect();
            threads.into_iter().map(|t| t.join().expect("slot")).sum()
        }),
        _ => run_all(tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime")),
    }
}

fn main() {
    let games: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(200);
    let book = openings::builtin("forty").expect("forty");
    for concurrency in [1, 2] {
        let (wall, cpu) = (Instant::now(), cpu_time());
        let plies = play(concurrency, games, &book);
        let (wall, cpu) = (wall.elapsed(), cpu_time() - cpu);
        println!(
            "concurrency {concurrency}: {games} games, {plies} plies, {:.1} µs wall/ply, {:.1} µs arena CPU/ply, {:.0} games/min",
            wall.as_secs_f64() * 1e6 / plies as f64,
            cpu.as_secs_f64() * 1e6 / plies as f64,
            games as f64 / wall.as_secs_f64() * 60.0
        );
    }
}
