//! The statistics of a match as one documented object (`arena stats --json`,
//! `arena elo`), and its text rendering with a one-line verdict.
//!
//! One model per run ([`crate::stats::answer`]): pairs when the games were
//! played as pairs, else games; the interval, p, LOS, the verdict and the
//! advice all come from it, so they cannot disagree.
//!
//! JSON fields (version 2, stable): `version`, `games`, `score` (A's mean per
//! game), `wins`/`draws`/`losses` (when game counts are known), `pentanomial`
//! (`[LL, LD, DD+WL, WD, WW]`, when pair counts are known), `estimate` (the
//! one model's answer: `model` `"pairs"` or `"games"`, `samples`, `decisive`,
//! `elo` (null when unbounded: all won or all lost), `elo_ci95` (`[low,
//! high]`, an end null when unbounded; null when too few samples to decide),
//! `los`, `p_value` (null when too few), `nelo`, `nelo_ci95` (null without a
//! spread or when too few), `draw_ratio`, `elo_text`: the Elo as the views
//! print it), `sprt` (`elo0`, `elo1`, `alpha`, `beta`, `model`, `llr`,
//! `lower`, `upper`, `verdict`: `"H1"`, `"H0"`, `"continue"`,
//! `"inconclusive"`), `sequential` (once the SPRT stopped by its own rule:
//! `elo`, `elo_ci95`, `nelo`, `nelo_ci95`, `los`, `method`: the estimate
//! corrected for the stop; null otherwise), and `verdict` (text).

use std::cmp::Ordering;

use serde::Serialize;

use crate::stats::Counts;
use crate::stats::answer::{Answer, Basis, MIN_DECISIVE, MIN_SAMPLES};
use crate::stats::sequential::Sequential;
use crate::stats::sprt::{Model, Test, Verdict};
use crate::stats::{interval, p_equals, p_value, signed};

/// Version of the JSON object.
pub const JSON_VERSION: u32 = 2;

/// The run's one model's answer, as the views print it and JSON carries it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// `pairs` or `games`.
    pub model: Basis,
    /// Pairs or games.
    pub samples: u64,
    /// Samples not in the middle: pairs other than DD and WL, games not drawn.
    pub decisive: u64,
    /// Logistic Elo of the mean score; `None` when unbounded (all won or lost).
    pub elo: Option<f64>,
    /// 95 % interval of `elo`, an end `None` when unbounded; `None` when too
    /// few samples to decide.
    pub elo_ci95: Option<[Option<f64>; 2]>,
    /// Likelihood of superiority; `None` when too few samples.
    pub los: Option<f64>,
    /// Two-sided p-value of "equal"; `None` when too few samples.
    pub p_value: Option<f64>,
    /// Normalized Elo; `None` without a spread or when too few samples.
    pub nelo: Option<f64>,
    /// 95 % interval of `nelo`.
    pub nelo_ci95: Option<[f64; 2]>,
    /// Of games: draws / games; of pairs: the share of balanced pairs (DD
    /// and WL), the pentanomial's middle.
    pub draw_ratio: f64,
    /// The Elo as every view prints it: `+12.3 ± 4.5`, `> +439.4 (all won)`,
    /// or `+77.7 (too few pairs for an interval)`.
    pub elo_text: String,
}

impl Estimate {
    fn of(answer: &Answer) -> Estimate {
        let inference = answer.inference.as_ref();
        let nelo = answer.nelo();
        Estimate {
            model: answer.basis,
            samples: answer.samples,
            decisive: answer.decisive,
            elo: answer.elo,
            elo_ci95: inference.map(|i| [i.elo_ci95.0, i.elo_ci95.1]),
            los: inference.map(|i| i.los),
            p_value: inference.map(|i| i.p_value),
            nelo: nelo.map(|n| n.0),
            nelo_ci95: nelo.map(|n| [n.1.0, n.1.1]),
            draw_ratio: (answer.samples - answer.decisive) as f64 / answer.samples as f64,
            elo_text: answer.elo_text(),
        }
    }

    /// True when the interval excludes an Elo of 0, which is exactly when
    /// p < 0.05: what "significant" means in every view.
    pub fn significant(&self) -> bool {
        self.elo_ci95.is_some_and(|[low, high]| low.is_some_and(|l| l > 0.0) || high.is_some_and(|h| h < 0.0))
    }

    /// The Elo and its 95 % interval as a point of a curve or a line:
    /// `None` without a two-sided interval.
    pub fn point(&self) -> Option<(f64, [f64; 2])> {
        match (self.elo, self.elo_ci95) {
            (Some(elo), Some([Some(low), Some(high)])) => Some((elo, [low, high])),
            _ => None,
        }
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
    /// The run this test belongs to, when a person stopped it before a
    /// bound: the verdict line says so ([`Statistics::stopped_by_hand`]).
    #[serde(skip)]
    pub stopped_by_hand: Option<i64>,
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
    /// The one model's answer: from the pairs when the games were played
    /// as pairs, else from the games; `None` before a game.
    pub estimate: Option<Estimate>,
    /// SPRT state.
    pub sprt: Option<SprtState>,
    /// Once the SPRT has stopped by its own rule (a bound crossed, or its
    /// game limit): the estimate corrected for the stop, the headline of
    /// every view ([`crate::stats::sequential`]); `estimate` is then the
    /// fixed-sample one, which after an early stop overstates the distance
    /// from the bound the test did not reach.
    pub sequential: Option<Sequential>,
    /// One line saying what the numbers mean.
    pub verdict: String,
}

impl Statistics {
    /// Statistics from game counts and/or pair counts; `sprt` adds the test
    /// (evaluated on pairs when given, else on games). `sprt_final`
    /// replaces the SPRT state (e.g. `inconclusive` at the game limit).
    /// Pair counts, when given, are the run's one model.
    pub fn new(
        wdl: Option<(u64, u64, u64)>,
        pentanomial: Option<[u64; 5]>,
        sprt: Option<Test>,
        sprt_final: Option<Verdict>,
    ) -> Statistics {
        let counts = model_counts(wdl, pentanomial);
        let answer = counts.as_ref().and_then(Answer::of);
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
        // The BayesElo model reads the games' W/D/L where they are known.
        let sprt_counts = |test: &Test| match (test.model(), wdl) {
            (Model::Bayesian, Some((wins, draws, losses))) => Some(Counts::Trinomial { wins, draws, losses }),
            _ => counts,
        };
        let sprt = sprt.map(|test| {
            let counts = sprt_counts(&test).unwrap_or(Counts::Trinomial { wins: 0, draws: 0, losses: 0 });
            let llr = crate::stats::sprt::llr(&test, &counts);
            let bounds = test.bounds();
            let verdict = sprt_final.or_else(|| test.decide(llr));
            SprtState { test, llr, lower: bounds.lower, upper: bounds.upper, verdict, stopped_by_hand: None }
        });
        // Only where the fixed-sample answer has an interval too: below its
        // floor of pairs no interval's coverage was measured.
        let sequential = sprt
            .as_ref()
            .filter(|state| state.verdict.is_some() && answer.as_ref().is_some_and(|a| a.inference.is_some()))
            .and_then(|state| {
                sprt_counts(&state.test).and_then(|c| crate::stats::sequential::estimate(&state.test, &c))
            });
        let mut statistics = Statistics {
            version: JSON_VERSION,
            games,
            score,
            wins: wdl.map(|t| t.0),
            draws: wdl.map(|t| t.1),
            losses: wdl.map(|t| t.2),
            pentanomial,
            estimate: answer.as_ref().map(Estimate::of),
            sprt,
            sequential,
            verdict: String::new(),
        };
        statistics.verdict = statistics.verdict_line("A", "B");
        statistics
    }

    /// Marks an SPRT that a person stopped (run `run`) before a bound:
    /// its verdict line then says there is no verdict, why its figures
    /// cannot be corrected, and how to play on.
    pub fn stopped_by_hand(&mut self, run: i64) {
        if let Some(sprt) = self.sprt.as_mut().filter(|s| s.verdict.is_none()) {
            sprt.stopped_by_hand = Some(run);
            self.verdict = self.verdict_line("A", "B");
        }
    }

    /// The counts of the run's one model: pairs when known, else games.
    pub fn counts(&self) -> Option<Counts> {
        model_counts(self.wins.zip(self.draws).zip(self.losses).map(|((w, d), l)| (w, d, l)), self.pentanomial)
    }

    /// One line: significant or not, and how many more games would resolve the difference.
    pub fn verdict_line(&self, a: &str, b: &str) -> String {
        let Some(estimate) = &self.estimate else { return "no games yet".to_string() };
        if let Some(sprt) = &self.sprt {
            if let (None, Some(run)) = (sprt.verdict, sprt.stopped_by_hand) {
                return format!(
                    "SPRT stopped by hand before a bound (LLR {:.2} in ({:.2}, {:.2})): no verdict, and the figures \
                     are fixed-sample ones, which a stop chosen by looking at them biases; arena resume {run} plays \
                     on under the same test",
                    sprt.llr, sprt.lower, sprt.upper
                );
            }
            match sprt.verdict {
                // Accepting H1 rules out a gain of elo0 or less (wrongly
                // with probability at most α); accepting H0 rules out elo1
                // or more (at most β). Neither says the gain is elo1.
                Some(Verdict::AcceptH1) => {
                    return format!(
                        "SPRT accepted H1: {} (LLR {:.2} ≥ {:.2})",
                        gain_claim(a, b, Ordering::Greater, sprt.test.elo0(), sprt.test.model()),
                        sprt.llr,
                        sprt.upper
                    );
                }
                Some(Verdict::AcceptH0) => {
                    return format!(
                        "SPRT accepted H0: {} (LLR {:.2} ≤ {:.2})",
                        gain_claim(a, b, Ordering::Less, sprt.test.elo1(), sprt.test.model()),
                        sprt.llr,
                        sprt.lower
                    );
                }
                // Which bound the LLR was nearer, in the share of the way
                // from the middle: a lean, never a verdict.
                Some(Verdict::Inconclusive) => {
                    let middle = (sprt.lower + sprt.upper) / 2.0;
                    let lean = match sprt.llr.total_cmp(&middle) {
                        Ordering::Less => format!(
                            "nearer H0's bound ({:.0} % of the way from the middle): it leans to a gain below {}",
                            100.0 * (middle - sprt.llr) / (middle - sprt.lower),
                            signed_bound(sprt.test.elo1(), sprt.test.model())
                        ),
                        Ordering::Greater => format!(
                            "nearer H1's bound ({:.0} % of the way from the middle): it leans to a gain above {}",
                            100.0 * (sprt.llr - middle) / (sprt.upper - middle),
                            signed_bound(sprt.test.elo0(), sprt.test.model())
                        ),
                        Ordering::Equal => "midway between the bounds".to_string(),
                    };
                    return format!(
                        "SPRT inconclusive at the game limit (LLR {:.2} in ({:.2}, {:.2})), {lean}; neither error rate \
                         holds for a lean",
                        sprt.llr, sprt.lower, sprt.upper
                    );
                }
                None => {}
            }
        }
        let noun = estimate.model.noun();
        let (Some(p), Some(ci)) = (estimate.p_value, estimate.elo_ci95) else {
            return format!(
                "too few {noun} to decide ({} {noun}, {} decisive; an answer needs {MIN_SAMPLES}, {MIN_DECISIVE} of them decisive): play more",
                estimate.samples, estimate.decisive
            );
        };
        let score_above = self.score > 0.5;
        if estimate.significant() {
            let (stronger, weaker) = if score_above { (a, b) } else { (b, a) };
            return format!("{stronger} is stronger than {weaker} at 5 % significance ({})", p_equals(p));
        }
        let (Some(elo), [Some(low), Some(high)]) = (estimate.elo, ci) else {
            return format!("not significant ({}): play more", p_equals(p));
        };
        // Resolve the difference seen: an interval of ±|elo| (at least ±2)
        // would exclude zero if the estimate held.
        let target = elo.abs().max(2.0);
        let needed = self.counts().and_then(|counts| Answer::games_for_width(&counts, target));
        match needed {
            Some(needed) if needed > self.games => format!(
                "not significant ({}): play about {} more games to resolve ±{target:.0} Elo",
                p_equals(p),
                needed - self.games
            ),
            // Enough games for ±|Elo| at these proportions, yet the interval
            // holds zero: the question is still open (the estimate sits on
            // the line), so the advice is to play on, never to stop.
            Some(_) => format!(
                "not significant ({}): the 95 % interval {} still holds 0 Elo: play more games to decide",
                p_equals(p),
                interval(low, high)
            ),
            None => format!("not significant ({}): play more", p_equals(p)),
        }
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
        if let Some(q) = &self.sequential {
            out += &sequential_lines(q, self.sprt.as_ref().map(|s| s.test.model()));
        }
        if let Some(e) = &self.estimate {
            let unit = match (e.model, self.sequential.is_some()) {
                (_, true) => "(fixed)",
                (Basis::Pairs, false) => "(pairs)",
                (Basis::Games, false) => "(games)",
            };
            out += &elo_line(&format!("Elo {unit}"), e);
            out += &nelo_line(&format!("nElo {unit}"), e);
            out += &self.los_line(e);
        }
        if let Some(p) = self.pentanomial {
            out += &format!("pairs LL {} LD {} DD+WL {} WD {} WW {}\n", p[0], p[1], p[2], p[3], p[4]);
        }
        if let Some(s) = &self.sprt {
            out += &sprt_line(s);
        }
        out += &format!("verdict: {}\n", self.verdict_line(a, b));
        if let Some(e) = &self.estimate
            && e.elo_ci95.is_some_and(|[low, high]| low.is_none() != high.is_none())
        {
            out += &format!("{ONE_SIDED_NOTE}\n");
        }
        out
    }

    /// The likelihood of superiority, the p-value and draw ratio of
    /// estimate `e`, as a line.
    fn los_line(&self, e: &Estimate) -> String {
        // The games' draw ratio, as W-D-L counts it; the pairs' middle
        // share (fastchess's "DrawRatio") named as such beside it.
        let games_draws = match (self.draws, self.games) {
            (Some(d), g) if g > 0 => Some(d as f64 / g as f64),
            _ => None,
        };
        let draws = match (e.model, games_draws) {
            (Basis::Pairs, Some(games)) => {
                format!("draw ratio {} (DD+WL pairs {})", percent(games), percent(e.draw_ratio))
            }
            (Basis::Pairs, None) => format!("DD+WL pairs {}", percent(e.draw_ratio)),
            (Basis::Games, _) => format!("draw ratio {}", percent(e.draw_ratio)),
        };
        match (e.los, e.p_value) {
            (Some(los), Some(p)) => format!("LOS {}   p {}   {draws}\n", crate::stats::los_text(los), p_value(p)),
            _ => format!("LOS -   p -   {draws}\n"),
        }
    }
}

/// The counts of a run's one model: pairs when known, else games.
fn model_counts(wdl: Option<(u64, u64, u64)>, pentanomial: Option<[u64; 5]>) -> Option<Counts> {
    match (pentanomial, wdl) {
        (Some(p), _) => Some(Counts::Pentanomial(p)),
        (None, Some((wins, draws, losses))) => Some(Counts::Trinomial { wins, draws, losses }),
        (None, None) => None,
    }
}

/// The note under a sample whose Elo interval has one end.
pub const ONE_SIDED_NOTE: &str = "note: '>' and '<' give the end of the 95 % interval that exists: with every \
     result won (or lost) the interval's other end is unbounded, so only how low (high) the Elo can be is known";

/// `x` in [0, 1] as a percentage, `43.0 %`.
fn percent(x: f64) -> String {
    format!("{:.1} %", 100.0 * x)
}

/// The Elo of estimate `e` as a line labelled `label`: its estimate, half
/// the interval's width and the interval (not symmetric in Elo), or its one
/// end, or why there is none.
fn elo_line(label: &str, e: &Estimate) -> String {
    match (e.elo, e.elo_ci95) {
        (Some(elo), Some([Some(low), Some(high)])) => {
            format!("{label:<16}{:>7} ± {:5.1}  {}\n", signed(elo), (high - low) / 2.0, interval(low, high))
        }
        (_, Some(_)) => format!("{label:<16}{}\n", e.elo_text),
        (_, None) => {
            let noun = e.model.noun();
            format!(
                "{label:<16}{}: {} {noun}, {} decisive, of the {MIN_SAMPLES} and {MIN_DECISIVE} an interval needs\n",
                e.elo_text, e.samples, e.decisive
            )
        }
    }
}

/// The headline of a stopped SPRT: the Elo corrected for the stop, and the
/// nElo too where the test was stated in it.
fn sequential_lines(q: &Sequential, model: Option<Model>) -> String {
    let [low, high] = q.elo_ci95;
    let mut out = format!(
        "{:<16}{:>7}  {}  corrected for the SPRT's stop (median-unbiased); the fixed-sample figures below are not\n",
        "Elo (SPRT)",
        signed(q.elo),
        interval(low, high)
    );
    if model == Some(Model::Normalized) {
        let [low, high] = q.nelo_ci95;
        out += &format!("{:<16}{:>7}  {}\n", "nElo (SPRT)", signed(q.nelo), interval(low, high));
    }
    out
}

/// The normalized Elo of estimate `e` as a line labelled `label`, or
/// `unbounded` and why, where every sample went one way or alike.
fn nelo_line(label: &str, e: &Estimate) -> String {
    let unit = e.model.singular();
    match (e.nelo, e.nelo_ci95) {
        (Some(nelo), Some([low, high])) => format!("{label:<16}{:>7} ± {:5.1}\n", signed(nelo), (high - low) / 2.0),
        _ if e.elo_ci95.is_none() => format!("{label:<16}-\n"),
        _ if e.elo_text.ends_with("(all won)") => format!("{label:<16}unbounded (all won)\n"),
        _ if e.elo_text.ends_with("(all lost)") => format!("{label:<16}unbounded (all lost)\n"),
        // The score's distance from ½ in units of a spread of nothing.
        _ => format!("{label:<16}unbounded (every {unit} alike: no spread to measure it by)\n"),
    }
}

/// The SPRT's bounds, model, LLR and state as a line.
fn sprt_line(s: &SprtState) -> String {
    let model = s.test.model();
    format!(
        "SPRT [{}, {}] {model} α={} β={}: LLR {:.2} ({:.2}, {:.2}) {}\n",
        s.test.elo0(),
        s.test.elo1(),
        rate(s.test.alpha()),
        rate(s.test.beta()),
        s.llr,
        s.lower,
        s.upper,
        s.verdict_label()
    )
}

/// A bound in the test's unit: `5 nElo`, `-1.75 Elo`.
fn signed_bound(elo: f64, model: Model) -> String {
    format!("{elo} {}", model.unit())
}

/// An error rate as the SPRT line prints it: as given (0.05), or to four
/// significant digits where a family's share of it has more (α/3 = 0.01667).
pub(crate) fn rate(r: f64) -> String {
    let short = format!("{r:.4e}").parse::<f64>().unwrap_or(r);
    format!("{short}")
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
    use crate::stats::answer::half_width_at;

    #[test]
    fn a_capped_sprt_says_which_bound_it_was_nearer() {
        let test = Test::new(0.0, 5.0, 0.05, 0.05, Model::Normalized).unwrap();
        let capped = |p: [u64; 5]| {
            let wdl = (2 * p[4] + p[3], 2 * p[2] + p[1] + p[3], 2 * p[0] + p[1]);
            let s = Statistics::new(Some(wdl), Some(p), Some(test), Some(Verdict::Inconclusive));
            (s.sprt.as_ref().unwrap().llr, s.verdict)
        };
        let (llr, low) = capped([55, 200, 500, 200, 45]);
        assert!(llr < 0.0 && llr > -2.94, "{llr}");
        assert!(low.contains("nearer H0's bound") && low.contains("below 5 nElo"), "{low}");
        let (llr, high) = capped([45, 200, 500, 200, 55]);
        assert!(llr > 0.0 && llr < 2.94, "{llr}");
        assert!(high.contains("nearer H1's bound") && high.contains("above 0 nElo"), "{high}");
        assert!(high.ends_with("neither error rate holds for a lean"), "{high}");
    }

    #[test]
    fn an_sprt_stopped_by_hand_says_it_has_no_verdict_and_how_to_play_on() {
        let test = Test::new(0.0, 5.0, 0.05, 0.05, Model::Normalized).unwrap();
        let mut stopped = Statistics::new(Some((30, 40, 30)), Some([5, 10, 20, 10, 5]), Some(test), None);
        assert!(!stopped.verdict.contains("by hand"), "{}", stopped.verdict);
        stopped.stopped_by_hand(7);
        assert!(stopped.verdict.starts_with("SPRT stopped by hand before a bound (LLR "), "{}", stopped.verdict);
        assert!(stopped.verdict.ends_with("arena resume 7 plays on under the same test"), "{}", stopped.verdict);
        assert!(stopped.render_text("fhr", "plain").contains("verdict: SPRT stopped by hand"));
        // A decided test keeps its verdict.
        let mut decided = Statistics::new(Some((300, 100, 100)), Some([10, 20, 50, 80, 90]), Some(test), None);
        let before = decided.verdict.clone();
        decided.stopped_by_hand(7);
        assert_eq!(decided.verdict, before);
    }

    #[test]
    fn a_sample_too_small_or_all_won_asks_for_more_without_a_count() {
        // Four games all won (two WW pairs): too few pairs to decide.
        let all_won = Statistics::new(Some((4, 0, 0)), Some([0, 0, 0, 0, 2]), None, None);
        assert_eq!(
            all_won.verdict,
            "too few pairs to decide (2 pairs, 2 decisive; an answer needs 20, 10 of them decisive): play more"
        );
        assert!(all_won.estimate.as_ref().unwrap().p_value.is_none());
        // A sample with an interval gets its count.
        let some = Statistics::new(Some((30, 40, 30)), Some([5, 10, 20, 10, 5]), None, None);
        assert!(some.verdict.contains("more games to resolve ±2 Elo"), "{}", some.verdict);
        // Even, and an interval narrower than the ±2 Elo a count would aim at: no count.
        let even = Statistics::new(None, Some([1000, 6000, 15000, 6100, 1000]), None, None);
        assert!(even.verdict.contains("still holds 0 Elo: play more games"), "{}", even.verdict);
    }

    /// The README's main command once printed an interval clear of zero
    /// beside "not significant", and `--ptnml 4,0,4,14,3` the reverse.
    #[test]
    fn the_interval_and_the_verdict_tell_one_story() {
        let readme = Statistics::new(None, Some([1, 3, 9, 8, 4]), None, None);
        let e = readme.estimate.clone().unwrap();
        let [low, _] = e.elo_ci95.unwrap();
        assert_eq!(low.unwrap() > 0.0, readme.verdict.contains("at 5 % significance"), "{e:?} {}", readme.verdict);
        let reverse = Statistics::new(None, Some([4, 0, 4, 14, 3]), None, None);
        let e = reverse.estimate.clone().unwrap();
        let [low, _] = e.elo_ci95.unwrap();
        assert_eq!(low.unwrap() > 0.0, reverse.verdict.contains("at 5 % significance"), "{e:?} {}", reverse.verdict);
        // `--wdl 24,13,13` asked for 12 more games to resolve ±78 Elo
        // beside a printed ±86: now the count that makes the interval ±78.
        let games = Statistics::new(Some((24, 13, 13)), None, None, None);
        assert!(games.verdict.contains("more games to resolve ±78 Elo"), "{}", games.verdict);
        let more: u64 = games.verdict.split("play about ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
        let now = Answer::of(&Counts::Trinomial { wins: 24, draws: 13, losses: 13 }).unwrap();
        let elo = now.elo.unwrap();
        assert!(half_width_at(&games.counts().unwrap(), (50 + more) as f64 / 50.0).unwrap() <= elo);
        assert!(half_width_at(&games.counts().unwrap(), (49 + more) as f64 / 50.0).unwrap() > elo);
    }

    /// Thousands of random counts (tiny, all alike, lopsided, up to 10⁵
    /// games), through the code the views use: the interval clear of 0,
    /// p < 0.05, an LOS outside [2.5 %, 97.5 %] and a significant verdict
    /// hold together or not at all, and the advice never asks for fewer
    /// games than make the interval as narrow as it says.
    #[test]
    fn interval_p_los_and_verdict_agree_on_random_counts() {
        let mut rng = fastrand::Rng::with_seed(86);
        let mut checked = 0;
        for case in 0..3000 {
            let scale = [3, 10, 40, 200, 2000, 50_000][case % 6];
            let skew = rng.f64();
            let mut draw = |n: u64| -> u64 {
                match rng.u8(0..4) {
                    0 => 0,
                    1 => (rng.u64(0..=n) as f64 * skew) as u64,
                    _ => rng.u64(0..=n),
                }
            };
            let (statistics, counts) = if case % 2 == 0 {
                let p = [draw(scale), draw(scale), draw(scale), draw(scale), draw(scale)];
                (Statistics::new(None, Some(p), None, None), Counts::Pentanomial(p))
            } else {
                let (w, d, l) = (draw(2 * scale), draw(2 * scale), draw(2 * scale));
                (Statistics::new(Some((w, d, l)), None, None, None), Counts::Trinomial { wins: w, draws: d, losses: l })
            };
            let Some(e) = &statistics.estimate else { continue };
            let text = statistics.render_text("A", "B");
            let significant = statistics.verdict.contains("at 5 % significance");
            let Some([low, high]) = e.elo_ci95 else {
                assert!(statistics.verdict.starts_with("too few"), "{text}");
                assert!(e.p_value.is_none() && e.los.is_none(), "{e:?}");
                continue;
            };
            checked += 1;
            let clear = low.is_some_and(|l| l > 0.0) || high.is_some_and(|h| h < 0.0);
            let (p, los) = (e.p_value.unwrap(), e.los.unwrap());
            assert_eq!(clear, significant, "{text}");
            assert_eq!(p < 0.05, significant, "{text}");
            assert_eq!(!(0.025..=0.975).contains(&los), significant, "{text}");
            if let Some(more) = statistics.verdict.split("play about ").nth(1) {
                let more: u64 = more.split(' ').next().unwrap().parse().unwrap();
                let target: f64 =
                    statistics.verdict.split('±').nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
                // Played at the same proportions, the asked-for games give an
                // interval at most as wide as promised, and one sample fewer
                // would not.
                let total = statistics.games + more;
                let one = if counts.is_pentanomial() { 2 } else { 1 };
                let width = |games: u64| half_width_at(&counts, games as f64 / statistics.games as f64).unwrap();
                let exact_target = statistics.estimate.as_ref().unwrap().elo.unwrap().abs().max(2.0);
                assert!(width(total) <= exact_target && width(total - one) > exact_target, "{text}");
                assert!((target - exact_target).abs() <= 0.5, "{text}");
                // Twice the games at the same proportions ask for the same
                // total (or none more), so for fewer more.
                let doubled = match counts {
                    Counts::Pentanomial(p) => Counts::Pentanomial(p.map(|c| 2 * c)),
                    Counts::Trinomial { wins, draws, losses } => {
                        Counts::Trinomial { wins: 2 * wins, draws: 2 * draws, losses: 2 * losses }
                    }
                };
                let later = Answer::games_for_width(&doubled, exact_target).unwrap();
                assert!(later.abs_diff(total.max(2 * statistics.games)) <= one, "{text} {later}");
                assert!(later.saturating_sub(2 * statistics.games) < more, "{text} {later}");
            }
        }
        assert!(checked > 1500, "{checked}");
    }

    #[test]
    fn an_sprt_verdict_claims_what_its_error_rates_bound_in_the_tests_own_unit() {
        let verdict = |wdl, elo0, elo1, model| {
            let test = Test::new(elo0, elo1, 0.05, 0.05, model).unwrap();
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
            let test = Test::new(0.0, 5.0, 0.05, 0.05, Model::Normalized).unwrap();
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
        // Thirty pairs each won and drawn (fishtest: thousands ± tens of thousands).
        let alike = nelo(None, Some([0, 0, 0, 30, 0]));
        assert_eq!(alike, "nElo (pairs)    unbounded (every pair alike: no spread to measure it by)");
        // All drawn: no decisive game, too few to decide.
        assert_eq!(nelo(Some((0, 100, 0)), None), "nElo (games)    -");
        // A spread however small: a number.
        assert!(nelo(None, Some([0, 0, 0, 18, 12])).contains(" ± "));
        assert!(nelo(None, Some([0, 0, 0, 0, 30])).ends_with("unbounded (all won)"));
    }
}
