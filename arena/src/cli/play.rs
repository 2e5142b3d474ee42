//! `arena elo`, `match`, `tournament`, `sprt` and `scale`: build a run spec
//! from flags, check everything that can be checked before the first game,
//! store the run, play it, print the summary. `arena extend`: more budgets
//! for a scaling run, on the openings it already plays, planned after its
//! own pairs, so that a curve that needs a deeper search does not need its
//! cheaper budgets replayed.

use anyhow::anyhow;
use clap::Args;
use model::{GamesKind, GamesSpec, RunStatus, Spec, Test};
use serde::Serialize;

use openings::Book;

use super::common::open_db;
use super::games::{PlayArgs, SourceArgs, build_spec, open_book, resolve_engines, start};
use super::{CliResult, DbArg, SprtParams, at_least, outln, whole_pairs};
use crate::engine_io::engines::EngineSpec;
use crate::run::plan::{add_budgets, at_budget, first_pairing};

/// `arena elo`.
#[derive(Args, Debug, Serialize)]
#[serde(rename_all = "kebab-case")]
pub struct EloArgs {
    #[serde(skip)]
    #[command(flatten)]
    engines: PairArgs,
    #[serde(flatten)]
    #[command(flatten)]
    passes: PassArgs,
    #[serde(flatten)]
    #[command(flatten)]
    play: PlayArgs,
}

/// How much of the opening set `elo` and `tournament` play.
#[derive(Args, Debug, Serialize)]
#[serde(rename_all = "kebab-case")]
pub struct PassArgs {
    /// Passes through the opening set (each opening twice per pass and pairing, colours swapped).
    #[arg(long, default_value_t = 1, value_parser = at_least::<usize, 1>)]
    rounds: usize,
    /// Games per pairing and pass: the first N/2 openings (after --seed's shuffle) instead of the whole set.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[arg(long, value_parser = whole_pairs)]
    games: Option<usize>,
}

impl PassArgs {
    /// The passes of a stored run.
    fn of(spec: &GamesSpec) -> PassArgs {
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
#[derive(Args, Debug, Serialize)]
#[serde(rename_all = "kebab-case")]
pub struct MatchArgs {
    #[serde(skip)]
    #[command(flatten)]
    engines: PairArgs,
    /// Games to play, in whole pairs (each opening twice, colours swapped); under a deterministic limit at most two per opening of the book.
    #[arg(long, default_value_t = 100, value_parser = whole_pairs)]
    games: usize,
    #[serde(flatten)]
    #[command(flatten)]
    play: PlayArgs,
}

/// `arena tournament`.
#[derive(Args, Debug, Serialize)]
#[serde(rename_all = "kebab-case")]
pub struct TournamentArgs {
    /// Comma-separated engines: presets, engines.toml names or UCI programs (a path, or a program on PATH).
    #[serde(skip)]
    #[arg(long, value_delimiter = ',', required = true, value_parser = super::EngineName, hide_possible_values = true, add = clap_complete::ArgValueCompleter::new(super::complete::engines))]
    engines: Vec<String>,
    /// Gauntlet: this engine plays all others, who do not play each other.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[arg(long)]
    gauntlet: Option<String>,
    #[serde(flatten)]
    #[command(flatten)]
    passes: PassArgs,
    #[serde(flatten)]
    #[command(flatten)]
    play: PlayArgs,
}

/// `arena sprt`.
#[derive(Args, Debug, Serialize)]
#[serde(rename_all = "kebab-case")]
pub struct SprtArgs {
    #[serde(skip)]
    #[command(flatten)]
    engines: PairArgs,
    #[serde(flatten)]
    #[command(flatten)]
    sprt: SprtParams,
    /// Stop undecided after this many games ("inconclusive") [default: twice the games sprt-calc expects where the test is slowest, between elo0 and elo1; said when the run starts].
    #[serde(skip_serializing_if = "Option::is_none")]
    #[arg(long, help_heading = "SPRT", value_parser = whole_pairs)]
    max_games: Option<usize>,
    #[serde(flatten)]
    #[command(flatten)]
    play: PlayArgs,
}

impl EloArgs {
    /// The flags of a stored elo run.
    pub(super) fn of(spec: &GamesSpec) -> EloArgs {
        EloArgs { engines: PairArgs::of(spec), passes: PassArgs::of(spec), play: PlayArgs::of(spec) }
    }
}

impl MatchArgs {
    /// The flags of a stored match.
    pub(super) fn of(spec: &GamesSpec) -> MatchArgs {
        MatchArgs { engines: PairArgs::of(spec), games: 2 * spec.openings_per_round, play: PlayArgs::of(spec) }
    }
}

impl TournamentArgs {
    /// The flags of a stored tournament: a gauntlet when every pairing has
    /// the same first engine and not every pair of engines meets.
    pub(super) fn of(spec: &GamesSpec) -> TournamentArgs {
        let n = spec.engines.len();
        let round_robin = spec.pairings.len() == n * (n - 1) / 2;
        let hero = spec.pairings.first().map(|&(hero, _)| hero);
        let gauntlet = hero
            .filter(|&hero| !round_robin && spec.pairings.iter().all(|&(a, _)| a == hero))
            .map(|hero| spec.engines[hero].name.clone());
        let engines = spec.engines.iter().map(|e| e.name.clone()).collect();
        TournamentArgs { engines, gauntlet, passes: PassArgs::of(spec), play: PlayArgs::of(spec) }
    }
}

/// `arena scale`.
#[derive(Args, Debug, Serialize)]
#[serde(rename_all = "kebab-case")]
pub struct ScaleArgs {
    #[serde(skip)]
    #[command(flatten)]
    engines: PairArgs,
    /// Budgets, cheapest first, comma-separated: nodes=1000,nodes=4000 or depth=6,depth=8 or 1+0.01,4+0.04 (a modifier such as ,timemargin=50 belongs to the budget before it).
    #[serde(serialize_with = "super::games::as_text")]
    #[arg(long, required = true)]
    budgets: model::Budgets,
    /// Games at each budget: the same openings at every budget, interleaved so the curve fills in evenly.
    #[arg(long, default_value_t = 200, value_parser = whole_pairs)]
    games: usize,
    #[serde(flatten)]
    #[command(flatten)]
    play: PlayArgs,
}

impl ScaleArgs {
    /// The flags of a stored scaling run.
    pub(super) fn of(spec: &GamesSpec, budgets: &model::Budgets) -> ScaleArgs {
        let budgets = budgets.clone();
        // The budgets are the time controls; the spec's own is the first of them.
        let mut play = PlayArgs::of(spec);
        play.tc = None;
        ScaleArgs { engines: PairArgs::of(spec), budgets, games: 2 * spec.openings_per_round, play }
    }
}

/// `arena scale`: A and B copied once per budget (`A@BUDGET`, each copy
/// under its budget), one pairing per budget, the same openings for all.
pub(super) async fn scale(args: ScaleArgs) -> CliResult {
    let budgets = args.budgets.0;
    // A run file written before run files left it out names the first budget.
    if let Some(tc) = args.play.tc.as_ref().filter(|tc| **tc != budgets[0]) {
        return Err(anyhow!(
            "arena scale takes no --tc ('{tc}'): each budget is its own time control, e.g. --budgets 1+0.01,4+0.04"
        ));
    }
    let book = open_book(&args.play)?;
    let base = args.engines.engines(&args.play)?;
    let engines: Vec<EngineSpec> = budgets.iter().flat_map(|budget| at_budget(&base, budget)).collect();
    let pairings = (0..budgets.len()).map(|i| (2 * i, 2 * i + 1)).collect();
    let tc = budgets[0].clone();
    let kind = GamesKind::Scale(model::Budgets(budgets));
    let mut spec = build_spec(&args.play, kind, engines, pairings, args.games.div_ceil(2), 1)?;
    spec.tc = tc;
    start(&args.play, spec, &book).await
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

impl SprtArgs {
    /// The flags of a stored SPRT.
    pub(super) fn of(spec: &GamesSpec, test: &Test) -> SprtArgs {
        let sprt = SprtParams::of(test);
        let max_games = Some(2 * spec.openings_per_round);
        SprtArgs { engines: PairArgs::of(spec), sprt, max_games, play: PlayArgs::of(spec) }
    }
}

/// Engines A and B of a two-engine run: `--a` and `--b` by name, or two
/// revisions of one repository (`--repo R --dev REV --base REV`), declared
/// once for elo, match, sprt and scale.
#[derive(Args, Debug)]
#[command(next_help_heading = "Engines")]
pub struct PairArgs {
    /// Engine A, the one being tested: a preset, an engines.toml name or a UCI program (a path, or a program on PATH).
    #[arg(long, required_unless_present = "repo", conflicts_with = "repo", value_parser = super::EngineName, hide_possible_values = true, add = clap_complete::ArgValueCompleter::new(super::complete::engines))]
    a: Option<String>,
    /// Engine B, the reference: a preset, an engines.toml name or a UCI program (a path, or a program on PATH).
    #[arg(long, required_unless_present = "repo", conflicts_with = "repo", value_parser = super::EngineName, hide_possible_values = true, add = clap_complete::ArgValueCompleter::new(super::complete::engines))]
    b: Option<String>,
    #[command(flatten)]
    source: SourceArgs,
    /// With --repo: the revision under test (engine A): a branch, tag or commit.
    #[arg(long, value_name = "REV", requires = "repo")]
    dev: Option<String>,
    /// With --repo: the reference revision (engine B).
    #[arg(long, value_name = "REV", requires = "repo")]
    base: Option<String>,
}

impl PairArgs {
    /// A and B of a stored run (a scaling run's copies `A@BUDGET` as `A`).
    fn of(spec: &GamesSpec) -> PairArgs {
        let [a, b] = engine_pair(spec);
        let base = |name: &str| Some(model::base_name(name).to_string());
        PairArgs { a: base(&a), b: base(&b), source: SourceArgs::default(), dev: None, base: None }
    }

    /// The two engines: by name from the registry, or built from `--repo`.
    fn engines(&self, play: &PlayArgs) -> CliResult<Vec<EngineSpec>> {
        let Some(repo) = &self.source.repo else {
            let names = [self.a.as_deref().unwrap_or_default(), self.b.as_deref().unwrap_or_default()];
            return resolve_engines(play, &names);
        };
        let (Some(dev), Some(base)) = (&self.dev, &self.base) else {
            return Err(anyhow!("--repo needs --dev REV and --base REV (the revision under test and the reference)"));
        };
        if dev == base {
            return Err(anyhow!("--dev and --base are both '{dev}': name two revisions"));
        }
        Ok(vec![self.source.engine(repo, dev)?, self.source.engine(repo, base)?])
    }
}

/// The names of a stored run's engines A and B.
fn engine_pair(spec: &GamesSpec) -> [String; 2] {
    [0, 1].map(|i| spec.engines.get(i).map(|e| e.name.clone()).unwrap_or_default())
}

/// `arena elo`.
pub(super) async fn elo(args: EloArgs) -> CliResult {
    let book = open_book(&args.play)?;
    let per_round = args.passes.openings_per_round(&book, &args.play)?;
    let engines = args.engines.engines(&args.play)?;
    let spec = build_spec(&args.play, GamesKind::Elo, engines, vec![(0, 1)], per_round, args.passes.rounds)?;
    start(&args.play, spec, &book).await
}

/// Openings a pass through `book` plays, refused for a book too large to
/// play whole (double Fischer random's 921,600 positions).
fn whole_book(book: &Book, play: &PlayArgs) -> CliResult<usize> {
    const LARGEST: usize = 100_000;
    match book.len() {
        n if n > LARGEST => Err(anyhow!(
            "--openings {} holds {n} positions, too many to play each twice: give --games N to play N games from it",
            play.openings()
        )),
        n => Ok(n),
    }
}

/// `arena match`: without `--openings`, a large shuffled book, said when the run starts.
pub(super) async fn match_(args: MatchArgs) -> CliResult {
    let mut play = args.play;
    play.large_book_unless_given();
    let book = open_book(&play)?;
    let pairs = args.games.div_ceil(2);
    let engines = args.engines.engines(&play)?;
    let spec = build_spec(&play, GamesKind::Match, engines, vec![(0, 1)], pairs, 1)?;
    start(&play, spec, &book).await
}

/// `arena tournament`.
pub(super) async fn tournament(args: TournamentArgs) -> CliResult {
    if args.engines.len() < 2 {
        return Err(anyhow!("--engines needs at least two names, comma-separated"));
    }
    let names: Vec<&str> = args.engines.iter().map(String::as_str).collect();
    let pairings: Vec<(usize, usize)> = match &args.gauntlet {
        Some(hero) => {
            let h = names
                .iter()
                .position(|n| n == hero)
                .ok_or_else(|| anyhow!("--gauntlet '{hero}' is not among --engines {}", names.join(",")))?;
            (0..names.len()).filter(|&i| i != h).map(|i| (h, i)).collect()
        }
        None => (0..names.len()).flat_map(|i| (i + 1..names.len()).map(move |j| (i, j))).collect(),
    };
    let book = open_book(&args.play)?;
    let per_round = args.passes.openings_per_round(&book, &args.play)?;
    let engines = resolve_engines(&args.play, &names)?;
    let spec = build_spec(&args.play, GamesKind::Tournament, engines, pairings, per_round, args.passes.rounds)?;
    start(&args.play, spec, &book).await
}

/// `arena sprt`: without `--openings`, a large shuffled book; without
/// `--max-games`, a cap from the bounds ([`cap_of`]); both said.
pub(super) async fn sprt(args: SprtArgs) -> CliResult {
    let test = args.sprt.test_or_default()?;
    let mut play = args.play;
    let max_games = match args.max_games {
        Some(games) => games,
        None => {
            let (cap, expected) = cap_of(&test);
            play.say_cap_at_start(format!(
                "at most {cap} games: twice the {expected:.0} sprt-calc expects at worst (--max-games N to choose)"
            ));
            cap
        }
    };
    play.large_book_unless_given();
    let book = open_book(&play)?;
    let engines = args.engines.engines(&play)?;
    let spec = build_spec(&play, GamesKind::Sprt(test), engines, vec![(0, 1)], max_games.div_ceil(2), 1)?;
    start(&play, spec, &book).await
}

/// An SPRT's cap on games without `--max-games`: twice the expected
/// length where the test is slowest (the true Elo between the bounds, by
/// `sprt-calc`'s approximation at a draw ratio of ½), in whole pairs; and
/// that expectation.
fn cap_of(test: &model::Test) -> (usize, f64) {
    let (low, high) = (test.elo0(), test.elo1());
    let expected = (0..=40)
        .map(|step| low + (high - low) * f64::from(step) / 40.0)
        .map(|elo| reports::stats::sprt::operating_characteristic(test, 0.5, elo).1)
        .fold(0.0, f64::max);
    let games = (2.0 * expected).ceil().clamp(2.0, 10_000_000.0) as usize;
    (games + games % 2, expected)
}
