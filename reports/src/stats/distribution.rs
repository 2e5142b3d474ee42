//! Counts and the empirical score distribution they define.

use model::Tally;

/// Results of a match, by game or by game pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counts {
    /// Losses, draws and wins of engine A, game by game.
    Trinomial {
        /// Games A won.
        wins: u64,
        /// Games drawn.
        draws: u64,
        /// Games A lost.
        losses: u64,
    },
    /// Game pairs (same opening, colours swapped) by A's pair score:
    /// `[LL, LD, DD + WL, WD, WW]`, i.e. 0, ½, 1, 1½, 2 points.
    Pentanomial([u64; 5]),
}

/// Zero counts are replaced by this before estimating (fishtest's `regularize`).
pub(crate) const REGULARIZE: f64 = 1e-3;

/// A discrete distribution over per-game scores in [0, 1]: (value, probability).
pub(crate) type Pdf = Vec<(f64, f64)>;

impl Counts {
    /// A tally's game pairs (what the SPRT and the pair statistics use).
    pub fn pairs(tally: &Tally) -> Counts {
        Counts::Pentanomial(tally.pentanomial)
    }

    /// The counts from the worst to the best result for A.
    pub(crate) fn ordered(&self) -> Vec<u64> {
        match *self {
            Counts::Trinomial { wins, draws, losses } => vec![losses, draws, wins],
            Counts::Pentanomial(p) => p.to_vec(),
        }
    }

    /// Games played (two per pair).
    pub fn games(&self) -> u64 {
        match *self {
            Counts::Trinomial { wins, draws, losses } => wins + draws + losses,
            Counts::Pentanomial(p) => 2 * p.iter().sum::<u64>(),
        }
    }

    /// Wins, draws and losses of games: as counted, or read from pair
    /// scores (a pair of 0 as two losses, ½ a loss and a draw, 1 two draws,
    /// 1½ a win and a draw, 2 two wins: the same points, in games).
    pub fn games_wdl(&self) -> (u64, u64, u64) {
        match *self {
            Counts::Trinomial { wins, draws, losses } => (wins, draws, losses),
            Counts::Pentanomial([ll, ld, middle, wd, ww]) => (wd + 2 * ww, ld + 2 * middle + wd, 2 * ll + ld),
        }
    }

    /// True for pair counts.
    pub fn is_pentanomial(&self) -> bool {
        matches!(self, Counts::Pentanomial(_))
    }

    /// The number of samples (games or pairs), regularised, and the
    /// empirical distribution of the per-game score of a sample.
    pub(crate) fn pdf(&self) -> (f64, Pdf) {
        let counts: Vec<f64> = self.ordered().iter().map(|&c| if c == 0 { REGULARIZE } else { c as f64 }).collect();
        let n: f64 = counts.iter().sum();
        let steps = (counts.len() - 1) as f64;
        (n, counts.iter().enumerate().map(|(i, c)| (i as f64 / steps, c / n)).collect())
    }
}

/// Mean and (biased) variance of a distribution.
pub(crate) fn mean_variance(pdf: &[(f64, f64)]) -> (f64, f64) {
    let total: f64 = pdf.iter().map(|(_, p)| p).sum();
    let mean = pdf.iter().map(|(a, p)| a * p).sum::<f64>() / total;
    let variance = pdf.iter().map(|(a, p)| p * (a - mean).powi(2)).sum::<f64>() / total;
    (mean, variance)
}
