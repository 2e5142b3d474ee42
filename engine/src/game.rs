//! A game as the engine sees it: the current board and the keys of the
//! earlier positions that can still repeat.

use std::fmt;

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

use crate::board::Board;

/// The position to search from, with its repetition history.
#[derive(Clone, Debug, Default)]
pub struct Game {
    /// The current position.
    pub board: Board,
    /// Keys of earlier positions since the last capture or pawn move,
    /// oldest first (the current position is not included).
    pub history: Vec<u64>,
}

/// Why a `position` could not be set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The FEN does not parse or describes an illegal position.
    Fen(String),
    /// A move is malformed or illegal; its index (from 0) and text.
    Move(usize, String),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Fen(fen) => write!(f, "invalid FEN '{fen}'"),
            Self::Move(i, m) => write!(f, "move {} '{m}' is malformed or illegal", i + 1),
        }
    }
}

impl std::error::Error for PositionError {}

impl Game {
    /// The game after `moves` (UCI notation) from `fen` (start position when `None`).
    ///
    /// # Errors
    ///
    /// [`PositionError::Fen`] for a bad FEN, [`PositionError::Move`] for the
    /// first move that does not parse or is illegal.
    pub fn from_uci(fen: Option<&str>, moves: &[&str]) -> Result<Self, PositionError> {
        let start: Chess = match fen {
            None => Chess::default(),
            Some(text) => text
                .parse::<Fen>()
                .ok()
                .and_then(|f| f.into_position(CastlingMode::Standard).ok())
                .ok_or_else(|| PositionError::Fen(text.to_string()))?,
        };
        let mut game = Game { board: Board::new(start), history: Vec::new() };
        for (i, text) in moves.iter().enumerate() {
            let m = text
                .parse::<UciMove>()
                .ok()
                .and_then(|u| u.to_move(game.board.position()).ok())
                .ok_or_else(|| PositionError::Move(i, (*text).to_string()))?;
            let next = game.board.play(m);
            if next.position().halfmoves() == 0 {
                game.history.clear();
            } else {
                game.history.push(game.board.key());
            }
            game.board = next;
        }
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_holds_reversible_positions_only() {
        let game = Game::from_uci(None, &["e2e4", "e7e5", "g1f3", "b8c6", "f3g1", "c6b8"]).unwrap();
        // After e7e5 (a pawn move) four reversible moves follow.
        assert_eq!(game.history.len(), 4);
        // The final position repeats the one after 1. e4 e5.
        assert_eq!(game.history[0], game.board.key());
    }

    #[test]
    fn bad_input_is_named() {
        assert_eq!(Game::from_uci(None, &["e2e4", "e2e4"]).unwrap_err(), PositionError::Move(1, "e2e4".into()));
        assert!(matches!(Game::from_uci(Some("not a fen"), &[]), Err(PositionError::Fen(_))));
    }
}
