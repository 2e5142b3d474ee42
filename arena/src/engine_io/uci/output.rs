//! A tolerant parser of what engines print. Nothing here panics: unknown
//! tokens are skipped, numbers that do not fit are dropped (counts are
//! `u64`, scores `i64`), `bestmove (none)` and `bestmove 0000` mean "no move".

/// One line of engine output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineLine {
    /// `id name …` / `id author …`.
    Id {
        /// `name` or `author`.
        key: String,
        /// The rest of the line.
        value: String,
    },
    /// `uciok`.
    UciOk,
    /// `readyok`.
    ReadyOk,
    /// `option name … type …`.
    Option(OptionDecl),
    /// `info …`.
    Info(Info),
    /// `bestmove X [ponder Y]`; `mv` is `None` for `(none)`, `0000` or nothing.
    BestMove {
        /// The move as printed (not yet checked for legality).
        mv: Option<String>,
        /// The reply the engine expects, if it names one.
        ponder: Option<String>,
    },
    /// Anything else (ignored by the arena).
    Other,
}

/// An option an engine declares.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OptionDecl {
    /// Option name (may contain spaces).
    pub name: String,
    /// `check`, `spin`, `combo`, `button` or `string` (as printed).
    pub kind: String,
    /// Default value, as printed.
    pub default: Option<String>,
    /// Lower bound of a spin.
    pub min: Option<i64>,
    /// Upper bound of a spin.
    pub max: Option<i64>,
    /// Values of a combo.
    pub vars: Vec<String>,
}

impl OptionDecl {
    /// Why `value` is not a value of this option (a spin's number within
    /// its bounds, a check's `true`/`false`, one of a combo's values), or
    /// `None` when it is one. A button and a string take any value.
    pub fn refusal(&self, value: &str) -> Option<String> {
        let name = &self.name;
        match self.kind.as_str() {
            "spin" => match value.parse::<i64>() {
                Err(_) => Some(format!("option '{name}' needs a number, got '{value}'")),
                Ok(number) if self.min.is_some_and(|min| number < min) || self.max.is_some_and(|max| number > max) => {
                    Some(format!(
                        "option '{name}' = {number} is outside {}..{}",
                        self.min.unwrap_or(i64::MIN),
                        self.max.unwrap_or(i64::MAX)
                    ))
                }
                Ok(_) => None,
            },
            "check" if value != "true" && value != "false" => {
                Some(format!("option '{name}' is a check: true or false, got '{value}'"))
            }
            "combo" if !self.vars.iter().any(|v| v.eq_ignore_ascii_case(value)) => {
                Some(format!("option '{name}' must be one of {}, got '{value}'", self.vars.join(", ")))
            }
            _ => None,
        }
    }
}

/// A score as the engine reports it, from the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i64),
    /// Mate in this many moves (negative: getting mated).
    Mate(i64),
}

/// The fields of an `info` line the arena records.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// Nominal depth.
    pub depth: Option<u64>,
    /// Selective depth.
    pub seldepth: Option<u64>,
    /// Search time in milliseconds.
    pub time_ms: Option<u64>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// Nodes per second.
    pub nps: Option<u64>,
    /// Score (exact or bound; bounds are reported as printed).
    pub score: Option<Score>,
    /// `multipv` index.
    pub multipv: Option<u64>,
    /// Principal variation, as printed.
    pub pv: Vec<String>,
    /// An `info string` message.
    pub string: Option<String>,
}

/// Words that start a field of an `info` line (ends a `pv` run).
const INFO_KEYS: [&str; 18] = [
    "depth",
    "seldepth",
    "time",
    "nodes",
    "pv",
    "multipv",
    "score",
    "currmove",
    "currmovenumber",
    "hashfull",
    "nps",
    "tbhits",
    "sbhits",
    "cpuload",
    "string",
    "refutation",
    "currline",
    "wdl",
];

/// Parses one line. Never panics.
pub fn parse(line: &str) -> EngineLine {
    let mut tokens = line.split_whitespace();
    match tokens.next() {
        Some("info") => EngineLine::Info(parse_info(line)),
        Some("bestmove") => {
            let mv = tokens.next().filter(|m| !matches!(*m, "(none)" | "0000" | "none" | "null"));
            let ponder = match (tokens.next(), tokens.next()) {
                (Some("ponder"), Some(reply)) if !matches!(reply, "(none)" | "0000") => Some(reply.to_string()),
                _ => None,
            };
            EngineLine::BestMove { mv: mv.map(str::to_string), ponder }
        }
        Some("uciok") => EngineLine::UciOk,
        Some("readyok") => EngineLine::ReadyOk,
        Some("id") => match tokens.next() {
            Some(key) => EngineLine::Id { key: key.to_string(), value: tokens.collect::<Vec<_>>().join(" ") },
            None => EngineLine::Other,
        },
        Some("option") => parse_option(line).map_or(EngineLine::Other, EngineLine::Option),
        _ => EngineLine::Other,
    }
}

fn parse_info(line: &str) -> Info {
    let tokens: Vec<&str> = line.split_whitespace().skip(1).collect();
    let mut info = Info::default();
    let number = |i: usize| tokens.get(i).and_then(|t| t.parse::<u64>().ok());
    let mut i = 0;
    while i < tokens.len() {
        match tokens[i] {
            "depth" => info.depth = number(i + 1),
            "seldepth" => info.seldepth = number(i + 1),
            "time" => info.time_ms = number(i + 1),
            "nodes" => info.nodes = number(i + 1),
            "nps" => info.nps = number(i + 1),
            "multipv" => info.multipv = number(i + 1),
            "score" => {
                let value = tokens.get(i + 2).and_then(|t| t.parse::<i64>().ok());
                info.score = match (tokens.get(i + 1), value) {
                    (Some(&"cp"), Some(cp)) => Some(Score::Cp(cp)),
                    (Some(&"mate"), Some(mate)) => Some(Score::Mate(mate)),
                    _ => info.score,
                };
                i += 2;
            }
            "string" => {
                info.string = Some(tokens[i + 1..].join(" "));
                break;
            }
            "pv" => {
                let end =
                    tokens[i + 1..].iter().position(|t| INFO_KEYS.contains(t)).map_or(tokens.len(), |p| i + 1 + p);
                info.pv = tokens[i + 1..end].iter().map(|t| t.to_string()).collect();
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    info
}

fn parse_option(line: &str) -> Option<OptionDecl> {
    let tokens: Vec<&str> = line.split_whitespace().skip(1).collect();
    const KEYS: [&str; 6] = ["name", "type", "default", "min", "max", "var"];
    let mut decl = OptionDecl::default();
    let mut i = 0;
    while i < tokens.len() {
        let key = tokens[i];
        let end = tokens[i + 1..].iter().position(|t| KEYS.contains(t)).map_or(tokens.len(), |p| i + 1 + p);
        let value = tokens[i + 1..end].join(" ");
        match key {
            "name" => decl.name = value,
            "type" => decl.kind = value,
            "default" => decl.default = Some(value),
            "min" => decl.min = value.parse().ok(),
            "max" => decl.max = value.parse().ok(),
            "var" => decl.vars.push(value),
            _ => {}
        }
        i = end;
    }
    (!decl.name.is_empty()).then_some(decl)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_vampirc_gets_wrong() {
        let line = "info depth 256 seldepth 300 multipv 1 score mate 200 wdl 1000 0 0 nodes 123456789012345 nps 9 time 77 pv e2e4 e7e5 hashfull 3";
        let EngineLine::Info(info) = parse(line) else { panic!("not info") };
        assert_eq!(info.depth, Some(256));
        assert_eq!(info.seldepth, Some(300));
        assert_eq!(info.score, Some(Score::Mate(200)));
        assert_eq!(info.nodes, Some(123_456_789_012_345));
        assert_eq!(info.time_ms, Some(77));
        assert_eq!(info.pv, ["e2e4", "e7e5"]);
        assert_eq!(parse("bestmove (none)"), EngineLine::BestMove { mv: None, ponder: None });
        assert_eq!(parse("bestmove 0000"), EngineLine::BestMove { mv: None, ponder: None });
        assert_eq!(parse("bestmove"), EngineLine::BestMove { mv: None, ponder: None });
        assert_eq!(
            parse("bestmove e7e8q ponder a1a2"),
            EngineLine::BestMove { mv: Some("e7e8q".into()), ponder: Some("a1a2".into()) }
        );
    }

    #[test]
    fn reads_scores_bounds_strings_and_options() {
        let EngineLine::Info(info) = parse("info score cp -35 lowerbound depth 4 string hello world depth 9") else {
            panic!()
        };
        assert_eq!(info.score, Some(Score::Cp(-35)));
        assert_eq!(info.depth, Some(4));
        assert_eq!(info.string.as_deref(), Some("hello world depth 9"));
        let EngineLine::Option(decl) = parse("option name Move Overhead type spin default 10 min 0 max 5000") else {
            panic!()
        };
        assert_eq!((decl.name.as_str(), decl.kind.as_str()), ("Move Overhead", "spin"));
        assert_eq!((decl.default.as_deref(), decl.min, decl.max), (Some("10"), Some(0), Some(5000)));
        let EngineLine::Option(combo) = parse("option name Style type combo default Normal var Solid var Normal")
        else {
            panic!()
        };
        assert_eq!(combo.vars, ["Solid", "Normal"]);
        assert_eq!(parse("option type spin"), EngineLine::Other);
        assert_eq!(parse("id name Stockfish 16"), EngineLine::Id { key: "name".into(), value: "Stockfish 16".into() });
    }

    #[test]
    fn overflowing_and_malformed_numbers_are_dropped() {
        let EngineLine::Info(info) =
            parse("info depth 99999999999999999999999 nodes -5 score cp 1e9 time x nps 18446744073709551615")
        else {
            panic!()
        };
        assert_eq!((info.depth, info.nodes, info.score, info.time_ms), (None, None, None, None));
        assert_eq!(info.nps, Some(u64::MAX));
    }

    /// Fuzz: token soups of UCI words, numbers at the edges and junk, and
    /// random bytes; the parser must never panic.
    #[test]
    fn fuzzed_lines_never_panic() {
        let words = [
            "info",
            "bestmove",
            "option",
            "id",
            "name",
            "type",
            "default",
            "min",
            "max",
            "var",
            "score",
            "cp",
            "mate",
            "pv",
            "depth",
            "seldepth",
            "nodes",
            "nps",
            "time",
            "multipv",
            "string",
            "wdl",
            "lowerbound",
            "(none)",
            "0000",
            "e2e4",
            "-0",
            "18446744073709551616",
            "-9223372036854775809",
            "\u{fffd}",
            "",
            "uciok",
            "readyok",
        ];
        let mut rng = fastrand::Rng::with_seed(0x5eed);
        for _ in 0..50_000 {
            let line: Vec<&str> = (0..rng.usize(0..14)).map(|_| words[rng.usize(..words.len())]).collect();
            let _ = parse(&line.join(" "));
            let bytes: Vec<u8> = (0..rng.usize(0..40)).map(|_| rng.u8(..)).collect();
            let _ = parse(&String::from_utf8_lossy(&bytes));
        }
    }
}
