//! Score units and mate encoding.

/// A score in centipawns from the side to move's view (pawn = 100).
pub type Score = i32;

/// Larger than any score.
pub const INFINITY: Score = 32_001;
/// The score of giving mate at the root; mate in n plies scores `MATE - n`.
pub const MATE: Score = 32_000;
/// The deepest the search goes, in plies from the root.
pub const MAX_PLY: usize = 128;
/// Scores at or beyond this are mate scores.
pub const MATE_BOUND: Score = MATE - MAX_PLY as Score;
/// The score of a draw.
pub const DRAW: Score = 0;

/// The number of moves (not plies) to a mate, positive when the side to move
/// mates, or `None` for a centipawn score.
pub fn mate_in_moves(score: Score) -> Option<i32> {
    if score >= MATE_BOUND {
        Some((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        Some(-(MATE + score) / 2)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_distances_in_moves() {
        assert_eq!(mate_in_moves(MATE - 1), Some(1));
        assert_eq!(mate_in_moves(MATE - 3), Some(2));
        assert_eq!(mate_in_moves(-(MATE - 2)), Some(-1));
        assert_eq!(mate_in_moves(150), None);
    }
}
