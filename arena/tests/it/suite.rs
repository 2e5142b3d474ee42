//! `arena suite` end to end: mate suites solved and stored, a bad EPD line
//! skipped with file:line, a hanging engine recorded as a fault without
//! stopping the run, kill -9 and resume to exactly the planned answers, and
//! one-line errors for bad flags; every JSON report meets the schema.

use crate::common::{ARENA, FAKE, arena, stdout, temp_dir};

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use db::{Db, Target};
use serde_json::Value;

fn report(dir: &Path, run: &str) -> Value {
    let out = arena(dir, &["report", run, "--format", "json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json = serde_json::from_slice(&out.stdout).unwrap();
    // Every suite report, finished, in progress or with faults, is what docs/report.schema.json describes.
    crate::common::validate_against_schema(&json);
    json
}

#[test]
fn mate_in_two_is_solved_by_every_preset_and_tabled() {
    let dir = temp_dir("mate2");
    let out =
        arena(&dir, &["suite", "--engines", "plain,nmp2,fhr", "--suite", "mate2", "--count", "12", "--depth", "4"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Tree size: total nodes (% of plain)") && text.contains("12/12"), "{text}");
    let json = report(&dir, "1");
    let rows = json["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    for row in rows {
        assert_eq!((row["answered"].as_u64(), row["solved"].as_u64()), (Some(12), Some(12)), "{row}");
        assert_eq!(row["faults"], 0);
    }
    assert_eq!(rows[0]["nodes_vs_reference"], 100.0);
    let answers = json["answers"].as_array().unwrap();
    assert_eq!(answers.len(), 36);
    assert!(answers.iter().all(|a| a["score_mate"].as_i64().is_some_and(|m| (1..=2).contains(&m))));
    // Totals in the table are the sums of the stored answers.
    let plain_nodes: u64 =
        answers.iter().filter(|a| a["engine"] == "plain").map(|a| a["nodes"].as_u64().unwrap()).sum();
    assert_eq!(rows[0]["nodes"].as_u64(), Some(plain_nodes));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_lines_are_skipped_and_hanging_engines_become_faults() {
    let dir = temp_dir("faults");
    std::fs::write(
        dir.join("three.epd"),
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";\n\
         this is not a position\n\
         8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - bm Rxb2; id \"WAC.002\";\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("engines.toml"),
        format!("[[engine]]\nname = \"hang\"\ncommand = \"{FAKE}\"\nargs = [\"hang-off-start\"]\n"),
    )
    .unwrap();
    let out =
        arena(&dir, &["suite", "--engines", "plain,hang", "--suite", "three.epd", "--depth", "5", "--stall", "1"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("skipped three.epd:2: bad FEN"), "{stderr}");
    let json = report(&dir, "1");
    assert_eq!(json["header"]["positions"], 2);
    let rows = json["rows"].as_array().unwrap();
    assert_eq!((rows[0]["engine"].as_str(), rows[0]["answered"].as_u64()), (Some("plain"), Some(2)));
    assert_eq!(rows[0]["faults"], 0);
    // Solved exactly when the move is the `bm` (SAN resolved to UCI: Qg6 = g3g6, Rxb2 = b3b2).
    for answer in json["answers"].as_array().unwrap().iter().filter(|a| a["engine"] == "plain") {
        let best = if answer["position_id"] == "WAC.001" { "g3g6" } else { "b3b2" };
        assert_eq!(answer["solved"].as_bool(), Some(answer["best_move"] == best), "{answer}");
    }
    assert_eq!((rows[1]["engine"].as_str(), rows[1]["faults"].as_u64()), (Some("hang"), Some(2)));
    let hang_answer = json["answers"].as_array().unwrap().iter().find(|a| a["engine"] == "hang").unwrap();
    assert!(hang_answer["fault"].as_str().unwrap().starts_with("no bestmove after"), "{hang_answer}");
    assert_eq!(hang_answer["solved"], false);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_suite_resumes_to_exactly_every_answer() {
    let dir = temp_dir("resume");
    let args = ["suite", "--engines", "plain,nmp3", "--suite", "wac", "--count", "30", "--depth", "5", "--quiet"];
    let mut child = Command::new(ARENA).args(args).current_dir(&dir).stderr(Stdio::null()).spawn().unwrap();
    let db_path = dir.join("arena.db");
    let started = Instant::now();
    loop {
        // Poll the database (no sleep-based guess): kill once some answers are stored.
        if db_path.exists()
            && let Ok(db) = Db::open(&Target::Sqlite(db_path.clone())).await
        {
            let stored = db.suite_results(1).await.map(|r| r.len()).unwrap_or(0);
            db.close().await;
            if stored >= 5 {
                break;
            }
        }
        assert!(started.elapsed() < Duration::from_secs(120), "no answers stored");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let db = Db::open(&Target::Sqlite(db_path.clone())).await.unwrap();
    let before = db.suite_results(1).await.unwrap().len();
    db.close().await;
    assert!(before < 120, "killed before the end ({before} of 120)");
    // The unfinished run's tables say they add up part of it.
    let shown = stdout(&arena(&dir, &["show", "1"]));
    assert!(shown.contains(&format!("partial: {before} of 60 answers")), "{shown}");
    let out = arena(&dir, &["resume", "1", "--quiet"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!stdout(&arena(&dir, &["show", "1"])).contains("partial:"), "finished");
    let db = Db::open(&Target::Sqlite(db_path.clone())).await.unwrap();
    let results = db.suite_results(1).await.unwrap();
    assert_eq!(results.len(), 60, "2 engines x 1 limit x 30 positions");
    let mut keys: Vec<(String, i64)> = results.iter().map(|r| (r.engine.clone(), r.position)).collect();
    keys.dedup();
    assert_eq!(keys.len(), 60);
    assert_eq!(db.run(1).await.unwrap().status, model::RunStatus::Finished);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_flags_get_one_line() {
    let dir = temp_dir("bad");
    for (args, needle) in [
        (vec!["suite", "--engines", "plain", "--suite", "wac"], "give exactly one of --depth"),
        (vec!["suite", "--engines", "plain", "--suite", "wac", "--depth", "4", "--nodes", "100"], "exactly one"),
        (vec!["suite", "--engines", "plain", "--suite", "nosuch", "--depth", "4"], "not built in (wac, bk"),
        (vec!["suite", "--engines", "plain", "--suite", "wac", "--nodes", "2700x2^x"], "BASEx2^I..2^J"),
        (vec!["suite", "--engines", "nobody", "--suite", "wac", "--depth", "4"], "nobody"),
        (vec!["suite", "--engines", "plain,plain", "--suite", "wac", "--depth", "4"], "named twice"),
    ] {
        let out = arena(&dir, &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    assert!(!dir.join("arena.db").exists(), "nothing stored for bad flags");
    let _ = std::fs::remove_dir_all(&dir);
}
