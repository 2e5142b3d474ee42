//! `arena tune`: SPSA tuning of an engine's UCI options by self-play. The
//! run is a run of games like the others (stored, resumable, played by
//! local slots and `arena worker`s alike); each pair is one iteration
//! between θ+ and θ−.

use anyhow::anyhow;
use clap::Args;
use model::tune::{DEFAULT_ALPHA, DEFAULT_GAMMA};
use model::{GamesKind, Invalid, Spsa};
use serde::{Deserialize, Serialize};

use super::CliResult;
use super::common::arena_exe;
use super::games::{Chosen, PlayArgs, SourceArgs, open_book, resolve_engines, start};
use crate::engine_io::engines::EngineSpec;
use crate::engine_io::process::Timeouts;
use crate::run::settings::checked;
use crate::run::tune::{ParamFlag, declared_options, resolve};

/// `arena tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// The engine whose options are tuned: a preset, an engines.toml name or a UCI program (a path, or a program on PATH).
    #[arg(long, required_unless_present = "repo", conflicts_with = "repo")]
    pub(super) engine: Option<String>,
    #[command(flatten)]
    pub(super) source: SourceArgs,
    /// With --repo: the revision to tune (a branch, tag or commit).
    #[arg(long, value_name = "REV", requires = "repo")]
    pub(super) rev: Option<String>,
    #[command(flatten)]
    pub(super) flags: TuneFlags,
    /// Print how far each parameter can move in the planned games, then stop without playing.
    #[arg(long)]
    pub(super) plan: bool,
    #[command(flatten)]
    pub(super) play: PlayArgs,
}

/// What a tuning run tunes and how: its parameters, games and SPSA's constants.
#[derive(Args, Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct TuneFlags {
    /// A UCI option to tune: NAME[=MIN..MAX][,start=V][,c=C_END][,r=R_END]; repeat for more. Bounds default to the spin's min..max, start to the engine's value, c to 5 % of the range, r to 0.002.
    #[serde(rename = "param", deserialize_with = "params")]
    #[arg(long = "param", value_name = "PARAM", required = true, value_parser = str::parse::<ParamFlag>)]
    params: Vec<ParamFlag>,
    /// Games to play: one pair (θ+ against θ−, colours swapped) per iteration.
    #[serde(default = "TuneFlags::default_games", deserialize_with = "checked::games")]
    #[arg(long, default_value_t = TuneFlags::default_games(), value_parser = super::whole_pairs)]
    games: usize,
    /// Exponent α of the step size a_k = a / (A + k)^α, in (0, 1].
    #[serde(default = "TuneFlags::default_alpha", deserialize_with = "checked_exponent")]
    #[arg(long, default_value_t = DEFAULT_ALPHA, value_parser = exponent)]
    alpha: f64,
    /// Exponent γ of the perturbation c_k = c / k^γ, in (0, 1].
    #[serde(default = "TuneFlags::default_gamma", deserialize_with = "checked_exponent")]
    #[arg(long, default_value_t = DEFAULT_GAMMA, value_parser = exponent)]
    gamma: f64,
    /// Stability constant A of a_k, 0 or more (default: 10 % of the iterations).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "checked_stability")]
    #[arg(long = "big-a", value_parser = stability, allow_negative_numbers = true)]
    big_a: Option<f64>,
    /// Seed of the perturbation signs.
    #[serde(default = "TuneFlags::default_seed")]
    #[arg(long, default_value_t = TuneFlags::default_seed())]
    spsa_seed: u64,
}

impl TuneFlags {
    fn default_games() -> usize {
        2000
    }

    fn default_alpha() -> f64 {
        DEFAULT_ALPHA
    }

    fn default_gamma() -> f64 {
        DEFAULT_GAMMA
    }

    fn default_seed() -> u64 {
        1
    }

    /// The flags of a stored tuning run: its parameters as they were resolved.
    pub(super) fn of(spsa: &Spsa) -> TuneFlags {
        let param = |p: &model::TuneParam| ParamFlag {
            name: p.name.clone(),
            bounds: Some((p.min, p.max)),
            start: Some(p.start),
            c_end: Some(p.c_end),
            r_end: Some(p.r_end),
        };
        TuneFlags {
            params: spsa.params.iter().map(param).collect(),
            games: 2 * usize::try_from(spsa.iterations).unwrap_or(usize::MAX / 2),
            alpha: spsa.alpha,
            gamma: spsa.gamma,
            big_a: Some(spsa.big_a),
            spsa_seed: spsa.seed,
        }
    }
}

/// A run file's `param`: one text, or a list, each read as `--param` reads it.
fn params<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Vec<ParamFlag>, D::Error> {
    #[derive(serde::Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(String),
        Many(Vec<String>),
    }
    let texts = match OneOrMany::deserialize(deserializer)? {
        OneOrMany::One(text) => vec![text],
        OneOrMany::Many(texts) => texts,
    };
    texts.iter().map(|t| t.parse().map_err(serde::de::Error::custom)).collect()
}

/// A run file's number, checked by `check` as the flag is.
fn number_checked<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
    check: fn(&str) -> Result<f64, Invalid>,
) -> Result<f64, D::Error> {
    let value = f64::deserialize(deserializer)?;
    check(&value.to_string()).map_err(serde::de::Error::custom)
}

fn checked_exponent<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
    number_checked(deserializer, exponent)
}

fn checked_stability<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<f64>, D::Error> {
    number_checked(deserializer, stability).map(Some)
}

/// `arena tune`: without `--openings`, a large shuffled book.
pub(super) async fn tune(mut args: TuneArgs) -> CliResult {
    let flags = checked_flags(&args)?;
    let chosen = Chosen::large_book(&mut args.play.settings);
    let mut base = match (&args.source.repo, &args.rev, &args.engine) {
        (Some(repo), Some(rev), _) => args.source.engine(repo, rev)?,
        (Some(_), None, _) => return Err(anyhow!("--repo needs --rev REV, the revision to tune")),
        (None, _, Some(name)) => resolve_engines(&args.play, &[name])?.remove(0),
        (None, _, None) => return Err(anyhow!("give --engine NAME, or --repo PATH --rev REV")),
    };
    // A source engine is built (its revision resolved) before its options are read.
    crate::run::identity::build_here(std::slice::from_mut(&mut base), &crate::run::identity::stored_repo).await?;
    let declared = declared_options(&base, &arena_exe()?, Timeouts::default()).await?;
    let params = flags.iter().map(|flag| resolve(flag, &base, &declared)).collect::<Result<Vec<_>, _>>()?;
    let tuning = &args.flags;
    let iterations = tuning.games.div_ceil(2);
    let spsa = Spsa {
        params,
        iterations: iterations as u64,
        alpha: tuning.alpha,
        gamma: tuning.gamma,
        big_a: tuning.big_a.unwrap_or(iterations as f64 / 10.0),
        seed: tuning.spsa_seed,
    };
    let (plus, minus) = (format!("{}+", base.name), format!("{}-", base.name));
    let book = open_book(&args.play.settings)?;
    let engines = vec![EngineSpec { name: plus, ..base.clone() }, EngineSpec { name: minus, ..base }];
    // The run's settings are checked before the plan is shown, as a run checks them.
    let kind = GamesKind::Tune(Box::new(spsa.clone()));
    let spec = args.play.settings.spec(kind, engines, vec![(0, 1)], iterations, 1)?;
    say_reach(&spsa, args.plan || !args.play.local.quiet.quiet);
    if args.plan {
        return Ok(());
    }
    start(&args.play, spec, &book, chosen).await
}

/// `--alpha` or `--gamma`: an exponent in (0, 1].
fn exponent(text: &str) -> Result<f64, Invalid> {
    match text.trim().parse::<f64>() {
        Ok(value) if value > 0.0 && value <= 1.0 => Ok(value),
        _ => Err(Invalid::new("spsa", "must be in (0, 1] (Spall recommends α = 0.602, γ = 0.101)")),
    }
}

/// `--big-a`: 0 or more.
fn stability(text: &str) -> Result<f64, Invalid> {
    match text.trim().parse::<f64>() {
        Ok(value) if value.is_finite() && value >= 0.0 => Ok(value),
        _ => Err(Invalid::new("spsa", "must be a number, 0 or more")),
    }
}

/// The `--param`s, each once.
fn checked_flags(args: &TuneArgs) -> CliResult<Vec<ParamFlag>> {
    let flags = args.flags.params.clone();
    for (i, flag) in flags.iter().enumerate() {
        if flags[..i].iter().any(|p| p.name.eq_ignore_ascii_case(&flag.name)) {
            return Err(anyhow!("--param {} is given twice", flag.name));
        }
    }
    Ok(flags)
}

/// How far each parameter can move in the run's iterations (a note when
/// `say`), and a warning when that is less than half its range.
fn say_reach(spsa: &Spsa, say: bool) {
    let iterations = spsa.iterations;
    for (i, p) in spsa.params.iter().enumerate() {
        let (reach, range) = (spsa.reach(i), p.max - p.min);
        if say {
            crate::term::note(&format!(
                "tuning {} from {} in {}..{}{} (c_end {}, r_end {}): in {iterations} iterations θ can move at most {reach:.1}, {:.0} % of its range",
                p.name,
                p.start,
                p.min,
                p.max,
                if p.integer { ", integer" } else { "" },
                decimals(p.c_end),
                decimals(p.r_end),
                100.0 * reach / range
            ));
        }
        if reach < range / 2.0 {
            crate::term::warn(&format!(
                "{}: θ can move at most {reach:.1} of its range {range} in {iterations} iterations, so an optimum far from {} \
                 is out of reach; give more --games, or a larger r (e.g. --param {}=…,r={:.3} reaches half the range)",
                p.name,
                p.start,
                p.name,
                (p.r_end * range / 2.0 / reach.max(f64::MIN_POSITIVE) * 1000.0).ceil() / 1000.0
            ));
        }
    }
}

/// `x` to six decimals, as short as it prints: 1.4, not 1.4000000000000001.
fn decimals(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}
