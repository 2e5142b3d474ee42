//! Sequential probability ratio tests: fishtest's GSPRT (logistic and
//! normalized Elo, trinomial or pentanomial) and the BayesElo SPRT of
//! cutechess and fishtest's first years.

pub use model::sprt::{Bounds, Model, Test, Verdict};

use super::distribution::{Counts, Pdf, mean_variance};
use super::elo::{NELO_PER_T, score_of_elo};

/// Solves Σ pᵢaᵢ / (1 + x aᵢ) = 0 for x in (−1/max a, −1/min a) by bisection
/// (the function is decreasing there). `None` if all aᵢ have one sign.
fn secular(pdf: &[(f64, f64)]) -> Option<f64> {
    let (min, max) = pdf.iter().fold((f64::MAX, f64::MIN), |(lo, hi), (a, _)| (lo.min(*a), hi.max(*a)));
    if min * max >= 0.0 {
        return None;
    }
    let f = |x: f64| pdf.iter().map(|(a, p)| p * a / (1.0 + x * a)).sum::<f64>();
    let eps = 1e-9;
    let (mut lo, mut hi) = (-1.0 / max + eps, -1.0 / min - eps);
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some((lo + hi) / 2.0)
}

/// The maximum-likelihood distribution with expectation `s` given the
/// empirical `pdf` (fishtest `MLE_expected`).
fn mle_expected(pdf: &Pdf, s: f64) -> Option<Pdf> {
    let shifted: Pdf = pdf.iter().map(|(a, p)| (a - s, *p)).collect();
    let x = secular(&shifted)?;
    Some(pdf.iter().map(|(a, p)| (*a, p / (1.0 + x * (a - s)))).collect())
}

/// The maximum-likelihood distribution with t-value (μ − `reference`)/σ = `t`
/// given the empirical `pdf` (fishtest `MLE_t_value`).
fn mle_t_value(pdf: &Pdf, reference: f64, t: f64) -> Option<Pdf> {
    let uniform = 1.0 / pdf.len() as f64;
    mle_t_value_from(pdf, reference, t, pdf.iter().map(|(a, _)| (*a, uniform)).collect(), 10)
}

/// [`mle_t_value`]'s fixed point from `start`, at most `rounds` steps (the
/// GSPRT's LLR takes fishtest's 10 from the uniform distribution; the nElo
/// interval starts from the sample and runs to convergence).
pub(crate) fn mle_t_value_from(pdf: &Pdf, reference: f64, t: f64, start: Pdf, rounds: usize) -> Option<Pdf> {
    let mut mle = start;
    for _ in 0..rounds {
        let previous = mle.clone();
        let (mu, variance) = mean_variance(&mle);
        let sigma = variance.sqrt();
        let shifted: Pdf = pdf
            .iter()
            .map(|(a, p)| (a - reference - t * sigma * (1.0 + ((mu - a) / sigma).powi(2)) / 2.0, *p))
            .collect();
        let x = secular(&shifted)?;
        mle = pdf.iter().zip(&shifted).map(|((a, p), (shift, _))| (*a, p / (1.0 + x * shift))).collect();
        if mle.iter().zip(&previous).map(|(m, q)| (m.1 - q.1).abs()).fold(0.0, f64::max) < 1e-9 {
            break;
        }
    }
    Some(mle)
}

fn log_likelihood_ratio(n: f64, pdf: &Pdf, h0: &Pdf, h1: &Pdf) -> f64 {
    n * pdf.iter().zip(h0).zip(h1).map(|(((_, p), (_, p0)), (_, p1))| p * (p1 / p0).ln()).sum::<f64>()
}

/// GSPRT log-likelihood ratio of H1 (logistic Elo = `elo1`) against H0
/// (`elo0`), as fishtest's `LLR_logistic`. 0 when the sample cannot tell.
pub fn llr_logistic(elo0: f64, elo1: f64, counts: &Counts) -> f64 {
    if counts.games() == 0 {
        return 0.0;
    }
    let (n, pdf) = counts.pdf();
    match (mle_expected(&pdf, score_of_elo(elo0)), mle_expected(&pdf, score_of_elo(elo1))) {
        (Some(h0), Some(h1)) => log_likelihood_ratio(n, &pdf, &h0, &h1),
        _ => 0.0,
    }
}

/// GSPRT log-likelihood ratio in normalized Elo, as fishtest's `LLR_normalized`.
pub fn llr_normalized(nelo0: f64, nelo1: f64, counts: &Counts) -> f64 {
    if counts.games() == 0 {
        return 0.0;
    }
    let scale = if counts.is_pentanomial() { std::f64::consts::SQRT_2 } else { 1.0 };
    let (t0, t1) = (nelo0 / NELO_PER_T * scale, nelo1 / NELO_PER_T * scale);
    let (n, pdf) = counts.pdf();
    match (mle_t_value(&pdf, 0.5, t0), mle_t_value(&pdf, 0.5, t1)) {
        (Some(h0), Some(h1)) => log_likelihood_ratio(n, &pdf, &h0, &h1),
        _ => 0.0,
    }
}

/// Win, loss and draw probabilities of a BayesElo difference with draw Elo.
pub(crate) fn bayeselo_probabilities(elo: f64, draw_elo: f64) -> (f64, f64, f64) {
    let win = 1.0 / (1.0 + 10f64.powf((draw_elo - elo) / 400.0));
    let loss = 1.0 / (1.0 + 10f64.powf((draw_elo + elo) / 400.0));
    (win, loss, 1.0 - win - loss)
}

/// The SPRT of cutechess and early fishtest: a trinomial model in BayesElo
/// with the draw Elo estimated from the sample (zero counts regularised as
/// fishtest does). `elo0` and `elo1` are BayesElo.
pub fn llr_bayeselo(elo0: f64, elo1: f64, wins: u64, draws: u64, losses: u64) -> f64 {
    let fix = |c: u64| if c == 0 { super::distribution::REGULARIZE } else { c as f64 };
    let (w, d, l) = (fix(wins), fix(draws), fix(losses));
    let n = w + d + l;
    let (pw, pl) = (w / n, l / n);
    let draw_elo = 200.0 * ((1.0 - pl) / pl * (1.0 - pw) / pw).log10();
    let (w0, l0, d0) = bayeselo_probabilities(elo0, draw_elo);
    let (w1, l1, d1) = bayeselo_probabilities(elo1, draw_elo);
    w * (w1 / w0).ln() + l * (l1 / l0).ln() + d * (d1 / d0).ln()
}

/// The LLR of a sample under `test`'s model. The BayesElo model reads
/// games: given pair counts alone it has no W/D/L and answers from the
/// pairs' trinomial reading (a pair's 0, ½, 1, 1½, 2 as L L, L D, …), so
/// callers that hold the games' counts use [`llr_of_tally`].
pub fn llr(test: &Test, counts: &Counts) -> f64 {
    match test.model() {
        Model::Normalized => llr_normalized(test.elo0(), test.elo1(), counts),
        Model::Logistic => llr_logistic(test.elo0(), test.elo1(), counts),
        Model::Bayesian => {
            let (wins, draws, losses) = counts.games_wdl();
            llr_bayeselo(test.elo0(), test.elo1(), wins, draws, losses)
        }
    }
}

/// The counts `test` reads of a run's tally: its pairs, or for the
/// BayesElo model its games' W/D/L.
pub fn counts_of_tally(test: &Test, tally: &model::Tally) -> Counts {
    match test.model() {
        Model::Bayesian => Counts::Trinomial { wins: tally.wins, draws: tally.draws, losses: tally.losses },
        _ => Counts::pairs(tally),
    }
}

/// The LLR of a run's tally under `test` ([`counts_of_tally`]).
pub fn llr_of_tally(test: &Test, tally: &model::Tally) -> f64 {
    llr(test, &counts_of_tally(test, tally))
}

/// The draw Elo of games with draw ratio `d` between equal engines:
/// 1 − 2/(1 + 10^(drawelo/400)) = d.
fn draw_elo_of_ratio(d: f64) -> f64 {
    400.0 * ((1.0 + d) / (1.0 - d)).log10()
}

/// An SPRT's cap on games when none is given: twice the expected length
/// where the test is slowest (the true Elo between the bounds, by
/// [`operating_characteristic`] at a draw ratio of ½), in whole pairs; and
/// that expectation.
pub fn default_cap(test: &Test) -> (usize, f64) {
    let (low, high) = (test.elo0(), test.elo1());
    let expected = (0..=40)
        .map(|step| low + (high - low) * f64::from(step) / 40.0)
        .map(|elo| operating_characteristic(test, 0.5, elo).1)
        .fold(0.0, f64::max);
    let games = (2.0 * expected).ceil().clamp(2.0, 10_000_000.0) as usize;
    (games + games % 2, expected)
}

/// The LLR's drift and variance per game of `test` at `true_elo` for games
/// with `draw_ratio` (Wald's Brownian approximation, as
/// [`operating_characteristic`]).
pub(crate) fn drift_variance(test: &Test, draw_ratio: f64, true_elo: f64) -> (f64, f64) {
    let draw_ratio = draw_ratio.clamp(0.0, 0.999);
    let sigma2 = (1.0 - draw_ratio) / 4.0;
    let score = |elo: f64| match test.model() {
        Model::Logistic => score_of_elo(elo),
        Model::Normalized => 0.5 + elo / NELO_PER_T * sigma2.sqrt(),
        Model::Bayesian => {
            let (win, loss, _) = bayeselo_probabilities(elo, draw_elo_of_ratio(draw_ratio));
            (1.0 + win - loss) / 2.0
        }
    };
    let (s0, s1, s) = (score(test.elo0()), score(test.elo1()), score(true_elo));
    let delta = s1 - s0;
    (delta * (s - (s0 + s1) / 2.0) / sigma2, delta * delta / sigma2)
}

/// Pass probability and expected number of games of an SPRT when the true
/// strength is `true_elo` (in the test's model), for games with the given
/// draw ratio. Brownian approximation of the LLR (Wald): per game, drift
/// μ = δ(s − (s₀+s₁)/2)/σ² and variance v = δ²/σ² with δ = s₁ − s₀; then
/// P(H1) = (1 − e^{−θa}) / (e^{−θb} − e^{−θa}) with θ = 2μ/v and
/// E[N] = (P·b + (1−P)·a)/μ (E[N] = −ab/v when μ = 0). Pairs are counted as
/// independent games, so with correlated pairs the real test is shorter.
pub fn operating_characteristic(test: &Test, draw_ratio: f64, true_elo: f64) -> (f64, f64) {
    let (drift, variance) = drift_variance(test, draw_ratio, true_elo);
    let bounds = test.bounds();
    let (a, b) = (bounds.lower, bounds.upper);
    if (2.0 * drift / variance).abs() < 1e-9 {
        return (-a / (b - a), -a * b / variance);
    }
    let theta = 2.0 * drift / variance;
    let pass = (1.0 - (-theta * a).exp()) / ((-theta * b).exp() - (-theta * a).exp());
    let games = (pass * b + (1.0 - pass) * a) / drift;
    (pass, games)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_for_five_percent_errors() {
        let b = Bounds::new(0.05, 0.05);
        assert!((b.upper - 2.944_438_979_166_44).abs() < 1e-12);
        assert!((b.lower + 2.944_438_979_166_44).abs() < 1e-12);
    }

    /// fishtest's published figures for logistic [0, 5], α = β = 0.05, draw
    /// ratio 0.5: about 12.8 k games at elo0 or elo1, 20.9 k at the midpoint.
    #[test]
    fn operating_characteristic_matches_fishtest_figures() {
        let test = Test::new(0.0, 5.0, 0.05, 0.05, Model::Logistic).unwrap();
        let (p0, n0) = operating_characteristic(&test, 0.5, 0.0);
        let (p_mid, n_mid) = operating_characteristic(&test, 0.5, 2.5);
        let (p1, n1) = operating_characteristic(&test, 0.5, 5.0);
        assert!((p0 - 0.05).abs() < 0.002 && (p1 - 0.95).abs() < 0.002, "{p0} {p1}");
        assert!((p_mid - 0.5).abs() < 1e-3);
        assert!((12_500.0..13_100.0).contains(&n0) && (12_500.0..13_100.0).contains(&n1), "{n0} {n1}");
        assert!((20_600.0..21_200.0).contains(&n_mid), "{n_mid}");
    }

    #[test]
    fn empty_samples_give_zero_llr() {
        let empty = Counts::Trinomial { wins: 0, draws: 0, losses: 0 };
        assert_eq!(llr_logistic(0.0, 5.0, &empty), 0.0);
        assert_eq!(llr_normalized(0.0, 5.0, &empty), 0.0);
    }
}
