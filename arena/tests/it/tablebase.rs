//! Syzygy adjudication through the binary (`--tb`), with the repository's
//! 3- and 4-piece tables: positions already in the tables end at once with
//! the tables' result, games that reach them by a capture end there, each
//! result checked against an independent prober (python-chess) where it is
//! installed and against known results; bad folders and flags are one line
//! with nothing stored; a corrupt table gives one warning and no result.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::common::{arena, assert_refused, have_python, stored_games, temp_dir};
use model::{GameResult, Termination};

fn tables() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/syzygy")
}

/// python-chess's result for each game's final position (see
/// `scripts/probe_syzygy.py`), or `None` where python-chess is missing outside CI.
fn python_chess_results(tables: &Path, games: &[model::GameRow]) -> Option<Vec<String>> {
    if !have_python("chess.syzygy") {
        return None;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scripts/probe_syzygy.py");
    let mut child = Command::new("python3").arg(script).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    let mut input = format!("{}\n", tables.display());
    for game in games {
        let record = &game.record;
        let moves: Vec<&str> = record
            .opening_moves
            .iter()
            .map(String::as_str)
            .chain(record.moves.iter().map(|m| m.uci.as_str()))
            .collect();
        input += &format!("{} {}\n", record.start_fen, moves.join(" "));
    }
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    Some(String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).collect())
}

fn tb_match(dir: &Path, book: &str, games: &str, db: &str, extra: &[&str]) -> std::process::Output {
    let tb = tables();
    let mut args = vec![
        "match",
        "--a",
        "fhr",
        "--b",
        "plain",
        "--openings",
        book,
        "--games",
        games,
        "--tc",
        "nodes=2000",
        "--draw",
        "off",
        "--resign",
        "off",
        "--db",
        db,
        "--quiet",
        "--tb",
        tb.to_str().unwrap(),
    ];
    args.extend(extra);
    arena(dir, &args)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn positions_in_the_tables_end_at_once_with_their_result() {
    let dir = temp_dir("tb-start");
    // Known results (syzygy-tables.info; python-chess agrees below).
    let known = [
        ("8/8/8/4k3/8/8/8/KQ6 b - - 0 1", GameResult::WhiteWins),
        ("8/8/8/8/4k3/8/4P3/4K3 b - - 0 1", GameResult::Draw),
        ("R7/8/8/8/8/4k3/7p/K7 w - - 0 1", GameResult::WhiteWins),
        ("K7/8/8/8/8/8/5kp1/7R w - - 0 1", GameResult::Draw),
        ("8/8/8/8/8/1k6/p7/2K4R b - - 0 1", GameResult::BlackWins),
        // Mate 13 plies away with the counter at 90: cursed, so a draw.
        ("7k/8/8/8/8/8/8/KQ6 w - - 90 100", GameResult::Draw),
    ];
    let epd: String = known.iter().map(|(fen, _)| format!("{fen}\n")).collect();
    std::fs::write(dir.join("tb.epd"), epd).unwrap();
    let out = tb_match(&dir, "tb.epd", "12", "t.db", &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let games = stored_games(&dir.join("t.db")).await;
    assert_eq!(games.len(), 12);
    for game in &games {
        let record = &game.record;
        let expected = known.iter().find(|(fen, _)| *fen == record.start_fen).map(|k| k.1);
        assert_eq!(Some(record.result), expected, "{}", record.start_fen);
        assert_eq!(record.termination, Termination::Tablebase, "{}", record.start_fen);
        assert!(record.moves.is_empty(), "no engine moved: {}", record.start_fen);
    }
    let cursed = games.iter().find(|g| g.record.start_fen.ends_with("90 100")).unwrap();
    assert_eq!(cursed.record.detail, "KQvK: draw by the 50-move rule");
    if let Some(results) = python_chess_results(&tables(), &games) {
        for (game, probed) in games.iter().zip(&results) {
            if !game.record.start_fen.ends_with("90 100") {
                assert_eq!(game.record.result.pgn(), probed, "{}", game.record.start_fen);
            }
        }
    }
    // --tb-ignore-50 makes the cursed win a win; --tb-adjudicate win leaves draws to be played.
    std::fs::write(dir.join("cursed.epd"), "7k/8/8/8/8/8/8/KQ6 w - - 90 100\n").unwrap();
    let out = tb_match(&dir, "cursed.epd", "2", "c.db", &["--tb-ignore-50"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stored_games(&dir.join("c.db")).await.iter().all(|g| g.record.result == GameResult::WhiteWins));
    std::fs::write(dir.join("draw.epd"), "8/8/8/8/4k3/8/4P3/4K3 b - - 0 1\n").unwrap();
    let out = tb_match(&dir, "draw.epd", "2", "d.db", &["--tb-adjudicate", "win", "--maxmoves", "20"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    for game in stored_games(&dir.join("d.db")).await {
        let record = &game.record;
        assert!(!record.moves.is_empty(), "a drawn start is played on");
        let drawn_by_tables = record.termination == Termination::Tablebase && record.result == GameResult::Draw;
        assert!(!drawn_by_tables, "only wins are adjudicated: {}", record.detail);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_that_reach_the_tables_end_there() {
    let dir = temp_dir("tb-reach");
    // Five-piece positions: a capture or promotion takes each into the tables.
    let epd = "4k3/8/8/8/3r4/8/3Q3P/4K3 w - - 0 1\n\
               8/8/4k3/8/3p4/4P3/3P4/4K3 w - - 0 1\n\
               8/8/3k4/2p5/2P5/3K4/4P3/8 w - - 0 1\n\
               8/8/8/4k3/8/2N5/3K4/6rb w - - 0 1\n\
               6k1/5p2/8/8/8/8/5P2/R5K1 b - - 0 1\n\
               8/2k5/8/1p6/1P6/8/2K5/4B3 w - - 0 1\n";
    std::fs::write(dir.join("five.epd"), epd).unwrap();
    let pgn = dir.join("t.pgn");
    let out = tb_match(&dir, "five.epd", "12", "t.db", &["--maxmoves", "150", "--pgn", pgn.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let games = stored_games(&dir.join("t.db")).await;
    let adjudicated: Vec<&model::GameRow> =
        games.iter().filter(|g| g.record.termination == Termination::Tablebase).collect();
    assert!(adjudicated.len() >= 6, "{} of 12 games reached the tables", adjudicated.len());
    for game in &adjudicated {
        assert!(!game.record.moves.is_empty(), "reached by play: {}", game.record.start_fen);
        assert!(game.record.detail.contains('v'), "{}", game.record.detail);
    }
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("{Adjudicated by tablebase").count(), adjudicated.len(), "each in the PGN");
    let owned: Vec<model::GameRow> = adjudicated.into_iter().cloned().collect();
    if let Some(results) = python_chess_results(&tables(), &owned) {
        for (game, probed) in owned.iter().zip(&results) {
            assert_eq!(
                game.record.result.pgn(),
                probed,
                "{} then {} moves",
                game.record.start_fen,
                game.record.moves.len()
            );
        }
    }
}

#[test]
fn bad_tablebase_flags_are_one_line_and_store_nothing() {
    let dir = temp_dir("tb-flags");
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    let tb = tables();
    let tb = tb.to_str().unwrap();
    for (flags, needle) in [
        (vec!["--tb", "no/such/folder"], "no such folder"),
        (vec!["--tb", "empty"], "no Syzygy tables"),
        (vec!["--tb", ""], "needs a folder"),
        (vec!["--tb-pieces", "4"], "need --tb"),
        (vec!["--tb-ignore-50"], "need --tb"),
        (vec!["--tb", tb, "--tb-pieces", "2"], "start at 3 pieces"),
    ] {
        let mut args = vec!["match", "--a", "fhr", "--b", "plain", "--games", "2", "--db", "x.db"];
        args.extend(&flags);
        assert_refused(&dir, &args, needle, "x.db");
    }
    // clap's own message for a value outside the list names the choices on a second line.
    let out = arena(&dir, &["match", "--a", "fhr", "--b", "plain", "--tb", tb, "--tb-adjudicate", "sometimes"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("invalid value 'sometimes'"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_corrupt_table_gives_one_warning_and_no_result() {
    let dir = temp_dir("tb-corrupt");
    let copy = dir.join("tables");
    std::fs::create_dir_all(&copy).unwrap();
    for entry in std::fs::read_dir(tables()).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, copy.join(path.file_name().unwrap())).unwrap();
    }
    let mut bytes = std::fs::read(copy.join("KQvK.rtbw")).unwrap();
    bytes[..4].copy_from_slice(b"oops");
    std::fs::write(copy.join("KQvK.rtbw"), bytes).unwrap();
    std::fs::write(dir.join("kq.epd"), "8/8/8/4k3/8/8/8/KQ6 w - - 0 1\n8/8/8/8/4k3/8/4P3/4K3 b - - 0 1\n").unwrap();
    let out = arena(
        &dir,
        &[
            "match",
            "--a",
            "fhr",
            "--b",
            "plain",
            "--openings",
            "kq.epd",
            "--games",
            "4",
            "--tc",
            "nodes=2000",
            "--draw",
            "off",
            "--resign",
            "off",
            "--db",
            "t.db",
            "--quiet",
            "--tb",
            copy.to_str().unwrap(),
        ],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(stderr.matches("warning: tablebase").count(), 1, "{stderr}");
    for game in stored_games(&dir.join("t.db")).await {
        let record = &game.record;
        if record.start_fen.contains("KQ6") {
            assert_ne!(record.termination, Termination::Tablebase, "no result from the corrupt table");
            assert!(!record.moves.is_empty());
        } else {
            assert_eq!(record.termination, Termination::Tablebase, "KPvK's table is fine");
        }
    }
}
