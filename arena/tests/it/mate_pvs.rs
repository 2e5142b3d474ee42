//! Mate-PV checks through the binary: scripted engines that claim false
//! mates and print illegal PV moves are counted per engine (checked against
//! their stored moves), warned about with game and ply (five lines per
//! engine, then one), and listed in `arena report`; `--no-check-mate-pvs`
//! turns it off; the bundled engines' mates pass.

use std::path::Path;

use crate::common::{FAKE, arena_ok, stdout, stored_games, temp_dir, validate_against_schema};

fn report_json(dir: &Path, db: &str) -> serde_json::Value {
    let out = arena_ok(dir, &["report", "1", "--db", db, "--format", "json"]);
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    validate_against_schema(&report);
    report
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn false_mates_and_illegal_pv_moves_are_counted_warned_and_reported() {
    let dir = temp_dir("mate-pvs");
    let toml = format!(
        "[[engine]]\nname = \"liar\"\ncommand = \"{FAKE}\"\nargs = [\"false-mate\"]\n\
         [[engine]]\nname = \"badpv\"\ncommand = \"{FAKE}\"\nargs = [\"illegal-pv\"]\n"
    );
    std::fs::write(dir.join("engines.toml"), toml).unwrap();
    let args = [
        "match",
        "--a",
        "liar",
        "--b",
        "badpv",
        "--games",
        "2",
        "--openings",
        "feldmann25",
        "--tc",
        "nodes=100",
        "--db",
        "m.db",
        "--quiet",
    ];
    let out = arena_ok(&dir, &args);
    let stderr = String::from_utf8_lossy(&out.stderr);

    // Independently from the stored moves: every move of the liar claims
    // mate 1, false unless the move mates; every move of badpv claims mate 2
    // with an illegal second PV move, unless its first move ends the game.
    let (mut liar_false, mut badpv_illegal, mut badpv_moves) = (0, 0, 0);
    for game in stored_games(&dir.join("m.db")).await {
        let record = &game.record;
        for (ply, m) in record.moves.iter().enumerate() {
            match record.mover(ply) {
                "liar" => {
                    assert_eq!(m.score_mate, Some(1));
                    liar_false += u64::from(!m.san.ends_with('#'));
                }
                _ => {
                    assert_eq!(m.score_mate, Some(2));
                    badpv_moves += 1;
                    let ends =
                        ply + 1 == record.moves.len() && record.termination != model::Termination::AdjudicatedDraw;
                    badpv_illegal += u64::from(!ends);
                }
            }
        }
    }
    assert!(liar_false >= 10 && badpv_moves >= 10, "{liar_false} {badpv_moves}");
    let report = report_json(&dir, "m.db");
    let rows = report["mate_pvs"].as_array().expect("a mate_pvs section");
    let find = |engine: &str, problem: &str| {
        rows.iter()
            .find(|r| r["engine"] == engine && r["problem"] == problem)
            .map_or(0, |r| r["moves"].as_u64().unwrap())
    };
    assert_eq!(find("liar", "false-mate"), liar_false, "{rows:?}");
    assert_eq!(find("liar", "illegal-pv-move"), 0);
    let illegal = find("badpv", "illegal-pv-move");
    assert!(illegal + 1 >= badpv_illegal && illegal <= badpv_moves, "{illegal} of {badpv_moves}: {rows:?}");
    let first = rows.iter().find(|r| r["engine"] == "liar").unwrap()["first"].as_str().unwrap();
    assert!(first.starts_with("pair 1 game 1, ply 3: mate 1 claimed, but its PV "), "{first}");

    // Five warnings per engine with game and ply, then one line.
    for engine in ["liar", "badpv"] {
        let warnings: Vec<&str> = stderr.lines().filter(|l| l.starts_with(&format!("warning: {engine}: "))).collect();
        assert_eq!(warnings.len(), 6, "{stderr}");
        assert!(warnings[0].contains(" in run 1 pair 1 game 1 at ply "), "{}", warnings[0]);
        assert!(warnings[5].contains("counted in arena report 1"), "{}", warnings[5]);
    }
    let text = stdout(&arena_ok(&dir, &["report", "1", "--db", "m.db"]));
    assert!(text.contains("Mate PV checks") && text.contains("false mate"), "{text}");
    let shown = stdout(&arena_ok(&dir, &["show", "1", "--db", "m.db"]));
    assert!(shown.contains("Mate PV checks"), "{shown}");

    // Off: nothing checked, nothing said.
    let mut off = args.to_vec();
    let db = off.iter().position(|a| *a == "m.db").unwrap();
    off[db] = "off.db";
    off.push("--no-check-mate-pvs");
    let out = arena_ok(&dir, &off);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("warning"), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(report_json(&dir, "off.db").get("mate_pvs").is_none());
}

#[test]
fn the_bundled_engines_mates_are_backed_by_their_pvs() {
    let dir = temp_dir("mate-pvs-own");
    let out = arena_ok(
        &dir,
        &[
            "match",
            "--a",
            "fhr",
            "--b",
            "vnm",
            "--games",
            "40",
            "--openings",
            "noob_2moves",
            "--seed",
            "4",
            "--tc",
            "nodes=3000",
            "--resign",
            "off",
            "--db",
            "own.db",
            "--quiet",
        ],
    );
    assert!(stdout(&out).contains("checkmate"), "some games end in mate: {}", stdout(&out));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("warning"), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value =
        serde_json::from_str(&stdout(&arena_ok(&dir, &["report", "1", "--db", "own.db", "--format", "json"]))).unwrap();
    assert!(report.get("mate_pvs").is_none(), "{}", report["mate_pvs"]);
}
