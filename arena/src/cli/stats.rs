//! `arena stats` and `arena sprt-calc`: statistics without playing.

use clap::Args;
use reports::stats::sprt::{Model, Test, operating_characteristic};
use reports::summary::Statistics;

use super::{CliError, CliResult};

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

/// SPRT parameters shared by `stats`, `sprt-calc` and `sprt`.
#[derive(Args, Debug, Clone)]
pub struct SprtParams {
    /// Elo under H0 (`stats`: with --elo1, evaluate an SPRT; otherwise 0).
    #[arg(long, allow_hyphen_values = true)]
    elo0: Option<f64>,
    /// Elo under H1 (default 5 where a test is always run).
    #[arg(long, allow_hyphen_values = true)]
    elo1: Option<f64>,
    /// False-positive rate.
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// False-negative rate.
    #[arg(long, default_value_t = 0.05)]
    beta: f64,
    /// normalized or logistic.
    #[arg(long, default_value = "normalized")]
    model: String,
}

impl SprtParams {
    /// The test with elo0 = 0 and elo1 = 5 where not given.
    ///
    /// # Errors
    ///
    /// [`CliError`] for a bad model or bounds.
    pub(super) fn test_or_default(&self) -> Result<Test, CliError> {
        let given =
            SprtParams { elo0: Some(self.elo0.unwrap_or(0.0)), elo1: Some(self.elo1.unwrap_or(5.0)), ..self.clone() };
        given.test().map(|test| test.expect("both bounds are set"))
    }

    fn test(&self) -> Result<Option<Test>, CliError> {
        let model: Model = self.model.parse().map_err(CliError)?;
        match (self.elo0, self.elo1) {
            (None, None) => Ok(None),
            (Some(elo0), Some(elo1)) => {
                let test = Test { elo0, elo1, alpha: self.alpha, beta: self.beta, model };
                test.validate().map_err(|e| CliError(format!("bad SPRT: {e}")))?;
                Ok(Some(test))
            }
            _ => Err(CliError("give both --elo0 and --elo1".into())),
        }
    }
}

/// `arena stats`.
pub(super) fn stats(args: StatsArgs) -> CliResult {
    let wdl = match args.wdl.as_deref() {
        None => None,
        Some(&[w, d, l]) => Some((w, d, l)),
        Some(_) => return Err(CliError("--wdl needs three counts: wins,draws,losses".into())),
    };
    let ptnml = match args.ptnml.as_deref() {
        None => None,
        Some(&[ll, ld, dd, wd, ww]) => Some([ll, ld, dd, wd, ww]),
        Some(_) => return Err(CliError("--ptnml needs five counts: LL,LD,DD+WL,WD,WW".into())),
    };
    let statistics = Statistics::new(wdl, ptnml, args.sprt.test()?, None);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&statistics)?);
    } else {
        print!("{}", statistics.render_text("A", "B"));
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
        return Err(CliError(format!("--draw-ratio must be in [0, 1), got {}", args.draw_ratio)));
    }
    let bounds = test.bounds();
    println!(
        "SPRT [{}, {}] {} Elo, alpha {}, beta {}, draw ratio {}: LLR bounds ({:.3}, {:.3})",
        test.elo0, test.elo1, args.sprt.model, test.alpha, test.beta, args.draw_ratio, bounds.lower, bounds.upper
    );
    println!("{:>10}  {:>8}  {:>14}", "true Elo", "pass %", "expected games");
    let width = test.elo1 - test.elo0;
    for step in 0..=12 {
        let elo = test.elo0 - width + step as f64 * width / 4.0;
        let (pass, games) = operating_characteristic(&test, args.draw_ratio, elo);
        println!("{elo:>10.2}  {:>8.1}  {games:>14.0}", 100.0 * pass);
    }
    println!(
        "(Brownian approximation of the LLR, games counted as independent; pairs make real tests somewhat shorter)"
    );
    Ok(())
}
