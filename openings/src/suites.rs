//! Test suites: the suites shipped with arena (`data/suites/`, sources in
//! `data/SOURCES.md`) and suite files, read into test positions ([`epd`]).

use crate::epd::{ParsedSuite, parse_suite};

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
        text: include_str!("../../data/suites/wac.epd"),
        mate_in: None,
    },
    BuiltinSuite {
        name: "bk",
        description: "Bratko-Kopec, 24 positions",
        text: include_str!("../../data/suites/bk.epd"),
        mate_in: None,
    },
    BuiltinSuite {
        name: "ecm",
        description: "Encyclopedia of Chess Middlegames, 879 positions",
        text: include_str!("../../data/suites/ecm.epd"),
        mate_in: None,
    },
    BuiltinSuite {
        name: "wcsac",
        description: "Winning Chess Sacrifices and Combinations, 1001 positions",
        text: include_str!("../../data/suites/wcsac.epd"),
        mate_in: None,
    },
    BuiltinSuite {
        name: "mate1",
        description: "mate in 1, 8 positions",
        text: include_str!("../../data/suites/mate/mate1.fen"),
        mate_in: Some(1),
    },
    BuiltinSuite {
        name: "mate2",
        description: "mate in 2, 212 positions",
        text: include_str!("../../data/suites/mate/mate2.fen"),
        mate_in: Some(2),
    },
    BuiltinSuite {
        name: "mate3",
        description: "mate in 3, 14 positions",
        text: include_str!("../../data/suites/mate/mate3.fen"),
        mate_in: Some(3),
    },
    BuiltinSuite {
        name: "mate4",
        description: "mate in 4, 47 positions",
        text: include_str!("../../data/suites/mate/mate4.fen"),
        mate_in: Some(4),
    },
    BuiltinSuite {
        name: "hardmates",
        description: "24 long mates (dm 13-38)",
        text: include_str!("../../data/suites/mate/hard-mates-blass-uri.epd"),
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

#[cfg(test)]
mod tests {
    use super::*;

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
