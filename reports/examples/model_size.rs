//! The exact worst-case size of the test of "equal" (reject when the
//! profile likelihood ratio at a score of ½ exceeds χ²₁(0.95), and at least
//! M samples are decisive) at the 5 % level, for each number of pairs and
//! of games: what `reports::stats::answer::MIN_DECISIVE` rests on.
//!
//! `cargo run --release -p reports --example model_size [N1,N2,… [M1,M2,… [STEP]]]`

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let list = |i: usize, default: &str| -> Vec<u64> {
        args.get(i).map_or(default, String::as_str).split(',').filter_map(|x| x.parse().ok()).collect()
    };
    let samples = list(0, "20,40,80");
    let decisive = list(1, "1,10,15,20");
    let step = args.get(2).and_then(|a| a.parse::<f64>().ok()).unwrap_or(0.05);
    println!("samples  decisive ≥  pairs: worst size (at LL LD DD+WL WD WW)   games: worst size (at L D W)");
    for &n in &samples {
        for &m in decisive.iter().filter(|&&m| m <= n) {
            let (pairs, at) = reports::stats::answer::worst_case_size(true, n, step, m);
            let (games, at_games) = reports::stats::answer::worst_case_size(false, n, step, m);
            let show = |v: &[f64]| v.iter().map(|p| format!("{p:.2}")).collect::<Vec<_>>().join(" ");
            println!(
                "{n:>7}  {m:>10}  {:>6.2} % ({})   {:>6.2} % ({})",
                100.0 * pairs,
                show(&at),
                100.0 * games,
                show(&at_games)
            );
        }
    }
}
