//! Compact move encoding for the transposition table, and UCI text.

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Move, MoveList};

/// Packs a move into 16 bits: from (6), to (6), promotion role (3). Castling
/// is king square to rook square, as shakmaty represents it. Never 0.
pub fn pack(m: Move) -> u16 {
    let from = m.from().map_or(0, |sq| sq as u16);
    let promotion = m.promotion().map_or(0, |role| role as u16);
    from | ((m.to() as u16) << 6) | (promotion << 12)
}

/// The move of `moves` whose packed form is `packed`, if any.
pub fn unpack(packed: u16, moves: &MoveList) -> Option<Move> {
    if packed == 0 {
        return None;
    }
    moves.iter().copied().find(|m| pack(*m) == packed)
}

/// The move in UCI notation, as GUIs expect: castling as `e1g1` in
/// standard chess, as king takes rook (`e1h1`) in Chess960 (`mode`).
pub fn uci(m: Move, mode: CastlingMode) -> String {
    UciMove::from_move(m, mode).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Position};

    #[test]
    fn packing_is_unique_per_position() {
        let pos = Chess::default();
        let moves = pos.legal_moves();
        for m in &moves {
            assert_ne!(pack(*m), 0);
            assert_eq!(unpack(pack(*m), &moves), Some(*m));
        }
    }
}
