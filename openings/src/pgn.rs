//! Opening lines from PGN: the main line of each game, from its `FEN` tag or
//! the standard start. Comments, variations, NAGs and move numbers are skipped.

use crate::{Error, Opening, START_FEN};

/// Parses every game in `text`.
pub(crate) fn parse_games(path: &str, text: &str) -> Result<Vec<Opening>, Error> {
    let mut openings = Vec::new();
    let mut game = GameText::default();
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') && game.depth == 0 && game.comment.is_none() {
            if !game.moves.is_empty() {
                openings.push(game.finish(path)?);
            }
            if game.first_line == 0 {
                game.first_line = index + 1;
            }
            if let Some((key, value)) = tag(trimmed) {
                game.tags.push((key.to_string(), value.to_string()));
            }
            continue;
        }
        if game.first_line == 0 && !trimmed.is_empty() {
            game.first_line = index + 1;
        }
        if game.read_movetext(trimmed) {
            openings.push(game.finish(path)?);
        }
    }
    if !game.moves.is_empty() {
        openings.push(game.finish(path)?);
    }
    Ok(openings)
}

fn tag(line: &str) -> Option<(&str, &str)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (key, value) = inner.split_once(char::is_whitespace)?;
    Some((key, value.trim().trim_matches('"')))
}

#[derive(Default)]
struct GameText {
    tags: Vec<(String, String)>,
    moves: Vec<String>,
    first_line: usize,
    /// Nesting depth of `(` variations.
    depth: usize,
    /// Inside a `{` comment spanning lines.
    comment: Option<()>,
}

impl GameText {
    /// Reads one line of movetext; true when a game termination marker was seen.
    fn read_movetext(&mut self, line: &str) -> bool {
        let mut rest = line;
        while !rest.is_empty() {
            if self.comment.is_some() {
                match rest.find('}') {
                    Some(end) => {
                        self.comment = None;
                        rest = &rest[end + 1..];
                    }
                    None => return false,
                }
                continue;
            }
            rest = rest.trim_start();
            let Some(c) = rest.chars().next() else { break };
            match c {
                '{' => {
                    self.comment = Some(());
                    rest = &rest[1..];
                }
                ';' => return false,
                '(' => {
                    self.depth += 1;
                    rest = &rest[1..];
                }
                ')' => {
                    self.depth = self.depth.saturating_sub(1);
                    rest = &rest[1..];
                }
                _ => {
                    let end = rest.find(|c: char| c.is_whitespace() || "{}();".contains(c)).unwrap_or(rest.len());
                    let token = &rest[..end];
                    rest = &rest[end..];
                    if self.depth > 0 || token.starts_with('$') {
                        continue;
                    }
                    if matches!(token, "*" | "1-0" | "0-1" | "1/2-1/2") {
                        return true;
                    }
                    let token = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
                    let token = token.trim_end_matches(['!', '?']);
                    if !token.is_empty() {
                        self.moves.push(token.to_string());
                    }
                }
            }
        }
        false
    }

    fn finish(&mut self, path: &str) -> Result<Opening, Error> {
        let done = std::mem::take(self);
        let find = |key: &str| done.tags.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
        let fen = find("FEN").unwrap_or(START_FEN);
        let name = match (find("ECO"), find("Opening")) {
            (Some(eco), Some(opening)) => format!("{eco} {opening}"),
            (None, Some(opening)) => opening.to_string(),
            _ => format!("{path}#{}", done.first_line),
        };
        let sans: Vec<&str> = done.moves.iter().map(String::as_str).collect();
        Opening::from_san(name, fen, &sans).map_err(|problem| Error::Parse {
            path: path.to_string(),
            line: done.first_line,
            problem,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_main_lines_of_games() {
        let text = "[Event \"x\"]\n[ECO \"C60\"]\n[Opening \"Ruy Lopez\"]\n\n1. e4 {best by test} e5 2. Nf3 (2. f4 exf4) Nc6 $1 3. Bb5! 1/2-1/2\n\n\
            [Event \"y\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"]\n[SetUp \"1\"]\n\n1... c5 {a\nlong comment} 2. Nf3 *\n";
        let openings = parse_games("g.pgn", text).unwrap();
        assert_eq!(openings.len(), 2);
        assert_eq!(openings[0].name, "C60 Ruy Lopez");
        assert_eq!(openings[0].moves, ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"]);
        assert_eq!(openings[1].moves, ["c7c5", "g1f3"]);
        assert_eq!(openings[1].name, "g.pgn#7");
    }

    #[test]
    fn illegal_move_names_the_game_line() {
        let text = "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. e4 Ke7 2. Ke3 *\n";
        let error = parse_games("g.pgn", text).unwrap_err().to_string();
        assert!(error.starts_with("g.pgn:5: "), "{error}");
    }
}
