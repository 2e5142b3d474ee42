//! Perft from `data/perft.txt` (and `data/perft960.txt`, Chess960) through the engine's own board, incremental
//! keys and move ordering.

use engine::board::Board;
use engine::perft::perft;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

/// Largest node count checked per position, to keep the test quick.
const NODE_BUDGET: u64 = 700_000;

/// Checks every `FEN; depth=nodes; …` line of `data` (positions read in
/// `mode`) up to [`NODE_BUDGET`] nodes; how many counts were checked.
fn check_file(data: &str, mode: CastlingMode) -> usize {
    let mut checked = 0;
    for line in data.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let mut fields = line.split(';');
        let fen = fields.next().unwrap().trim();
        let position: Chess = fen.parse::<Fen>().unwrap().into_position(mode).unwrap();
        let board = Board::new(position);
        for field in fields {
            let (depth, nodes) = field.trim().split_once('=').unwrap();
            let (depth, nodes): (u32, u64) = (depth.parse().unwrap(), nodes.parse().unwrap());
            if nodes > NODE_BUDGET {
                continue;
            }
            assert_eq!(perft(&board, depth), nodes, "{fen} depth {depth}");
            checked += 1;
        }
    }
    checked
}

#[test]
fn perft_matches_reference_counts() {
    let checked = check_file(include_str!("../data/perft.txt"), CastlingMode::Standard);
    assert!(checked >= 20, "only {checked} perft entries were checked");
}

#[test]
fn chess960_perft_matches_reference_counts() {
    let checked = check_file(include_str!("../data/perft960.txt"), CastlingMode::Chess960);
    assert!(checked >= 40, "only {checked} Chess960 perft entries were checked");
}
