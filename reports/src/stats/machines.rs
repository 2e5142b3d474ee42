//! Whether a machine plays differently from the others of its run.
//!
//! **Residual.** Each finished pair scores 0 to 2 points for engine A. In
//! each pairing k the pooled mean μₖ and variance σₖ² of a pair's score are
//! taken over all its pairs, every machine's. A machine's residual is
//! z = Σ (xₚ − μₖ) / √(Σ σₖ²) over its pairs p: how many standard errors its
//! score sits from what the pooled result expects of that many pairs. Its
//! p-value is two-sided normal, multiplied by the number of machines tested
//! (Bonferroni) and capped at 1.
//!
//! **Faults.** A machine's games lost on time, by a crash, an illegal move
//! or a stall against the rate of the other machines: with f of n of its
//! games faulted, and F of N on the others, the one-sided binomial tail
//! P(X ≥ f) for X ~ Bin(n, (F + 1)/(N + 2)) — the other machines' rate with
//! Laplace's rule, so that faultless other machines still give a rate —
//! times the number of machines, capped at 1.

use serde::Serialize;
use statrs::distribution::{Binomial, ContinuousCDF, DiscreteCDF, Normal};

/// A machine's residual.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Residual {
    /// Standard errors from the pooled result (positive: A scores more there).
    pub z: f64,
    /// Two-sided p-value, Bonferroni-corrected for the machines tested.
    pub p_adjusted: f64,
}

/// Finished pairs for [`residuals`]: their machine, their pairing, A's
/// points (0 to 2) and how many pairs scored so.
pub type PairScore<'a> = (&'a str, &'a str, f64, f64);

/// The finished pairs of a run as [`PairScore`]s: each named machine's pairs,
/// with engine A's points (game 0 has A as White, game 1 has B).
pub fn pair_scores(counts: &[model::PairCount]) -> Vec<PairScore<'_>> {
    counts
        .iter()
        .filter(|c| !c.machine.is_empty())
        .map(|c| {
            let points = c.results[0].white_score() + 1.0 - c.results[1].white_score();
            (c.machine.as_str(), c.engine_a.as_str(), points, c.pairs as f64)
        })
        .collect()
}

/// The residual of each machine (in order of first appearance) with pairs
/// in a pairing whose scores vary; machines without such pairs, and every
/// machine when fewer than two have such pairs, get `None`.
pub fn residuals(pairs: &[PairScore<'_>]) -> Vec<(String, Option<Residual>)> {
    let mut pairings: Vec<(&str, f64, f64, f64)> = Vec::new(); // (pairing, n, Σx, Σx²)
    for &(_, pairing, x, n) in pairs {
        match pairings.iter_mut().find(|p| p.0 == pairing) {
            Some(p) => {
                p.1 += n;
                p.2 += n * x;
                p.3 += n * x * x;
            }
            None => pairings.push((pairing, n, n * x, n * x * x)),
        }
    }
    let moments = |pairing: &str| {
        let &(_, n, sum, squares) = pairings.iter().find(|p| p.0 == pairing)?;
        let mean = sum / n;
        let variance = (squares / n - mean * mean).max(0.0);
        (n >= 2.0 && variance > 0.0).then_some((mean, variance))
    };
    let mut machines: Vec<(&str, f64, f64)> = Vec::new(); // (machine, Σ(x − μ), Σσ²)
    for &(machine, pairing, x, n) in pairs {
        let index = match machines.iter().position(|m| m.0 == machine) {
            Some(i) => i,
            None => {
                machines.push((machine, 0.0, 0.0));
                machines.len() - 1
            }
        };
        if let Some((mean, variance)) = moments(pairing) {
            machines[index].1 += n * (x - mean);
            machines[index].2 += n * variance;
        }
    }
    let tested = machines.iter().filter(|m| m.2 > 0.0).count() as f64;
    let normal = Normal::standard();
    machines
        .into_iter()
        .map(|(machine, deviation, variance)| {
            // One machine has nothing to sit apart from.
            let residual = (variance > 0.0 && tested >= 2.0).then(|| {
                let z = deviation / variance.sqrt();
                Residual { z, p_adjusted: (2.0 * normal.cdf(-z.abs()) * tested).min(1.0) }
            });
            (machine.to_string(), residual)
        })
        .collect()
}

/// The Bonferroni-corrected tail of `faults` of `games` on a machine against
/// `other_faults` of `other_games` on the other machines (see the module
/// docs), with `machines` machines tested. 1 without games.
pub fn excess_faults(games: u64, faults: u64, other_games: u64, other_faults: u64, machines: usize) -> f64 {
    if games == 0 || faults == 0 {
        return 1.0;
    }
    let rate = (other_faults as f64 + 1.0) / (other_games as f64 + 2.0);
    let Ok(binomial) = Binomial::new(rate.clamp(0.0, 1.0), games) else { return 1.0 };
    // P(X ≥ f) = 1 − P(X ≤ f − 1).
    let tail = binomial.sf(faults - 1);
    (tail * machines.max(1) as f64).min(1.0)
}

/// Machines with at least this many faulted games may be set aside for faults.
pub const MIN_FAULTS: u64 = 3;

/// The machines to set aside, each with why, given per machine (name, games,
/// faulted games) and the residuals (may be empty): a machine whose faults
/// ([`excess_faults`], at least [`MIN_FAULTS`]) or whose residual are less
/// likely than `p`.
pub fn to_set_aside(
    faults: &[(String, u64, u64)],
    residuals: &[(String, Option<Residual>)],
    p: f64,
) -> Vec<(String, String)> {
    let machines = faults.len();
    let (all_games, all_faults) = faults.iter().fold((0, 0), |(g, f), m| (g + m.1, f + m.2));
    let mut out = Vec::new();
    for (machine, games, faulted) in faults {
        let (other_games, other_faults) = (all_games - games, all_faults - faulted);
        let tail = excess_faults(*games, *faulted, other_games, other_faults, machines);
        if *faulted >= MIN_FAULTS && tail < p {
            out.push((
                machine.clone(),
                format!(
                    "{faulted} of {games} games lost on time, by a crash, an illegal move or a stall, against \
                     {other_faults} of {other_games} on the other machines (p = {tail:.1e} < {p})"
                ),
            ));
            continue;
        }
        if let Some((_, Some(r))) = residuals.iter().find(|(m, _)| m == machine)
            && r.p_adjusted < p
        {
            out.push((
                machine.clone(),
                format!(
                    "its results sit {:+.1} standard errors from the pooled result (p = {:.1e} < {p})",
                    r.z, r.p_adjusted
                ),
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_machine_that_scores_apart_has_a_large_residual() {
        // Pairing "p": machine a scores 2, 2, 1, 1; machine b 0, 1, 1, 0 (hand computed:
        // mean 1, variance (1+1+0+0+1+0+0+1)/8 = 0.5; a: Σ(x−μ) = 2, Σσ² = 2, z = √2).
        let pairs: Vec<PairScore<'_>> = [("a", 2.0), ("a", 2.0), ("a", 1.0), ("a", 1.0)]
            .into_iter()
            .chain([("b", 0.0), ("b", 1.0), ("b", 1.0), ("b", 0.0)])
            .map(|(m, x)| (m, "p", x, 1.0))
            .collect();
        let found = residuals(&pairs);
        // The same pairs counted alike give the same residuals.
        let counted: Vec<PairScore<'_>> =
            vec![("a", "p", 2.0, 2.0), ("a", "p", 1.0, 2.0), ("b", "p", 0.0, 2.0), ("b", "p", 1.0, 2.0)];
        assert_eq!(residuals(&counted), found);
        let a = found[0].1.unwrap();
        assert!((a.z - 2f64.sqrt()).abs() < 1e-12);
        let b = found[1].1.unwrap();
        assert!((b.z + 2f64.sqrt()).abs() < 1e-12);
        // Two-sided p of z = 1.41421 is 0.157299; two machines tested.
        assert!((a.p_adjusted - 2.0 * 0.157_299).abs() < 1e-5, "{}", a.p_adjusted);
        // A pairing without variation says nothing.
        assert_eq!(residuals(&[("a", "q", 1.0, 1.0), ("b", "q", 1.0, 1.0)])[0].1, None);
    }

    #[test]
    fn faults_far_above_the_other_machines_rate_have_a_small_tail() {
        // Other machines: 0 of 10 faulted, rate 1/12; this one 6 of 6: (1/12)^6 × 2.
        let p = excess_faults(6, 6, 10, 0, 2);
        assert!((p - 2.0 * (1.0f64 / 12.0).powi(6)).abs() < 1e-15, "{p}");
        // At the others' rate nothing stands out.
        assert!(excess_faults(100, 5, 100, 5, 2) > 0.5);
        assert_eq!(excess_faults(10, 0, 10, 3, 2), 1.0);
    }

    #[test]
    fn the_machine_that_faults_is_set_aside_and_the_others_are_not() {
        let faults = [("good".to_string(), 40, 1), ("bad".to_string(), 6, 6), ("new".to_string(), 2, 0)];
        let chosen = to_set_aside(&faults, &[], 1e-4);
        assert_eq!(chosen.len(), 1, "{chosen:?}");
        assert_eq!(chosen[0].0, "bad");
        assert!(chosen[0].1.starts_with("6 of 6 games lost"), "{}", chosen[0].1);
        // Fewer than MIN_FAULTS faults are never enough.
        assert!(to_set_aside(&[("a".into(), 100, 0), ("b".into(), 2, 2)], &[], 1e-4).is_empty());
        let far = [("a".to_string(), Some(Residual { z: -5.0, p_adjusted: 1e-6 }))];
        assert_eq!(to_set_aside(&[("a".into(), 50, 0), ("b".into(), 50, 0)], &far, 1e-4)[0].0, "a");
    }
}
