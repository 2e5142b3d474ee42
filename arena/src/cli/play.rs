//! `arena elo`, `match`, `tournament`, `sprt` and `scale`: build a run spec
//! from flags, check everything that can be checked before the first game,
//! store the run, play it, print the summary. `arena extend`: more budgets
//! for a scaling run, on the openings it already plays, planned after its
//! own pairs, so that a curve that needs a deeper search does not need its
//! cheaper budgets replayed.

use anyhow::anyhow;
use clap::Args;
use model::{GamesKind, RunStatus, Spec};

use super::common::open_db;
use super::flags::{EloArgs, MatchArgs, ScaleArgs, SprtArgs, TournamentArgs};
use super::games::{Chosen, open_book, resolve_engines, start};
use super::shared::{CliResult, DbArg, outln};
use crate::cli::settings::Games;
use crate::engine_io::engines::EngineSpec;
use crate::run::plan::{add_budgets, at_budget, first_pairing};

/// `arena scale`: A and B copied once per budget (`A@BUDGET`, each copy
/// under its budget), one pairing per budget, the same openings for all.
pub(super) async fn scale(args: ScaleArgs) -> CliResult {
    let budgets = args.flags.budgets.0;
    // A run file written before run files left it out names the first budget.
    if let Some(tc) = args.play.settings.tc.as_ref().filter(|tc| **tc != budgets[0]) {
        return Err(anyhow!(
            "arena scale takes no --tc ('{tc}'): each budget is its own time control, e.g. --budgets 1+0.01,4+0.04"
        ));
    }
    let book = open_book(&args.play.settings)?;
    let base = args.engines.engines(&args.play, false)?;
    let engines: Vec<EngineSpec> = budgets.iter().flat_map(|budget| at_budget(&base, budget)).collect();
    let pairings = (0..budgets.len()).map(|i| (2 * i, 2 * i + 1)).collect();
    let tc = budgets[0].clone();
    let kind = GamesKind::Scale(model::Budgets(budgets));
    let openings_per_round = args.flags.games.div_ceil(2);
    let games = Games { kind, engines, pairings, openings_per_round, rounds: 1, headline: Some(tc) };
    let spec = args.play.settings.spec(games)?;
    start(&args.play, spec, &book, Chosen::default()).await
}

/// `arena extend`.
#[derive(Args, Debug)]
pub struct ExtendArgs {
    /// Run id of a scaling run (see `arena runs`).
    run: i64,
    /// Budgets to add, comma-separated, larger than the run's own and of their kind (nodes=, depth=, st= or clocks), e.g. nodes=1024000; their pairs are spread evenly among the run's pairs still to play.
    #[arg(long, required_unless_present = "spread", value_parser = model::Budgets::read)]
    budgets: Option<model::Budgets>,
    /// Only spread the run's pairs still to play evenly over its budgets, as adding budgets does (for a run extended by an arena that planned new budgets after its pairs).
    #[arg(long, conflicts_with = "budgets")]
    spread: bool,
    #[command(flatten)]
    db: DbArg,
}

/// `arena extend`.
pub(super) async fn extend(args: ExtendArgs) -> CliResult {
    let db = open_db(&args.db.target).await?;
    let info = db.run(args.run).await?;
    let run = info.id;
    let Spec::Games(spec) = Spec::of(&info)? else {
        return Err(anyhow!("run {run} is a suite run; only a scaling run (arena scale) takes more budgets"));
    };
    if !matches!(spec.kind, GamesKind::Scale(_)) {
        return Err(anyhow!(
            "run {run} ({}) is not a scaling run; only a scaling run (arena scale) takes more budgets",
            spec.kind
        ));
    }
    let Some(budgets) = &args.budgets else {
        let pending = db.spread_pending(run).await?;
        outln!("run {run}: its {pending} pairs still to play spread evenly over its budgets");
        return Ok(());
    };
    let [a, b] =
        first_pairing(&spec).ok_or_else(|| anyhow!("run {run} has no pairing to copy; its spec is damaged"))?;
    let openings = db.pairing_openings(run, &a.name, &b.name).await?;
    let first_index = db.last_pair_index(run).await? + 1;
    let (spec, pairs) = add_budgets(spec, budgets, &openings, first_index).map_err(|e| anyhow!("--budgets: {e}"))?;
    let added = &budgets.0;
    db.extend_run(run, &info.spec, &Spec::Games(spec), &pairs).await?;
    let names: Vec<String> = added.iter().map(ToString::to_string).collect();
    let play = match info.status {
        RunStatus::Running => "its slots and workers play them among its own pairs".to_string(),
        RunStatus::Stopped | RunStatus::Finished => format!("play them with `arena resume {run}`"),
    };
    outln!(
        "run {run}: {} budget(s) added ({}), {} pairs ({} games) on its {} openings; {play}",
        added.len(),
        names.join(", "),
        pairs.len(),
        2 * pairs.len(),
        openings.len()
    );
    Ok(())
}

/// `arena elo`.
pub(super) async fn elo(args: EloArgs) -> CliResult {
    let book = open_book(&args.play.settings)?;
    let per_round = args.passes.openings_per_round(&book, &args.play)?;
    let engines = args.engines.engines(&args.play, false)?;
    let games = Games::two(GamesKind::Elo, engines, per_round, args.passes.rounds);
    let spec = args.play.settings.spec(games)?;
    start(&args.play, spec, &book, Chosen::default()).await
}

/// `arena match`: without `--openings`, a large shuffled book, said when the run starts.
pub(super) async fn match_(args: MatchArgs) -> CliResult {
    let mut play = args.play;
    let chosen = Chosen::large_book(&mut play.settings);
    let book = open_book(&play.settings)?;
    let pairs = args.games.games.div_ceil(2);
    let engines = args.engines.engines(&play, false)?;
    let spec = play.settings.spec(Games::two(GamesKind::Match, engines, pairs, 1))?;
    start(&play, spec, &book, chosen).await
}

/// `arena tournament`.
pub(super) async fn tournament(args: TournamentArgs) -> CliResult {
    if args.engines.len() < 2 {
        return Err(anyhow!("--engines needs at least two names, comma-separated"));
    }
    let names: Vec<&str> = args.engines.iter().map(String::as_str).collect();
    let pairings: Vec<(usize, usize)> = match &args.gauntlet.gauntlet {
        Some(hero) => {
            let h = names
                .iter()
                .position(|n| n == hero)
                .ok_or_else(|| anyhow!("--gauntlet '{hero}' is not among --engines {}", names.join(",")))?;
            (0..names.len()).filter(|&i| i != h).map(|i| (h, i)).collect()
        }
        None => (0..names.len()).flat_map(|i| (i + 1..names.len()).map(move |j| (i, j))).collect(),
    };
    let (settings, passes) = (&args.play.settings, &args.passes);
    let book = open_book(settings)?;
    let per_round = passes.openings_per_round(&book, &args.play)?;
    let engines = resolve_engines(&args.play, &names)?;
    let games = Games {
        kind: GamesKind::Tournament,
        engines,
        pairings,
        openings_per_round: per_round,
        rounds: passes.rounds,
        headline: None,
    };
    let spec = settings.spec(games)?;
    start(&args.play, spec, &book, Chosen::default()).await
}

/// `arena sprt`: without `--openings`, a large shuffled book; without
/// `--max-games`, a cap from the bounds (`default_cap`), and the share of
/// tests it leaves undecided; both said.
pub(super) async fn sprt(args: SprtArgs) -> CliResult {
    let test = args.sprt.test_or_default()?;
    let mut play = args.play;
    let mut chosen = Chosen::large_book(&mut play.settings);
    let engines = args.engines.engines(&play, true)?;
    // A family: each candidate against the base (the last engine), the
    // pairings interleaved opening by opening, each capped alike, by default
    // at the cap of the strictest level a candidate faces (α/k, β/k).
    let base = engines.len() - 1;
    let pairings: Vec<(usize, usize)> = (0..base).map(|dev| (dev, base)).collect();
    let strictest = reports::stats::family::Family::new(test, pairings.len()).level(0, 0);
    let max_games = match args.cap.max_games {
        Some(games) => games,
        None => {
            let (cap, expected) = reports::stats::sprt::default_cap(&strictest);
            let undecided = reports::stats::sequential::undecided_at_bounds(&strictest, 0.5, cap as f64);
            let (each, level) = match pairings.len() {
                1 => ("", String::new()),
                k => ("each candidate ", format!(" at the first decision's level (α/{k}, β/{k})")),
            };
            chosen.cap = Some(format!(
                "{each}at most {cap} games: twice the {expected:.0} sprt-calc expects at worst{level} (--max-games N \
                 to choose); the cap leaves about {} undecided",
                undecided_text(&undecided)
            ));
            cap
        }
    };
    let book = open_book(&play.settings)?;
    let openings_per_round = max_games.div_ceil(2);
    let games = Games { kind: GamesKind::Sprt(test), engines, pairings, openings_per_round, rounds: 1, headline: None };
    let spec = play.settings.spec(games)?;
    start(&play, spec, &book, chosen).await
}

/// The shares of tests a cap leaves undecided at elo0, halfway and elo1:
/// `0.1 % at elo0, 4.2 % halfway, 0.1 % at elo1`.
fn undecided_text(shares: &[(f64, f64); 3]) -> String {
    let [at0, half, at1] = shares.map(|(_, share)| format!("{:.1} %", 100.0 * share));
    format!("{at0} of tests at elo0, {half} halfway, {at1} at elo1")
}
