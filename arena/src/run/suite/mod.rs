//! Test-suite experiments (`arena suite`): every engine answers every
//! position of a suite under every limit (fixed depth, node budget or move
//! time), as the null-move and FHR papers measured tree size and tactical
//! strength before playing games. Results are stored as a run; a stopped
//! run resumes where it stopped.

pub mod epd;

pub use model::spec::{DEFAULT_STALL_S, SuiteLimit, SuiteSpec};

use crate::engine_io::uci::command::GoLimits;
use epd::{ParsedSuite, parse_suite};

/// A suite shipped with arena (files in `data/suites/`, sources in `data/SOURCES.md`).
#[derive(Clone, Copy, Debug)]
pub struct BuiltinSuite {
    /// Name on the command line.
    pub name: &'static str,
    /// What it is.
    pub description: &'static str,
    /// The EPD or FEN text.
    pub text: &'static str,
    /// Mate length for files without `dm` opcodes.
    pub mate_in: Option<u32>,
}

/// The shipped suites.
pub const BUILTIN: [BuiltinSuite; 9] = [
    BuiltinSuite {
        name: "wac",
        description: "Win At Chess, 300 tactical positions",
        text: include_str!("../../../../data/suites/wac.epd"),
        mate_in: None,
    },
    BuiltinSuite {
        name: "bk",
        description: "Bratko-Kopec, 24 positions",
        text: include_str!("../../../../data/suites/bk.epd"),
        mate_in: None,
    },
    BuiltinSuite {
        name: "ecm",
        description: "Encyclopedia of Chess Middlegames, 879 positions",
        text: include_str!("../../../../data/suites/ecm.epd"),
        mate_in: None,
    },
    BuiltinSuite {
        name: "wcsac",
        description: "Winning Chess Sacrifices and Combinations, 1001 positions",
        text: include_str!("../../../../data/suites/wcsac.epd"),
        mate_in: None,
    },
    BuiltinSuite {
        name: "mate1",
        description: "mate in 1, 8 positions",
        text: include_str!("../../../../data/suites/mate/mate1.fen"),
        mate_in: Some(1),
    },
    BuiltinSuite {
        name: "mate2",
        description: "mate in 2, 212 positions",
        text: include_str!("../../../../data/suites/mate/mate2.fen"),
        mate_in: Some(2),
    },
    BuiltinSuite {
        name: "mate3",
        description: "mate in 3, 14 positions",
        text: include_str!("../../../../data/suites/mate/mate3.fen"),
        mate_in: Some(3),
    },
    BuiltinSuite {
        name: "mate4",
        description: "mate in 4, 47 positions",
        text: include_str!("../../../../data/suites/mate/mate4.fen"),
        mate_in: Some(4),
    },
    BuiltinSuite {
        name: "hardmates",
        description: "24 long mates (dm 13-38)",
        text: include_str!("../../../../data/suites/mate/hard-mates-blass-uri.epd"),
        mate_in: None,
    },
];

/// A suite that cannot be loaded.
#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    /// Neither built in nor a file that can be read: the name, the built-in suites.
    #[error("suite '{0}' is not built in ({1}) and cannot be read as a file")]
    Unknown(String, String, #[source] std::io::Error),
    /// A file without a single position: the file, its first problem.
    #[error("suite file {0} has no readable position (first problem: {1})")]
    Empty(String, String),
}

/// Reads a built-in suite by name, or a suite file.
///
/// # Errors
///
/// [`SuiteError`] when `name` is neither a built-in suite nor a readable
/// file of positions.
pub fn load_suite(name: &str) -> Result<ParsedSuite, SuiteError> {
    if let Some(builtin) = BUILTIN.iter().find(|s| s.name.eq_ignore_ascii_case(name)) {
        return Ok(parse_suite(builtin.name, builtin.text, builtin.mate_in));
    }
    let text = std::fs::read_to_string(name).map_err(|source| {
        let names: Vec<&str> = BUILTIN.iter().map(|s| s.name).collect();
        SuiteError::Unknown(name.to_string(), names.join(", "), source)
    })?;
    let file = std::path::Path::new(name).file_name().map_or(name.to_string(), |f| f.to_string_lossy().into_owned());
    let suite = parse_suite(&file, &text, None);
    if suite.positions.is_empty() {
        let first = suite.skipped.first().map_or("the file is empty", String::as_str);
        return Err(SuiteError::Empty(name.to_string(), first.to_string()));
    }
    Ok(suite)
}

/// The `go` limits of a suite limit.
pub fn go_limits(limit: SuiteLimit) -> GoLimits {
    match limit {
        SuiteLimit::Depth(d) => GoLimits { depth: Some(d), ..GoLimits::default() },
        SuiteLimit::Nodes(n) => GoLimits { nodes: Some(n), ..GoLimits::default() },
        SuiteLimit::MoveTime(ms) => GoLimits { movetime_ms: Some(ms), ..GoLimits::default() },
    }
}

/// Limits from the command line: `--depth 8,9,10` or `4..8`; `--nodes
/// 1000,5000` or `2700x2^1..2^10` (2,700 × 2ⁱ for i = 1..10, the FHR
/// paper's budgets); `--movetime 100,1000`. Exactly one kind.
///
/// # Errors
///
/// A one-line message naming the bad value and the syntax.
pub fn parse_limits(
    depth: Option<&str>,
    nodes: Option<&str>,
    movetime: Option<&str>,
) -> Result<Vec<SuiteLimit>, String> {
    let given = [depth, nodes, movetime].iter().filter(|v| v.is_some()).count();
    if given != 1 {
        return Err("give exactly one of --depth 8,9,10, --nodes 2700x2^1..2^10 or --movetime 100".to_string());
    }
    let numbers = |text: &str, what: &str| -> Result<Vec<u64>, String> {
        let bad = || format!("bad --{what} '{text}': use a list like 8,9,10 or a range like 4..8");
        let mut out = Vec::new();
        for part in text.split(',').map(str::trim) {
            if let Some((lo, hi)) = part.split_once("..") {
                let (lo, hi): (u64, u64) = (lo.parse().map_err(|_| bad())?, hi.parse().map_err(|_| bad())?);
                if lo > hi || hi - lo > 1000 {
                    return Err(bad());
                }
                out.extend(lo..=hi);
            } else {
                out.push(part.parse().map_err(|_| bad())?);
            }
        }
        if out.contains(&0) { Err(format!("--{what} values must be positive, got '{text}'")) } else { Ok(out) }
    };
    if let Some(text) = depth {
        return numbers(text, "depth")?
            .into_iter()
            .map(|d| u32::try_from(d).ok().filter(|d| *d <= 200).map(SuiteLimit::Depth))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| format!("--depth values must be at most 200, got '{text}'"));
    }
    if let Some(text) = nodes {
        if let Some((base, powers)) = text.split_once("x2^") {
            let bad = || format!("bad --nodes '{text}': use BASEx2^I..2^J, e.g. 2700x2^1..2^10");
            let base: u64 = base.parse().map_err(|_| bad())?;
            let (lo, hi) = powers.split_once("..2^").unwrap_or((powers, powers));
            let (lo, hi): (u32, u32) = (lo.parse().map_err(|_| bad())?, hi.parse().map_err(|_| bad())?);
            if base == 0 || lo > hi || hi > 40 {
                return Err(bad());
            }
            return (lo..=hi).map(|i| base.checked_mul(1 << i).map(SuiteLimit::Nodes).ok_or_else(bad)).collect();
        }
        return Ok(numbers(text, "nodes")?.into_iter().map(SuiteLimit::Nodes).collect());
    }
    Ok(numbers(movetime.unwrap_or_default(), "movetime")?.into_iter().map(SuiteLimit::MoveTime).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_parse_lists_ranges_and_power_series() {
        let depths = parse_limits(Some("4..6,8"), None, None).unwrap();
        assert_eq!(depths, [4, 5, 6, 8].map(SuiteLimit::Depth));
        let budgets = parse_limits(None, Some("2700x2^1..2^10"), None).unwrap();
        assert_eq!(budgets.len(), 10);
        assert_eq!((budgets[0], budgets[9]), (SuiteLimit::Nodes(5_400), SuiteLimit::Nodes(2_764_800)));
        assert_eq!(parse_limits(None, Some("2700x2^3"), None).unwrap(), [SuiteLimit::Nodes(21_600)]);
        assert_eq!(parse_limits(None, None, Some("100")).unwrap(), [SuiteLimit::MoveTime(100)]);
        for (depth, nodes, movetime) in [
            (None, None, None),
            (Some("8"), Some("100"), None),
            (Some("x"), None, None),
            (Some("0"), None, None),
            (Some("9..3"), None, None),
            (None, Some("2700x2^a"), None),
            (None, Some("2700x2^1..2^99"), None),
        ] {
            let error = parse_limits(depth, nodes, movetime).unwrap_err();
            assert!(!error.contains('\n'), "{error}");
        }
    }

    #[test]
    fn builtin_suites_have_the_documented_sizes() {
        let sizes: Vec<(&str, usize)> =
            BUILTIN.iter().map(|s| (s.name, load_suite(s.name).unwrap().positions.len())).collect();
        assert_eq!(
            sizes,
            [
                ("wac", 300),
                ("bk", 24),
                ("ecm", 879),
                ("wcsac", 1001),
                ("mate1", 8),
                ("mate2", 212),
                ("mate3", 14),
                ("mate4", 47),
                ("hardmates", 24)
            ]
        );
        assert!(load_suite("no-such-suite").unwrap_err().to_string().contains("wac, bk, ecm"));
    }
}
