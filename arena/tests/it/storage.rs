//! `arena prune`: a finished run sheds its moves and its I/O logs (files
//! and places) and keeps its games, tallies and report, seldepths of a
//! scaling run included; a dry run changes nothing.

use crate::common::{arena, arena_ok, stdout, temp_dir};
use serde_json::Value;

/// The I/O log files under `dir`'s `arena-logs`.
fn log_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    let mut folders = vec![dir.join("arena-logs")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.to_string_lossy().ends_with(".log.gz") {
                files.push(path);
            }
        }
    }
    files
}

#[test]
fn a_finished_run_sheds_moves_and_logs_and_keeps_its_report() {
    let dir = temp_dir("prune");
    let scale = ["scale", "--a", "fhr", "--b", "plain", "--budgets", "nodes=300,nodes=600", "--games", "4"];
    arena_ok(&dir, &[&scale[..], &["--openings", "noob_2moves", "--quiet"]].concat());
    let report =
        || -> Value { serde_json::from_str(&stdout(&arena_ok(&dir, &["report", "1", "--format", "json"]))).unwrap() };
    let before = report();
    let points = before["scale"]["points"].as_array().unwrap();
    assert!(points.iter().all(|p| p["a_seldepth"].as_f64().is_some_and(|d| d > 1.0)), "{points:?}");
    let logs = log_files(&dir);
    assert!(!logs.is_empty(), "the games kept I/O logs");
    let moves = stdout(&arena_ok(&dir, &["moves", "1"]));
    assert!(moves.lines().count() > 8 * 10, "{moves}");

    let dry = stdout(&arena_ok(&dir, &["prune", "--dry-run"]));
    assert!(dry.starts_with("run 1: would shed the moves of 8 games ("), "{dry}");
    assert!(dry.contains(&format!("and {} I/O log files here", logs.len())), "{dry}");
    assert_eq!(stdout(&arena_ok(&dir, &["moves", "1"])), moves, "a dry run changes nothing");
    assert!(logs.iter().all(|f| f.exists()));

    let pruned = stdout(&arena_ok(&dir, &["prune", "1"]));
    assert!(pruned.starts_with("run 1: shed the moves of 8 games ("), "{pruned}");
    assert!(logs.iter().all(|f| !f.exists()), "the log files are deleted");
    assert_eq!(report(), before, "the report stays, depths and seldepths of every budget included");
    assert_eq!(stdout(&arena_ok(&dir, &["moves", "1"])).lines().count(), 1, "only the header is left");
    let log = arena(&dir, &["log", "1", "1.1"]);
    assert!(String::from_utf8_lossy(&log.stderr).contains("without an I/O log"), "{log:?}");
    let again = stdout(&arena_ok(&dir, &["prune", "1"]));
    assert!(again.starts_with("run 1: shed the moves of 0 games (0.0 KB) and 0 I/O log files"), "{again}");
}
