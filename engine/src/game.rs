//! A game as the engine sees it: the current board and the keys of the
//! earlier positions that can still repeat.

use std::fmt;

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

use crate::board::Board;

/// The position to search from, with its repetition history.
#[derive(Clone, Debug)]
pub struct Game {
    /// The current position.
    pub board: Board,
    /// Keys of earlier positions since the last capture or pawn move,
    /// oldest first (the current position is not included).
    pub history: Vec<u64>,
    /// Standard chess, or Chess960 (`UCI_Chess960`): how castling is read
    /// from a FEN and written in UCI.
    pub mode: CastlingMode,
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

impl Default for Game {
    fn default() -> Self {
        Game { board: Board::default(), history: Vec::new(), mode: CastlingMode::Standard }
    }
}

impl Game {
    /// The game after `moves` (UCI notation) from `fen` (start position when
    /// `None`), in standard chess.
    ///
    /// # Errors
    ///
    /// [`PositionError::Fen`] for a bad FEN, [`PositionError::Move`] for the
    /// first move that does not parse or is illegal.
    pub fn from_uci(fen: Option<&str>, moves: &[&str]) -> Result<Self, PositionError> {
        Game::from_uci_in(CastlingMode::Standard, fen, moves)
    }

    /// [`Game::from_uci`] in standard chess or Chess960: in Chess960 the FEN's
    /// castling rights may be Shredder-FEN (rook files, `HAha`) or X-FEN
    /// (`KQkq` for the outermost rooks, files for inner ones), and castling
    /// moves are king takes rook (`e1h1`).
    ///
    /// # Errors
    ///
    /// As [`Game::from_uci`].
    pub fn from_uci_in(mode: CastlingMode, fen: Option<&str>, moves: &[&str]) -> Result<Self, PositionError> {
        let start: Chess = match fen {
            None => Chess::default(),
            Some(text) => text
                .parse::<Fen>()
                .ok()
                .and_then(|f| f.into_position(mode).ok())
                .ok_or_else(|| PositionError::Fen(text.to_string()))?,
        };
        let mut game = Game { board: Board::new(start), history: Vec::new(), mode };
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

    #[test]
    fn chess960_reads_shredder_and_x_fen_and_castles_king_takes_rook() {
        use crate::moves::uci;
        use shakmaty::{Position, Square};
        // The same position with Shredder-FEN (rook files) and X-FEN (KQkq) rights.
        let shredder = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        let x_fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9";
        let a = Game::from_uci_in(CastlingMode::Chess960, Some(shredder), &[]).unwrap();
        let b = Game::from_uci_in(CastlingMode::Chess960, Some(x_fen), &[]).unwrap();
        assert_eq!(a.board.key(), b.board.key());
        // Rooks off the a/h files cannot be read as standard chess.
        assert!(Game::from_uci(Some(shredder), &[]).is_err());
        // King takes rook: O-O puts the king on g1 and the rook on f1.
        let fen = "rnbqk2r/pppppppp/8/8/8/8/PPPPPPPP/RNBQK2R w HAha - 0 1";
        let game = Game::from_uci_in(CastlingMode::Chess960, Some(fen), &["e1h1"]).unwrap();
        let board = game.board.position().board();
        assert_eq!(board.king_of(shakmaty::Color::White), Some(Square::G1));
        assert_eq!(board.role_at(Square::F1), Some(shakmaty::Role::Rook));
        let start = Game::from_uci_in(CastlingMode::Chess960, Some(fen), &[]).unwrap();
        let castle = start.board.position().legal_moves().into_iter().find(|m| m.is_castle()).unwrap();
        assert_eq!(uci(castle, CastlingMode::Chess960), "e1h1");
        assert_eq!(uci(castle, CastlingMode::Standard), "e1g1");
    }
}
