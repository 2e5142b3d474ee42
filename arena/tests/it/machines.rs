//! Machines made equal and watched, through the binary, two workers on
//! PostgreSQL each with a `--name`: one whose engines hold every `bestmove`
//! back is set aside for its time losses while the other finishes the run,
//! and the report lists it, its losses, its latency and what it leaves out;
//! a forfeit's stored latency is what its I/O log shows; with
//! `--scale-nps`, a machine whose CPU is shared with busy loops measures
//! itself slower and plays a longer clock.
//!
//! The PostgreSQL server is `ARENA_TEST_POSTGRES` (default: the one
//! `.ci/start-postgres` starts); without one the tests are skipped with a
//! printed reason, except under CI (`CI` set), where that fails.

use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::{ARENA, FAKE, arena, arena_ok, http, stdout, temp_dir};

async fn postgres(name: &str) -> Option<String> {
    let server = std::env::var("ARENA_TEST_POSTGRES").unwrap_or_else(|_| db::TEST_POSTGRES_DEFAULT.to_string());
    match db::scratch_postgres(&server.parse().unwrap(), name).await {
        Ok(db::Target::Postgres(url)) => Some(url),
        Ok(_) => unreachable!(),
        Err(e) if std::env::var_os("CI").is_some() => panic!("CI needs a PostgreSQL server: {e}"),
        Err(e) => {
            eprintln!("skipping: {e}");
            None
        }
    }
}

/// A machine's folder with its own `engines.toml`: `e1` and `e2` are the
/// scripted engine, holding each `bestmove` back `late_ms`.
fn machine(dir: &Path, name: &str, late_ms: u64) -> std::path::PathBuf {
    let home = dir.join(name);
    std::fs::create_dir_all(&home).unwrap();
    let toml = format!(
        "[[engine]]\nname = \"e1\"\ncommand = \"{FAKE}\"\nargs = [\"late\", \"{late_ms}\"]\n\n\
         [[engine]]\nname = \"e2\"\ncommand = \"{FAKE}\"\nargs = [\"late\", \"{late_ms}\"]\n"
    );
    std::fs::write(home.join("engines.toml"), toml).unwrap();
    home
}

fn worker(home: &Path, url: &str, name: &str, wrap: &[&str]) -> Child {
    let args =
        ["worker", "--db", url, "--run", "1", "--name", name, "--concurrency", "1", "--lease", "3", "--poll", "1"];
    let mut command = match wrap.split_first() {
        Some((program, rest)) => {
            let mut c = Command::new(program);
            c.args(rest).arg(ARENA);
            c
        }
        None => Command::new(ARENA),
    };
    command.args(args).current_dir(home).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap()
}

/// Waits for a worker to end by itself (at most 240 s).
fn wait(mut child: Child) -> Output {
    let deadline = Instant::now() + Duration::from_secs(240);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

fn report(home: &Path, url: &str, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["report", "1", "--db", url, "--format", "json"];
    args.extend(extra);
    serde_json::from_str(&stdout(&arena_ok(home, &args))).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalling_machine_is_set_aside_while_the_other_finishes_the_run() {
    let Some(url) = postgres("arena_machines_stall").await else { return };
    let dir = temp_dir("machines-stall");
    // The good machine's engines take 10 ms a move, so that both machines play while the run lasts.
    let good = machine(&dir, "good", 10);
    let bad = machine(&dir, "bad", 150);
    let create = [
        "match",
        "--a",
        "e1",
        "--b",
        "e2",
        "--games",
        "40",
        "--tc",
        "1+0.01",
        "--maxmoves",
        "20",
        "--openings",
        "noob_2moves",
        "--db",
        &url,
        "--no-local",
    ];
    arena_ok(&good, &create);
    let workers = [worker(&bad, &url, "bad", &[]), worker(&good, &url, "good", &[])];
    let [bad_out, good_out] = workers.map(wait);
    for out in [&bad_out, &good_out] {
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let told = String::from_utf8_lossy(&bad_out.stderr);
    assert!(told.contains("not serving run 1 any more: this machine is set aside: "), "{told}");

    let db = db::Db::open(&url.parse().unwrap()).await.unwrap();
    let info = db.run(1).await.unwrap();
    assert_eq!((info.status, info.games, info.pairs_done), (model::RunStatus::Finished, 40, 20));
    let states = db.machine_states(1).await.unwrap();
    let set_aside: Vec<&str> = states.iter().filter(|s| s.set_aside.is_some()).map(|s| s.machine.as_str()).collect();
    assert_eq!(set_aside, ["bad"], "{states:?}");
    let records = db.machine_records(1).await.unwrap();
    let (bad_record, good_record) = (&records[0], &records[1]);
    assert_eq!((bad_record.machine.as_str(), good_record.machine.as_str()), ("bad", "good"));
    // The stated rule: at least 3 faults, and p < 1e-4 against the other
    // machine's rate; with the other machine faultless that is within 10 games.
    assert!(bad_record.games <= 10 && bad_record.time_losses >= 3, "{bad_record:?}");
    assert_eq!(bad_record.time_losses, bad_record.games, "every game there lost on time");
    assert_eq!((good_record.time_losses, good_record.other_faults), (0, 0));
    // The pairings' counts (what the SPRT reads) leave the set-aside games out.
    let counted: u64 = db.pairing_counts(1).await.unwrap().iter().map(|c| c.tally.games()).sum();
    assert_eq!(counted, 40 - bad_record.games);

    // Each forfeit's latency is what the I/O log shows between `go` and the end.
    for lost in &bad_record.lost {
        let round = format!("{}.{}", lost.pair_index + 1, lost.game_in_pair + 1);
        let log = stdout(&arena_ok(&bad, &["log", "1", &round, "--db", &url]));
        let stamp = |line: &str| line.split_whitespace().next().unwrap().parse::<i64>().unwrap();
        let lines: Vec<&str> = log.lines().collect();
        let engine = format!(" {} ", lost.engine);
        let go = lines.iter().rposition(|l| l.contains(&format!("{engine}> go "))).expect("the losing go");
        let end = lines[go..].iter().find(|l| l.contains(&format!("{engine}< "))).expect("its answer or the timeout");
        let shown = stamp(end) - stamp(lines[go]);
        let stored = lost.latency_ms.expect("a forfeit keeps its latency") as i64;
        assert!((shown - stored).abs() <= 1, "game {round}: log {shown} ms, stored {stored} ms\n{log}");
    }

    // The report: the machines, the bad one's losses, latency and exclusion.
    let json = report(&good, &url, &[]);
    crate::common::validate_against_schema(&json);
    let machines = &json["machines"];
    let row = |name: &str| machines["rows"].as_array().unwrap().iter().find(|r| r["machine"] == name).unwrap().clone();
    let (bad_row, good_row) = (row("bad"), row("good"));
    assert!(bad_row["status"].as_str().unwrap().starts_with("set aside: "), "{bad_row}");
    assert_eq!(bad_row["time_losses"], bad_record.time_losses);
    assert!(bad_row["overhead_p50_ms"].as_u64().unwrap() >= 128, "{bad_row}");
    assert!(good_row["overhead_p99_ms"].as_u64().unwrap() < 100, "{good_row}");
    assert_eq!(machines["excluded"], serde_json::json!(["bad"]));
    assert_eq!(machines["excluded_games"], bad_record.games);
    assert_eq!(machines["lost_moves"].as_array().unwrap().len() as u64, bad_record.games);
    let games = |json: &serde_json::Value| json["pairings"][0]["statistics"]["games"].as_u64().unwrap();
    assert_eq!(games(&json), 40 - bad_record.games);
    assert_eq!(games(&report(&good, &url, &["--set-aside", "count"])), 40);
    let text = stdout(&arena_ok(&good, &["report", "1", "--db", &url]));
    assert!(text.contains("Left out of the result: ") && text.contains("set aside: "), "{text}");
    let show = stdout(&arena_ok(&good, &["show", "1", "--db", &url]));
    assert!(show.contains("Machines") && show.contains("set aside: "), "{show}");
    // The machine that created the run with --no-local made its engines
    // ready (hashed, started) and played none of its games.
    let creator = json["header"]["machine"].as_str().unwrap();
    assert!(show.contains(&format!("  ready on {creator}, no games there: sha256 ")), "{show}");
    assert!(show.contains("  played on good: sha256 ") && show.contains("  played on bad: sha256 "), "{show}");

    // The dashboard shows the standing and lets a token holder readmit the machine.
    let (mut serve, address) = crate::common::start_serve(&good, &["--db", &url, "--token", "s3cret"]);
    let (status, page) = http(address, "GET", "/live/runs/1", &[], "");
    assert!(status == 200 && page.contains("set aside: "), "{status} {page}");
    let form = [("Content-Type", "application/x-www-form-urlencoded")];
    assert_eq!(http(address, "POST", "/runs/1/readmit", &form, "token=s3cret&machine=nobody").0, 409);
    assert_eq!(http(address, "POST", "/runs/1/readmit", &form, "token=wrong&machine=bad").0, 403);
    assert_eq!(http(address, "POST", "/runs/1/readmit", &form, "token=s3cret&machine=bad").0, 303);
    let (_, page) = http(address, "GET", "/live/runs/1", &[], "");
    assert!(page.contains("readmitted") && !page.contains("set aside: "), "{page}");
    let _ = serve.kill();
    let _ = serve.wait();
    // Readmitted, its games count again, in the pairings' counts too.
    let counted: u64 = db.pairing_counts(1).await.unwrap().iter().map(|c| c.tally.games()).sum();
    assert_eq!(counted, 40);
    assert_eq!(games(&report(&good, &url, &[])), 40);
    db.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_machine_sharing_its_cpu_plays_a_longer_clock() {
    let Some(url) = postgres("arena_machines_scale").await else { return };
    if Command::new("taskset").arg("-V").output().is_err() {
        return eprintln!("skipping: no taskset");
    }
    let dir = temp_dir("machines-scale");
    let create = [
        "elo",
        "--a",
        "fhr",
        "--b",
        "plain",
        "--games",
        "8",
        "--tc",
        "1+0.01",
        "--openings",
        "noob_2moves",
        "--scale-nps",
        "1000000",
        "--min-nps",
        "50000",
        "--db",
        &url,
        "--no-local",
    ];
    arena_ok(&dir, &create);
    // The slow machine's CPU is shared with two busy loops, at a lower
    // priority than theirs (nice 5: about a seventh of the core), so it stays
    // slow while other tests load the other core: pinned loops alone push
    // every unpinned process onto the fast machine's core.
    let busy: Vec<Child> = (0..2)
        .map(|_| Command::new("taskset").args(["-c", "0", "sh", "-c", "while :; do :; done"]).spawn().unwrap())
        .collect();
    let slow = worker(&dir, &url, "slow", &["nice", "-n", "5", "taskset", "-c", "0"]);
    let fast = worker(&dir, &url, "fast", &["taskset", "-c", "1"]);
    let outs = [slow, fast].map(wait);
    for mut loop_ in busy {
        let _ = loop_.kill();
        let _ = loop_.wait();
    }
    for out in &outs {
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let db = db::Db::open(&url.parse().unwrap()).await.unwrap();
    let states = db.machine_states(1).await.unwrap();
    let scale = |name: &str| states.iter().find(|s| s.machine == name).and_then(|s| s.scale).unwrap();
    let (slow_scale, fast_scale) = (scale("slow"), scale("fast"));
    assert!(slow_scale > 1.5 * fast_scale, "slow × {slow_scale}, fast × {fast_scale}");
    // Each game carries its machine's factor, and the slow machine's moves had more time.
    let mut per_machine: std::collections::BTreeMap<String, (f64, u64, u64)> = Default::default();
    let mut after = 0;
    loop {
        let page = db.games_page(1, after, 100, true).await.unwrap();
        let Some(last) = page.last() else { break };
        after = last.id;
        for game in page {
            let record = game.record;
            let entry = per_machine.entry(record.machine.clone()).or_insert((record.tc_scale.unwrap(), 0, 0));
            assert_eq!(record.tc_scale, Some(entry.0));
            entry.1 += record.moves.iter().map(|m| m.time_ms).sum::<u64>();
            entry.2 += record.moves.len() as u64;
        }
    }
    let mean = |name: &str| per_machine.get(name).map(|(_, time, moves)| *time as f64 / (*moves).max(1) as f64);
    if let (Some(slow_ms), Some(fast_ms)) = (mean("slow"), mean("fast")) {
        assert!(slow_ms > fast_ms, "slow {slow_ms:.1} ms per move, fast {fast_ms:.1}");
    }
    assert_eq!(per_machine.get("slow").map(|m| m.0), Some(slow_scale));
    let json = report(&dir, &url, &[]);
    let rows = json["machines"]["rows"].as_array().unwrap();
    assert!(rows.iter().any(|r| r["machine"] == "slow" && r["scale"].as_f64() == Some(slow_scale)), "{rows:?}");
    let refused = arena(&dir, &["worker", "--db", &url, "--run", "1", "--name", "a b"]);
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--name 'a b' must be a word"));
    db.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn residuals_agree_with_an_independent_computation() {
    let dir = temp_dir("machines-residuals");
    let toml = format!(
        "[[engine]]\nname = \"strong\"\ncommand = \"{FAKE}\"\nargs = [\"flat\", \"700\"]\n\n\
         [[engine]]\nname = \"weak\"\ncommand = \"{FAKE}\"\nargs = [\"flat\", \"300\"]\n"
    );
    std::fs::write(dir.join("engines.toml"), toml).unwrap();
    let args = [
        "match",
        "--a",
        "strong",
        "--b",
        "weak",
        "--games",
        "60",
        "--tc",
        "nodes=100",
        "--openings",
        "noob_2moves",
        "--maxmoves",
        "40",
        "--db",
        "r.db",
        "--quiet",
    ];
    arena_ok(&dir, &args);
    // A fixture of three machines: the pairs dealt out by id, and the third
    // machine given the pairs A won outright, so that it sits apart.
    let sql = "UPDATE games SET machine = CASE WHEN pair_id IN (SELECT pair_id FROM games GROUP BY pair_id \
               HAVING SUM(CASE WHEN (game_in_pair = 0 AND result = '1-0') OR (game_in_pair = 1 AND result = '0-1') \
               THEN 1 ELSE 0 END) = 2) AND pair_id % 2 = 0 THEN 'lucky' \
               WHEN pair_id % 2 = 0 THEN 'even' ELSE 'odd' END";
    sqlx::any::install_default_drivers();
    let url = format!("sqlite://{}", dir.join("r.db").display());
    let pool = db::pool_options::<sqlx::Any>().max_connections(1).connect(&url).await.unwrap();
    sqlx::query(sqlx::AssertSqlSafe(sql.to_string())).execute(&pool).await.unwrap();
    // The games changed behind arena's back: the run's kept counts are made
    // again from them at the next open, as for a run stored before they were kept.
    sqlx::query("UPDATE runs SET counts_kept = 0").execute(&pool).await.unwrap();
    pool.close().await;
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scripts/residuals.py");
    let oracle = Command::new("python3").arg(&script).arg(dir.join("r.db")).arg("1").output().unwrap();
    assert!(oracle.status.success(), "{}", String::from_utf8_lossy(&oracle.stderr));
    let expected: serde_json::Value = serde_json::from_slice(&oracle.stdout).unwrap();
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&arena_ok(&dir, &["report", "1", "--db", "r.db", "--format", "json"]))).unwrap();
    let rows = json["machines"]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3, "{rows:?}");
    for row in rows {
        let [z, p] = [0, 1].map(|i| expected[row["machine"].as_str().unwrap()][i].as_f64().unwrap());
        let residual = &row["residual"];
        assert!((residual["z"].as_f64().unwrap() - z).abs() < 1e-9, "{row} against z {z}");
        assert!((residual["p_adjusted"].as_f64().unwrap() - p).abs() < 1e-9, "{row} against p {p}");
    }
    let lucky = rows.iter().find(|r| r["machine"] == "lucky").unwrap();
    assert!(lucky["residual"]["z"].as_f64().unwrap() > 2.0, "{lucky}");
}
