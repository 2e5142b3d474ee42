//! The estimate after an SPRT stopped: corrected for the stopping.
//!
//! A sequential test stops when its LLR crosses a bound, so the tests that
//! stop early are those whose results ran ahead of the truth: the
//! fixed-sample Elo of a stopped test is biased away from the bound it did
//! not reach (among tests that pass at a true Elo of 0 it reads high), and
//! its fixed-sample interval covers the truth less often than it says.
//!
//! The method is the one fishtest's `sprt.analytics` uses (Michel Van den
//! Bergh, "A practical introduction to the GSPRT" and "Brownian motion
//! approximation of the GSPRT", cantate.be/Fishtest): the LLR is taken as a
//! Brownian motion with the drift and variance per sample that a true
//! score s gives (the GSPRT's quadratic approximation, with the sample's
//! variance as the nuisance parameter's estimate, `LLR_drift_variance_alt2`);
//! the observed end of the test is moved back onto the bound it overshot
//! (the overshoot correction: the sample count at which the drift line
//! meets the bound); and for every Elo the probability that a test ends
//! "worse" than this one (a faster fail, a slower pass, a pass turned into
//! a fail) is the exit distribution of that motion from the strip between
//! the bounds, by its eigenfunction series (or, where that converges
//! slowly, Siegmund's approximation). The estimate is the median-unbiased
//! Elo (where that probability is ½), the interval the Elos where it is
//! 2.5 % and 97.5 %, and the LOS the probability at Elo 0.

use statrs::distribution::{ContinuousCDF, Normal};

use super::distribution::{Counts, mean_variance};
use super::elo::{NELO_PER_T, score_of_elo};
use super::sprt::{Model, Test};

/// The stopping-corrected estimate of a stopped SPRT.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Sequential {
    /// Median-unbiased logistic Elo.
    pub elo: f64,
    /// 95 % interval of `elo`, corrected for the stop.
    pub elo_ci95: [f64; 2],
    /// The same in normalized Elo at the sample's spread (the test's own
    /// scale for a normalized SPRT).
    pub nelo: f64,
    /// 95 % interval of `nelo`.
    pub nelo_ci95: [f64; 2],
    /// Probability of a worse end of the test at Elo 0.
    pub los: f64,
    /// How it was computed.
    pub method: &'static str,
}

/// The name of the method, as JSON and statistics.md give it.
pub const METHOD: &str =
    "median-unbiased, overshoot-corrected (Brownian approximation of the GSPRT, as fishtest's sprt.analytics)";

/// The LLR as a Brownian motion between bounds `a` < 0 < `b`, with drift
/// `mu` and variance `sigma2` per sample.
struct Brownian {
    a: f64,
    b: f64,
    mu: f64,
    sigma2: f64,
}

fn phi(x: f64) -> f64 {
    Normal::standard().cdf(x)
}

impl Brownian {
    /// The probability that the motion from 0 ends "worse" than at the
    /// point (`t`, `y`): it leaves through `a` before time `t`, or is still
    /// inside at `t` below `y`, or leaves through `b` after (the later a
    /// pass, the worse): increasing in `y`, from P(fail by `t`) at `a` to
    /// P(fail or undecided by `t`) at `b`.
    fn outcome_cdf(&self, t: f64, y: f64) -> f64 {
        let width = self.b - self.a;
        let gamma = self.mu / self.sigma2;
        let value = if self.sigma2 * t / (width * width) < 1e-2 || (gamma * width).abs() > 15.0 {
            self.siegmund(t, y)
        } else {
            self.series(t, y)
        };
        value.clamp(0.0, 1.0)
    }

    /// The eigenfunction series of the exit problem.
    fn series(&self, t: f64, y: f64) -> f64 {
        let (mu, sigma2) = (self.mu, self.sigma2);
        let width = self.b - self.a;
        let x = -self.a;
        let y = y - self.a;
        let gamma = mu / sigma2;
        let pi = std::f64::consts::PI;
        let lambda = |n: f64| (n * pi / width).powi(2) * sigma2 / 2.0 + mu * mu / sigma2 / 2.0;
        let lambda1 = lambda(1.0);
        let t0 = (-lambda1 * t - x * gamma + y * gamma).exp();
        // A primitive of e^{γy} sin(nπy/A), times 2/A e^{−γy}.
        let primitive = |n: f64| {
            (2.0 * width * gamma * (pi * n * y / width).sin() - 2.0 * pi * n * (pi * n * y / width).cos())
                / (width * width * gamma * gamma + pi * pi * n * n)
        };
        let mut sum = 0.0;
        for n in 1..100_000 {
            let n = f64::from(n);
            let t1 = (-(lambda(n) - lambda1) * t).exp();
            let t3 = primitive(n);
            sum += t1 * t3 * (n * pi * x / width).sin();
            if (t0 * t1 * t3).abs() <= 1e-9 {
                break;
            }
        }
        let before = if gamma * width > 30.0 {
            (-2.0 * gamma * x).exp()
        } else if (gamma * width).abs() < 1e-8 {
            (width - x) / width
        } else {
            (1.0 - (2.0 * gamma * (width - x)).exp()) / (1.0 - (2.0 * gamma * width).exp())
        };
        before + t0 * sum
    }

    /// Siegmund's approximation, for where the series converges slowly;
    /// the normal tail by its asymptotic expansion where e^{2γ·bound}
    /// would overflow.
    fn siegmund(&self, t: f64, y: f64) -> f64 {
        let denom = (t * self.sigma2).sqrt();
        let offset = self.mu * t;
        let gamma = self.mu / self.sigma2;
        let z = (y - offset) / denom;
        let za = (-y + offset + 2.0 * self.a) / denom;
        let zb = (y - offset - 2.0 * self.b) / denom;
        let tail = |bound: f64, zz: f64| {
            if gamma * bound >= 5.0 {
                -(-(zz * zz) / 2.0 + 2.0 * gamma * bound).exp() / (2.0 * std::f64::consts::PI).sqrt()
                    * (1.0 / zz - 1.0 / zz.powi(3))
            } else {
                (2.0 * gamma * bound).exp() * phi(zz)
            }
        };
        phi(z) + tail(self.a, za) - tail(self.b, zb)
    }
}

/// A stopped test's state: where its LLR ended, at how many samples, and
/// what the sample says of the spread.
struct Stopped {
    bounds: (f64, f64),
    s0: f64,
    s1: f64,
    /// The sample's variance per sample.
    variance: f64,
    /// Samples, moved back to where the drift line meets the bound.
    t: f64,
    /// The LLR, moved back onto the bound it overshot.
    llr: f64,
    /// The spread of one game's score (a pair's √2 times a game's).
    sigma_game: f64,
}

impl Stopped {
    fn of(test: &Test, counts: &Counts) -> Option<Stopped> {
        if counts.games() == 0 {
            return None;
        }
        let (n, pdf) = counts.pdf();
        let (mean, variance) = mean_variance(&pdf);
        // fishtest's σ per game: a pair's score spread times √2.
        let sigma_game = if counts.is_pentanomial() { (2.0 * variance).sqrt() } else { variance.sqrt() };
        let score = |elo: f64| match test.model() {
            Model::Logistic | Model::Bayesian => score_of_elo(elo),
            Model::Normalized => elo / NELO_PER_T * sigma_game + 0.5,
        };
        let (s0, s1) = (score(test.elo0()), score(test.elo1()));
        let bounds = test.bounds();
        let (a, b) = (bounds.lower, bounds.upper);
        let slope = (mean - (s0 + s1) / 2.0) * (s1 - s0) / variance;
        let mut llr = n * slope;
        let mut t = n;
        if llr < a {
            t = a / slope;
            llr = a;
        } else if llr > b {
            t = b / slope;
            llr = b;
        }
        (variance > 0.0 && t.is_finite() && t > 0.0).then_some(Stopped {
            bounds: (a, b),
            s0,
            s1,
            variance,
            t,
            llr,
            sigma_game,
        })
    }

    /// The probability that a test at logistic Elo `elo` ends worse than
    /// this one (the sample's variance standing for the true one).
    fn worse(&self, elo: f64) -> f64 {
        let s = score_of_elo(elo);
        let mu = (s - (self.s0 + self.s1) / 2.0) * (self.s1 - self.s0) / self.variance;
        let sigma2 = (self.s1 - self.s0).powi(2) / self.variance;
        Brownian { a: self.bounds.0, b: self.bounds.1, mu, sigma2 }.outcome_cdf(self.t, self.llr)
    }

    /// The Elo at which the probability of a worse end is 1 − `p`
    /// (decreasing in the Elo), by bisection within ±1000 Elo.
    fn elo_at(&self, p: f64) -> f64 {
        let target = 1.0 - p;
        let (mut low, mut high) = (-1000.0_f64, 1000.0_f64);
        if self.worse(low) < target {
            return low;
        }
        if self.worse(high) > target {
            return high;
        }
        for _ in 0..100 {
            let mid = (low + high) / 2.0;
            if self.worse(mid) > target {
                low = mid;
            } else {
                high = mid;
            }
            if high - low < 1e-9 {
                break;
            }
        }
        (low + high) / 2.0
    }

    /// A logistic Elo in normalized Elo, at the sample's spread.
    fn nelo_of(&self, elo: f64) -> f64 {
        (score_of_elo(elo) - 0.5) / self.sigma_game * NELO_PER_T
    }
}

/// The stopping-corrected estimate of `counts` for a test that stopped by
/// its own rule (a bound crossed, or its sample cap); `None` for an empty
/// sample or one without spread.
pub fn estimate(test: &Test, counts: &Counts) -> Option<Sequential> {
    // A BayesElo test's bounds in logistic Elo at the sample's draw Elo, as
    // fishtest's `SPRT_elo` converts them.
    let logistic;
    let test = if test.model() == Model::Bayesian {
        logistic = bayeselo_bounds_as_logistic(test, counts)?;
        &logistic
    } else {
        test
    };
    let stopped = Stopped::of(test, counts)?;
    let elo = stopped.elo_at(0.5);
    let (low, high) = (stopped.elo_at(0.025), stopped.elo_at(0.975));
    Some(Sequential {
        elo,
        elo_ci95: [low, high],
        nelo: stopped.nelo_of(elo),
        nelo_ci95: [stopped.nelo_of(low), stopped.nelo_of(high)],
        los: stopped.worse(0.0),
        method: METHOD,
    })
}

/// `test`'s BayesElo bounds as a logistic test, at the draw Elo of the
/// sample's games (zero counts regularised as fishtest does).
fn bayeselo_bounds_as_logistic(test: &Test, counts: &Counts) -> Option<Test> {
    let fix = |c: u64| if c == 0 { 1e-3 } else { c as f64 };
    let (wins, draws, losses) = counts.games_wdl();
    let (w, d, l) = (fix(wins), fix(draws), fix(losses));
    let n = w + d + l;
    let (pw, pl) = (w / n, l / n);
    let draw_elo = 200.0 * ((1.0 - pl) / pl * (1.0 - pw) / pw).log10();
    let logistic = |belo: f64| {
        let (win, _, drawn) = super::sprt::bayeselo_probabilities(belo, draw_elo);
        super::elo::elo_of_score(win + drawn / 2.0)
    };
    Test::new(logistic(test.elo0()), logistic(test.elo1()), test.alpha(), test.beta(), Model::Logistic).ok()
}

/// The share of tests at `true_elo` (games with `draw_ratio`, counted as
/// independent) that a cap of `games` leaves undecided: the Brownian
/// motion still between the bounds at the cap, the outcome distribution
/// at (T, b) less that at (T, a).
pub fn undecided(test: &Test, draw_ratio: f64, true_elo: f64, games: f64) -> f64 {
    let (mu, sigma2) = super::sprt::drift_variance(test, draw_ratio, true_elo);
    let bounds = test.bounds();
    let motion = Brownian { a: bounds.lower, b: bounds.upper, mu, sigma2 };
    (motion.outcome_cdf(games, bounds.upper) - motion.outcome_cdf(games, bounds.lower)).clamp(0.0, 1.0)
}

/// [`undecided`] at elo0, halfway and elo1: `(elo, share)` each.
pub fn undecided_at_bounds(test: &Test, draw_ratio: f64, games: f64) -> [(f64, f64); 3] {
    let half = (test.elo0() + test.elo1()) / 2.0;
    [test.elo0(), half, test.elo1()].map(|elo| (elo, undecided(test, draw_ratio, elo, games)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The figures of fishtest's own `sprt.analytics` (its
    /// server/fishtest/stats/sprt.py with scipy, run outside this
    /// repository): results, model, bounds → Elo, interval, LOS.
    #[test]
    fn the_corrected_estimate_is_fishtests() {
        let cases: &[(Counts, Model, f64, f64, [f64; 4])] = &include!("sequential_vectors.in");
        for (counts, model, elo0, elo1, [elo, low, high, los]) in cases {
            let test = Test::new(*elo0, *elo1, 0.05, 0.05, *model).unwrap();
            let got = estimate(&test, counts).unwrap();
            for (what, ours, theirs) in
                [("elo", got.elo, *elo), ("low", got.elo_ci95[0], *low), ("high", got.elo_ci95[1], *high)]
            {
                assert!(
                    (ours - theirs).abs() < 1e-4,
                    "{counts:?} {model:?} {what}: {ours} against fishtest's {theirs}"
                );
            }
            assert!((got.los - los).abs() < 1e-7, "{counts:?}: LOS {} against {los}", got.los);
        }
    }

    /// The BayesElo model: the LLR of the games' W/D/L (cutechess's and
    /// fastchess's `model=bayesian`), its plan and its corrected estimate
    /// (the bounds in logistic Elo at the sample's draw Elo, as fishtest's
    /// `SPRT_elo`).
    #[test]
    fn the_bayeselo_model_reads_the_games() {
        let test = Test::new(0.0, 10.0, 0.05, 0.05, Model::Bayesian).unwrap();
        let games = Counts::Trinomial { wins: 520, draws: 700, losses: 380 };
        let llr = crate::stats::sprt::llr(&test, &games);
        assert_eq!(llr, crate::stats::sprt::llr_bayeselo(0.0, 10.0, 520, 700, 380));
        assert!(llr > test.bounds().upper, "{llr}");
        let q = estimate(&test, &games).unwrap();
        assert!(q.elo_ci95[0] < q.elo && q.elo < q.elo_ci95[1] && q.elo > 10.0 && q.elo < 60.0, "{q:?}");
        let (pass0, _) = crate::stats::sprt::operating_characteristic(&test, 0.4, 0.0);
        let (pass1, _) = crate::stats::sprt::operating_characteristic(&test, 0.4, 10.0);
        assert!((pass0 - 0.05).abs() < 1e-6 && (pass1 - 0.95).abs() < 1e-6, "{pass0} {pass1}");
    }

    /// A cap far beyond the expected length decides nearly every test; at
    /// the expected length a good share is left; none decides at once.
    #[test]
    fn a_caps_undecided_share_falls_with_the_cap() {
        let test = Test::new(0.0, 2.0, 0.05, 0.05, Model::Normalized).unwrap();
        let (cap, expected) = crate::stats::sprt::default_cap(&test);
        let [_, (_, at_cap), _] = undecided_at_bounds(&test, 0.5, cap as f64);
        let [_, (_, at_expected), _] = undecided_at_bounds(&test, 0.5, expected);
        let [_, (_, at_ten), _] = undecided_at_bounds(&test, 0.5, 10.0);
        assert!(at_ten > 0.999, "{at_ten}");
        assert!(at_expected > at_cap && at_cap > 0.0 && at_cap < 0.2, "{at_expected} {at_cap}");
        assert!(undecided(&test, 0.5, 0.0, 100.0 * cap as f64) < 1e-6);
    }
}
