//! `arena scale`: scripted engines whose difference grows with the node
//! budget give a curve with a significant slope; identical engines give
//! none. The run file plays the same run again; bad budgets are one line.

use std::process::Command;

use crate::common::{
    FAKE, arena, arena_ok, assert_refused, have_python, stdout, temp_dir, unescape, validate_against_schema,
};
use serde_json::Value;

#[test]
fn a_budget_dependent_difference_has_a_significant_slope_and_a_flat_one_none() {
    let dir = temp_dir("scale");
    // `same` is a little weaker than `steady` at every budget (two copies of
    // one engine would mirror each other: every pair split, nothing decisive
    // to draw a line through).
    let toml = format!(
        "[[engine]]\nname = \"grows\"\ncommand = \"{FAKE}\"\nargs = [\"budget\", \"8000\"]\n\
         [[engine]]\nname = \"steady\"\ncommand = \"{FAKE}\"\nargs = [\"flat\", \"500\"]\n\
         [[engine]]\nname = \"same\"\ncommand = \"{FAKE}\"\nargs = [\"flat\", \"450\"]\n"
    );
    std::fs::write(dir.join("engines.toml"), toml).unwrap();
    let budgets = "nodes=1000,nodes=2000,nodes=4000,nodes=8000";
    let summary =
        stdout(&arena_ok(&dir, &["scale", "--a", "grows", "--b", "steady", "--budgets", budgets, "--games", "40"]));
    arena_ok(&dir, &["scale", "--a", "steady", "--b", "same", "--budgets", budgets, "--games", "40", "--quiet"]);

    let report = |run: &str| -> Value {
        let json = serde_json::from_str(&stdout(&arena_ok(&dir, &["report", run, "--format", "json"]))).unwrap();
        validate_against_schema(&json);
        json
    };
    let grows = report("1");
    assert_eq!(grows["header"]["kind"], "scale");
    let scale = &grows["scale"];
    let points = scale["points"].as_array().unwrap();
    assert_eq!(points.len(), 4);
    // The same openings at every budget: 40 games each, cheapest first.
    for (point, nodes) in points.iter().zip([1000.0, 2000.0, 4000.0, 8000.0]) {
        assert_eq!((point["games"].as_u64(), point["amount"].as_f64()), (Some(40), Some(nodes)), "{point}");
    }
    let elos: Vec<f64> = points.iter().map(|p| p["elo"].as_f64().unwrap()).collect();
    assert!(elos[0] < -100.0 && elos[3] > elos[0] + 200.0, "{elos:?}");
    let trend = &scale["trend"];
    assert!(trend["slope"].as_f64().unwrap() > 0.0 && trend["p_value"].as_f64().unwrap() < 0.01, "{trend}");
    let verdict = scale["verdict"].as_str().unwrap();
    // (A budget without a two-sided interval, every pair won, is named as left out.)
    assert!(verdict.contains("the difference grows with the budget"), "{verdict}");
    // Every pairing of the run is one budget, and the pairs alternate budgets opening by opening.
    assert_eq!(grows["pairings"].as_array().unwrap().len(), 4);
    assert!(grows["tournament"].is_null(), "budgets are not a round robin");
    // The line and the plot are in every view; the list of runs shows the
    // slope and its interval.
    assert!(summary.contains(verdict), "{summary}");
    // The header names A and B once (their copies are A and B at each budget).
    let engines: Vec<&str> = summary.lines().filter(|l| l.starts_with("engine ")).collect();
    assert_eq!(engines.len(), 2, "{summary}");
    assert!(engines[0].starts_with("engine grows: ") && engines[0].ends_with(", at every budget"), "{summary}");
    let (slope, rest) = verdict.split_once(" Elo per doubling of the budget ").unwrap();
    let interval = &rest[..=rest.find(']').unwrap()];
    let runs = stdout(&arena_ok(&dir, &["runs"]));
    let row = runs.lines().find(|l| l.trim_start().starts_with("1 ")).unwrap();
    assert!(row.contains(" grows,steady ") && row.contains(&format!(" {slope} per doubling {interval}")), "{runs}");
    let html_path = dir.join("scale.html");
    arena_ok(&dir, &["report", "1", "-o", html_path.to_str().unwrap()]);
    let html = std::fs::read_to_string(&html_path).unwrap();
    assert!(html.contains("Elo of grows against steady by budget") && unescape(&html).contains(verdict), "the plot");
    // Markdown written to a file has its plots beside it, the curve first,
    // its budgets named on the axis.
    let noted = arena_ok(&dir, &["report", "1", "-o", "scale.md"]);
    let markdown = std::fs::read_to_string(dir.join("scale.md")).unwrap();
    let linked: Vec<&str> =
        markdown.lines().filter_map(|l| l.strip_prefix("![")?.split("](").nth(1)?.strip_suffix(')')).collect();
    assert_eq!(linked.first(), Some(&"scale-plot-1.svg"), "{markdown}");
    assert!(String::from_utf8_lossy(&noted.stderr).contains(&format!("its {} plots beside it", linked.len())));
    for name in &linked {
        let svg = std::fs::read_to_string(dir.join(name)).unwrap();
        assert!(svg.starts_with("<?xml") && svg.contains("<style>") && svg.trim_end().ends_with("</svg>"), "{name}");
    }
    // The curve names each budget it draws: those with a two-sided interval.
    let curve = std::fs::read_to_string(dir.join("scale-plot-1.svg")).unwrap();
    assert!(curve.contains("nodes per move (log scale)"), "{curve}");
    for (point, tick) in points.iter().zip([">1k<", ">2k<", ">4k<", ">8k<"]) {
        let drawn = point["elo_ci95"].as_array().is_some_and(|ends| ends.iter().all(|e| e.is_number()));
        assert_eq!(curve.contains(tick), drawn, "{tick} on the curve's axis: {point}");
    }

    let flat = report("2");
    let trend = &flat["scale"]["trend"];
    assert!(trend["p_value"].as_f64().unwrap() > 0.5, "{trend}");
    assert!(flat["scale"]["verdict"].as_str().unwrap().ends_with("no significant change with the budget"));

    // The run file plays the same run again.
    let config = stdout(&arena_ok(&dir, &["show", "1", "--config"]));
    assert!(config.contains("[scale]") || config.contains("scale"), "{config}");
    assert!(!config.lines().any(|l| l.starts_with("tc =")), "the budgets are the time controls: {config}");
    std::fs::write(dir.join("again.toml"), &config).unwrap();
    arena_ok(&dir, &["run", "again.toml", "--quiet"]);
    let again = report("3");
    assert_eq!(again["scale"]["points"], grows["scale"]["points"], "the same games: fake engines are deterministic");
    // So does a run file that still names the first budget as its --tc.
    std::fs::write(dir.join("old.toml"), config.replace("[flags]\n", "[flags]\ntc = \"nodes=1000\"\n")).unwrap();
    arena_ok(&dir, &["run", "old.toml", "--quiet"]);
    assert_eq!(report("4")["scale"]["points"], grows["scale"]["points"]);

    // Bad budgets: one line, nothing stored.
    for (budgets, needle) in [
        ("nodes=1000", "at least two budgets"),
        ("nodes=1000,inf", "inf never ends a move"),
        ("nodes=1000,nodes=x", "--budgets"),
        // Nodes and a clock have no common axis; a budget twice would be two
        // pairings under one name.
        ("1+0.01,nodes=100", "'1+0.01' and 'nodes=100' are not sizes of one kind"),
        ("depth=2,st=0.5", "are not sizes of one kind"),
        ("nodes=1000,nodes=4000,nodes=1000", "'nodes=1000' is given twice (budget 3 of 3)"),
    ] {
        let out = arena(&dir, &["scale", "--a", "grows", "--b", "steady", "--budgets", budgets, "--db", "bad.db"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.trim().lines().count() == 1 && err.contains(needle), "{budgets}: {err}");
    }
    // --tc has no place beside the budgets.
    let clock = ["scale", "--a", "grows", "--b", "steady", "--budgets", budgets, "--tc", "10+0.1", "--db", "bad.db"];
    assert_refused(&dir, &clock, "arena scale takes no --tc ('10+0.1')", "bad.db");
    assert!(!dir.join("bad.db").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Writes `dir/engines.toml` with two fake engines: `grows`, whose strength
/// grows with the node budget up to 8,000 nodes, and `steady`, the same at
/// every budget.
fn grows_and_steady(dir: &std::path::Path) {
    let toml = format!(
        "[[engine]]\nname = \"grows\"\ncommand = \"{FAKE}\"\nargs = [\"budget\", \"8000\"]\n\
         [[engine]]\nname = \"steady\"\ncommand = \"{FAKE}\"\nargs = [\"flat\", \"500\"]\n"
    );
    std::fs::write(dir.join("engines.toml"), toml).unwrap();
}

/// `arena extend` adds a larger budget to a finished scaling run: its pairs
/// are planned on the run's own openings, `arena resume` plays them, and
/// the curve has the new point; budgets that do not fit are one line each,
/// and change nothing.
#[test]
fn a_scaling_run_grows_by_a_larger_budget_on_its_own_openings() {
    let dir = temp_dir("scale-extend");
    grows_and_steady(&dir);
    let scale = ["scale", "--a", "grows", "--b", "steady", "--budgets", "nodes=1000,nodes=2000", "--games", "8"];
    arena_ok(&dir, &[&scale[..], &["--quiet"]].concat());
    arena_ok(&dir, &["elo", "--a", "grows", "--b", "steady", "--games", "2", "--tc", "nodes=100", "--quiet"]);
    for (args, needle) in [
        (vec!["extend", "1", "--budgets", "nodes=2000"], "'nodes=2000' is given twice"),
        (
            vec!["extend", "1", "--budgets", "nodes=500"],
            "'nodes=500' is not larger than 'nodes=1000', a budget before it",
        ),
        (vec!["extend", "1", "--budgets", "nodes=8000,nodes=4000"], "'nodes=4000' is not larger than 'nodes=8000'"),
        (vec!["extend", "1", "--budgets", "depth=9"], "are not sizes of one kind"),
        (vec!["extend", "1", "--budgets", "nodes=x"], "--budgets"),
        (vec!["extend", "2", "--budgets", "nodes=4000"], "run 2 (elo) is not a scaling run"),
        (vec!["extend", "9", "--budgets", "nodes=4000"], "no run 9"),
    ] {
        let out = arena(&dir, &args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.trim().lines().count() == 1 && err.contains(needle), "{args:?}: {err}");
    }
    let runs = stdout(&arena_ok(&dir, &["runs"]));
    let row = runs.lines().find(|l| l.trim_start().starts_with("1 ")).unwrap_or_default();
    assert!(row.contains("finished") && row.contains("16/16"), "{runs}");
    assert!(
        row.split_whitespace().any(|w| w == "grows,steady"),
        "a scaling run's A and B once, not a copy per budget: {runs}"
    );

    let added = stdout(&arena_ok(&dir, &["extend", "1", "--budgets", "nodes=4000,nodes=8000"]));
    assert!(
        added.contains("2 budget(s) added (nodes=4000, nodes=8000), 8 pairs (16 games) on its 4 openings")
            && added.contains("arena resume 1"),
        "{added}"
    );
    let runs = stdout(&arena_ok(&dir, &["runs"]));
    assert!(runs.lines().any(|l| l.trim_start().starts_with("1 ") && l.contains("stopped") && l.contains("16/32")));
    arena_ok(&dir, &["resume", "1", "--quiet"]);
    let json: Value = serde_json::from_str(&stdout(&arena_ok(&dir, &["report", "1", "--format", "json"]))).unwrap();
    validate_against_schema(&json);
    let points = json["scale"]["points"].as_array().unwrap();
    let played: Vec<_> = points.iter().map(|p| (p["amount"].as_f64(), p["games"].as_u64())).collect();
    let expected = [1000.0, 2000.0, 4000.0, 8000.0].map(|n| (Some(n), Some(8)));
    assert_eq!(played, expected);
    // The same run as one `arena scale` of four budgets: the same games
    // (the fake engines are deterministic), so the same points.
    let all = ["scale", "--a", "grows", "--b", "steady", "--budgets", "nodes=1000,nodes=2000,nodes=4000,nodes=8000"];
    arena_ok(&dir, &[&all[..], &["--games", "8", "--quiet"]].concat());
    let whole: Value = serde_json::from_str(&stdout(&arena_ok(&dir, &["report", "3", "--format", "json"]))).unwrap();
    assert_eq!(whole["scale"]["points"], json["scale"]["points"]);
    // Its run file names all four budgets.
    let config = stdout(&arena_ok(&dir, &["show", "1", "--config"]));
    assert!(config.contains("nodes=1000,nodes=2000,nodes=4000,nodes=8000"), "{config}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A budget added to a scaling run that is still to be played is spread
/// among its pairs still to play, each budget's pairs in their own order,
/// so that the curve fills in evenly however far the run gets; `--spread`
/// alone spreads a run's pairs still to play, for runs extended before.
/// The games are those of the run made with every budget at once.
#[test]
fn a_budget_added_to_a_run_still_to_play_is_spread_among_its_pairs() {
    let dir = temp_dir("scale-spread");
    grows_and_steady(&dir);
    let scale = ["scale", "--a", "grows", "--b", "steady", "--games", "8", "--quiet"];
    arena_ok(&dir, &[&scale[..], &["--budgets", "nodes=1000,nodes=2000", "--no-local"]].concat());
    let added = stdout(&arena_ok(&dir, &["extend", "1", "--budgets", "nodes=4000"]));
    assert!(added.contains("1 budget(s) added (nodes=4000), 4 pairs (8 games)"), "{added}");
    let out = arena(&dir, &["extend", "1", "--spread", "--budgets", "nodes=8000"]);
    assert_eq!(out.status.code(), Some(2), "--spread and --budgets together");
    arena_ok(&dir, &["resume", "1", "--quiet"]);

    let json: Value = serde_json::from_str(&stdout(&arena_ok(&dir, &["report", "1", "--format", "json"]))).unwrap();
    // The three budgets in turn (the spread numbers the pairs still to
    // play anew, after every pair's place: 13-24).
    let places = |pairing: &Value| -> Vec<u64> {
        let mut places: Vec<u64> =
            pairing["openings"].as_array().unwrap().iter().map(|o| o["pair"].as_u64().unwrap()).collect();
        places.sort_unstable();
        places
    };
    let pairings = json["pairings"].as_array().unwrap();
    let by_budget: Vec<Vec<u64>> = pairings.iter().map(places).collect();
    let first = by_budget[0][0];
    let relative: Vec<Vec<u64>> = by_budget.iter().map(|p| p.iter().map(|i| i - first).collect()).collect();
    assert_eq!(first, 13, "{by_budget:?}");
    assert_eq!(relative, [vec![0, 3, 6, 9], vec![1, 4, 7, 10], vec![2, 5, 8, 11]], "{by_budget:?}");
    // Each budget on the openings in their order.
    for pairing in pairings {
        let mut openings: Vec<(u64, String)> = pairing["openings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| (o["pair"].as_u64().unwrap(), o["opening"].as_str().unwrap().to_string()))
            .collect();
        openings.sort();
        let names: Vec<&str> = openings.iter().map(|(_, name)| name.as_str()).collect();
        let first = pairings[0]["openings"].as_array().unwrap();
        let mut expected: Vec<(u64, &str)> =
            first.iter().map(|o| (o["pair"].as_u64().unwrap(), o["opening"].as_str().unwrap())).collect();
        expected.sort();
        assert_eq!(names, expected.iter().map(|(_, name)| *name).collect::<Vec<_>>());
    }
    let all = ["--budgets", "nodes=1000,nodes=2000,nodes=4000", "--no-local"];
    arena_ok(&dir, &[&scale[..], &all[..]].concat());
    for (run, pending) in [("1", 0), ("2", 12)] {
        let spread = stdout(&arena_ok(&dir, &["extend", run, "--spread"]));
        let expected = format!("run {run}: its {pending} pairs still to play spread evenly over its budgets");
        assert_eq!(spread.trim(), expected);
    }
    arena_ok(&dir, &["resume", "2", "--quiet"]);
    let whole: Value = serde_json::from_str(&stdout(&arena_ok(&dir, &["report", "2", "--format", "json"]))).unwrap();
    assert_eq!(whole["scale"]["points"], json["scale"]["points"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The scaling runs' snapshot (`bench/scaling/snapshot.py`): a database kept
/// as a base and a step per stretch of play with what it changed (rows
/// added, changed and gone) is restored row for row, and shows the same
/// runs, the base and a step cut into parts (a file over the part size) as
/// well as whole ones; a damaged step is one line and leaves no database.
#[test]
fn a_snapshot_of_a_base_and_steps_restores_the_database_row_for_row() {
    if !have_python("sqlite3") {
        return;
    }
    let dir = temp_dir("scale-snapshot");
    grows_and_steady(&dir);
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../bench/scaling/snapshot.py");
    // Parts of 4,000 bytes where `cut`, of the script's default (4 MB) otherwise.
    let snapshot_cut = |args: &[&str], cut: bool| {
        let mut command = Command::new("python3");
        command.arg(script).args(args).env("SCALING_SNAPSHOT_DIR", dir.join("kept")).current_dir(&dir);
        if cut {
            command.env("SCALING_SNAPSHOT_PART_BYTES", "4000");
        }
        command.output().unwrap()
    };
    let snapshot = |args: &[&str]| snapshot_cut(args, false);
    let written_cut = |args: &[&str], cut: bool| {
        let out = snapshot_cut(args, cut);
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        stdout(&out)
    };
    let written = |args: &[&str]| written_cut(args, false);
    let files = |prefix: &str| {
        let mut names: Vec<String> = std::fs::read_dir(dir.join("kept").join(prefix).parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with(std::path::Path::new(prefix).file_name().unwrap().to_str().unwrap()))
            .collect();
        names.sort();
        names
    };
    arena_ok(&dir, &["scale", "--a", "grows", "--b", "steady", "--budgets", "nodes=1000,nodes=2000", "--games", "8"]);
    let base = written_cut(&["write", "arena.db"], true);
    let cut = files("scaling.db.gz");
    assert!(base.contains("a new base") && cut.len() > 1 && cut[0] == "scaling.db.gz.part01", "{base} {cut:?}");
    assert!(base.contains(&format!("in {} file(s)", cut.len())), "{base}");
    // A stretch of play: a budget added to run 1 and played (rows changed and
    // added), and a run of another kind.
    arena_ok(&dir, &["extend", "1", "--budgets", "nodes=4000"]);
    arena_ok(&dir, &["resume", "1", "--quiet"]);
    arena_ok(&dir, &["elo", "--a", "grows", "--b", "steady", "--games", "4", "--tc", "nodes=100", "--quiet"]);
    assert!(written_cut(&["write", "arena.db"], true).contains("steps/0001.db.gz"));
    let cut = files("steps/0001.db.gz");
    assert!(cut.len() > 1 && cut.iter().all(|n| n.contains(".part")), "{cut:?}");
    assert!(written(&["write", "arena.db"]).contains("nothing new"));
    // Another: run 2's moves shed (rows gone).
    arena_ok(&dir, &["prune", "2"]);
    assert!(written(&["write", "arena.db"]).contains("steps/0002.db.gz"));
    assert_eq!(files("steps/0002.db.gz"), ["0002.db.gz"]);
    written(&["restore", "restored.db"]);
    let rows = |db: &str| {
        let dump = "import sqlite3, sys; print('\\n'.join(sorted(sqlite3.connect(sys.argv[1]).iterdump())))";
        let out = Command::new("python3").args(["-c", dump, db]).current_dir(&dir).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        stdout(&out)
    };
    let original = rows("arena.db");
    assert!(original.contains("INSERT INTO \"packed_moves\""), "{}", &original[..original.len().min(2000)]);
    assert!(original == rows("restored.db"), "the restored database differs from the original");
    for view in [&["runs"][..], &["show", "1"], &["pgn", "1"], &["report", "2", "--format", "json"]] {
        let of = |db: &str| stdout(&arena_ok(&dir, &[view, &["--db", db]].concat()));
        assert_eq!(of("arena.db"), of("restored.db"), "arena {view:?}");
    }
    // A step cut short.
    let step = dir.join("kept/steps/0002.db.gz");
    let bytes = std::fs::read(&step).unwrap();
    std::fs::write(&step, &bytes[..bytes.len() / 2]).unwrap();
    let out = snapshot(&["restore", "again.db"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.trim().lines().count() == 1 && err.contains("again.db"), "{err}");
    assert!(!dir.join("again.db").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
