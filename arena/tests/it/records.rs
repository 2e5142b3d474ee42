//! Complete game records: `--pgn-level min|normal|full`, `--event` and
//! `--site`, and `--epdout`, through the binary, re-read by python-chess
//! (every move legal, the EPD's positions the games' final ones) and by
//! pgn-extract; a path that cannot be written is one line before the run.

use std::path::Path;
use std::process::Command;

use crate::common::{arena, arena_ok, assert_refused, have_python, stored_games, temp_dir};

fn python_chess(pgn: &Path, epd: Option<&Path>) -> Option<Vec<String>> {
    if !have_python("chess") {
        return None;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scripts/check_pgn_epd.py");
    let mut command = Command::new("python3");
    command.arg(script).arg(pgn);
    if let Some(epd) = epd {
        command.arg(epd);
    }
    let out = command.output().unwrap();
    assert!(out.status.success(), "python-chess: {}", String::from_utf8_lossy(&out.stderr));
    Some(String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).collect())
}

fn pgn_extract(pgn: &Path, games: usize) {
    let Some(tool) = ["/usr/games/pgn-extract", "/usr/bin/pgn-extract"].into_iter().find(|p| Path::new(p).exists())
    else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI needs pgn-extract: apt-get install pgn-extract (.ci/run does this)"
        );
        eprintln!("skipping the pgn-extract check: it is not installed");
        return;
    };
    let out = Command::new(tool).arg(pgn).arg("-o").arg(pgn.with_extension("extracted")).output().unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains(&format!("{games} games matched out of {games}.")), "{said}");
    assert!(!said.contains("Failed"), "{said}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn full_pgn_min_pgn_and_final_positions() {
    let dir = temp_dir("records");
    let (full, epd) = (dir.join("full.pgn"), dir.join("final.epd"));
    arena_ok(
        &dir,
        &[
            "match",
            "--a",
            "fhr",
            "--b",
            "vnm",
            "--games",
            "6",
            "--tc",
            "2+0.02,nodetime=200",
            "--db",
            "r.db",
            "--quiet",
            "--pgn",
            full.to_str().unwrap(),
            "--pgn-level",
            "full",
            "--event",
            "Nightly \"7\"",
            "--site",
            "lab box",
            "--epdout",
            epd.to_str().unwrap(),
        ],
    );
    let text = std::fs::read_to_string(&full).unwrap();
    assert_eq!(text.matches("[Event \"Nightly \\\"7\\\"\"]").count(), 6, "{text}");
    assert_eq!(text.matches("[Site \"lab box\"]").count(), 6);

    // Each engine move's comment holds what was stored for it.
    let games = stored_games(&dir.join("r.db")).await;
    let moves: usize = games.iter().map(|g| g.record.moves.len()).sum();
    assert_eq!(text.matches(", pv=").count(), moves, "a PV after every engine move");
    let first = &games[0].record.moves[0];
    let expected = format!(
        "{}, sd={}, n={}, nps={}, tl={:.3}s, pv={}}}",
        format_args!("/{} {:.3}s", first.depth.unwrap(), first.time_ms as f64 / 1000.0),
        first.seldepth.unwrap(),
        first.nodes.unwrap(),
        first.nps.unwrap(),
        first.clock_ms as f64 / 1000.0,
        first.pv
    );
    assert!(text.contains(&expected), "{expected} in\n{}", &text[..1500.min(text.len())]);
    assert!(first.clock_ms > 0);

    let epd_text = std::fs::read_to_string(&epd).unwrap();
    assert_eq!(epd_text.lines().count(), 6);
    assert!(epd_text.lines().all(|l| l.contains("; id \"arena run 1 pair ") && l.contains("; c0 \"")), "{epd_text}");

    // The same games at level min, from `arena pgn`.
    let min = dir.join("min.pgn");
    arena_ok(&dir, &["pgn", "1", "--db", "r.db", "--pgn-level", "min", "-o", min.to_str().unwrap()]);
    let min_text = std::fs::read_to_string(&min).unwrap();
    assert!(!min_text.contains('{'), "moves only: {min_text}");
    for file in [&full, &min] {
        pgn_extract(file, 6);
    }
    if let (Some(full_games), Some(min_games)) = (python_chess(&full, Some(&epd)), python_chess(&min, None)) {
        assert_eq!(full_games[0], "6");
        assert_eq!(full_games, min_games, "the same moves at every level");
    }
}

#[test]
fn an_output_that_cannot_be_written_is_refused_before_the_run() {
    let dir = temp_dir("records-bad");
    for flag in ["--pgn", "--epdout"] {
        let args = [
            "match",
            "--a",
            "fhr",
            "--b",
            "vnm",
            "--games",
            "2",
            "--tc",
            "nodes=500",
            "--db",
            "x.db",
            flag,
            "no/such/dir/f",
        ];
        assert_refused(&dir, &args, "cannot write no/such/dir/f", "x.db");
    }
    let out = arena(&dir, &["match", "--a", "fhr", "--b", "vnm", "--pgn-level", "huge", "--db", "x.db"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("invalid value 'huge'"));
}

/// arena's own `--pgn` never overwrites games it did not write: a file
/// that holds something is refused in one line, before anything is stored
/// or played; an empty one is written.
#[test]
fn pgn_refuses_a_file_that_holds_games_already() {
    let dir = temp_dir("pgn-refuse");
    let first = ["match", "--a", "fhr", "--b", "plain", "--games", "2", "--tc", "nodes=300", "--quiet"];
    arena_ok(&dir, &[&first[..], &["--pgn", "games.pgn", "--db", "one.db"]].concat());
    let kept = std::fs::read_to_string(dir.join("games.pgn")).unwrap();
    assert_eq!(kept.matches("[Event ").count(), 2);
    let again = [&first[..], &["--pgn", "games.pgn", "--db", "two.db"]].concat();
    assert_refused(&dir, &again, "games.pgn holds", "two.db");
    assert_eq!(std::fs::read_to_string(dir.join("games.pgn")).unwrap(), kept, "the file is as it was");
    std::fs::write(dir.join("empty.pgn"), "").unwrap();
    arena_ok(&dir, &[&first[..], &["--pgn", "empty.pgn", "--db", "three.db"]].concat());
    assert_eq!(std::fs::read_to_string(dir.join("empty.pgn")).unwrap().matches("[Event ").count(), 2);
}
