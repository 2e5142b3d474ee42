//! Many games at once on this two-CPU machine: 256 engine processes start
//! and every game is stored once; `--concurrency auto` and `-N`; the line
//! that says the machine is overcommitted, said where its engines wait
//! for a processor and not where they do not.

use crate::common::{arena, arena_ok, temp_dir};

/// `run`'s games in `dir/arena.db`: all, distinct pairs, and those that
/// ended in a fault (an engine that did not start, a crash, a stall).
async fn games_of(dir: &std::path::Path, run: i64) -> (i64, i64, i64) {
    let options = sqlx::sqlite::SqliteConnectOptions::new().filename(dir.join("arena.db")).read_only(true);
    let mut connection = sqlx::ConnectOptions::connect(&options).await.unwrap();
    let mut count = async |sql: String| {
        sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(sql)).bind(run).fetch_one(&mut connection).await.unwrap()
    };
    let all = count("SELECT COUNT(*) FROM games WHERE run_id = ?".into()).await;
    let pairs = count("SELECT COUNT(DISTINCT pair_id) FROM games WHERE run_id = ?".into()).await;
    let faults = model::Termination::faults_sql();
    let faults = count(format!("SELECT COUNT(*) FROM games WHERE run_id = ? AND termination IN {faults}")).await;
    (all, pairs, faults)
}

/// `arena match` of plain against nmp2, `games` games all at once, at `tc`.
fn at_once<'a>(games: &'a str, tc: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "match",
        "--a",
        "plain",
        "--b",
        "nmp2",
        "--games",
        games,
        "--concurrency",
        games,
        "--tc",
        tc,
        "--no-io-log",
        "--quiet",
    ];
    args.extend_from_slice(extra);
    args
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hundred_and_twenty_eight_games_at_once_start_their_engines_and_store_each_game_once() {
    let dir = temp_dir("many-at-once");
    let args = at_once("128", "nodes=300", &[]);
    let out = arena_ok(&dir, &args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(String::from_utf8_lossy(&out.stdout).contains("games 128 of 128 planned"), "{stderr}");
    // Not a word on stderr: node limits do not depend on the machine, so
    // 128 slots on two CPUs are neither warned of nor called overcommitted.
    assert_eq!(stderr.trim(), "");
    assert_eq!(games_of(&dir, 1).await, (128, 64, 0), "{stderr}");
}

#[test]
fn auto_and_minus_n_resolve_on_this_machine_and_minus_too_many_is_one_line() {
    let dir = temp_dir("concurrency-auto");
    let cpus = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let fast = ["--a", "plain", "--b", "nmp2", "--games", "2", "--tc", "nodes=200", "--no-io-log"];
    // The run's first line, on stderr: what it plays, at which concurrency.
    let first =
        |out: &std::process::Output| String::from_utf8_lossy(&out.stderr).lines().next().unwrap_or("").to_string();
    let out = arena_ok(&dir, &[&["match", "--concurrency", "auto"][..], &fast].concat());
    assert!(first(&out).contains(&format!("concurrency {cpus}")), "{}", first(&out));
    let out = arena_ok(&dir, &[&["match", "--concurrency", "-1"][..], &fast].concat());
    assert!(first(&out).contains(&format!("concurrency {}", (cpus - 1).max(1))), "{}", first(&out));
    // What the run stored is the number it played with, not the word.
    let config = String::from_utf8_lossy(&arena_ok(&dir, &["show", "1", "--config"]).stdout).to_string();
    assert!(config.contains(&format!("concurrency = {cpus}")), "{config}");
    let too_many = format!("-{cpus}");
    let out = arena(&dir, &[&["match", "--concurrency", &too_many][..], &fast].concat());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(stderr.contains(&format!("--concurrency {too_many}: this process may use {cpus} CPU(s)")), "{stderr}");
    for bad in ["0", "x", "-0"] {
        let out = arena(&dir, &[&["match", "--concurrency", bad][..], &fast].concat());
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert_eq!(String::from_utf8_lossy(&out.stderr).trim_end().lines().count(), 1, "{bad}");
    }
}

#[test]
fn thirty_two_clocked_games_on_two_cpus_are_called_overcommitted_and_two_are_not() {
    let dir = temp_dir("overcommitted");
    let clocked = |games: &str| {
        let args = at_once(games, "1+0.01", &["--maxmoves", "20"]);
        let out = arena_ok(&dir, &args);
        String::from_utf8_lossy(&out.stderr)
            .lines()
            .filter(|l| l.contains("overcommitted"))
            .map(String::from)
            .collect::<Vec<_>>()
    };
    let said = clocked("32");
    assert_eq!(said.len(), 1, "said once: {said:?}");
    assert!(said[0].contains("waited for a processor") && said[0].contains("--concurrency auto"), "{said:?}");
    assert_eq!(clocked("2"), Vec::<String>::new());
}
