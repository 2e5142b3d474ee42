//! The flags of the commands that play games (`elo`, `match`,
//! `tournament`, `sprt`, `scale`, `tune`), declared once for their command
//! files and for run files (`arena run FILE.toml` reads them, `arena show
//! --config` writes them), which share them from here.

use anyhow::anyhow;
use clap::Args;
use model::tune::{DEFAULT_ALPHA, DEFAULT_GAMMA};
use model::{GamesSpec, Invalid, Spsa};
use openings::Book;
use serde::{Deserialize, Serialize};

use super::games::{PlayArgs, SourceArgs, resolve_engines};
use super::shared::{CliResult, SprtParams};
use crate::cli::settings::{as_text, at_least, checked, whole_pairs};
use crate::engine_io::engines::EngineSpec;
use crate::run::tune::ParamFlag;

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
    pub(super) rounds: usize,
    /// Games per pairing and pass: the first N/2 openings (after --seed's shuffle) instead of the whole set.
    #[serde(skip_serializing_if = "Option::is_none", deserialize_with = "checked::some_games")]
    #[arg(long, value_parser = whole_pairs)]
    pub(super) games: Option<usize>,
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
    pub(super) fn openings_per_round(&self, book: &Book, play: &PlayArgs) -> CliResult<usize> {
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
    pub(super) games: usize,
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
    #[arg(long, value_delimiter = ',', required = true, value_parser = super::shared::EngineName, hide_possible_values = true, add = clap_complete::ArgValueCompleter::new(super::complete::engines))]
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
    pub(super) gauntlet: Option<String>,
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
    pub(super) max_games: Option<usize>,
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
    pub(super) budgets: model::Budgets,
    /// Games at each budget: the same openings at every budget, interleaved so the curve fills in evenly.
    #[serde(default = "ScaleFlags::default_games", deserialize_with = "checked::games")]
    #[arg(long, default_value_t = ScaleFlags::default_games(), value_parser = whole_pairs)]
    pub(super) games: usize,
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

/// Engines A and B of a two-engine run: `--a` and `--b` by name, or
/// `--dev A --base B` (presets, engines or programs; with `--repo`, two
/// revisions of one repository), declared once for elo, match, sprt and
/// scale. `arena sprt` takes `--dev` more than once: a family of candidates
/// against the one base.
#[derive(Args, Debug)]
#[command(next_help_heading = "Engines")]
pub struct PairArgs {
    /// Engine A, the one being tested: a preset, an engines.toml name or a UCI program (a path, or a program on PATH).
    #[arg(long, required_unless_present_any = ["repo", "base"], conflicts_with_all = ["repo", "base", "dev"], value_parser = super::shared::EngineName, hide_possible_values = true, add = clap_complete::ArgValueCompleter::new(super::complete::engines))]
    pub(super) a: Option<String>,
    /// Engine B, the reference: a preset, an engines.toml name or a UCI program (a path, or a program on PATH).
    #[arg(long, required_unless_present_any = ["repo", "base"], conflicts_with_all = ["repo", "base", "dev"], value_parser = super::shared::EngineName, hide_possible_values = true, add = clap_complete::ArgValueCompleter::new(super::complete::engines))]
    pub(super) b: Option<String>,
    #[command(flatten)]
    pub(super) source: SourceArgs,
    /// The engine under test (engine A), as --a; with --repo a revision: a branch, tag or commit. arena sprt takes it more than once: a family of candidates, each against --base, stopped by one procedure that bounds the family-wise error.
    #[arg(long, value_name = "ENGINE|REV", requires = "base", add = clap_complete::ArgValueCompleter::new(super::complete::engines))]
    pub(super) dev: Vec<String>,
    /// The reference (engine B), as --b; with --repo a revision.
    #[arg(long, value_name = "ENGINE|REV", requires = "dev", add = clap_complete::ArgValueCompleter::new(super::complete::engines))]
    pub(super) base: Option<String>,
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
    pub(super) fn engines(&self, play: &PlayArgs, family: bool) -> CliResult<Vec<EngineSpec>> {
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
    pub(super) params: Vec<ParamFlag>,
    /// Games to play: one pair (θ+ against θ−, colours swapped) per iteration.
    #[serde(default = "TuneFlags::default_games", deserialize_with = "checked::games")]
    #[arg(long, default_value_t = TuneFlags::default_games(), value_parser = super::shared::whole_pairs)]
    pub(super) games: usize,
    /// Exponent α of the step size a_k = a / (A + k)^α, in (0, 1].
    #[serde(default = "TuneFlags::default_alpha", deserialize_with = "checked_exponent")]
    #[arg(long, default_value_t = DEFAULT_ALPHA, value_parser = exponent)]
    pub(super) alpha: f64,
    /// Exponent γ of the perturbation c_k = c / k^γ, in (0, 1].
    #[serde(default = "TuneFlags::default_gamma", deserialize_with = "checked_exponent")]
    #[arg(long, default_value_t = DEFAULT_GAMMA, value_parser = exponent)]
    pub(super) gamma: f64,
    /// Stability constant A of a_k, 0 or more (default: 10 % of the iterations).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "checked_stability")]
    #[arg(long = "big-a", value_parser = stability, allow_negative_numbers = true)]
    pub(super) big_a: Option<f64>,
    /// Seed of the perturbation signs.
    #[serde(default = "TuneFlags::default_seed")]
    #[arg(long, default_value_t = TuneFlags::default_seed())]
    pub(super) spsa_seed: u64,
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
