//! Test positions from EPD (or plain FEN) with the opcodes test suites use:
//! `bm` (best moves), `am` (moves to avoid), `id`, `dm` (mate in N). Moves in
//! opcodes are SAN, resolved against the position (`+`, `#`, `!`, `?`
//! suffixes tolerated); UCI is accepted too. Loose EPD — a 6-field FEN before
//! the opcodes, or a missing final `;` — is read where unambiguous. A line that
//! cannot be read is reported as `file:line: problem` and skipped.

use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move};

use crate::BadLine;

/// One test position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestPosition {
    /// `id` opcode, or `file#line`.
    pub id: String,
    /// The position as a full FEN.
    pub fen: String,
    /// Best moves, UCI.
    pub best: Vec<String>,
    /// Moves to avoid, UCI.
    pub avoid: Vec<String>,
    /// Mate in this many moves (`dm`), for mate suites.
    pub mate_in: Option<u32>,
}

impl TestPosition {
    /// Whether `best_move` (UCI) with the final `mate` score (moves, from the
    /// engine's view) solves the position: a mate of at most `dm` moves when
    /// `dm` is given, else one of `bm` and none of `am`.
    pub fn solved_by(&self, best_move: Option<&str>, mate: Option<i64>) -> bool {
        if let Some(dm) = self.mate_in {
            return mate.is_some_and(|m| m > 0 && m <= i64::from(dm));
        }
        let Some(mv) = best_move else { return false };
        let avoided = !self.avoid.iter().any(|a| a == mv);
        if self.best.is_empty() {
            avoided && !self.avoid.is_empty()
        } else {
            avoided && self.best.iter().any(|b| b == mv)
        }
    }
}

/// Positions read from a suite file, and the lines that were skipped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParsedSuite {
    /// The positions, in file order.
    pub positions: Vec<TestPosition>,
    /// `file:line: problem` for each skipped line.
    pub skipped: Vec<String>,
}

/// Reads a suite; `file` names it in ids and messages; `default_mate_in`
/// applies to positions without `dm` (the `mateN` files are plain FEN).
pub fn parse_suite(file: &str, text: &str, default_mate_in: Option<u32>) -> ParsedSuite {
    let mut suite = ParsedSuite::default();
    for (index, raw) in text.lines().enumerate() {
        let line = raw.trim().trim_start_matches('\u{feff}');
        if line.is_empty() || line.starts_with('#') || line.starts_with("//") {
            continue;
        }
        match parse_line(line, default_mate_in) {
            Ok(mut position) => {
                if position.id.is_empty() {
                    position.id = format!("{file}#{}", index + 1);
                }
                suite.positions.push(position);
            }
            Err(problem) => suite.skipped.push(format!("{file}:{}: {problem}", index + 1)),
        }
    }
    suite
}

fn parse_line(line: &str, default_mate_in: Option<u32>) -> Result<TestPosition, BadLine> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 4 {
        return Err(BadLine::Shape {
            expected: "not an EPD or FEN line (fewer than 4 fields)",
            line: line.chars().take(60).collect(),
        });
    }
    // A 6-field FEN has two numbers after the en-passant square.
    let counters = fields.len() >= 6 && fields[4].parse::<u32>().is_ok() && fields[5].parse::<u32>().is_ok();
    let (fen_text, ops) = if counters {
        // Some suites write full move 0; FEN counts from 1.
        let full_move = fields[5].parse::<u32>().unwrap_or(1).max(1);
        (format!("{} {full_move}", fields[..5].join(" ")), fields[6..].join(" "))
    } else {
        (format!("{} 0 1", fields[..4].join(" ")), fields[4..].join(" "))
    };
    let fen: Fen = fen_text.parse().map_err(|e| BadLine::Fen { fen: fen_text.clone(), problem: format!("{e}") })?;
    let position: Chess = fen
        .into_position(CastlingMode::Standard)
        .map_err(|e| BadLine::Position { fen: fen_text.clone(), problem: e.to_string() })?;
    let mut test = TestPosition {
        id: String::new(),
        fen: Fen::from_position(&position, EnPassantMode::Legal).to_string(),
        best: Vec::new(),
        avoid: Vec::new(),
        mate_in: default_mate_in,
    };
    for (opcode, operands) in opcodes(&ops) {
        match opcode.as_str() {
            "bm" => test.best = moves(&position, &operands)?,
            "am" => test.avoid = moves(&position, &operands)?,
            "id" => test.id = operands.join(" ").trim_matches('"').to_string(),
            "dm" => {
                let n = operands.first().and_then(|n| n.parse::<u32>().ok()).filter(|n| *n > 0);
                test.mate_in = Some(n.ok_or_else(|| BadLine::MateIn(operands.join(" ")))?);
            }
            _ => {}
        }
    }
    Ok(test)
}

/// Splits `op a b; op c; …` into opcodes and operands. Without `;` between
/// them (loose EPD), a known opcode name starts a new operation.
fn opcodes(ops: &str) -> Vec<(String, Vec<String>)> {
    const KNOWN: [&str; 4] = ["bm", "am", "id", "dm"];
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for part in ops.split(';') {
        let mut tokens = quoted_tokens(part).into_iter();
        let Some(first) = tokens.next() else { continue };
        out.push((first, Vec::new()));
        for token in tokens {
            if KNOWN.contains(&token.as_str()) {
                out.push((token, Vec::new()));
            } else if let Some(last) = out.last_mut() {
                last.1.push(token);
            }
        }
    }
    out
}

/// Whitespace-separated tokens, with a double-quoted string kept whole.
fn quoted_tokens(text: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    for c in text.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                current.push(c);
            }
            c if c.is_whitespace() && !quoted => {
                if !current.is_empty() {
                    tokens.push(std::mem::take(&mut current));
                }
            }
            c => current.push(c),
        }
    }
    if !current.is_empty() {
        tokens.push(current);
    }
    tokens
}

fn moves(position: &Chess, operands: &[String]) -> Result<Vec<String>, BadLine> {
    operands
        .iter()
        .map(|text| {
            let clean = text.trim_end_matches(['+', '#', '!', '?']).trim_end_matches(',');
            let mv: Option<Move> = clean
                .parse::<San>()
                .ok()
                .and_then(|san| san.to_move(position).ok())
                .or_else(|| clean.parse::<UciMove>().ok().and_then(|uci| uci.to_move(position).ok()));
            mv.map(|m| m.to_uci(CastlingMode::Standard).to_string()).ok_or_else(|| BadLine::IllegalAnswer(text.clone()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_strict_loose_and_plain_lines() {
        let text = "\
# comment
2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";
7R/2k1p2P/r2rP3/8/3p1R2/8/2P2p2/2K5 w - - 0 1 bm Rc8+ dm 26
8/1p3Qb1/p5pk/P1p1p1p1/1P2P1P1/2P1N2n/5P1P/4qB1K w - - 1 0
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - am e4 d4; bm Nf3 g3
not a position
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm Ke2
";
        let suite = parse_suite("t.epd", text, None);
        assert_eq!(suite.skipped.len(), 2, "{:?}", suite.skipped);
        assert!(suite.skipped[0].starts_with("t.epd:6: not an EPD"), "{:?}", suite.skipped);
        assert!(suite.skipped[1].starts_with("t.epd:7: move 'Ke2' is not legal"), "{:?}", suite.skipped);
        let p = &suite.positions;
        assert_eq!(p.len(), 4);
        assert_eq!((p[0].id.as_str(), p[0].best.clone()), ("WAC.001", vec!["g3g6".to_string()]));
        assert_eq!((p[1].best.clone(), p[1].mate_in), (vec!["h8c8".to_string()], Some(26)));
        assert_eq!(p[1].id, "t.epd#3");
        assert_eq!(p[2].fen, "8/1p3Qb1/p5pk/P1p1p1p1/1P2P1P1/2P1N2n/5P1P/4qB1K w - - 1 0".replace(" 1 0", " 1 1"));
        assert_eq!((p[3].avoid.len(), p[3].best.clone()), (2, vec!["g1f3".to_string(), "g2g3".to_string()]));
    }

    #[test]
    fn solved_means_best_not_avoided_or_mate_in_time() {
        let suite = parse_suite("t", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - am e4; bm Nf3 d4;", None);
        let p = &suite.positions[0];
        assert!(p.solved_by(Some("g1f3"), None) && p.solved_by(Some("d2d4"), Some(3)));
        assert!(!p.solved_by(Some("e2e4"), None) && !p.solved_by(Some("c2c4"), None) && !p.solved_by(None, None));
        let avoid_only = parse_suite("t", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - am e4;", None);
        assert!(avoid_only.positions[0].solved_by(Some("d2d4"), None));
        assert!(!avoid_only.positions[0].solved_by(Some("e2e4"), None));
        let mate = parse_suite("t", "8/1p3Qb1/p5pk/P1p1p1p1/1P2P1P1/2P1N2n/5P1P/4qB1K w - - 1 0", Some(2));
        let m = &mate.positions[0];
        assert!(m.solved_by(Some("f7f8"), Some(2)) && m.solved_by(None, Some(1)));
        assert!(
            !m.solved_by(Some("f7f8"), Some(3)) && !m.solved_by(Some("f7f8"), None) && !m.solved_by(None, Some(-2))
        );
    }

    #[test]
    fn shipped_suites_parse_without_skips() {
        for (name, text, mate) in crate::suites::BUILTIN.iter().map(|s| (s.name, s.text, s.mate_in)) {
            let suite = parse_suite(name, text, mate);
            assert!(suite.skipped.is_empty(), "{name}: {:?}", &suite.skipped[..suite.skipped.len().min(3)]);
            assert!(!suite.positions.is_empty(), "{name}");
        }
    }
}
