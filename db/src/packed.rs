//! A game's moves packed: every field of every [`MoveRecord`] kept, in a few
//! bytes per ply (`packed_moves.data`, since `0013_packed_moves.sql`).
//!
//! The value is a format byte ([`FORMAT`]), the number of moves, the
//! castling notation moves and PVs are indexed in (see [`crate::lines`]; 0
//! when the game's start cannot be set up), then four [`Section`]s, each its
//! length and the length of its zstd frame, then the four frames. The
//! sections part what is read together from what is not, so that a reader
//! decompresses and decodes only what it needs (a PGN without PVs reads
//! neither of the first two nor most numbers), and a compressor's statistics
//! fit each section's bytes:
//!
//! | section | per move |
//! |---|---|
//! | moves | [`MOVE_PREDICTED`] when the move is the reply the previous move's PV expected, else the move's index among the legal moves of the position the game reached, else [`MOVE_TOKEN`] and a token; then the PV's header: 0 and its text as it is, or 1 + (words × 4 + 2 × whether they are indices + whether the first word is the move itself, not stored again), and its words as tokens when they are not indices |
//! | words | a PV's words as indices: a byte each, the word's index among the legal moves of the position the game (and the PV before it) reached |
//! | SAN | length, bytes |
//! | numbers | the byte length of each of ten columns, then the columns, each a number per move (below) |
//!
//! | column | encoding |
//! |---|---|
//! | time | unsigned |
//! | clock | signed: the difference from the mover's clock two plies before − this move's time (the increment, mostly) |
//! | centipawns, mate | optional signed |
//! | depth, seldepth, nodes | optional unsigned |
//! | latency | optional signed: the difference from the time (mostly 0) |
//! | engine time | optional signed: the difference from the latency, or from the time without one |
//! | nodes per second | optional signed: the difference from nodes × 1000 ÷ engine time when both are known (what most engines print, so mostly 0), else from 0 |
//!
//! Indices rank the legal moves in [`Order::Likely`]. Numbers are LEB128
//! varints (unsigned; signed by zigzag; optional: 0 for none, else the
//! value plus 1). A token is a move `a1..h8 a1..h8 [nbrq]` packed in two
//! bytes (from, plus 64 × to, plus 4096 × promotion), or `0xFFFF`, length
//! and bytes for any other word (engine output is kept as it came). A PV
//! whose text is not its words joined by single spaces is kept as text.
//!
//! Older values are read as they are: format 2 (one zstd frame of the
//! payload, the number of moves and castling notation, then the moves with
//! their PVs' words inline, indices ranked in [`Order::Code`], then SAN and
//! the columns in turn, without lengths) and format 1 (the same payload with
//! every move and PV word a token, the move [`PREDICTED`] by the PV before it
//! as a token too, no castling notation, PV header 1 + tokens × 2 + repeats).
//!
//! Decoding reads untrusted bytes: every length is checked, sections are
//! capped at [`MAX_PAYLOAD`] together, and a malformed value is an error,
//! never a panic.

use crate::lines::{Order, Start, Walk, mode_byte, mode_of};
pub(crate) use crate::pack_error::PackError;
use model::MoveRecord;
use shakmaty::CastlingMode;

/// The format byte of the values written here.
pub(crate) const FORMAT: u8 = 3;

/// One zstd frame, moves and PV words inline, indices ranked by UCI code.
const FORMAT_ONE_FRAME: u8 = 2;

/// The format before moves and PVs were indexed: every move and PV word a token.
const FORMAT_TOKENS: u8 = 1;

/// Compression level. On sections of a few hundred bytes zstd's higher
/// levels cost little: packing the 20 Stockfish games of BENCHMARKS.md took
/// 1.21 ms a game at level 3 (2,014 bytes), 1.31 ms at 12 (1,975), 1.97 ms
/// at 15 (1,957); most of it is ranking the legal moves, not compressing.
const LEVEL: i32 = 12;

/// The most bytes a value's sections may declare together (a game of
/// 10,000 plies with 100-move PVs fits in a sixth of it).
const MAX_PAYLOAD: u64 = 16 << 20;

/// The fewest payload bytes a move takes in format 1 or 2 (a token, and a
/// byte for every other column): a count of moves beyond the payload ÷ this
/// is refused before anything is allocated for it.
const MIN_MOVE_BYTES: u128 = 14;

/// The number columns of format 3, each a number per move.
const COLUMNS: usize = 10;

/// A token that is not a packed move: its text follows.
const LITERAL: u16 = 0xFFFF;

/// A move that is the second word of the previous move's PV (format 1).
const PREDICTED: u16 = 0xFFFE;

/// A move entry of formats 2 and 3 that is the second word of the previous
/// move's PV; any other byte below [`MOVE_TOKEN`] is the move's index among
/// the legal moves.
const MOVE_PREDICTED: u8 = 0xFF;

/// A move entry of formats 2 and 3 whose move is no legal move in the
/// position the game reached (or none is known): a token follows.
const MOVE_TOKEN: u8 = 0xFE;

/// The sections of a format 3 value, in their order.
#[derive(Clone, Copy)]
enum Section {
    Moves,
    Words,
    San,
    Numbers,
}

const SECTIONS: usize = 4;

/// Which fields of each move a reader fills.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fields {
    /// Every field.
    All,
    /// SAN, time, score and depth: what a PGN without PVs writes. The
    /// others are left empty, or read when the format stores them together.
    Pgn,
}

/// The moves packed, moves and PVs indexed in the positions reached from
/// `start`; an error only when the compressor cannot get memory.
pub(crate) fn pack(moves: &[MoveRecord], start: Start<'_>) -> std::io::Result<Vec<u8>> {
    let lines = lines(moves, start);
    let sections: [Vec<u8>; SECTIONS] = [lines.moves, lines.words, san(moves), numbers(moves)];
    let mut out = Vec::with_capacity(moves.len() * 16 + 32);
    out.push(FORMAT);
    unsigned(&mut out, moves.len() as u128);
    out.push(mode_byte(lines.mode));
    let mut frames = Vec::with_capacity(SECTIONS);
    for section in &sections {
        // An empty section is no frame at all.
        let frame = if section.is_empty() { Vec::new() } else { zstd::bulk::compress(section, LEVEL)? };
        unsigned(&mut out, section.len() as u128);
        unsigned(&mut out, frame.len() as u128);
        frames.push(frame);
    }
    frames.iter().for_each(|frame| out.extend_from_slice(frame));
    Ok(out)
}

/// The moves of a packed value; an error names what is wrong with it.
#[cfg(test)]
pub(crate) fn unpack(value: &[u8], start: Start<'_>) -> Result<Vec<MoveRecord>, PackError> {
    let mut moves = Vec::new();
    unpack_into(value, &mut moves, Fields::All, start)?;
    Ok(moves)
}

/// The moves of a packed value into `moves`, whose strings are reused (an
/// export reads millions of moves through one such vector per thread),
/// `fields` of each (building the UCI text and PVs is most of the decoding:
/// indexed PVs are replayed from `start`).
pub(crate) fn unpack_into(
    value: &[u8],
    moves: &mut Vec<MoveRecord>,
    fields: Fields,
    start: Start<'_>,
) -> Result<(), PackError> {
    // The sections are decompressed into buffers kept per thread: an export
    // reads millions of values.
    thread_local! {
        static BUFFERS: std::cell::RefCell<[Vec<u8>; SECTIONS]> = std::cell::RefCell::default();
    }
    let mut header = Reader { bytes: value, at: 0, indexed: false };
    BUFFERS.with_borrow_mut(|buffers| {
        let read = match header.byte()? {
            FORMAT => unpack_sections(header, buffers, moves, fields, start),
            format @ (FORMAT_TOKENS | FORMAT_ONE_FRAME) => {
                let len = header.unsigned()?;
                let payload = &mut buffers[0];
                decompress(&value[header.at..], len, payload)?;
                read_payload(payload, moves, fields == Fields::All, format == FORMAT_ONE_FRAME, start)
            }
            format => Err(PackError::Format { format, newest: FORMAT }),
        };
        // A large value's buffer is not kept.
        for buffer in buffers.iter_mut().filter(|buffer| buffer.capacity() > 1 << 20) {
            *buffer = Vec::new();
        }
        read
    })
}

/// `frame` decompressed into `into` (cleared first), the `len` bytes it
/// must hold.
fn decompress(frame: &[u8], len: u128, into: &mut Vec<u8>) -> Result<(), PackError> {
    into.clear();
    if len > u128::from(MAX_PAYLOAD) {
        return Err(PackError::Inconsistent(format!(
            "declare {len} bytes, more than the {MAX_PAYLOAD} a game may hold"
        )));
    }
    // Below MAX_PAYLOAD, so it fits a usize.
    let len = len as usize;
    if len == 0 && frame.is_empty() {
        return Ok(());
    }
    into.reserve(len);
    // One decompression context per thread, kept: making one is a tenth of
    // unpacking a game.
    thread_local! {
        static DECOMPRESSOR: std::cell::RefCell<Option<zstd::bulk::Decompressor<'static>>> =
            const { std::cell::RefCell::new(None) };
    }
    DECOMPRESSOR
        .with_borrow_mut(|kept| {
            let decompressor = match kept {
                Some(decompressor) => decompressor,
                None => kept.insert(zstd::bulk::Decompressor::new()?),
            };
            decompressor.decompress_to_buffer(frame, into)
        })
        .map_err(PackError::Decompress)?;
    if into.len() != len {
        return Err(PackError::Inconsistent(format!("hold {} bytes, their header says {len}", into.len())));
    }
    Ok(())
}

/// A format 3 value's moves, after its format byte: only the sections
/// `fields` need are decompressed.
fn unpack_sections(
    mut header: Reader<'_>,
    buffers: &mut [Vec<u8>; SECTIONS],
    moves: &mut Vec<MoveRecord>,
    fields: Fields,
    start: Start<'_>,
) -> Result<(), PackError> {
    let n = header.unsigned()?;
    let mode = mode_of(header.byte()?)?;
    let mut lengths = [0u128; SECTIONS];
    let mut frame_lengths = [0usize; SECTIONS];
    for (len, frame) in lengths.iter_mut().zip(&mut frame_lengths) {
        *len = header.unsigned()?;
        *frame = usize::try_from(header.unsigned()?).map_err(|_| "a section too long")?;
    }
    let total = lengths.iter().fold(0u128, |total, &len| total.saturating_add(len));
    if total > u128::from(MAX_PAYLOAD) {
        return Err(PackError::Inconsistent(format!(
            "declare {total} bytes, more than the {MAX_PAYLOAD} a game may hold"
        )));
    }
    // Every move takes a byte at least in its SAN and in each number column.
    let (san_len, numbers_len) = (lengths[Section::San as usize], lengths[Section::Numbers as usize]);
    if n > san_len || n * COLUMNS as u128 > numbers_len {
        return Err(PackError::Inconsistent(format!("claim {n} moves in {total} bytes")));
    }
    // At most the SAN section's length, so it fits a usize.
    let n = n as usize;
    let frames = cut(header.bytes, header.at, frame_lengths, "value")?;
    let [moves_buffer, words_buffer, san_buffer, numbers_buffer] = buffers;
    let section = |s: Section, into: &mut Vec<u8>| decompress(frames[s as usize], lengths[s as usize], into);
    moves.truncate(n);
    moves.resize_with(n, MoveRecord::default);
    match fields {
        Fields::All => {
            section(Section::Moves, moves_buffer)?;
            section(Section::Words, words_buffer)?;
            let mut walk = match mode {
                Some(mode) => Walk::new(start, mode, Order::Likely),
                None => Walk::none(),
            };
            let mut words = Reader { bytes: words_buffer, at: 0, indexed: true };
            let mut r = Reader { bytes: moves_buffer, at: 0, indexed: true };
            for i in 0..n {
                r.move_and_pv(moves, i, &mut walk, Some(&mut words))?;
            }
            r.finished("moves")?;
            words.finished("PV words")?;
        }
        Fields::Pgn => moves.iter_mut().for_each(|m| {
            m.uci.clear();
            m.pv.clear();
        }),
    }
    section(Section::San, san_buffer)?;
    let mut r = Reader { bytes: san_buffer, at: 0, indexed: true };
    read_san(&mut r, moves)?;
    r.finished("SAN")?;
    section(Section::Numbers, numbers_buffer)?;
    read_numbers(numbers_buffer, moves, fields)
}

/// `bytes` from `at` cut into consecutive parts of `lens`, which must end
/// where `bytes` does (the bytes of `what`).
fn cut<'a, const N: usize>(
    bytes: &'a [u8],
    mut at: usize,
    lens: [usize; N],
    what: &str,
) -> Result<[&'a [u8]; N], PackError> {
    let mut parts = [&[][..]; N];
    for (part, len) in parts.iter_mut().zip(lens) {
        let end = at.checked_add(len).filter(|&end| end <= bytes.len()).ok_or("a section past the end")?;
        *part = &bytes[at..end];
        at = end;
    }
    if at != bytes.len() {
        return Err(PackError::Inconsistent(format!("end {} bytes before their {what} does", bytes.len() - at)));
    }
    Ok(parts)
}

/// Moves and PVs, indexed along the positions from `start` in standard
/// castling notation, or in Chess960's when that indexes more of them.
fn lines(moves: &[MoveRecord], start: Start<'_>) -> Lines {
    let standard = lines_along(moves, Walk::new(start, CastlingMode::Standard, Order::Likely));
    if standard.unindexed == 0 {
        return standard;
    }
    let chess960 = lines_along(moves, Walk::new(start, CastlingMode::Chess960, Order::Likely));
    if chess960.unindexed < standard.unindexed { chess960 } else { standard }
}

/// The moves and words sections, the castling notation they are indexed
/// in, and how many moves and PVs are not indexed.
struct Lines {
    moves: Vec<u8>,
    words: Vec<u8>,
    mode: Option<CastlingMode>,
    unindexed: usize,
}

/// The moves and words sections, moves and PVs indexed along `walk`.
fn lines_along(moves: &[MoveRecord], mut walk: Walk) -> Lines {
    let mode = walk.known().then(|| walk.mode());
    let mut lines = Lines { moves: Vec::with_capacity(moves.len() * 3), words: Vec::new(), mode, unindexed: 0 };
    for (i, m) in moves.iter().enumerate() {
        if i > 0 && predicted(&moves[i - 1]) == Some(m.uci.as_str()) {
            lines.moves.push(MOVE_PREDICTED);
        } else if let Some(index) = walk.index(&m.uci) {
            lines.moves.push(index);
        } else {
            lines.moves.push(MOVE_TOKEN);
            token(&mut lines.moves, &m.uci);
            lines.unindexed += 1;
        }
        if !pv(&mut lines.moves, &mut lines.words, m, &mut walk) {
            lines.unindexed += 1;
        }
    }
    lines
}

/// The SAN section.
fn san(moves: &[MoveRecord]) -> Vec<u8> {
    let mut out = Vec::with_capacity(moves.len() * 5);
    for m in moves {
        text(&mut out, &m.san);
    }
    out
}

/// The numbers section: each column's length, then the columns.
fn numbers(moves: &[MoveRecord]) -> Vec<u8> {
    let columns = Column::ALL.map(|column| {
        let mut out = Vec::with_capacity(moves.len() * 2);
        column.write(&mut out, moves);
        out
    });
    let mut out = Vec::with_capacity(columns.iter().map(Vec::len).sum::<usize>() + 2 * COLUMNS);
    for column in &columns {
        unsigned(&mut out, column.len() as u128);
    }
    columns.iter().for_each(|column| out.extend_from_slice(column));
    out
}

/// A column of numbers, a number per move (in the order of [`Column::ALL`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Column {
    Time,
    Clock,
    Centipawns,
    Mate,
    Depth,
    Seldepth,
    Nodes,
    Latency,
    EngineTime,
    Nps,
}

impl Column {
    /// Every column, in their order (a column is read after those it is
    /// stored against).
    const ALL: [Column; COLUMNS] = [
        Column::Time,
        Column::Clock,
        Column::Centipawns,
        Column::Mate,
        Column::Depth,
        Column::Seldepth,
        Column::Nodes,
        Column::Latency,
        Column::EngineTime,
        Column::Nps,
    ];

    /// What a PGN without PVs writes.
    const PGN: [Column; 4] = [Column::Time, Column::Centipawns, Column::Mate, Column::Depth];

    /// The column of every move appended to `out`.
    fn write(self, out: &mut Vec<u8>, moves: &[MoveRecord]) {
        for (i, m) in moves.iter().enumerate() {
            match self {
                Column::Time => unsigned(out, m.time_ms.into()),
                Column::Clock => signed(out, i128::from(m.clock_ms) - expected_clock(moves, i, m.time_ms)),
                Column::Centipawns => optional_signed(out, m.score_cp.map(i128::from)),
                Column::Mate => optional_signed(out, m.score_mate.map(i128::from)),
                Column::Depth => optional_unsigned(out, m.depth),
                Column::Seldepth => optional_unsigned(out, m.seldepth),
                Column::Nodes => optional_unsigned(out, m.nodes),
                Column::Latency => {
                    optional_signed(out, m.latency_ms.map(|ms| i128::from(ms) - i128::from(m.time_ms)));
                }
                Column::EngineTime => optional_signed(out, m.engine_ms.map(|ms| i128::from(ms) - engine_base(m))),
                Column::Nps => optional_signed(out, m.nps.map(|nps| i128::from(nps) - derived_nps(m))),
            }
        }
    }

    /// The column of every move read from `r` (the columns before it read).
    fn read(self, r: &mut Reader<'_>, moves: &mut [MoveRecord]) -> Result<(), PackError> {
        let score = |v: Option<i128>, what: &'static str| {
            v.map(i64::try_from).transpose().map_err(|_| PackError::OutOfRange(what))
        };
        // One loop per column: most columns need no other field of the move.
        match self {
            Column::Time => {
                for m in moves.iter_mut() {
                    m.time_ms = r.u64()?;
                }
            }
            Column::Clock => {
                for i in 0..moves.len() {
                    let clock = r.signed()?.checked_add(expected_clock(moves, i, moves[i].time_ms));
                    moves[i].clock_ms = clock.and_then(|c| u64::try_from(c).ok()).ok_or("a clock out of range")?;
                }
            }
            Column::Centipawns => {
                for m in moves.iter_mut() {
                    m.score_cp = score(r.optional_signed()?, "score")?;
                }
            }
            Column::Mate => {
                for m in moves.iter_mut() {
                    m.score_mate = score(r.optional_signed()?, "mate")?;
                }
            }
            Column::Depth => {
                for m in moves.iter_mut() {
                    m.depth = r.optional_u64()?;
                }
            }
            Column::Seldepth => {
                for m in moves.iter_mut() {
                    m.seldepth = r.optional_u64()?;
                }
            }
            Column::Nodes => {
                for m in moves.iter_mut() {
                    m.nodes = r.optional_u64()?;
                }
            }
            Column::Latency => {
                for m in moves.iter_mut() {
                    m.latency_ms = r.optional_against(i128::from(m.time_ms))?;
                }
            }
            Column::EngineTime => {
                for m in moves.iter_mut() {
                    m.engine_ms = r.optional_against(engine_base(m))?;
                }
            }
            Column::Nps => {
                for m in moves.iter_mut() {
                    m.nps = r.optional_against(derived_nps(m))?;
                }
            }
        }
        Ok(())
    }

    /// The column emptied in `m` (not read).
    fn clear(self, m: &mut MoveRecord) {
        match self {
            Column::Time => m.time_ms = 0,
            Column::Clock => m.clock_ms = 0,
            Column::Centipawns => m.score_cp = None,
            Column::Mate => m.score_mate = None,
            Column::Depth => m.depth = None,
            Column::Seldepth => m.seldepth = None,
            Column::Nodes => m.nodes = None,
            Column::Latency => m.latency_ms = None,
            Column::EngineTime => m.engine_ms = None,
            Column::Nps => m.nps = None,
        }
    }
}

/// The reply a move's PV expects: its second word.
fn predicted(m: &MoveRecord) -> Option<&str> {
    m.pv.split(' ').nth(1)
}

/// The mover's clock after move `i` if it gained nothing: its clock two
/// plies before (0 for its first move) less this move's time.
fn expected_clock(moves: &[MoveRecord], i: usize, time_ms: u64) -> i128 {
    let before = if i >= 2 { i128::from(moves[i - 2].clock_ms) } else { 0 };
    before - i128::from(time_ms)
}

/// What the engine's time is stored against: the latency, else the time.
fn engine_base(m: &MoveRecord) -> i128 {
    i128::from(m.latency_ms.unwrap_or(m.time_ms))
}

/// Nodes × 1000 ÷ engine time when both are known and the time is not 0, else 0.
fn derived_nps(m: &MoveRecord) -> i128 {
    match (m.nodes, m.engine_ms) {
        (Some(nodes), Some(ms)) if ms > 0 => i128::from(nodes) * 1000 / i128::from(ms),
        _ => 0,
    }
}

/// Format 3's numbers section into `moves`: every column for
/// [`Fields::All`], those a PGN writes for [`Fields::Pgn`] (the others
/// emptied).
fn read_numbers(numbers: &[u8], moves: &mut [MoveRecord], fields: Fields) -> Result<(), PackError> {
    let mut header = Reader { bytes: numbers, at: 0, indexed: true };
    let mut lens = [0usize; COLUMNS];
    for len in &mut lens {
        *len = usize::try_from(header.unsigned()?).map_err(|_| "a column too long")?;
    }
    let columns = cut(numbers, header.at, lens, "numbers section")?;
    for (column, bytes) in Column::ALL.into_iter().zip(columns) {
        if fields == Fields::All || Column::PGN.contains(&column) {
            let mut r = Reader { bytes, at: 0, indexed: true };
            column.read(&mut r, moves)?;
            r.finished("a column")?;
        } else {
            moves.iter_mut().for_each(|m| column.clear(m));
        }
    }
    Ok(())
}

/// A format 1 or 2 payload into `moves`; without `lines`, each move's UCI
/// text and PV are left empty (and the positions not replayed).
fn read_payload(
    payload: &[u8],
    moves: &mut Vec<MoveRecord>,
    lines: bool,
    indexed: bool,
    start: Start<'_>,
) -> Result<(), PackError> {
    let mut r = Reader { bytes: payload, at: 0, indexed };
    let n = r.unsigned()?;
    if n * MIN_MOVE_BYTES > payload.len() as u128 {
        return Err(PackError::Inconsistent(format!("claim {n} moves in {} bytes", payload.len())));
    }
    // Below the payload's length, so it fits a usize.
    let n = n as usize;
    let mode = if indexed { mode_of(r.byte()?)? } else { None };
    // The positions are replayed only when moves' UCI text and PVs are read.
    let mut walk = match mode {
        Some(mode) if lines => Walk::new(start, mode, Order::Code),
        _ => Walk::none(),
    };
    moves.truncate(n);
    moves.resize_with(n, MoveRecord::default);
    for i in 0..n {
        if lines {
            r.move_and_pv(moves, i, &mut walk, None)?;
        } else {
            moves[i].uci.clear();
            moves[i].pv.clear();
            r.skip_move()?;
            r.skip_pv()?;
        }
    }
    read_san(&mut r, moves)?;
    for column in Column::ALL {
        column.read(&mut r, moves)?;
    }
    r.finished("payload")
}

/// The SAN of every move.
fn read_san(r: &mut Reader<'_>, moves: &mut [MoveRecord]) -> Result<(), PackError> {
    for m in moves.iter_mut() {
        m.san.clear();
        r.push_text(&mut m.san)?;
    }
    Ok(())
}

fn unsigned(out: &mut Vec<u8>, mut v: u128) {
    loop {
        let low = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(low);
            return;
        }
        out.push(low | 0x80);
    }
}

fn optional_unsigned(out: &mut Vec<u8>, v: Option<u64>) {
    unsigned(out, v.map_or(0, |v| u128::from(v) + 1));
}

fn zigzag(v: i128) -> u128 {
    ((v << 1) ^ (v >> 127)) as u128
}

fn signed(out: &mut Vec<u8>, v: i128) {
    unsigned(out, zigzag(v));
}

fn optional_signed(out: &mut Vec<u8>, v: Option<i128>) {
    // Values come from i64 and u64 differences: zigzag of them + 1 fits u128.
    unsigned(out, v.map_or(0, |v| zigzag(v) + 1));
}

fn text(out: &mut Vec<u8>, s: &str) {
    unsigned(out, s.len() as u128);
    out.extend_from_slice(s.as_bytes());
}

fn token(out: &mut Vec<u8>, word: &str) {
    match crate::uci_code::code(word) {
        Some(v) => out.extend_from_slice(&v.to_le_bytes()),
        None => {
            out.extend_from_slice(&LITERAL.to_le_bytes());
            text(out, word);
        }
    }
}

/// Move `m`'s PV: its header (and its words as tokens, or its text) to
/// `out`, its words indexed from the position before the move (or after it,
/// when the PV starts with it) to `indexed`; `walk` is then moved past the
/// move. False when the PV has words and they are not indexed.
fn pv(out: &mut Vec<u8>, indexed: &mut Vec<u8>, m: &MoveRecord, walk: &mut Walk) -> bool {
    let words: Vec<&str> = m.pv.split(' ').collect();
    if m.pv.is_empty() {
        unsigned(out, 1);
        walk.play(&m.uci);
        return true;
    }
    if words.iter().any(|w| w.is_empty()) {
        // Not single-spaced words: kept as it came.
        unsigned(out, 0);
        text(out, &m.pv);
        walk.play(&m.uci);
        return false;
    }
    let repeats_move = words[0] == m.uci;
    let rest = &words[usize::from(repeats_move)..];
    let before = if repeats_move { None } else { walk.indices(rest) };
    walk.play(&m.uci);
    let indices = if repeats_move { walk.indices(rest) } else { before };
    let header = (rest.len() as u128) * 4 + 2 * u128::from(indices.is_some()) + u128::from(repeats_move);
    unsigned(out, 1 + header);
    match &indices {
        Some(indices) => indexed.extend_from_slice(indices),
        None => rest.iter().for_each(|word| token(out, word)),
    }
    indices.is_some() || rest.is_empty()
}

/// A cursor over untrusted bytes.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    /// Whether PV headers say if their words are indices (format 2).
    indexed: bool,
}

impl Reader<'_> {
    /// An error unless every byte was read.
    fn finished(&self, what: &str) -> Result<(), PackError> {
        match self.bytes.len() - self.at {
            0 => Ok(()),
            left => Err(PackError::Inconsistent(format!("end {left} bytes before their {what} does"))),
        }
    }

    /// Move `i`'s UCI text and PV into `moves[i]`, indices read along
    /// `walk`, PV words from `words` (format 3) or inline.
    fn move_and_pv(
        &mut self,
        moves: &mut [MoveRecord],
        i: usize,
        walk: &mut Walk,
        words: Option<&mut Reader<'_>>,
    ) -> Result<(), PackError> {
        let (before, rest) = moves.split_at_mut(i);
        let m = &mut rest[0];
        m.uci.clear();
        if self.move_into(&mut m.uci, walk)? {
            let previous = before.last().and_then(predicted);
            m.uci.push_str(previous.ok_or("a move predicted by no PV")?);
        }
        self.pv_into(&m.uci, &mut m.pv, walk, words)
    }

    fn byte(&mut self) -> Result<u8, PackError> {
        let b = *self.bytes.get(self.at).ok_or("packed moves end too early")?;
        self.at += 1;
        Ok(b)
    }

    fn unsigned(&mut self) -> Result<u128, PackError> {
        // Most numbers are one byte.
        if let Some(&b) = self.bytes.get(self.at)
            && b & 0x80 == 0
        {
            self.at += 1;
            return Ok(u128::from(b));
        }
        let mut v: u128 = 0;
        for shift in (0..128).step_by(7) {
            let b = self.byte()?;
            v |= u128::from(b & 0x7f).checked_shl(shift).ok_or("a number too long")?;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err("a number too long".into())
    }

    fn u64(&mut self) -> Result<u64, PackError> {
        u64::try_from(self.unsigned()?).map_err(|_| PackError::Damaged("a number out of range"))
    }

    fn optional_u64(&mut self) -> Result<Option<u64>, PackError> {
        match self.unsigned()? {
            0 => Ok(None),
            v => u64::try_from(v - 1).map(Some).map_err(|_| PackError::Damaged("a number out of range")),
        }
    }

    fn signed(&mut self) -> Result<i128, PackError> {
        let z = self.unsigned()?;
        Ok((z >> 1) as i128 ^ -((z & 1) as i128))
    }

    fn optional_signed(&mut self) -> Result<Option<i128>, PackError> {
        match self.unsigned()? {
            0 => Ok(None),
            v => {
                let z = v - 1;
                Ok(Some((z >> 1) as i128 ^ -((z & 1) as i128)))
            }
        }
    }

    /// An optional count stored as its difference from `base`.
    fn optional_against(&mut self, base: i128) -> Result<Option<u64>, PackError> {
        match self.optional_signed()? {
            None => Ok(None),
            Some(delta) => {
                Ok(Some(delta.checked_add(base).and_then(|v| u64::try_from(v).ok()).ok_or("a number out of range")?))
            }
        }
    }

    /// A text, appended to `out`.
    fn push_text(&mut self, out: &mut String) -> Result<(), PackError> {
        let len = usize::try_from(self.unsigned()?).map_err(|_| "a text too long")?;
        let end = self.at.checked_add(len).filter(|&end| end <= self.bytes.len()).ok_or("a text past the end")?;
        out.push_str(std::str::from_utf8(&self.bytes[self.at..end]).map_err(|_| "a text that is not UTF-8")?);
        self.at = end;
        Ok(())
    }

    /// A move column's token appended to `uci`; true when it is
    /// [`PREDICTED`] (then nothing is appended).
    fn token_into(&mut self, uci: &mut String) -> Result<bool, PackError> {
        match self.code()? {
            LITERAL => self.push_text(uci).map(|()| false),
            PREDICTED => Ok(true),
            v => crate::uci_code::push_text(uci, v).map(|()| false),
        }
    }

    /// A move entry appended to `uci`; true when the move is the one the
    /// previous move's PV predicted (then nothing is appended).
    fn move_into(&mut self, uci: &mut String, walk: &Walk) -> Result<bool, PackError> {
        if !self.indexed {
            return self.token_into(uci);
        }
        match self.byte()? {
            MOVE_PREDICTED => Ok(true),
            MOVE_TOKEN => match self.token_into(uci)? {
                true => Err("a move token marked as predicted".into()),
                false => Ok(false),
            },
            index => crate::uci_code::push_text(uci, walk.code(index)?).map(|()| false),
        }
    }

    /// Past a move entry.
    fn skip_move(&mut self) -> Result<(), PackError> {
        if !self.indexed {
            return self.skip_token();
        }
        match self.byte()? {
            MOVE_TOKEN => self.skip_token(),
            _ => Ok(()),
        }
    }

    /// Past a text.
    fn skip_text(&mut self) -> Result<(), PackError> {
        let len = usize::try_from(self.unsigned()?).map_err(|_| "a text too long")?;
        self.at = self.at.checked_add(len).filter(|&end| end <= self.bytes.len()).ok_or("a text past the end")?;
        Ok(())
    }

    /// Past a token.
    fn skip_token(&mut self) -> Result<(), PackError> {
        match self.code()? {
            LITERAL => self.skip_text(),
            _ => Ok(()),
        }
    }

    /// Past a PV.
    fn skip_pv(&mut self) -> Result<(), PackError> {
        match self.pv_header()? {
            None => self.skip_text(),
            Some(PvHeader { count, indices: true, .. }) => self.take(count).map(|_| ()),
            Some(PvHeader { count, .. }) => (0..count).try_for_each(|_| self.skip_token()),
        }
    }

    /// A PV's header: `None` for a PV kept as text.
    fn pv_header(&mut self) -> Result<Option<PvHeader>, PackError> {
        let header = self.unsigned()?;
        if header == 0 {
            return Ok(None);
        }
        let v = header - 1;
        let (count, indices) = if self.indexed { (v >> 2, v & 2 != 0) } else { (v >> 1, false) };
        // Its words are read one by one, each checked, into no buffer sized by it.
        let count = usize::try_from(count).map_err(|_| "a PV longer than its bytes")?;
        Ok(Some(PvHeader { count, indices, repeats_move: v & 1 == 1 }))
    }

    /// The next `count` bytes.
    fn take(&mut self, count: usize) -> Result<&[u8], PackError> {
        let end = self.at.checked_add(count).filter(|&end| end <= self.bytes.len()).ok_or("a PV past the end")?;
        let taken = &self.bytes[self.at..end];
        self.at = end;
        Ok(taken)
    }

    /// A token's two bytes.
    fn code(&mut self) -> Result<u16, PackError> {
        let lo = self.byte()?;
        let hi = self.byte()?;
        Ok(u16::from_le_bytes([lo, hi]))
    }

    /// A PV's word, appended to `pv`: a token, never [`PREDICTED`] (written
    /// in place: a PV of ten moves is one allocation, not eleven).
    fn push_word(&mut self, pv: &mut String) -> Result<(), PackError> {
        match self.code()? {
            LITERAL => self.push_text(pv),
            PREDICTED => Err("a PV word marked as predicted".into()),
            v => crate::uci_code::push_text(pv, v),
        }
    }

    /// Move `uci`'s PV into `pv` (cleared first), indices read along
    /// `walk` from `words` (or inline without it), which is then moved past
    /// the move.
    fn pv_into(
        &mut self,
        uci: &str,
        pv: &mut String,
        walk: &mut Walk,
        words: Option<&mut Reader<'_>>,
    ) -> Result<(), PackError> {
        pv.clear();
        let Some(PvHeader { count, indices, repeats_move }) = self.pv_header()? else {
            walk.play(uci);
            return self.push_text(pv);
        };
        if repeats_move {
            pv.push_str(uci);
        }
        if indices {
            let indices = match words {
                Some(words) => words.take(count)?,
                None => self.take(count)?,
            };
            if repeats_move {
                walk.play(uci);
                walk.push_words(indices, pv)?;
            } else {
                walk.push_words(indices, pv)?;
                walk.play(uci);
            }
            return Ok(());
        }
        for _ in 0..count {
            if !pv.is_empty() {
                pv.push(' ');
            }
            self.push_word(pv)?;
        }
        walk.play(uci);
        Ok(())
    }
}

/// What a PV's header says of its words.
struct PvHeader {
    count: usize,
    /// Indices among the legal moves, not tokens.
    indices: bool,
    /// The first word is the move itself, not stored again.
    repeats_move: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    fn start() -> Start<'static> {
        Start { fen: START, opening: &[] }
    }

    fn sample() -> Vec<MoveRecord> {
        vec![
            MoveRecord {
                uci: "e2e4".into(),
                san: "e4".into(),
                time_ms: 12,
                clock_ms: 59_988,
                score_cp: Some(-31),
                depth: Some(9),
                seldepth: Some(14),
                nodes: Some(123_456),
                nps: Some(10_288_000),
                pv: "e2e4 e7e5 g1f3".into(),
                latency_ms: Some(13),
                engine_ms: Some(12),
                score_mate: None,
            },
            MoveRecord { uci: "e7e5".into(), san: "e5".into(), score_mate: Some(-3), ..MoveRecord::default() },
            // Engine output kept as it came: odd words, odd spacing, quotes, a PV not starting with the move.
            MoveRecord {
                uci: "g1f3".into(),
                san: "Nf3".into(),
                pv: "b8c6 \"x\\ e1g1 0000".into(),
                ..MoveRecord::default()
            },
            MoveRecord { uci: "b8c6".into(), pv: "b8c6  a7a8q".into(), nps: Some(5), ..MoveRecord::default() },
            MoveRecord {
                uci: "a7a8q".into(),
                pv: " ".into(),
                nodes: Some(u64::MAX),
                nps: Some(u64::MAX),
                engine_ms: Some(1),
                ..MoveRecord::default()
            },
            MoveRecord {
                uci: "weird".into(),
                san: "é".into(),
                time_ms: u64::MAX,
                clock_ms: u64::MAX,
                score_cp: Some(i64::MIN),
                score_mate: Some(i64::MAX),
                depth: Some(u64::MAX),
                nps: Some(0),
                nodes: Some(7),
                engine_ms: Some(u64::MAX),
                ..MoveRecord::default()
            },
        ]
    }

    #[test]
    fn every_field_reads_back_as_written() {
        let moves = sample();
        assert_eq!(unpack(&pack(&moves, start()).unwrap(), start()).unwrap(), moves);
        assert_eq!(unpack(&pack(&[], start()).unwrap(), start()).unwrap(), Vec::new());
        // From a start that cannot be set up, every PV is tokens.
        let nowhere = Start { fen: "nowhere", opening: &[] };
        assert_eq!(unpack(&pack(&moves, nowhere).unwrap(), nowhere).unwrap(), moves);
    }

    #[test]
    fn values_of_format_1_read_as_they_are() {
        // `sample()` packed by the release that wrote format 1 (PVs as tokens).
        let hex = "01cd0128b52ffd20cdc50400c407060c070634094605feff01460509b90affff0322785c8401ffff0430303030b90a000b\
                   6238633620206137613871304e000120ffff05776569726401026534026535034e6633000002c3a90c00000000ff01c0a9\
                   0700a7a9070000fcff073e800200060a0f00c1c4070803000200000003010100000bb2f0ff9b1f010a0060980f029cf348\
                   667041c98caae370248a0a18e48c086006";
        let bytes: Vec<u8> =
            (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect();
        assert_eq!(bytes[0], FORMAT_TOKENS);
        assert_eq!(unpack(&bytes, start()).unwrap(), sample());
    }

    #[test]
    fn values_of_format_2_read_as_they_are() {
        // `sample()` packed by the release that wrote format 2 (one frame,
        // indices ranked by UCI code).
        let hex = "02ca0128b52ffd20caad040094070601100c040cff010c11b90affff0322785c8401ffff043030303010000b623863362020\
                   6137613871fe304e000120feffff05776569726401026534026535034e6633000002c3a90c00000000ff01c0a90700a7a907\
                   0000fcff073e800200060a0f00c1c4070803000200000003010100000bb2f0ff9b1f010a0060980f029cf348667041c98caa\
                   e370248a0a18e474086006";
        let bytes: Vec<u8> =
            (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect();
        assert_eq!(bytes[0], FORMAT_ONE_FRAME);
        assert_eq!(unpack(&bytes, start()).unwrap(), sample());
        // What a PGN reads is the same as read whole.
        let mut pgn = Vec::new();
        unpack_into(&bytes, &mut pgn, Fields::Pgn, start()).unwrap();
        assert_pgn_fields(&pgn, &sample());
    }

    /// `read` holds what a PGN writes of `moves`, and no UCI text or PV.
    fn assert_pgn_fields(read: &[MoveRecord], moves: &[MoveRecord]) {
        assert_eq!(read.len(), moves.len());
        for (r, m) in read.iter().zip(moves) {
            assert_eq!(
                (&r.san, r.time_ms, r.score_cp, r.score_mate, r.depth),
                (&m.san, m.time_ms, m.score_cp, m.score_mate, m.depth)
            );
            assert_eq!((r.uci.as_str(), r.pv.as_str()), ("", ""));
        }
    }

    #[test]
    fn a_pgn_reads_its_fields_and_empties_the_others() {
        let moves = sample();
        let value = pack(&moves, start()).unwrap();
        // Into moves read whole before: nothing of them stays.
        let mut read = knights(9);
        unpack_into(&value, &mut read, Fields::Pgn, start()).unwrap();
        assert_pgn_fields(&read, &moves);
        let mut expected: Vec<MoveRecord> = moves
            .iter()
            .map(|m| MoveRecord {
                san: m.san.clone(),
                time_ms: m.time_ms,
                score_cp: m.score_cp,
                score_mate: m.score_mate,
                depth: m.depth,
                ..MoveRecord::default()
            })
            .collect();
        assert_eq!(read, expected);
        unpack_into(&value, &mut expected, Fields::All, start()).unwrap();
        assert_eq!(expected, moves);
    }

    /// `plies` of a real game (knights out and back), each with the next
    /// five moves as its PV.
    fn knights(plies: usize) -> Vec<MoveRecord> {
        let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
        (0..plies)
            .map(|i| MoveRecord {
                uci: cycle[i % 4].into(),
                pv: (i..i + 5).map(|j| cycle[j % 4]).collect::<Vec<_>>().join(" "),
                ..MoveRecord::default()
            })
            .collect()
    }

    #[test]
    fn pv_words_take_a_byte_each_where_the_game_reaches_their_position() {
        let moves = knights(100);
        let raw = |lines: Lines| lines.moves.len() + lines.words.len();
        let indexed = raw(super::lines(&moves, start()));
        let tokens = raw(super::lines(&moves, Start { fen: "nowhere", opening: &[] }));
        // Four words after the move in each PV: one byte each instead of two;
        // the first move one byte instead of a marker and two (the others
        // are each predicted by the PV before them).
        assert_eq!(tokens - indexed, 402, "{indexed} against {tokens} bytes");
        assert_eq!(unpack(&pack(&moves, start()).unwrap(), start()).unwrap(), moves);
        // Read from a start other than the one written, the PV is an error, not other moves.
        let elsewhere = Start { fen: "8/8/8/8/8/8/8/K6k w - - 0 1", opening: &[] };
        assert!(unpack(&pack(&moves, start()).unwrap(), elsewhere).is_err());
        // A PV with an illegal word keeps its tokens; the others are indexed still.
        let mut moves = knights(8);
        moves[3].pv = "f6g8 g1f3 g1f3".into();
        assert_eq!(unpack(&pack(&moves, start()).unwrap(), start()).unwrap(), moves);
        assert_eq!(super::lines(&moves, start()).unindexed, 1);
    }

    #[test]
    fn chess960_castling_is_indexed_in_its_own_notation() {
        // Castling written king takes rook, as engines do under UCI_Chess960.
        let fen = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1";
        let opening = ["a2a3".to_string(), "a7a6".to_string()];
        let start = Start { fen, opening: &opening };
        let moves = vec![
            MoveRecord { uci: "b1h1".into(), pv: "b1h1 b8h8 f1e1".into(), ..MoveRecord::default() },
            MoveRecord { uci: "b8h8".into(), pv: "b8h8 f1e1".into(), ..MoveRecord::default() },
        ];
        let lines = lines(&moves, start);
        assert_eq!(lines.mode, Some(CastlingMode::Chess960));
        assert_eq!(lines.unindexed, 0);
        assert_eq!(unpack(&pack(&moves, start).unwrap(), start).unwrap(), moves);
    }

    #[test]
    fn a_typical_ply_takes_a_few_bytes() {
        let ply = |i: u64| MoveRecord {
            uci: "e2e4".into(),
            san: "e4".into(),
            time_ms: 20 + i % 7,
            clock_ms: 1_000 - i,
            score_cp: Some(15),
            depth: Some(8),
            seldepth: Some(12),
            nodes: Some(20_000 + i * 13),
            nps: Some((20_000 + i * 13) * 1000 / (19 + i % 7)),
            pv: "e2e4 e7e5 g1f3 b8c6 f1b5".into(),
            latency_ms: Some(20),
            engine_ms: Some(19 + i % 7),
            score_mate: None,
        };
        let moves: Vec<MoveRecord> = (0..100).map(ply).collect();
        let packed = pack(&moves, start()).unwrap();
        assert!(packed.len() < 100 * 8, "{} bytes for 100 plies", packed.len());
        let lines = lines(&moves, start());
        let raw = lines.moves.len() + lines.words.len() + san(&moves).len() + numbers(&moves).len();
        assert!(raw < 100 * 30, "{raw} bytes before compression");
    }

    /// A format 3 value of `n` moves and castling notation byte `mode` made
    /// of `sections` as they are.
    fn value_of(n: u128, mode: u8, sections: [&[u8]; SECTIONS]) -> Vec<u8> {
        let mut v = vec![FORMAT];
        unsigned(&mut v, n);
        v.push(mode);
        let frames = sections.map(|s| if s.is_empty() { Vec::new() } else { zstd::bulk::compress(s, 1).unwrap() });
        for (section, frame) in sections.iter().zip(&frames) {
            unsigned(&mut v, section.len() as u128);
            unsigned(&mut v, frame.len() as u128);
        }
        frames.iter().for_each(|f| v.extend_from_slice(f));
        v
    }

    #[test]
    fn damaged_values_are_errors_not_panics() {
        let good = pack(&sample(), start()).unwrap();
        assert!(unpack(&[], start()).is_err());
        assert!(unpack(&[4, 0], start()).unwrap_err().to_string().contains("format 4"));
        for cut in 0..good.len() {
            assert!(unpack(&good[..cut], start()).is_err(), "cut at {cut}");
            let mut pgn = Vec::new();
            assert!(unpack_into(&good[..cut], &mut pgn, Fields::Pgn, start()).is_err(), "cut at {cut}");
        }
        let mut longer = good.clone();
        longer.push(0);
        assert!(unpack(&longer, start()).unwrap_err().to_string().contains("before their value"));
        // Sections that decompress but lie about their contents.
        let lines = lines(&sample(), start());
        let (san, numbers) = (san(&sample()), numbers(&sample()));
        let n = sample().len() as u128;
        let sections = [&lines.moves[..], &lines.words[..], &san[..], &numbers[..]];
        assert_eq!(unpack(&value_of(n, 1, sections), start()).unwrap(), sample());
        assert!(unpack(&value_of(n, 7, sections), start()).unwrap_err().to_string().contains("castling notation 7"));
        assert!(
            unpack(&value_of(u128::from(u64::MAX), 1, sections), start()).unwrap_err().to_string().contains("claim")
        );
        let huge = {
            let mut v = vec![FORMAT, 0, 1];
            unsigned(&mut v, u128::from(MAX_PAYLOAD) + 1);
            v.extend([0, 0, 0, 0, 0, 0, 0]);
            v
        };
        assert!(unpack(&huge, start()).unwrap_err().to_string().contains("more than"));
        let with = |i: usize, bytes: &[u8]| {
            let mut parts = sections;
            parts[i] = bytes;
            value_of(n, 1, parts)
        };
        let mut extra = lines.words.clone();
        extra.push(0);
        assert!(unpack(&with(1, &extra), start()).unwrap_err().to_string().contains("before their PV words"));
        assert!(unpack(&with(3, &[0xff; 10]), start()).is_err(), "column lengths past the end");
        // Every single-byte change of every section decodes or fails; it never panics.
        for (i, section) in sections.iter().enumerate() {
            for at in 0..section.len() {
                for b in [0u8, 1, 0x7f, 0x80, 0xfe, 0xff] {
                    let mut bad = section.to_vec();
                    bad[at] = b;
                    let value = with(i, &bad);
                    let _ = unpack(&value, start());
                    let _ = unpack_into(&value, &mut Vec::new(), Fields::Pgn, start());
                }
            }
        }
        // Format 2 payloads that lie.
        let lying = |payload: &[u8]| {
            let mut v = vec![FORMAT_ONE_FRAME];
            unsigned(&mut v, payload.len() as u128);
            v.extend(zstd::bulk::compress(payload, 1).unwrap());
            unpack(&v, start())
        };
        assert!(
            unpack(&[FORMAT_ONE_FRAME, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f], start())
                .unwrap_err()
                .to_string()
                .contains("more than")
        );
        assert!(lying(&[0xff, 0xff, 0xff, 0xff, 0x0f]).is_err(), "a count beyond the bytes");
        assert!(lying(&[1, 0, 0x00, 0xf0]).is_err(), "a token that is no move");
        assert!(lying(&[0, 7]).unwrap_err().to_string().contains("castling notation 7"));
    }
}
