//! A position plus its Zobrist key, updated incrementally as moves are played.

use shakmaty::zobrist::Zobrist64;
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
        self.position.clone().swap_turn().ok().map(Board::new)
    }
}

impl Default for Board {
    fn default() -> Self {
        Board::new(Chess::default())
    }
}
