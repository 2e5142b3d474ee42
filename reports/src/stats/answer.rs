//! One answer per run: the interval, the p-value of "equal", the
//! likelihood of superiority and the verdict from one model of the run's
//! results, so that they cannot disagree.
//!
//! The model is chosen once: pairs (the pentanomial, five pair scores) for
//! a run played as pairs, games (the trinomial) otherwise. Its parameter is
//! A's mean score μ per game; the evidence about μ is the profile
//! likelihood ratio of the multinomial on the known scores (for the
//! pentanomial 0, ¼, ½, ¾, 1 per game), the statistic fishtest's GSPRT
//! computes (`MLE_expected`): for a score s, the most likely distribution
//! of the results whose mean is s, and
//! Λ(s) = 2 Σ nᵢ ln(p̂ᵢ / pᵢ(s)). By Wilks' theorem Λ(s) is χ² with one
//! degree of freedom when s is the true mean, so
//! - the 95 % interval is {s : Λ(s) ≤ χ²₁(0.95) = 3.8415};
//! - the p-value of "equal" is P(χ²₁ > Λ(½));
//! - the LOS is Φ(r), r = sign(μ̂ − ½)·√Λ(½), the signed root.
//!
//! The interval excludes a score of ½ (an Elo of 0) exactly when Λ(½) >
//! 3.8415, which is exactly when p < 0.05, which is exactly when the LOS is
//! above 97.5 % or below 2.5 %: one statistic, one threshold. Unlike the
//! normal (Wald) interval it needs no variance, so a sample whose results
//! all went alike or all one way still has an interval (all won: a lower
//! end and no upper one), and it stays inside the possible scores.
//!
//! Below [`MIN_SAMPLES`] pairs (or games) the χ² calibration is not
//! trustworthy (the worst-case size of the test of "equal" is computed by
//! `examples/model_size.rs`), and the answer is "too few to decide", with no
//! interval and no p-value.

use statrs::distribution::{ContinuousCDF, Normal};

use super::distribution::Counts;
use super::elo::{NELO_PER_T, elo_of_score};

/// The least number of samples (pairs of a paired run, games of an
/// unpaired one) for which an answer gives an interval and a p-value.
/// Chosen with `examples/model_size.rs` (statistics.md quotes its table):
/// from here on the exact worst-case size of the test of "equal" stays
/// below 6 % at the 5 % level for both models.
pub const MIN_SAMPLES: u64 = 20;

/// The least number of decisive samples (pairs that did not score 1 of 2,
/// games not drawn) for an interval and a p-value: with fewer, a run of
/// draws and three wins reads as significant to the χ² calibration while
/// the sign test gives 0.25; with at least this many the worst-case size
/// stays near 5 % (`examples/model_size.rs`).
pub const MIN_DECISIVE: u64 = 10;

/// χ² with one degree of freedom at 95 %: 1.959964² (the interval's and
/// the test's one threshold).
pub const CRITICAL: f64 = 3.841_458_820_694_124;

/// What a run's results are modelled as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Basis {
    /// Game pairs (pentanomial): the two games of an opening are not independent.
    Pairs,
    /// Single games (trinomial): a run not played as pairs.
    Games,
}

impl Basis {
    /// `pairs` or `games`.
    pub fn noun(self) -> &'static str {
        match self {
            Basis::Pairs => "pairs",
            Basis::Games => "games",
        }
    }

    /// `pair` or `game`.
    pub fn singular(self) -> &'static str {
        match self {
            Basis::Pairs => "pair",
            Basis::Games => "game",
        }
    }
}

/// The inference a large enough sample supports.
#[derive(Clone, Debug, PartialEq)]
pub struct Inference {
    /// The 95 % interval of the mean score per game.
    pub score_ci95: (f64, f64),
    /// The 95 % interval of the Elo; `None` for an end that is unbounded
    /// (the score interval reaches 0 or 1: every result lost, or won).
    pub elo_ci95: (Option<f64>, Option<f64>),
    /// Two-sided p-value of "A and B are equal" (μ = ½).
    pub p_value: f64,
    /// Likelihood of superiority: Φ of the signed root of Λ(½).
    pub los: f64,
    /// The 95 % interval of the t-value (μ − ½)/σ per sample, by the
    /// profile likelihood of the t-value (the spread estimated with the
    /// mean, as fishtest's `MLE_t_value`): {t : Λₜ(t) ≤ χ²₁(0.95)}. `None`
    /// without a spread.
    pub t_ci95: Option<(f64, f64)>,
}

impl Inference {
    /// True when the interval excludes an Elo of 0, which is when p < 0.05.
    pub fn significant(&self) -> bool {
        self.score_ci95.0 > 0.5 || self.score_ci95.1 < 0.5
    }
}

/// The answer of one run's results under its one model.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// Pairs or games.
    pub basis: Basis,
    /// Pairs (for [`Basis::Pairs`]) or games.
    pub samples: u64,
    /// Games (two per pair).
    pub games: u64,
    /// A's mean score per game.
    pub score: f64,
    /// The Elo of `score`; `None` when it is 0 or 1 (unbounded).
    pub elo: Option<f64>,
    /// Samples that did not land in the middle (decisive games; pairs
    /// other than DD and WL).
    pub decisive: u64,
    /// `None` below [`MIN_SAMPLES`] samples or [`MIN_DECISIVE`] decisive
    /// ones: too few to decide.
    pub inference: Option<Inference>,
    /// The sample's spread per sample (standard deviation of the score).
    pub sigma: f64,
}

/// A count of zero is taken as this much: enough for the most likely
/// distribution of a given mean to put weight on a result not seen (which
/// the likelihood on the known scores allows), too little to move the
/// estimate (fishtest's GSPRT takes 10⁻³, which moves the interval of 25
/// pairs all won by 4·10⁻⁴ in score).
const UNSEEN: f64 = 1e-9;

/// The per-game scores of the model's cells, from the worst for A up, and
/// the counts (zero counts as [`UNSEEN`]).
fn cells(counts: &Counts) -> (Vec<f64>, Vec<f64>) {
    let ordered = counts.ordered();
    let steps = (ordered.len() - 1) as f64;
    let scores = (0..ordered.len()).map(|i| i as f64 / steps).collect();
    let weights = ordered.iter().map(|&c| if c == 0 { UNSEEN } else { c as f64 }).collect();
    (scores, weights)
}

/// Λ(s): twice the log of the ratio between the likelihood of the observed
/// distribution and that of the most likely distribution with mean `s`
/// (the Lagrange multiplier λ of pᵢ = p̂ᵢ / (1 + λ(aᵢ − s)) by a safeguarded
/// Newton's method). `s` in (0, 1).
pub(crate) fn profile_llr(scores: &[f64], weights: &[f64], s: f64) -> f64 {
    let shifted: Vec<f64> = scores.iter().map(|a| a - s).collect();
    let (min, max) = shifted.iter().fold((f64::MAX, f64::MIN), |(lo, hi), d| (lo.min(*d), hi.max(*d)));
    if min >= 0.0 || max <= 0.0 {
        return f64::INFINITY;
    }
    // g(λ) = Σ wᵢ dᵢ / (1 + λ dᵢ) is decreasing on (−1/max, −1/min); its root is λ.
    let g = |x: f64| -> (f64, f64) {
        weights.iter().zip(&shifted).fold((0.0, 0.0), |(value, slope), (w, d)| {
            let q = 1.0 + x * d;
            (value + w * d / q, slope - w * d * d / (q * q))
        })
    };
    let (mut lo, mut hi) = (-1.0 / max, -1.0 / min);
    let mut x = 0.0;
    for _ in 0..200 {
        let (value, slope) = g(x);
        if value > 0.0 {
            lo = x;
        } else {
            hi = x;
        }
        let newton = x - value / slope;
        let next = if newton > lo && newton < hi && slope < 0.0 { newton } else { lo + (hi - lo) / 2.0 };
        if (next - x).abs() <= 1e-15 * (1.0 + x.abs()) || hi - lo <= f64::EPSILON * (1.0 + x.abs()) {
            x = next;
            break;
        }
        x = next;
    }
    // Σ wᵢ ln(p̂ᵢ / pᵢ) = Σ wᵢ ln(1 + λdᵢ), as pᵢ = p̂ᵢ / (1 + λdᵢ).
    let llr: f64 = weights.iter().zip(&shifted).map(|(w, d)| w * (1.0 + x * d).ln()).sum();
    (2.0 * llr).max(0.0)
}

/// The end of the 95 % interval between `inner` (the estimate, Λ ≤ the
/// threshold) and `outer` (Λ above it): the last point found on the inner
/// side, so that a point beyond it is outside the interval.
fn interval_end(scores: &[f64], weights: &[f64], inner: f64, outer: f64) -> f64 {
    let (mut inside, mut outside) = (inner, outer);
    for _ in 0..100 {
        let mid = inside + (outside - inside) / 2.0;
        if mid == inside || mid == outside {
            break;
        }
        if profile_llr(scores, weights, mid) <= CRITICAL {
            inside = mid;
        } else {
            outside = mid;
        }
    }
    inside
}

impl Answer {
    /// The answer of `counts` (the model's counts: pentanomial for pairs,
    /// trinomial for games), or `None` for an empty sample.
    pub fn of(counts: &Counts) -> Option<Answer> {
        let basis = if counts.is_pentanomial() { Basis::Pairs } else { Basis::Games };
        let ordered = counts.ordered();
        let samples: u64 = ordered.iter().sum();
        if samples == 0 {
            return None;
        }
        let steps = (ordered.len() - 1) as f64;
        let score =
            ordered.iter().enumerate().map(|(i, &c)| c as f64 * i as f64).sum::<f64>() / (samples as f64 * steps);
        let elo = (score > 0.0 && score < 1.0).then(|| elo_of_score(score) + 0.0);
        let decisive = samples - ordered[ordered.len() / 2];
        let inference = (samples >= MIN_SAMPLES && decisive >= MIN_DECISIVE).then(|| infer(counts, score));
        let variance =
            ordered.iter().enumerate().map(|(i, &c)| c as f64 * (i as f64 / steps - score).powi(2)).sum::<f64>()
                / samples as f64;
        Some(Answer { basis, samples, games: counts.games(), score, elo, decisive, inference, sigma: variance.sqrt() })
    }

    /// The Elo as every view prints it: `+12.3 [+1.2, +23.9]`,
    /// `> +506.7 (all won)`, or `+77.7 (too few pairs for an interval)`.
    pub fn elo_text(&self) -> String {
        let point = self.point_text();
        let Some(inference) = &self.inference else {
            return format!("{point} (too few {} for an interval)", self.basis.noun());
        };
        match inference.elo_ci95 {
            (Some(low), None) => format!("> {} ({})", super::signed(low), won_or_not(self.score, "won")),
            (None, Some(high)) => format!("< {} ({})", super::signed(high), won_or_not(self.score, "lost")),
            (Some(low), Some(high)) => format!("{point} ± {:.1}", (high - low) / 2.0),
            (None, None) => format!("{point} (interval unbounded)"),
        }
    }

    /// The Elo estimate alone: `+77.7`, or `all won` (`all lost`) where it
    /// is unbounded.
    pub fn point_text(&self) -> String {
        match self.elo {
            Some(elo) => super::signed(elo),
            None if self.score >= 1.0 => "all won".to_string(),
            None => "all lost".to_string(),
        }
    }

    /// The normalized Elo and its interval (the t-value's profile
    /// likelihood interval in nElo: the spread is estimated with the mean,
    /// so the interval widens where the spread is uncertain); `None` where
    /// every sample went alike (no spread to measure by) or too few to decide.
    pub fn nelo(&self) -> Option<(f64, (f64, f64))> {
        let inference = self.inference.as_ref()?;
        let (low, high) = inference.t_ci95?;
        (self.sigma > 1e-12).then(|| {
            let per = nelo_of(0.5 + self.sigma, self.sigma, self.basis);
            (nelo_of(self.score, self.sigma, self.basis), (low * per, high * per))
        })
    }

    /// A point of an Elo curve, `(elo, [low, high])`: `None` without a
    /// two-sided interval.
    pub fn point(&self) -> Option<(f64, [f64; 2])> {
        match (self.elo, self.inference.as_ref().map(|i| i.elo_ci95)) {
            (Some(elo), Some((Some(low), Some(high)))) => Some((elo, [low, high])),
            _ => None,
        }
    }

    /// Half the width of the Elo interval, when it has two ends.
    pub fn half_width(&self) -> Option<f64> {
        self.point().map(|(_, [low, high])| (high - low) / 2.0)
    }

    /// How many games in all, at the same proportions of results, make the
    /// Elo interval at most ±`half` wide (`None` when no number of games
    /// would: an interval with an unbounded end). The count is found by
    /// evaluating the interval itself at the scaled counts, so playing it
    /// at the same proportions gives an interval no wider.
    pub fn games_for_width(counts: &Counts, half: f64) -> Option<u64> {
        let ordered = counts.ordered();
        let samples: u64 = ordered.iter().sum();
        if samples == 0 {
            return None;
        }
        let width_at = |k: f64| half_width_at(counts, k);
        let per_sample = if counts.is_pentanomial() { 2 } else { 1 };
        if width_at(1.0)? <= half {
            return Some(samples * per_sample);
        }
        // The width shrinks as the sample grows: double the scale until it
        // is narrow enough, then halve the gap down to one sample.
        let mut scale = 2.0_f64;
        while width_at(scale)? > half {
            scale *= 2.0;
            if scale > 1e9 {
                return None;
            }
        }
        let (mut too_few, mut enough) = ((scale / 2.0 * samples as f64) as u64, (scale * samples as f64).ceil() as u64);
        while enough - too_few > 1 {
            let mid = too_few + (enough - too_few) / 2;
            if width_at(mid as f64 / samples as f64)? > half {
                too_few = mid;
            } else {
                enough = mid;
            }
        }
        Some(enough * per_sample)
    }
}

/// Half the width of the Elo interval of `counts` scaled by `k` (the same
/// proportions of results in `k` times the samples); `None` when an end is
/// unbounded.
pub fn half_width_at(counts: &Counts, k: f64) -> Option<f64> {
    let (scores, _) = cells(counts);
    let scaled: Vec<f64> = counts.ordered().iter().map(|&c| c as f64 * k).collect();
    let weights: Vec<f64> = scaled.iter().map(|&c| if c == 0.0 { UNSEEN } else { c }).collect();
    let score = scaled.iter().zip(&scores).map(|(c, a)| c * a).sum::<f64>() / scaled.iter().sum::<f64>();
    let (low, high) = score_interval(&scores, &weights, score);
    (low > 0.0 && high < 1.0).then(|| (elo_of_score(high) - elo_of_score(low)) / 2.0)
}

fn won_or_not(score: f64, all: &str) -> String {
    let all_one_way = if all == "won" { score >= 1.0 } else { score <= 0.0 };
    if all_one_way { format!("all {all}") } else { "95 % interval unbounded".to_string() }
}

/// The 95 % interval of the mean score of `weights` at `scores` with
/// estimate `score`: an end is 0 or 1 where Λ stays under the threshold up
/// to it (every result at that end).
fn score_interval(scores: &[f64], weights: &[f64], score: f64) -> (f64, f64) {
    // The results below (above) the best (worst) possible: when only the top
    // (bottom) result was seen, the interval reaches it.
    let seen = |w: &f64| *w > UNSEEN;
    let all_top = weights[..weights.len() - 1].iter().all(|w| !seen(w));
    let all_bottom = weights[1..].iter().all(|w| !seen(w));
    let score = score.clamp(1e-12, 1.0 - 1e-12);
    let low = if all_bottom { 0.0 } else { interval_end(scores, weights, score, 0.0) };
    let high = if all_top { 1.0 } else { interval_end(scores, weights, score, 1.0) };
    (low, high)
}

/// The interval, p-value and LOS of `counts` with mean score `score`.
fn infer(counts: &Counts, score: f64) -> Inference {
    let (scores, weights) = cells(counts);
    let (mut low, mut high) = score_interval(&scores, &weights, score);
    let at_even = profile_llr(&scores, &weights, 0.5);
    let significant = at_even > CRITICAL;
    if !significant {
        // Λ(½) ≤ the threshold: ½ is inside, whatever the search's last step.
        low = low.min(0.5);
        high = high.max(0.5);
    } else if score > 0.5 {
        low = low.max(f64::from_bits(0.5_f64.to_bits() + 1));
    } else {
        high = high.min(f64::from_bits(0.5_f64.to_bits() - 1));
    }
    let normal = Normal::standard();
    let root = at_even.sqrt();
    let signed_root = if score >= 0.5 { root } else { -root };
    let elo_end = |s: f64| (s > 0.0 && s < 1.0).then(|| elo_of_score(s));
    // p < 0.05 exactly when Λ(½) > the threshold: within a rounding error
    // of the threshold, the side Λ took decides.
    let p = (2.0 * normal.cdf(-root)).min(1.0);
    let p_value = if significant { p.min(0.049_999_999_999) } else { p.max(0.05) };
    let los = normal.cdf(signed_root);
    let los = match (significant, score > 0.5) {
        (true, true) => los.max(0.975_000_000_001),
        (true, false) => los.min(0.024_999_999_999),
        (false, _) => los.clamp(0.025, 0.975),
    };
    let t_ci95 = t_interval(&scores, &weights, score);
    Inference { score_ci95: (low, high), elo_ci95: (elo_end(low), elo_end(high)), p_value, los, t_ci95 }
}

/// Λₜ(t): twice the log of the ratio between the likelihood of the
/// observed distribution and that of the most likely one whose t-value
/// (μ − ½)/σ is `t`; infinite where no distribution on these scores has it.
fn t_profile_llr(scores: &[f64], weights: &[f64], t: f64) -> f64 {
    let total: f64 = weights.iter().sum();
    let pdf: Vec<(f64, f64)> = scores.iter().zip(weights).map(|(a, w)| (*a, w / total)).collect();
    let Some(mle) = super::sprt::mle_t_value_from(&pdf, 0.5, t, pdf.clone(), 500) else { return f64::INFINITY };
    // The fixed point reached: its t-value is `t` (else no distribution
    // was found, and `t` is taken as outside).
    let (mu, variance) = super::distribution::mean_variance(&mle);
    if ((mu - 0.5) / variance.sqrt() - t).abs() > 1e-6 {
        return f64::INFINITY;
    }
    let llr: f64 = weights.iter().zip(&pdf).zip(&mle).map(|((w, (_, p)), (_, q))| w * (p / q).ln()).sum();
    if llr.is_finite() { (2.0 * llr).max(0.0) } else { f64::INFINITY }
}

/// The 95 % interval of the t-value: from the estimate outwards, doubling
/// steps until Λₜ passes the threshold, then halving the gap.
fn t_interval(scores: &[f64], weights: &[f64], score: f64) -> Option<(f64, f64)> {
    let total: f64 = weights.iter().sum();
    let variance: f64 = scores.iter().zip(weights).map(|(a, w)| w * (a - score).powi(2)).sum::<f64>() / total;
    if variance <= 1e-12 {
        return None;
    }
    let estimate = (score - 0.5) / variance.sqrt();
    let end = |direction: f64| {
        let mut step = 0.01;
        while t_profile_llr(scores, weights, estimate + direction * step) <= CRITICAL {
            step *= 2.0;
            if step > 100.0 {
                return estimate + direction * step;
            }
        }
        let (mut inside, mut outside) = (0.0, step);
        for _ in 0..60 {
            let mid = (inside + outside) / 2.0;
            if t_profile_llr(scores, weights, estimate + direction * mid) <= CRITICAL {
                inside = mid;
            } else {
                outside = mid;
            }
        }
        estimate + direction * inside
    };
    Some((end(-1.0), end(1.0)))
}

/// Normalized Elo of a score: its distance from ½ in units of the sample's
/// spread (fishtest's nElo; `sigma` per sample, pairs scaled by √2).
pub fn nelo_of(score: f64, sigma: f64, basis: Basis) -> f64 {
    let per = if basis == Basis::Pairs { NELO_PER_T / std::f64::consts::SQRT_2 } else { NELO_PER_T };
    (score - 0.5) / sigma * per
}

/// The exact probability that the test of "equal" rejects it at 5 % when
/// it holds, at its worst over a grid of results' distributions with mean ½
/// (spaced `step`), for `samples` pairs (`pentanomial`) or games: every
/// possible outcome enumerated, each weighed by its multinomial probability.
/// Returns the size and the distribution (from the worst result for A up)
/// that attains it. What [`MIN_SAMPLES`] rests on (`examples/model_size.rs`).
pub fn worst_case_size(pentanomial: bool, samples: u64, step: f64, min_decisive: u64) -> (f64, Vec<f64>) {
    let cells = if pentanomial { 5 } else { 3 };
    let mut rejecting: Vec<Vec<u64>> = Vec::new();
    for_each_outcome(cells, samples, &mut |outcome| {
        if samples - outcome[cells / 2] < min_decisive {
            return;
        }
        let counts = if pentanomial {
            Counts::Pentanomial([outcome[0], outcome[1], outcome[2], outcome[3], outcome[4]])
        } else {
            Counts::Trinomial { wins: outcome[2], draws: outcome[1], losses: outcome[0] }
        };
        let (scores, weights) = self::cells(&counts);
        if profile_llr(&scores, &weights, 0.5) > CRITICAL {
            rejecting.push(outcome.to_vec());
        }
    });
    let ln_factorial = |k: u64| (1..=k).map(|i| (i as f64).ln()).sum::<f64>();
    let table: Vec<f64> = (0..=samples).map(ln_factorial).collect();
    let steps = (1.0 / step).round() as u64;
    let mut worst = (0.0, Vec::new());
    let mut weigh = |null: Vec<f64>| {
        let size: f64 = rejecting
            .iter()
            .map(|outcome| {
                let mut log = table[samples as usize];
                for (&k, &p) in outcome.iter().zip(&null) {
                    if k > 0 {
                        if p <= 0.0 {
                            return 0.0;
                        }
                        log += k as f64 * p.ln() - table[k as usize];
                    }
                }
                log.exp()
            })
            .sum();
        if size > worst.0 {
            worst = (size, null);
        }
    };
    if pentanomial {
        // Mean ½: 2(p₄ − p₀) + (p₃ − p₁) = 0, so p₄ = p₀ + (p₁ − p₃)/2.
        for (a, b, c) in (0..=steps).flat_map(|a| (0..=steps).flat_map(move |b| (0..=steps).map(move |c| (a, b, c)))) {
            let (p0, p1, p3) = (a as f64 * step, b as f64 * step, c as f64 * step);
            let p4 = p0 + (p1 - p3) / 2.0;
            let p2 = 1.0 - p0 - p1 - p3 - p4;
            if p4 >= -1e-12 && p2 >= -1e-12 {
                weigh(vec![p0, p1, p2.max(0.0), p3, p4.max(0.0)]);
            }
        }
    } else {
        for d in 0..steps {
            let draw = d as f64 * step;
            weigh(vec![(1.0 - draw) / 2.0, draw, (1.0 - draw) / 2.0]);
        }
    }
    worst
}

/// Calls `f` with every way of putting `total` samples in `cells` cells.
fn for_each_outcome(cells: usize, total: u64, f: &mut dyn FnMut(&[u64])) {
    fn fill(outcome: &mut Vec<u64>, cells: usize, left: u64, f: &mut dyn FnMut(&[u64])) {
        if outcome.len() + 1 == cells {
            outcome.push(left);
            f(outcome);
            outcome.pop();
            return;
        }
        for k in 0..=left {
            outcome.push(k);
            fill(outcome, cells, left - k, f);
            outcome.pop();
        }
    }
    fill(&mut Vec::with_capacity(cells), cells, total, f);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(p: [u64; 5]) -> Answer {
        Answer::of(&Counts::Pentanomial(p)).unwrap()
    }

    fn games(wins: u64, draws: u64, losses: u64) -> Answer {
        Answer::of(&Counts::Trinomial { wins, draws, losses }).unwrap()
    }

    #[test]
    fn the_profile_likelihood_of_a_coin_is_the_binomials() {
        // 30 wins and 10 losses: Λ(½) = 2[30 ln(0.75/0.5) + 10 ln(0.25/0.5)]
        // = 2[12.1640 − 6.9315] = 10.4650; the draws' cell, never seen,
        // carries only the regularisation's weight.
        let (scores, weights) = cells(&Counts::Trinomial { wins: 30, draws: 0, losses: 10 });
        let llr = profile_llr(&scores, &weights, 0.5);
        assert!((llr - 10.465).abs() < 0.01, "{llr}");
        // At the estimate itself the ratio is 1.
        assert!(profile_llr(&scores, &weights, 0.75) < 1e-6);
    }

    #[test]
    fn interval_p_and_los_agree() {
        let a = games(30, 0, 10);
        let i = a.inference.unwrap();
        assert!(i.significant() && i.p_value < 0.05 && i.los > 0.975, "{i:?}");
        // p = P(χ²₁ > 10.465) = 0.00122.
        assert!((i.p_value - 0.001217).abs() < 2e-5, "{}", i.p_value);
        let even = games(15, 10, 15).inference.unwrap();
        assert!(!even.significant() && (even.p_value - 1.0).abs() < 1e-9 && (even.los - 0.5).abs() < 1e-9);
    }

    #[test]
    fn all_won_has_a_lower_end_only() {
        // 25 pairs all won: the most likely mean-s distribution puts 1 − s on
        // LL; Λ(s) = −50 ln s ≤ 3.8415 gives s ≥ 0.92606, Elo ≥ +439.4.
        let a = pairs([0, 0, 0, 0, 25]);
        assert_eq!(a.elo, None);
        let i = a.inference.clone().unwrap();
        assert!((i.score_ci95.0 - 0.92606).abs() < 2e-4, "{:?}", i.score_ci95);
        assert_eq!(i.elo_ci95.1, None);
        assert!(a.elo_text().starts_with("> +4") && a.elo_text().ends_with("(all won)"), "{}", a.elo_text());
    }

    /// The figures statistics.md quotes for the rule's smallest sample: the
    /// exact worst-case size of the test of "equal" at 5 %, over mean-½
    /// distributions spaced 0.05, with 20 samples of which at least 10
    /// decisive; and, without the decisive rule, what it guards against.
    #[test]
    fn the_smallest_sample_that_decides_has_a_size_near_five_percent() {
        let (games, _) = worst_case_size(false, MIN_SAMPLES, 0.05, MIN_DECISIVE);
        let (pairs, _) = worst_case_size(true, MIN_SAMPLES, 0.05, MIN_DECISIVE);
        assert!((games - 0.0603).abs() < 0.0005, "{games}");
        assert!((pairs - 0.0704).abs() < 0.0005, "{pairs}");
        let (any, _) = worst_case_size(false, MIN_SAMPLES, 0.05, 1);
        assert!((any - 0.1019).abs() < 0.0005, "{any}");
    }

    #[test]
    fn too_few_samples_give_no_interval() {
        let a = pairs([0, 1, 2, 3, 4]);
        assert!(a.inference.is_none());
        assert!(a.elo_text().ends_with("(too few pairs for an interval)"), "{}", a.elo_text());
    }

    #[test]
    fn the_games_asked_for_give_the_width_promised() {
        let counts = Counts::Trinomial { wins: 24, draws: 13, losses: 13 };
        let now = Answer::of(&counts).unwrap().half_width().unwrap();
        let target = now / 2.0;
        let total = Answer::games_for_width(&counts, target).unwrap();
        // About four times the games for half the width.
        assert!((180..=220).contains(&total), "{total}");
        let k = total as f64 / 50.0;
        let scaled = [24.0 * k, 13.0 * k, 13.0 * k];
        let (scores, _) = cells(&counts);
        let weights = [scaled[2], scaled[1], scaled[0]];
        let score = (scaled[0] + scaled[1] / 2.0) / (50.0 * k);
        let (low, high) = score_interval(&scores, &weights, score);
        assert!((elo_of_score(high) - elo_of_score(low)) / 2.0 <= target + 1e-9);
    }
}
