//! Polyglot opening books (`.bin`), as cutechess-cli plays them
//! (`-each book=FILE bookdepth=N`): from the start position, a move of the
//! position's entries chosen at random in proportion to its weight, ply
//! after ply, until the position is out of book or the depth is reached.
//!
//! The format (Polyglot's `book_format.html`, also python-chess's
//! `chess.polyglot`): 16-byte big-endian entries sorted by key, each a
//! 64-bit position key, a 16-bit move (to file, to rank, from file, from
//! rank, promotion piece, 3 bits each from the low end; castling written as
//! the king taking its rook), a 16-bit weight and a 32-bit learn field. The
//! key is Polyglot's Zobrist hash, which shakmaty's [`Zobrist64`] computes
//! with [`EnPassantMode::PseudoLegal`] (the start position hashes to
//! `0x463b96181691fc9c`).
//!
//! A book here is a list of openings like any other: opening `i` is the
//! walk whose random choices are seeded by `i`, so a plan names the same
//! line wherever it is played, and both games of a pair play it.

use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position, Role, Square};

use crate::{Opening, START_FEN};

/// Plies a walk goes at most (cutechess's `bookdepth` is unlimited by
/// default; `--plies` cuts shorter).
pub const MAX_PLIES: usize = 64;

/// Distinct lines counted at most when a book is opened: a book's size as a
/// count of openings, for planning.
const LINES_COUNTED: usize = 1_000_000;

/// One entry: a move of the position with this key, and its weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    key: u64,
    raw_move: u16,
    weight: u16,
}

/// A Polyglot book, read whole.
#[derive(Clone, Debug)]
pub struct Polyglot {
    entries: Vec<Entry>,
    /// Distinct lines from the start position (at most [`LINES_COUNTED`]).
    lines: usize,
}

/// The Polyglot key of `position`.
pub fn key(position: &Chess) -> u64 {
    position.zobrist_hash::<Zobrist64>(EnPassantMode::PseudoLegal).0
}

/// What makes bytes no Polyglot book.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotPolyglot {
    /// The length is no multiple of an entry's 16 bytes (or zero).
    #[error("{0} bytes is not a whole number of 16-byte Polyglot entries")]
    Length(usize),
    /// Entries are not sorted by key.
    #[error("entry {0} is out of key order: not a Polyglot book")]
    Order(usize),
    /// The start position has no move.
    #[error("no move for the start position: not a Polyglot book of standard chess")]
    NoStart,
}

impl Polyglot {
    /// Reads a book from its bytes.
    ///
    /// # Errors
    ///
    /// What makes the bytes no Polyglot book: a length that is not a
    /// multiple of 16, entries out of key order, or no entry for the start
    /// position.
    pub fn read(bytes: &[u8]) -> Result<Polyglot, NotPolyglot> {
        if bytes.is_empty() || !bytes.len().is_multiple_of(16) {
            return Err(NotPolyglot::Length(bytes.len()));
        }
        let entries: Vec<Entry> = bytes
            .chunks_exact(16)
            .map(|e| Entry {
                key: u64::from_be_bytes([e[0], e[1], e[2], e[3], e[4], e[5], e[6], e[7]]),
                raw_move: u16::from_be_bytes([e[8], e[9]]),
                weight: u16::from_be_bytes([e[10], e[11]]),
            })
            .collect();
        if let Some(i) = entries.windows(2).position(|w| w[0].key > w[1].key) {
            return Err(NotPolyglot::Order(i + 2));
        }
        let mut book = Polyglot { entries, lines: 0 };
        if book.moves(&Chess::default()).is_empty() {
            return Err(NotPolyglot::NoStart);
        }
        book.lines = book.count_lines(&Chess::default(), 0, LINES_COUNTED);
        Ok(book)
    }

    /// Distinct lines from the start position, at most a million.
    pub fn lines(&self) -> usize {
        self.lines
    }

    /// The legal book moves of `position` with their weights (a move of
    /// weight 0 is never chosen, as in cutechess).
    fn moves(&self, position: &Chess) -> Vec<(Move, u32)> {
        let key = key(position);
        let first = self.entries.partition_point(|e| e.key < key);
        self.entries[first..]
            .iter()
            .take_while(|e| e.key == key)
            .filter(|e| e.weight > 0)
            .filter_map(|e| Some((decode(position, e.raw_move)?, u32::from(e.weight))))
            .collect()
    }

    /// Lines below `position` (one when it is out of book or at the depth),
    /// counted up to `left`.
    fn count_lines(&self, position: &Chess, ply: usize, left: usize) -> usize {
        let moves = if ply < MAX_PLIES { self.moves(position) } else { Vec::new() };
        if moves.is_empty() {
            return 1;
        }
        let mut total = 0;
        for (mv, _) in moves {
            if total >= left {
                break;
            }
            let mut next = position.clone();
            next.play_unchecked(mv);
            total += self.count_lines(&next, ply + 1, left - total);
        }
        total.min(left)
    }

    /// Opening `index`: the weighted walk seeded by `index` and `seed`,
    /// named after the book and the index.
    pub fn opening(&self, name: &str, index: usize, seed: u64) -> Opening {
        let mut rng =
            fastrand::Rng::with_seed((index as u64 ^ 0x706f_6c79_676c_6f74).wrapping_add(seed.rotate_left(32)));
        let mut position = Chess::default();
        let (mut moves, mut san) = (Vec::new(), Vec::new());
        while moves.len() < MAX_PLIES {
            let choices = self.moves(&position);
            let total: u32 = choices.iter().map(|(_, w)| w).sum();
            if total == 0 {
                break;
            }
            let mut pick = rng.u32(0..total);
            let Some(&(mv, _)) = choices.iter().find(|(_, w)| {
                let here = pick < *w;
                pick = pick.saturating_sub(*w);
                here
            }) else {
                break;
            };
            san.push(SanPlus::from_move(position.clone(), mv).to_string());
            moves.push(UciMove::from_move(mv, CastlingMode::Standard).to_string());
            position.play_unchecked(mv);
        }
        Opening {
            mode: CastlingMode::Standard,
            name: format!("{name}#{}", index + 1),
            fen: START_FEN.into(),
            moves,
            san,
        }
    }
}

/// The legal move of `position` that Polyglot's `raw` names, if any.
fn decode(position: &Chess, raw: u16) -> Option<Move> {
    let square =
        |file: u16, rank: u16| Square::from_coords(shakmaty::File::new(file.into()), shakmaty::Rank::new(rank.into()));
    let to = square(raw & 7, (raw >> 3) & 7);
    let from = square((raw >> 6) & 7, (raw >> 9) & 7);
    let promotion = match (raw >> 12) & 7 {
        0 => None,
        1 => Some(Role::Knight),
        2 => Some(Role::Bishop),
        3 => Some(Role::Rook),
        4 => Some(Role::Queen),
        _ => return None,
    };
    position.legal_moves().into_iter().find(|m| {
        let target = match m {
            // Polyglot writes castling as the king taking its rook, as shakmaty does.
            Move::Castle { rook, .. } => *rook,
            _ => m.to(),
        };
        m.from() == Some(from) && target == to && m.promotion() == promotion
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: u64, raw_move: u16, weight: u16) -> [u8; 16] {
        let mut bytes = [0; 16];
        bytes[..8].copy_from_slice(&key.to_be_bytes());
        bytes[8..10].copy_from_slice(&raw_move.to_be_bytes());
        bytes[10..12].copy_from_slice(&weight.to_be_bytes());
        bytes
    }

    /// e2e4 and d2d4 (Polyglot: to file, to rank, from file, from rank).
    const E2E4: u16 = 4 | (3 << 3) | (4 << 6) | (1 << 9);
    const D2D4: u16 = 3 | (3 << 3) | (3 << 6) | (1 << 9);

    #[test]
    fn the_start_position_has_polyglots_key() {
        assert_eq!(key(&Chess::default()), 0x463b_9618_1691_fc9c);
    }

    #[test]
    fn a_walk_follows_the_weights_and_a_damaged_book_is_named() {
        let start = key(&Chess::default());
        let bytes = [entry(start, E2E4, 3), entry(start, D2D4, 1)].concat();
        let book = Polyglot::read(&bytes).unwrap();
        assert_eq!(book.lines(), 2);
        let firsts: Vec<String> = (0..400).map(|i| book.opening("b.bin", i, 0).moves[0].clone()).collect();
        let e4 = firsts.iter().filter(|m| *m == "e2e4").count();
        assert!((240..360).contains(&e4), "3:1 weights gave {e4} of 400");
        assert_eq!(book.opening("b.bin", 7, 1), book.opening("b.bin", 7, 1), "a line per index and seed");
        assert_eq!(Polyglot::read(&bytes[..20]).unwrap_err(), NotPolyglot::Length(20));
        let unsorted = [entry(start, E2E4, 1), entry(1, D2D4, 1)].concat();
        assert_eq!(Polyglot::read(&unsorted).unwrap_err(), NotPolyglot::Order(2));
        assert_eq!(Polyglot::read(&entry(1, E2E4, 1)).unwrap_err(), NotPolyglot::NoStart);
    }
}
