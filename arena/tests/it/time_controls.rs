//! Every time-control form the guide lists (docs/src/playing.md) plays the
//! bundled engines to a result without a forfeit: the clock's rules and the engine's own time
//! management agree (under `st=` the engine keeps its Move Overhead back
//! from the move time, and the arena forfeits only an answer later than the
//! move time plus `timemargin`, 0 by default, as cutechess does).

use serde_json::Value;

use crate::common::{arena_ok, stdout, temp_dir};

#[test]
fn every_time_control_form_plays_without_a_forfeit() {
    let dir = temp_dir("time-controls");
    // Each README form, scaled down to fractions of a second; games cut at move 20.
    let forms = ["20/1", "1+0.01", "10/0.5+0.01", "10/0.5:10/0.5", "st=0.05", "st=0.1", "nodes=300", "depth=3"];
    for (i, tc) in forms.iter().enumerate() {
        let db = format!("tc{i}.db");
        let args = ["match", "--a", "plain", "--b", "fhr", "--games", "2", "--tc", tc, "--maxmoves", "20"];
        arena_ok(&dir, &[&args[..], &["--db", &db, "--quiet"]].concat());
        let report: Value =
            serde_json::from_str(&stdout(&arena_ok(&dir, &["report", "1", "--db", &db, "--format", "json"]))).unwrap();
        assert_eq!(report["header"]["games_played"], 2, "{tc}");
        for engine in report["engines"].as_array().unwrap() {
            for ending in engine["terminations"].as_array().unwrap() {
                let name = ending["termination"].as_str().unwrap();
                assert!(!["time-forfeit", "stalled", "disconnect"].contains(&name), "{tc}: {engine}");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
