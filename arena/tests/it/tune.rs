//! `arena tune` through the binary: SPSA converges on a scripted engine
//! whose strength peaks at a hidden value of its option; a tuning run
//! killed with SIGKILL resumes from its stored θ to exactly its planned
//! iterations; the report shows the trajectory; bad flags are one line.

use crate::common::{ARENA, FAKE, arena, arena_ok, assert_tune_chain, stdout, temp_dir, validate_against_schema};

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use db::{Db, Target};

/// The scripted engine's hidden best `Skill`.
const OPTIMUM: f64 = 700.0;
/// How close the tuned value must end, in `Skill` units (the range is 0..1000).
const TOLERANCE: f64 = 60.0;

fn with_tunable_engine(name: &str) -> std::path::PathBuf {
    let dir = temp_dir(name);
    let toml = format!("[[engine]]\nname = \"tunable\"\ncommand = \"{FAKE}\"\nargs = [\"tunable\", \"{OPTIMUM}\"]\n");
    std::fs::write(dir.join("engines.toml"), toml).unwrap();
    dir
}

fn tune_args<'a>(start: &'a str, games: &'a str) -> Vec<&'a str> {
    vec![
        "tune",
        "--engine",
        "tunable",
        "--param",
        start,
        "--games",
        games,
        "--tc",
        "nodes=1",
        "--openings",
        "noob_2moves",
        "--quiet",
    ]
}

fn report_json(dir: &Path, run: &str) -> serde_json::Value {
    serde_json::from_slice(&arena_ok(dir, &["report", run, "--format", "json"]).stdout).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spsa_finds_the_hidden_optimum_from_below_and_from_above() {
    let dir = with_tunable_engine("tune-converges");
    for (run, start) in [("1", "Skill,start=200,r=0.05"), ("2", "Skill,start=950,r=0.05")] {
        arena_ok(&dir, &tune_args(start, "2000"));
        let report = report_json(&dir, run);
        validate_against_schema(&report);
        let tune = &report["tune"];
        assert_eq!(tune["iterations_played"], 1000);
        let value = tune["params"][0]["value"].as_f64().unwrap();
        assert!(
            (value - OPTIMUM).abs() <= TOLERANCE,
            "run {run} ({start}) ended at {value}, not within {TOLERANCE} of {OPTIMUM}"
        );
        let trajectory = tune["trajectory"].as_array().unwrap();
        assert_eq!(trajectory[0]["iterations"], 0);
        assert_eq!(trajectory.last().unwrap()["iterations"], 1000);
        assert!(trajectory.len() <= 201);
        let db = Db::open(&Target::Sqlite(dir.join("arena.db"))).await.unwrap();
        let theta = assert_tune_chain(&db, run.parse().unwrap()).await;
        assert_eq!(theta[0], value, "the report shows the stored θ");
        db.close().await;
    }
    // Every format draws the trajectory; `show` has the table.
    let html = String::from_utf8_lossy(&arena_ok(&dir, &["report", "1", "--format", "html"]).stdout).into_owned();
    assert!(html.contains("<svg") && html.contains("Skill by iteration"), "no trajectory plot");
    let show = stdout(&arena_ok(&dir, &["show", "1"]));
    assert!(show.contains("SPSA") && show.contains("1000 of 1000 iterations"), "{show}");
    let runs = stdout(&arena_ok(&dir, &["runs"]));
    assert!(runs.contains("tune"), "{runs}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_tuning_run_resumes_from_its_stored_theta() {
    let dir = with_tunable_engine("tune-resume");
    let args = tune_args("Skill=0..1000,start=300,r=0.05", "600");
    let mut args: Vec<&str> = args;
    args.extend(["--concurrency", "1"]);
    let mut child =
        Command::new(ARENA).args(&args).current_dir(&dir).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    let target = Target::Sqlite(dir.join("arena.db"));
    // Poll the database (no sleep-based guess): kill once iterations are stored.
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut stored = 0;
    while stored < 20 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(5)).await;
        if let Ok(db) = Db::open(&target).await {
            stored = db.tune_iterations(1).await.map(|i| i.len()).unwrap_or(0);
            db.close().await;
        }
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let db = Db::open(&target).await.unwrap();
    let before = db.tune_iterations(1).await.unwrap();
    assert!(before.len() >= 20 && before.len() < 300, "killed mid-run: {} iterations", before.len());
    assert_tune_chain(&db, 1).await;
    db.close().await;

    let out = arena(&dir, &["resume", "1", "--quiet"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let db = Db::open(&target).await.unwrap();
    let info = db.run(1).await.unwrap();
    assert_eq!((info.pairs_done, info.games, info.status.as_str()), (300, 600, "finished"));
    // The chain runs unbroken through the kill: the resumed run went on from the stored θ.
    assert_tune_chain(&db, 1).await;
    let after = db.tune_iterations(1).await.unwrap();
    assert_eq!(after[..before.len()], before[..], "stored iterations are kept as they were");
    db.close().await;
}

#[test]
fn bad_tune_flags_are_one_line_and_store_nothing() {
    let dir = with_tunable_engine("tune-bad");
    let cases: [(&[&str], &str); 7] = [
        (&["--param", "Nope"], "has no option 'Nope'"),
        (&["--param", "Skill=0..5000"], "outside the engine's range 0..1000"),
        (&["--param", "Skill=500..600"], "start 0 is outside 500..600"),
        (&["--param", "Skill=9..1"], "lower bound must be below"),
        (&["--param", "Skill,c=0"], "c must be positive"),
        (&["--param", "Skill", "--games", "1"], "'--games <GAMES>': must be at least 2"),
        (&["--param", "Skill", "--param", "skill"], "given twice"),
    ];
    for (flags, expected) in cases {
        let mut args = vec!["tune", "--engine", "tunable", "--tc", "nodes=1", "--db", "bad.db"];
        args.extend(flags);
        let out = arena(&dir, &args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flags:?}: {stderr}");
        assert_eq!(stderr.trim().lines().count(), 1, "{flags:?}: {stderr}");
        assert!(stderr.contains(expected), "{flags:?}: {stderr}");
        assert!(!dir.join("bad.db").exists(), "{flags:?} created a database");
    }
    // A check option cannot be tuned; the bundled engine's spins can.
    let out = arena(
        &dir,
        &["tune", "--engine", "fhr", "--param", "MultiCut", "--games", "2", "--tc", "nodes=1", "--db", "bad.db"],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("is a check") && !dir.join("bad.db").exists(), "{stderr}");
}

/// `arena tune --plan` says how far each parameter can move in the planned
/// games and stops; a reach below half the range is warned about, with the
/// r that would reach it (θ travels Σ 2·a_k/c_k at most: 95.0 of FHRMargin's
/// 400 here, by the gains of `model::tune`).
#[test]
fn the_plan_says_how_far_theta_can_move_and_warns_when_it_is_not_far() {
    let dir = temp_dir("tune-plan");
    let plan = |param: &str| {
        let out = arena(&dir, &["tune", "--engine", "fhr", "--param", param, "--games", "1600", "--plan"]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let short = plan("FHRMargin=0..400,start=100");
    assert!(short.contains("θ can move at most 95.0, 24 % of its range"), "{short}");
    assert!(short.contains("warning: FHRMargin") && short.contains("r=0.005"), "{short}");
    let far = plan("FHRMargin=0..400,start=100,r=0.005");
    assert!(far.contains("at most 237.4") && !far.contains("warning"), "{far}");
    assert!(!dir.join("arena.db").exists(), "a plan stores nothing");
    let _ = std::fs::remove_dir_all(&dir);
}
