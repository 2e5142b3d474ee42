//! A position plus its Zobrist key, updated incrementally as moves are played.

use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{Chess, EnPassantMode, Move, Position};

/// A chess position with its 64-bit Zobrist key.
///
/// Copy-make: [`Board::play`] returns a new board, the original is untouched
/// (shakmaty has no unmake).
#[derive(Clone, Debug)]
pub struct Board {
    position: Chess,
    key: u64,
}

impl Board {
    /// Wraps a position, computing its key from scratch.
    pub fn new(position: Chess) -> Self {
        let key = position.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
        Self { position, key }
    }

    /// The shakmaty position.
    pub fn position(&self) -> &Chess {
        &self.position
    }

    /// The Zobrist key (side to move, castling rights and legal en passant included).
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The board after the legal move `m`; the key is updated incrementally.
    pub fn play(&self, m: Move) -> Board {
        let updated = self.position.update_zobrist_hash(Zobrist64(self.key), m, EnPassantMode::Legal);
        let mut position = self.position.clone();
        position.play_unchecked(m);
        let key = match updated {
            Some(key) => key.0,
            None => position.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0,
        };
        Board { position, key }
    }

    /// The board after a null move (the side to move passes), or `None` when
    /// the side to move is in check. This costs about ten normal moves in
    /// shakmaty, so callers use it only where a technique needs it.
    pub fn null_move(&self) -> Option<Board> {
        if self.position.is_check() {
            return None;
        }
        // The key changes by the side to move and by the en passant file
        // the pass forfeits, if one was legal.
        let mut key = self.key ^ Zobrist64::zobrist_for_white_turn().0;
        if let Some(square) = self.position.ep_square(EnPassantMode::Legal) {
            key ^= Zobrist64::zobrist_for_en_passant_file(square.file()).0;
        }
        let position = self.position.clone().swap_turn().ok()?;
        Some(Board { position, key })
    }
}

impl Default for Board {
    fn default() -> Self {
        Board::new(Chess::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random_games::{any, random_games};
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    /// The incremental keys against the key computed from scratch.
    fn check(board: &Board) {
        assert_eq!(board.key(), Board::new(board.position().clone()).key());
        if let Some(passed) = board.null_move() {
            assert_eq!(passed.key(), Board::new(passed.position().clone()).key());
            assert_ne!(passed.key(), board.key());
        }
    }

    #[test]
    fn keys_made_by_moves_and_passes_are_the_keys_from_scratch() {
        // A legal en passant capture (White d5xc6) that a pass forfeits.
        let fen: Fen = "4k3/8/8/2pP4/8/8/8/4K3 w - c6 0 2".parse().unwrap();
        let ep = Board::new(fen.into_position(CastlingMode::Standard).unwrap());
        assert!(ep.position().ep_square(EnPassantMode::Legal).is_some());
        check(&ep);
        let mut passes = 0;
        for line in random_games(0x853c_49e6_748f_ea9b, 200, 150, any) {
            let mut board = Board::default();
            for m in line {
                check(&board);
                passes += usize::from(board.position().ep_square(EnPassantMode::Legal).is_some());
                board = board.play(m);
            }
            check(&board);
        }
        assert!(passes > 20, "{passes} positions with a legal en passant capture");
    }
}
