//! A game's moves packed: every field of every [`MoveRecord`] kept, in a few
//! bytes per ply (`packed_moves.data`, since `0013_packed_moves.sql`).
//!
//! The value is a format byte ([`FORMAT`]), the payload's length as a
//! varint, and the payload compressed by zstd. The payload is laid out by
//! column, so that the compressor sees like beside like: the number of
//! moves, the castling notation moves and PVs are indexed in (see
//! [`crate::lines`]; 0 when the game's start cannot be set up), then each
//! field for every move in turn:
//!
//! | column | encoding |
//! |---|---|
//! | move and PV | per move: [`MOVE_PREDICTED`] when the move is the reply the previous move's PV expected, else the move's index among the legal moves of the position the game reached, else [`MOVE_TOKEN`] and a token; then the PV: 0 and its text as it is, or 1 + (words × 4 + 2 × whether they are indices + whether the first word is the move itself, not stored again), then the words: a byte each, the move's index among the legal moves of the position the game (and the PV before it) reached, or a token each when a word is no legal move there |
//! | SAN | length, bytes |
//! | time | unsigned |
//! | clock | signed: the difference from the mover's clock two plies before − this move's time (the increment, mostly) |
//! | centipawns, mate | optional signed |
//! | depth, seldepth, nodes | optional unsigned |
//! | latency | optional signed: the difference from the time (mostly 0) |
//! | engine time | optional signed: the difference from the latency, or from the time without one |
//! | nodes per second | optional signed: the difference from nodes × 1000 ÷ engine time when both are known (what most engines print, so mostly 0), else from 0 |
//!
//! Numbers are LEB128 varints (unsigned; signed by zigzag; optional: 0 for
//! none, else the value + 1). A token is a move `a1..h8 a1..h8 [nbrq]`
//! packed in two bytes (from + 64 × to + 4096 × promotion), or `0xFFFF`,
//! length and bytes for any other word (engine output is kept as it came).
//! A PV whose text is not its words joined by single spaces is kept as text.
//! Values of format 1 (moves and PVs as tokens, the move [`PREDICTED`] by
//! the PV before it as a token too, no castling notation, PV header 1 +
//! tokens × 2 + repeats) are read as they are.
//!
//! Decoding reads untrusted bytes: every length is checked, the payload is
//! capped at [`MAX_PAYLOAD`], and a malformed value is an error, never a panic.

use crate::lines::{Start, Walk, mode_byte, mode_of};
use model::MoveRecord;
use shakmaty::CastlingMode;

/// The format byte of the values written here.
pub(crate) const FORMAT: u8 = 2;

/// The format before moves and PVs were indexed: every move and PV word a token.
const FORMAT_TOKENS: u8 = 1;

/// Compression level: level 9 packed the scaling snapshot's 1,834 games into
/// the same 4.9 MB, and no faster to store; 3 is zstd's default.
const LEVEL: i32 = 3;

/// The largest payload a value may declare (a game of 10,000 plies with
/// 100-move PVs fits in a sixth of it).
const MAX_PAYLOAD: u64 = 16 << 20;

/// The fewest payload bytes a move takes (a token, and a byte for every
/// other column): a count of moves beyond the payload ÷ this is refused
/// before anything is allocated for it.
const MIN_MOVE_BYTES: u128 = 14;

/// A token that is not a packed move: its text follows.
const LITERAL: u16 = 0xFFFF;

/// A move that is the second word of the previous move's PV (format 1).
const PREDICTED: u16 = 0xFFFE;

/// A move entry of format 2 that is the second word of the previous move's
/// PV; any other byte below [`MOVE_TOKEN`] is the move's index among the
/// legal moves.
const MOVE_PREDICTED: u8 = 0xFF;

/// A move entry of format 2 whose move is no legal move in the position the
/// game reached (or none is known): a token follows.
const MOVE_TOKEN: u8 = 0xFE;

/// The moves packed, moves and PVs indexed in the positions reached from
/// `start`; an error only when the compressor cannot get memory.
pub(crate) fn pack(moves: &[MoveRecord], start: Start<'_>) -> Result<Vec<u8>, String> {
    let payload = payload(moves, start);
    let frame = zstd::bulk::compress(&payload, LEVEL).map_err(|e| format!("cannot compress a game's moves: {e}"))?;
    let mut out = Vec::with_capacity(frame.len() + 8);
    out.push(FORMAT);
    unsigned(&mut out, payload.len() as u128);
    out.extend_from_slice(&frame);
    Ok(out)
}

/// The moves of a packed value; an error names what is wrong with it.
#[cfg(test)]
pub(crate) fn unpack(value: &[u8], start: Start<'_>) -> Result<Vec<MoveRecord>, String> {
    let mut moves = Vec::new();
    unpack_into(value, &mut moves, true, start)?;
    Ok(moves)
}

/// The moves of a packed value into `moves`, whose strings are reused (an
/// export reads millions of moves through one such vector per thread);
/// without `lines`, each move's UCI text and PV are left empty (a PGN
/// without PVs writes neither, and building them is most of the decoding:
/// indexed PVs are replayed from `start`).
pub(crate) fn unpack_into(
    value: &[u8],
    moves: &mut Vec<MoveRecord>,
    lines: bool,
    start: Start<'_>,
) -> Result<(), String> {
    let mut header = Reader { bytes: value, at: 0, indexed: false };
    let format = header.byte()?;
    if format != FORMAT && format != FORMAT_TOKENS {
        return Err(format!("packed moves of format {format}, this arena reads formats {FORMAT_TOKENS} and {FORMAT}"));
    }
    let len = header.unsigned()?;
    if len > u128::from(MAX_PAYLOAD) {
        return Err(format!("packed moves declare {len} bytes, more than the {MAX_PAYLOAD} a game may hold"));
    }
    // Below MAX_PAYLOAD, so it fits a usize.
    let len = len as usize;
    // One decompression context per thread, kept: making one is a tenth of
    // unpacking a game.
    thread_local! {
        static DECOMPRESSOR: std::cell::RefCell<Option<zstd::bulk::Decompressor<'static>>> =
            const { std::cell::RefCell::new(None) };
    }
    let payload = DECOMPRESSOR
        .with_borrow_mut(|kept| {
            let decompressor = match kept {
                Some(decompressor) => decompressor,
                None => kept.insert(zstd::bulk::Decompressor::new()?),
            };
            decompressor.decompress(&value[header.at..], len)
        })
        .map_err(|e| format!("packed moves do not decompress: {e}"))?;
    if payload.len() != len {
        return Err(format!("packed moves hold {} bytes, their header says {len}", payload.len()));
    }
    read_payload(&payload, moves, lines, format == FORMAT, start)
}

/// The uncompressed columns, moves and PVs indexed in standard castling
/// notation, or in Chess960's when that indexes more of them.
fn payload(moves: &[MoveRecord], start: Start<'_>) -> Vec<u8> {
    let standard = columns(moves, Walk::new(start, CastlingMode::Standard));
    if standard.unindexed == 0 {
        return standard.bytes;
    }
    let chess960 = columns(moves, Walk::new(start, CastlingMode::Chess960));
    if chess960.unindexed < standard.unindexed { chess960.bytes } else { standard.bytes }
}

/// A payload, and how many of its moves and PVs are not indexed.
struct Columns {
    bytes: Vec<u8>,
    unindexed: usize,
}

/// The uncompressed columns, moves and PVs indexed along `walk`.
fn columns(moves: &[MoveRecord], mut walk: Walk) -> Columns {
    let mut out = Vec::with_capacity(moves.len() * 40 + 8);
    unsigned(&mut out, moves.len() as u128);
    out.push(mode_byte(walk.known().then(|| walk.mode())));
    let mut unindexed = 0;
    for (i, m) in moves.iter().enumerate() {
        if i > 0 && predicted(&moves[i - 1]) == Some(m.uci.as_str()) {
            out.push(MOVE_PREDICTED);
        } else if let Some(index) = walk.index(&m.uci) {
            out.push(index);
        } else {
            out.push(MOVE_TOKEN);
            token(&mut out, &m.uci);
            unindexed += 1;
        }
        if !pv(&mut out, m, &mut walk) {
            unindexed += 1;
        }
    }
    for m in moves {
        text(&mut out, &m.san);
    }
    for m in moves {
        unsigned(&mut out, m.time_ms.into());
    }
    for (i, m) in moves.iter().enumerate() {
        signed(&mut out, i128::from(m.clock_ms) - expected_clock(moves, i, m.time_ms));
    }
    for column in [|m: &MoveRecord| m.score_cp, |m: &MoveRecord| m.score_mate] {
        for m in moves {
            optional_signed(&mut out, column(m).map(i128::from));
        }
    }
    type Column = fn(&MoveRecord) -> Option<u64>;
    let columns: [Column; 3] = [|m| m.depth, |m| m.seldepth, |m| m.nodes];
    for column in columns {
        for m in moves {
            optional_unsigned(&mut out, column(m));
        }
    }
    for m in moves {
        optional_signed(&mut out, m.latency_ms.map(|ms| i128::from(ms) - i128::from(m.time_ms)));
    }
    for m in moves {
        optional_signed(&mut out, m.engine_ms.map(|ms| i128::from(ms) - engine_base(m)));
    }
    for m in moves {
        optional_signed(&mut out, m.nps.map(|nps| i128::from(nps) - derived_nps(m)));
    }
    Columns { bytes: out, unindexed }
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

fn read_payload(
    payload: &[u8],
    moves: &mut Vec<MoveRecord>,
    lines: bool,
    indexed: bool,
    start: Start<'_>,
) -> Result<(), String> {
    let mut r = Reader { bytes: payload, at: 0, indexed };
    let n = r.unsigned()?;
    if n * MIN_MOVE_BYTES > payload.len() as u128 {
        return Err(format!("packed moves claim {n} moves in {} bytes", payload.len()));
    }
    // Below the payload's length, so it fits a usize.
    let n = n as usize;
    let mode = if indexed { mode_of(r.byte()?)? } else { None };
    // The positions are replayed only when moves' UCI text and PVs are read.
    let mut walk = match mode {
        Some(mode) if lines => Walk::new(start, mode),
        _ => Walk::none(),
    };
    moves.truncate(n);
    moves.resize_with(n, MoveRecord::default);
    for i in 0..n {
        let (before, rest) = moves.split_at_mut(i);
        let m = &mut rest[0];
        m.uci.clear();
        m.pv.clear();
        if !lines {
            r.skip_move()?;
            r.skip_pv()?;
            continue;
        }
        if r.move_into(&mut m.uci, &walk)? {
            let previous = before.last().and_then(predicted);
            m.uci.push_str(previous.ok_or("a move predicted by no PV")?);
        }
        r.pv_into(&m.uci, &mut m.pv, &mut walk)?;
    }
    for m in moves.iter_mut() {
        m.san.clear();
        r.push_text(&mut m.san)?;
    }
    for m in moves.iter_mut() {
        m.time_ms = r.u64()?;
    }
    for i in 0..moves.len() {
        let clock = r.signed()?.checked_add(expected_clock(moves, i, moves[i].time_ms));
        moves[i].clock_ms = clock.and_then(|c| u64::try_from(c).ok()).ok_or("a clock out of range")?;
    }
    for m in moves.iter_mut() {
        m.score_cp = r.optional_signed()?.map(i64::try_from).transpose().map_err(|_| "a score out of range")?;
    }
    for m in moves.iter_mut() {
        m.score_mate = r.optional_signed()?.map(i64::try_from).transpose().map_err(|_| "a mate out of range")?;
    }
    type Field = fn(&mut MoveRecord) -> &mut Option<u64>;
    let fields: [Field; 3] = [|m| &mut m.depth, |m| &mut m.seldepth, |m| &mut m.nodes];
    for field in fields {
        for m in moves.iter_mut() {
            *field(m) = r.optional_u64()?;
        }
    }
    for m in moves.iter_mut() {
        m.latency_ms = r.optional_against(i128::from(m.time_ms))?;
    }
    for m in moves.iter_mut() {
        m.engine_ms = r.optional_against(engine_base(m))?;
    }
    for m in moves.iter_mut() {
        m.nps = r.optional_against(derived_nps(m))?;
    }
    if r.at != payload.len() {
        return Err(format!("packed moves end {} bytes before their payload does", payload.len() - r.at));
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

/// Move `m`'s PV, its words indexed from the position before the move (or
/// after it, when the PV starts with it); `walk` is then moved past the
/// move. False when the PV has words and they are not indexed.
fn pv(out: &mut Vec<u8>, m: &MoveRecord, walk: &mut Walk) -> bool {
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
        Some(indices) => out.extend_from_slice(indices),
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
    fn byte(&mut self) -> Result<u8, String> {
        let b = *self.bytes.get(self.at).ok_or("packed moves end too early")?;
        self.at += 1;
        Ok(b)
    }

    fn unsigned(&mut self) -> Result<u128, String> {
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

    fn u64(&mut self) -> Result<u64, String> {
        u64::try_from(self.unsigned()?).map_err(|_| "a number out of range".into())
    }

    fn optional_u64(&mut self) -> Result<Option<u64>, String> {
        match self.unsigned()? {
            0 => Ok(None),
            v => u64::try_from(v - 1).map(Some).map_err(|_| "a number out of range".into()),
        }
    }

    fn signed(&mut self) -> Result<i128, String> {
        let z = self.unsigned()?;
        Ok((z >> 1) as i128 ^ -((z & 1) as i128))
    }

    fn optional_signed(&mut self) -> Result<Option<i128>, String> {
        match self.unsigned()? {
            0 => Ok(None),
            v => {
                let z = v - 1;
                Ok(Some((z >> 1) as i128 ^ -((z & 1) as i128)))
            }
        }
    }

    /// An optional count stored as its difference from `base`.
    fn optional_against(&mut self, base: i128) -> Result<Option<u64>, String> {
        match self.optional_signed()? {
            None => Ok(None),
            Some(delta) => {
                Ok(Some(delta.checked_add(base).and_then(|v| u64::try_from(v).ok()).ok_or("a number out of range")?))
            }
        }
    }

    /// A text, appended to `out`.
    fn push_text(&mut self, out: &mut String) -> Result<(), String> {
        let len = usize::try_from(self.unsigned()?).map_err(|_| "a text too long")?;
        let end = self.at.checked_add(len).filter(|&end| end <= self.bytes.len()).ok_or("a text past the end")?;
        out.push_str(std::str::from_utf8(&self.bytes[self.at..end]).map_err(|_| "a text that is not UTF-8")?);
        self.at = end;
        Ok(())
    }

    /// A move column's token appended to `uci`; true when it is
    /// [`PREDICTED`] (then nothing is appended).
    fn token_into(&mut self, uci: &mut String) -> Result<bool, String> {
        match self.code()? {
            LITERAL => self.push_text(uci).map(|()| false),
            PREDICTED => Ok(true),
            v => crate::uci_code::push_text(uci, v).map(|()| false),
        }
    }

    /// A move entry appended to `uci`; true when the move is the one the
    /// previous move's PV predicted (then nothing is appended).
    fn move_into(&mut self, uci: &mut String, walk: &Walk) -> Result<bool, String> {
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
    fn skip_move(&mut self) -> Result<(), String> {
        if !self.indexed {
            return self.skip_token();
        }
        match self.byte()? {
            MOVE_TOKEN => self.skip_token(),
            _ => Ok(()),
        }
    }

    /// Past a text.
    fn skip_text(&mut self) -> Result<(), String> {
        let len = usize::try_from(self.unsigned()?).map_err(|_| "a text too long")?;
        self.at = self.at.checked_add(len).filter(|&end| end <= self.bytes.len()).ok_or("a text past the end")?;
        Ok(())
    }

    /// Past a token.
    fn skip_token(&mut self) -> Result<(), String> {
        match self.code()? {
            LITERAL => self.skip_text(),
            _ => Ok(()),
        }
    }

    /// Past a PV.
    fn skip_pv(&mut self) -> Result<(), String> {
        match self.pv_header()? {
            None => self.skip_text(),
            Some(PvHeader { count, indices: true, .. }) => self.take(count).map(|_| ()),
            Some(PvHeader { count, .. }) => (0..count).try_for_each(|_| self.skip_token()),
        }
    }

    /// A PV's header: `None` for a PV kept as text.
    fn pv_header(&mut self) -> Result<Option<PvHeader>, String> {
        let header = self.unsigned()?;
        if header == 0 {
            return Ok(None);
        }
        let v = header - 1;
        let (count, indices) = if self.indexed { (v >> 2, v & 2 != 0) } else { (v >> 1, false) };
        // Every word takes a byte at least.
        if count > (self.bytes.len() - self.at) as u128 {
            return Err("a PV longer than its bytes".into());
        }
        Ok(Some(PvHeader { count: count as usize, indices, repeats_move: v & 1 == 1 }))
    }

    /// The next `count` bytes.
    fn take(&mut self, count: usize) -> Result<&[u8], String> {
        let end = self.at.checked_add(count).filter(|&end| end <= self.bytes.len()).ok_or("a PV past the end")?;
        let taken = &self.bytes[self.at..end];
        self.at = end;
        Ok(taken)
    }

    /// A token's two bytes.
    fn code(&mut self) -> Result<u16, String> {
        let lo = self.byte()?;
        let hi = self.byte()?;
        Ok(u16::from_le_bytes([lo, hi]))
    }

    /// A PV's word, appended to `pv`: a token, never [`PREDICTED`] (written
    /// in place: a PV of ten moves is one allocation, not eleven).
    fn push_word(&mut self, pv: &mut String) -> Result<(), String> {
        match self.code()? {
            LITERAL => self.push_text(pv),
            PREDICTED => Err("a PV word marked as predicted".into()),
            v => crate::uci_code::push_text(pv, v),
        }
    }

    /// Move `uci`'s PV into `pv` (cleared first), indices read along
    /// `walk`, which is then moved past the move.
    fn pv_into(&mut self, uci: &str, pv: &mut String, walk: &mut Walk) -> Result<(), String> {
        pv.clear();
        let Some(PvHeader { count, indices, repeats_move }) = self.pv_header()? else {
            walk.play(uci);
            return self.push_text(pv);
        };
        if repeats_move {
            pv.push_str(uci);
        }
        if indices {
            let indices = self.take(count)?;
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
        let indexed = payload(&moves, start());
        let tokens = payload(&moves, Start { fen: "nowhere", opening: &[] });
        // Four words after the move in each PV: one byte each instead of two;
        // the first move one byte instead of a marker and two (the others
        // are each predicted by the PV before them).
        assert_eq!(tokens.len() - indexed.len(), 402, "{} against {} bytes", indexed.len(), tokens.len());
        assert_eq!(unpack(&pack(&moves, start()).unwrap(), start()).unwrap(), moves);
        // Read from a start other than the one written, the PV is an error, not other moves.
        let elsewhere = Start { fen: "8/8/8/8/8/8/8/K6k w - - 0 1", opening: &[] };
        assert!(unpack(&pack(&moves, start()).unwrap(), elsewhere).is_err());
        // A PV with an illegal word keeps its tokens; the others are indexed still.
        let mut moves = knights(8);
        moves[3].pv = "f6g8 g1f3 g1f3".into();
        assert_eq!(unpack(&pack(&moves, start()).unwrap(), start()).unwrap(), moves);
        assert_eq!(columns(&moves, Walk::new(start(), CastlingMode::Standard)).unindexed, 1);
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
        let payload = payload(&moves, start);
        assert_eq!(payload[1], mode_byte(Some(CastlingMode::Chess960)));
        assert_eq!(columns(&moves, Walk::new(start, CastlingMode::Chess960)).unindexed, 0);
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
        let payload = payload(&moves, start());
        assert!(payload.len() < 100 * 30, "{} payload bytes", payload.len());
    }

    #[test]
    fn damaged_values_are_errors_not_panics() {
        let good = pack(&sample(), start()).unwrap();
        assert!(unpack(&[], start()).is_err());
        assert!(unpack(&[3, 0], start()).unwrap_err().contains("format 3"));
        assert!(
            unpack(&[FORMAT, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f], start()).unwrap_err().contains("more than")
        );
        for cut in 0..good.len() {
            assert!(unpack(&good[..cut], start()).is_err(), "cut at {cut}");
        }
        // Payloads that decompress but lie about their contents.
        let lying = |payload: &[u8]| {
            let mut v = vec![FORMAT];
            unsigned(&mut v, payload.len() as u128);
            v.extend(zstd::bulk::compress(payload, 1).unwrap());
            unpack(&v, start())
        };
        assert!(lying(&[0xff, 0xff, 0xff, 0xff, 0x0f]).is_err(), "a count beyond the bytes");
        assert!(lying(&[1, 0, 0x00, 0xf0]).is_err(), "a token that is no move");
        assert!(lying(&[0, 7]).unwrap_err().contains("castling notation 7"));
        let mut payload = payload(&sample(), start());
        payload.push(0);
        assert!(lying(&payload).unwrap_err().contains("before their payload"));
        // Every single-byte change decodes or fails; it never panics.
        let payload = super::payload(&sample(), start());
        for i in 0..payload.len() {
            for b in [0u8, 1, 0x7f, 0x80, 0xff] {
                let mut bad = payload.clone();
                bad[i] = b;
                let _ = lying(&bad);
            }
        }
    }
}
