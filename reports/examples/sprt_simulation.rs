//! Benchmark: the SPRT's operating characteristics by simulation (no
//! engines). Games are drawn from a known distribution (true logistic Elo,
//! draw ratio 0.5), paired, and the pentanomial GSPRT is evaluated after
//! every pair, as `arena sprt` does.
//!
//! `cargo run --release -p reports --example sprt_simulation [TESTS_PER_POINT]`
//!
//! Compare with fishtest's figures for logistic [0, 5], α = β = 0.05, draw
//! ratio 0.5: pass rate 0.05 at elo0 and 0.95 at elo1, about 12.8 k games at
//! either, 20.9 k at the midpoint.

use model::{GameResult, Tally};
use reports::stats::Counts;
use reports::stats::elo::score_of_elo;
use reports::stats::sprt::{Model, Test, Verdict, llr};

fn one_test(test: &Test, true_elo: f64, draw_ratio: f64, rng: &mut fastrand::Rng) -> (bool, u64) {
    let score = score_of_elo(true_elo);
    let (win, _loss) = (score - draw_ratio / 2.0, 1.0 - score - draw_ratio / 2.0);
    let game = |rng: &mut fastrand::Rng| {
        let x = rng.f64();
        if x < win {
            1
        } else if x < win + draw_ratio {
            0
        } else {
            -1
        }
    };
    let mut tally = Tally::default();
    loop {
        // A's result with White, then with Black, as White's result of each game.
        let first = match game(rng) {
            1 => GameResult::WhiteWins,
            0 => GameResult::Draw,
            _ => GameResult::BlackWins,
        };
        let second = match game(rng) {
            1 => GameResult::BlackWins,
            0 => GameResult::Draw,
            _ => GameResult::WhiteWins,
        };
        tally.add_pair(first, second);
        match test.decide(llr(test, &Counts::pairs(&tally))) {
            Some(Verdict::AcceptH1) => return (true, tally.games()),
            Some(_) => return (false, tally.games()),
            None if tally.games() >= 400_000 => return (false, tally.games()),
            None => {}
        }
    }
}

fn main() {
    let tests: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(2000);
    let test = Test::new(0.0, 5.0, 0.05, 0.05, Model::Logistic).expect("a valid test");
    println!("logistic [0, 5], alpha = beta = 0.05, draw ratio 0.5, {tests} simulated tests per point");
    for true_elo in [0.0, 2.5, 5.0] {
        let threads = 2;
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                std::thread::spawn(move || {
                    let mut rng = fastrand::Rng::with_seed(1000 * t as u64 + (true_elo * 10.0) as u64);
                    (0..tests / threads).map(|_| one_test(&test, true_elo, 0.5, &mut rng)).collect::<Vec<_>>()
                })
            })
            .collect();
        let results: Vec<(bool, u64)> = handles.into_iter().flat_map(|h| h.join().expect("thread")).collect();
        let passed = results.iter().filter(|r| r.0).count() as f64 / results.len() as f64;
        let games = results.iter().map(|r| r.1 as f64).sum::<f64>() / results.len() as f64;
        let (predicted_pass, predicted_games) = reports::stats::sprt::operating_characteristic(&test, 0.5, true_elo);
        println!(
            "true Elo {true_elo:>4}: pass rate {passed:.3} (±{:.3}), mean games {games:>7.0}; Brownian approximation {predicted_pass:.3}, {predicted_games:.0}",
            1.96 * (passed * (1.0 - passed) / results.len() as f64).sqrt()
        );
    }
}
