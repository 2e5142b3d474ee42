//! `arena tune`: SPSA tuning of an engine's UCI options by self-play. The
//! run is a run of games like the others (stored, resumable, played by
//! local slots and `arena worker`s alike); each pair is one iteration
//! between θ+ and θ−.

use anyhow::anyhow;
use model::{GamesKind, Spsa};

use super::common::arena_exe;
use super::flags::TuneArgs;
use super::games::{Chosen, open_book, resolve_engines, start};
use super::shared::CliResult;
use crate::engine_io::engines::EngineSpec;
use crate::engine_io::process::Timeouts;
use crate::run::tune::{ParamFlag, declared_options, resolve};

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
    let spec = args.play.settings.spec(crate::cli::settings::Games::two(kind, engines, iterations, 1))?;
    say_reach(&spsa, args.plan || !args.play.local.quiet.quiet);
    if args.plan {
        return Ok(());
    }
    start(&args.play, spec, &book, chosen).await
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
