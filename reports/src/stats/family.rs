//! A family of SPRTs: several candidates, each against the same base under
//! the same test, stopped by one procedure that bounds the family-wise
//! errors: the chance of accepting H1 for any candidate whose true gain is
//! at most elo0 stays at most α, and of accepting H0 for any whose gain is
//! at least elo1 at most β, however many candidates there are and however
//! their results are correlated (they share the base and the openings).
//!
//! The procedure is the sequential Holm procedure of J. Bartroff and J. Song,
//! "Sequential tests of multiple hypotheses controlling type I and II
//! familywise error rates", Journal of Statistical Planning and Inference
//! 153 (2014) 100–114 (arXiv:1304.6309). With k candidates, of which r have
//! accepted H1 and a have accepted H0 so far, every undecided candidate
//! faces the SPRT at α/(k − r) and β/(k − a) (Wald's bounds,
//! [`Test::bounds`]): the candidate with the highest LLR accepts H1 when it
//! reaches that upper bound, the one with the lowest accepts H0 at the
//! lower, and each decision loosens the bounds of the rest, as Holm's
//! (1979) fixed-sample procedure loosens its thresholds, until nobody
//! crosses. The first decision of either kind is Bonferroni's (α/k, β/k);
//! the last candidate left faces α and β, and a family of one is the
//! plain SPRT.
//!
//! Why the type I bound holds: when a candidate with true gain ≤ elo0 is
//! first accepted wrongly, at most k − k₀ others have accepted H1 (k₀ such
//! candidates in all), so its bound was at least that of α/k₀; each of the
//! k₀ crosses that bound with chance at most α/k₀, so one of them does with
//! chance at most α. Type II likewise.

use super::sprt::{Test, Verdict};

/// A family of `size` candidates tested under one test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Family {
    test: Test,
    size: usize,
}

/// A candidate decided: its index and its verdict (H1 or H0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The candidate, 0-based in the family's order.
    pub candidate: usize,
    /// [`Verdict::AcceptH1`] or [`Verdict::AcceptH0`].
    pub verdict: Verdict,
}

impl Family {
    /// The family of `size` candidates (at least one) under `test`.
    pub fn new(test: Test, size: usize) -> Family {
        Family { test, size: size.max(1) }
    }

    /// How many candidates.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The family's test: its α and β are the family-wise error rates.
    pub fn test(&self) -> Test {
        self.test
    }

    /// The test an undecided candidate faces after `accepted_h1` candidates
    /// accepted H1 and `accepted_h0` accepted H0: α/(k − r), β/(k − a).
    pub fn level(&self, accepted_h1: usize, accepted_h0: usize) -> Test {
        let left = |decided: usize| self.size.saturating_sub(decided).max(1) as f64;
        let t = self.test;
        Test::new(t.elo0(), t.elo1(), t.alpha() / left(accepted_h1), t.beta() / left(accepted_h0), t.model())
            .unwrap_or(t)
    }

    /// The decisions that `llrs` (every candidate's LLR now, in the family's
    /// order) add to `decided` (the decisions so far, in the order they were
    /// taken), in the order they are taken.
    pub fn step(&self, llrs: &[f64], decided: &[Decision]) -> Vec<Decision> {
        let mut all = decided.to_vec();
        let first_new = all.len();
        loop {
            let (h1, h0) = counts(&all);
            let open: Vec<usize> =
                (0..self.size.min(llrs.len())).filter(|i| !all.iter().any(|d| d.candidate == *i)).collect();
            let Some(&top) = open.iter().max_by(|&&x, &&y| llrs[x].total_cmp(&llrs[y]).then(y.cmp(&x))) else { break };
            let Some(&bottom) = open.iter().min_by(|&&x, &&y| llrs[x].total_cmp(&llrs[y])) else { break };
            let bounds = self.level(h1, h0).bounds();
            if llrs[top] >= bounds.upper {
                all.push(Decision { candidate: top, verdict: Verdict::AcceptH1 });
            } else if llrs[bottom] <= bounds.lower {
                all.push(Decision { candidate: bottom, verdict: Verdict::AcceptH0 });
            } else {
                break;
            }
        }
        all.split_off(first_new)
    }

    /// Each candidate's verdict (`None`: undecided) and the test its figures
    /// are read under: for a decided candidate the level it was decided at,
    /// for the others the level they face now. `decided` in the order the
    /// decisions were taken.
    pub fn standing(&self, decided: &[Decision]) -> Vec<(Option<Verdict>, Test)> {
        let mut standing: Vec<(Option<Verdict>, Test)> = Vec::new();
        let (h1, h0) = counts(decided);
        let now = self.level(h1, h0);
        standing.resize(self.size, (None, now));
        for (order, decision) in decided.iter().enumerate() {
            let (h1, h0) = counts(&decided[..order]);
            if let Some(place) = standing.get_mut(decision.candidate) {
                *place = (Some(decision.verdict), self.level(h1, h0));
            }
        }
        standing
    }

    /// The family's verdict once it ended: H1 when any candidate accepted
    /// H1, H0 when every candidate accepted H0, else inconclusive (a
    /// candidate reached the game limit undecided).
    pub fn verdict(&self, decided: &[Decision]) -> Verdict {
        let (h1, h0) = counts(decided);
        match () {
            () if h1 > 0 => Verdict::AcceptH1,
            () if h0 >= self.size => Verdict::AcceptH0,
            () => Verdict::Inconclusive,
        }
    }
}

/// How many of `decided` accepted H1 and how many H0.
fn counts(decided: &[Decision]) -> (usize, usize) {
    let h1 = decided.iter().filter(|d| d.verdict == Verdict::AcceptH1).count();
    let h0 = decided.iter().filter(|d| d.verdict == Verdict::AcceptH0).count();
    (h1, h0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::sprt::Model;

    fn family(size: usize) -> Family {
        Family::new(Test::new(0.0, 2.0, 0.05, 0.05, Model::Normalized).unwrap(), size)
    }

    #[test]
    fn a_family_of_one_is_the_plain_sprt() {
        let plain = family(1).test();
        assert_eq!(family(1).level(0, 0), plain);
        for llr in [-3.0, -2.9, 0.0, 2.9, 3.0] {
            let step = family(1).step(&[llr], &[]);
            assert_eq!(step.first().map(|d| d.verdict), plain.decide(llr), "{llr}");
        }
    }

    #[test]
    fn the_first_decision_is_bonferroni_and_each_loosens_the_rest() {
        let three = family(3);
        // ln((1 − 0.05/3)/(0.05/3)) = 4.07: 3.5 does not accept H1 first.
        assert!(three.level(0, 0).bounds().upper > 4.0);
        assert!(three.step(&[3.5, 3.4, 0.0], &[]).is_empty());
        // One past Bonferroni's bound: then the second faces α/2 (3.66) and
        // the third α (2.94) in the same step.
        let step = three.step(&[4.2, 3.7, 3.0], &[]);
        let verdicts: Vec<(usize, Verdict)> = step.iter().map(|d| (d.candidate, d.verdict)).collect();
        assert_eq!(verdicts, [(0, Verdict::AcceptH1), (1, Verdict::AcceptH1), (2, Verdict::AcceptH1)]);
        // An acceptance of H0 loosens the lower bound: -3.0 is short of β/2's
        // -3.67 after -4.2 passed β/3's -4.08.
        let low = three.step(&[-4.2, -3.0, 1.0], &[]);
        assert_eq!(low, [Decision { candidate: 0, verdict: Verdict::AcceptH0 }]);
        assert!(three.level(0, 1).bounds().lower > three.level(0, 0).bounds().lower);
    }

    #[test]
    fn the_standing_reads_each_decided_candidate_at_its_own_level() {
        let three = family(3);
        let decided = [
            Decision { candidate: 2, verdict: Verdict::AcceptH0 },
            Decision { candidate: 0, verdict: Verdict::AcceptH1 },
        ];
        let standing = three.standing(&decided);
        assert_eq!(standing[2], (Some(Verdict::AcceptH0), three.level(0, 0)));
        assert_eq!(standing[0], (Some(Verdict::AcceptH1), three.level(0, 1)));
        assert_eq!(standing[1], (None, three.level(1, 1)));
        assert_eq!(three.verdict(&decided), Verdict::AcceptH1);
        assert_eq!(three.verdict(&decided[..1]), Verdict::Inconclusive);
    }
}
