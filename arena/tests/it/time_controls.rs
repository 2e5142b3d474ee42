//! Every time-control form the guide lists (docs/src/playing.md) plays the
//! bundled engines to a result without a forfeit: the clock's rules and the engine's own time
//! management agree (under `st=` the engine keeps its Move Overhead back
//! from the move time, and the arena forfeits only an answer later than the
//! move time plus `timemargin`, 0 by default, as cutechess does).

use serde_json::Value;

use crate::common::{FAKE, arena_ok, stdout, temp_dir};

#[test]
fn every_time_control_form_plays_without_a_forfeit() {
    let dir = temp_dir("time-controls");
    // Each README form, scaled down to fractions of a second; games cut at
    // move 20. So shrunk, a clock or move time leaves an answer tens of
    // milliseconds of slack, and this machine has been seen to take more
    // while the suite loaded it: plain, 145 ms left for 8 moves at 20/1,
    // was not heard from for 146 ms; at st=0.05 an answer took 101 ms,
    // the engine on a processor for 20 ms of them and waiting for one for
    // none (the virtual machine itself paused). So every timed form plays
    // with a margin of 200 ms: an engine whose own allocation overran the
    // clock by more still loses, and the mean move below shows that under
    // st= the engine keeps its Move Overhead back. The margin-less rule is
    // `a_late_answer_to_movetime_is_one_warning_per_engine_with_the_margin_it_needs`'s.
    let forms = [
        "20/1,timemargin=200",
        "1+0.01,timemargin=200",
        "10/0.5+0.01,timemargin=200",
        "10/0.5:10/0.5,timemargin=200",
        "st=0.05,timemargin=200",
        "st=0.1,timemargin=200",
        "nodes=300",
        "depth=3",
    ];
    for (i, tc) in forms.iter().enumerate() {
        let db = format!("tc{i}.db");
        let args = ["match", "--a", "plain", "--b", "fhr", "--games", "2", "--tc", tc, "--maxmoves", "20"];
        arena_ok(&dir, &[&args[..], &["--db", &db, "--quiet"]].concat());
        let report: Value =
            serde_json::from_str(&stdout(&arena_ok(&dir, &["report", "1", "--db", &db, "--format", "json"]))).unwrap();
        assert_eq!(report["header"]["games_played"], 2, "{tc}");
        let move_time_ms = tc.strip_prefix("st=").and_then(|t| t.split(',').next()?.parse::<f64>().ok());
        for engine in report["engines"].as_array().unwrap() {
            if let Some(move_time) = move_time_ms.map(|s| s * 1000.0) {
                let mean = engine["avg_time_ms"].as_f64().unwrap();
                assert!(mean <= 0.75 * move_time, "{tc}: a mean move of {mean} ms: the overhead kept back? {engine}");
            }
            for ending in engine["terminations"].as_array().unwrap() {
                let name = ending["termination"].as_str().unwrap();
                assert!(!["time-forfeit", "stalled", "disconnect"].contains(&name), "{tc}: {engine}");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// An engine that answers `go movetime` late loses on time under `st=`
/// (cutechess's rule), and the run says so once per engine, with the way
/// out; with a `timemargin` covering the delay it plays on. Under a clock
/// its first loss on time is one line per engine too, with the detail.
#[test]
fn a_late_answer_to_movetime_is_one_warning_per_engine_with_the_margin_it_needs() {
    let dir = temp_dir("movetime-late");
    let toml = format!(
        "[[engine]]\nname = \"e1\"\ncommand = \"{FAKE}\"\nargs = [\"late\", \"80\"]\n\
         [[engine]]\nname = \"e2\"\ncommand = \"{FAKE}\"\nargs = [\"late\", \"80\"]\n"
    );
    std::fs::write(dir.join("engines.toml"), toml).unwrap();
    let play = |tc: &str, db: &str| {
        let args = ["match", "--a", "e1", "--b", "e2", "--games", "4", "--tc", tc, "--maxmoves", "3", "--db", db];
        let out = arena_ok(&dir, &args);
        let report: Value =
            serde_json::from_str(&stdout(&arena_ok(&dir, &["report", "1", "--db", db, "--format", "json"]))).unwrap();
        let forfeits: u64 = report["engines"][0]["terminations"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t["termination"] == "time-forfeit")
            .map(|t| t["won"].as_u64().unwrap() + t["lost"].as_u64().unwrap())
            .sum();
        let warnings: Vec<String> = String::from_utf8_lossy(&out.stderr)
            .lines()
            .filter(|l| l.contains("ran out of time"))
            .map(str::to_string)
            .collect();
        (forfeits, warnings)
    };
    // Every game's first move is late: four forfeits, one line per engine.
    let (forfeits, warnings) = play("st=0.05", "late.db");
    assert_eq!(forfeits, 4, "{warnings:?}");
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    for engine in ["e1", "e2"] {
        let line = warnings.iter().find(|l| l.contains(&format!("{engine} ran out of time under st=0.05 in run 1")));
        let line = line.unwrap_or_else(|| panic!("{engine}: {warnings:?}"));
        assert!(line.contains("add ,timemargin=MS") && line.contains(&format!("arena check {engine}")), "{line}");
    }
    let (forfeits, warnings) = play("st=0.05,timemargin=100", "margin.db");
    assert_eq!((forfeits, warnings.len()), (0, 0), "{warnings:?}");
    // Under a clock of 50 ms the first move of every game is out of time:
    // one line per engine again, with what the loss's detail says.
    let (forfeits, warnings) = play("0.05", "clock.db");
    assert_eq!((forfeits, warnings.len()), (4, 2), "{warnings:?}");
    for engine in ["e1", "e2"] {
        let line =
            warnings.iter().find(|l| l.contains(&format!("{engine} ran out of time under time control 0.05 in")));
        let line = line.unwrap_or_else(|| panic!("{engine}: {warnings:?}"));
        assert!(line.contains(": no move after ") && line.contains("ms waiting for one"), "{line}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Under a node limit an opening played twice is the same game twice: a
/// run plays at most its book's openings per pairing, says so before
/// anything is played, and suggests a book that is larger than the one in
/// use (never that one), or what else to change.
#[test]
fn a_deterministic_limit_plays_each_opening_once_and_suggests_a_larger_book() {
    let dir = temp_dir("replayed-openings");
    let db = dir.join("w.db");
    let capped = |args: &[&str]| {
        let base = ["--a", "nmp2", "--b", "plain", "--tc", "nodes=100", "--no-local", "--db", "w.db"];
        let out = arena_ok(&dir, &[args, &base[..]].concat());
        let note = String::from_utf8_lossy(&out.stderr).lines().find(|l| l.contains("independent")).map(str::to_string);
        let run = String::from_utf8_lossy(&out.stdout).trim().trim_start_matches("run ").parse::<i64>().unwrap();
        (note, run)
    };
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    // The run's pairs, and how many distinct openings they play.
    let planned = |run: i64| {
        runtime.block_on(async {
            let db = db::Db::open(&db::Target::Sqlite(db.clone())).await.unwrap();
            let openings = db.pairing_openings(run, "nmp2", "plain").await.unwrap();
            let distinct: std::collections::HashSet<_> =
                openings.iter().map(|o| (o.fen.clone(), o.opening_moves.clone())).collect();
            let planned = db.run(run).await.unwrap().pairs_planned;
            db.close().await;
            (planned, distinct.len() as i64)
        })
    };
    let (sprt, run) = capped(&["sprt", "--openings", "feldmann25", "--max-games", "400"]);
    let sprt = sprt.expect("an SPRT of 400 games on 25 openings is capped");
    assert!(sprt.contains("up to 50 games per pairing, not 400"), "{sprt}");
    assert!(sprt.contains("use a larger book (--openings noob_2moves: 7314 openings)"), "{sprt}");
    assert!(sprt.starts_with("note: ") && !sprt.contains("--openings feldmann25"), "{sprt}");
    assert_eq!(planned(run), (25, 25), "25 pairs, each on its own opening");
    let (small, run) = capped(&["match", "--games", "60", "--openings", "feldmann25"]);
    let small = small.expect("30 of 25 openings is capped");
    assert!(small.contains("50 games per pairing, not 60"), "{small}");
    assert!(small.contains("use a larger book (--openings forty: 40 openings) or a wall-clock"), "{small}");
    assert_eq!(planned(run), (25, 25));
    let (rounds, run) = capped(&["elo", "--rounds", "3", "--openings", "forty"]);
    assert!(rounds.expect("three passes replay").contains("80 games per pairing, not 240"));
    assert_eq!(planned(run), (40, 40));
    let (largest, _) = capped(&["match", "--games", "20000", "--openings", "8mvs_+90_+99"]);
    assert!(largest.expect("the largest book caps").contains("a larger book of your own (--openings FILE)"));
    assert_eq!(capped(&["match", "--games", "50", "--openings", "feldmann25"]).0, None, "25 openings, 25 pairs");
    let _ = std::fs::remove_dir_all(&dir);
}

/// More game slots than CPUs on a clock: one warning naming the concurrency
/// that fits (fastchess refuses it outright); none under a node limit,
/// whose games do not depend on speed.
#[test]
fn more_game_slots_than_cpus_on_a_clock_are_warned_of() {
    let dir = temp_dir("shared-cpus");
    let toml =
        format!("[[engine]]\nname = \"f1\"\ncommand = \"{FAKE}\"\n[[engine]]\nname = \"f2\"\ncommand = \"{FAKE}\"\n");
    std::fs::write(dir.join("engines.toml"), toml).unwrap();
    let warning = |tc: &str| {
        let args = ["match", "--a", "f1", "--b", "f2", "--tc", tc, "--games", "2", "--concurrency", "300"];
        let out = arena_ok(&dir, &[&args[..], &["--db", "w.db"]].concat());
        String::from_utf8_lossy(&out.stderr).lines().find(|l| l.contains("share processors")).map(str::to_string)
    };
    let clock = warning("10+0.1").expect("300 slots on a clock warn");
    assert!(clock.starts_with("warning: --concurrency 300 with "), "{clock}");
    assert!(
        clock.contains("an engine on a clock loses thinking time") && clock.contains("give --concurrency "),
        "{clock}"
    );
    assert_eq!(warning("nodes=100"), None);
}

/// An engine that stops far short of a node limit (Debian's Ethereal 12
/// searches 6 nodes under any `go nodes`) is warned of once, before its
/// games, which play on; an engine that keeps the limit is not.
#[test]
fn an_engine_that_stops_short_of_a_node_limit_is_warned_of_once() {
    let dir = temp_dir("few-nodes");
    let toml = format!(
        "[[engine]]\nname = \"few\"\ncommand = \"{FAKE}\"\nargs = [\"few-nodes\"]\n\
         [[engine]]\nname = \"keeps\"\ncommand = \"{FAKE}\"\n"
    );
    std::fs::write(dir.join("engines.toml"), toml).unwrap();
    // The preflight's line on standard error (its first search), and the
    // summary's on standard output (its games' mean nodes per move).
    let warnings = |a: &str, b: &str| {
        let args = ["match", "--a", a, "--b", b, "--tc", "nodes=1000", "--games", "2", "--db", "w.db"];
        let out = arena_ok(&dir, &args);
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(stderr.contains("2 games"), "the games play: {stderr}");
        let lines = |text: &str, marker: &str| {
            text.lines().filter(|l| l.contains(marker)).map(str::to_string).collect::<Vec<_>>()
        };
        let stdout = stdout(&out);
        (lines(&stderr, " nodes for 'go nodes"), lines(&stdout, "nodes a move on average"))
    };
    let summary = "warning: engine 'few' searched 6 nodes a move on average at nodes=1000: its games were not \
                   played at the run's node budget";
    assert_eq!(
        warnings("few", "keeps"),
        (
            vec![
                "warning: engine 'few' searched 6 nodes for 'go nodes 1000': its games are not played at the run's \
                  node budget (`arena check few` tests its limits)"
                    .to_string()
            ],
            vec![summary.to_string()]
        )
    );
    // Every view of the run says it: the short one, the full report and its JSON.
    let show = stdout(&arena_ok(&dir, &["show", "1", "--db", "w.db"]));
    assert_eq!(show.lines().filter(|l| *l == summary).count(), 1, "{show}");
    let report = stdout(&arena_ok(&dir, &["report", "1", "--db", "w.db"]));
    assert_eq!(report.lines().filter(|l| *l == summary).count(), 1, "{report}");
    let json = stdout(&arena_ok(&dir, &["report", "1", "--db", "w.db", "--format", "json"]));
    let json: Value = serde_json::from_str(&json).unwrap();
    let kept: Vec<(&str, &Value, &Value)> = json["engines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["name"].as_str().unwrap(), &e["node_limit"], &e["node_limit_kept"]))
        .collect();
    assert_eq!(
        kept,
        [
            ("few", &serde_json::json!(1000), &serde_json::json!(false)),
            ("keeps", &serde_json::json!(1000), &serde_json::json!(true))
        ]
    );
    assert_eq!(warnings("keeps", "plain"), (vec![], vec![]));
    assert_eq!(warnings("fhr", "nmp2"), (vec![], vec![]), "the bundled engine keeps its node limit");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A stored run whose plan replays its openings under a node limit (made
/// here through the storage crate, as an older arena planned them): the
/// replays are the same games again, so the report says how many and counts
/// each opening once — the same statistics as a run of the distinct
/// openings alone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_report_counts_a_replayed_opening_once() {
    let dir = temp_dir("replays-counted-once");
    // A book of three openings, played whole by run 1.
    let book = "1. e4 e5\n1. d4 d5\n1. c4 e5\n";
    std::fs::write(dir.join("three.txt"), book).unwrap();
    let base = ["--a", "nmp2", "--b", "plain", "--tc", "nodes=300", "--openings", "three.txt", "--db", "r.db"];
    arena_ok(&dir, &[&["match", "--games", "6", "--quiet"], &base[..]].concat());
    let db = db::Db::open(&db::Target::Sqlite(dir.join("r.db"))).await.unwrap();
    let info = db.run(1).await.unwrap();
    // Run 2 as an older arena planned 12 games on it: each opening twice.
    let model::Spec::Games(mut spec) = model::Spec::of(&info).unwrap() else { panic!("a run of games") };
    spec.openings_per_round = 6;
    let spec = model::Spec::Games(spec);
    let mut plan = db.pairing_openings(1, "nmp2", "plain").await.unwrap();
    for (again, index) in (0..3).zip(3..) {
        plan.push(model::PairPlan { index, ..plan[again].clone() });
    }
    let twice = db.create_run(&spec, &plan, "localhost").await.unwrap();
    db.close().await;
    arena_ok(&dir, &["worker", "--db", "r.db", "--run", &twice.to_string(), "--quiet"]);
    let report = |run: &str| -> Value {
        serde_json::from_str(&stdout(&arena_ok(&dir, &["report", run, "--db", "r.db", "--format", "json"]))).unwrap()
    };
    let (once, replayed) = (report("1"), report(&twice.to_string()));
    assert_eq!(replayed["header"]["games_played"], 12);
    assert_eq!(replayed["header"]["replayed_pairs"], 3);
    assert!(once["header"].get("replayed_pairs").is_none());
    let statistics = |r: &Value| r["pairings"][0]["statistics"].clone();
    assert_eq!(statistics(&replayed)["games"], 6);
    assert_eq!(statistics(&replayed), statistics(&once), "the distinct openings' statistics");
    let shown = stdout(&arena_ok(&dir, &["show", &twice.to_string(), "--db", "r.db"]));
    assert!(shown.contains("replays: 3 finished pairs replay an opening"), "{shown}");
    crate::common::validate_against_schema(&replayed);
    let _ = std::fs::remove_dir_all(&dir);
}
