//! `arena import`: a PGN written by another program (python-chess, in
//! tests/scripts/import_games.py) with pairs of games, malformed games
//! between them and one game without a partner gives the W-D-L,
//! pentanomial and Elo that an independent count of its pairs gives; the
//! malformed games are named by file and line; a second import adds
//! nothing; a file that cannot be imported is one line, nothing stored.

use std::path::Path;
use std::process::Command;

use crate::common::{arena, arena_ok, assert_refused, have_python, stdout, temp_dir};

/// Writes a PGN as another program would (tests/scripts/import_games.py
/// with `args`) into `dir`; what an independent count of it gives.
fn write_games(dir: &Path, args: &[&str]) -> serde_json::Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scripts/import_games.py");
    let made = Command::new("python3").arg(script).args(args).current_dir(dir).output().unwrap();
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    serde_json::from_slice(&made.stdout).unwrap()
}

#[test]
fn games_played_elsewhere_give_the_counts_an_independent_reading_gives() {
    if !have_python("chess") {
        return;
    }
    let dir = temp_dir("import");
    let expected = write_games(&dir, &["games.pgn", "11", "30"]);
    let out = arena_ok(&dir, &["import", "games.pgn"]);
    let said = String::from_utf8_lossy(&out.stderr);
    for line in expected["malformed_lines"].as_array().unwrap() {
        assert!(said.contains(&format!("skipped: games.pgn:{line}: ")), "{said}");
    }
    assert!(said.contains("left out") && said.contains("no other game of EngineA vs EngineB"), "{said}");
    assert!(said.contains("run 1: 60 games (30 pairs) imported"), "{said}");

    let json: serde_json::Value =
        serde_json::from_str(&stdout(&arena_ok(&dir, &["report", "1", "--format", "json"]))).unwrap();
    let stats = &json["pairings"][0]["statistics"];
    assert_eq!(json["pairings"][0]["a"], "EngineA", "{json}");
    for key in ["wins", "draws", "losses", "pentanomial"] {
        assert_eq!(stats[key], expected[key], "{key}");
    }
    // Logistic Elo from the score, computed here: -400 log10(1/s - 1).
    let (w, d, l) = ["wins", "draws", "losses"].map(|k| expected[k].as_f64().unwrap()).into();
    let score = (w + d / 2.0) / (w + d + l);
    let elo = -400.0 * (1.0 / score - 1.0).log10();
    // A paired run's one model is its pairs: the same mean score.
    let reported = stats["estimate"]["elo"].as_f64().unwrap();
    assert!((reported - elo).abs() < 1e-9, "{reported} against {elo}");
    // Every view: the runs list and show say the same counts.
    let runs = stdout(&arena_ok(&dir, &["runs"]));
    assert!(runs.contains("import") && runs.contains(&format!("{w}-{d}-{l}")), "{runs}");
    let shown = stdout(&arena_ok(&dir, &["show", "1"]));
    assert!(shown.contains(&format!("+{w} ={d} -{l}")) && shown.contains("played elsewhere"), "{shown}");
    // What arena cannot know of games played elsewhere is unknown in every
    // view, never an invented setting (an infinite clock, concurrency 1).
    assert!(
        shown.contains("time control unknown (played elsewhere), openings the games' own, from games.pgn"),
        "{shown}"
    );
    let header = runs.lines().next().unwrap();
    let column = header.find("time control").unwrap();
    let row = runs.lines().nth(1).unwrap();
    assert_eq!(row[column..].split_whitespace().next(), Some("unknown"), "{runs}");
    assert_eq!(json["header"]["time_control"], "unknown (played elsewhere)", "{json}");
    let pgn = stdout(&arena_ok(&dir, &["pgn", "1"]));
    assert_eq!(pgn.matches("[TimeControl \"?\"]").count(), 60, "PGN's unknown");
    let stored = Command::new("python3")
        .args([
            "-c",
            "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute('select spec from runs').fetchone()[0])",
        ])
        .arg(dir.join("arena.db"))
        .output()
        .unwrap();
    let spec: serde_json::Value = serde_json::from_slice(&stored.stdout).unwrap();
    for unknown in ["tc", "concurrency", "adjudication"] {
        assert!(spec.get(unknown).is_none(), "{unknown} is not stored for imported games: {spec}");
    }

    // The same file again adds nothing.
    let again = arena_ok(&dir, &["import", "games.pgn"]);
    assert!(String::from_utf8_lossy(&again.stderr).contains("games.pgn was imported before, as run 1"));
    let runs = stdout(&arena_ok(&dir, &["runs"]));
    assert_eq!(runs.lines().count(), 2, "one run: {runs}");
    // Nothing to resume or to write a run file for.
    let resumed = arena(&dir, &["resume", "1"]);
    assert_eq!(resumed.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A rating list's games, not played in pairs: counted as games
/// (trinomial), said so in the import and the report, no pentanomial; a
/// game with no game of its engines with colours reversed is left out.
#[test]
fn games_not_played_as_pairs_count_as_games() {
    if !have_python("chess") {
        return;
    }
    let dir = temp_dir("import-single");
    let expected = write_games(&dir, &["single.pgn", "5", "0", "40"]);
    let out = arena_ok(&dir, &["import", "single.pgn"]);
    let said = String::from_utf8_lossy(&out.stderr);
    // Random openings: a few games happen to be pairs (same opening, colours reversed, one after the other).
    assert!(said.contains("games were not played as pairs") && said.contains("run 1: 40 games"), "{said}");
    assert!(said.contains("left out: single.pgn:") && said.contains("EngineC vs EngineA"), "{said}");
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&arena_ok(&dir, &["report", "1", "--format", "json"]))).unwrap();
    crate::common::validate_against_schema(&json);
    let unpaired = json["header"]["unpaired_games"].as_u64().unwrap_or_else(|| panic!("{json}"));
    assert!(said.contains(&format!("single.pgn: {unpaired} games were not played as pairs")), "{said}");
    let stats = &json["pairings"][0]["statistics"];
    for key in ["wins", "draws", "losses"] {
        assert_eq!(stats[key], expected[key], "{key}");
    }
    assert!(stats["pentanomial"].is_null() && stats["estimate"]["model"] == "games", "{stats}");
    let (w, d, l) = ["wins", "draws", "losses"].map(|k| expected[k].as_f64().unwrap()).into();
    let elo = -400.0 * (1.0 / ((w + d / 2.0) / (w + d + l)) - 1.0).log10();
    assert!((stats["estimate"]["elo"].as_f64().unwrap() - elo).abs() < 1e-9, "{stats}");
    let shown = stdout(&arena_ok(&dir, &["show", "1"]));
    assert!(shown.contains(&format!("unpaired: {unpaired} imported games")), "{shown}");
    assert!(!shown.contains("Elo (pairs)") && !shown.contains("pairs LL"), "{shown}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_file_that_cannot_be_imported_is_one_line() {
    let dir = temp_dir("import-refused");
    assert_refused(&dir, &["import", "missing.pgn"], "cannot read missing.pgn", "arena.db");
    std::fs::write(dir.join("empty.pgn"), "\n\n").unwrap();
    assert_refused(&dir, &["import", "empty.pgn"], "with colours reversed in empty.pgn", "arena.db");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Arena's own PGN imports back with its pairs: the games are written as
/// they finish (`Round "2.1"`, `"2.2"`, `"1.1"` …, two at a time), and the
/// import pairs them by round, so the imported run has the played run's
/// pentanomial, and every view of it the same numbers.
#[test]
fn arenas_own_pgn_imports_back_with_its_pairs() {
    let dir = temp_dir("import-round-trip");
    arena_ok(
        &dir,
        &["elo", "--a", "fhr", "--b", "plain", "--games", "40", "--tc", "nodes=300", "--pgn", "m.pgn", "--quiet"],
    );
    let played: serde_json::Value =
        serde_json::from_str(&stdout(&arena_ok(&dir, &["report", "1", "--format", "json"]))).unwrap();
    let pgn = std::fs::read_to_string(dir.join("m.pgn")).unwrap();
    let rounds: Vec<&str> = pgn.lines().filter_map(|l| l.strip_prefix("[Round \"")).collect();
    assert_eq!(rounds.len(), 40, "{pgn}");
    let other = dir.join("other");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::copy(dir.join("m.pgn"), other.join("m.pgn")).unwrap();
    let out = arena_ok(&other, &["import", "m.pgn"]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("40 games (20 pairs) imported") && !said.contains("not played as pairs"), "{said}");
    let imported: serde_json::Value =
        serde_json::from_str(&stdout(&arena_ok(&other, &["report", "1", "--format", "json"]))).unwrap();
    let (was, now) = (&played["pairings"][0]["statistics"], &imported["pairings"][0]["statistics"]);
    for key in ["wins", "draws", "losses", "pentanomial", "estimate", "verdict"] {
        assert_eq!(was[key], now[key], "{key}");
    }
    let elo = now["estimate"]["elo_text"].as_str().unwrap();
    let runs = stdout(&arena_ok(&other, &["runs"]));
    let show = stdout(&arena_ok(&other, &["show", "1"]));
    assert!(runs.contains(elo) && show.contains("pairs LL "), "{runs}\n{show}");
    let _ = std::fs::remove_dir_all(&dir);
}
