//! `arena elo`, `match`, `tournament`, `sprt` and `scale`: build a run spec
//! from flags, check everything that can be checked before the first game,
//! store the run, play it, print the summary. `arena extend`: more budgets
//! for a scaling run, on the openings it already plays, planned after its
//! own pairs, so that a curve that needs a deeper search does not need its
//! cheaper budgets replayed.

use anyhow::anyhow;
use clap::Args;
use model::{GamesKind, GamesSpec, RunStatus, Spec};
use serde::{Deserialize, Serialize};

use openings::Book;

use super::common::open_db;
use super::games::{Chosen, PlayArgs, SourceArgs, open_book, resolve_engines, start};
use super::{CliResult, DbArg, SprtParams, outln};
use crate::engine_io::engines::EngineSpec;
use crate::run::plan::{add_budgets, at_budget, first_pairing};
use crate::run::settings::{as_text, at_least, checked, whole_pairs};

/// `arena elo`.
#[derive(Args, Debug)]
pub struct EloArgs {
    #[command(flatten)]
    pub(super) engines: PairArgs,
    #[command(flatten)]
    pub(super) passes: PassArgs,
    #[command(flatten)]
    pub(super) play: PlayArgs,
}

/// How much of the opening set `elo` and `tournament` play.
#[derive(Args, Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", default)]
pub struct PassArgs {
    /// Passes through the opening set (each opening twice per pass and pairing, colours swapped).
    #[serde(deserialize_with = "checked::count")]
    #[arg(long, default_value_t = 1, value_parser = at_least::<usize, 1>)]
    rounds: usize,
    /// Games per pairing and pass: the first N/2 openings (after --seed's shuffle) instead of the whole set.
    #[serde(skip_serializing_if = "Option::is_none", deserialize_with = "checked::some_games")]
    #[arg(long, value_parser = whole_pairs)]
    games: Option<usize>,
}

impl Default for PassArgs {
    /// The flags left out.
    fn default() -> PassArgs {
        PassArgs { rounds: 1, games: None }
    }
}

impl PassArgs {
    /// The passes of a stored run.
    pub(super) fn of(spec: &GamesSpec) -> PassArgs {
        PassArgs { rounds: spec.rounds, games: Some(2 * spec.openings_per_round) }
    }

    /// Openings a pass plays of each pairing: those `--games` asks for, else the whole book.
    fn openings_per_round(&self, book: &Book, play: &PlayArgs) -> CliResult<usize> {
        match self.games {
            Some(games) => Ok(games.div_ceil(2)),
            None => whole_book(book, play),
        }
    }
}

/// `arena match`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    #[command(flatten)]
    pub(super) engines: PairArgs,
    #[command(flatten)]
    pub(super) games: MatchGames,
    #[command(flatten)]
    pub(super) play: PlayArgs,
}

/// How many games `arena match` plays.
#[derive(Args, Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", default)]
pub struct MatchGames {
    /// Games to play, in whole pairs (each opening twice, colours swapped); under a deterministic limit at most two per opening of the book.
    #[serde(deserialize_with = "checked::games")]
    #[arg(long, default_value_t = MatchGames::DEFAULT, value_parser = whole_pairs)]
    games: usize,
}

impl MatchGames {
    /// Without `--games`.
    const DEFAULT: usize = 100;

    /// The games of a stored match.
    pub(super) fn of(spec: &GamesSpec) -> MatchGames {
        MatchGames { games: 2 * spec.openings_per_round }
    }
}

impl Default for MatchGames {
    /// The flag left out.
    fn default() -> MatchGames {
        MatchGames { games: MatchGames::DEFAULT }
    }
}

/// `arena tournament`.
#[derive(Args, Debug)]
pub struct TournamentArgs {
    /// Comma-separated engines: presets, engines.toml names or UCI programs (a path, or a program on PATH).
    #[arg(long, value_delimiter = ',', required = true, value_parser = super::EngineName, hide_possible_values = true, add = clap_complete::ArgValueCompleter::new(super::complete::engines))]
    pub(super) engines: Vec<String>,
    #[command(flatten)]
    pub(super) gauntlet: Gauntlet,
    #[command(flatten)]
    pub(super) passes: PassArgs,
    #[command(flatten)]
    pub(super) play: PlayArgs,
}

/// The one engine of a gauntlet.
#[derive(Args, Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", default)]
pub struct Gauntlet {
    /// Gauntlet: this engine plays all others, who do not play each other.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[arg(long)]
    gauntlet: Option<String>,
}

impl Gauntlet {
    /// The gauntlet of a stored tournament: when every pairing has the same
    /// first engine and not every pair of engines meets.
    pub(super) fn of(spec: &GamesSpec) -> Gauntlet {
        let n = spec.engines.len();
        let round_robin = spec.pairings.len() == n * (n - 1) / 2;
        let hero = spec.pairings.first().map(|&(hero, _)| hero);
        let gauntlet = hero
            .filter(|&hero| !round_robin && spec.pairings.iter().all(|&(a, _)| a == hero))
            .map(|hero| spec.engines[hero].name.clone());
        Gauntlet { gauntlet }
    }
}

/// `arena sprt`.
#[derive(Args, Debug)]
pub struct SprtArgs {
    #[command(flatten)]
    pub(super) engines: PairArgs,
    #[command(flatten)]
    pub(super) sprt: SprtParams,
    #[command(flatten)]
    pub(super) cap: SprtCap,
    #[command(flatten)]
    pub(super) play: PlayArgs,
}

/// The cap of `arena sprt`.
#[derive(Args, Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", default)]
pub struct SprtCap {
    /// Stop undecided after this many games ("inconclusive") [default: twice the games sprt-calc expects where the test is slowest, between elo0 and elo1; said when the run starts].
    #[serde(skip_serializing_if = "Option::is_none", deserialize_with = "checked::some_games")]
    #[arg(long, help_heading = "SPRT", value_parser = whole_pairs)]
    max_games: Option<usize>,
}

impl SprtCap {
    /// The cap of a stored SPRT.
    pub(super) fn of(spec: &GamesSpec) -> SprtCap {
        SprtCap { max_games: Some(2 * spec.openings_per_round) }
    }
}

/// `arena scale`.
#[derive(Args, Debug)]
pub struct ScaleArgs {
    #[command(flatten)]
    pub(super) engines: PairArgs,
    #[command(flatten)]
    pub(super) flags: ScaleFlags,
    #[command(flatten)]
    pub(super) play: PlayArgs,
}

/// The budgets of `arena scale` and its games at each.
#[derive(Args, Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct ScaleFlags {
    /// Budgets, cheapest first, comma-separated: nodes=1000,nodes=4000 or depth=6,depth=8 or 1+0.01,4+0.04 (a modifier such as ,timemargin=50 belongs to the budget before it).
    #[serde(with = "as_text")]
    #[arg(long, required = true)]
    budgets: model::Budgets,
    /// Games at each budget: the same openings at every budget, interleaved so the curve fills in evenly.
    #[serde(default = "ScaleFlags::default_games", deserialize_with = "checked::games")]
    #[arg(long, default_value_t = ScaleFlags::default_games(), value_parser = whole_pairs)]
    games: usize,
}

impl ScaleFlags {
    /// Without `--games`.
    fn default_games() -> usize {
        200
    }

    /// The flags of a stored scaling run.
    pub(super) fn of(spec: &GamesSpec, budgets: &model::Budgets) -> ScaleFlags {
        ScaleFlags { budgets: budgets.clone(), games: 2 * spec.openings_per_round }
    }
}

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
    let mut spec = args.play.settings.spec(kind, engines, pairings, args.flags.games.div_ceil(2), 1)?;
    spec.tc = Some(tc);
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

/// Engines A and B of a two-engine run: `--a` and `--b` by name, or
/// `--dev A --base B` (presets, engines or programs; with `--repo`, two
/// revisions of one repository), declared once for elo, match, sprt and
/// scale. `arena sprt` takes `--dev` more than once: a family of candidates
/// against the one base.
#[derive(Args, Debug)]
#[command(next_help_heading = "Engines")]
pub struct PairArgs {
    /// Engine A, the one being tested: a preset, an engines.toml name or a UCI program (a path, or a program on PATH).
    #[arg(long, required_unless_present_any = ["repo", "base"], conflicts_with_all = ["repo", "base", "dev"], value_parser = super::EngineName, hide_possible_values = true, add = clap_complete::ArgValueCompleter::new(super::complete::engines))]
    a: Option<String>,
    /// Engine B, the reference: a preset, an engines.toml name or a UCI program (a path, or a program on PATH).
    #[arg(long, required_unless_present_any = ["repo", "base"], conflicts_with_all = ["repo", "base", "dev"], value_parser = super::EngineName, hide_possible_values = true, add = clap_complete::ArgValueCompleter::new(super::complete::engines))]
    b: Option<String>,
    #[command(flatten)]
    source: SourceArgs,
    /// The engine under test (engine A), as --a; with --repo a revision: a branch, tag or commit. arena sprt takes it more than once: a family of candidates, each against --base, stopped by one procedure that bounds the family-wise error.
    #[arg(long, value_name = "ENGINE|REV", requires = "base", add = clap_complete::ArgValueCompleter::new(super::complete::engines))]
    dev: Vec<String>,
    /// The reference (engine B), as --b; with --repo a revision.
    #[arg(long, value_name = "ENGINE|REV", requires = "dev", add = clap_complete::ArgValueCompleter::new(super::complete::engines))]
    base: Option<String>,
}

impl PairArgs {
    /// A and B by name (a run file's `engines = ["A", "B"]`).
    pub(super) fn named(a: &str, b: &str) -> PairArgs {
        let name = |name: &str| Some(name.to_string());
        PairArgs { a: name(a), b: name(b), source: SourceArgs::default(), dev: Vec::new(), base: None }
    }

    /// A family's candidates and base by name (a run file's `engines =
    /// ["A", "B", "C", "BASE"]`).
    pub(super) fn family(devs: &[String], base: &str) -> PairArgs {
        PairArgs { a: None, b: None, source: SourceArgs::default(), dev: devs.to_vec(), base: Some(base.to_string()) }
    }

    /// The engines: A then B, or a family's candidates then its base; by
    /// name from the registry, or built from `--repo`. `family`: whether
    /// the command tests a family (sprt); the others take one `--dev`.
    fn engines(&self, play: &PlayArgs, family: bool) -> CliResult<Vec<EngineSpec>> {
        let (devs, base): (Vec<&str>, &str) = match (&self.base, &self.a, &self.b) {
            (Some(base), _, _) => (self.dev.iter().map(String::as_str).collect(), base),
            (None, Some(a), Some(b)) => (vec![a.as_str()], b.as_str()),
            _ if self.source.repo.is_some() => {
                return Err(anyhow!(
                    "--repo needs --dev REV and --base REV (the revision under test and the reference)"
                ));
            }
            _ => return Err(anyhow!("name the engines: --a A --b B, or --dev A --base B")),
        };
        if devs.len() > 1 && !family {
            return Err(anyhow!(
                "--dev is given {} times: a family of candidates is tested by arena sprt; this command takes one",
                devs.len()
            ));
        }
        // Engines named twice are refused as every command refuses them
        // (`resolve_engines`); revisions here.
        let Some(repo) = &self.source.repo else {
            let names: Vec<&str> = devs.iter().copied().chain([base]).collect();
            return resolve_engines(play, &names);
        };
        if let Some(dev) = devs.iter().find(|dev| **dev == base) {
            return Err(anyhow!("--dev and --base are both '{dev}': name two revisions"));
        }
        if let Some(dev) = devs.iter().enumerate().find_map(|(i, dev)| devs[..i].contains(dev).then_some(dev)) {
            return Err(anyhow!("--dev '{dev}' is given twice: name each revision once"));
        }
        devs.iter().chain([&base]).map(|rev| self.source.engine(repo, rev)).collect()
    }
}

/// `arena elo`.
pub(super) async fn elo(args: EloArgs) -> CliResult {
    let book = open_book(&args.play.settings)?;
    let per_round = args.passes.openings_per_round(&book, &args.play)?;
    let engines = args.engines.engines(&args.play, false)?;
    let spec = args.play.settings.spec(GamesKind::Elo, engines, vec![(0, 1)], per_round, args.passes.rounds)?;
    start(&args.play, spec, &book, Chosen::default()).await
}

/// Openings a pass through `book` plays, refused for a book too large to
/// play whole (double Fischer random's 921,600 positions).
fn whole_book(book: &Book, play: &PlayArgs) -> CliResult<usize> {
    const LARGEST: usize = 100_000;
    match book.len() {
        n if n > LARGEST => Err(anyhow!(
            "--openings {} holds {n} positions, too many to play each twice: give --games N to play N games from it",
            play.settings.openings()
        )),
        n => Ok(n),
    }
}

/// `arena match`: without `--openings`, a large shuffled book, said when the run starts.
pub(super) async fn match_(args: MatchArgs) -> CliResult {
    let mut play = args.play;
    let chosen = Chosen::large_book(&mut play.settings);
    let book = open_book(&play.settings)?;
    let pairs = args.games.games.div_ceil(2);
    let engines = args.engines.engines(&play, false)?;
    let spec = play.settings.spec(GamesKind::Match, engines, vec![(0, 1)], pairs, 1)?;
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
    let spec = settings.spec(GamesKind::Tournament, engines, pairings, per_round, passes.rounds)?;
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
    let spec = play.settings.spec(GamesKind::Sprt(test), engines, pairings, max_games.div_ceil(2), 1)?;
    start(&play, spec, &book, chosen).await
}

/// The shares of tests a cap leaves undecided at elo0, halfway and elo1:
/// `0.1 % at elo0, 4.2 % halfway, 0.1 % at elo1`.
fn undecided_text(shares: &[(f64, f64); 3]) -> String {
    let [at0, half, at1] = shares.map(|(_, share)| format!("{:.1} %", 100.0 * share));
    format!("{at0} of tests at elo0, {half} halfway, {at1} at elo1")
}
