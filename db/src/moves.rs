//! A game's moves as stored: one JSON array per game in `game_moves.moves_json`,
//! one array per move, `[uci, san, time_ms, clock_ms, score_cp, score_mate,
//! depth, seldepth, nodes, nps, pv]` (see `migrations/sqlite/0010_packed_moves.sql`),
//! and since `0012_machines.sql` two more when arena measured them:
//! `latency_ms, engine_ms`.
//! Games stored since `0013_packed_moves.sql` keep their moves packed
//! (`packed.rs`); this reads those stored before, and writes the format only
//! for tests.

use model::MoveRecord;

#[cfg(test)]
/// One stored move, in the column order of the view `moves`. Counts are
/// stored as signed 64-bit integers, as the table columns held them: a count
/// beyond `i64::MAX` (only a broken engine reports one) is stored as
/// `i64::MAX`, so that SQL reading the view (`::BIGINT` on PostgreSQL) never
/// meets a number out of range.
type Stored<'a> =
    (&'a str, &'a str, i64, i64, Option<i64>, Option<i64>, Option<i64>, Option<i64>, Option<i64>, Option<i64>, &'a str);

#[cfg(test)]
/// A move's measured times as stored: latency and the engine's own time.
type Times = (Option<i64>, Option<i64>);

#[cfg(test)]
/// [`Stored`] with the measured times.
type Timed<'a> = (
    &'a str,
    &'a str,
    i64,
    i64,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    &'a str,
    Option<i64>,
    Option<i64>,
);

/// One move read back; strings owned because JSON escapes may need decoding.
/// The measured times are absent from moves stored before they were kept.
#[derive(serde::Deserialize)]
struct Read(
    String,
    String,
    u64,
    u64,
    Option<i64>,
    Option<i64>,
    Option<u64>,
    Option<u64>,
    Option<u64>,
    Option<u64>,
    String,
    #[serde(default)] Option<u64>,
    #[serde(default)] Option<u64>,
);

#[cfg(test)]
/// The JSON stored for `moves`.
pub(crate) fn encode(moves: &[MoveRecord]) -> String {
    let mut json = String::with_capacity(moves.len() * 96 + 2);
    json.push('[');
    for (i, m) in moves.iter().enumerate() {
        if i > 0 {
            json.push(',');
        }
        let one = match stored(m) {
            (row, None) => serde_json::to_string(&row),
            ((a, b, c, d, e, f, g, h, i, j, k), Some((l, n))) => {
                let timed: Timed<'_> = (a, b, c, d, e, f, g, h, i, j, k, l, n);
                serde_json::to_string(&timed)
            }
        };
        json.push_str(&one.unwrap_or_else(|_| "null".into()));
    }
    json.push(']');
    json
}

#[cfg(test)]
/// A count as stored: a signed 64-bit integer (see [`Stored`]).
fn wide(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

#[cfg(test)]
/// A move's stored fields, and its measured times when it has them.
fn stored(m: &MoveRecord) -> (Stored<'_>, Option<Times>) {
    let row = (
        m.uci.as_str(),
        m.san.as_str(),
        wide(m.time_ms),
        wide(m.clock_ms),
        m.score_cp,
        m.score_mate,
        m.depth.map(wide),
        m.seldepth.map(wide),
        m.nodes.map(wide),
        m.nps.map(wide),
        m.pv.as_str(),
    );
    let timed =
        (m.latency_ms.is_some() || m.engine_ms.is_some()).then(|| (m.latency_ms.map(wide), m.engine_ms.map(wide)));
    (row, timed)
}

/// The moves of a stored value; a value that is not a list of moves (only
/// a hand-edited database has one) is an error naming what is wrong.
pub(crate) fn decode(json: &str) -> Result<Vec<MoveRecord>, serde_json::Error> {
    // The values arena writes (and PostgreSQL's `json_agg`, which adds
    // spaces) take the fast path; anything else, strings with escapes say,
    // goes through serde_json.
    match Fast::new(json).moves() {
        Some(moves) => Ok(moves),
        None => decode_json(json),
    }
}

impl From<Read> for MoveRecord {
    fn from(r: Read) -> MoveRecord {
        MoveRecord {
            uci: r.0,
            san: r.1,
            time_ms: r.2,
            clock_ms: r.3,
            score_cp: r.4,
            score_mate: r.5,
            depth: r.6,
            seldepth: r.7,
            nodes: r.8,
            nps: r.9,
            pv: r.10,
            latency_ms: r.11,
            engine_ms: r.12,
        }
    }
}

fn decode_json(json: &str) -> Result<Vec<MoveRecord>, serde_json::Error> {
    let rows: Vec<Read> = serde_json::from_str(json)?;
    Ok(rows.into_iter().map(MoveRecord::from).collect())
}

/// A reader of the stored layout alone: arrays of two strings, eight
/// integers or nulls, and a string, none with escapes. `None` at anything
/// else (the caller falls back to serde_json). `arena pgn` spends most of
/// its time here: a general JSON decoder took 2.5 times as long.
struct Fast<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Fast<'a> {
    fn new(json: &'a str) -> Fast<'a> {
        Fast { bytes: json.as_bytes(), at: 0 }
    }

    fn skip_spaces(&mut self) {
        while self.bytes.get(self.at).is_some_and(u8::is_ascii_whitespace) {
            self.at += 1;
        }
    }

    /// Consumes `byte` (after spaces).
    fn eat(&mut self, byte: u8) -> Option<()> {
        self.skip_spaces();
        (self.bytes.get(self.at) == Some(&byte)).then(|| self.at += 1)
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_spaces();
        self.bytes.get(self.at).copied()
    }

    fn string(&mut self) -> Option<String> {
        self.eat(b'"')?;
        let start = self.at;
        let len = self.bytes[start..].iter().position(|&b| b == b'"' || b == b'\\')?;
        self.at = start + len;
        self.eat(b'"')?;
        // Between two ASCII quotes of a `str`: still valid UTF-8.
        std::str::from_utf8(&self.bytes[start..start + len]).ok().map(str::to_string)
    }

    fn integer(&mut self) -> Option<Option<i64>> {
        if self.peek()? == b'n' {
            return self.bytes[self.at..].starts_with(b"null").then(|| {
                self.at += 4;
                None
            });
        }
        let negative = self.bytes[self.at] == b'-';
        self.at += usize::from(negative);
        let start = self.at;
        let mut value: i64 = 0;
        while let Some(digit) = self.bytes.get(self.at).filter(|b| b.is_ascii_digit()) {
            value = value.checked_mul(10)?.checked_add(i64::from(digit - b'0'))?;
            self.at += 1;
        }
        (self.at > start).then_some(Some(if negative { -value } else { value }))
    }

    fn moves(mut self) -> Option<Vec<MoveRecord>> {
        self.eat(b'[')?;
        let mut moves = Vec::with_capacity(self.bytes.len() / 64);
        if self.eat(b']').is_some() {
            return Some(moves);
        }
        loop {
            moves.push(self.one()?);
            if self.eat(b',').is_none() {
                self.eat(b']')?;
                self.skip_spaces();
                return (self.at == self.bytes.len()).then_some(moves);
            }
        }
    }

    fn one(&mut self) -> Option<MoveRecord> {
        self.eat(b'[')?;
        let uci = self.string()?;
        self.eat(b',')?;
        let san = self.string()?;
        let mut numbers = [None; 8];
        for number in &mut numbers {
            self.eat(b',')?;
            *number = self.integer()?;
        }
        self.eat(b',')?;
        let pv = self.string()?;
        let mut timed = [None; 2];
        if self.eat(b',').is_some() {
            timed[0] = self.integer()?;
            self.eat(b',')?;
            timed[1] = self.integer()?;
        }
        self.eat(b']')?;
        let [time_ms, clock_ms, score_cp, score_mate, depth, seldepth, nodes, nps] = numbers;
        let unsigned = |v: Option<i64>| v.map(u64::try_from).transpose().ok();
        Some(MoveRecord {
            uci,
            san,
            time_ms: u64::try_from(time_ms?).ok()?,
            clock_ms: u64::try_from(clock_ms?).ok()?,
            score_cp,
            score_mate,
            depth: unsigned(depth)?,
            seldepth: unsigned(seldepth)?,
            nodes: unsigned(nodes)?,
            nps: unsigned(nps)?,
            pv,
            latency_ms: unsigned(timed[0])?,
            engine_ms: unsigned(timed[1])?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_read_back_as_written() {
        let moves = vec![
            MoveRecord {
                uci: "e2e4".into(),
                san: "e4".into(),
                time_ms: 12,
                clock_ms: 59_988,
                score_cp: Some(-31),
                depth: Some(9),
                seldepth: Some(14),
                nodes: Some(123_456_789_012_345),
                nps: Some(1_000_000),
                pv: "e2e4 e7e5 \"quoted\\".into(),
                ..MoveRecord::default()
            },
            MoveRecord { uci: "e7e5".into(), san: "e5".into(), score_mate: Some(-3), ..MoveRecord::default() },
            MoveRecord { uci: "g1f3".into(), san: "Nf3".into(), latency_ms: Some(7), ..MoveRecord::default() },
            MoveRecord { uci: "b8c6".into(), latency_ms: Some(9), engine_ms: Some(4), ..MoveRecord::default() },
        ];
        let json = encode(&moves);
        assert_eq!(decode(&json).unwrap(), moves);
        // Without the escaped PV the fast reader takes it; PostgreSQL's spacing too.
        let plain = &moves[1..];
        assert_eq!(Fast::new(&encode(plain)).moves().as_deref(), Some(plain));
        assert!(Fast::new(&json).moves().is_none(), "escapes go to serde_json");
        assert_eq!(decode(&encode(plain)).unwrap(), plain);
        let spaced = r#"[["e7e5", "e5", 0, 0, null, -3, null, null, null, null, ""], ["g1f3", "Nf3", 0, 0,
            null, null, null, null, null, null, "", 7, null], ["b8c6", "", 0, 0, null, null, null, null, null, null,
            "", 9, 4]]"#;
        assert_eq!(Fast::new(spaced).moves().as_deref(), Some(plain));
        assert_eq!(decode(spaced).unwrap(), plain);
        // Moves stored before the times were kept have eleven fields.
        assert!(
            encode(&plain[..1]).ends_with(r#""e5",0,0,null,-3,null,null,null,null,""]]"#),
            "{}",
            encode(&plain[..1])
        );
        assert_eq!(decode("[]").unwrap(), Vec::new());
        assert!(decode("[[\"e2e4\"]]").is_err());
        assert!(decode("not json").is_err());
        // A count past i64::MAX is stored as i64::MAX, as the table columns held it.
        let huge = MoveRecord { nodes: Some(u64::MAX), ..moves[1].clone() };
        assert_eq!(decode(&encode(&[huge])).unwrap()[0].nodes, Some(i64::MAX as u64));
    }
}
