//! Moves and PV words as indices among the legal moves, for
//! [`crate::packed`]: the positions along a game, replayed from its start,
//! turn each move and PV word into one byte (its rank among the position's
//! legal moves in an [`Order`]) where a token takes two and compresses
//! worse. A word is indexed only when the move at that index prints back as
//! the very word, so what is read is always what was written; any other
//! keeps its token.

use crate::pack_error::PackError;
use shakmaty::{CastlingMode, Chess, Color, File, Move, Position, Role, Square, fen::Fen};

/// How a position's legal moves are ranked for their indices. Stored
/// values depend on it: an order, once written, never changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Order {
    /// By packed UCI code ([`crate::uci_code`]): packed format 2.
    Code,
    /// The moves an engine most often plays first ([`likelihood`]), ties by
    /// packed UCI code: packed format 3. On 20 games of Stockfish at
    /// 10+0.1 (28,000 PV words) it took the words from 5.14 bits each to
    /// 4.66 (order-0 entropy; 18 % of them first).
    Likely,
}

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
pub(crate) fn mode_of(byte: u8) -> Result<Option<CastlingMode>, PackError> {
    match byte {
        0 => Ok(None),
        1 => Ok(Some(CastlingMode::Standard)),
        2 => Ok(Some(CastlingMode::Chess960)),
        other => {
            Err(PackError::Inconsistent(format!("with castling notation {other}, which this arena does not know")))
        }
    }
}

/// The position before each of a game's moves in turn, while the moves can
/// be played (none after a move that is not legal, or from a start that
/// cannot be set up).
pub(crate) struct Walk {
    position: Option<Chess>,
    mode: CastlingMode,
    order: Order,
}

impl Walk {
    /// The position after `start`'s opening, in castling notation `mode`,
    /// its moves ranked in `order`.
    pub(crate) fn new(start: Start<'_>, mode: CastlingMode, order: Order) -> Walk {
        let position = start.fen.parse::<Fen>().ok().and_then(|fen| fen.into_position::<Chess>(mode).ok());
        let mut walk = Walk { position, mode, order };
        for word in start.opening {
            walk.play(word);
        }
        walk
    }

    /// No positions: every PV is read as tokens.
    pub(crate) fn none() -> Walk {
        Walk { position: None, mode: CastlingMode::Standard, order: Order::Code }
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
        let found = self.position.as_ref().and_then(|position| find(position, self.mode, word));
        match (found, &mut self.position) {
            (Some(m), Some(position)) => position.play_unchecked(m),
            _ => self.position = None,
        }
    }

    /// The index of `word` among the legal moves here; `None` when it is
    /// not a legal move written in this notation.
    pub(crate) fn index(&self, word: &str) -> Option<u8> {
        Some(index_of(self.position.as_ref()?, self.mode, self.order, word)?.0)
    }

    /// Each word's index among the legal moves, played one after another
    /// from here; `None` when a word is not a legal move written in this
    /// notation.
    pub(crate) fn indices(&self, words: &[&str]) -> Option<Vec<u8>> {
        let mut position = self.position.clone()?;
        let mut out = Vec::with_capacity(words.len());
        for word in words {
            let (index, m) = index_of(&position, self.mode, self.order, word)?;
            out.push(index);
            position.play_unchecked(m);
        }
        Some(out)
    }

    /// The packed UCI code of the legal move of index `index` here.
    pub(crate) fn code(&self, index: u8) -> Result<u16, PackError> {
        let position = self.position.as_ref().ok_or("a move indexed in a position its game does not reach")?;
        Ok(nth(position, self.mode, self.order, index)?.0)
    }

    /// The words of `indices`, played one after another from here, each
    /// appended to `out` after a space (none before the first word of an
    /// empty `out`).
    pub(crate) fn push_words(&self, indices: &[u8], out: &mut String) -> Result<(), PackError> {
        let mut position = self.position.clone().ok_or("a PV indexed from a position its game does not reach")?;
        for &index in indices {
            let (code, m) = nth(&position, self.mode, self.order, index)?;
            if !out.is_empty() {
                out.push(' ');
            }
            crate::uci_code::push_text(out, code)?;
            position.play_unchecked(m);
        }
        Ok(())
    }
}

/// The legal move of `position` written `word`.
fn find(position: &Chess, mode: CastlingMode, word: &str) -> Option<Move> {
    let code = crate::uci_code::code(word)?;
    position.legal_moves().into_iter().find(|m| code_of(m, mode) == code)
}

/// The index of `word` among the legal moves of `position` ranked in
/// `order`, and the move.
fn index_of(position: &Chess, mode: CastlingMode, order: Order, word: &str) -> Option<(u8, Move)> {
    let code = crate::uci_code::code(word)?;
    let moves = position.legal_moves();
    let m = *moves.iter().find(|m| code_of(m, mode) == code)?;
    let key = rank_key(position, &m, code, order);
    // Fewer than 256 legal moves in any position (218 at most); keys are
    // distinct, as codes are.
    let below = moves.iter().filter(|other| rank_key(position, other, code_of(other, mode), order) < key).count();
    Some((below as u8, m))
}

/// The legal move of index `index` in `position` ranked in `order`, with
/// its packed UCI code (a move generation per PV word read: the keys are
/// kept on the stack).
fn nth(position: &Chess, mode: CastlingMode, order: Order, index: u8) -> Result<(u16, Move), PackError> {
    let moves = position.legal_moves();
    let mut keys = [0; 256];
    let keys = &mut keys[..moves.len()];
    for (key, m) in keys.iter_mut().zip(&moves) {
        *key = rank_key(position, m, code_of(m, mode), order);
    }
    let i = usize::from(index);
    if i >= keys.len() {
        return Err(PackError::NoSuchMove { index, legal: keys.len() });
    }
    let key = *keys.select_nth_unstable(i).1;
    // The low half of a key is the move's code, distinct among the moves.
    let code = (key & 0xFFFF) as u16;
    let m = moves.iter().find(|m| code_of(m, mode) == code).ok_or("a legal move lost its code")?;
    Ok((code, *m))
}

/// Where move `m` (of packed UCI code `code`) ranks in `order`: lower first.
fn rank_key(position: &Chess, m: &Move, code: u16, order: Order) -> u32 {
    match order {
        Order::Code => u32::from(code),
        Order::Likely => (LIKELIEST - likelihood(position, m)) << 16 | u32::from(code),
    }
}

/// Above every [`likelihood`].
const LIKELIEST: u32 = 4096;

/// How likely an engine is to play `m` (higher first), from what a move
/// orderer sees without searching: captures first, the most valuable victim
/// first and then the least valuable attacker (MVV-LVA), promotions by
/// their piece, then quiet moves by how much they bring a piece forward
/// (pawns), to the centre (minor pieces, the queen half as much) or the
/// king to safety (castling). Part of packed format 3: never changed.
fn likelihood(position: &Chess, m: &Move) -> u32 {
    const BASE: i32 = 100;
    let value = |role: Role| match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 20,
    };
    let mut score = BASE;
    if let Some(victim) = m.capture() {
        score += 1000 + 10 * value(victim) - value(m.role());
    }
    if let Some(piece) = m.promotion() {
        score += 100 * value(piece);
    }
    if m.capture().is_none()
        && let Some(from) = m.from()
    {
        let to = m.to();
        let centre =
            |sq: Square| -((2 * i32::from(sq.file() as u8) - 7).abs() + (2 * i32::from(sq.rank() as u8) - 7).abs());
        let forward = |sq: Square| match position.turn() {
            Color::White => i32::from(sq.rank() as u8),
            Color::Black => 7 - i32::from(sq.rank() as u8),
        };
        score += match m.role() {
            Role::King if m.is_castle() => 6,
            Role::King => -2,
            Role::Pawn => 2 * (forward(to) - forward(from)),
            Role::Knight | Role::Bishop => centre(to) - centre(from),
            Role::Queen => (centre(to) - centre(from)) / 2,
            Role::Rook => 0,
        };
    }
    // Between 86 (a knight from the centre to a corner) and 2,090 (a
    // pawn taking a queen as it promotes to one).
    score.clamp(0, LIKELIEST as i32 - 1) as u32
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
        let words = ["g1f3", "b8c6", "f1c4", "g8f6", "e1g1", "f6e4", "b1c3", "e4c3", "d2c3"];
        for order in [Order::Code, Order::Likely] {
            let walk = Walk::new(Start { fen: START, opening: &opening }, CastlingMode::Standard, order);
            let indices = walk.indices(&words).unwrap();
            let mut out = String::new();
            walk.push_words(&indices, &mut out).unwrap();
            assert_eq!(out, words.join(" "));
        }
        // Ranked by likelihood, captures come first (bxc3 before dxc3 by code).
        let walk = Walk::new(Start { fen: START, opening: &opening }, CastlingMode::Standard, Order::Likely);
        assert_eq!(walk.indices(&words).unwrap()[5..], [0, 2, 0, 1]);
        let walk = Walk::new(Start { fen: START, opening: &opening }, CastlingMode::Standard, Order::Likely);
        let mut out = String::new();
        // Illegal, or castling written the other way, or not a move: no indices.
        assert!(walk.indices(&["g1f3", "e7e5"]).is_none());
        assert!(
            Walk::new(Start { fen: START, opening: &opening }, CastlingMode::Chess960, Order::Likely)
                .indices(&["g1f3", "b8c6", "f1c4", "g8f6", "e1g1"])
                .is_none()
        );
        assert!(walk.indices(&["0000"]).is_none());
        assert!(walk.push_words(&[250], &mut out).is_err());
    }

    #[test]
    fn promotions_keep_their_piece() {
        let fen = "8/P6k/8/8/8/8/8/K7 w - - 0 1";
        let walk = Walk::new(Start { fen, opening: &[] }, CastlingMode::Standard, Order::Likely);
        for word in ["a7a8q", "a7a8r", "a7a8b", "a7a8n"] {
            let mut out = String::new();
            walk.push_words(&walk.indices(&[word]).unwrap(), &mut out).unwrap();
            assert_eq!(out, word);
        }
    }

    #[test]
    fn a_start_that_cannot_be_set_up_knows_no_position() {
        let walk = Walk::new(Start { fen: "not a fen", opening: &[] }, CastlingMode::Standard, Order::Likely);
        assert!(!walk.known());
        assert!(walk.indices(&["e2e4"]).is_none());
        let mut walk =
            Walk::new(Start { fen: START, opening: &["e2e5".to_string()] }, CastlingMode::Standard, Order::Likely);
        assert!(!walk.known());
        walk.play("e2e4");
        assert!(!walk.known());
    }
}
