//! Games played elsewhere (`arena import`): PGN files as cutechess-cli,
//! fastchess and rating lists write them, read into game records, and
//! paired as those tools play them: two consecutive games on one opening
//! with colours reversed. Moves are replayed with shakmaty, so an illegal
//! or unreadable game is skipped with its file and line named; the rest
//! are kept. A move's comment in the tools' form (`{+0.25/12 0.512s}`,
//! `{book}`) gives its score, depth and time; `{book}` moves are the
//! opening.

use std::collections::{HashMap, VecDeque};
use std::ops::ControlFlow;

use model::{GameRecord, GameResult, MoveRecord, Termination};
use pgn_reader::{RawComment, RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

/// The machine an imported game is said to be played on.
pub const MACHINE: &str = "imported";

/// A game read from a file.
#[derive(Clone, Debug)]
pub struct ImportedGame {
    /// The game.
    pub record: GameRecord,
    /// Where it starts: `FILE:LINE`.
    pub at: String,
    /// Its `Round` tag in the form `N.K` (arena's and cutechess's for the
    /// K-th game of round N): the games of a pair share N.
    pub round: Option<Round>,
}

/// A `Round` tag `N.K`: round N, its K-th game.
pub type Round = (u64, u64);

/// What a file holds.
#[derive(Debug, Default)]
pub struct Reading {
    /// Games that could be read, in file order.
    pub games: Vec<ImportedGame>,
    /// One line per game that could not: where, and why.
    pub skipped: Vec<String>,
}

/// Reads the games of PGN `text`, named `name` in messages.
pub fn read(name: &str, text: &str) -> Reading {
    let mut reading = Reading::default();
    for (line, chunk) in chunks(text) {
        let at = format!("{name}:{line}");
        match read_game(chunk) {
            Ok(Some((record, round))) => reading.games.push(ImportedGame { record, at, round }),
            Ok(None) => {}
            Err(problem) => reading.skipped.push(format!("{at}: {problem}")),
        }
    }
    reading
}

/// The games of a PGN text, each with its first line's number: a game
/// starts at a tag line that follows move text.
fn chunks(text: &str) -> Vec<(usize, &str)> {
    let mut starts: Vec<(usize, usize)> = Vec::new();
    let (mut offset, mut in_moves) = (0, true);
    for (number, line) in text.split_inclusive('\n').enumerate() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            if in_moves {
                starts.push((number + 1, offset));
            }
            in_moves = false;
        } else if !trimmed.is_empty() {
            in_moves = true;
        }
        offset += line.len();
    }
    let ends = starts.iter().skip(1).map(|&(_, at)| at).chain(std::iter::once(text.len()));
    starts.iter().zip(ends).map(|(&(line, start), end)| (line, &text[start..end])).collect()
}

/// What the visitor collects of one game.
struct Collected {
    tags: Vec<(String, String)>,
    position: Chess,
    start_fen: String,
    moves: Vec<(MoveRecord, Option<String>)>,
    last_comment: Option<String>,
    problem: Option<Unimportable>,
}

/// Why one game of a PGN file is left out of an import.
#[derive(Debug, thiserror::Error)]
enum Unimportable {
    /// pgn-reader could not read the text.
    #[error("cannot be read ({0})")]
    Unreadable(std::io::Error),
    /// The FEN tag is no legal position.
    #[error("its FEN tag '{0}' is no legal position")]
    Fen(String),
    /// A move that is not legal where it stands (its move number and SAN).
    #[error("move {0} ({1}) is not legal there")]
    Illegal(usize, String),
    /// No White or no Black tag.
    #[error("it has no White or Black tag")]
    NoPlayers,
    /// White and Black are one engine, or unnamed.
    #[error("White and Black are '{0}' and '{1}': a game needs two named engines")]
    SamePlayers(String, String),
    /// No Result tag.
    #[error("it has no Result tag")]
    NoResult,
    /// A result of a game not finished.
    #[error("its result '{0}' is no finished game's (1-0, 0-1 or 1/2-1/2)")]
    Unfinished(String),
    /// The result contradicts the mate on the board.
    #[error("its result disagrees with the final position (a mate)")]
    MateDisagrees,
}

struct Collect;

impl Visitor for Collect {
    type Tags = Vec<(String, String)>;
    type Movetext = Collected;
    type Output = Result<Collected, Unimportable>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(Vec::new())
    }

    fn tag(&mut self, tags: &mut Self::Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<Self::Output> {
        tags.push((String::from_utf8_lossy(name).into_owned(), value.decode_utf8_lossy().into_owned()));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        let tag = |name: &str| tags.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.clone());
        let chess960 = tag("Variant").is_some_and(|v| v.contains("960") || v.to_ascii_lowercase().contains("fischer"));
        let mode = if chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard };
        let position = match tag("FEN") {
            Some(fen) => match fen.parse::<Fen>().ok().and_then(|f| f.into_position::<Chess>(mode).ok()) {
                Some(position) => position,
                None => return ControlFlow::Break(Err(Unimportable::Fen(fen))),
            },
            None => Chess::default(),
        };
        let start_fen = Fen::from_position(&position, EnPassantMode::Legal).to_string();
        ControlFlow::Continue(Collected {
            tags,
            position,
            start_fen,
            moves: Vec::new(),
            last_comment: None,
            problem: None,
        })
    }

    fn san(&mut self, game: &mut Self::Movetext, san: SanPlus) -> ControlFlow<Self::Output> {
        let Ok(chess_move) = san.san.to_move(&game.position) else {
            let ply = game.moves.len() + 1;
            game.problem = Some(Unimportable::Illegal(ply.div_ceil(2), san.to_string()));
            return ControlFlow::Continue(());
        };
        let uci = chess_move.to_uci(CastlingMode::Standard).to_string();
        let record = MoveRecord { uci, san: san.to_string(), ..MoveRecord::default() };
        game.position.play_unchecked(chess_move);
        game.moves.push((record, None));
        game.last_comment = None;
        ControlFlow::Continue(())
    }

    fn comment(&mut self, game: &mut Self::Movetext, comment: RawComment<'_>) -> ControlFlow<Self::Output> {
        let text = String::from_utf8_lossy(comment.as_bytes()).trim().to_string();
        if let Some((_, said)) = game.moves.last_mut().filter(|(_, said)| said.is_none()) {
            *said = Some(text.clone());
        }
        game.last_comment = Some(text);
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _game: &mut Self::Movetext) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn end_game(&mut self, mut game: Self::Movetext) -> Self::Output {
        match game.problem.take() {
            Some(problem) => Err(problem),
            None => Ok(game),
        }
    }
}

/// One game's text as a record; `None` for text without a game (a file's
/// trailing blank lines).
fn read_game(text: &str) -> Result<Option<(GameRecord, Option<Round>)>, Unimportable> {
    let mut reader = Reader::new(text.as_bytes());
    let game = match reader.read_game(&mut Collect) {
        Ok(Some(game)) => game?,
        Ok(None) => return Ok(None),
        Err(e) => return Err(Unimportable::Unreadable(e)),
    };
    let tag = |name: &str| game.tags.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str());
    let (Some(white), Some(black)) = (tag("White"), tag("Black")) else {
        return Err(Unimportable::NoPlayers);
    };
    let result = match tag("Result") {
        Some("1-0") => GameResult::WhiteWins,
        Some("0-1") => GameResult::BlackWins,
        Some("1/2-1/2") => GameResult::Draw,
        Some(other) => return Err(Unimportable::Unfinished(other.to_string())),
        None => return Err(Unimportable::NoResult),
    };
    if white == black || white.is_empty() {
        return Err(Unimportable::SamePlayers(white.to_string(), black.to_string()));
    }
    let termination = termination(&game, result)?;
    let round = tag("Round").and_then(|r| {
        let (round, game) = r.split_once('.')?;
        Some((round.parse().ok()?, game.parse().ok()?))
    });
    let book = game.moves.iter().take_while(|(_, said)| said.as_deref() == Some("book")).count();
    let mut moves: Vec<MoveRecord> = Vec::with_capacity(game.moves.len());
    let (mut opening_moves, mut opening_san) = (Vec::new(), Vec::new());
    for (i, (mut record, said)) in game.moves.into_iter().enumerate() {
        if i < book {
            opening_moves.push(record.uci);
            opening_san.push(record.san);
            continue;
        }
        if let Some(said) = &said {
            read_comment(said, &mut record);
        }
        moves.push(record);
    }
    let opening = if opening_san.is_empty() { game.start_fen.clone() } else { opening_san.join(" ") };
    let record = GameRecord {
        white: white.to_string(),
        black: black.to_string(),
        start_fen: game.start_fen,
        opening,
        opening_moves,
        opening_san,
        result,
        termination,
        detail: String::new(),
        moves,
        started_ms: 0,
        finished_ms: 0,
        pv_issues: Vec::new(),
        io_log: None,
        machine: MACHINE.to_string(),
        lost_ms: None,
        tc_scale: None,
    };
    Ok(Some((record, round)))
}

/// Why a game ended: the final position where it says so, else the
/// tools' words in the last comment or the Termination tag.
fn termination(game: &Collected, result: GameResult) -> Result<Termination, Unimportable> {
    let position = &game.position;
    if position.is_checkmate() {
        let mated_white = position.turn() == shakmaty::Color::White;
        if (result == GameResult::WhiteWins) == mated_white || result == GameResult::Draw {
            return Err(Unimportable::MateDisagrees);
        }
        return Ok(Termination::Checkmate);
    }
    if position.is_stalemate() {
        return Ok(Termination::Stalemate);
    }
    if position.is_insufficient_material() && result == GameResult::Draw {
        return Ok(Termination::InsufficientMaterial);
    }
    let tag = game.tags.iter().find(|(n, _)| n.eq_ignore_ascii_case("Termination")).map(|(_, v)| v.as_str());
    let said = format!("{} {}", game.last_comment.as_deref().unwrap_or_default(), tag.unwrap_or_default())
        .to_ascii_lowercase();
    let decided = result != GameResult::Draw;
    Ok(match () {
        () if said.contains("on time") || said.contains("time forfeit") || said.contains("timeout") => {
            Termination::TimeForfeit
        }
        () if said.contains("disconnect") || said.contains("abandon") => Termination::Disconnect,
        () if said.contains("stall") => Termination::Stalled,
        () if said.contains("illegal") => Termination::IllegalMove,
        () if said.contains("syzygy") || said.contains("tablebase") => Termination::Tablebase,
        () if said.contains("repetition") => Termination::Repetition,
        () if said.contains("fifty") || said.contains("50-move") || said.contains("50 move") => Termination::FiftyMoves,
        () if decided => Termination::AdjudicatedResign,
        () => Termination::AdjudicatedDraw,
    })
}

/// A move's comment in the tools' form: `+0.25/12 0.512s`, `-M5/20 1.2s`,
/// fastchess's `, n=…, sd=…, nps=…` after them.
fn read_comment(said: &str, record: &mut MoveRecord) {
    for word in said.split([' ', ',']).filter(|w| !w.is_empty()) {
        if let Some((score, depth)) = word.split_once('/') {
            record.depth = depth.parse().ok();
            if let Some(mate) = score.trim_start_matches('+').strip_prefix('M') {
                record.score_mate = mate.parse().ok();
            } else if let Some(mate) = score.strip_prefix("-M") {
                record.score_mate = mate.parse::<i64>().ok().map(|m| -m);
            } else if let Ok(pawns) = score.parse::<f64>() {
                record.score_cp = Some((pawns * 100.0).round() as i64);
            }
        } else if let Some(seconds) = word.strip_suffix('s').and_then(|s| s.parse::<f64>().ok()) {
            record.time_ms = (seconds * 1000.0).round() as u64;
        } else if let Some((key, value)) = word.split_once('=') {
            let number = value.parse().ok();
            match key {
                "n" => record.nodes = number,
                "sd" => record.seldepth = number,
                "nps" => record.nps = number,
                _ => {}
            }
        }
    }
}

/// The games of a pair, as the tools play one: two games on one opening
/// with colours reversed, either consecutive in the file or (as arena
/// writes them, in the order games finish) the games `N.1` and `N.2` of one
/// round. The games left alone are returned apart, in file order.
pub fn pairs(games: Vec<ImportedGame>) -> (Vec<[ImportedGame; 2]>, Vec<ImportedGame>) {
    let partners = |a: &GameRecord, b: &GameRecord| {
        a.start_fen == b.start_fen && a.opening_moves == b.opening_moves && a.white == b.black && a.black == b.white
    };
    // Rounds first: a round's first game is met with its second wherever
    // the second stands; a round named twice or not at all pairs by place.
    let mut of_round: HashMap<u64, Vec<usize>> = HashMap::new();
    for (i, game) in games.iter().enumerate() {
        if let Some((round, 1 | 2)) = game.round {
            of_round.entry(round).or_default().push(i);
        }
    }
    let mut partner: Vec<Option<usize>> = vec![None; games.len()];
    for indices in of_round.values() {
        if let [x, y] = indices[..]
            && games[x].round.map(|r| r.1) != games[y].round.map(|r| r.1)
            && partners(&games[x].record, &games[y].record)
        {
            let (first, second) = if games[x].round.map(|r| r.1) == Some(1) { (x, y) } else { (y, x) };
            partner[first] = Some(second);
            partner[second] = Some(usize::MAX);
        }
    }
    let mut slots: Vec<Option<ImportedGame>> = games.into_iter().map(Some).collect();
    let (mut pairs, mut alone) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < slots.len() {
        match partner[i] {
            Some(usize::MAX) => {}
            Some(second) => {
                if let (Some(first), Some(second)) = (slots[i].take(), slots[second].take()) {
                    pairs.push([first, second]);
                }
            }
            None => {
                let Some(first) = slots[i].take() else {
                    i += 1;
                    continue;
                };
                let next = i + 1;
                let consecutive = next < slots.len()
                    && partner[next].is_none()
                    && slots[next].as_ref().is_some_and(|second| partners(&first.record, &second.record));
                if consecutive && let Some(second) = slots[next].take() {
                    pairs.push([first, second]);
                    i += 1;
                } else {
                    alone.push(first);
                }
            }
        }
        i += 1;
    }
    (pairs, alone)
}

/// Games not played as pairs, each put beside the next such game of the
/// same two engines with colours reversed (in file order), so they can be
/// stored as the run's pairs are; counted as games, not pairs. The games
/// with no such partner are returned apart, in file order.
pub fn unrelated_pairs(games: Vec<ImportedGame>) -> (Vec<[ImportedGame; 2]>, Vec<ImportedGame>) {
    let mut waiting: HashMap<(String, String), VecDeque<(usize, ImportedGame)>> = HashMap::new();
    let mut pairs = Vec::new();
    for (i, game) in games.into_iter().enumerate() {
        let (white, black) = (game.record.white.clone(), game.record.black.clone());
        match waiting.get_mut(&(black.clone(), white.clone())).and_then(VecDeque::pop_front) {
            Some((_, first)) => pairs.push([first, game]),
            None => waiting.entry((white, black)).or_default().push_back((i, game)),
        }
    }
    let mut alone: Vec<(usize, ImportedGame)> = waiting.into_values().flatten().collect();
    alone.sort_by_key(|(i, _)| *i);
    (pairs, alone.into_iter().map(|(_, game)| game).collect())
}
