//! Test-suite experiments (`arena suite`): every engine answers every
//! position of a suite under every limit (fixed depth, node budget or move
//! time), as the null-move and FHR papers measured tree size and tactical
//! strength before playing games. Results are stored as a run; a stopped
//! run resumes where it stopped. The suites themselves (built in, or EPD and
//! FEN files) are read by `openings::suites`.

pub use model::spec::{DEFAULT_STALL_S, SuiteLimit, SuiteSpec};

use crate::engine_io::uci::command::GoLimits;
use model::Invalid;

/// The `go` limits of a suite limit.
pub fn go_limits(limit: SuiteLimit) -> GoLimits {
    match limit {
        SuiteLimit::Depth(d) => GoLimits { depth: Some(d), ..GoLimits::default() },
        SuiteLimit::Nodes(n) => GoLimits { nodes: Some(n), ..GoLimits::default() },
        SuiteLimit::MoveTime(ms) => GoLimits { movetime_ms: Some(ms), ..GoLimits::default() },
    }
}

/// One flag's suite limits, as clap reads `--depth`, `--nodes` and `--movetime`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteLimits(pub Vec<SuiteLimit>);

/// `--depth 8,9,10` or `4..8`.
///
/// # Errors
///
/// The bad value and the syntax, in one line.
pub fn depths(text: &str) -> Result<SuiteLimits, Invalid> {
    numbers(text, "depth")?
        .into_iter()
        .map(|d| u32::try_from(d).ok().filter(|d| *d <= 200).map(SuiteLimit::Depth))
        .collect::<Option<Vec<_>>>()
        .map(SuiteLimits)
        .ok_or_else(|| Invalid::new("limits", format!("--depth values must be at most 200, got '{text}'")))
}

/// `--nodes 1000,5000` or `2700x2^1..2^10` (2,700 × 2ⁱ for i = 1..10, the
/// FHR paper's budgets).
///
/// # Errors
///
/// The bad value and the syntax, in one line.
pub fn node_budgets(text: &str) -> Result<SuiteLimits, Invalid> {
    let Some((base, powers)) = text.split_once("x2^") else {
        return Ok(SuiteLimits(numbers(text, "nodes")?.into_iter().map(SuiteLimit::Nodes).collect()));
    };
    let bad = || Invalid::new("limits", format!("bad --nodes '{text}': use BASEx2^I..2^J, e.g. 2700x2^1..2^10"));
    let base: u64 = base.parse().map_err(|_| bad())?;
    let (lo, hi) = powers.split_once("..2^").unwrap_or((powers, powers));
    let (lo, hi): (u32, u32) = (lo.parse().map_err(|_| bad())?, hi.parse().map_err(|_| bad())?);
    if base == 0 || lo > hi || hi > 40 {
        return Err(bad());
    }
    (lo..=hi)
        .map(|i| base.checked_mul(1 << i).map(SuiteLimit::Nodes).ok_or_else(bad))
        .collect::<Result<_, _>>()
        .map(SuiteLimits)
}

/// `--movetime 100,1000` (milliseconds).
///
/// # Errors
///
/// The bad value and the syntax, in one line.
pub fn move_times(text: &str) -> Result<SuiteLimits, Invalid> {
    Ok(SuiteLimits(numbers(text, "movetime")?.into_iter().map(SuiteLimit::MoveTime).collect()))
}

/// The limits of the one kind given.
///
/// # Errors
///
/// None or more than one kind given.
pub fn one_kind(
    depth: Option<SuiteLimits>,
    nodes: Option<SuiteLimits>,
    movetime: Option<SuiteLimits>,
) -> Result<Vec<SuiteLimit>, Invalid> {
    match (depth, nodes, movetime) {
        (Some(SuiteLimits(limits)), None, None)
        | (None, Some(SuiteLimits(limits)), None)
        | (None, None, Some(SuiteLimits(limits))) => Ok(limits),
        _ => {
            Err(Invalid::new("limits", "give exactly one of --depth 8,9,10, --nodes 2700x2^1..2^10 or --movetime 100"))
        }
    }
}

/// Positive numbers of flag `--what`: a list like 8,9,10 or a range like 4..8.
fn numbers(text: &str, what: &str) -> Result<Vec<u64>, Invalid> {
    let bad = || Invalid::new("limits", format!("bad --{what} '{text}': use a list like 8,9,10 or a range like 4..8"));
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
    if out.contains(&0) {
        Err(Invalid::new("limits", format!("--{what} values must be positive, got '{text}'")))
    } else {
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_parse_lists_ranges_and_power_series() {
        let parse = |depth: Option<&str>, nodes: Option<&str>, movetime: Option<&str>| {
            one_kind(
                depth.map(depths).transpose()?,
                nodes.map(node_budgets).transpose()?,
                movetime.map(move_times).transpose()?,
            )
        };
        let depths = parse(Some("4..6,8"), None, None).unwrap();
        assert_eq!(depths, [4, 5, 6, 8].map(SuiteLimit::Depth));
        let budgets = parse(None, Some("2700x2^1..2^10"), None).unwrap();
        assert_eq!(budgets.len(), 10);
        assert_eq!((budgets[0], budgets[9]), (SuiteLimit::Nodes(5_400), SuiteLimit::Nodes(2_764_800)));
        assert_eq!(parse(None, Some("2700x2^3"), None).unwrap(), [SuiteLimit::Nodes(21_600)]);
        assert_eq!(parse(None, None, Some("100")).unwrap(), [SuiteLimit::MoveTime(100)]);
        for (depth, nodes, movetime) in [
            (None, None, None),
            (Some("8"), Some("100"), None),
            (Some("x"), None, None),
            (Some("0"), None, None),
            (Some("9..3"), None, None),
            (None, Some("2700x2^a"), None),
            (None, Some("2700x2^1..2^99"), None),
        ] {
            let error = parse(depth, nodes, movetime).unwrap_err().to_string();
            assert!(!error.contains('\n'), "{error}");
        }
    }
}
