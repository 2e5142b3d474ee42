//! Many workers on one run, through the `arena` binary, on PostgreSQL and on
//! SQLite: a run created with `--no-local`, three `arena worker`s, one of
//! them killed with SIGKILL between the two games of a pair. The run must
//! end with exactly its planned pairs, each with games 0 and 1, none twice,
//! none lost, and the stored counts equal to the games; with an SPRT, the
//! verdict must stop every worker at the first crossing.
//!
//! The PostgreSQL server is `ARENA_TEST_POSTGRES` (default: the one
//! `.ci/start-postgres` starts); without one the PostgreSQL half is skipped
//! with a printed reason, except under CI (`CI` set), where that fails.

use crate::common::{ARENA, arena, arena_ok, assert_tune_chain, temp_dir};

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use db::{Db, Target};
use sqlx::Row;

async fn targets(test: &str, dir: &Path) -> Vec<Target> {
    let mut targets = vec![Target::Sqlite(dir.join("shared.db"))];
    let server = std::env::var("ARENA_TEST_POSTGRES").unwrap_or_else(|_| db::TEST_POSTGRES_DEFAULT.to_string());
    match db::scratch_postgres(&server.parse().unwrap(), &format!("arena_workers_{test}")).await {
        Ok(target) => targets.push(target),
        Err(e) if std::env::var_os("CI").is_some() => panic!("CI needs a PostgreSQL server: {e}"),
        Err(e) => eprintln!("skipping PostgreSQL for {test}: {e}"),
    }
    targets
}

fn url(target: &Target) -> String {
    match target {
        Target::Sqlite(path) => path.display().to_string(),
        Target::Postgres(url) => url.clone(),
    }
}

fn worker(dir: &Path, db: &str, run: &str) -> Child {
    Command::new(ARENA)
        .args(["worker", "--db", db, "--run", run, "--concurrency", "1", "--lease", "3", "--poll", "1"])
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// One number from the database, by plain SQL (the test's own reading).
pub(crate) async fn count(target: &Target, sql: &str) -> i64 {
    sqlx::any::install_default_drivers();
    let url = match target {
        Target::Sqlite(path) => format!("sqlite://{}", path.display()),
        Target::Postgres(url) => url.clone(),
    };
    let pool = db::pool_options::<sqlx::Any>().max_connections(1).connect(&url).await.unwrap();
    let value: i64 = sqlx::query(sqlx::AssertSqlSafe(sql.to_string())).fetch_one(&pool).await.unwrap().get(0);
    pool.close().await;
    value
}

/// The victim holds a pair whose first game it has stored.
const MID_PAIR: &str = "SELECT COUNT(*) FROM pairs p JOIN games g ON g.pair_id = p.id \
     WHERE p.status = 'running' AND p.worker LIKE '%:{pid}/%'";

/// The victim holds a suite chunk.
const MID_CHUNK: &str = "SELECT COUNT(*) FROM suite_chunks WHERE status = 'running' AND worker LIKE '%:{pid}/%'";

/// Waits (polling the database, at most 60 s) until `victim` holds work as
/// `holding` (SQL with `{pid}`) counts it, then kills it with SIGKILL.
async fn kill_holding(target: &Target, victim: &mut Child, holding: &str) -> bool {
    let holds = holding.replace("{pid}", &victim.id().to_string());
    let deadline = Instant::now() + Duration::from_secs(60);
    while Instant::now() < deadline {
        if victim.try_wait().unwrap().is_some() {
            return false;
        }
        if count(target, &holds).await > 0 {
            victim.kill().unwrap(); // SIGKILL
            victim.wait().unwrap();
            return true;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    false
}

/// Creates run 1 with `create` (`--db` and `--no-local` added), starts three
/// workers on it, kills one with SIGKILL while it holds work as `holding`
/// counts it, and waits for the other two to finish; their logs.
async fn three_workers_one_killed(dir: &Path, target: &Target, create: &[&str], holding: &str) -> Vec<String> {
    let db = url(target);
    let mut args = create.to_vec();
    args.extend(["--db", &db, "--no-local"]);
    let created = arena(dir, &args);
    assert!(created.status.success(), "{}", String::from_utf8_lossy(&created.stderr));
    assert_eq!(String::from_utf8_lossy(&created.stdout).trim(), "run 1", "{target}");
    let stderr = String::from_utf8_lossy(&created.stderr);
    assert!(stderr.contains("arena worker --db") && !stderr.contains(":arena_test@"), "{stderr}");
    let mut victim = worker(dir, &db, "1");
    let others = [worker(dir, &db, "1"), worker(dir, &db, "1")];
    assert!(kill_holding(target, &mut victim, holding).await, "{target}: the victim never held work");
    others.into_iter().map(finish).collect()
}

/// Waits for a worker to exit by itself (at most 180 s); its stderr.
pub(crate) fn finish(mut child: Child) -> String {
    let deadline = Instant::now() + Duration::from_secs(180);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let output = child.wait_with_output().unwrap();
            panic!(
                "a worker did not stop when its run ended; its stderr:\n{}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "worker failed: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The checks every run must pass: pairs done each with games 0 and 1 and
/// nothing else stored; the stored tallies equal to the games.
pub(crate) async fn assert_consistent(target: &Target, run: i64) {
    let db = Db::open(target).await.unwrap();
    let info = db.run(run).await.unwrap();
    assert_eq!(info.status, model::RunStatus::Finished, "{target}");
    let done = count(target, &format!("SELECT COUNT(*) FROM pairs WHERE run_id = {run} AND status = 'done'")).await;
    assert_eq!(info.games, 2 * done, "{target}: two games per finished pair, nothing else");
    let paired = format!(
        "SELECT COUNT(*) FROM pairs p WHERE p.run_id = {run} AND p.status = 'done' AND \
         (SELECT COUNT(*) FROM games g WHERE g.pair_id = p.id AND g.game_in_pair = 0) = 1 AND \
         (SELECT COUNT(*) FROM games g WHERE g.pair_id = p.id AND g.game_in_pair = 1) = 1"
    );
    assert_eq!(count(target, &paired).await, done, "{target}: each pair has games 0 and 1");
    let left = format!("SELECT COUNT(*) FROM pairs WHERE run_id = {run} AND status IN ('pending', 'running')");
    assert_eq!(count(target, &left).await, 0, "{target}");
    let outcomes = db.pair_outcomes(run).await.unwrap();
    assert_eq!(outcomes.len() as i64, done);
    let seqs: std::collections::HashSet<i64> = outcomes.iter().map(|o| o.finished_seq).collect();
    assert_eq!(seqs.len() as i64, done, "{target}: each pair finished once");
    let counts = &db.pairing_counts(run).await.unwrap()[0];
    let tally = model::Tally::between(&outcomes, &counts.engine_a, &counts.engine_b);
    assert_eq!(
        (counts.tally.wins, counts.tally.draws, counts.tally.losses),
        (tally.wins, tally.draws, tally.losses),
        "{target}: counts kept with the pairs equal the stored games"
    );
    assert_eq!(counts.tally.pentanomial, tally.pentanomial, "{target}");
    assert_counts_are_the_games(target, run).await;
    db.close().await;
}

/// Every count kept beside run `run`'s pairs equals the same figure summed
/// from its stored games and pairs: what a worker stores is its games, and
/// the counts follow from them (on PostgreSQL the server derives them).
pub(crate) async fn assert_counts_are_the_games(target: &Target, run: i64) {
    let both = |kept: &str, from_games: &str| {
        format!("SELECT CAST(COALESCE(({kept}), 0) - COALESCE(({from_games}), 0) AS BIGINT)")
    };
    for (what, kept, from_games) in [
        (
            "pairs by result",
            format!("SELECT SUM(pairs) FROM run_pairs WHERE run_id = {run}"),
            format!("SELECT COUNT(*) FROM pairs WHERE run_id = {run} AND status = 'done'"),
        ),
        (
            "pairs by block",
            format!("SELECT SUM(pairs) FROM run_progress WHERE run_id = {run}"),
            format!("SELECT COUNT(*) FROM pairs WHERE run_id = {run} AND status = 'done'"),
        ),
        (
            "games",
            format!("SELECT SUM(games) FROM run_games WHERE run_id = {run}"),
            format!("SELECT COUNT(*) FROM games WHERE run_id = {run}"),
        ),
        (
            "White's wins",
            format!("SELECT SUM(games) FROM run_games WHERE run_id = {run} AND result = '1-0'"),
            format!("SELECT COUNT(*) FROM games WHERE run_id = {run} AND result = '1-0'"),
        ),
        (
            "plies",
            format!("SELECT SUM(games * plies) FROM run_games WHERE run_id = {run}"),
            format!("SELECT SUM(plies) FROM games WHERE run_id = {run}"),
        ),
        (
            "moves",
            format!("SELECT SUM(moves) FROM run_engine_totals WHERE run_id = {run}"),
            format!("SELECT SUM(white_moves + black_moves) FROM games WHERE run_id = {run}"),
        ),
        (
            "nodes",
            format!("SELECT SUM(nodes_sum) FROM run_engine_totals WHERE run_id = {run}"),
            format!("SELECT SUM(white_nodes_sum + black_nodes_sum) FROM games WHERE run_id = {run}"),
        ),
    ] {
        assert_eq!(count(target, &both(&kept, &from_games)).await, 0, "{target}: {what} of run {run}");
    }
    // The overheads' histograms, read as model::Latencies reads them.
    sqlx::any::install_default_drivers();
    let url = match target {
        Target::Sqlite(path) => format!("sqlite://{}", path.display()),
        Target::Postgres(url) => url.clone(),
    };
    let pool = db::pool_options::<sqlx::Any>().max_connections(1).connect(&url).await.unwrap();
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT white_overheads, black_overheads FROM games WHERE run_id = {run}"
    )))
    .fetch_all(&pool)
    .await
    .unwrap();
    pool.close().await;
    let measured: i64 = rows
        .iter()
        .map(|r| {
            let [w, b]: [String; 2] = [r.get(0), r.get(1)];
            (model::Latencies::decode(&w).moves() + model::Latencies::decode(&b).moves()) as i64
        })
        .sum();
    let kept = count(
        target,
        &format!("SELECT CAST(COALESCE(SUM(moves), 0) AS BIGINT) FROM run_overheads WHERE run_id = {run}"),
    )
    .await;
    assert_eq!(kept, measured, "{target}: move overheads of run {run}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_workers_one_killed_mid_pair_finish_exactly_the_planned_pairs() {
    let dir = temp_dir("workers-match");
    for target in targets("match", &dir).await {
        let create = ["match", "--a", "fhr", "--b", "plain", "--games", "24", "--tc", "nodes=4000"];
        let logs = three_workers_one_killed(&dir, &target, &create, MID_PAIR).await;

        assert_consistent(&target, 1).await;
        let info = Db::open(&target).await.unwrap().run(1).await.unwrap();
        assert_eq!((info.pairs_planned, info.pairs_done, info.games), (12, 12, 24), "{target}: {logs:?}");
        let replayed = count(&target, "SELECT COUNT(*) FROM pairs WHERE run_id = 1 AND claims >= 2").await;
        assert!(replayed >= 1, "{target}: the killed worker's pair was handed out again");
        assert!(logs.iter().all(|log| log.contains("worker done") && !log.contains("database error")), "{logs:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tuning_run_on_three_workers_one_killed_moves_theta_once_per_pair() {
    let dir = temp_dir("workers-tune");
    for target in targets("tune", &dir).await {
        let create =
            ["tune", "--engine", "fhr", "--param", "FHRMargin=0..400,r=0.02", "--games", "24", "--tc", "nodes=3000"];
        let logs = three_workers_one_killed(&dir, &target, &create, MID_PAIR).await;

        assert_consistent(&target, 1).await;
        let db = Db::open(&target).await.unwrap();
        let info = db.run(1).await.unwrap();
        assert_eq!((info.pairs_done, info.games), (12, 24), "{target}: {logs:?}");
        let theta = assert_tune_chain(&db, 1).await;
        assert!((0.0..=400.0).contains(&theta[0]), "{target}: θ within its bounds");
        db.close().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_sprt_verdict_stops_every_worker_at_the_first_crossing() {
    let dir = temp_dir("workers-sprt");
    // A lopsided match (20x the nodes) so that H1 comes within a few dozen pairs.
    std::fs::write(
        dir.join("engines.toml"),
        "[[engine]]\nname = \"strong\"\npreset = \"plain\"\ntc = \"nodes=8000\"\n\n\
         [[engine]]\nname = \"weak\"\npreset = \"plain\"\ntc = \"nodes=400\"\n",
    )
    .unwrap();
    for target in targets("sprt", &dir).await {
        let create = [
            "sprt",
            "--a",
            "strong",
            "--b",
            "weak",
            "--elo0",
            "0",
            "--elo1",
            "100",
            "--alpha",
            "0.1",
            "--beta",
            "0.1",
            "--max-games",
            "400",
            "--openings",
            "noob_2moves",
            "--seed",
            "3",
        ];
        let logs = three_workers_one_killed(&dir, &target, &create, MID_PAIR).await;

        assert_consistent(&target, 1).await;
        let info = Db::open(&target).await.unwrap().run(1).await.unwrap();
        assert_eq!(info.verdict.map(model::Verdict::as_str), Some("H1"), "{target}: {logs:?}");
        assert!(info.pairs_done < 200, "{target}: stopped early");
        let skipped = count(&target, "SELECT COUNT(*) FROM pairs WHERE run_id = 1 AND status = 'skipped'").await;
        assert_eq!(skipped, 200 - info.pairs_done, "{target}: every other pair skipped");
        // Only the last finished pair's LLR (from the counts in finishing
        // order) is beyond the bound: no pair was counted after the verdict.
        let bound = (0.9f64 / 0.1).ln(); // ln((1 - beta) / alpha)
        let db = Db::open(&target).await.unwrap();
        let spec = model::Spec::parse(1, info.kind, &info.spec).unwrap();
        let model::Spec::Games(spec) = spec else { panic!("an SPRT plays games") };
        let test = spec.kind.sprt().unwrap();
        let mut outcomes = db.pair_outcomes(1).await.unwrap();
        outcomes.sort_by_key(|o| o.finished_seq);
        let mut tally = model::Tally::default();
        let crossed: Vec<i64> = outcomes
            .iter()
            .filter_map(|o| {
                assert_eq!((o.engine_a.as_str(), o.engine_b.as_str()), ("strong", "weak"));
                tally.add_pair(o.results[0], o.results[1]);
                let llr = reports::stats::sprt::llr(&test, &reports::stats::Counts::pairs(&tally));
                (llr >= bound).then_some(o.finished_seq)
            })
            .collect();
        assert_eq!(crossed, [info.pairs_done], "{target}");
    }
}

#[test]
fn a_worker_without_the_runs_engine_says_so_and_takes_no_pair() {
    let creator = temp_dir("workers-creator");
    let elsewhere = temp_dir("workers-elsewhere");
    let fake = env!("CARGO_BIN_EXE_fake-engine");
    std::fs::write(creator.join("engines.toml"), format!("[[engine]]\nname = \"fake\"\ncommand = \"{fake}\"\n"))
        .unwrap();
    let db = creator.join("shared.db").display().to_string();
    let created = arena(
        &creator,
        &["match", "--a", "fake", "--b", "plain", "--games", "2", "--tc", "nodes=500", "--db", &db, "--no-local"],
    );
    assert!(created.status.success(), "{}", String::from_utf8_lossy(&created.stderr));
    let out = arena(&elsewhere, &["worker", "--db", &db, "--run", "1"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("cannot serve run 1") && stderr.contains("needs engine 'fake'"), "{stderr}");
    // The creator's machine has it: the same worker command plays the run there.
    let out = arena(&creator, &["worker", "--db", &db, "--run", "1", "--quiet"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let runs = String::from_utf8_lossy(&arena(&creator, &["runs", "--db", &db]).stdout).into_owned();
    assert!(runs.contains("finished") && runs.contains("2/2"), "{runs}");
}

/// Positions already in the 3-4 piece tables: each game ends at once by
/// `--tb builtin`, after the run's tables were opened and read.
const ENDGAMES: &str = "8/8/8/4k3/8/8/3PK3/8 w - - 0 1\n8/8/8/4k3/8/2R5/4K3/8 w - - 0 1\n";

/// The processes whose parent is `pid`.
#[cfg(target_os = "linux")]
fn children(pid: u32) -> usize {
    let parent_of =
        |stat: String| stat.rsplit_once(") ").and_then(|(_, rest)| rest.split(' ').nth(1)?.parse::<u32>().ok());
    let entries = std::fs::read_dir("/proc").unwrap().flatten();
    entries.filter(|e| std::fs::read_to_string(e.path().join("stat")).ok().and_then(parent_of) == Some(pid)).count()
}

/// A worker serves run after run for days. Once a run is over, the worker
/// keeps neither its engines nor its tablebases' files: its open files
/// stay as many after four runs as after one.
#[cfg(target_os = "linux")]
#[test]
fn a_worker_keeps_nothing_open_of_the_runs_it_finished() {
    let dir = temp_dir("workers-files");
    std::fs::write(dir.join("endgames.epd"), ENDGAMES).unwrap();
    let new_run = || {
        let args = ["elo", "--a", "fhr", "--b", "plain", "--games", "4", "--tc", "nodes=300"];
        arena_ok(
            &dir,
            &[&args[..], &["--openings", "endgames.epd", "--tb", "builtin", "--no-local", "--quiet"]].concat(),
        );
    };
    new_run();
    let mut worker = Command::new(ARENA)
        .args(["worker", "--concurrency", "1", "--poll", "1", "--no-io-log", "--quiet"])
        .current_dir(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = worker.id();
    let open_files = || std::fs::read_dir(format!("/proc/{pid}/fd")).unwrap().count();
    let mut files = Vec::new();
    for run in 1..=4 {
        // The run ends, then the worker, with nothing to play, quits its engines.
        let deadline = Instant::now() + Duration::from_secs(60);
        let finished = |run: i32| {
            String::from_utf8_lossy(&arena_ok(&dir, &["runs"]).stdout)
                .lines()
                .any(|l| l.split_whitespace().next() == Some(&run.to_string()) && l.contains("finished"))
        };
        while !(finished(run) && children(pid) == 0) {
            assert!(Instant::now() < deadline, "run {run}: not finished with its engines quit in 60 s");
            std::thread::sleep(Duration::from_millis(100));
        }
        files.push(open_files());
        if run < 4 {
            new_run();
        }
    }
    worker.kill().unwrap();
    worker.wait().unwrap();
    assert!(files.iter().all(|&n| n == files[0]), "open files after each run: {files:?}");
}

#[test]
fn database_errors_are_one_line_and_never_show_the_password() {
    let dir = temp_dir("workers-errors");
    let server = std::env::var("ARENA_TEST_POSTGRES").unwrap_or_else(|_| db::TEST_POSTGRES_DEFAULT.to_string());
    let mut url = url::Url::parse(&server).unwrap();
    url.set_password(Some("not-the-password-42")).unwrap();
    let mut refused = url.clone();
    refused.set_port(Some(9)).unwrap(); // discard: nothing listens there
    let cases = [
        (url.to_string(), "password authentication failed"),
        (refused.to_string(), "Connection refused"),
        ("mysql://u:not-the-password-42@h/d".to_string(), "only SQLite files and postgres:// URLs"),
    ];
    for (db, expected) in cases {
        if expected == "password authentication failed"
            && std::net::TcpStream::connect(url.authority().split('@').next_back().unwrap()).is_err()
        {
            eprintln!("skipping the bad-password case: no server at {}", url.authority());
            continue;
        }
        let out = arena(&dir, &["runs", "--db", &db]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        // One line naming the problem (a flag clap refuses too).
        assert!(stderr.lines().next().is_some_and(|line| line.contains(expected)), "{stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
        assert!(!stderr.contains("not-the-password-42"), "{stderr}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_suite_run_is_answered_by_workers_exactly_once_per_position_despite_a_kill() {
    let dir = temp_dir("workers-suite");
    for target in targets("suite", &dir).await {
        let create = ["suite", "--engines", "plain,fhr", "--suite", "wac", "--count", "40", "--depth", "5"];
        let logs = three_workers_one_killed(&dir, &target, &create, MID_CHUNK).await;

        let db = Db::open(&target).await.unwrap();
        let info = db.run(1).await.unwrap();
        assert_eq!(info.status, model::RunStatus::Finished, "{target}: {logs:?}");
        let answers = db.suite_results(1).await.unwrap();
        assert_eq!(answers.len(), 2 * 40, "{target}: one answer per engine and position");
        assert!(answers.iter().all(|a| a.fault.is_empty() && a.nodes.is_some_and(|n| n > 0)), "{target}");
        let replayed = count(&target, "SELECT COUNT(*) FROM suite_chunks WHERE run_id = 1 AND claims >= 2").await;
        assert!(replayed >= 1, "{target}: the killed worker's chunk was handed out again");
        db.close().await;
    }
}

/// A worker serving every open run shares itself: the run of the higher
/// priority first, then the two runs of one priority in turn, a pair each
/// (its log names the run of each stored pair, in order).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_serves_higher_priority_first_and_equal_runs_in_turn() {
    let dir = temp_dir("workers-turns");
    let db = dir.join("shared.db").display().to_string();
    for (a, b) in [("plain", "nmp2"), ("fhr", "plain"), ("vnm", "nmp2")] {
        let args = ["elo", "--a", a, "--b", b, "--games", "6", "--tc", "nodes=300", "--db", &db, "--no-local"];
        let out = arena(&dir, &args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let target = Target::Sqlite(dir.join("shared.db"));
    sqlx::any::install_default_drivers();
    let pool = db::pool_options::<sqlx::Any>().max_connections(1).connect(&format!("sqlite://{db}")).await.unwrap();
    sqlx::query("UPDATE runs SET priority = 5 WHERE id = 3").execute(&pool).await.unwrap();
    pool.close().await;
    let args = ["worker", "--db", &db, "--concurrency", "1", "--poll", "1", "--name", "turns"];
    let worker = Command::new(ARENA).args(args).current_dir(&dir).stderr(Stdio::piped()).spawn().unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    while count(&target, "SELECT COUNT(*) FROM runs WHERE status = 'finished'").await < 3 {
        assert!(Instant::now() < deadline, "the three runs did not finish");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(Command::new("kill").args(["-INT", &worker.id().to_string()]).status().unwrap().success());
    let stderr = finish(worker);
    let order: Vec<&str> = stderr.lines().filter_map(|l| l.strip_prefix("run ")?.split_whitespace().next()).collect();
    assert_eq!(order.len(), 9, "{stderr}");
    assert_eq!(order[..3], ["3", "3", "3"], "the higher priority first: {stderr}");
    for turn in order[3..].windows(2) {
        assert_ne!(turn[0], turn[1], "runs 1 and 2 in turn: {stderr}");
    }
}

/// A worker serving a scaling run when budgets are added to it (`arena
/// extend`) plays them too: it prepares the run again with its new engines
/// instead of refusing the pairs it does not know. The worker prepares both
/// open runs first and plays run 2 (higher priority); run 1 is extended
/// meanwhile, then given the higher priority.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_plays_the_budgets_added_to_a_scaling_run_it_serves() {
    let dir = temp_dir("workers-extend");
    let db = dir.join("shared.db").display().to_string();
    let scale = ["scale", "--a", "vnm", "--b", "nmp2", "--budgets", "nodes=300,nodes=600", "--games", "4"];
    arena_ok(&dir, &[&scale[..], &["--db", &db, "--no-local", "--quiet"]].concat());
    let elo = ["elo", "--a", "plain", "--b", "nmp2", "--games", "400", "--tc", "nodes=300"];
    arena_ok(&dir, &[&elo[..], &["--db", &db, "--no-local", "--quiet"]].concat());
    let target = Target::Sqlite(dir.join("shared.db"));
    let set = |sql: &'static str| {
        let db = db.clone();
        async move {
            sqlx::any::install_default_drivers();
            let pool =
                db::pool_options::<sqlx::Any>().max_connections(1).connect(&format!("sqlite://{db}")).await.unwrap();
            sqlx::query(sql).execute(&pool).await.unwrap();
            pool.close().await;
        }
    };
    set("UPDATE runs SET priority = 5 WHERE id = 2").await;
    let args = ["worker", "--db", &db, "--concurrency", "1", "--poll", "1", "--no-io-log"];
    let mut worker = Command::new(ARENA).args(args).current_dir(&dir).stderr(Stdio::piped()).spawn().unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut give_up = |what: &str| {
        if Instant::now() >= deadline {
            let _ = worker.kill();
            panic!("{what} in 120 s");
        }
    };
    while count(&target, "SELECT COUNT(*) FROM pairs WHERE run_id = 2 AND status = 'done'").await < 1 {
        give_up("the worker played no pair of run 2");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let added = arena_ok(&dir, &["extend", "1", "--budgets", "nodes=1200", "--db", &db]);
    let said = String::from_utf8_lossy(&added.stdout);
    assert!(said.contains("run 1: 1 budget(s) added (nodes=1200), 2 pairs (4 games) on its 2 openings"), "{said}");
    set("UPDATE runs SET priority = 9 WHERE id = 1").await;
    while count(&target, "SELECT COUNT(*) FROM runs WHERE id = 1 AND status = 'finished'").await < 1 {
        give_up("run 1 did not finish with its new budget");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(Command::new("kill").args(["-INT", &worker.id().to_string()]).status().unwrap().success());
    let stderr = finish(worker);
    assert!(!stderr.contains("not serving run 1"), "{stderr}");
    // Prepared twice: as created, then with its new budget.
    assert!(stderr.contains("serving run 1: scale vnm vs nmp2 at nodes=300, nodes=600\n"), "{stderr}");
    assert!(stderr.contains("serving run 1: scale vnm vs nmp2 at nodes=300, nodes=600, nodes=1200\n"), "{stderr}");
    assert_consistent(&target, 1).await;
    // The new budget was played on the openings of the others.
    let openings = |budget: &str| {
        format!(
            "SELECT COUNT(*) FROM pairs p JOIN pairs q ON q.run_id = 1 AND q.opening_index = p.opening_index \
             AND q.opening_name = p.opening_name AND q.fen = p.fen AND q.engine_a = 'vnm@nodes=300' \
             WHERE p.run_id = 1 AND p.status = 'done' AND p.engine_a = 'vnm@{budget}'"
        )
    };
    assert_eq!(count(&target, &openings("nodes=1200")).await, 2);
    let report = crate::common::stdout(&arena_ok(&dir, &["report", "1", "--format", "json", "--db", &db]));
    let report: serde_json::Value = serde_json::from_str(&report).unwrap();
    let points = report["scale"]["points"].as_array().unwrap();
    let played: Vec<_> = points.iter().map(|p| (p["amount"].as_f64(), p["games"].as_u64())).collect();
    assert_eq!(played, [(Some(300.0), Some(4)), (Some(600.0), Some(4)), (Some(1200.0), Some(4))]);
}

/// The first Ctrl-C of a quiet run (as a tool's dialect runs) is answered
/// at once: one line says that the games in flight finish and how to stop
/// at once, and the run ends stopped, resumable.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_first_ctrl_c_of_a_quiet_run_says_what_it_finishes_and_how_to_stop_at_once() {
    let dir = temp_dir("ctrl-c");
    let args =
        ["match", "--a", "fhr", "--b", "plain", "--games", "400", "--tc", "nodes=300", "--quiet", "--db", "c.db"];
    let child = Command::new(ARENA).args(args).current_dir(&dir).stderr(Stdio::piped()).spawn().unwrap();
    sqlx::any::install_default_drivers();
    let url = format!("sqlite://{}", dir.join("c.db").display());
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        assert!(Instant::now() < deadline, "the run stored no game");
        let stored = match db::pool_options::<sqlx::Any>().max_connections(1).connect(&url).await {
            Ok(pool) => {
                let games =
                    sqlx::query("SELECT COUNT(*) FROM games").fetch_one(&pool).await.map(|r| r.get::<i64, _>(0));
                pool.close().await;
                games.unwrap_or(0)
            }
            Err(_) => 0,
        };
        if stored >= 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap().success());
    let stderr = finish(child);
    let first = stderr.lines().next().unwrap_or_default();
    assert!(
        first.starts_with(
            "Ctrl-C: stopping: the work in flight finishes and nothing new starts; Ctrl-C again stops at once"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("run 1 stopped; continue it with: arena resume 1"), "{stderr}");
}
