//! One SQLite file open in several processes at once (a run, `arena show`
//! from another terminal, workers): a process that closes the database must
//! not take the write-ahead log away from one that still has it open.
//!
//! Closing any descriptor of a file drops every POSIX lock the process holds
//! on it, SQLite's shared lock included. `Db::open` once opened the file
//! itself for its migration lock and its header check and closed it after
//! SQLite had connected; the process then looked closed to the others, the
//! next `arena runs` deleted the log it was writing to, and two processes
//! went on with a log each (seen on a real run: a corrupt `papers.db`). SQLite
//! 3.40 (Debian's `sqlite3` and Python's module) deletes the log of a
//! database it closes when no other process holds a lock on the file.

use crate::common::{FAKE, arena_ok, have_python, stdout, temp_dir};

use std::os::unix::fs::MetadataExt;
use std::process::Command;

use db::{Db, Target};
use model::RunStatus;

/// The POSIX locks this process holds on the file with inode `inode`, from
/// `/proc/locks` (`N: POSIX ADVISORY READ PID MAJ:MIN:INODE START END`).
fn my_locks(inode: u64) -> usize {
    let me = std::process::id().to_string();
    std::fs::read_to_string("/proc/locks")
        .unwrap()
        .lines()
        .filter(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            fields.len() > 5
                && fields[1] == "POSIX"
                && fields[4] == me
                && fields[5].rsplit(':').next() == Some(inode.to_string().as_str())
        })
        .count()
}

#[tokio::test]
async fn another_process_closing_the_database_leaves_this_ones_log() {
    let dir = temp_dir("shared-file");
    let engine = |name: &str| format!("[[engine]]\nname = \"{name}\"\ncommand = \"{FAKE}\"\nargs = [\"instant\"]\n");
    std::fs::write(dir.join("engines.toml"), engine("a") + &engine("b")).unwrap();
    arena_ok(&dir, &["match", "--a", "a", "--b", "b", "--games", "2", "--tc", "60+1", "--quiet", "--db", "run.db"]);

    let path = dir.join("run.db");
    let wal = dir.join("run.db-wal");
    // Opened twice in this process, as a run's reader or the dashboard does.
    let db = Db::open(&Target::Sqlite(path.clone())).await.unwrap();
    let again = Db::open(&Target::Sqlite(path.clone())).await.unwrap();
    assert!(wal.exists(), "an open database in WAL mode has its log");
    let inode = std::fs::metadata(&path).unwrap().ino();
    assert!(my_locks(inode) > 0, "this process holds no lock on the database it has open");

    // Other processes open and close it: they must see this one and leave the log.
    for _ in 0..2 {
        arena_ok(&dir, &["runs", "--db", "run.db"]);
        assert!(wal.exists(), "another arena's close deleted the log this process has open");
    }
    if have_python("sqlite3") {
        let read = "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); print(c.execute('select count(*) from games').fetchone()[0]); c.close()";
        let out = Command::new("python3").args(["-c", read]).arg(&path).output().unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "2", "{}", String::from_utf8_lossy(&out.stderr));
        assert!(wal.exists(), "sqlite3's close deleted the log this process has open");
    }

    // What this process writes now is what the next process reads.
    db.set_status(1, RunStatus::Stopped, None).await.unwrap();
    let runs = stdout(&arena_ok(&dir, &["runs", "--db", "run.db"]));
    assert!(runs.lines().any(|l| l.split_whitespace().take(3).eq(["1", "match", "stopped"])), "{runs}");
    again.set_status(1, RunStatus::Running, None).await.unwrap();
    let runs = stdout(&arena_ok(&dir, &["runs", "--db", "run.db"]));
    assert!(runs.lines().any(|l| l.split_whitespace().take(3).eq(["1", "match", "running"])), "{runs}");
    again.close().await;
    db.close().await;
    let check = stdout(&arena_ok(&dir, &["show", "1", "--db", "run.db"]));
    assert!(check.contains("games 2 of 2"), "{check}");
}
