//! Benchmark: does the estimate printed after an SPRT stops hold the truth?
//! Simulated normalized SPRTs [0, 2], α = β = 0.05, on game pairs drawn
//! from a pentanomial distribution of known normalized Elo; each test stops
//! where its LLR crosses a bound (checked after every pair; the LLR by the
//! GSPRT's quadratic approximation, which the O(1) update makes affordable
//! for millions of pairs), or at 200,000 pairs. For each true nElo it
//! reports how often the stopping-corrected 95 % interval
//! (`reports::stats::sequential`) and the fixed-sample one hold the truth,
//! and the median error of each estimate.
//!
//! `cargo run --release -p reports --example sequential_coverage [TESTS_PER_POINT] [SEED]`

use reports::stats::Counts;
use reports::stats::answer::Answer;
use reports::stats::elo::NELO_PER_T;
use reports::stats::sequential::estimate;
use reports::stats::sprt::{Model, Test};

/// A pair's scores 0, ¼, ½, ¾, 1 per game.
const SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];
/// The shape of the pair results at equal strength (draw-heavy, as at
/// short time controls), tilted for other strengths.
const EVEN: [f64; 5] = [0.02, 0.20, 0.56, 0.20, 0.02];

fn tilted(theta: f64) -> [f64; 5] {
    let mut p = [0.0; 5];
    for i in 0..5 {
        p[i] = EVEN[i] * (theta * SCORES[i]).exp();
    }
    let total: f64 = p.iter().sum();
    p.map(|x| x / total)
}

/// The normalized Elo of a pair distribution: (μ − ½)/σ_pair × 800/ln 10 / √2.
fn nelo(p: &[f64; 5]) -> f64 {
    let mean: f64 = p.iter().zip(SCORES).map(|(p, a)| p * a).sum();
    let var: f64 = p.iter().zip(SCORES).map(|(p, a)| p * (a - mean).powi(2)).sum();
    (mean - 0.5) / var.sqrt() * NELO_PER_T / std::f64::consts::SQRT_2
}

/// The distribution of true normalized Elo `target`.
fn distribution(target: f64) -> [f64; 5] {
    let (mut low, mut high) = (-20.0, 20.0);
    for _ in 0..200 {
        let mid = (low + high) / 2.0;
        if nelo(&tilted(mid)) < target {
            low = mid;
        } else {
            high = mid;
        }
    }
    tilted((low + high) / 2.0)
}

struct Outcome {
    corrected_covers: bool,
    fixed_covers: bool,
    corrected_error: f64,
    fixed_error: f64,
    passed: bool,
}

fn one_test(test: &Test, p: &[f64; 5], truth: f64, rng: &mut fastrand::Rng) -> Option<Outcome> {
    let mut counts = [0u64; 5];
    let (mut sum, mut sum2) = (0.0, 0.0);
    let bounds = test.bounds();
    let mut n = 0.0;
    loop {
        let x = rng.f64();
        let mut acc = 0.0;
        let mut cell = 4;
        for (i, q) in p.iter().enumerate() {
            acc += q;
            if x < acc {
                cell = i;
                break;
            }
        }
        counts[cell] += 1;
        sum += SCORES[cell];
        sum2 += SCORES[cell] * SCORES[cell];
        n += 1.0;
        if n < 20.0 {
            continue;
        }
        let mean = sum / n;
        let var = (sum2 / n - mean * mean).max(1e-9);
        let sigma_game = (2.0 * var).sqrt();
        let (s0, s1) = [test.elo0(), test.elo1()].map(|e| e / NELO_PER_T * sigma_game + 0.5).into();
        let llr = n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var);
        if llr > bounds.upper || llr < bounds.lower || n >= 200_000.0 {
            let pairs = Counts::Pentanomial(counts);
            let q = estimate(test, &pairs)?;
            let fixed = Answer::of(&pairs)?.nelo()?;
            return Some(Outcome {
                corrected_covers: q.nelo_ci95[0] <= truth && truth <= q.nelo_ci95[1],
                fixed_covers: fixed.1.0 <= truth && truth <= fixed.1.1,
                corrected_error: q.nelo - truth,
                fixed_error: fixed.0 - truth,
                passed: llr > bounds.upper,
            });
        }
    }
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn main() {
    let tests: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(2000);
    let seed: u64 = std::env::args().nth(2).and_then(|a| a.parse().ok()).unwrap_or(1);
    let test = Test::new(0.0, 2.0, 0.05, 0.05, Model::Normalized).expect("a valid test");
    println!("normalized SPRT [0, 2], alpha = beta = 0.05, {tests} simulated tests per row, seed {seed}");
    println!(
        "| true nElo | pass % | corrected 95 % interval holds | its median error | fixed-sample holds | its median error | passed tests' mean fixed nElo |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|");
    for truth in [-1.0, 0.0, 1.0, 2.0, 3.0] {
        let p = distribution(truth);
        let threads = 2;
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                std::thread::spawn(move || {
                    let mut rng =
                        fastrand::Rng::with_seed(seed * 1_000_003 + t as u64 + (truth * 10.0 + 100.0) as u64 * 7919);
                    (0..tests / threads).filter_map(|_| one_test(&test, &p, truth, &mut rng)).collect::<Vec<_>>()
                })
            })
            .collect();
        let outcomes: Vec<Outcome> = handles.into_iter().flat_map(|h| h.join().expect("a simulation thread")).collect();
        let share = |f: &dyn Fn(&Outcome) -> bool| {
            100.0 * outcomes.iter().filter(|o| f(o)).count() as f64 / outcomes.len() as f64
        };
        let passed: Vec<f64> = outcomes.iter().filter(|o| o.passed).map(|o| o.fixed_error + truth).collect();
        println!(
            "| {truth:+.0} | {:.1} | {:.1} % | {:+.2} | {:.1} % | {:+.2} | {} |",
            share(&|o| o.passed),
            share(&|o| o.corrected_covers),
            median(outcomes.iter().map(|o| o.corrected_error).collect()),
            share(&|o| o.fixed_covers),
            median(outcomes.iter().map(|o| o.fixed_error).collect()),
            if passed.is_empty() {
                "-".to_string()
            } else {
                format!("{:+.2}", passed.iter().sum::<f64>() / passed.len() as f64)
            },
        );
    }
}
