//! A family of SPRTs in a report: the procedure, its family-wise error
//! rates, and each candidate's state, drawn by every format from the same
//! blocks. Each candidate's own section reads its figures under the test
//! the family's procedure gave it ([`crate::stats::family`]).

use serde::Serialize;

use super::PairingReport;
use super::document::{Align, Block, Table};
use crate::stats::family::{Decision, Family};
use crate::stats::sprt::{Test, Verdict};
use crate::stats::{interval, signed};

/// The name of the procedure, with its source, as every view says it.
pub const PROCEDURE: &str = "sequential Holm procedure (Bartroff & Song 2014)";

/// A family of SPRTs as stored: the family, the decisions in the order they
/// were taken, and whether the run ended (an undecided candidate of an
/// ended run is inconclusive: its games ran out).
#[derive(Clone, Debug)]
pub struct FamilyInputs {
    /// The family.
    pub family: Family,
    /// The decisions, in order.
    pub decided: Vec<Decision>,
    /// The run ended.
    pub ended: bool,
}

impl FamilyInputs {
    /// Each candidate's test and final verdict as its statistics read them:
    /// the level it was decided at (or faces now) and, for an undecided
    /// candidate of an ended run, inconclusive.
    pub fn tests(&self) -> Vec<(Test, Option<Verdict>)> {
        let standing = self.family.standing(&self.decided);
        standing
            .into_iter()
            .map(|(verdict, test)| (test, verdict.or(self.ended.then_some(Verdict::Inconclusive))))
            .collect()
    }
}

/// One candidate's line.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Candidate {
    /// The candidate.
    pub candidate: String,
    /// The base.
    pub base: String,
    /// `H1`, `H0`, `inconclusive` (its games ran out) or `running`.
    pub state: String,
    /// Its place in the order of decisions (1 first), when decided.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decided: Option<usize>,
    /// The α and β it was decided at, or faces now.
    pub alpha: f64,
    /// See `alpha`.
    pub beta: f64,
    /// Games.
    pub games: u64,
    /// LLR and its bounds (lower, upper).
    pub llr: [f64; 3],
    /// The headline Elo text of its section (corrected for the stop when it stopped by the rule).
    pub elo: String,
}

/// The family's section.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FamilySection {
    /// [`PROCEDURE`].
    pub procedure: &'static str,
    /// The family-wise rates.
    pub alpha: f64,
    /// See `alpha`.
    pub beta: f64,
    /// `H1` (a candidate accepted H1), `H0` (all accepted H0),
    /// `inconclusive`, or `running`.
    pub verdict: String,
    /// Each candidate, in the family's order.
    pub candidates: Vec<Candidate>,
}

impl FamilySection {
    /// The section from the family and the candidates' sections (in order).
    pub fn build(inputs: &FamilyInputs, pairings: &[PairingReport]) -> FamilySection {
        let family = &inputs.family;
        let order = |i: usize| inputs.decided.iter().position(|d| d.candidate == i).map(|p| p + 1);
        let candidates = pairings
            .iter()
            .zip(inputs.tests())
            .enumerate()
            .map(|(i, (pairing, (test, _)))| {
                let statistics = &pairing.statistics;
                let sprt = statistics.sprt.as_ref();
                let state = match sprt.and_then(|s| s.verdict) {
                    Some(verdict) => verdict.as_str().to_string(),
                    None => "running".to_string(),
                };
                let elo = match (&statistics.sequential, &statistics.estimate) {
                    (Some(q), _) => {
                        format!("{} {} (SPRT-corrected)", signed(q.elo), interval(q.elo_ci95[0], q.elo_ci95[1]))
                    }
                    (None, Some(estimate)) => estimate.elo_text.clone(),
                    (None, None) => "-".to_string(),
                };
                Candidate {
                    candidate: pairing.a.clone(),
                    base: pairing.b.clone(),
                    state,
                    decided: order(i),
                    alpha: test.alpha(),
                    beta: test.beta(),
                    games: statistics.games,
                    llr: sprt.map_or([0.0; 3], |s| [s.llr, s.lower, s.upper]),
                    elo,
                }
            })
            .collect();
        let verdict = match inputs.ended {
            true => family.verdict(&inputs.decided).as_str().to_string(),
            false => "running".to_string(),
        };
        FamilySection {
            procedure: PROCEDURE,
            alpha: family.test().alpha(),
            beta: family.test().beta(),
            verdict,
            candidates,
        }
    }

    /// The section's blocks: a heading, what the procedure guarantees, and
    /// one row per candidate.
    pub(super) fn blocks(&self) -> Vec<Block> {
        let base = self.candidates.first().map_or("", |c| c.base.as_str());
        let mut out = vec![Block::Heading(2, format!("Family of {} candidates against {base}", self.candidates.len()))];
        let verdict = match self.verdict.as_str() {
            "H1" => "a candidate accepted H1".to_string(),
            "H0" => "every candidate accepted H0".to_string(),
            "running" => "running".to_string(),
            other => format!("{other}: a candidate's games ran out undecided"),
        };
        out.push(Block::Lines(
            false,
            vec![
                format!(
                    "{}: the chance of accepting H1 for any candidate no better than elo0 is at most α = {}, of \
                     accepting H0 for any at least elo1 better at most β = {}; each decision loosens the bounds of \
                     the rest (α/k … α, β/k … β).",
                    self.procedure, self.alpha, self.beta
                ),
                format!("family: {verdict}"),
            ],
        ));
        let rows = self
            .candidates
            .iter()
            .map(|c| {
                let [llr, lower, upper] = c.llr;
                vec![
                    c.candidate.clone(),
                    c.games.to_string(),
                    format!("{llr:.2} ({lower:.2}, {upper:.2})"),
                    format!("{} / {}", crate::summary::rate(c.alpha), crate::summary::rate(c.beta)),
                    match c.decided {
                        Some(n) => format!("{} (decision {n})", c.state),
                        None => c.state.clone(),
                    },
                    c.elo.clone(),
                ]
            })
            .collect();
        out.push(Block::Table(Table::new(
            &[
                ("Candidate", Align::Left),
                ("Games", Align::Right),
                ("LLR (bounds)", Align::Right),
                ("α / β", Align::Right),
                ("State", Align::Left),
                ("Elo", Align::Right),
            ],
            rows,
        )));
        out
    }
}
