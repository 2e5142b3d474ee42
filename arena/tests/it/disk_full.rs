//! A full disk stops a run with one line that says so (not a leftover
//! transaction), marks it stopped, and `arena resume` finishes it exactly
//! once there is room again. The disk is a 740 KiB tmpfs, so the test needs
//! root (CI runs as root; elsewhere it says why it skips).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{arena, temp_dir};
use db::{Db, Target};

/// Unmounts the small disk however the test ends.
struct Mounted(PathBuf);

impl Drop for Mounted {
    fn drop(&mut self) {
        // Lazily: this process keeps its descriptor of the database open (db::connect).
        let _ = Command::new("umount").arg("-l").arg(&self.0).stderr(std::process::Stdio::null()).status();
    }
}

fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .is_ok_and(|status| status.lines().any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(1) == Some("0")))
}

fn resize(disk: &Path, size: &str) {
    let options = format!("remount,size={size}");
    assert!(Command::new("mount").args(["-o", &options]).arg(disk).status().unwrap().success());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_disk_stops_the_run_in_one_line_and_resume_finishes_it_when_there_is_room() {
    if !is_root() {
        assert!(std::env::var_os("CI").is_none(), "CI runs as root: this test needs it to mount a tmpfs");
        eprintln!("skipped: mounting a small tmpfs needs root");
        return;
    }
    let dir = temp_dir("disk-full");
    let disk = dir.join("disk");
    std::fs::create_dir_all(&disk).unwrap();
    let mounted = Command::new("mount").args(["-t", "tmpfs", "-o", "size=740k", "tmpfs"]).arg(&disk).status().unwrap();
    assert!(mounted.success(), "mount a tmpfs");
    let _unmount = Mounted(disk.clone());
    let db = "disk/arena.db";
    let play = ["match", "--a", "fhr", "--b", "plain", "--games", "60", "--openings", "noob_2moves"];
    let out = arena(&dir, &[&play[..], &["--tc", "nodes=300", "--concurrency", "1", "--db", db, "--quiet"]].concat());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "one line: {stderr}");
    assert!(stderr.contains("run 1: disk full") && stderr.contains("arena resume 1 --db disk/arena.db"), "{stderr}");

    let runs = String::from_utf8_lossy(&arena(&dir, &["runs", "--db", db]).stdout).into_owned();
    assert!(runs.lines().nth(1).is_some_and(|row| row.contains("stopped")), "marked stopped: {runs}");
    let out = arena(&dir, &["resume", "1", "--db", db, "--quiet"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "still full: {stderr}");
    assert!(stderr.contains("disk full"), "{stderr}");

    resize(&disk, "20m");
    let target = Target::Sqlite(dir.join(db));
    let out = arena(&dir, &["resume", "1", "--db", db, "--quiet"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let db = Db::open(&target).await.unwrap();
    let run = db.run(1).await.unwrap();
    assert_eq!((run.status, run.games, run.pairs_done), (model::RunStatus::Finished, 60, 30));
    let games = db.games_page(1, 0, 1000, false).await.unwrap();
    let mut per_pair = std::collections::HashMap::<i64, Vec<i64>>::new();
    for game in &games {
        per_pair.entry(game.pair_index).or_default().push(game.game_in_pair);
    }
    assert!(per_pair.values().all(|g| g.len() == 2), "every pair whole, none twice: {per_pair:?}");
    db.close().await;
    drop(_unmount);
    let _ = std::fs::remove_dir_all(&dir);
}
