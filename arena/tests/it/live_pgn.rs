//! A match on SQLite writes its `--pgn` while it plays, from slots that
//! run on threads of their own; stopped or finished, the file is byte for
//! byte what `arena pgn` exports afterwards.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::common::{FAKE, arena_ok, signal_job, spawn_arena_job, temp_dir};
use db::{Db, Target};

fn engines_file(dir: &Path) {
    let engine = |name: &str| format!("[[engine]]\nname = \"{name}\"\ncommand = \"{FAKE}\"\nargs = [\"instant\"]\n");
    std::fs::write(dir.join("engines.toml"), engine("a") + &engine("b")).unwrap();
}

fn match_args<'a>(games: &'a str, pgn: &'a str) -> Vec<&'a str> {
    vec![
        "match",
        "--a",
        "a",
        "--b",
        "b",
        "--games",
        games,
        "--tc",
        "60+1",
        "--draw",
        "off",
        "--resign",
        "off",
        "--concurrency",
        "2",
        "--pgn",
        pgn,
        "--quiet",
    ]
}

/// The names of the threads of process `pid`.
fn thread_names(pid: u32) -> Vec<String> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else { return Vec::new() };
    tasks
        .flatten()
        .filter_map(|task| std::fs::read_to_string(task.path().join("comm")).ok())
        .map(|name| name.trim().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_writes_its_pgn_while_it_plays_and_the_file_equals_the_export() {
    let dir = temp_dir("live-pgn");
    engines_file(&dir);
    // Long enough (some 4000 games) to be stopped while it plays.
    let mut child = spawn_arena_job(&dir, &match_args("4000", "live.pgn"));
    let pgn = dir.join("live.pgn");
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut slots = Vec::new();
    loop {
        assert!(child.try_wait().unwrap().is_none(), "the match ended before its PGN was seen growing");
        assert!(Instant::now() < deadline, "no PGN written while the match played");
        for name in thread_names(child.id()) {
            if name.starts_with("slot-") && !slots.contains(&name) {
                slots.push(name);
            }
        }
        if slots.len() == 2 && std::fs::metadata(&pgn).is_ok_and(|m| m.len() > 0) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    slots.sort();
    assert_eq!(slots, ["slot-0", "slot-1"], "each slot plays on a thread of its own");

    // Stopped (as by Ctrl-C at the terminal): the pairs in flight finish and
    // the file holds every stored game.
    signal_job(&child, "INT");
    assert!(child.wait().unwrap().success());
    let live = std::fs::read_to_string(dir.join("live.pgn")).unwrap();
    let exported = arena_ok(&dir, &["pgn", "1"]);
    assert_eq!(live, String::from_utf8_lossy(&exported.stdout), "the live PGN is the export");
    let db = Db::open(&Target::Sqlite(dir.join("arena.db"))).await.unwrap();
    let run = db.run(1).await.unwrap();
    db.close().await;
    assert_eq!(run.status, model::RunStatus::Stopped);
    assert!(run.games > 0 && run.games < 4000, "{}", run.games);
    assert_eq!(live.matches("[Event ").count() as i64, run.games);

    // Finished, with the full comments: the same.
    arena_ok(&dir, &[&match_args("40", "full.pgn")[..], &["--db", "full.db", "--pgn-level", "full"]].concat());
    let full = std::fs::read_to_string(dir.join("full.pgn")).unwrap();
    let exported = arena_ok(&dir, &["pgn", "1", "--db", "full.db", "--pgn-level", "full"]);
    assert_eq!(full, String::from_utf8_lossy(&exported.stdout));
    assert_eq!(full.matches("[Event ").count(), 40);
    let _ = std::fs::remove_dir_all(&dir);
}
