//! Benchmark: does the nElo interval hold the truth at every strength?
//! Fixed samples of game pairs (pentanomial) and of single games
//! (trinomial) are drawn from distributions of known normalized Elo, from
//! 0 to 500; for each it reports how often the 95 % nElo interval of
//! `arena stats` (the t-value's profile likelihood) holds the truth.
//!
//! `cargo run --release -p reports --example nelo_coverage [SAMPLES_PER_ROW] [SEED]`

use reports::stats::Counts;
use reports::stats::answer::Answer;
use reports::stats::elo::NELO_PER_T;

/// The shape at equal strength, pairs (0, ¼, ½, ¾, 1) and games (0, ½, 1),
/// tilted toward A for the other strengths.
const PAIRS: [f64; 5] = [0.05, 0.2, 0.5, 0.2, 0.05];
const GAMES: [f64; 3] = [0.3, 0.4, 0.3];

fn tilted<const N: usize>(even: &[f64; N], theta: f64) -> [f64; N] {
    let steps = (N - 1) as f64;
    let mut p = [0.0; N];
    for i in 0..N {
        p[i] = even[i] * (theta * i as f64 / steps).exp();
    }
    let total: f64 = p.iter().sum();
    p.map(|x| x / total)
}

fn nelo<const N: usize>(p: &[f64; N]) -> f64 {
    let steps = (N - 1) as f64;
    let mean: f64 = p.iter().enumerate().map(|(i, p)| p * i as f64 / steps).sum();
    let var: f64 = p.iter().enumerate().map(|(i, p)| p * (i as f64 / steps - mean).powi(2)).sum();
    let per = if N == 5 { NELO_PER_T / std::f64::consts::SQRT_2 } else { NELO_PER_T };
    (mean - 0.5) / var.sqrt() * per
}

fn distribution<const N: usize>(even: &[f64; N], target: f64) -> [f64; N] {
    let (mut low, mut high) = (-60.0, 60.0);
    for _ in 0..200 {
        let mid = (low + high) / 2.0;
        if nelo(&tilted(even, mid)) < target {
            low = mid;
        } else {
            high = mid;
        }
    }
    tilted(even, (low + high) / 2.0)
}

fn draw<const N: usize>(p: &[f64; N], samples: usize, rng: &mut fastrand::Rng) -> [u64; N] {
    let mut counts = [0u64; N];
    for _ in 0..samples {
        let x = rng.f64();
        let mut acc = 0.0;
        let mut cell = N - 1;
        for (i, q) in p.iter().enumerate() {
            acc += q;
            if x < acc {
                cell = i;
                break;
            }
        }
        counts[cell] += 1;
    }
    counts
}

fn main() {
    let reps: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(2000);
    let seed: u64 = std::env::args().nth(2).and_then(|a| a.parse().ok()).unwrap_or(1);
    let mut rng = fastrand::Rng::with_seed(seed);
    println!("95 % nElo interval coverage, {reps} samples per cell, seed {seed}");
    println!("| true nElo | 300 pairs | 1,000 pairs | 1,000 games | 3,000 games |");
    println!("|---:|---:|---:|---:|---:|");
    for truth in [0.0, 100.0, 200.0, 300.0, 400.0, 500.0] {
        let pairs = distribution(&PAIRS, truth);
        let games = distribution(&GAMES, truth);
        let mut row = format!("| {truth:.0} |");
        for (pentanomial, samples) in [(true, 300), (true, 1000), (false, 1000), (false, 3000)] {
            let (mut held, mut counted) = (0, 0);
            for _ in 0..reps {
                let counts = if pentanomial {
                    Counts::Pentanomial(draw(&pairs, samples, &mut rng))
                } else {
                    let [losses, draws, wins] = draw(&games, samples, &mut rng);
                    Counts::Trinomial { wins, draws, losses }
                };
                let Some((_, (low, high))) = Answer::of(&counts).and_then(|a| a.nelo()) else { continue };
                counted += 1;
                if low <= truth && truth <= high {
                    held += 1;
                }
            }
            row += &format!(" {:.1} % |", 100.0 * held as f64 / counted.max(1) as f64);
        }
        println!("{row}");
    }
}
