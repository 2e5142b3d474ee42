//! Counting game and pair results from one engine's point of view: the one
//! place where a pair becomes W/D/L and a pentanomial bucket.

use crate::record::GameResult;
use crate::run::PairOutcome;

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
    /// One pair: A's results with White (game 0, A White) and with Black
    /// (game 1, B White), as results of those games.
    pub fn of_pair(game0: GameResult, game1: GameResult) -> Tally {
        let first = game0.white_score();
        let second = 1.0 - game1.white_score();
        let mut tally = Tally::default();
        for score in [first, second] {
            match score {
                s if s > 0.75 => tally.wins += 1,
                s if s < 0.25 => tally.losses += 1,
                _ => tally.draws += 1,
            }
        }
        let half_points = ((first + second) * 2.0).round() as usize;
        tally.pentanomial[half_points.min(4)] += 1;
        tally
    }

    /// Adds one pair: A's results with White (game 0) and with Black (game 1).
    pub fn add_pair(&mut self, game0: GameResult, game1: GameResult) {
        *self += Tally::of_pair(game0, game1);
    }

    /// Adds `n` pairs with these results (see [`Tally::add_pair`]).
    pub fn add_pairs(&mut self, game0: GameResult, game1: GameResult, n: u64) {
        let one = Tally::of_pair(game0, game1);
        self.wins += n * one.wins;
        self.draws += n * one.draws;
        self.losses += n * one.losses;
        for (sum, bucket) in self.pentanomial.iter_mut().zip(one.pentanomial) {
            *sum += n * bucket;
        }
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
}

impl std::ops::AddAssign for Tally {
    fn add_assign(&mut self, other: Tally) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
        for (mine, theirs) in self.pentanomial.iter_mut().zip(other.pentanomial) {
            *mine += theirs;
        }
    }
}

impl std::ops::SubAssign for Tally {
    /// Takes pairs counted in `other` out again (never below zero).
    fn sub_assign(&mut self, other: Tally) {
        self.wins = self.wins.saturating_sub(other.wins);
        self.draws = self.draws.saturating_sub(other.draws);
        self.losses = self.losses.saturating_sub(other.losses);
        for (mine, theirs) in self.pentanomial.iter_mut().zip(other.pentanomial) {
            *mine = mine.saturating_sub(theirs);
        }
    }
}

/// Engine A's record against engine B over the finished pairs of a run, as
/// the database keeps it in the transaction that finishes each pair.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PairingCounts {
    /// White in each pair's first game.
    pub engine_a: String,
    /// White in each pair's second game.
    pub engine_b: String,
    /// A's record.
    pub tally: Tally,
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
