//! What is stored is read back exactly or refused. A finished run's games
//! and its count tables are corrupted by plain SQL, in SQLite and in
//! PostgreSQL: a result no arena writes (`1/2`) and an ending this arena
//! does not know (`exploded`, as a newer arena might write). Every view that
//! reads the corrupted value — `show`, `report` in every format, `pgn`,
//! `moves`, the dashboard and `resume` — refuses with one line naming the
//! run, the row and the value, and writes nothing.
//!
//! The PostgreSQL server is `ARENA_TEST_POSTGRES` (default: the one
//! `.ci/start-postgres` starts); without one the PostgreSQL half is skipped
//! with a printed reason, except under CI (`CI` set), where that fails.

use crate::common::{arena, arena_ok, http, start_serve, temp_dir};
use crate::workers::count;

use db::Target;

/// Runs plain SQL against the test's database.
pub(crate) async fn execute(target: &Target, sql: &str) {
    sqlx::any::install_default_drivers();
    let url = match target {
        Target::Sqlite(path) => format!("sqlite://{}", path.display()),
        Target::Postgres(url) => url.clone(),
    };
    let pool = db::pool_options::<sqlx::Any>().max_connections(1).connect(&url).await.unwrap();
    sqlx::query(sqlx::AssertSqlSafe(sql.to_string())).execute(&pool).await.unwrap();
    pool.close().await;
}

fn url(target: &Target) -> String {
    match target {
        Target::Sqlite(path) => path.display().to_string(),
        Target::Postgres(url) => url.clone(),
    }
}

/// `arena ARGS` refuses: exit status 2 and one line on stderr containing
/// every needle.
fn refused(dir: &std::path::Path, args: &[&str], needles: &[&str]) {
    let out = arena(dir, args);
    let message = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {message}");
    assert_eq!(message.trim().lines().count(), 1, "{args:?}: one line: {message}");
    for needle in needles {
        assert!(message.contains(needle), "{args:?}: '{needle}' in {message}");
    }
}

/// What the test compares before and after the views: nothing written.
async fn fingerprint(target: &Target) -> Vec<i64> {
    let mut numbers = Vec::new();
    for sql in [
        "SELECT COUNT(*) FROM games",
        "SELECT COUNT(*) FROM pairs WHERE status = 'done'",
        "SELECT COUNT(*) FROM runs WHERE status = 'stopped'",
        "SELECT CAST(COALESCE(SUM(games), 0) AS BIGINT) FROM run_games",
        "SELECT COUNT(*) FROM games WHERE termination = 'exploded' OR result = '1/2'",
        "SELECT COUNT(*) FROM run_games WHERE termination = 'exploded'",
    ] {
        numbers.push(count(target, sql).await);
    }
    numbers
}

async fn corrupted_values_are_refused_by_every_view(target: Target) {
    let dir = temp_dir("strict");
    let db = url(&target);
    arena_ok(
        &dir,
        &[
            "match",
            "--a",
            "plain",
            "--b",
            "nmp2",
            "--tc",
            "nodes=300",
            "--games",
            "4",
            "--seed",
            "1",
            "--quiet",
            "--db",
            &db,
        ],
    );
    // The view reads what the run left; the run is marked stopped, so that
    // `resume` reads it too.
    execute(&target, "UPDATE runs SET status = 'stopped', finished_ms = NULL").await;

    // A game's ending: the game views refuse, naming the game as the PGN's
    // Round does (pair 1, game 1).
    let first = count(&target, "SELECT MIN(g.id) FROM games g JOIN pairs p ON p.id = g.pair_id WHERE p.idx = 0").await;
    execute(&target, &format!("UPDATE games SET termination = 'exploded' WHERE id = {first}")).await;
    let before = fingerprint(&target).await;
    let game = ["run 1, pair 1 game 1: unknown termination 'exploded'", "newer arena"];
    refused(&dir, &["pgn", "1", "--db", &db], &game);
    refused(&dir, &["moves", "1", "--db", &db], &game);
    execute(&target, &format!("UPDATE games SET termination = 'checkmate', result = '1/2' WHERE id = {first}")).await;
    refused(&dir, &["pgn", "1", "--db", &db], &["run 1, pair 1 game 1: unknown result '1/2'"]);
    execute(&target, &format!("UPDATE games SET result = '1-0' WHERE id = {first}")).await;

    // The count tables' ending: the run's views refuse.
    execute(&target, "UPDATE run_games SET termination = 'exploded' WHERE plies = (SELECT MIN(plies) FROM run_games)")
        .await;
    let counted = ["run 1, the counted games", "unknown termination 'exploded'"];
    refused(&dir, &["show", "1", "--db", &db], &counted);
    for format in ["text", "markdown", "html", "json"] {
        refused(&dir, &["report", "1", "--format", format, "--db", &db], &counted);
    }
    refused(&dir, &["resume", "1", "--db", &db], &counted);
    let (mut serve, address) = start_serve(&dir, &["--db", &db]);
    for path in ["/runs/1", "/api/runs/1"] {
        let (status, body) = http(address, "GET", path, &[], "");
        assert_eq!(status, 500, "{path}: {body}");
        assert!(body.contains("unknown termination") && body.contains("exploded"), "{path}: {body}");
    }
    serve.kill().unwrap();
    serve.wait().unwrap();
    let after = fingerprint(&target).await;
    // The same games, counts and stopped run; only the repair above changed
    // the corrupted games' count.
    assert_eq!(before[..4], after[..4], "nothing written");
    assert_eq!((after[4], after[5]), (0, 1));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_stored_value_this_arena_does_not_know_stops_every_view_with_its_row() {
    let dir = temp_dir("strict-sqlite");
    corrupted_values_are_refused_by_every_view(Target::Sqlite(dir.join("strict.db"))).await;
    let server = std::env::var("ARENA_TEST_POSTGRES").unwrap_or_else(|_| db::TEST_POSTGRES_DEFAULT.to_string());
    match db::scratch_postgres(&server.parse().unwrap(), "arena_strict").await {
        Ok(target) => corrupted_values_are_refused_by_every_view(target).await,
        Err(e) if std::env::var_os("CI").is_some() => panic!("CI needs a PostgreSQL server: {e}"),
        Err(e) => eprintln!("skipping PostgreSQL: {e}"),
    }
}
