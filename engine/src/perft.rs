//! Perft through the engine's own board, key updates and move ordering.

use shakmaty::Position;

use crate::board::Board;
use crate::ordering::{History, MovePicker};

/// Counts the leaf nodes `depth` plies below `board`, generating moves
/// through [`MovePicker`] and playing them through [`Board::play`]. Panics if
/// an incrementally updated key differs from one computed from scratch.
pub fn perft(board: &Board, depth: u32) -> u64 {
    let history = History::default();
    perft_inner(board, depth, &history)
}

fn perft_inner(board: &Board, depth: u32, history: &History) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = board.position().legal_moves();
    let count = moves.len();
    let picker = MovePicker::new(board.position(), moves, None, [None, None], history);
    let mut nodes = 0;
    let mut picked = 0;
    for m in picker {
        picked += 1;
        let child = board.play(m);
        assert_eq!(child.key(), Board::new(child.position().clone()).key(), "key drift after {m:?}");
        nodes += if depth == 1 { 1 } else { perft_inner(&child, depth - 1, history) };
    }
    assert_eq!(picked, count, "the move picker dropped or duplicated moves");
    nodes
}
