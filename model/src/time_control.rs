//! Time controls: what limits each move, read once from their text and
//! stored as that text (a run's spec keeps `"2+0.02"`, as it always has).
//!
//! Syntax (cutechess/fastchess style, plus multi-period and node-time):
//!
//! | text | meaning |
//! |---|---|
//! | `40/300` | 40 moves in 300 s, repeating |
//! | `300+3` | 300 s for the game, 3 s Fischer increment per move |
//! | `40/300+2` | 40 moves in 300 s with 2 s increment, repeating |
//! | `40/7200:20/3600` | periods separated by `:`; the last one repeats |
//! | `st=1` | fixed 1 s per move (`movetime`) |
//! | `nodes=N`, `depth=N` | fixed nodes or depth per move |
//! | `inf` | no limit (`go infinite`): read from runs stored with it, refused for a new one |
//!
//! Modifiers follow after a comma: `timemargin=MS` (overrun tolerated before
//! a forfeit, default 0), `nodetime=N` (charge the clock N nodes per
//! millisecond from the engine's reported nodes instead of wall time; the
//! engine's `NodesTime`/`nodestime` option is set to match), `stall=S`
//! (seconds without `bestmove` before an engine is declared stalled under
//! limits without a wall clock, default 60).

use std::fmt;

use crate::invalid::Invalid;

/// One period of a clock: `moves` in `time_ms` (all remaining moves when `None`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Period {
    /// Moves in this period; `None` means the rest of the game.
    pub moves: Option<u32>,
    /// Time for the period in milliseconds.
    pub time_ms: u64,
    /// Increment per move in milliseconds.
    pub increment_ms: u64,
}

/// Time without `bestmove` before an engine under a node or depth limit is
/// declared stalled, unless `,stall=S` says otherwise.
pub const DEFAULT_STALL_MS: u64 = 60_000;

/// What limits a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Limit {
    /// A clock of one or more periods.
    Clock(Vec<Period>),
    /// Fixed time per move.
    MoveTime(u64),
    /// Fixed nodes per move.
    Nodes(u64),
    /// Fixed depth per move.
    Depth(u32),
    /// No limit.
    Infinite,
}

/// A full time control: the limit plus its modifiers.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct TimeControl {
    /// The limit.
    pub limit: Limit,
    /// Overrun tolerated before a time forfeit, in milliseconds.
    pub margin_ms: u64,
    /// Charge the clock in nodes: this many nodes count as one millisecond.
    pub node_time: Option<u64>,
    /// Time without `bestmove` before the engine is declared stalled, under
    /// limits that have no wall clock of their own: the time the engine ran
    /// (its busiest thread), where the system reports it, else wall time.
    pub stall_ms: u64,
}

/// The syntax, shown with every parse error.
pub const SYNTAX: &str = "time controls: 40/300 | 300+3 | 40/300+2 | 40/7200:20/3600 | st=1 | nodes=N | depth=N, \
    optionally followed by ,timemargin=MS ,nodetime=N ,stall=S";

/// A time control that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadTimeControl {
    text: String,
    problem: String,
}

impl fmt::Display for BadTimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad time control '{}': {} ({SYNTAX})", self.text, self.problem)
    }
}

impl std::error::Error for BadTimeControl {}

impl From<TimeControl> for String {
    fn from(tc: TimeControl) -> String {
        tc.to_string()
    }
}

impl TryFrom<String> for TimeControl {
    type Error = BadTimeControl;

    /// A stored time control: its syntax only, so that a run stored before
    /// a limit on what users may start (such as `st=`'s minimum) still opens.
    fn try_from(text: String) -> Result<TimeControl, BadTimeControl> {
        TimeControl::parse(&text, false)
    }
}

impl std::str::FromStr for TimeControl {
    type Err = BadTimeControl;

    /// A time control a user gives: its syntax, and a move time that
    /// scheduling alone would not lose on time.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        TimeControl::parse(text, true)
    }
}

impl TimeControl {
    /// This time control with its wall clock multiplied by `factor` (a
    /// machine's speed scaling, `--scale-nps`): each period's time and
    /// increment, or the time per move. Node and depth limits, node-time
    /// clocks (charged in nodes) and the margin are unchanged.
    pub fn scaled(&self, factor: f64) -> TimeControl {
        let times = |ms: u64| (ms as f64 * factor).round().clamp(1.0, u64::MAX as f64) as u64;
        let limit = match (&self.limit, self.node_time) {
            (Limit::Clock(periods), None) => Limit::Clock(
                periods
                    .iter()
                    .map(|p| Period {
                        moves: p.moves,
                        time_ms: times(p.time_ms),
                        increment_ms: if p.increment_ms == 0 { 0 } else { times(p.increment_ms) },
                    })
                    .collect(),
            ),
            (Limit::MoveTime(ms), None) => Limit::MoveTime(times(*ms)),
            (limit, _) => limit.clone(),
        };
        TimeControl { limit, ..self.clone() }
    }

    /// The size of this limit as a search budget, for drawing Elo against
    /// it: nodes, depth, milliseconds per move, or for a clock the
    /// milliseconds of the first period plus 40 increments (a 40-move game's
    /// time, as fishtest compares time controls); `None` for `inf`.
    pub fn budget(&self) -> Option<f64> {
        match &self.limit {
            Limit::Nodes(n) => Some(*n as f64),
            Limit::Depth(d) => Some(f64::from(*d)),
            Limit::MoveTime(ms) => Some(*ms as f64),
            Limit::Clock(periods) => periods.first().map(|p| p.time_ms as f64 + 40.0 * p.increment_ms as f64),
            Limit::Infinite => None,
        }
    }

    /// The nodes of a `nodes=` limit, the one limit an engine is asked to
    /// keep by count (see [`node_limit_kept`]).
    pub fn node_limit(&self) -> Option<u64> {
        match self.limit {
            Limit::Nodes(n) => Some(n),
            _ => None,
        }
    }

    fn parse(text: &str, new: bool) -> Result<TimeControl, BadTimeControl> {
        let bad = |problem: String| BadTimeControl { text: text.to_string(), problem };
        let mut parts = text.split([',', ' ']).filter(|p| !p.is_empty());
        let base = parts.next().ok_or_else(|| bad("empty".into()))?;
        let limit = parse_limit(base, new).map_err(|e| bad(e.problem))?;
        let mut tc = TimeControl { limit, margin_ms: 0, node_time: None, stall_ms: DEFAULT_STALL_MS };
        for part in parts {
            let (key, value) = part.split_once('=').ok_or_else(|| bad(format!("'{part}' is not key=value")))?;
            let number: u64 = value.parse().map_err(|_| bad(format!("'{value}' is not a whole number")))?;
            match key {
                "timemargin" => tc.margin_ms = number,
                "nodetime" if number > 0 => tc.node_time = Some(number),
                "stall" if number > 0 => tc.stall_ms = number.saturating_mul(1000),
                _ => return Err(bad(format!("unknown or zero modifier '{part}'"))),
            }
        }
        if tc.node_time.is_some() && !matches!(tc.limit, Limit::Clock(_)) {
            return Err(bad("nodetime needs a clock (moves/time or time+increment)".into()));
        }
        // The margin counts: an answer is late only after the move time plus it.
        if let Limit::MoveTime(ms) = tc.limit
            && new
            && ms.saturating_add(tc.margin_ms) < MIN_MOVE_TIME_MS
        {
            return Err(bad(format!(
                "st={} is below {} s, which scheduling alone loses on time; use st=0.05 or more, add a timemargin (st=0.02,timemargin=250), or use nodes=N for fast games",
                ms as f64 / 1000.0,
                MIN_MOVE_TIME_MS as f64 / 1000.0
            )));
        }
        Ok(tc)
    }
}

/// The shortest fixed move time (`st=`) with its `timemargin`: below it a
/// process switch on a loaded machine takes longer than the move (see
/// Move Overhead, 50 ms).
const MIN_MOVE_TIME_MS: u64 = 50;

/// The part of a time control before its modifiers.
fn parse_limit(text: &str, new: bool) -> Result<Limit, BadTimeControl> {
    let bad = |problem: String| BadTimeControl { text: text.to_string(), problem };
    let number = |s: &str| s.parse::<u64>().map_err(|_| bad(format!("'{s}' is not a whole number")));
    if text == "inf" || text == "infinite" {
        // A UCI engine under `go infinite` answers only `stop`, which a game
        // never sends: every move would end in a stall.
        if new {
            return Err(bad(format!(
                "{text} never ends a move: an engine under 'go infinite' waits for 'stop', so every game would end in a stall; give nodes=N, depth=N, st=S or a clock"
            )));
        }
        return Ok(Limit::Infinite);
    }
    if let Some((key, value)) = text.split_once('=') {
        return match key {
            "st" => seconds(value).map(Limit::MoveTime).map_err(|e| bad(e.problem)),
            "nodes" => number(value)
                .and_then(|n| if n > 0 { Ok(Limit::Nodes(n)) } else { Err(bad("nodes must be > 0".into())) }),
            "depth" => match number(value)? {
                depth @ 1..=255 => Ok(Limit::Depth(depth as u32)),
                _ => Err(bad("depth must be 1..255".into())),
            },
            _ => Err(bad(format!("unknown limit '{key}'"))),
        };
    }
    let periods = text.split(':').map(parse_period).collect::<Result<Vec<_>, _>>().map_err(|e| bad(e.problem))?;
    for (index, period) in periods.iter().enumerate() {
        if period.moves.is_none() && index + 1 < periods.len() {
            return Err(bad("only the last period may be without a move count".into()));
        }
        if period.time_ms == 0 && period.increment_ms == 0 {
            return Err(bad("a period needs time or an increment".into()));
        }
    }
    Ok(Limit::Clock(periods))
}

/// One period of a clock, or what is wrong with it.
fn parse_period(text: &str) -> Result<Period, BadTimeControl> {
    let (moves, rest) = match text.split_once('/') {
        Some((moves, rest)) => match moves.parse::<u32>() {
            Ok(n) if n > 0 => (Some(n), rest),
            _ => {
                return Err(BadTimeControl {
                    text: text.into(),
                    problem: format!("'{moves}' is not a positive move count"),
                });
            }
        },
        None => (None, text),
    };
    let (time, increment) = match rest.split_once('+') {
        Some((time, increment)) => (seconds(time)?, seconds(increment)?),
        None => (seconds(rest)?, 0),
    };
    Ok(Period { moves, time_ms: time, increment_ms: increment })
}

/// Seconds (fractions allowed, `m:ss` not) to milliseconds.
fn seconds(text: &str) -> Result<u64, BadTimeControl> {
    match text.parse::<f64>() {
        Ok(s) if (0.0..1e9).contains(&s) => Ok((s * 1000.0).round() as u64),
        _ => Err(BadTimeControl { text: text.into(), problem: format!("'{text}' is not a number of seconds") }),
    }
}

/// Whether an engine asked for `go nodes ASKED` that reports `searched`
/// nodes keeps the limit closely enough for a node budget to mean what it
/// says: from a tenth of the budget to a tenth over it (an engine that
/// finishes an iteration or checks its count every few thousand nodes).
/// The room below is for engines that print `info` only when an iteration
/// completes: the nodes of the iteration the limit cut short go
/// unreported, and the count they report is a third to all of what they
/// searched at a branching factor of 3 (this engine's releases before it
/// ended each search with its total averaged 40-51 % of `nodes=200` to
/// `nodes=2000`). From the start position Debian's Stockfish 15.1 reports
/// 1,000, 4,006 and 20,024 for 1,000, 4,000 and 20,000; Ethereal 12
/// reports 6 for each. The same rule judges one search (`arena check`, a
/// run's first search) and a run's mean (its report).
pub fn node_limit_kept(asked: u64, searched: u64) -> bool {
    (asked / 10..=asked.saturating_add(asked / 10)).contains(&searched)
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = |ms: u64| {
            if ms.is_multiple_of(1000) { format!("{}", ms / 1000) } else { format!("{}", ms as f64 / 1000.0) }
        };
        match &self.limit {
            Limit::Clock(periods) => {
                let text: Vec<String> = periods
                    .iter()
                    .map(|p| {
                        let moves = p.moves.map(|m| format!("{m}/")).unwrap_or_default();
                        let inc = if p.increment_ms > 0 { format!("+{}", secs(p.increment_ms)) } else { String::new() };
                        format!("{moves}{}{inc}", secs(p.time_ms))
                    })
                    .collect();
                write!(f, "{}", text.join(":"))?;
            }
            Limit::MoveTime(ms) => write!(f, "st={}", secs(*ms))?,
            Limit::Nodes(n) => write!(f, "nodes={n}")?,
            Limit::Depth(d) => write!(f, "depth={d}")?,
            Limit::Infinite => write!(f, "inf")?,
        }
        if self.margin_ms > 0 {
            write!(f, ",timemargin={}", self.margin_ms)?;
        }
        if let Some(n) = self.node_time {
            write!(f, ",nodetime={n}")?;
        }
        if self.stall_ms != DEFAULT_STALL_MS {
            write!(f, ",stall={}", self.stall_ms / 1000)?;
        }
        Ok(())
    }
}

/// A scaling run's budgets, as `--budgets` takes them: time controls
/// separated by commas (a modifier, `key=value` whose key is a modifier's,
/// kept with the budget before it), on one axis (nodes, depth, time per
/// move or clock), each once, at least two.
#[derive(Clone, Debug, PartialEq)]
pub struct Budgets(pub Vec<TimeControl>);

impl std::str::FromStr for Budgets {
    type Err = Invalid;

    fn from_str(text: &str) -> Result<Budgets, Invalid> {
        let budgets = Budgets::read(text)?;
        if budgets.0.len() < 2 {
            return Err(Invalid::new(
                "budgets",
                "give at least two budgets, comma-separated, e.g. nodes=1000,nodes=4000",
            ));
        }
        budgets.check_axis()?;
        Ok(budgets)
    }
}

impl fmt::Display for Budgets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let texts: Vec<String> = self.0.iter().map(ToString::to_string).collect();
        f.write_str(&texts.join(","))
    }
}

impl Budgets {
    /// The budgets of `text`, each read as a time control a user gives
    /// (which refuses `inf`, the one limit without a size).
    ///
    /// # Errors
    ///
    /// The first budget that is no time control.
    pub fn read(text: &str) -> Result<Budgets, Invalid> {
        const MODIFIERS: [&str; 3] = ["timemargin=", "nodetime=", "stall="];
        let mut pieces: Vec<String> = Vec::new();
        for piece in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            match pieces.last_mut() {
                Some(last) if MODIFIERS.iter().any(|m| piece.starts_with(m)) => {
                    last.push(',');
                    last.push_str(piece);
                }
                _ => pieces.push(piece.to_string()),
            }
        }
        pieces
            .iter()
            .map(|p| p.parse().map_err(|e: BadTimeControl| Invalid::new("budgets", e.to_string())))
            .collect::<Result<_, _>>()
            .map(Budgets)
    }

    /// The budgets lie on one axis, each once.
    ///
    /// # Errors
    ///
    /// The first budget of another kind, or given twice.
    pub fn check_axis(&self) -> Result<(), Invalid> {
        let budgets = &self.0;
        let kind = |tc: &TimeControl| std::mem::discriminant(&tc.limit);
        if let Some(other) = budgets.iter().find(|tc| kind(tc) != kind(&budgets[0])) {
            return Err(Invalid::new(
                "budgets",
                format!(
                    "'{}' and '{other}' are not sizes of one kind; give all as nodes=, all as depth=, all as st= or all as clocks",
                    budgets[0]
                ),
            ));
        }
        if let Some((i, twice)) = budgets.iter().enumerate().find(|(i, tc)| budgets[..*i].contains(tc)) {
            return Err(Invalid::new(
                "budgets",
                format!("'{twice}' is given twice (budget {} of {})", i + 1, budgets.len()),
            ));
        }
        Ok(())
    }

    /// Each budget from `self.0[first]` on is larger than every one before
    /// it: a run grows upward, cheapest first.
    ///
    /// # Errors
    ///
    /// The first that is not.
    pub fn check_growing(&self, first: usize) -> Result<(), Invalid> {
        let budgets = &self.0;
        for (i, tc) in budgets.iter().enumerate().skip(first) {
            let size = tc.budget().unwrap_or(0.0);
            if let Some(larger) = budgets[..i].iter().find(|before| before.budget().unwrap_or(0.0) >= size) {
                return Err(Invalid::new(
                    "budgets",
                    format!(
                        "'{tc}' is not larger than '{larger}', a budget before it; a run grows upward, cheapest first (start a new run for smaller budgets)"
                    ),
                ));
            }
        }
        Ok(())
    }
}

impl TimeControl {
    /// True when the same position and engine give the same move every time
    /// (fixed nodes or depth, or node-time), so replaying an opening replays the game.
    pub fn is_deterministic(&self) -> bool {
        matches!(self.limit, Limit::Nodes(_) | Limit::Depth(_)) || self.node_time.is_some()
    }

    /// The PGN `TimeControl` tag value (PGN standard: `moves/seconds`, `seconds+inc`, `-`).
    pub fn pgn_tag(&self) -> String {
        let secs = |ms: u64| format!("{}", ms as f64 / 1000.0);
        match &self.limit {
            Limit::Clock(periods) => periods
                .iter()
                .map(|p| match (p.moves, p.increment_ms) {
                    (Some(m), 0) => format!("{m}/{}", secs(p.time_ms)),
                    (Some(m), inc) => format!("{m}/{}+{}", secs(p.time_ms), secs(inc)),
                    (None, 0) => secs(p.time_ms),
                    (None, inc) => format!("{}+{}", secs(p.time_ms), secs(inc)),
                })
                .collect::<Vec<_>>()
                .join(":"),
            Limit::MoveTime(ms) => format!("*{}", secs(*ms)),
            _ => "-".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_node_limit_is_kept_from_a_tenth_to_a_tenth_over() {
        let kept: Vec<u64> =
            [0, 6, 399, 400, 4000, 4400, 4401].into_iter().filter(|&n| super::node_limit_kept(4000, n)).collect();
        assert_eq!(kept, [400, 4000, 4400]);
        let tc = |text: &str| text.parse::<super::TimeControl>().unwrap().node_limit();
        assert_eq!((tc("nodes=4000"), tc("depth=5"), tc("10+0.1,nodetime=1000")), (Some(4000), None, None));
    }

    #[test]
    fn a_scaled_clock_multiplies_times_and_keeps_counts() {
        let tc: super::TimeControl = "40/60+0.5".parse().unwrap();
        assert_eq!(tc.scaled(2.0).to_string(), "40/120+1");
        let st: super::TimeControl = "st=0.1".parse().unwrap();
        assert_eq!(st.scaled(1.5).to_string(), "st=0.15");
        for fixed in ["nodes=1000", "depth=5", "10+0.1,nodetime=1000"] {
            let tc: super::TimeControl = fixed.parse().unwrap();
            assert_eq!(tc.scaled(3.0), tc, "{fixed}");
        }
    }

    use super::*;

    fn tc(text: &str) -> TimeControl {
        text.parse().unwrap()
    }

    #[test]
    fn parses_and_prints_every_form() {
        for (text, limit) in [
            ("40/300", Limit::Clock(vec![Period { moves: Some(40), time_ms: 300_000, increment_ms: 0 }])),
            ("300+3", Limit::Clock(vec![Period { moves: None, time_ms: 300_000, increment_ms: 3000 }])),
            ("40/300+2", Limit::Clock(vec![Period { moves: Some(40), time_ms: 300_000, increment_ms: 2000 }])),
            ("1+0.01", Limit::Clock(vec![Period { moves: None, time_ms: 1000, increment_ms: 10 }])),
            (
                "40/7200:20/3600",
                Limit::Clock(vec![
                    Period { moves: Some(40), time_ms: 7_200_000, increment_ms: 0 },
                    Period { moves: Some(20), time_ms: 3_600_000, increment_ms: 0 },
                ]),
            ),
            ("st=1", Limit::MoveTime(1000)),
            ("st=0.25", Limit::MoveTime(250)),
            ("nodes=5000", Limit::Nodes(5000)),
            ("depth=6", Limit::Depth(6)),
            ("inf", Limit::Infinite),
        ] {
            let parsed = TimeControl::parse(text, false).unwrap();
            assert_eq!(parsed.limit, limit, "{text}");
            assert_eq!(parsed.to_string(), text, "round trip");
        }
        let full = tc("40/300,timemargin=50,nodetime=3,stall=10");
        assert_eq!((full.margin_ms, full.node_time, full.stall_ms), (50, Some(3), 10_000));
        assert_eq!(full.to_string().parse::<TimeControl>().unwrap(), full);
        assert!(full.is_deterministic() && tc("nodes=1").is_deterministic() && !tc("10+0.1").is_deterministic());
    }

    #[test]
    fn bad_time_controls_show_the_syntax() {
        for text in [
            "",
            "40/",
            "x+1",
            "0/300",
            "40/300:300+1:20/60",
            "st=-1",
            "nodes=0",
            "depth=300",
            "40/300,foo=1",
            "st=1,nodetime=3",
            "0",
            "inf",
            "infinite,stall=5",
        ] {
            let error = text.parse::<TimeControl>().unwrap_err().to_string();
            assert!(error.contains("40/300 | 300+3"), "{text}: {error}");
        }
    }

    #[test]
    fn stored_as_its_text_and_read_without_the_limits_on_new_runs() {
        let json = serde_json::to_string(&tc("40/300+2,timemargin=50")).unwrap();
        assert_eq!(json, "\"40/300+2,timemargin=50\"");
        assert_eq!(serde_json::from_str::<TimeControl>(&json).unwrap(), tc("40/300+2,timemargin=50"));
        assert!("st=0.01".parse::<TimeControl>().is_err(), "too short for a new run");
        assert!("st=0.01,timemargin=30".parse::<TimeControl>().is_err(), "10 + 30 ms: still too short");
        assert_eq!(
            "st=0.02,timemargin=250".parse::<TimeControl>().unwrap().limit,
            Limit::MoveTime(20),
            "a margin covers it"
        );
        let stored: TimeControl = serde_json::from_str("\"st=0.01\"").unwrap();
        assert_eq!(stored.limit, Limit::MoveTime(10), "a stored run still opens");
        assert!(serde_json::from_str::<TimeControl>("\"40/\"").is_err());
        let error = "inf".parse::<TimeControl>().unwrap_err().to_string();
        assert!(error.contains("inf never ends a move") && error.contains("give nodes=N"), "{error}");
        assert_eq!(serde_json::from_str::<TimeControl>("\"inf\"").unwrap().limit, Limit::Infinite);
    }
}
