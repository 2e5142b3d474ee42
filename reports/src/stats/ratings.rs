//! Ratings for more than two engines: maximum likelihood under the
//! Bradley–Terry (logistic Elo) model, as Ordo and BayesElo compute them.
//!
//! Every game between `i` and `j` is a Bernoulli trial on the score, with
//! P(i beats j) = 1 / (1 + 10^(−(rᵢ − rⱼ)/400)); a draw counts as half a win
//! for each side (Ordo's convention). The log-likelihood is concave, so
//! Newton's method on the ratings (with the anchor held fixed) converges in a
//! few steps. The 95 % intervals come from the observed information (the
//! negated Hessian) with the anchor fixed, so they are intervals *relative to
//! the anchor*, which is how Ordo and BayesElo report them.
//!
//! A perfect score has no finite maximum; like BayesElo, a prior of
//! `virtual_draws` drawn games is added to every pairing that was played,
//! which keeps every rating finite (1 by default; 0 gives the plain
//! maximum-likelihood estimate). Engines not connected to the anchor by games
//! cannot be rated against it and get no rating.

use serde::Serialize;

/// Games between two engines, from the first one's point of view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Encounter {
    /// Index of the first engine.
    pub first: usize,
    /// Index of the second engine.
    pub second: usize,
    /// Games played.
    pub games: u64,
    /// The first engine's points (wins + draws / 2).
    pub points: f64,
}

/// One engine's rating.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rating {
    /// Engine name.
    pub name: String,
    /// Elo relative to the anchor (`None`: no games connect it to the anchor).
    pub elo: Option<f64>,
    /// 95 % interval of `elo`, relative to the anchor (zero width for the anchor).
    pub elo_ci95: Option<[f64; 2]>,
    /// Games played.
    pub games: u64,
    /// Points scored.
    pub points: f64,
}

/// Virtual draws added per played pairing unless told otherwise (BayesElo uses a prior of this kind).
pub const DEFAULT_VIRTUAL_DRAWS: f64 = 1.0;

const ELO_PER_NATURAL: f64 = 400.0 / std::f64::consts::LN_10;
const Z95: f64 = 1.959_963_984_540_054;

/// Maximum-likelihood ratings of `names` from `encounters`, relative to
/// `anchor` (an index into `names`, rated 0), with `virtual_draws` of prior
/// per played pairing. Encounters naming an engine out of range are ignored.
pub fn bradley_terry(names: &[String], encounters: &[Encounter], anchor: usize, virtual_draws: f64) -> Vec<Rating> {
    let n = names.len();
    // Games and points per ordered pair (symmetric games, points from each side).
    let mut games = vec![vec![0.0f64; n]; n];
    let mut points = vec![vec![0.0f64; n]; n];
    let mut totals = vec![(0u64, 0.0f64); n];
    for e in encounters.iter().filter(|e| e.first < n && e.second < n && e.first != e.second && e.games > 0) {
        let g = e.games as f64;
        games[e.first][e.second] += g;
        games[e.second][e.first] += g;
        points[e.first][e.second] += e.points;
        points[e.second][e.first] += g - e.points;
        totals[e.first].0 += e.games;
        totals[e.first].1 += e.points;
        totals[e.second].0 += e.games;
        totals[e.second].1 += g - e.points;
    }
    for i in 0..n {
        for j in 0..n {
            if games[i][j] > 0.0 {
                games[i][j] += virtual_draws;
                points[i][j] += virtual_draws / 2.0;
            }
        }
    }
    let connected = component_of(&games, anchor);
    // Rated engines other than the anchor, in index order: the free variables.
    let free: Vec<usize> = (0..n).filter(|&i| i != anchor && connected[i]).collect();
    let mut theta = vec![0.0f64; n];
    let mut covariance = None;
    for _ in 0..100 {
        let (gradient, information) = derivatives(&theta, &games, &points, &free);
        let Some(step) = solve(&information, &gradient) else { break };
        let mut largest = 0.0f64;
        for (k, &i) in free.iter().enumerate() {
            // Damped step: never move more than 2 natural units (~350 Elo) at once.
            let delta = step[k].clamp(-2.0, 2.0);
            theta[i] += delta;
            largest = largest.max(delta.abs());
        }
        if largest < 1e-12 {
            break;
        }
    }
    if !free.is_empty() {
        let (_, information) = derivatives(&theta, &games, &points, &free);
        covariance = invert(&information);
    }
    (0..n)
        .map(|i| {
            let rated = i == anchor || connected[i];
            let elo = rated.then(|| theta[i] * ELO_PER_NATURAL);
            let ci = if i == anchor {
                Some([0.0, 0.0])
            } else {
                free.iter().position(|&f| f == i).and_then(|k| {
                    let variance = covariance.as_ref()?[k][k];
                    let half = Z95 * variance.max(0.0).sqrt() * ELO_PER_NATURAL;
                    let elo = theta[i] * ELO_PER_NATURAL;
                    half.is_finite().then_some([elo - half, elo + half])
                })
            };
            Rating { name: names[i].clone(), elo, elo_ci95: ci, games: totals[i].0, points: totals[i].1 }
        })
        .collect()
}

/// Engines reachable from `anchor` through played pairings.
fn component_of(games: &[Vec<f64>], anchor: usize) -> Vec<bool> {
    let mut seen = vec![false; games.len()];
    if anchor >= games.len() {
        return seen;
    }
    let mut stack = vec![anchor];
    seen[anchor] = true;
    while let Some(i) = stack.pop() {
        for (j, &g) in games[i].iter().enumerate() {
            if g > 0.0 && !seen[j] {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    seen
}

/// Gradient of the log-likelihood and the observed information (negated
/// Hessian) over the free variables.
fn derivatives(theta: &[f64], games: &[Vec<f64>], points: &[Vec<f64>], free: &[usize]) -> (Vec<f64>, Vec<Vec<f64>>) {
    let m = free.len();
    let mut gradient = vec![0.0; m];
    let mut information = vec![vec![0.0; m]; m];
    for (k, &i) in free.iter().enumerate() {
        for (j, &g) in games[i].iter().enumerate() {
            if g == 0.0 {
                continue;
            }
            let p = 1.0 / (1.0 + (theta[j] - theta[i]).exp());
            gradient[k] += points[i][j] - g * p;
            let w = g * p * (1.0 - p);
            information[k][k] += w;
            if let Some(l) = free.iter().position(|&f| f == j) {
                information[k][l] -= w;
            }
        }
    }
    (gradient, information)
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting; `None` when singular.
fn solve(a: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    let mut m: Vec<Vec<f64>> = a.iter().zip(b).map(|(row, &v)| row.iter().copied().chain([v]).collect()).collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| m[x][col].abs().total_cmp(&m[y][col].abs()))?;
        if m[pivot][col].abs() < 1e-300 {
            return None;
        }
        m.swap(col, pivot);
        let pivot_row = m[col].clone();
        for (r, row) in m.iter_mut().enumerate() {
            if r != col {
                let factor = row[col] / pivot_row[col];
                for (value, pivot_value) in row.iter_mut().zip(&pivot_row).skip(col) {
                    *value -= factor * pivot_value;
                }
            }
        }
    }
    Some((0..n).map(|i| m[i][n] / m[i][i]).collect())
}

/// The inverse of a square matrix, column by column; `None` when singular.
fn invert(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let columns: Option<Vec<Vec<f64>>> = (0..n)
        .map(|c| {
            let unit: Vec<f64> = (0..n).map(|r| if r == c { 1.0 } else { 0.0 }).collect();
            solve(a, &unit)
        })
        .collect();
    let columns = columns?;
    Some((0..n).map(|r| (0..n).map(|c| columns[c][r]).collect()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::elo::{elo_of_score, score_of_elo};

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("e{i}")).collect()
    }

    #[test]
    fn two_engines_without_prior_match_the_logistic_elo_of_the_score() {
        for (games, points) in [(100u64, 60.0), (50, 34.0), (1000, 480.5), (40, 20.0)] {
            let e = [Encounter { first: 0, second: 1, games, points }];
            let ratings = bradley_terry(&names(2), &e, 1, 0.0);
            let expected = elo_of_score(points / games as f64);
            let got = ratings[0].elo.unwrap();
            assert!((got - expected).abs() < 1e-9, "{games} {points}: {got} vs {expected}");
            assert_eq!(ratings[1].elo, Some(0.0));
            // Interval: the binomial standard error of the score through the logistic slope.
            let s = points / games as f64;
            let half = Z95 * (1.0 / (games as f64 * s * (1.0 - s))).sqrt() * ELO_PER_NATURAL;
            let ci = ratings[0].elo_ci95.unwrap();
            assert!((ci[1] - ci[0] - 2.0 * half).abs() < 1e-6, "{ci:?} vs ±{half}");
        }
    }

    #[test]
    fn perfect_scores_stay_finite_with_the_prior_and_unconnected_engines_are_unrated() {
        let e = [
            Encounter { first: 0, second: 1, games: 20, points: 20.0 },
            Encounter { first: 1, second: 2, games: 20, points: 10.0 },
        ];
        let ratings = bradley_terry(&names(4), &e, 2, DEFAULT_VIRTUAL_DRAWS);
        let top = ratings[0].elo.unwrap();
        assert!(top.is_finite() && top > 300.0, "{top}");
        assert!(ratings[0].elo_ci95.unwrap().iter().all(|x| x.is_finite()));
        assert_eq!(ratings[3].elo, None);
        assert_eq!(ratings[3].elo_ci95, None);
        assert_eq!((ratings[1].games, ratings[1].points), (40, 10.0));
    }

    #[test]
    fn recovers_known_ratings_from_simulated_round_robin() {
        let truth = [0.0, 60.0, -40.0, 150.0];
        let mut rng = fastrand::Rng::with_seed(7);
        let mut encounters = Vec::new();
        for i in 0..truth.len() {
            for j in i + 1..truth.len() {
                let p = score_of_elo(truth[i] - truth[j]);
                let games = 4000;
                let points = (0..games).filter(|_| rng.f64() < p).count() as f64;
                encounters.push(Encounter { first: i, second: j, games, points });
            }
        }
        let ratings = bradley_terry(&names(4), &encounters, 0, DEFAULT_VIRTUAL_DRAWS);
        for (rating, truth) in ratings.iter().zip(truth) {
            let ci = rating.elo_ci95.unwrap();
            assert!(ci[0] <= truth + 1e-9 && truth - 1e-9 <= ci[1], "{}: {ci:?} vs {truth}", rating.name);
            assert!((ci[1] - ci[0]) < 40.0, "{ci:?}");
        }
        // The gradient vanishes at the estimate: each engine's expected points equal its actual points.
        let theta: Vec<f64> = ratings.iter().map(|r| r.elo.unwrap() / ELO_PER_NATURAL).collect();
        for (i, rating) in ratings.iter().enumerate() {
            let expected: f64 = encounters
                .iter()
                .filter_map(|e| {
                    let g = e.games as f64 + DEFAULT_VIRTUAL_DRAWS;
                    let p = 1.0 / (1.0 + (theta[e.second] - theta[e.first]).exp());
                    (e.first == i).then_some(g * p).or((e.second == i).then_some(g * (1.0 - p)))
                })
                .sum();
            let actual = rating.points + 3.0 * DEFAULT_VIRTUAL_DRAWS / 2.0;
            assert!((expected - actual).abs() < 1e-6, "{}: {expected} vs {actual}", rating.name);
        }
    }
}
