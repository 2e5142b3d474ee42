//! Moves and PV words as indices among the legal moves, for
//! [`crate::packed`]: the positions along a game, replayed from its start,
//! turn each move and PV word into one byte (its rank among the position's
//! legal moves, ordered by their UCI code, [`crate::uci_code`]) where a
//! token takes two and compresses worse. A word is indexed only when the
//! move at that index prints back as the very word, so what is read is
//! always what was written; any other keeps its token.

use shakmaty::{CastlingMode, Chess, File, Move, Position, Square, fen::Fen};

/// Where a game's moves start: the position before the opening, and the
/// opening's moves in UCI.
#[derive(Clone, Copy)]
pub(crate) struct Start<'a> {
    pub(crate) fen: &'a str,
    pub(crate) opening: &'a [String],
}

impl<'a> Start<'a> {
    /// Where `game`'s moves start.
    pub(crate) fn of(game: &'a model::GameRecord) -> Start<'a> {
        Start { fen: &game.start_fen, opening: &game.opening_moves }
    }
}

/// The castling notation the positions' moves are written in, as stored in
/// a packed value's payload (0: no positions, PVs are tokens).
pub(crate) fn mode_byte(mode: Option<CastlingMode>) -> u8 {
    match mode {
        None => 0,
        Some(CastlingMode::Standard) => 1,
        Some(CastlingMode::Chess960) => 2,
    }
}

/// The castling notation of a stored mode byte.
pub(crate) fn mode_of(byte: u8) -> Result<Option<CastlingMode>, String> {
    match byte {
        0 => Ok(None),
        1 => Ok(Some(CastlingMode::Standard)),
        2 => Ok(Some(CastlingMode::Chess960)),
        other => Err(format!("packed moves with castling notation {other}, which this arena does not know")),
    }
}

/// The position before each of a game's moves in turn, while the moves can
/// be played (none after a move that is not legal, or from a start that
/// cannot be set up).
pub(crate) struct Walk {
    position: Option<Chess>,
    mode: CastlingMode,
}

impl Walk {
    /// The position after `start`'s opening, in castling notation `mode`.
    pub(crate) fn new(start: Start<'_>, mode: CastlingMode) -> Walk {
        let position = start.fen.parse::<Fen>().ok().and_then(|fen| fen.into_position::<Chess>(mode).ok());
        let mut walk = Walk { position, mode };
        for word in start.opening {
            walk.play(word);
        }
        walk
    }

    /// No positions: every PV is read as tokens.
    pub(crate) fn none() -> Walk {
        Walk { position: None, mode: CastlingMode::Standard }
    }

    /// The castling notation of the moves.
    pub(crate) fn mode(&self) -> CastlingMode {
        self.mode
    }

    /// Whether a position is known here.
    pub(crate) fn known(&self) -> bool {
        self.position.is_some()
    }

    /// Plays `word`; the positions end when it is no legal move here.
    pub(crate) fn play(&mut self, word: &str) {
        let found = self.position.as_ref().and_then(|position| index_of(position, self.mode, word));
        match (found, &mut self.position) {
            (Some((_, m)), Some(position)) => position.play_unchecked(m),
            _ => self.position = None,
        }
    }

    /// The index of `word` among the legal moves here; `None` when it is
    /// not a legal move written in this notation.
    pub(crate) fn index(&self, word: &str) -> Option<u8> {
        Some(index_of(self.position.as_ref()?, self.mode, word)?.0)
    }

    /// Each word's index among the legal moves, played one after another
    /// from here; `None` when a word is not a legal move written in this
    /// notation.
    pub(crate) fn indices(&self, words: &[&str]) -> Option<Vec<u8>> {
        let mut position = self.position.clone()?;
        let mut out = Vec::with_capacity(words.len());
        for word in words {
            let (index, m) = index_of(&position, self.mode, word)?;
            out.push(index);
            position.play_unchecked(m);
        }
        Some(out)
    }

    /// The packed UCI code of the legal move of index `index` here.
    pub(crate) fn code(&self, index: u8) -> Result<u16, String> {
        let position = self.position.as_ref().ok_or("a move indexed in a position its game does not reach")?;
        Ok(nth(position, self.mode, index)?.0)
    }

    /// The words of `indices`, played one after another from here, each
    /// appended to `out` after a space (none before the first word of an
    /// empty `out`).
    pub(crate) fn push_words(&self, indices: &[u8], out: &mut String) -> Result<(), String> {
        let mut position = self.position.clone().ok_or("a PV indexed from a position its game does not reach")?;
        for &index in indices {
            let (code, m) = nth(&position, self.mode, index)?;
            if !out.is_empty() {
                out.push(' ');
            }
            crate::uci_code::push_text(out, code)?;
            position.play_unchecked(m);
        }
        Ok(())
    }
}

/// The index of `word` among the legal moves of `position`, in the order
/// of their packed UCI codes, and the move.
fn index_of(position: &Chess, mode: CastlingMode, word: &str) -> Option<(u8, Move)> {
    let code = crate::uci_code::code(word)?;
    let mut found = None;
    // Fewer than 256 legal moves in any position (218 at most).
    let mut below = 0u8;
    for m in &position.legal_moves() {
        match code_of(m, mode) {
            c if c == code => found = Some(*m),
            c if c < code => below += 1,
            _ => {}
        }
    }
    found.map(|m| (below, m))
}

/// The legal move of index `index` in `position`, with its packed UCI code
/// (a move generation per PV word read: the codes are kept on the stack).
fn nth(position: &Chess, mode: CastlingMode, index: u8) -> Result<(u16, Move), String> {
    let moves = position.legal_moves();
    let mut codes = [0; 256];
    let codes = &mut codes[..moves.len()];
    for (code, m) in codes.iter_mut().zip(&moves) {
        *code = code_of(m, mode);
    }
    let i = usize::from(index);
    if i >= codes.len() {
        return Err(format!("move {index} of {} legal moves", codes.len()));
    }
    let code = *codes.select_nth_unstable(i).1;
    // Codes are distinct, so the move found is the one of that code.
    let m = moves.iter().find(|m| code_of(m, mode) == code).ok_or("a legal move lost its code")?;
    Ok((code, *m))
}

/// A move's packed UCI code (as [`crate::uci_code::code`] reads its
/// text) in castling notation `mode`: a castling move is the king's move in
/// standard notation, the king taking its rook in Chess960's.
fn code_of(m: &Move, mode: CastlingMode) -> u16 {
    let (from, to, promotion) = match *m {
        Move::Normal { from, to, promotion, .. } => (from, to, promotion),
        Move::EnPassant { from, to } => (from, to, None),
        Move::Castle { king, rook } => {
            let to = match mode {
                CastlingMode::Chess960 => rook,
                CastlingMode::Standard => {
                    let file = if king < rook { File::G } else { File::C };
                    Square::from_coords(file, king.rank())
                }
            };
            (king, to, None)
        }
        // No drops in standard chess: a code no word packs to.
        Move::Put { .. } => return u16::MAX,
    };
    let promotion = promotion.map_or(0, |role| u16::from(role as u8) - 1);
    u16::from(from) | u16::from(to) << 6 | promotion << 12
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn indices_read_back_as_the_words() {
        let opening = ["e2e4".to_string(), "e7e5".to_string()];
        let walk = Walk::new(Start { fen: START, opening: &opening }, CastlingMode::Standard);
        let words = ["g1f3", "b8c6", "f1c4", "g8f6", "e1g1"];
        let indices = walk.indices(&words).unwrap();
        let mut out = String::new();
        walk.push_words(&indices, &mut out).unwrap();
        assert_eq!(out, words.join(" "));
        // Illegal, or castling written the other way, or not a move: no indices.
        assert!(walk.indices(&["g1f3", "e7e5"]).is_none());
        assert!(
            Walk::new(Start { fen: START, opening: &opening }, CastlingMode::Chess960)
                .indices(&["g1f3", "b8c6", "f1c4", "g8f6", "e1g1"])
                .is_none()
        );
        assert!(walk.indices(&["0000"]).is_none());
        assert!(walk.push_words(&[250], &mut out).is_err());
    }

    #[test]
    fn promotions_keep_their_piece() {
        let fen = "8/P6k/8/8/8/8/8/K7 w - - 0 1";
        let walk = Walk::new(Start { fen, opening: &[] }, CastlingMode::Standard);
        for word in ["a7a8q", "a7a8r", "a7a8b", "a7a8n"] {
            let mut out = String::new();
            walk.push_words(&walk.indices(&[word]).unwrap(), &mut out).unwrap();
            assert_eq!(out, word);
        }
    }

    #[test]
    fn a_start_that_cannot_be_set_up_knows_no_position() {
        let walk = Walk::new(Start { fen: "not a fen", opening: &[] }, CastlingMode::Standard);
        assert!(!walk.known());
        assert!(walk.indices(&["e2e4"]).is_none());
        let mut walk = Walk::new(Start { fen: START, opening: &["e2e5".to_string()] }, CastlingMode::Standard);
        assert!(!walk.known());
        walk.play("e2e4");
        assert!(!walk.known());
    }
}
