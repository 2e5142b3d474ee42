//! Counting game and pair results from one engine's point of view.

use db::PairOutcome;
use db::record::GameResult;

use crate::stats::Counts;

/// W/D/L and pentanomial counts of engine A against engine B.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Tally {
    /// Games A won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games A lost.
    pub losses: u64,
    /// Pairs by A's pair score: `[LL, LD, DD+WL, WD, WW]`.
    pub pentanomial: [u64; 5],
}

impl Tally {
    /// Adds one pair: A's results with White (game 0) and with Black (game 1).
    pub fn add_pair(&mut self, a_white: GameResult, a_black: GameResult) {
        let first = a_white.white_score();
        let second = 1.0 - a_black.white_score();
        for score in [first, second] {
            match score {
                s if s > 0.75 => self.wins += 1,
                s if s < 0.25 => self.losses += 1,
                _ => self.draws += 1,
            }
        }
        let half_points = ((first + second) * 2.0).round() as usize;
        self.pentanomial[half_points.min(4)] += 1;
    }

    /// The tally of `a` against `b` over the pairs between them (either order).
    pub fn between(pairs: &[PairOutcome], a: &str, b: &str) -> Tally {
        let mut tally = Tally::default();
        for pair in pairs {
            if pair.engine_a == a && pair.engine_b == b {
                tally.add_pair(pair.results[0], pair.results[1]);
            } else if pair.engine_a == b && pair.engine_b == a {
                tally.add_pair(pair.results[1], pair.results[0]);
            }
        }
        tally
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// A's points.
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// Game counts.
    pub fn trinomial(&self) -> Counts {
        Counts::Trinomial { wins: self.wins, draws: self.draws, losses: self.losses }
    }

    /// Pair counts.
    pub fn pairs(&self) -> Counts {
        Counts::Pentanomial(self.pentanomial)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use GameResult::{BlackWins, Draw, WhiteWins};

    #[test]
    fn pairs_fill_both_views() {
        let mut tally = Tally::default();
        tally.add_pair(WhiteWins, WhiteWins); // A wins with White, loses with Black: WL
        tally.add_pair(WhiteWins, BlackWins); // WW
        tally.add_pair(Draw, WhiteWins); // DL = LD
        tally.add_pair(BlackWins, WhiteWins); // LL
        tally.add_pair(Draw, Draw); // DD
        assert_eq!((tally.wins, tally.draws, tally.losses), (3, 3, 4));
        assert_eq!(tally.pentanomial, [1, 1, 2, 0, 1]);
        assert_eq!(tally.points(), 4.5);
    }
}
