//! What a machine may do to a shared PostgreSQL database, through the
//! `arena` binary: a worker connected with a worker's role (`arena roles`)
//! plays a run to its end and the server refuses it a `DELETE` of runs, an
//! `UPDATE` of a stored game and a `DROP TABLE`, and on a running run any
//! write of a count and any step of a pair another process holds; and a
//! worker whose server restarts, crashes, or goes away for longer than a
//! lease, ends its run with every planned pair exactly once and says on
//! one line what happened and when it reconnected.
//!
//! The roles test uses the tests' server (`ARENA_TEST_POSTGRES`, or the one
//! `.ci/start-postgres` starts; its role may create roles). The outage test
//! starts a server of its own on port 55433 with `.ci/start-postgres`, which
//! it restarts, crashes and stops. Without them the tests are skipped with a printed
//! reason, except under CI (`CI` set), where that fails.

use crate::common::{ARENA, arena, arena_ok, stdout, temp_dir};
use crate::workers::{assert_consistent, count, finish};

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use db::Target;

/// The worker's login role of the roles test (roles are the server's, not a database's).
const WORKER_ROLE: &str = "arena_test_worker";

/// A scratch database `name` on `server`, or `None` (skipped) without one.
async fn scratch(server: &str, name: &str) -> Option<Target> {
    match db::scratch_postgres(&server.parse().unwrap(), name).await {
        Ok(target) => Some(target),
        Err(e) if std::env::var_os("CI").is_some() => panic!("CI needs a PostgreSQL server: {e}"),
        Err(e) => {
            eprintln!("skipping {name}: {e}");
            None
        }
    }
}

fn url_of(target: &Target) -> String {
    match target {
        Target::Postgres(url) => url.clone(),
        Target::Sqlite(_) => unreachable!("a PostgreSQL test"),
    }
}

/// `url` with another user and password.
fn as_user(url: &str, user: &str, password: &str) -> String {
    let mut url = url::Url::parse(url).unwrap();
    url.set_username(user).unwrap();
    url.set_password(Some(password)).unwrap();
    url.to_string()
}

/// Runs `sql` as the role of `url`; the server's SQLSTATE when it refuses.
async fn execute(url: &str, sql: &str) -> Result<u64, String> {
    sqlx::any::install_default_drivers();
    let pool = db::pool_options::<sqlx::Any>().max_connections(1).connect(url).await.unwrap();
    let done = sqlx::query(sqlx::AssertSqlSafe(sql.to_string())).execute(&pool).await;
    pool.close().await;
    done.map(|d| d.rows_affected())
        .map_err(|e| e.as_database_error().and_then(|d| d.code()).map(|c| c.to_string()).unwrap_or(e.to_string()))
}

/// A scratch database `name` on the tests' server, its owner's URL, and
/// the URL of the worker's login role (made once per server, as an
/// administrator would); `None` (skipped) without a server.
async fn owner_and_worker(name: &str) -> Option<(Target, String, String)> {
    let server = std::env::var("ARENA_TEST_POSTGRES").unwrap_or_else(|_| db::TEST_POSTGRES_DEFAULT.to_string());
    let target = scratch(&server, name).await?;
    let owner = url_of(&target);
    let create = format!(
        "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{WORKER_ROLE}') THEN \
         CREATE ROLE {WORKER_ROLE} LOGIN PASSWORD '{WORKER_ROLE}'; END IF; END $$"
    );
    execute(&owner, &create).await.expect("the tests' role may create roles (.ci/start-postgres)");
    let worker = as_user(&owner, WORKER_ROLE, WORKER_ROLE);
    Some((target, owner, worker))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_role_plays_a_run_to_its_end_and_may_not_rewrite_what_is_stored() {
    let dir = temp_dir("roles");
    let Some((target, owner, worker)) = owner_and_worker("arena_roles").await else { return };

    // Refusals: one line each, nothing applied.
    for (args, expected) in [
        (vec!["roles", "--db", "runs.db", "--worker", "w"], "roles are PostgreSQL's"),
        (vec!["roles", "--db", &owner, "--worker", "no_such_role_here"], "no role 'no_such_role_here'"),
        (vec!["roles", "--db", &owner, "--worker", "w; DROP TABLE runs"], "cannot be a role's name"),
    ] {
        let out = arena(&dir, &args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(expected) && stderr.trim_end().lines().count() == 1, "{args:?}: {stderr}");
    }
    let printed = arena_ok(&dir, &["roles", "--db", &owner, "--worker", WORKER_ROLE, "--print"]);
    let printed = String::from_utf8_lossy(&printed.stdout);
    assert!(
        printed.contains("ENABLE ROW LEVEL SECURITY") && printed.contains("GRANT SELECT ON ALL TABLES"),
        "{printed}"
    );
    // Printing applied nothing: the role cannot read yet.
    assert_eq!(execute(&worker, "SELECT COUNT(*) FROM runs").await, Err("42501".into()));

    let applied = arena_ok(&dir, &["roles", "--db", &owner, "--worker", WORKER_ROLE]);
    assert!(String::from_utf8_lossy(&applied.stdout).contains("is a worker's"));
    // Creating a run is the owner's.
    let refused = arena(&dir, &["match", "--a", "fhr", "--b", "plain", "--games", "2", "--db", &worker]);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success() && stderr.contains("refused this role"), "{stderr}");

    let create = ["match", "--a", "fhr", "--b", "plain", "--games", "8", "--tc", "nodes=2000", "--no-local"];
    let created = arena_ok(&dir, &[&create[..], &["--db", &owner]].concat());
    assert_eq!(String::from_utf8_lossy(&created.stdout).trim(), "run 1");
    let child = spawn_worker(
        &dir,
        &["worker", "--db", &worker, "--run", "1", "--concurrency", "2", "--lease", "3", "--poll", "1"],
    );
    let log = finish(child);
    assert!(!log.contains("refused"), "{log}");
    assert_consistent(&target, 1).await;
    let done = "SELECT COUNT(*) FROM pairs WHERE status = 'done'";
    assert_eq!(count(&target, done).await, 4);

    // The server refuses the worker's role what the layout leaves out.
    for sql in [
        "DELETE FROM runs",
        "UPDATE games SET result = '0-1'",
        "DROP TABLE games",
        "TRUNCATE tallies",
        "UPDATE tallies SET wins = wins + 100",
        "UPDATE run_games SET games = 0",
    ] {
        assert_eq!(execute(&worker, sql).await, Err("42501".into()), "{sql}");
    }
    // Finished rows are out of its reach: none changes.
    let wins = "SELECT CAST(SUM(wins) AS BIGINT) FROM tallies";
    let before = count(&target, wins).await;
    for sql in [
        "UPDATE pairs SET status = 'pending'",
        "UPDATE runs SET status = 'running'",
        "DELETE FROM games",
        "DELETE FROM packed_moves",
    ] {
        assert_eq!(execute(&worker, sql).await, Ok(0), "{sql}");
    }
    assert_eq!(count(&target, wins).await, before);
    assert_eq!(count(&target, done).await, 4);
    assert_eq!(count(&target, "SELECT COUNT(*) FROM games").await, 8);
    // It reads: the views work as it.
    let shown = arena_ok(&dir, &["show", "1", "--db", &worker]);
    assert!(String::from_utf8_lossy(&shown.stdout).contains("8 games"), "{}", String::from_utf8_lossy(&shown.stdout));

    // A family played by the worker's role: it stores each decided
    // candidate and skips that candidate's pairs left while the run runs
    // (the pairs' guard allows that once the candidate is decided). Bounds
    // far above what equal engines gain: each candidate accepts H0 early.
    let family = [
        "sprt",
        "--base",
        "nmp2",
        "--dev",
        "plain",
        "--dev",
        "fhr",
        "--elo0",
        "300",
        "--elo1",
        "600",
        "--model",
        "logistic",
        "--max-games",
        "40",
        "--tc",
        "nodes=500",
        "--no-local",
        "--db",
        &owner,
    ];
    let created = arena_ok(&dir, &family);
    assert_eq!(String::from_utf8_lossy(&created.stdout).trim(), "run 2");
    let log =
        finish(spawn_worker(&dir, &["worker", "--db", &worker, "--run", "2", "--concurrency", "2", "--poll", "1"]));
    assert!(!log.contains("refused") && !log.contains("42501"), "{log}");
    assert_consistent(&target, 2).await;
    let verdicts = "SELECT COUNT(*) FROM run_verdicts WHERE run_id = 2 AND verdict = 'H0'";
    assert_eq!(count(&target, verdicts).await, 2, "{log}");
    let skipped = "SELECT COUNT(*) FROM pairs WHERE run_id = 2 AND status = 'skipped'";
    assert!(count(&target, skipped).await > 0, "{log}");
    let finished = "SELECT COUNT(*) FROM runs WHERE id = 2 AND status = 'finished' AND verdict = 'H0'";
    assert_eq!(count(&target, finished).await, 1, "{log}");
    // A decided candidate's row is not the worker's to rewrite.
    assert_eq!(execute(&worker, "UPDATE run_verdicts SET verdict = 'H1'").await, Err("42501".into()));
    let shown = stdout(&arena_ok(&dir, &["show", "2", "--db", &worker]));
    assert!(shown.contains("family: every candidate accepted H0"), "{shown}");
}

/// What a worker's role can do to a running run's result by hand, with the
/// server's own refusals: it writes no count table (each INSERT and UPDATE
/// refused), marks no pair done, and cannot renew, give back, take over,
/// store a game for or finish a pair another process holds (the claim's
/// key, whose hash alone is stored, decides). A worker then plays the run,
/// and every count equals its games.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_role_cannot_forge_a_running_runs_counts_nor_finish_a_pair_it_does_not_hold() {
    let dir = temp_dir("forge");
    let Some((target, owner, worker)) = owner_and_worker("arena_forge").await else { return };
    let create = ["match", "--a", "fhr", "--b", "plain", "--games", "8", "--tc", "nodes=1500", "--no-local"];
    arena_ok(&dir, &[&create[..], &["--db", &owner]].concat());
    arena_ok(&dir, &["roles", "--db", &owner, "--worker", WORKER_ROLE]);

    // The forgeries, and each count table's INSERT and UPDATE.
    let forged = [
        "INSERT INTO run_pairs (run_id, engine_a, engine_b, machine, result0, result1, pairs) \
         VALUES (1, 'fhr', 'plain', 'x', '1-0', '0-1', 1000)",
        "INSERT INTO run_games (run_id, machine, white, black, result, termination, plies, games) \
         VALUES (1, 'x', 'fhr', 'plain', '1-0', 'checkmate', 40, 1000)",
        "INSERT INTO tallies (run_id, engine_a, engine_b, wins, p4) VALUES (1, 'fhr', 'plain', 1000, 500)",
        "INSERT INTO run_progress (run_id, block, engine_a, engine_b, machine, result0, result1, pairs, last_seq) \
         VALUES (1, 0, 'fhr', 'plain', 'x', '1-0', '0-1', 1000, 1)",
        "INSERT INTO run_engine_totals (run_id, engine, moves, time_ms, depth_sum, depth_moves, nodes_sum, nodes_moves, \
         nps_sum, nps_moves, seldepth_sum, seldepth_moves) VALUES (1, 'fhr', 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)",
        "INSERT INTO run_overheads (run_id, machine, engine, bucket, moves) VALUES (1, 'x', 'fhr', 3, 1000)",
        "UPDATE tallies SET wins = wins + 100",
        "UPDATE run_pairs SET pairs = pairs + 100",
        "UPDATE run_games SET games = games + 100",
        "UPDATE run_progress SET pairs = pairs + 100",
        "UPDATE run_engine_totals SET moves = moves + 100",
        "UPDATE run_overheads SET moves = moves + 100",
        // A pair marked done by hand, or skipped while its run runs.
        "UPDATE pairs SET status = 'done' WHERE run_id = 1",
        "UPDATE pairs SET status = 'skipped' WHERE run_id = 1 AND status = 'pending'",
    ];
    for sql in forged {
        assert_eq!(execute(&worker, sql).await, Err("42501".into()), "{sql}");
    }

    // A pair held by an honest process (the db crate as a worker does).
    let honest = db::Db::open(&Target::Postgres(worker.clone())).await.unwrap();
    let held = honest.claim_pair(1, "honest:1/0", Duration::from_secs(600)).await.unwrap().unwrap();
    let (id, claim) = (held.id, held.claim);
    let game = format!(
        "INSERT INTO games (run_id, pair_id, game_in_pair, white, black, result, termination, detail, plies, \
         start_fen, opening, opening_moves, opening_san, started_ms, finished_ms, lease_key) VALUES (1, {id}, 0, \
         'fhr', 'plain', '1-0', 'checkmate', '', 40, 'startpos', 'x', '', '', 0, 0,"
    );
    let stolen = [
        format!("SELECT * FROM arena_finish_pair({id}, {claim}, 'a guess')"),
        format!("SELECT * FROM arena_finish_pair({id}, {claim}, NULL)"),
        format!("UPDATE pairs SET lease_until = lease_until + 1000 WHERE id = {id}"),
        format!("UPDATE pairs SET lease_until = lease_until + 1000, lease_key = 'a guess' WHERE id = {id}"),
        format!("UPDATE pairs SET status = 'pending', lease_until = NULL WHERE id = {id}"),
        format!("UPDATE pairs SET claims = claims + 1, worker = 'thief:1/0' WHERE id = {id}"),
        // A made-up game for the held pair, with and without a guessed key.
        format!("{game} NULL)"),
        format!("{game} 'a guess')"),
    ];
    for sql in &stolen {
        assert_eq!(execute(&worker, sql).await, Err("42501".into()), "{sql}");
    }
    let held_now = format!("SELECT COUNT(*) FROM pairs WHERE id = {id} AND status = 'running' AND claims = {claim}");
    assert_eq!(count(&target, &held_now).await, 1, "the pair is still the honest process's");
    assert_eq!(count(&target, "SELECT COUNT(*) FROM games").await, 0);
    honest.release_pair(&held).await.unwrap();
    honest.close().await;

    // Nothing of it counted: a worker plays the run, its counts are its games.
    let log = finish(spawn_worker(&dir, &["worker", "--db", &worker, "--run", "1", "--concurrency", "2"]));
    assert!(!log.contains("refused"), "{log}");
    assert_consistent(&target, 1).await;
    assert_eq!(count(&target, "SELECT CAST(SUM(games) AS BIGINT) FROM run_games").await, 8);
    assert_eq!(count(&target, "SELECT CAST(SUM(wins + draws + losses) AS BIGINT) FROM tallies").await, 8);
    let shown = arena_ok(&dir, &["show", "1", "--db", &worker]);
    assert!(String::from_utf8_lossy(&shown.stdout).contains("8 games"), "{}", String::from_utf8_lossy(&shown.stdout));
}

/// `arena worker ARGS…` in `dir`, its stderr kept for [`finish`].
fn spawn_worker(dir: &Path, args: &[&str]) -> std::process::Child {
    Command::new(ARENA).args(args).current_dir(dir).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap()
}

/// A PostgreSQL server of the test's own, stopped when dropped.
struct OwnServer {
    script: std::path::PathBuf,
    port: &'static str,
}

impl OwnServer {
    /// Starts it (`.ci/start-postgres PORT`): its URL.
    fn start(port: &'static str) -> Option<(OwnServer, String)> {
        OwnServer::start_with(port, &[])
    }

    /// Starts it with `env` (`ARENA_PG_TLS=1`: TLS only): its URL.
    fn start_with(port: &'static str, env: &[(&str, &str)]) -> Option<(OwnServer, String)> {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.ci/start-postgres");
        let out = Command::new(&script).arg(port).envs(env.iter().copied()).output().unwrap();
        if !out.status.success() {
            let why = String::from_utf8_lossy(&out.stderr).into_owned();
            assert!(std::env::var_os("CI").is_none(), "CI needs a PostgreSQL server of the test's own: {why}");
            eprintln!("skipping a test of a server of its own: {why}");
            return None;
        }
        let url = String::from_utf8_lossy(&out.stdout).trim().to_string();
        Some((OwnServer { script, port }, url))
    }

    /// `restart`, `stop`, `start` or `crash`.
    fn ctl(&self, action: &str) {
        let out = Command::new(&self.script).args([self.port, action]).output().unwrap();
        assert!(out.status.success(), "{action}: {}", String::from_utf8_lossy(&out.stderr));
    }
}

impl Drop for OwnServer {
    fn drop(&mut self) {
        let _ = Command::new(&self.script).args([self.port, "stop"]).output();
    }
}

/// Waits (at most 120 s) until `at_least` pairs of run 1 are done.
async fn pairs_done(target: &Target, at_least: i64) {
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    while count(target, "SELECT COUNT(*) FROM pairs WHERE status = 'done'").await < at_least {
        assert!(std::time::Instant::now() < deadline, "the worker did not get to {at_least} pairs");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_rides_out_a_server_restart_a_crash_and_an_outage_longer_than_its_lease() {
    let dir = temp_dir("outage");
    let Some((server, url)) = OwnServer::start("55433") else { return };
    let Some(target) = scratch(&url, "arena_outage").await else { return };
    let db = url_of(&target);
    // Enough pairs that the outage comes while some are left (asserted
    // below): a pair takes a fraction of a second alone, stopping the
    // server about one.
    let create = ["match", "--a", "fhr", "--b", "plain", "--games", "120", "--tc", "nodes=2000", "--no-local"];
    arena_ok(&dir, &[&create[..], &["--db", &db]].concat());
    let lease = 3;
    // Its stderr to a file, which the test reads while it plays.
    let log_path = dir.join("worker.log");
    let child = Command::new(ARENA)
        .args(["worker", "--db", &db, "--run", "1", "--concurrency", "1", "--lease", &lease.to_string(), "--poll", "1"])
        .current_dir(&dir)
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log_path).unwrap())
        .spawn()
        .unwrap();
    let said = || std::fs::read_to_string(&log_path).unwrap_or_default();
    pairs_done(&target, 3).await;
    // A restart: every connection ends; the server is back within the pool's wait.
    server.ctl("restart");
    pairs_done(&target, 8).await;
    // A crash (`pg_ctl stop -m immediate`): the server recovers from its
    // write-ahead log on start; what was committed stays, what was not is
    // gone, and the worker's pair in flight is stored once or played again.
    server.ctl("crash");
    pairs_done(&target, 11).await;
    // An outage longer than the lease and than the pool's wait (10 s).
    let before = count(&target, "SELECT COUNT(*) FROM pairs WHERE status = 'done'").await;
    assert!(before < 60, "the run ended before its outage ({before} pairs done): give it more pairs");
    server.ctl("stop");
    // Down for longer than the lease, and until the worker meets the
    // outage: a pair in flight can outlast any fixed pause on a loaded
    // machine, and the worker meets the outage only when it next writes.
    let (down, deadline) = (std::time::Instant::now(), std::time::Instant::now() + Duration::from_secs(120));
    while down.elapsed() < Duration::from_secs(4 * lease + 1) || !said().contains("lost database") {
        assert!(std::time::Instant::now() < deadline, "the worker never met the outage: {}", said());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    server.ctl("start");
    finish(child);
    let log = said();
    assert_consistent(&target, 1).await;
    assert_eq!(count(&target, "SELECT COUNT(*) FROM pairs WHERE status = 'done'").await, 60, "{log}");
    // The outage said once, and its end.
    let lost: Vec<&str> = log.lines().filter(|line| line.contains("lost database")).collect();
    let back: Vec<&str> = log.lines().filter(|line| line.starts_with("reconnected to")).collect();
    assert!(!lost.is_empty() && lost.len() == back.len(), "{log}");
    assert!(lost.iter().all(|line| !line.contains(":arena_test@")), "no password: {log}");
    drop(server);
}

/// A fleet across an untrusted network: over a server that accepts TLS
/// alone (`ARENA_PG_TLS=1 .ci/start-postgres 55434`: `hostssl` lines only,
/// a certificate for 127.0.0.1 signed by a throwaway authority), a run is
/// created and a worker plays it with `?sslmode=require`, and `show`
/// agrees; a URL without `sslmode` (libpq's default, `prefer`) gets TLS
/// too; `sslmode=disable` is refused by the server; `verify-full` accepts
/// the authority that signed the certificate and refuses another in one
/// line naming the mode and the fix.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fleet_plays_over_a_tls_only_server_and_verify_full_checks_its_certificate() {
    let dir = temp_dir("tls");
    let Some((server, url)) = OwnServer::start_with("55434", &[("ARENA_PG_TLS", "1")]) else { return };
    let tls = Path::new("/tmp/arena-pg-55434/tls");
    assert!(tls.join("ca.crt").exists(), "a TLS-only server (its cluster was made without ARENA_PG_TLS?)");
    let Some(target) = scratch(&format!("{url}?sslmode=require"), "arena_tls").await else { return };
    let db = url_of(&target);
    assert!(db.ends_with("?sslmode=require"), "{db}");
    let create = ["match", "--a", "fhr", "--b", "plain", "--games", "4", "--tc", "nodes=300", "--no-local"];
    arena_ok(&dir, &[&create[..], &["--db", &db]].concat());
    let child = spawn_worker(&dir, &["worker", "--db", &db, "--run", "1", "--concurrency", "1", "--poll", "1"]);
    let log = finish(child);
    assert_consistent(&target, 1).await;
    let show = |url: &str| crate::common::stdout(&arena_ok(&dir, &["show", "1", "--db", url]));
    assert!(show(&db).contains("games 4 of 4 planned"), "{log}");
    // libpq's default, prefer: TLS where the server offers it.
    assert!(show(&db.replace("?sslmode=require", "")).contains("games 4 of 4 planned"));
    let with = |mode: &str, ca: Option<&str>| {
        let ca = ca.map(|file| format!("&sslrootcert={}", tls.join(file).display())).unwrap_or_default();
        db.replace("sslmode=require", &format!("sslmode={mode}{ca}"))
    };
    assert!(show(&with("verify-full", Some("ca.crt"))).contains("games 4 of 4 planned"));
    assert!(show(&with("verify-ca", Some("ca.crt"))).contains("games 4 of 4 planned"));
    for (url, said) in [
        (with("disable", None), "no encryption"),
        (with("verify-full", Some("other-ca.crt")), "over TLS (sslmode=verify-full): "),
        (with("verify-ca", Some("other-ca.crt")), "sslrootcert=FILE must name the certificate authority"),
    ] {
        let out = arena(&dir, &["show", "1", "--db", &url]);
        let message = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{url}: {message}");
        assert_eq!(message.trim().lines().count(), 1, "{url}: one line: {message}");
        assert!(message.contains(said) && !message.contains(":arena_test@"), "{url}: '{said}' in {message}");
    }
    // The cause in words, not the TLS library's name for it.
    let out = arena(&dir, &["show", "1", "--db", &with("verify-full", Some("other-ca.crt"))]);
    let message = String::from_utf8_lossy(&out.stderr);
    assert!(message.contains("the server's certificate is not signed by an authority"), "{message}");
    assert!(!message.contains("UnknownIssuer"), "{message}");
    // libpq's default root certificate, ~/.postgresql/root.crt, under a
    // verifying mode without sslrootcert: the authority there is trusted,
    // another one refused.
    let home = dir.join("home");
    std::fs::create_dir_all(home.join(".postgresql")).unwrap();
    let verify_full = with("verify-full", None);
    for (authority, plays) in [("ca.crt", true), ("other-ca.crt", false)] {
        std::fs::copy(tls.join(authority), home.join(".postgresql/root.crt")).unwrap();
        let out = Command::new(ARENA)
            .args(["show", "1", "--db", &verify_full])
            .env("HOME", &home)
            .env_remove("PGSSLROOTCERT")
            .current_dir(&dir)
            .output()
            .unwrap();
        let (shown, message) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert_eq!(out.status.success(), plays, "root.crt = {authority}: {message}");
        match plays {
            true => assert!(shown.contains("games 4 of 4 planned"), "{shown}"),
            false => assert!(
                message.contains("not signed by an authority") && message.trim().lines().count() == 1,
                "{message}"
            ),
        }
    }

    // many-machines.md's lines as written, but for the server's address,
    // the database's name and the authority's file: the owner's first open,
    // `arena roles`, and the worker's `verify-full` line with PGPASSWORD.
    let page =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/src/many-machines.md")).unwrap();
    let name = url::Url::parse(&db).unwrap().path().trim_start_matches('/').to_string();
    let role = "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'arena_worker') THEN \
                CREATE ROLE arena_worker LOGIN PASSWORD 'another-one'; END IF; END $$";
    execute(&db, role).await.expect("the tests' role may create roles");
    let lines: Vec<String> =
        ["arena runs --db postgres://arena@", "arena roles --db", "arena worker --db 'postgres://"]
            .iter()
            .map(|start| {
                let line = page.lines().map(str::trim).find(|l| l.starts_with(start)).expect(start);
                line.replace("postgres://arena@db.lan/arena", &db)
                    .replace("db.example:5432/arena", &format!("127.0.0.1:55434/{name}"))
                    .replace("/etc/arena/ca.crt", &tls.join("ca.crt").display().to_string())
            })
            .collect();
    assert!(lines[2].contains("sslmode=verify-full&sslrootcert="), "{lines:?}");
    arena_ok(&dir, &[&create[..], &["--db", &db]].concat());
    for (k, line) in lines.iter().enumerate() {
        // The words before the line's `#` comment, the quotes of the URL taken off.
        let command = line.split(" # ").next().unwrap();
        let mut words: Vec<String> =
            command.split_whitespace().skip(1).map(|w| w.trim_matches('\'').to_string()).collect();
        if k == 2 {
            words.extend(["--run".into(), "2".into(), "--poll".into(), "1".into()]);
        }
        let out = Command::new(ARENA).args(&words).env("PGPASSWORD", "another-one").current_dir(&dir).output().unwrap();
        assert!(out.status.success(), "{line}: {}", String::from_utf8_lossy(&out.stderr));
    }
    let shown = crate::common::stdout(&arena_ok(&dir, &["show", "2", "--db", &db]));
    assert!(shown.contains("games 4 of 4 planned"), "the page's worker played run 2 over verify-full: {shown}");
    drop(server);
}

/// A server whose certificate is self-signed, made by PostgreSQL's
/// documented recipe (`ARENA_PG_TLS=self .ci/start-postgres 55435`:
/// `openssl req -new -x509 -days 365 -nodes -text -out server.crt -keyout
/// server.key -subj "/CN=localhost"`), trusted as libpq trusts it: that
/// certificate given as `sslrootcert` under `verify-full` lets a run be
/// created and a worker play it, and as `~/.postgresql/root.crt` too;
/// `verify-ca` takes it whatever host the URL names, `verify-full` refuses
/// a host the certificate does not name; another self-signed certificate
/// is refused in one line saying so in words.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_self_signed_server_certificate_is_trusted_as_libpq_trusts_it() {
    let dir = temp_dir("self-signed");
    let Some((server, url)) = OwnServer::start_with("55435", &[("ARENA_PG_TLS", "self")]) else { return };
    let tls = Path::new("/tmp/arena-pg-55435/tls");
    assert!(tls.join("other.crt").exists(), "a self-signed server (its cluster was made without ARENA_PG_TLS=self?)");
    let Some(target) = scratch(&format!("{url}?sslmode=require"), "arena_self_signed").await else { return };
    let by_address = url_of(&target);
    let by_name = by_address.replace("@127.0.0.1:", "@localhost:");
    let with = |url: &str, mode: &str, cert: &str| {
        url.replace("sslmode=require", &format!("sslmode={mode}&sslrootcert={}", tls.join(cert).display()))
    };
    let verify_full = with(&by_name, "verify-full", "server.crt");
    let create = ["match", "--a", "fhr", "--b", "plain", "--games", "4", "--tc", "nodes=300", "--no-local"];
    arena_ok(&dir, &[&create[..], &["--db", &verify_full]].concat());
    let child =
        spawn_worker(&dir, &["worker", "--db", &verify_full, "--run", "1", "--concurrency", "1", "--poll", "1"]);
    let log = finish(child);
    assert_consistent(&target, 1).await;
    let show = |url: &str| stdout(&arena_ok(&dir, &["show", "1", "--db", url]));
    assert!(show(&verify_full).contains("games 4 of 4 planned"), "{log}");
    assert!(show(&with(&by_address, "verify-ca", "server.crt")).contains("games 4 of 4 planned"));
    for (url, said) in [
        (
            with(&by_name, "verify-full", "other.crt"),
            "the server presents a self-signed certificate that is not the one sslrootcert",
        ),
        (with(&by_address, "verify-full", "server.crt"), "does not name the host the URL names"),
    ] {
        let out = arena(&dir, &["show", "1", "--db", &url]);
        let message = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{url}: {message}");
        assert_eq!(message.trim().lines().count(), 1, "{url}: one line: {message}");
        assert!(message.contains(said) && message.contains("(sslmode=verify-full)"), "{url}: '{said}' in {message}");
        assert!(!message.contains("CaUsedAsEndEntity") && !message.contains(":arena_test@"), "{message}");
    }
    // libpq's way for a self-signed server: its certificate as the client's root.crt.
    let home = dir.join("home");
    std::fs::create_dir_all(home.join(".postgresql")).unwrap();
    std::fs::copy(tls.join("server.crt"), home.join(".postgresql/root.crt")).unwrap();
    let out = Command::new(ARENA)
        .args(["show", "1", "--db", &by_name.replace("sslmode=require", "sslmode=verify-full")])
        .env("HOME", &home)
        .env_remove("PGSSLROOTCERT")
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(stdout(&out).contains("games 4 of 4 planned"), "{}", String::from_utf8_lossy(&out.stderr));
    drop(server);
}
