//! One opening per line: EPD, FEN, `ECO | name | SAN moves`, or SAN moves.

use crate::{BadLine, Error, Opening, START_FEN};

/// Parses every non-empty, non-comment line of `text`.
pub(crate) fn parse_lines(path: &str, text: &str) -> Result<Vec<Opening>, Error> {
    let mut openings = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fallback_name = format!("{path}#{}", index + 1);
        let opening = parse_line(line, fallback_name).map_err(|problem| Error::Parse {
            path: path.to_string(),
            line: index + 1,
            problem,
        })?;
        openings.push(opening);
    }
    Ok(openings)
}

fn parse_line(line: &str, fallback_name: String) -> Result<Opening, BadLine> {
    if let Some((eco, rest)) = line.split_once('|') {
        let (name, moves) = rest
            .split_once('|')
            .ok_or_else(|| BadLine::Shape { expected: "expected 'ECO | name | SAN moves'", line: shorten(line) })?;
        let name = format!("{} {}", eco.trim(), name.trim());
        return Opening::from_san(name.trim().to_string(), START_FEN, &san_tokens(moves));
    }
    let first = line.split_whitespace().next().unwrap_or_default();
    if first.contains('/') {
        return parse_fen_or_epd(line, fallback_name);
    }
    Opening::from_san(fallback_name, START_FEN, &san_tokens(line))
}

/// SAN tokens without move numbers (`1.`, `1...`, `1.e4`) and results.
pub(crate) fn san_tokens(text: &str) -> Vec<&str> {
    text.split_whitespace()
        .map(|token| token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.'))
        .filter(|token| !token.is_empty() && !matches!(*token, "*" | "1-0" | "0-1" | "1/2-1/2"))
        .collect()
}

/// A FEN (6 fields) or an EPD line (4 fields, then `opcode operand;` pairs).
fn parse_fen_or_epd(line: &str, fallback_name: String) -> Result<Opening, BadLine> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 4 {
        return Err(BadLine::Shape { expected: "expected a FEN or EPD position", line: shorten(line) });
    }
    let has_counters = fields.len() >= 6 && fields[4].parse::<u32>().is_ok() && fields[5].parse::<u32>().is_ok();
    let (fen, ops) = if has_counters {
        (fields[..6].join(" "), fields[6..].join(" "))
    } else {
        (format!("{} 0 1", fields[..4].join(" ")), fields[4..].join(" "))
    };
    let name = epd_id(&ops).unwrap_or(fallback_name);
    Opening::from_san(name, &fen, &[])
}

fn epd_id(ops: &str) -> Option<String> {
    ops.split(';').find_map(|op| {
        let op = op.trim();
        op.strip_prefix("id ").map(|value| value.trim().trim_matches('"').to_string())
    })
}

fn shorten(text: &str) -> String {
    text.chars().take(60).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_line_format() {
        let text = "# comment\n\
            e4 e5\n\
            1. d4 d5 2. c4 *\n\
            C60 | Ruy Lopez | e4 e5 Nf3 Nc6 Bb5\n\
            rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n\
            rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id \"after e4\";\n";
        let openings = parse_lines("book.txt", text).unwrap();
        assert_eq!(openings.len(), 5);
        assert_eq!(openings[0].moves, ["e2e4", "e7e5"]);
        assert_eq!(openings[1].san, ["d4", "d5", "c4"]);
        assert_eq!(openings[2].name, "C60 Ruy Lopez");
        assert_eq!(openings[2].moves.len(), 5);
        assert!(openings[3].moves.is_empty());
        assert_eq!(openings[3].name, "book.txt#5");
        assert_eq!(openings[4].name, "after e4");
    }

    #[test]
    fn malformed_lines_name_file_and_line() {
        for (text, line, needle) in [
            ("e4 e5\ne4 Ke2\n", 2, "not legal"),
            ("\n\nrnbqkbnr/pppppppp w\n", 3, "FEN or EPD"),
            ("e4 zz9\n", 1, "not a SAN move"),
            ("8/8/8/8/8/8/8/8 w - - 0 1\n", 1, "illegal position"),
            ("C60 | Ruy Lopez e4 e5\n", 1, "ECO | name"),
        ] {
            let error = parse_lines("f.epd", text).unwrap_err().to_string();
            assert!(error.starts_with(&format!("f.epd:{line}: ")), "{error}");
            assert!(error.contains(needle), "{error}");
        }
    }
}
