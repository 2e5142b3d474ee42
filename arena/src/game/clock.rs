//! The chess clock: a side's time under a [`TimeControl`] during a game.
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

use std::time::Duration;

use model::{Limit, Period, TimeControl};

use crate::engine_io::process::Deadline;
use crate::engine_io::uci::command::GoLimits;

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

    /// How long to wait for `bestmove`: in wall time before the side loses
    /// on time; without a wall clock (node, depth, node-time limits), in
    /// time it could have run before it is declared stalled.
    pub fn deadline(&self) -> Deadline {
        match (&self.tc.limit, self.tc.node_time) {
            (Limit::Clock(_), None) => Deadline::Wall(Duration::from_millis(self.remaining_ms + self.tc.margin_ms)),
            (Limit::MoveTime(ms), _) => Deadline::Wall(Duration::from_millis(ms + self.tc.margin_ms)),
            _ => Deadline::Available(Duration::from_millis(self.tc.stall_ms)),
        }
    }

    /// True when running out of this deadline is a time forfeit (wall-clock
    /// limits) rather than a stalled engine (node, depth, node-time limits).
    pub fn deadline_is_time_forfeit(&self) -> bool {
        matches!(self.deadline(), Deadline::Wall(_))
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

    /// A fresh clock under the time control `text`.
    fn started(text: &str) -> Clock {
        Clock::new(&text.parse().unwrap())
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
            let mut clock = started(text);
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
        let clock = started("40/300,nodetime=3");
        assert_eq!(clock.cost_ms(Duration::from_secs(9), Some(2700)), 900);
        assert_eq!(clock.cost_ms(Duration::from_millis(7), None), 7, "no nodes reported: wall time");
        assert!(!clock.deadline_is_time_forfeit());
        assert_eq!(clock.deadline(), Deadline::Available(Duration::from_secs(60)));
        let mut clock = started("3/30");
        assert_eq!(clock.moves_to_go(), Some(3));
        clock.charge(1).unwrap();
        assert_eq!(clock.moves_to_go(), Some(2));
        clock.charge(1).unwrap();
        clock.charge(1).unwrap();
        assert_eq!(clock.moves_to_go(), Some(3));
        assert_eq!(started("5+0.5").deadline(), Deadline::Wall(Duration::from_secs(5)));
    }

    #[test]
    fn go_limits_per_side_allow_time_odds() {
        let white = started("60+1");
        let black = started("30+0.5");
        let go = go_limits(&white, &white, &black);
        assert_eq!(go.clocks_ms, Some((60_000, 30_000)));
        assert_eq!(go.increments_ms, Some((1000, 500)));
        let nodes = started("nodes=100");
        assert_eq!(go_limits(&nodes, &nodes, &black).nodes, Some(100));
        let mixed = go_limits(&black, &nodes, &black);
        assert_eq!(mixed.clocks_ms, Some((30_000, 30_000)), "an opponent without a clock mirrors the mover's");
    }
}
