//! Opening books and test positions: built-in sets and EPD / FEN / PGN / SAN loaders.
//!
//! An [`Opening`] is a start position (FEN) plus the moves played from it
//! before the engines take over. A [`Book`] is a named list of openings; a
//! match takes a [`Selection`] of it (order, start index, ply limit).

mod builtin;
pub mod chess960;
pub mod epd;
mod parse;
mod pgn;
pub mod polyglot;
pub mod suites;

use std::path::Path;

use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

pub use builtin::{BUILTIN, builtin, larger_builtin};

/// FEN of the standard starting position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// One opening: a start position and the moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// How castling is written to engines: [`CastlingMode::Chess960`]
    /// (king takes rook, `UCI_Chess960`) when the start position's castling
    /// rights only make sense in Chess960, else standard.
    pub mode: CastlingMode,
    /// A human name (`C60 Ruy Lopez, Morphy Defence`, an EPD `id`, or `book#line`).
    pub name: String,
    /// The position the game starts from (before `moves`).
    pub fen: String,
    /// The opening moves in UCI notation, all legal from `fen`.
    pub moves: Vec<String>,
    /// The same moves in SAN.
    pub san: Vec<String>,
}

impl Opening {
    /// Builds an opening from a FEN and SAN moves, checking every move.
    ///
    /// # Errors
    ///
    /// [`BadLine`] naming the bad FEN or the first illegal or unreadable move.
    pub fn from_san(name: String, fen: &str, san_moves: &[&str]) -> Result<Opening, BadLine> {
        let mut position = position_of(fen)?;
        let mode = position.castles().mode();
        let mut moves = Vec::with_capacity(san_moves.len());
        let mut san = Vec::with_capacity(san_moves.len());
        for (ply, token) in san_moves.iter().enumerate() {
            let parsed: SanPlus = token.parse().map_err(|_| BadLine::NotSan(token.to_string()))?;
            let mv = parsed.san.to_move(&position).map_err(|_| BadLine::Illegal {
                token: token.to_string(),
                ply: ply + 1,
                fen: fen_of(&position),
            })?;
            san.push(SanPlus::from_move(position.clone(), mv).to_string());
            moves.push(UciMove::from_move(mv, mode).to_string());
            position.play_unchecked(mv);
        }
        Ok(Opening { mode, name, fen: normalize_fen(fen)?, moves, san })
    }

    /// The position after the opening moves.
    pub fn end_position(&self) -> Chess {
        play_out(&self.fen, &self.moves)
    }

    /// The opening cut to at most `plies` moves.
    pub fn truncated(&self, plies: usize) -> Opening {
        let mut opening = self.clone();
        opening.moves.truncate(plies);
        opening.san.truncate(plies);
        opening
    }
}

/// Parses a FEN into a legal position, in the castling mode its castling
/// rights need: Chess960 when a right names a rook (Shredder-FEN or X-FEN)
/// or a king and rook that are not on their standard squares, else standard.
///
/// # Errors
///
/// [`BadLine`] when the FEN cannot be read or describes an illegal position.
pub fn position_of(fen: &str) -> Result<Chess, BadLine> {
    let parsed: Fen = fen
        .trim()
        .parse()
        .map_err(|e: shakmaty::fen::ParseFenError| BadLine::Fen { fen: fen.to_string(), problem: e.to_string() })?;
    let mode = CastlingMode::detect(parsed.as_setup());
    parsed.into_position(mode).map_err(|e| BadLine::Position { fen: fen.to_string(), problem: e.to_string() })
}

/// The position after UCI `moves` (either castling notation) from `fen`;
/// a move that does not replay ends the replay, an unreadable FEN starts
/// from the standard position.
pub fn play_out<S: AsRef<str>>(fen: &str, moves: impl IntoIterator<Item = S>) -> Chess {
    let mut position = position_of(fen).unwrap_or_default();
    for uci in moves {
        match uci.as_ref().parse::<UciMove>().ok().and_then(|m| m.to_move(&position).ok()) {
            Some(mv) => position.play_unchecked(mv),
            None => break,
        }
    }
    position
}

/// Whether the position of `fen` needs Chess960 castling (see [`position_of`]);
/// `false` for an unreadable FEN.
pub fn is_chess960(fen: &str) -> bool {
    position_of(fen).is_ok_and(|p| p.castles().mode().is_chess960())
}

/// The FEN of a position.
pub fn fen_of(position: &Chess) -> String {
    Fen::from_position(position, EnPassantMode::Legal).to_string()
}

fn normalize_fen(fen: &str) -> Result<String, BadLine> {
    position_of(fen).map(|p| fen_of(&p))
}

/// A named list of openings: read from a file or built in, or generated
/// on demand (double Fischer random's 921,600 start positions).
#[derive(Clone, Debug)]
pub struct Book {
    /// The built-in name or the file path.
    pub name: String,
    content: Content,
}

#[derive(Clone, Debug)]
enum Content {
    /// The openings in file order.
    Listed(Vec<Opening>),
    /// Every double Fischer random position, in [`chess960::dfrc_pair`] order.
    Dfrc,
    /// A Polyglot book: opening `i` is its weighted walk seeded by `i`.
    Polyglot(polyglot::Polyglot),
}

/// What is wrong with one line of a book or suite (or one PGN game).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadLine {
    /// The FEN cannot be read.
    #[error("bad FEN '{fen}': {problem}")]
    Fen {
        /// The FEN as given.
        fen: String,
        /// What shakmaty found wrong.
        problem: String,
    },
    /// The FEN reads but the position is not legal.
    #[error("illegal position '{fen}': {problem}")]
    Position {
        /// The FEN as given.
        fen: String,
        /// What shakmaty found wrong.
        problem: String,
    },
    /// A token that is no SAN move.
    #[error("'{0}' is not a SAN move")]
    NotSan(String),
    /// A SAN move that is not legal where it is played.
    #[error("'{token}' (ply {ply}) is not legal in {fen}")]
    Illegal {
        /// The move as written.
        token: String,
        /// Its 1-based ply in the line.
        ply: usize,
        /// The position it was to be played in.
        fen: String,
    },
    /// A suite's `bm`/`am` move that is not legal in its position.
    #[error("move '{0}' is not legal in this position")]
    IllegalAnswer(String),
    /// A suite's `dm` that is no positive number.
    #[error("dm needs a positive number, got '{0}'")]
    MateIn(String),
    /// A line of none of the shapes read.
    #[error("{expected}, got '{line}'")]
    Shape {
        /// The shapes a line may have.
        expected: &'static str,
        /// The line, shortened.
        line: String,
    },
}

/// Why a book could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The file could not be read.
    #[error("{path}: cannot read opening file: {source} (give a built-in set: {known}, or a readable EPD/FEN/PGN/SAN file)", known = BUILTIN.join(", "))]
    Io {
        /// The file.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// One line (or PGN game) is malformed.
    #[error("{path}:{line}: {problem}")]
    Parse {
        /// The file.
        path: String,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        problem: BadLine,
    },
    /// A `.bin` file that is no Polyglot book.
    #[error("{path}: not a Polyglot opening book ({problem}); give a Polyglot .bin, or an EPD/FEN/PGN/SAN file")]
    Polyglot {
        /// The file.
        path: String,
        /// What is wrong.
        problem: polyglot::NotPolyglot,
    },
    /// The file holds no opening.
    #[error("{path}: no openings found (expected EPD, FEN, PGN or SAN move lines)")]
    Empty {
        /// The file.
        path: String,
    },
}

impl Book {
    /// A book of `openings` (in this order) named `name`.
    pub(crate) fn new(name: &str, openings: Vec<Opening>) -> Book {
        Book { name: name.to_string(), content: Content::Listed(openings) }
    }

    /// Every double Fischer random start position.
    pub(crate) fn dfrc() -> Book {
        Book { name: "dfrc".into(), content: Content::Dfrc }
    }

    /// How many openings it holds.
    pub fn len(&self) -> usize {
        match &self.content {
            Content::Listed(openings) => openings.len(),
            Content::Dfrc => chess960::DFRC_POSITIONS,
            Content::Polyglot(book) => book.lines(),
        }
    }

    /// Whether it holds no opening (never, for a loaded book).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Opening `index` (wrapping around).
    pub fn get(&self, index: usize) -> Opening {
        match &self.content {
            Content::Listed(openings) => openings[index % openings.len()].clone(),
            Content::Dfrc => chess960::dfrc_opening(index % chess960::DFRC_POSITIONS),
            Content::Polyglot(book) => book.opening(&self.name, index, 0),
        }
    }

    /// The openings in order.
    pub fn iter(&self) -> impl Iterator<Item = Opening> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    /// A built-in set by name, else a file.
    ///
    /// # Errors
    ///
    /// [`Error`] when the file cannot be read or parsed.
    pub fn open(spec: &str) -> Result<Book, Error> {
        match builtin(spec) {
            Some(book) => Ok(book),
            None => Book::load(Path::new(spec)),
        }
    }

    /// Loads a file: a Polyglot book (by `.bin` extension), PGN (by `.pgn`
    /// extension or a leading tag), else one opening per line (EPD, FEN,
    /// `ECO | name | SAN moves`, or SAN moves with optional move numbers).
    /// `#` starts a comment line.
    ///
    /// # Errors
    ///
    /// [`Error`] when the file cannot be read, a line is malformed
    /// (`file:line: what is wrong`), or nothing is found.
    pub fn load(path: &Path) -> Result<Book, Error> {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|source| Error::Io { path: name.clone(), source })?;
        if name.to_ascii_lowercase().ends_with(".bin") {
            let book =
                polyglot::Polyglot::read(&bytes).map_err(|problem| Error::Polyglot { path: name.clone(), problem })?;
            return Ok(Book { name, content: Content::Polyglot(book) });
        }
        let text = String::from_utf8_lossy(&bytes);
        Book::parse(&name, &text)
    }

    /// Parses book text; `name` is used in messages.
    ///
    /// # Errors
    ///
    /// As [`Book::load`].
    pub fn parse(name: &str, text: &str) -> Result<Book, Error> {
        let is_pgn = name.to_ascii_lowercase().ends_with(".pgn") || text.trim_start().starts_with('[');
        let openings = if is_pgn { pgn::parse_games(name, text)? } else { parse::parse_lines(name, text)? };
        if openings.is_empty() {
            return Err(Error::Empty { path: name.to_string() });
        }
        Ok(Book::new(name, openings))
    }

    /// Takes `count` openings according to `selection` (wrapping around the
    /// book). A Polyglot book gives its walks from `selection.start` on
    /// (seeded by `random_seed` too), each line once while the book has new
    /// ones within a bounded number of tries.
    pub fn select(&self, selection: &Selection, count: usize) -> Vec<Opening> {
        if let Content::Polyglot(book) = &self.content {
            let seed = selection.random_seed.unwrap_or(0);
            let walks = (selection.start..).map(|i| book.opening(&self.name, i, seed));
            let mut seen = std::collections::HashSet::new();
            let mut distinct: Vec<Opening> =
                walks.take(count.saturating_mul(50)).filter(|o| seen.insert(o.moves.clone())).take(count).collect();
            let lines = distinct.len().max(1);
            for i in distinct.len()..count {
                distinct.push(distinct[i % lines].clone());
            }
            return distinct.into_iter().map(|o| selection.max_plies.map_or(o.clone(), |p| o.truncated(p))).collect();
        }
        let mut order: Vec<usize> = (0..self.len()).collect();
        if let Some(seed) = selection.random_seed {
            fastrand::Rng::with_seed(seed).shuffle(&mut order);
        }
        (0..count)
            .map(|i| {
                let opening = self.get(order[(selection.start + i) % order.len()]);
                match selection.max_plies {
                    Some(plies) => opening.truncated(plies),
                    None => opening,
                }
            })
            .collect()
    }
}

/// How openings are taken from a book.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// Shuffle with this seed; `None` keeps file order.
    pub random_seed: Option<u64>,
    /// Index of the first opening (after shuffling).
    pub start: usize,
    /// Cut each opening to at most this many plies.
    pub max_plies: Option<usize>,
}
