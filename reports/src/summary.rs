//! The statistics of a match as one documented object (`arena stats --json`,
//! `arena elo`), and its text rendering with a one-line verdict.
//!
//! JSON fields (version 1, stable): `version`, `games`, `score` (A's mean per
//! game), `wins`/`draws`/`losses` (when game counts are known), `pentanomial`
//! (`[LL, LD, DD+WL, WD, WW]`, when pair counts are known), `trinomial_estimate`
//! and `pentanomial_estimate` (each: `elo`, `elo_ci95` `[low, high]`, `los`,
//! `p_value`, `nelo`, `nelo_ci95`, `draw_ratio`, `bound`: `null`, `"at least"`
//! or `"at most"`, `elo_limit`: the one-sided 95 % bound when the score's interval reaches 0 or 1,
//! `elo_text`: the Elo as the views print it), `exact_p_value` (sign test on decisive games), `sprt`
//! (`elo0`, `elo1`, `alpha`, `beta`, `model`, `llr`, `lower`, `upper`,
//! `verdict`: `"H1"`, `"H0"`, `"continue"`, `"inconclusive"`), and `verdict` (text).

use std::cmp::Ordering;

use serde::Serialize;

use crate::stats::Counts;
use crate::stats::elo::{OneSided, Summary, alike, exact_p_value, summarize};
use crate::stats::sprt::{Model, Test, Verdict};
use crate::stats::{interval, p_equals, p_value, signed};

/// Version of the JSON object.
pub const JSON_VERSION: u32 = 1;

/// One estimate (from game or pair counts).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// Logistic Elo.
    pub elo: f64,
    /// 95 % interval of `elo`.
    pub elo_ci95: [f64; 2],
    /// Likelihood of superiority.
    pub los: f64,
    /// Two-sided p-value (normal approximation).
    pub p_value: f64,
    /// Normalized Elo.
    pub nelo: f64,
    /// 95 % interval of `nelo`.
    pub nelo_ci95: [f64; 2],
    /// Of the games estimate: draws / games; of the pairs estimate: the
    /// share of balanced pairs (DD and WL), the pentanomial's middle.
    pub draw_ratio: f64,
    /// `"at least"` / `"at most"` when the sample has no losses / no wins.
    pub bound: Option<&'static str>,
    /// When the score's interval reaches 100 % (or 0 %): the one-sided 95 %
    /// bound of the Elo, which the views print instead of `elo` and `elo_ci95`.
    pub elo_limit: Option<f64>,
    /// The Elo as every view prints it: `+12.3 ± 4.5`, or `> +507.3 (all won)`.
    pub elo_text: String,
}

impl From<Summary> for Estimate {
    fn from(s: Summary) -> Estimate {
        let elo_text = s.elo_text();
        Estimate {
            elo: s.elo,
            elo_ci95: [s.elo_ci95.0, s.elo_ci95.1],
            los: s.los,
            p_value: s.p_value,
            nelo: s.nelo,
            nelo_ci95: [s.nelo_ci95.0, s.nelo_ci95.1],
            draw_ratio: s.draw_ratio,
            bound: s.bound.map(|b| match b {
                OneSided::AtLeast => "at least",
                OneSided::AtMost => "at most",
            }),
            elo_limit: s.limit.map(|(_, limit)| limit),
            elo_text,
        }
    }
}

impl Estimate {
    /// The Elo and its 95 % interval as a point of a curve or a line: `None`
    /// for a one-sided sample, whose views print a bound (`elo_limit`) and
    /// whose interval is only the clamp of a score near 0 or 1.
    pub fn point(&self) -> Option<(f64, [f64; 2])> {
        self.elo_limit.is_none().then_some((self.elo, self.elo_ci95))
    }
}

/// SPRT state.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SprtState {
    /// The test.
    #[serde(flatten)]
    pub test: Test,
    /// Current LLR.
    pub llr: f64,
    /// Lower bound.
    pub lower: f64,
    /// Upper bound.
    pub upper: f64,
    /// The verdict, `None` while the test goes on; JSON `H1`, `H0`,
    /// `inconclusive` or `continue`.
    #[serde(serialize_with = "verdict_or_continue")]
    pub verdict: Option<Verdict>,
}

impl SprtState {
    /// `H1`, `H0`, `inconclusive`, or `continue` while undecided.
    pub fn verdict_label(&self) -> &'static str {
        self.verdict.map_or("continue", Verdict::as_str)
    }
}

fn verdict_or_continue<S: serde::Serializer>(verdict: &Option<Verdict>, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(verdict.map_or("continue", Verdict::as_str))
}

/// Everything about a match result.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Statistics {
    /// [`JSON_VERSION`].
    pub version: u32,
    /// Games.
    pub games: u64,
    /// A's mean score per game.
    pub score: f64,
    /// Wins of A.
    pub wins: Option<u64>,
    /// Draws.
    pub draws: Option<u64>,
    /// Losses of A.
    pub losses: Option<u64>,
    /// Pair counts.
    pub pentanomial: Option<[u64; 5]>,
    /// From game counts.
    pub trinomial_estimate: Option<Estimate>,
    /// From pair counts.
    pub pentanomial_estimate: Option<Estimate>,
    /// Exact sign test on decisive games (given pairs alone: on the pairs
    /// that scored above or below even).
    pub exact_p_value: Option<f64>,
    /// SPRT state.
    pub sprt: Option<SprtState>,
    /// One line saying what the numbers mean.
    pub verdict: String,
}

/// True when every sample (game or pair, `counts` from the lowest score
/// up) went alike, neither all won nor all lost, at a score other than ½:
/// one pair won and drawn, say. Its normalized Elo, fishtest's t-value
/// over a spread that is only the regularisation's, is thousands ± tens of
/// thousands (+2001.6 ± 41,458 for that pair), and no view prints it. At ½
/// (all drawn) the t-value is 0 and its interval finite (±68 nElo for 100
/// draws, as fishtest's).
fn alike_off_even(counts: &[u64]) -> bool {
    alike(counts) && counts[counts.len() / 2] == 0
}

impl Statistics {
    /// Statistics from game counts and/or pair counts; `sprt` adds the test
    /// (evaluated on pairs when given, else on games). `verdict_override`
    /// replaces the SPRT state (e.g. `inconclusive` at the game limit).
    pub fn new(
        wdl: Option<(u64, u64, u64)>,
        pentanomial: Option<[u64; 5]>,
        sprt: Option<Test>,
        sprt_final: Option<Verdict>,
    ) -> Statistics {
        let trinomial_estimate = wdl
            .and_then(|(wins, draws, losses)| summarize(&Counts::Trinomial { wins, draws, losses }))
            .map(Estimate::from);
        let pentanomial_estimate = pentanomial.and_then(|p| summarize(&Counts::Pentanomial(p))).map(Estimate::from);
        let games = match (wdl, pentanomial) {
            (Some((w, d, l)), _) => w + d + l,
            (None, Some(p)) => 2 * p.iter().sum::<u64>(),
            (None, None) => 0,
        };
        let score = match (wdl, pentanomial) {
            (Some((w, d, _)), _) if games > 0 => (w as f64 + d as f64 / 2.0) / games as f64,
            (None, Some(p)) if games > 0 => {
                p.iter().enumerate().map(|(i, c)| i as f64 * *c as f64).sum::<f64>() / (2.0 * games as f64)
            }
            _ => 0.5,
        };
        let sprt = sprt.map(|test| {
            let counts = match (pentanomial, wdl) {
                (Some(p), _) => Counts::Pentanomial(p),
                (None, Some((wins, draws, losses))) => Counts::Trinomial { wins, draws, losses },
                (None, None) => Counts::Trinomial { wins: 0, draws: 0, losses: 0 },
            };
            let llr = crate::stats::sprt::llr(&test, &counts);
            let bounds = test.bounds();
            let verdict = sprt_final.or_else(|| test.decide(llr));
            SprtState { test, llr, lower: bounds.lower, upper: bounds.upper, verdict }
        });
        let mut statistics = Statistics {
            version: JSON_VERSION,
            games,
            score,
            wins: wdl.map(|t| t.0),
            draws: wdl.map(|t| t.1),
            losses: wdl.map(|t| t.2),
            pentanomial,
            // The sign test on decisive games; given pairs alone, on pairs
            // that scored above or below even (DD+WL pairs are ties).
            exact_p_value: wdl
                .map(|(w, _, l)| exact_p_value(w, l))
                .or_else(|| pentanomial.map(|p| exact_p_value(p[3] + p[4], p[0] + p[1]))),
            trinomial_estimate,
            pentanomial_estimate,
            sprt,
            verdict: String::new(),
        };
        statistics.verdict = statistics.verdict_line("A", "B");
        statistics
    }

    /// The estimate the verdict rests on: pairs when known, else games.
    pub fn primary(&self) -> Option<&Estimate> {
        self.pentanomial_estimate.as_ref().or(self.trinomial_estimate.as_ref())
    }

    /// One line: significant or not, and how many more games would resolve the difference.
    pub fn verdict_line(&self, a: &str, b: &str) -> String {
        let Some(estimate) = self.primary() else { return "no games yet".to_string() };
        if let Some(sprt) = &self.sprt {
            match sprt.verdict {
                // Accepting H1 rules out a gain of elo0 or less (wrongly
                // with probability at most α); accepting H0 rules out elo1
                // or more (at most β). Neither says the gain is elo1.
                Some(Verdict::AcceptH1) => {
                    return format!(
                        "SPRT accepted H1: {} (LLR {:.2} ≥ {:.2})",
                        gain_claim(a, b, Ordering::Greater, sprt.test.elo0, sprt.test.model),
                        sprt.llr,
                        sprt.upper
                    );
                }
                Some(Verdict::AcceptH0) => {
                    return format!(
                        "SPRT accepted H0: {} (LLR {:.2} ≤ {:.2})",
                        gain_claim(a, b, Ordering::Less, sprt.test.elo1, sprt.test.model),
                        sprt.llr,
                        sprt.lower
                    );
                }
                Some(Verdict::Inconclusive) => {
                    return format!(
                        "SPRT inconclusive at the game limit (LLR {:.2} in ({:.2}, {:.2}))",
                        sprt.llr, sprt.lower, sprt.upper
                    );
                }
                None => {}
            }
        }
        let (p, _) = self.p_shown(estimate);
        if p < 0.05 {
            let (stronger, weaker) = if estimate.elo > 0.0 { (a, b) } else { (b, a) };
            return format!("{stronger} is stronger than {weaker} at 5 % significance ({})", p_equals(p));
        }
        let one_sided = [&self.trinomial_estimate, &self.pentanomial_estimate]
            .into_iter()
            .any(|e| e.as_ref().is_some_and(|e| e.point().is_none()));
        let excludes_zero = estimate.elo_ci95[0] > 0.0 || estimate.elo_ci95[1] < 0.0;
        if one_sided || self.games < TOO_FEW || excludes_zero {
            // All won (or lost), or nearly, on either line of evidence; a
            // handful of games; or an interval clear of 0 that the exact
            // test does not find significant: no interval worth scaling, so
            // no count of games would be more than a guess.
            return format!("not significant ({}): too few games to size the difference; play more", p_equals(p));
        }
        let half = (estimate.elo_ci95[1] - estimate.elo_ci95[0]) / 2.0;
        let target = estimate.elo.abs().max(2.0);
        let needed = (self.games as f64 * (half / target).powi(2)).ceil() as u64;
        if needed <= self.games {
            // The interval is already that narrow: more games would not say more of this size.
            let [low, high] = estimate.elo_ci95;
            return format!(
                "not significant ({}): the 95 % interval [{low:+.1}, {high:+.1}] is already narrower than ±{target:.0} Elo",
                p_equals(p)
            );
        }
        let more = needed - self.games;
        format!("not significant ({}): play about {more} more games to resolve ±{target:.0} Elo", p_equals(p))
    }

    /// Human-readable block, `a` and `b` naming the engines.
    pub fn render_text(&self, a: &str, b: &str) -> String {
        let games = if self.games == 1 { "1 game".to_string() } else { format!("{} games", self.games) };
        let mut out = match (self.wins, self.draws, self.losses) {
            (Some(w), Some(d), Some(l)) => {
                format!("{a} vs {b}: {games}, +{w} ={d} -{l}, score {}\n", percent(self.score))
            }
            _ => format!("{a} vs {b}: {games}, score {}\n", percent(self.score)),
        };
        let games = [self.losses, self.draws, self.wins].map(|c| c.unwrap_or(0));
        let pairs = self.pentanomial.unwrap_or_default();
        if let Some(e) = &self.trinomial_estimate {
            out += &elo_line("Elo (games)", e);
        }
        if let Some(e) = &self.pentanomial_estimate {
            out += &elo_line("Elo (pairs)", e);
            out += &nelo_line("nElo (pairs)", e, &pairs);
        } else if let Some(e) = &self.trinomial_estimate {
            out += &nelo_line("nElo (games)", e, &games);
        }
        if let Some(e) = self.primary() {
            out += &self.los_line(e);
        }
        if let Some(p) = self.pentanomial {
            out += &format!("pairs LL {} LD {} DD+WL {} WD {} WW {}\n", p[0], p[1], p[2], p[3], p[4]);
        }
        if let Some(s) = &self.sprt {
            out += &sprt_line(s);
        }
        out += &format!("verdict: {}\n", self.verdict_line(a, b));
        let estimates = [&self.trinomial_estimate, &self.pentanomial_estimate];
        if estimates.iter().any(|e| e.as_ref().is_some_and(|e| e.elo_limit.is_some())) {
            out += &format!("{ONE_SIDED_NOTE}\n");
        }
        out
    }

    /// The one p-value shown for estimate `e`, and whether it is the exact
    /// sign test's: below [`EXACT_BELOW`] games the exact one (the normal
    /// approximation is poor on few decisive games), else the estimate's.
    /// The verdict and the LOS line both show this one.
    pub fn p_shown(&self, e: &Estimate) -> (f64, bool) {
        match self.exact_p_value {
            Some(exact) if self.games < EXACT_BELOW => (exact, true),
            _ => (e.p_value, false),
        }
    }

    /// The likelihood of superiority, the p-value and draw ratio of
    /// estimate `e`, as a line.
    fn los_line(&self, e: &Estimate) -> String {
        let (p, exact) = self.p_shown(e);
        let exact = if exact { " (exact sign test)" } else { "" };
        // The games' draw ratio, as W-D-L counts it; the pairs' middle
        // share (fastchess's "DrawRatio") named as such beside it.
        let draws = match (&self.trinomial_estimate, &self.pentanomial_estimate) {
            (Some(games), Some(pairs)) => {
                format!("draw ratio {} (DD+WL pairs {})", percent(games.draw_ratio), percent(pairs.draw_ratio))
            }
            (Some(games), None) => format!("draw ratio {}", percent(games.draw_ratio)),
            (None, _) => format!("DD+WL pairs {}", percent(e.draw_ratio)),
        };
        format!("LOS {}   p {}{exact}   {draws}\n", percent(e.los), p_value(p))
    }
}

/// Below this many games the p-value shown is the exact sign test's.
pub const EXACT_BELOW: u64 = 200;

/// Below this many games a verdict names no count of games to play.
pub const TOO_FEW: u64 = 10;

/// The note under a sample whose Elo is a one-sided bound.
pub const ONE_SIDED_NOTE: &str = "note: '>' and '<' give a one-sided 95 % bound (Wilson's): with no game lost (or \
     none won) the score's interval reaches 100 % (0 %), so only how low (high) the Elo can be is known";

/// `x` in [0, 1] as a percentage, `43.0 %`.
fn percent(x: f64) -> String {
    format!("{:.1} %", 100.0 * x)
}

/// The Elo of estimate `e` as a line labelled `label`: its interval, or
/// for a one-sided sample its bound, not the regularised estimate.
fn elo_line(label: &str, e: &Estimate) -> String {
    if e.elo_limit.is_some() {
        return format!("{label:<16}{}\n", e.elo_text);
    }
    let bound = e.bound.map(|b| format!(" ({b})")).unwrap_or_default();
    format!(
        "{label:<16}{:>7} ± {:5.1}  {}{bound}\n",
        signed(e.elo),
        (e.elo_ci95[1] - e.elo_ci95[0]) / 2.0,
        interval(e.elo_ci95[0], e.elo_ci95[1])
    )
}

/// The normalized Elo of estimate `e` of `counts` as a line labelled
/// `label`, or `unbounded` and why, where every sample went one way or
/// every one alike off ½.
fn nelo_line(label: &str, e: &Estimate, counts: &[u64]) -> String {
    if e.elo_text.ends_with("(all won)") || e.elo_text.ends_with("(all lost)") {
        let why = e.elo_text.find(" (").map_or("", |at| &e.elo_text[at..]);
        return format!("{label:<16}unbounded{why}\n");
    }
    if alike_off_even(counts) {
        // The score's distance from ½ in units of a spread of nothing but
        // the regularisation's: thousands, ± tens of thousands, which says
        // no more than this.
        let unit = if counts.len() == 5 { "pair" } else { "game" };
        return format!("{label:<16}unbounded (every {unit} alike: no spread to measure it by)\n");
    }
    format!("{label:<16}{:>7} ± {:5.1}\n", signed(e.nelo), (e.nelo_ci95[1] - e.nelo_ci95[0]) / 2.0)
}

/// The SPRT's bounds, model, LLR and state as a line.
fn sprt_line(s: &SprtState) -> String {
    let model = match s.test.model {
        crate::stats::sprt::Model::Normalized => "normalized",
        crate::stats::sprt::Model::Logistic => "logistic",
    };
    format!(
        "SPRT [{}, {}] {model} α={} β={}: LLR {:.2} ({:.2}, {:.2}) {}\n",
        s.test.elo0,
        s.test.elo1,
        s.test.alpha,
        s.test.beta,
        s.llr,
        s.lower,
        s.upper,
        s.verdict_label()
    )
}

/// What an SPRT's verdict establishes about A's gain over B: more than
/// (`Greater`) or less than (`Less`) `elo`, in the test's Elo model; a
/// bound of 0 reads as stronger or weaker, a negative one as a loss.
fn gain_claim(a: &str, b: &str, side: Ordering, elo: f64, model: Model) -> String {
    let amount = |x: f64| format!("{} {}", x.abs(), model.unit());
    match (side, elo.partial_cmp(&0.0)) {
        (Ordering::Greater, Some(Ordering::Equal)) => format!("{a} is stronger than {b}"),
        (_, Some(Ordering::Equal)) => format!("{a} is weaker than {b}"),
        (Ordering::Greater, Some(Ordering::Greater)) => format!("{a} gains more than {} over {b}", amount(elo)),
        (_, Some(Ordering::Greater)) => format!("{a} gains less than {} over {b}", amount(elo)),
        (Ordering::Greater, _) => format!("{a} loses less than {} to {b}", amount(elo)),
        _ => format!("{a} loses more than {} to {b}", amount(elo)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sample_without_a_two_sided_interval_asks_for_more_games_without_a_count() {
        // Four games all won (two WW pairs): the sign test's p is 0.125, and
        // the Elo has a one-sided bound only, so no count of games is named.
        let all_won = Statistics::new(Some((4, 0, 0)), Some([0, 0, 0, 0, 2]), None, None);
        assert_eq!(all_won.verdict, "not significant (p = 0.125): too few games to size the difference; play more");
        // A sample with an interval still gets its count.
        let some = Statistics::new(Some((30, 40, 30)), Some([5, 10, 20, 10, 5]), None, None);
        assert!(some.verdict.contains("more games to resolve ±2 Elo"), "{}", some.verdict);
        // +1 =2 -7 in pairs LL 2 LD 2 DD+WL 1 (seen in a views test): the games' Elo is
        // a one-sided bound and the pairs' interval clears 0 while the exact p is 0.070;
        // "play about 2 more games to resolve ±241 Elo" said nothing true.
        let lopsided = Statistics::new(Some((1, 2, 7)), Some([2, 2, 1, 0, 0]), None, None);
        assert_eq!(lopsided.verdict, "not significant (p = 0.070): too few games to size the difference; play more");
        // Even, and an interval narrower than the ±2 Elo a count would aim at: no count.
        let even = Statistics::new(None, Some([1000, 6000, 15000, 6100, 1000]), None, None);
        assert!(even.verdict.contains("is already narrower than ±2 Elo"), "{}", even.verdict);
    }

    #[test]
    fn an_sprt_verdict_claims_what_its_error_rates_bound_in_the_tests_own_unit() {
        let verdict = |wdl, elo0, elo1, model| {
            let test = Test { elo0, elo1, alpha: 0.05, beta: 0.05, model };
            Statistics::new(Some(wdl), None, Some(test), None).verdict
        };
        let won = (900, 300, 300);
        let lost = (300, 300, 900);
        let h1 = verdict(won, 0.0, 5.0, Model::Normalized);
        assert!(h1.starts_with("SPRT accepted H1: A is stronger than B (LLR "), "{h1}");
        let h1 = verdict(won, 2.0, 5.0, Model::Normalized);
        assert!(h1.starts_with("SPRT accepted H1: A gains more than 2 nElo over B (LLR "), "{h1}");
        let h1 = verdict(won, -3.0, 1.0, Model::Logistic);
        assert!(h1.starts_with("SPRT accepted H1: A loses less than 3 Elo to B (LLR "), "{h1}");
        let h0 = verdict(lost, 0.0, 5.0, Model::Normalized);
        assert!(h0.starts_with("SPRT accepted H0: A gains less than 5 nElo over B (LLR "), "{h0}");
        let h0 = verdict(lost, -3.0, 0.0, Model::Logistic);
        assert!(h0.starts_with("SPRT accepted H0: A is weaker than B (LLR "), "{h0}");
        let h0 = verdict(lost, -5.0, -2.5, Model::Logistic);
        assert!(h0.starts_with("SPRT accepted H0: A loses more than 2.5 Elo to B (LLR "), "{h0}");
    }

    /// Pairs alone (`arena stats --ptnml`): the small sample's p is the
    /// sign test's on pairs above and below even, not the normal
    /// approximation's, which called one pair of two wins significant
    /// beside a lower bound of -51.8 Elo.
    #[test]
    fn pairs_alone_take_the_sign_test_on_pairs() {
        let one_pair = Statistics::new(None, Some([0, 0, 0, 0, 1]), None, None);
        assert!((one_pair.exact_p_value.unwrap() - 1.0).abs() < 1e-9, "{:?}", one_pair.exact_p_value);
        assert_eq!(one_pair.verdict, "not significant (p = 1.000): too few games to size the difference; play more");
        // Five pairs, 3 above even (WD, WW, WW) and 1 below (LD): p = 0.625.
        let five = Statistics::new(None, Some([0, 1, 1, 1, 2]), None, None);
        assert!((five.exact_p_value.unwrap() - 0.625).abs() < 1e-12, "{:?}", five.exact_p_value);
        assert!(five.verdict.starts_with("not significant (p = 0.625)"), "{}", five.verdict);
    }

    #[test]
    fn paper_sized_sample_is_significant_and_small_one_is_not() {
        let fhr = Statistics::new(Some((34, 0, 16)), None, None, None);
        assert!(fhr.verdict.contains("A is stronger than B"), "{}", fhr.verdict);
        let even = Statistics::new(Some((10, 20, 10)), None, None, None);
        assert!(even.verdict.starts_with("not significant"), "{}", even.verdict);
        let weaker = Statistics::new(Some((5, 10, 30)), None, None, None);
        assert!(weaker.verdict.contains("B is stronger than A"), "{}", weaker.verdict);
    }

    #[test]
    fn what_rounds_to_zero_prints_plus_zero() {
        for (x, text) in
            [(-0.0, "+0.0"), (-1e-12, "+0.0"), (-0.04, "+0.0"), (0.0, "+0.0"), (-0.06, "-0.1"), (12.34, "+12.3")]
        {
            assert_eq!(signed(x), text, "{x}");
        }
    }

    #[test]
    fn edge_cases_render_without_nan() {
        for (wdl, pentanomial) in [
            (Some((0, 0, 0)), None),
            (Some((0, 40, 0)), None),
            (Some((40, 0, 0)), None),
            (Some((0, 0, 40)), None),
            (Some((30, 10, 0)), None),
            (None, Some([0, 0, 0, 0, 20])),
            (None, Some([0, 0, 20, 0, 0])),
            (Some((1, 0, 1)), Some([0, 0, 1, 0, 0])),
        ] {
            let test = Test { elo0: 0.0, elo1: 5.0, alpha: 0.05, beta: 0.05, model: Model::Normalized };
            let stats = Statistics::new(wdl, pentanomial, Some(test), None);
            let text = stats.render_text("A", "B");
            let json = serde_json::to_string(&stats).unwrap();
            let negative_zero = text.split(|c: char| c.is_whitespace() || ",[]".contains(c)).any(|w| w == "-0.0");
            assert!(!text.contains("NaN") && !text.contains("inf") && !negative_zero, "{text}");
            assert!(!json.contains("NaN") && !json.contains("null,\"elo\""), "{json}");
        }
        let one = Statistics::new(Some((1, 0, 0)), None, None, None).render_text("A", "B");
        assert!(one.starts_with("A vs B: 1 game, +1 =0 -0"), "{one}");
    }

    #[test]
    fn a_spread_of_nothing_prints_no_normalized_elo() {
        let nelo = |wdl, pentanomial| {
            let text = Statistics::new(wdl, pentanomial, None, None).render_text("A", "B");
            text.lines().find(|l| l.starts_with("nElo")).unwrap().to_string()
        };
        // One pair won and drawn (fishtest: +2001.6 ± 41,458).
        let one_pair = nelo(Some((1, 1, 0)), Some([0, 0, 0, 1, 0]));
        assert_eq!(one_pair, "nElo (pairs)    unbounded (every pair alike: no spread to measure it by)");
        assert!(nelo(None, Some([0, 3, 0, 0, 0])).contains("every pair alike"));
        // All drawn: 0, with fishtest's interval.
        assert_eq!(nelo(Some((0, 100, 0)), None), "nElo (games)       +0.0 ±  68.1");
        // Pairs alike at ½, or a spread however small: a number.
        assert!(nelo(None, Some([0, 0, 4, 0, 0])).contains(" ± "));
        assert!(nelo(None, Some([0, 0, 0, 9, 1])).contains(" ± "));
        assert!(nelo(None, Some([0, 0, 0, 0, 3])).ends_with("unbounded (all won)"));
    }
}
