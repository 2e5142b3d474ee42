//! Benchmark: storing games, and reading them back as `arena show` and
//! `arena pgn` do.
//!
//! `cargo run --release -p arena --example storage [GAMES] [postgres://…]` (default 100,000)
//!
//! 1. Stores 1,000 games of 200 plies one transaction each, through the
//!    leased-pair path that workers use (claim, first game, finish with the
//!    counts), and prints the mean time per game — on SQLite, and on the
//!    PostgreSQL server given (a scratch database `arena_bench` is made).
//! 2. Fills a database with GAMES recorded games (run 1's games in the
//!    scaling runs' base snapshot, `bench/scaling/scaling.db.gz`, over and
//!    over: real moves, scores and PVs), then times the
//!    summary (`arena show`), the reports (`arena report` as text, JSON and
//!    HTML) and the PGN export (`arena pgn`) through the binary, and prints
//!    the file's bytes per game.
//!
//! 3. Times the dashboard on that database with its report cache cold (the
//!    run page `/runs/1` and `/api/runs/1`, each the first request of a
//!    fresh `arena serve`), and the runs list (`/` and `/api/runs`) on a
//!    database of 10,000 runs.
//!
//! The filled database is kept in `$ARENA_BENCH_DIR` (default
//! `target/storage-bench`): run the example again with the same GAMES to go
//! on filling where it stopped (a million games take several minutes), or
//! with the database full to time the views again.

use std::process::Command;
use std::time::Duration;
use std::time::Instant;

use db::{Db, Target};

#[path = "shared/recorded.rs"]
mod recorded;
use model::{GameRecord, GameResult, MoveRecord, RunStatus, Termination};

fn game(plies: usize, seed: u64) -> GameRecord {
    // A legal game is not needed for storage; a repeating knight dance is legal anyway.
    let dance = [("g1f3", "Nf3"), ("g8f6", "Nf6"), ("f3g1", "Ng1"), ("f6g8", "Ng8")];
    let moves = (0..plies)
        .map(|i| MoveRecord {
            uci: dance[i % 4].0.into(),
            san: dance[i % 4].1.into(),
            time_ms: 100 + i as u64,
            clock_ms: 60_000,
            score_cp: Some((seed as i64 + i as i64) % 50 - 25),
            depth: Some(12),
            seldepth: Some(18),
            nodes: Some(123_456),
            nps: Some(1_500_000),
            pv: "g1f3 g8f6 f3g1 f6g8".into(),
            ..MoveRecord::default()
        })
        .collect();
    let result = [GameResult::WhiteWins, GameResult::Draw, GameResult::BlackWins][(seed % 3) as usize];
    GameRecord {
        white: if seed.is_multiple_of(2) { "a".into() } else { "b".into() },
        black: if seed.is_multiple_of(2) { "b".into() } else { "a".into() },
        start_fen: openings::START_FEN.into(),
        opening: "bench".into(),
        opening_moves: vec!["e2e4".into(), "e7e5".into()],
        opening_san: vec!["e4".into(), "e5".into()],
        result,
        termination: Termination::AdjudicatedDraw,
        detail: String::new(),
        moves,
        started_ms: 1_795_219_200_000,
        finished_ms: 1_795_219_260_000,
        pv_issues: Vec::new(),
        io_log: None,
        machine: String::new(),
        lost_ms: None,
        tc_scale: None,
    }
}

async fn filled(target: &Target, pairs: usize) -> (Db, i64) {
    if let Target::Sqlite(path) = target {
        let _ = std::fs::remove_file(path);
    }
    let db = Db::open(target).await.expect("open");
    let run = db.create_run(&recorded::spec(), &recorded::plan(pairs), "localhost").await.expect("run");
    (db, run)
}

async fn store_pairs(db: &Db, run: i64, pairs: usize, plies: usize) -> f64 {
    let start = Instant::now();
    for i in 0..pairs {
        let pair = db.claim_pair(run, "bench", Duration::from_secs(60)).await.expect("claim").expect("pair");
        assert!(db.save_first_game(&pair, &game(plies, 2 * i as u64)).await.expect("save"));
        let commit = db.finish_pair(&pair, &game(plies, 2 * i as u64 + 1), &db::NoSprt, None).await.expect("save");
        assert!(commit.is_some());
    }
    start.elapsed().as_secs_f64() * 1e3 / (2 * pairs) as f64
}

/// Fills run `run` of `db` with recorded games up to `games`, a pair per
/// transaction as workers store them, showing progress; the mean time per
/// game stored now.
async fn fill(db: &Db, run: i64, games: usize, games_of: &[GameRecord]) -> Option<f64> {
    let done = db.run(run).await.expect("run").games as usize;
    if done >= games {
        return None;
    }
    let start = Instant::now();
    for i in (done / 2)..(games / 2) {
        let pair = db.claim_pair(run, "bench", Duration::from_secs(60)).await.expect("claim").expect("pair");
        assert!(db.save_first_game(&pair, &recorded::named(games_of, 2 * i, "a", "b")).await.expect("save"));
        let second = recorded::named(games_of, 2 * i + 1, "b", "a");
        assert!(db.finish_pair(&pair, &second, &db::NoSprt, None).await.expect("save").is_some());
        if i % 1000 == 999 {
            eprint!("\rfilling: {} of {games} games", 2 * (i + 1));
        }
    }
    eprintln!();
    Some(start.elapsed().as_secs_f64() * 1e3 / (games - done) as f64)
}

fn timed(args: &[&str]) -> f64 {
    let start = Instant::now();
    let out = Command::new(arena_exe()).args(args).output().expect("arena");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    start.elapsed().as_secs_f64()
}

/// The arena binary beside this example.
fn arena_exe() -> std::path::PathBuf {
    let exe = std::env::current_exe().expect("exe");
    exe.parent().and_then(|p| p.parent()).expect("target").join("arena")
}

/// Seconds of one `GET path` on `port` (HTTP/1.1, the whole body read); its status line.
fn get(port: u16, path: &str) -> (f64, String) {
    use std::io::{Read, Write};
    let start = Instant::now();
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect");
    write!(stream, "GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").expect("send");
    let mut body = Vec::new();
    stream.read_to_end(&mut body).expect("read");
    let seconds = start.elapsed().as_secs_f64();
    let status = String::from_utf8_lossy(&body).lines().next().unwrap_or_default().to_string();
    (seconds, status)
}

/// Starts `arena serve` on `db`, runs `f` with its port, stops it.
fn with_server<T>(db: &str, port: u16, f: impl FnOnce(u16) -> T) -> T {
    let listen = format!("127.0.0.1:{port}");
    let mut server = Command::new(arena_exe())
        .args(["serve", "--db", db, "--listen", &listen])
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("arena serve");
    let deadline = Instant::now() + Duration::from_secs(60);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "arena serve did not listen");
        std::thread::sleep(Duration::from_millis(20));
    }
    let result = f(port);
    let _ = server.kill();
    let _ = server.wait();
    result
}

/// The run page and its API, each the first request of a fresh server.
fn time_run_pages(db: &str, games: usize) {
    for path in ["/runs/1", "/api/runs/1"] {
        let (seconds, status) = with_server(db, 18_437, |port| get(port, path));
        println!("GET {path} on {games} games, report cache cold: {:.0} ms ({status})", seconds * 1e3);
    }
}

/// A database of `runs` small runs, kept beside the big one; the runs list timed.
async fn time_runs_list(bench_dir: &std::path::Path, runs: usize) {
    let path = bench_dir.join(format!("runs-{runs}.db"));
    let db = Db::open(&Target::Sqlite(path.clone())).await.expect("open");
    let newest = db::RunFilter { before: None, status: None, engine: None, limit: 1 };
    let have = db.runs_page(&newest).await.expect("runs");
    let mut next = have.first().map_or(0, |r| r.id as usize);
    while next < runs {
        db.create_run(&recorded::spec(), &recorded::plan(2), "localhost").await.expect("run");
        next += 1;
        if next % 1000 == 0 {
            eprint!("\rcreating runs: {next} of {runs}");
        }
    }
    eprintln!();
    db.close().await;
    let db_arg = path.display().to_string();
    with_server(&db_arg, 18_438, |port| {
        for path in ["/", "/api/runs", "/api/runs?status=running&engine=a", "/?before=5000"] {
            let (seconds, status) = get(port, path);
            println!("GET {path} with {runs} runs: {:.0} ms ({status})", seconds * 1e3);
        }
    });
}

fn main() {
    let games: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    let dir = std::env::temp_dir().join("arena-storage-bench");
    std::fs::create_dir_all(&dir).expect("dir");
    let bench_dir = std::env::var_os("ARENA_BENCH_DIR").map(std::path::PathBuf::from).unwrap_or_else(|| {
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../target/storage-bench")).to_path_buf()
    });
    std::fs::create_dir_all(&bench_dir).expect("dir");
    let server: Option<Target> = std::env::args().nth(2).map(|url| url.parse().expect("a postgres:// URL"));
    runtime.block_on(async {
        let mut targets = vec![Target::Sqlite(dir.join("store.db"))];
        if let Some(server) = &server {
            targets.push(db::scratch_postgres(server, "arena_bench").await.expect("scratch database"));
        }
        for target in &targets {
            let (db, run) = filled(target, 500).await;
            let per_game = store_pairs(&db, run, 500, 200).await;
            println!("store on {target}: 1000 games of 200 plies, {per_game:.3} ms per game (one transaction each)");
            db.close().await;
        }

        let path = bench_dir.join(format!("big-{games}.db"));
        let (db, run) = if path.exists() {
            (Db::open(&Target::Sqlite(path.clone())).await.expect("open"), 1)
        } else {
            filled(&Target::Sqlite(path.clone()), games / 2).await
        };
        let recorded = recorded::games(&dir).await;
        if let Some(per_game) = fill(&db, run, games, &recorded).await {
            println!("fill: {games} recorded games, {per_game:.3} ms per game");
        }
        db.set_status(run, RunStatus::Finished, None).await.expect("status");
        db.close().await;
        let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        println!("file: {:.0} MB, {} bytes per game", size as f64 / 1e6, size / games.max(1) as u64);
        let db_arg = path.display().to_string();
        let show = timed(&["show", "1", "--db", &db_arg]);
        for format in ["text", "json", "html"] {
            let out = dir.join(format!("report.{format}")).display().to_string();
            let seconds = timed(&["report", "1", "--db", &db_arg, "--format", format, "-o", &out]);
            println!("arena report --format {format} on {games} games: {seconds:.2} s");
        }
        let pgn_path = bench_dir.join("big.pgn").display().to_string();
        let pgn = timed(&["pgn", "1", "--db", &db_arg, "-o", &pgn_path]);
        let size = std::fs::metadata(&pgn_path).map(|m| m.len()).unwrap_or(0);
        println!("arena show on {games} games: {show:.2} s; arena pgn: {pgn:.2} s ({:.0} MB)", size as f64 / 1e6);
        let _ = std::fs::remove_file(&pgn_path);
        time_run_pages(&db_arg, games);
        time_runs_list(&bench_dir, 10_000).await;
    });
    let _ = std::fs::remove_dir_all(&dir);
}
