//! Time management: soft and hard limits from the clock.
//!
//! The soft limit is checked between iterations of iterative deepening (no
//! new iteration starts after it); the hard limit stops the search anywhere.
//! Both stay within the time left minus the move overhead (the safety margin
//! for process and pipe latency), so the engine never flags on its own
//! allocation.

/// The side to move's clock as `go` reports it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left, milliseconds (negative values from a GUI arrive as 0).
    pub time_left_ms: u64,
    /// Increment per move, milliseconds.
    pub increment_ms: u64,
    /// Moves until the next time control, if the control is not sudden death.
    pub moves_to_go: Option<u32>,
}

/// Limits for one search, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// No new iteration starts after this.
    pub soft_ms: u64,
    /// The search stops at this, wherever it is.
    pub hard_ms: u64,
}

/// Moves assumed to remain in a sudden-death game.
const DEFAULT_MOVES_TO_GO: u64 = 30;

/// Splits the clock: an even share of the time left over the moves to go plus
/// most of the increment (soft), and at most three soft shares (hard), both
/// capped at the time left minus `overhead_ms`.
pub fn budget(clock: &Clock, overhead_ms: u64) -> TimeBudget {
    let available = clock.time_left_ms.saturating_sub(overhead_ms);
    let moves_to_go = clock.moves_to_go.map_or(DEFAULT_MOVES_TO_GO, |m| u64::from(m.clamp(1, 50)));
    let share = available / moves_to_go + clock.increment_ms * 3 / 4;
    let hard = share.saturating_mul(3).min(available);
    let soft = share.min(hard);
    TimeBudget { soft_ms: soft, hard_ms: hard }
}

/// The search time of `go movetime`: the move time less the move overhead,
/// so that `bestmove` arrives within the move time a GUI allows (cutechess
/// and arena forfeit an engine whose answer takes longer than the move time
/// plus their time margin, 0 by default), but never less than half of it.
pub fn movetime_budget(movetime_ms: u64, overhead_ms: u64) -> u64 {
    movetime_ms.saturating_sub(overhead_ms).max(movetime_ms / 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A simulated game: every move uses its whole hard limit (the worst
    /// case), the clock is charged and credited the increment. The allocation
    /// must never exceed the time left minus the margin.
    #[test]
    fn allocation_never_exceeds_time_left_minus_margin() {
        for &(start_ms, increment_ms, moves_to_go, overhead_ms) in &[
            (60_000u64, 0u64, None, 30u64),
            (1_000, 10, None, 30),
            (10, 100, None, 30),
            (300_000, 0, Some(40u32), 50),
            (5_000, 0, Some(1), 30),
            (50, 0, Some(3), 100),
        ] {
            let mut time_left = start_ms;
            let mut to_go = moves_to_go;
            for _ in 0..200 {
                let clock = Clock { time_left_ms: time_left, increment_ms, moves_to_go: to_go };
                let b = budget(&clock, overhead_ms);
                assert!(b.soft_ms <= b.hard_ms);
                assert!(b.hard_ms <= time_left.saturating_sub(overhead_ms), "{clock:?} gave {b:?}");
                time_left = time_left - b.hard_ms + increment_ms;
                to_go = to_go.map(|m| if m <= 1 { moves_to_go.unwrap_or(1) } else { m - 1 });
            }
        }
    }

    #[test]
    fn a_move_time_keeps_the_overhead_back_but_half_at_least() {
        assert_eq!(movetime_budget(1_000, 50), 950);
        assert_eq!(movetime_budget(100, 50), 50);
        assert_eq!(movetime_budget(60, 50), 30);
        assert_eq!(movetime_budget(1_000, 0), 1_000);
    }

    #[test]
    fn increment_is_mostly_spent() {
        let b = budget(&Clock { time_left_ms: 3_000, increment_ms: 1_000, moves_to_go: None }, 0);
        assert_eq!(b.soft_ms, 100 + 750);
    }
}
