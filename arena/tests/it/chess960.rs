//! Chess960 and double Fischer random end to end: the bundled engine against
//! Debian's Stockfish from `--openings frc` and `dfrc`, the PGN re-read by an
//! independent reader (python-chess) as Chess960 with every move legal and
//! castling on both sides; a paired DFRC `arena elo`; engines without
//! `UCI_Chess960` refused before the run; EPD files detected per position.

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

use crate::common::{FAKE, arena_ok, assert_refused, have_python, stdout, stored_games, temp_dir};

fn stockfish_path() -> &'static str {
    ["/usr/games/stockfish", "/usr/bin/stockfish"]
        .into_iter()
        .find(|p| Path::new(p).exists())
        .expect("stockfish is not installed: apt-get install stockfish (.ci/run does this)")
}

/// python-chess's verdict on `pgn`: (games, castlings, sides castled such as
/// `W-O-O`), or `None` where python-chess is missing outside CI.
fn python_chess_check(pgn: &Path) -> Option<(usize, usize, Vec<String>)> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scripts/check_chess960_pgn.py");
    if !have_python("chess") {
        return None;
    }
    let out = Command::new("python3").arg(&script).arg(pgn).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "python-chess rejects {}: {}", pgn.display(), String::from_utf8_lossy(&out.stderr));
    let mut fields = text.split_whitespace();
    let games = fields.next().unwrap().parse().unwrap();
    let castlings = fields.next().unwrap().parse().unwrap();
    Some((games, castlings, fields.map(str::to_string).collect()))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bundled_engine_plays_stockfish_from_frc_and_dfrc_positions() {
    let dir = temp_dir("chess960-sf");
    let toml = format!(
        "[[engine]]\nname = \"sf\"\ncommand = \"{}\"\noptions = {{ Threads = 1, Hash = 16 }}\n",
        stockfish_path()
    );
    std::fs::write(dir.join("engines.toml"), toml).unwrap();
    for (book, seed) in [("frc", "3"), ("dfrc", "5")] {
        let db = format!("{book}.db");
        let pgn = dir.join(format!("{book}.pgn"));
        let args = [
            "match",
            "--a",
            "fhr",
            "--b",
            "sf",
            "--openings",
            book,
            "--seed",
            seed,
            "--games",
            "16",
            "--tc",
            "nodes=2000",
            "--db",
            &db,
            "--quiet",
            "--pgn",
        ];
        let mut args = args.to_vec();
        args.push(pgn.to_str().unwrap());
        let out = arena_ok(&dir, &args);
        assert!(stdout(&out).contains("16 games"), "{}", stdout(&out));
        let show = stdout(&arena_ok(&dir, &["show", "1", "--db", &db]));
        assert!(show.contains("UCI_Chess960=true"), "both engines get UCI_Chess960: {show}");
        let text = std::fs::read_to_string(&pgn).unwrap();
        assert_eq!(text.matches("[Variant \"Chess960\"]").count(), 16, "{book}: every game tagged");
        assert_eq!(text.matches("[SetUp \"1\"]").count(), 16, "{book}: every game has its FEN");
        for game in stored_games(&dir.join(&db)).await {
            let record = &game.record;
            assert!(!record.termination.is_fault(), "{book}: {:?} {}", record.termination, record.detail);
            assert!(openings::is_chess960(&record.start_fen) || book == "frc", "{book}: {}", record.start_fen);
        }
        if let Some((games, castlings, sides)) = python_chess_check(&pgn) {
            assert_eq!(games, 16, "{book}");
            assert!(castlings >= 2, "{book}: {castlings} castlings");
            assert!(sides.iter().any(|s| s.starts_with('W')), "{book}: White castled in some game: {sides:?}");
            assert!(sides.iter().any(|s| s.starts_with('B')), "{book}: Black castled in some game: {sides:?}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dfrc_elo_match_is_paired_on_different_arrays() {
    let dir = temp_dir("chess960-elo");
    let args = ["elo", "--a", "fhr", "--b", "plain", "--openings", "dfrc", "--db", "none.db"];
    assert_refused(&dir, &args, "holds 921600 positions, too many to play each twice: give --games N", "none.db");

    let pgn = dir.join("elo.pgn");
    let out = arena_ok(
        &dir,
        &[
            "elo",
            "--a",
            "fhr",
            "--b",
            "plain",
            "--openings",
            "dfrc",
            "--games",
            "12",
            "--seed",
            "9",
            "--tc",
            "nodes=1500",
            "--db",
            "elo.db",
            "--quiet",
            "--pgn",
            pgn.to_str().unwrap(),
        ],
    );
    assert!(stdout(&out).contains("fhr vs plain: 12 games"), "{}", stdout(&out));
    let games = stored_games(&dir.join("elo.db")).await;
    assert_eq!(games.len(), 12);
    let mut pairs: HashMap<i64, Vec<&model::GameRecord>> = HashMap::new();
    for game in &games {
        pairs.entry(game.pair_index).or_default().push(&game.record);
    }
    assert_eq!(pairs.len(), 6, "six pairs");
    let mut fens = std::collections::HashSet::new();
    for pair in pairs.values() {
        let [one, two] = pair.as_slice() else { panic!("a pair has two games: {pair:?}") };
        assert_eq!(one.start_fen, two.start_fen, "a pair replays its position");
        assert_eq!(one.white, two.black, "with colours swapped");
        let fen = one.start_fen.as_str();
        let ranks: Vec<&str> = fen.split(['/', ' ']).collect();
        assert_ne!(ranks[0].to_ascii_uppercase(), ranks[7], "DFRC: different arrays ({fen})");
        fens.insert(fen.to_string());
    }
    assert_eq!(fens.len(), 6, "six different positions");
    if let Some((games, _, _)) = python_chess_check(&pgn) {
        assert_eq!(games, 12);
    }
}

#[test]
fn engine_without_chess960_is_refused_and_epd_positions_are_detected() {
    let dir = temp_dir("chess960-refuse");
    std::fs::write(dir.join("engines.toml"), format!("[[engine]]\nname = \"fake\"\ncommand = \"{FAKE}\"\n")).unwrap();
    // One standard position and one Chess960 array (Shredder-FEN rights) in
    // an EPD file; only the standard one in another.
    std::fs::write(
        dir.join("mixed.epd"),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id \"standard\";\n\
         bqnb1rkr/pppppppp/3n4/8/8/3N4/PPPPPPPP/BQNB1RKR w HFhf - id \"chess960 21\";\n",
    )
    .unwrap();
    std::fs::write(dir.join("standard.epd"), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n").unwrap();
    // The run's plan decides: four games take both of the mixed file's positions.
    for book in ["frc", "dfrc", "mixed.epd"] {
        let args = ["match", "--a", "fake", "--b", "plain", "--openings", book, "--games", "4", "--db", "x.db"];
        assert_refused(&dir, &args, "engine 'fake': does not support Chess960", "x.db");
    }
    // The standard file is played as standard chess: the same engine is fine.
    arena_ok(
        &dir,
        &[
            "match",
            "--a",
            "fake",
            "--b",
            "plain",
            "--openings",
            "standard.epd",
            "--games",
            "2",
            "--tc",
            "nodes=500",
            "--db",
            "std.db",
            "--quiet",
        ],
    );
    let show = stdout(&arena_ok(&dir, &["show", "1", "--db", "std.db"]));
    assert!(!show.contains("UCI_Chess960"), "{show}");
    // The mixed file between two engines that support Chess960: the run is
    // Chess960, so the standard position's games are played with UCI_Chess960 set too.
    arena_ok(
        &dir,
        &[
            "match",
            "--a",
            "fhr",
            "--b",
            "plain",
            "--openings",
            "mixed.epd",
            "--games",
            "4",
            "--tc",
            "nodes=800",
            "--db",
            "mixed.db",
            "--quiet",
        ],
    );
    let show = stdout(&arena_ok(&dir, &["show", "1", "--db", "mixed.db"]));
    assert!(show.contains("UCI_Chess960=true") && show.contains("Chess960"), "{show}");
}
