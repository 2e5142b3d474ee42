//! Time controls and the chess clock.
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
//! | `inf` | no limit (`go infinite`; ends only by the stall timeout) |
//!
//! Modifiers follow after a comma: `timemargin=MS` (overrun tolerated before
//! a forfeit, default 0), `nodetime=N` (charge the clock N nodes per
//! millisecond from the engine's reported nodes instead of wall time; the
//! engine's `NodesTime`/`nodestime` option is set to match), `stall=S`
//! (seconds without `bestmove` before an engine is declared stalled under
//! limits without a wall clock, default 60).
//!
//! Rules, as cutechess applies them:
//! 1. The timer runs from writing `go` to reading `bestmove`.
//! 2. A move that takes more than the time left plus the margin loses on
//!    time; an overrun inside the margin leaves the clock at zero.
//! 3. After every move the period's increment is added.
//! 4. When a side completes the moves of a period, the next period's time is
//!    added to what is left; after the last period, the last one repeats.
//!    `movestogo` is the number of moves left in the current period.
//! 5. Under `st=`, a move longer than the move time plus the margin loses on time.

use std::fmt;
use std::time::Duration;

use crate::uci::command::GoLimits;

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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// The limit.
    pub limit: Limit,
    /// Overrun tolerated before a time forfeit, in milliseconds.
    pub margin_ms: u64,
    /// Charge the clock in nodes: this many nodes count as one millisecond.
    pub node_time: Option<u64>,
    /// Wall time without `bestmove` before the engine is declared stalled,
    /// under limits that have no wall clock of their own.
    pub stall_ms: u64,
}

/// The syntax, shown with every parse error.
pub const SYNTAX: &str = "time controls: 40/300 | 300+3 | 40/300+2 | 40/7200:20/3600 | st=1 | nodes=N | depth=N | inf, \
    optionally followed by ,timemargin=MS ,nodetime=N ,stall=S";

/// A time control that could not be read.
#[derive(Debug, thiserror::Error)]
#[error("bad time control '{text}': {problem} ({SYNTAX})")]
pub struct BadTimeControl {
    text: String,
    problem: String,
}

impl std::str::FromStr for TimeControl {
    type Err = BadTimeControl;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = |problem: String| BadTimeControl { text: text.to_string(), problem };
        let mut parts = text.split([',', ' ']).filter(|p| !p.is_empty());
        let base = parts.next().ok_or_else(|| bad("empty".into()))?;
        let limit = parse_limit(base).map_err(bad)?;
        let mut tc = TimeControl { limit, margin_ms: 0, node_time: None, stall_ms: 60_000 };
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
        Ok(tc)
    }
}

/// The shortest fixed move time (`st=`): below it a process switch on a
/// loaded machine takes longer than the move (see Move Overhead, 50 ms).
const MIN_MOVE_TIME_MS: u64 = 50;

fn parse_limit(text: &str) -> Result<Limit, String> {
    let number = |s: &str| s.parse::<u64>().map_err(|_| format!("'{s}' is not a whole number"));
    if text == "inf" || text == "infinite" {
        return Ok(Limit::Infinite);
    }
    if let Some((key, value)) = text.split_once('=') {
        return match key {
            "st" => match seconds(value)? {
                ms if ms < MIN_MOVE_TIME_MS => Err(format!(
                    "st={value} is below {} s, which scheduling alone loses on time; use st=0.05 or more, or nodes=N for fast games",
                    MIN_MOVE_TIME_MS as f64 / 1000.0
                )),
                ms => Ok(Limit::MoveTime(ms)),
            },
            "nodes" => {
                number(value).and_then(|n| if n > 0 { Ok(Limit::Nodes(n)) } else { Err("nodes must be > 0".into()) })
            }
            "depth" => match number(value)? {
                depth @ 1..=255 => Ok(Limit::Depth(depth as u32)),
                _ => Err("depth must be 1..255".into()),
            },
            _ => Err(format!("unknown limit '{key}'")),
        };
    }
    let periods = text.split(':').map(parse_period).collect::<Result<Vec<_>, _>>()?;
    for (index, period) in periods.iter().enumerate() {
        if period.moves.is_none() && index + 1 < periods.len() {
            return Err("only the last period may be without a move count".into());
        }
        if period.time_ms == 0 && period.increment_ms == 0 {
            return Err("a period needs time or an increment".into());
        }
    }
    Ok(Limit::Clock(periods))
}

fn parse_period(text: &str) -> Result<Period, String> {
    let (moves, rest) = match text.split_once('/') {
        Some((moves, rest)) => match moves.parse::<u32>() {
            Ok(n) if n > 0 => (Some(n), rest),
            _ => return Err(format!("'{moves}' is not a positive move count")),
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
fn seconds(text: &str) -> Result<u64, String> {
    match text.parse::<f64>() {
        Ok(s) if (0.0..1e9).contains(&s) => Ok((s * 1000.0).round() as u64),
        _ => Err(format!("'{text}' is not a number of seconds")),
    }
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
        if self.stall_ms != 60_000 {
            write!(f, ",stall={}", self.stall_ms / 1000)?;
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

/// A move took longer than the clock allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overrun {
    /// Milliseconds beyond the time left (before the margin).
    pub by_ms: u64,
}

/// One side's clock during a game.
#[derive(Clone, Debug)]
pub struct Clock {
    tc: TimeControl,
    remaining_ms: u64,
    period: usize,
    moves_in_period: u32,
}

impl Clock {
    /// A fresh clock at the start of a game.
    pub fn new(tc: &TimeControl) -> Clock {
        let remaining_ms = match &tc.limit {
            Limit::Clock(periods) => periods[0].time_ms,
            _ => 0,
        };
        Clock { tc: tc.clone(), remaining_ms, period: 0, moves_in_period: 0 }
    }

    /// The time control this clock runs.
    pub fn time_control(&self) -> &TimeControl {
        &self.tc
    }

    /// Milliseconds left (clocks only; 0 otherwise).
    pub fn remaining_ms(&self) -> u64 {
        self.remaining_ms
    }

    fn current_period(&self) -> Option<&Period> {
        match &self.tc.limit {
            Limit::Clock(periods) => periods.get(self.period),
            _ => None,
        }
    }

    /// Moves left in the current period, for `movestogo`.
    pub fn moves_to_go(&self) -> Option<u32> {
        self.current_period().and_then(|p| p.moves).map(|m| m - self.moves_in_period)
    }

    /// Increment of the current period.
    pub fn increment_ms(&self) -> u64 {
        self.current_period().map_or(0, |p| p.increment_ms)
    }

    /// The wall time to wait for `bestmove` before the side loses on time
    /// (or, without a wall clock, is declared stalled).
    pub fn deadline(&self) -> Duration {
        let ms = match (&self.tc.limit, self.tc.node_time) {
            (Limit::Clock(_), None) => self.remaining_ms + self.tc.margin_ms,
            (Limit::MoveTime(ms), _) => ms + self.tc.margin_ms,
            _ => self.tc.stall_ms,
        };
        Duration::from_millis(ms)
    }

    /// True when running out of this deadline is a time forfeit (wall-clock
    /// limits) rather than a stalled engine (node, depth, node-time limits).
    pub fn deadline_is_time_forfeit(&self) -> bool {
        matches!((&self.tc.limit, self.tc.node_time), (Limit::Clock(_), None) | (Limit::MoveTime(_), _))
    }

    /// The time this move is charged: wall time, or reported nodes under node-time.
    pub fn cost_ms(&self, wall: Duration, nodes: Option<u64>) -> u64 {
        match (self.tc.node_time, nodes) {
            (Some(per_ms), Some(nodes)) => nodes / per_ms,
            _ => u64::try_from(wall.as_millis()).unwrap_or(u64::MAX),
        }
    }

    /// Charges a move that cost `cost_ms`: applies margin, increment and
    /// period roll-over (rules 2–5 of the module docs).
    ///
    /// # Errors
    ///
    /// [`Overrun`] when the move lost on time.
    pub fn charge(&mut self, cost_ms: u64) -> Result<(), Overrun> {
        match &self.tc.limit {
            Limit::MoveTime(allowed) => {
                if cost_ms > allowed + self.tc.margin_ms {
                    return Err(Overrun { by_ms: cost_ms - allowed });
                }
                Ok(())
            }
            Limit::Clock(periods) => {
                if cost_ms > self.remaining_ms + self.tc.margin_ms {
                    return Err(Overrun { by_ms: cost_ms - self.remaining_ms });
                }
                self.remaining_ms = self.remaining_ms.saturating_sub(cost_ms);
                let period = periods[self.period];
                let last = periods.len() - 1;
                self.remaining_ms += period.increment_ms;
                self.moves_in_period += 1;
                if period.moves == Some(self.moves_in_period) {
                    self.period = (self.period + 1).min(last);
                    self.moves_in_period = 0;
                    self.remaining_ms += periods[self.period].time_ms;
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

/// The `go` limits for the side to move, given both clocks.
pub fn go_limits(mover: &Clock, white: &Clock, black: &Clock) -> GoLimits {
    match &mover.tc.limit {
        Limit::Clock(_) => {
            let time =
                |c: &Clock| if matches!(c.tc.limit, Limit::Clock(_)) { c.remaining_ms } else { mover.remaining_ms };
            let inc = |c: &Clock| if matches!(c.tc.limit, Limit::Clock(_)) { c.increment_ms() } else { 0 };
            let (winc, binc) = (inc(white), inc(black));
            GoLimits {
                clocks_ms: Some((time(white), time(black))),
                increments_ms: (winc > 0 || binc > 0).then_some((winc, binc)),
                moves_to_go: mover.moves_to_go(),
                ..GoLimits::default()
            }
        }
        Limit::MoveTime(ms) => GoLimits { movetime_ms: Some(*ms), ..GoLimits::default() },
        Limit::Nodes(n) => GoLimits { nodes: Some(*n), ..GoLimits::default() },
        Limit::Depth(d) => GoLimits { depth: Some(*d), ..GoLimits::default() },
        Limit::Infinite => GoLimits::default(),
    }
}

#[cfg(test)]
mod tests {
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
            let parsed = tc(text);
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
        ] {
            let error = text.parse::<TimeControl>().unwrap_err().to_string();
            assert!(error.contains("40/300 | 300+3"), "{text}: {error}");
        }
    }

    /// Table-driven simulated clock: (time control, costs of successive moves
    /// in ms, expected remaining after each move, or `None` for a forfeit).
    #[test]
    fn simulated_clock_follows_the_rules() {
        type Case = (&'static str, &'static [u64], &'static [Option<u64>]);
        let table: &[Case] = &[
            // Repeating: 2 moves in 10 s; after 2 moves another 10 s is added.
            (
                "2/10",
                &[3000, 4000, 1000, 2000, 500],
                &[Some(7000), Some(13_000), Some(12_000), Some(20_000), Some(19_500)],
            ),
            // Multi-period: 2 moves in 10 s, then 1 move in 5 s, repeating the last.
            ("2/10:1/5", &[1000, 1000, 1000, 1000], &[Some(9000), Some(13_000), Some(17_000), Some(21_000)]),
            // Increment after every move.
            ("10+1", &[2000, 2000, 0], &[Some(9000), Some(8000), Some(9000)]),
            // Increment and period together.
            ("1/1+1", &[500, 500], &[Some(2500), Some(4000)]),
            // Overrun beyond the time left loses; inside the margin it leaves zero.
            ("10", &[9000, 1500], &[Some(1000), None]),
            ("10,timemargin=600", &[9000, 1500, 0], &[Some(1000), Some(0), Some(0)]),
            // Move time: margin decides.
            ("st=1,timemargin=50", &[1000, 1049, 1051], &[Some(0), Some(0), None]),
        ];
        for (text, costs, expected) in table {
            let mut clock = Clock::new(&tc(text));
            for (ply, (cost, want)) in costs.iter().zip(expected.iter()).enumerate() {
                let got = clock.charge(*cost).ok().map(|()| clock.remaining_ms());
                assert_eq!(got, *want, "{text}, move {}", ply + 1);
                if got.is_none() {
                    break;
                }
            }
        }
    }

    #[test]
    fn node_time_charges_reported_nodes_and_moves_to_go_counts_down() {
        let clock = Clock::new(&tc("40/300,nodetime=3"));
        assert_eq!(clock.cost_ms(Duration::from_secs(9), Some(2700)), 900);
        assert_eq!(clock.cost_ms(Duration::from_millis(7), None), 7, "no nodes reported: wall time");
        assert!(!clock.deadline_is_time_forfeit());
        assert_eq!(clock.deadline(), Duration::from_secs(60));
        let mut clock = Clock::new(&tc("3/30"));
        assert_eq!(clock.moves_to_go(), Some(3));
        clock.charge(1).unwrap();
        assert_eq!(clock.moves_to_go(), Some(2));
        clock.charge(1).unwrap();
        clock.charge(1).unwrap();
        assert_eq!(clock.moves_to_go(), Some(3));
        assert_eq!(Clock::new(&tc("5+0.5")).deadline(), Duration::from_secs(5));
    }

    #[test]
    fn go_limits_per_side_allow_time_odds() {
        let white = Clock::new(&tc("60+1"));
        let black = Clock::new(&tc("30+0.5"));
        let go = go_limits(&white, &white, &black);
        assert_eq!(go.clocks_ms, Some((60_000, 30_000)));
        assert_eq!(go.increments_ms, Some((1000, 500)));
        let nodes = Clock::new(&tc("nodes=100"));
        assert_eq!(go_limits(&nodes, &nodes, &black).nodes, Some(100));
        let mixed = go_limits(&black, &nodes, &black);
        assert_eq!(mixed.clocks_ms, Some((30_000, 30_000)), "an opponent without a clock mirrors the mover's");
    }
}
