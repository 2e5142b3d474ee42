//! Perft from `data/perft.txt` through the engine's own board, incremental
//! keys and move ordering.

use engine::board::Board;
use engine::perft::perft;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

/// Largest node count checked per position, to keep the test quick.
const NODE_BUDGET: u64 = 700_000;

#[test]
fn perft_matches_reference_counts() {
    let data = include_str!("../data/perft.txt");
    let mut checked = 0;
    for line in data.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let mut fields = line.split(';');
        let fen = fields.next().unwrap().trim();
        let position: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
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
    assert!(checked >= 20, "only {checked} perft entries were checked");
}

#[test]
fn chess960_perft_matches_reference_counts() {
    let data = include_str!("../data/perft960.txt");
    let mut checked = 0;
    for line in data.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let mut fields = line.split(';');
        let fen = fields.next().unwrap().trim();
        let position: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Chess960).unwrap();
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
    assert!(checked >= 40, "only {checked} Chess960 perft entries were checked");
}
