//! SPSA tuning as fishtest and OpenBench run it (`arena tune`).
//!
//! Each iteration k (1-based, the pair's plan index + 1) draws a random sign
//! Δᵢ = ±1 per parameter and plays one pair of games, on one opening with
//! colours swapped, between θ + c_k·Δ and θ − c_k·Δ. With the pair's result
//! r = wins − losses of θ+ (−2 … 2), every parameter moves by
//! a_k · r · Δᵢ / c_k, and is clipped to its bounds.
//!
//! Gains (Spall 1998, "Implementation of the simultaneous perturbation
//! algorithm for stochastic optimization"; fishtest's parametrization by
//! the values at the last iteration N): c_k = c / k^γ and
//! a_k = a / (A + k)^α, with c = c_end · N^γ and a = r_end · c_end² ·
//! (A + N)^α, so that c_N = c_end and a_N / c_N² = r_end. α = 0.602,
//! γ = 0.101 and A = N / 10 unless given.
//!
//! The update is applied to the θ stored when the pair finishes, which may
//! have moved since the pair started if several slots or workers play at once
//! (fishtest does the same). An integer parameter keeps a real θ and sends
//! θ± rounded to the engine.

use serde::{Deserialize, Serialize};

/// Spall's recommended exponent of a_k.
pub const DEFAULT_ALPHA: f64 = 0.602;
/// Spall's recommended exponent of c_k.
pub const DEFAULT_GAMMA: f64 = 0.101;
/// Default perturbation at the end, as a fraction of the parameter's range.
pub const DEFAULT_C_END_OF_RANGE: f64 = 0.05;
/// Default learning rate at the end (fishtest's usual `r_end`).
pub const DEFAULT_R_END: f64 = 0.002;

/// One tuned parameter: a UCI option.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneParam {
    /// The UCI option's name.
    pub name: String,
    /// Lower bound.
    pub min: f64,
    /// Upper bound.
    pub max: f64,
    /// θ at the start.
    pub start: f64,
    /// Sent rounded to an integer (a UCI `spin`).
    pub integer: bool,
    /// Perturbation c_k at the last iteration.
    pub c_end: f64,
    /// Learning rate a_k / c_k² at the last iteration.
    pub r_end: f64,
}

/// The SPSA settings of a tuning run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spsa {
    /// The parameters, in order.
    pub params: Vec<TuneParam>,
    /// Iterations planned (N): one pair of games each.
    pub iterations: u64,
    /// Exponent of a_k.
    pub alpha: f64,
    /// Exponent of c_k.
    pub gamma: f64,
    /// Stability constant A of a_k.
    pub big_a: f64,
    /// Seed of the perturbation signs.
    pub seed: u64,
}

/// The values played in one iteration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Perturbation {
    /// Iteration, 1-based.
    pub k: u64,
    /// Δᵢ, +1 or −1.
    pub flips: Vec<i8>,
    /// θ + c_k·Δ as sent (clipped; rounded for integer parameters).
    pub plus: Vec<f64>,
    /// θ − c_k·Δ as sent.
    pub minus: Vec<f64>,
}

/// A finished iteration as stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneIteration {
    /// What was played.
    pub perturbation: Perturbation,
    /// Wins − losses of θ+ over the pair.
    pub score: i64,
    /// θ after the update.
    pub theta: Vec<f64>,
    /// Order of finishing (1-based).
    pub seq: i64,
}

/// SplitMix64 (Steele, Lea and Flood 2014): one well-mixed word from another.
fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl TuneParam {
    fn clip(&self, value: f64) -> f64 {
        value.clamp(self.min, self.max)
    }

    /// The value sent to the engine: clipped, rounded for an integer.
    pub fn sent(&self, value: f64) -> f64 {
        let value = self.clip(value);
        if self.integer { value.round() } else { value }
    }

    /// The value as a UCI `setoption` value.
    pub fn option_value(&self, value: f64) -> String {
        let value = self.sent(value);
        if self.integer { format!("{}", value as i64) } else { format!("{value}") }
    }
}

impl Spsa {
    /// θ at the start.
    pub fn start(&self) -> Vec<f64> {
        self.params.iter().map(|p| p.start).collect()
    }

    fn n(&self) -> f64 {
        self.iterations.max(1) as f64
    }

    /// c_k of parameter `i`.
    pub fn c_k(&self, i: usize, k: u64) -> f64 {
        let k = k.max(1) as f64;
        self.params[i].c_end * (self.n() / k).powf(self.gamma)
    }

    /// a_k of parameter `i`.
    pub fn a_k(&self, i: usize, k: u64) -> f64 {
        let p = &self.params[i];
        let a = p.r_end * p.c_end * p.c_end * (self.big_a + self.n()).powf(self.alpha);
        a / (self.big_a + k.max(1) as f64).powf(self.alpha)
    }

    /// The signs of iteration `k`: the same for every replay of it.
    pub fn flips(&self, k: u64) -> Vec<i8> {
        let base = splitmix(self.seed ^ splitmix(k));
        (0..self.params.len()).map(|i| if splitmix(base.wrapping_add(i as u64)) & 1 == 0 { 1 } else { -1 }).collect()
    }

    /// What iteration `k` plays from `theta`.
    pub fn perturb(&self, theta: &[f64], k: u64) -> Perturbation {
        let flips = self.flips(k);
        let shifted = |sign: f64| -> Vec<f64> {
            self.params
                .iter()
                .enumerate()
                .map(|(i, p)| p.sent(theta[i] + sign * self.c_k(i, k) * f64::from(flips[i])))
                .collect()
        };
        Perturbation { k, plus: shifted(1.0), minus: shifted(-1.0), flips }
    }

    /// θ after iteration `p` scored `score` (wins − losses of θ+), from `theta`.
    pub fn step(&self, theta: &[f64], p: &Perturbation, score: i64) -> Vec<f64> {
        self.params
            .iter()
            .enumerate()
            .map(|(i, param)| {
                let gain = self.a_k(i, p.k) / self.c_k(i, p.k);
                param.clip(theta[i] + gain * score as f64 * f64::from(p.flips[i]))
            })
            .collect()
    }

    /// The farthest parameter `i` can travel in the planned iterations: every
    /// pair won 2-0 by the same side in the same direction, Σ 2·a_k / c_k. A
    /// tuning run whose reach is a small part of the range cannot find an
    /// optimum far from its start (`arena tune` warns below half the range).
    pub fn reach(&self, i: usize) -> f64 {
        (1..=self.iterations).map(|k| 2.0 * self.a_k(i, k) / self.c_k(i, k)).sum()
    }

    /// `setoption` pairs for `values`.
    pub fn options(&self, values: &[f64]) -> Vec<(String, String)> {
        self.params.iter().zip(values).map(|(p, &v)| (p.name.clone(), p.option_value(v))).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spsa(integer: bool) -> Spsa {
        Spsa {
            params: vec![TuneParam {
                name: "X".into(),
                min: 0.0,
                max: 1000.0,
                start: 200.0,
                integer,
                c_end: 50.0,
                r_end: 0.002,
            }],
            iterations: 1000,
            alpha: DEFAULT_ALPHA,
            gamma: DEFAULT_GAMMA,
            big_a: 100.0,
            seed: 7,
        }
    }

    #[test]
    fn gains_end_at_c_end_and_r_end() {
        let s = spsa(false);
        assert!((s.c_k(0, 1000) - 50.0).abs() < 1e-9);
        let r = s.a_k(0, 1000) / s.c_k(0, 1000).powi(2);
        assert!((r - 0.002).abs() < 1e-12, "{r}");
        // Both shrink as k grows.
        assert!(s.c_k(0, 1) > s.c_k(0, 10) && s.a_k(0, 1) > s.a_k(0, 10));
        // c_1 = c_end · N^γ.
        assert!((s.c_k(0, 1) - 50.0 * 1000f64.powf(0.101)).abs() < 1e-9);
    }

    #[test]
    fn perturbation_is_symmetric_rounded_and_replayable() {
        let s = spsa(true);
        let p = s.perturb(&[200.0], 5);
        assert_eq!(p, s.perturb(&[200.0], 5));
        let c = s.c_k(0, 5);
        let flip = f64::from(p.flips[0]);
        assert_eq!(p.plus[0], (200.0 + flip * c).round());
        assert_eq!(p.minus[0], (200.0 - flip * c).round());
        // Both signs occur.
        let signs: Vec<i8> = (1..=64).map(|k| s.flips(k)[0]).collect();
        assert!(signs.contains(&1) && signs.contains(&-1));
    }

    #[test]
    fn a_win_of_theta_plus_moves_theta_towards_it_and_clips() {
        let s = spsa(false);
        let p = s.perturb(&[200.0], 1);
        let up = s.step(&[200.0], &p, 2);
        let down = s.step(&[200.0], &p, -2);
        let toward_plus = f64::from(p.flips[0]);
        assert!((up[0] - 200.0) * toward_plus > 0.0);
        assert!((down[0] - 200.0) * toward_plus < 0.0);
        assert_eq!(s.step(&[200.0], &p, 0), vec![200.0]);
        let far = s.step(&[999.9], &Perturbation { flips: vec![1], ..p.clone() }, 2);
        assert_eq!(far, vec![1000.0]);
        assert_eq!(s.options(&[12.6]), vec![("X".to_string(), "12.6".to_string())]);
        assert_eq!(spsa(true).options(&[12.6]), vec![("X".to_string(), "13".to_string())]);
    }

    #[test]
    fn reach_is_how_far_theta_moves_when_every_pair_pushes_one_way() {
        let mut spsa = spsa(false);
        spsa.params[0].max = 1e9;
        spsa.params[0].min = -1e9;
        let mut theta = spsa.start();
        for k in 1..=spsa.iterations {
            let p = spsa.perturb(&theta, k);
            theta = spsa.step(&theta, &p, 2 * i64::from(p.flips[0]));
        }
        let travelled = theta[0] - spsa.params[0].start;
        assert!((travelled - spsa.reach(0)).abs() < 1e-6 * travelled, "{travelled} against {}", spsa.reach(0));
        // The example: Skill 0..100, c 5 % of the range, r 0.002, 800 iterations.
        let skill = Spsa {
            params: vec![TuneParam { min: 0.0, max: 100.0, start: 85.0, c_end: 5.0, ..spsa.params[0].clone() }],
            iterations: 800,
            big_a: 80.0,
            ..spsa
        };
        assert!((skill.reach(0) - 23.74).abs() < 0.01, "{}", skill.reach(0));
    }
}
