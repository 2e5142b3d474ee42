//! `arena stats` and `arena sprt-calc`: statistics without playing.

use anyhow::anyhow;
use clap::Args;
use reports::stats::sprt::operating_characteristic;
use reports::summary::Statistics;

use super::shared::{CliResult, SprtParams, out, outln};

/// `arena stats`.
#[derive(Args, Debug)]
pub struct StatsArgs {
    /// Game counts of A: wins,draws,losses.
    #[arg(long, value_delimiter = ',', required_unless_present = "ptnml")]
    wdl: Option<Vec<u64>>,
    /// Pair counts of A: LL,LD,DD+WL,WD,WW.
    #[arg(long, value_delimiter = ',')]
    ptnml: Option<Vec<u64>>,
    #[command(flatten)]
    sprt: SprtParams,
    /// Print the documented JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// `arena stats`.
pub(super) fn stats(args: StatsArgs) -> CliResult {
    let wdl = match args.wdl.as_deref() {
        None => None,
        Some(&[w, d, l]) => Some((w, d, l)),
        Some(_) => return Err(anyhow!("--wdl needs three counts: wins,draws,losses")),
    };
    let ptnml = match args.ptnml.as_deref() {
        None => None,
        Some(&[ll, ld, dd, wd, ww]) => Some([ll, ld, dd, wd, ww]),
        Some(_) => return Err(anyhow!("--ptnml needs five counts: LL,LD,DD+WL,WD,WW")),
    };
    let statistics = Statistics::new(wdl, ptnml, args.sprt.test()?, None);
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&statistics)?);
    } else {
        out!("{}", statistics.render_text("A", "B"));
    }
    Ok(())
}

/// `arena sprt-calc`.
#[derive(Args, Debug)]
pub struct SprtCalcArgs {
    #[command(flatten)]
    sprt: SprtParams,
    /// Expected draw ratio of the games.
    #[arg(long, default_value_t = 0.5)]
    draw_ratio: f64,
}

/// `arena sprt-calc`.
pub(super) fn sprt_calc(args: SprtCalcArgs) -> CliResult {
    let test = args.sprt.test_or_default()?;
    if !(0.0..1.0).contains(&args.draw_ratio) {
        return Err(anyhow!("--draw-ratio must be in [0, 1), got {}", args.draw_ratio));
    }
    let bounds = test.bounds();
    outln!(
        "SPRT [{}, {}] {} Elo, alpha {}, beta {}, draw ratio {}: LLR bounds ({:.3}, {:.3})",
        test.elo0(),
        test.elo1(),
        args.sprt.model,
        test.alpha(),
        test.beta(),
        args.draw_ratio,
        bounds.lower,
        bounds.upper
    );
    let (cap, _) = reports::stats::sprt::default_cap(&test);
    outln!(
        "{:>10}  {:>8}  {:>14}  {:>20}",
        format!("true {}", test.model().unit()),
        "pass %",
        "expected games",
        "undecided %"
    );
    let width = test.elo1() - test.elo0();
    for step in 0..=12 {
        let elo = test.elo0() - width + step as f64 * width / 4.0;
        let (pass, games) = operating_characteristic(&test, args.draw_ratio, elo);
        let undecided = reports::stats::sequential::undecided(&test, args.draw_ratio, elo, cap as f64);
        outln!("{elo:>10.2}  {:>8.1}  {games:>14.0}  {:>20.1}", 100.0 * pass, 100.0 * undecided);
    }
    outln!(
        "(undecided: the share of tests `arena sprt` stops at its default cap of {cap} games, --max-games N to choose)"
    );
    outln!("(Brownian approximation of the LLR, games counted as independent; pairs make real tests somewhat shorter)");
    Ok(())
}
