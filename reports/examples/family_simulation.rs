//! Benchmark: a family of candidates against one base, by simulation (no
//! engines). Each candidate's game pairs are drawn from a pentanomial
//! distribution with a known true normalized Elo; the candidates play side
//! by side, one pair each per step, until each is decided or reaches the
//! game limit. Three ways to stop them are compared at the same α and β:
//!
//! - `separate`: an SPRT per candidate at α and β, as one would run them one
//!   by one: the chance that some candidate is accepted wrongly grows with
//!   the family's size;
//! - `bonferroni`: an SPRT per candidate at α/k and β/k;
//! - `holm`: the sequential Holm procedure `arena sprt --dev A --dev B …`
//!   runs ([`reports::stats::family`]).
//!
//! `cargo run --release -p reports --example family_simulation [TESTS] [SEED]`
//!
//! The LLR is computed after every pair from the pairs' mean and variance
//! in its quadratic form, n/2·((t̂ − t₀)² − (t̂ − t₁)²) (the GSPRT's
//! normal approximation; fishtest's exact form is within 0.01 of it at these
//! Elo, checked for the first tests of each row and printed), because the
//! exact form costs some 20 µs and a row plays some 10⁹ pairs.

use reports::stats::family::{Decision, Family};
use reports::stats::sprt::{Model, Test, Verdict, llr};
use reports::stats::{Counts, elo::NELO_PER_T};

/// A pentanomial distribution near fishtest's at short time controls
/// (pairs scored 0, ½, 1, 1½, 2), symmetric at nElo 0.
const BASE: [f64; 5] = [0.015, 0.19, 0.59, 0.19, 0.015];

/// The distribution tilted (pᵢ ∝ baseᵢ·e^{λ xᵢ}) to normalized Elo `nelo`.
fn tilted(nelo: f64) -> [f64; 5] {
    let target = nelo / NELO_PER_T * std::f64::consts::SQRT_2;
    let t_of = |lambda: f64| {
        let p = tilt(lambda);
        let mean: f64 = p.iter().enumerate().map(|(i, q)| q * i as f64 / 4.0).sum();
        let var: f64 = p.iter().enumerate().map(|(i, q)| q * (i as f64 / 4.0 - mean).powi(2)).sum();
        (mean - 0.5) / var.sqrt()
    };
    let (mut lo, mut hi) = (-10.0, 10.0);
    for _ in 0..100 {
        let mid = (lo + hi) / 2.0;
        if t_of(mid) < target { lo = mid } else { hi = mid }
    }
    tilt((lo + hi) / 2.0)
}

fn tilt(lambda: f64) -> [f64; 5] {
    let mut p = BASE;
    for (i, q) in p.iter_mut().enumerate() {
        *q *= (lambda * i as f64 / 4.0).exp();
    }
    let sum: f64 = p.iter().sum();
    p.map(|q| q / sum)
}

/// One candidate's stream of pairs: counts and running sums.
#[derive(Clone, Default)]
struct Stream {
    cells: [u64; 5],
    sum: f64,
    squares: f64,
}

impl Stream {
    fn pairs(&self) -> u64 {
        self.cells.iter().sum()
    }

    fn play(&mut self, cumulative: &[f64; 5], rng: &mut fastrand::Rng) {
        let x = rng.f64();
        let cell = cumulative.iter().position(|c| x < *c).unwrap_or(4);
        self.cells[cell] += 1;
        let score = cell as f64 / 4.0;
        self.sum += score;
        self.squares += score * score;
    }

    /// The GSPRT's LLR in its quadratic form.
    fn llr(&self, t0: f64, t1: f64) -> f64 {
        let n = self.pairs() as f64;
        let mean = self.sum / n;
        let var = self.squares / n - mean * mean;
        // All pairs alike so far: the sample cannot tell (arena's LLR is 0 there too).
        if var <= 1e-12 {
            return 0.0;
        }
        let t = (mean - 0.5) / var.sqrt();
        n / 2.0 * ((t - t0).powi(2) - (t - t1).powi(2))
    }

    fn counts(&self) -> Counts {
        let c = self.cells;
        Counts::Pentanomial([c[0], c[1], c[2], c[3], c[4]])
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Procedure {
    Separate,
    Bonferroni,
    Holm,
}

/// One family's test: games played, and each candidate's verdict (None at the cap).
fn one_family(
    test: &Test,
    procedure: Procedure,
    truths: &[[f64; 5]],
    cap_pairs: u64,
    rng: &mut fastrand::Rng,
    worst_gap: &mut f64,
) -> (u64, Vec<Option<Verdict>>) {
    let k = truths.len();
    let cumulative: Vec<[f64; 5]> = truths
        .iter()
        .map(|p| {
            let mut c = [0.0; 5];
            let mut s = 0.0;
            for i in 0..5 {
                s += p[i];
                c[i] = s;
            }
            c
        })
        .collect();
    let family = Family::new(*test, k);
    let own = match procedure {
        Procedure::Separate => *test,
        _ => Test::new(test.elo0(), test.elo1(), test.alpha() / k as f64, test.beta() / k as f64, test.model())
            .expect("a valid test"),
    };
    let scale = std::f64::consts::SQRT_2 / NELO_PER_T;
    let (t0, t1) = (test.elo0() * scale, test.elo1() * scale);
    let mut streams = vec![Stream::default(); k];
    let mut verdicts: Vec<Option<Verdict>> = vec![None; k];
    let mut decided: Vec<Decision> = Vec::new();
    let mut capped = vec![false; k];
    let mut llrs = vec![0.0; k];
    loop {
        let open: Vec<usize> = (0..k).filter(|&i| verdicts[i].is_none() && !capped[i]).collect();
        if open.is_empty() {
            break;
        }
        for &i in &open {
            streams[i].play(&cumulative[i], rng);
            llrs[i] = streams[i].llr(t0, t1);
        }
        match procedure {
            Procedure::Holm => {
                // A capped candidate plays no more, but its last LLR stays in
                // the family: another's decision may loosen its bound to it
                // (as `arena sprt` decides it).
                for decision in family.step(&llrs, &decided) {
                    verdicts[decision.candidate] = Some(decision.verdict);
                    decided.push(decision);
                }
            }
            _ => {
                for &i in &open {
                    verdicts[i] = own.decide(llrs[i]);
                }
            }
        }
        for &i in &open {
            if verdicts[i].is_some() && *worst_gap >= 0.0 {
                let exact = llr(test, &streams[i].counts());
                *worst_gap = worst_gap.max((exact - llrs[i]).abs());
            }
            if verdicts[i].is_none() && streams[i].pairs() >= cap_pairs {
                capped[i] = true;
            }
        }
    }
    (2 * streams.iter().map(Stream::pairs).sum::<u64>(), verdicts)
}

fn main() {
    let tests: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(2000);
    let seed: u64 = std::env::args().nth(2).and_then(|a| a.parse().ok()).unwrap_or(1);
    let test = Test::new(0.0, 2.0, 0.05, 0.05, Model::Normalized).expect("a valid test");
    println!(
        "normalized [0, 2], alpha = beta = 0.05, each candidate capped as arena sprt caps it (at the level alpha/k, \
         beta/k), {tests} families per row, seed {seed}"
    );
    println!(
        "{:<12} {:<10} {:>12} {:>10} {:>10} {:>10} {:>10} {:>8} {:>9}",
        "true nElo", "procedure", "games", "FWER I %", "FWER II %", "+2 pass %", "capped %", "|LLR|gap", "cap"
    );
    let families: [&[f64]; 4] = [&[0.0, 0.0, 0.0], &[0.0, 0.0, 2.0], &[0.0; 5], &[0.0, 0.0, 0.0, 0.0, 2.0]];
    for truth in families {
        let truths: Vec<[f64; 5]> = truth.iter().map(|&nelo| tilted(nelo)).collect();
        // `arena sprt`'s default cap for a family of this size.
        let (cap_games, _) = reports::stats::sprt::default_cap(&Family::new(test, truth.len()).level(0, 0));
        let cap_pairs = (cap_games as u64).div_ceil(2);
        for (name, procedure) in
            [("separate", Procedure::Separate), ("bonferroni", Procedure::Bonferroni), ("holm", Procedure::Holm)]
        {
            let threads = 2;
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    let truths = truths.clone();
                    let truth = truth.to_vec();
                    std::thread::spawn(move || {
                        let mut rng = fastrand::Rng::with_seed(seed * 1000 + t as u64);
                        let (mut games, mut wrong_h1, mut wrong_h0, mut passed, mut capped, mut gap) =
                            (0u64, 0u64, 0u64, 0u64, 0u64, 0.0f64);
                        for n in (t..tests).step_by(threads) {
                            let mut gap_here = if n < 20 { 0.0 } else { -1.0 };
                            let (g, verdicts) =
                                one_family(&test, procedure, &truths, cap_pairs, &mut rng, &mut gap_here);
                            gap = gap.max(gap_here);
                            games += g;
                            let of = |want: Verdict, null: bool| {
                                verdicts.iter().zip(&truth).any(|(v, &elo)| *v == Some(want) && (elo <= 0.0) == null)
                            };
                            wrong_h1 += u64::from(of(Verdict::AcceptH1, true));
                            wrong_h0 += u64::from(of(Verdict::AcceptH0, false));
                            passed += u64::from(of(Verdict::AcceptH1, false));
                            capped += u64::from(verdicts.iter().any(Option::is_none));
                        }
                        (games, wrong_h1, wrong_h0, passed, capped, gap)
                    })
                })
                .collect();
            let mut total = (0u64, 0u64, 0u64, 0u64, 0u64, 0.0f64);
            for handle in handles {
                let part = handle.join().expect("a simulation thread");
                total = (
                    total.0 + part.0,
                    total.1 + part.1,
                    total.2 + part.2,
                    total.3 + part.3,
                    total.4 + part.4,
                    total.5.max(part.5),
                );
            }
            let n = tests as f64;
            let has_gain = truth.iter().any(|&e| e > 0.0);
            let percent = |x: u64| format!("{:.1}", 100.0 * x as f64 / n);
            let label: Vec<String> = truth.iter().map(|e| format!("{e}")).collect();
            println!(
                "{:<12} {:<10} {:>12.0} {:>10} {:>10} {:>10} {:>10} {:>8.3} {:>9}",
                label.join(","),
                name,
                total.0 as f64 / n,
                percent(total.1),
                if has_gain { percent(total.2) } else { "-".into() },
                if has_gain { percent(total.3) } else { "-".into() },
                percent(total.4),
                total.5,
                cap_games
            );
        }
    }
}
