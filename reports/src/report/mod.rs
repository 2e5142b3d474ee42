//! The report of a run (`arena report`): everything a user looks at after an
//! overnight run, built once from stored data into a [`Report`] and then
//! rendered as text, markdown, HTML (with inline SVG plots) or JSON. Every
//! format renders the same [`Report`], so their numbers agree by
//! construction.
//!
//! JSON schema (version [`REPORT_VERSION`], stable; `null` marks a value that
//! does not exist, such as an average without any reported depth):
//! - `version`
//! - `header`: `run`, `kind`, `status`, `engines` (`name`, `kind`, `options`
//!   `[[name, value]]`, `time_control` or `null`), `time_control`, `openings`,
//!   `games_planned`, `games_played`, `created` and `finished` (UTC,
//!   `YYYY-MM-DD HH:MM:SS`, `finished` may be `null`), `machine`
//! - `pairings[]`: `a`, `b`, `statistics` (the object of
//!   [`crate::summary`], version 1), `colours` (`a_white` and `a_black`, each
//!   `wins`, `draws`, `losses` of A and `score`), `openings[]` (`pair`,
//!   `opening`, `a_white`, `a_black` (A's points 1, 0.5 or 0) and `score`),
//!   `elo_progress[]` (`games`, `elo`, `low`, `high`, pentanomial),
//!   `llr_progress[]` (`games`, `llr`; SPRT runs only)
//! - `engines[]`: `name`, `games`, `points`, `moves`, `avg_depth`,
//!   `avg_nodes`, `node_limit` (its `nodes=` limit or `null`),
//!   `node_limit_kept` (whether `avg_nodes` kept it, or `null`), `avg_nps`,
//!   `avg_time_ms`, `terminations[]` (`termination`, `won`, `drawn`, `lost`)
//! - `lengths[]`: `from_plies`, `to_plies` (inclusive), `games`
//! - `tournament`: `null`, or `engines`, `crosstable` (`[i][j]`: `null` or
//!   `{points, games}` of engine i against j), `anchor`, `ratings[]` (`name`,
//!   `elo`, `elo_ci95`, `games`, `points`)
//! - `tune` (tuning runs only; absent otherwise): `iterations_planned`,
//!   `iterations_played`, `alpha`, `gamma`, `big_a`, `params[]` (`name`,
//!   `min`, `max`, `start`, `value` (θ now), `option_value` (what the engine
//!   is given), `integer`, `c_end`, `r_end`), `trajectory[]` (`iterations`,
//!   `theta[]` in the order of `params`; from 0 iterations, at most 201 points)

mod document;
mod family;
mod html;
mod machines;
mod scale;
mod suite;
mod svg;
mod text;
mod tune;

use std::collections::BTreeMap;

use model::{
    EngineMoveTotals, GameCount, PairCount, PairOutcome, ProgressCount, PvIssueCount, RunKind, RunStatus, Spsa,
    TuneIteration,
};
use model::{GameResult, Latencies, MachineRecord, TERMINATIONS, Tally, Termination};
use serde::Serialize;

use crate::stats::Counts;
use crate::stats::ratings::{DEFAULT_VIRTUAL_DRAWS, Encounter, Rating, bradley_terry};
use crate::stats::sprt::{Test, Verdict};
use crate::summary::Statistics;

pub use document::{Align, Brief, Document, Layout, Table};
pub use family::{Candidate, FamilyInputs, FamilySection, PROCEDURE};
pub use html::{HTML_STYLE, render_html, render_html_body};
pub use machines::{LostRow, MachineInputs, MachineRow, MachineSection, excluded as machines_left_out};
pub use scale::{Budget, ScalePoint, ScaleSection};
pub use suite::{SUITE_REPORT_VERSION, SuiteHeader, SuiteInputs, SuiteReport, SuiteRow};
pub use svg::escape as html_escape;
pub use text::{render_markdown, render_markdown_with_plots, render_text};
pub use tune::{ThetaPoint, TuneSection, TunedParam};

/// Version of the JSON schema.
pub const REPORT_VERSION: u32 = 1;

/// Width of a bin of the game-length histogram, in plies.
pub const LENGTH_BIN_PLIES: i64 = 20;

/// Most points in a progress series (evenly spaced over the pairs).
const PROGRESS_POINTS: usize = 200;

/// An engine as the run knows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EngineHeader {
    /// Name.
    pub name: String,
    /// What it is: `preset fhr` or the command line.
    pub kind: String,
    /// UCI options set, in order.
    pub options: Vec<(String, String)>,
    /// Its own time control, when it differs from the run's.
    pub time_control: Option<String>,
    /// Built from source: the full commit id the run means.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// The bench signature every machine's binary must print.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bench: Option<u64>,
    /// What played it on each machine (executable, `id name`, bench), with
    /// any change accepted during the run.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub played_by: Vec<model::EngineIdentity>,
}

/// Facts about the run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Header {
    /// Run id.
    pub run: i64,
    /// What the run plays.
    pub kind: RunKind,
    /// Where it stands.
    pub status: RunStatus,
    /// The engines.
    pub engines: Vec<EngineHeader>,
    /// Time control.
    pub time_control: String,
    /// Opening set.
    pub openings: String,
    /// Games planned.
    pub games_planned: u64,
    /// Games stored.
    pub games_played: u64,
    /// Start (UTC).
    pub created: String,
    /// End (UTC), if finished.
    pub finished: Option<String>,
    /// Machine that created the run.
    pub machine: String,
    /// Finished pairs that replay an opening of their pairing under a
    /// deterministic limit (the same games again), left out of every count
    /// by the caller.
    #[serde(skip_serializing_if = "is_zero")]
    pub replayed_pairs: u64,
    /// Imported games not played as pairs (`arena import`): the run's
    /// pairs are not pairs of one opening, so no pentanomial is given.
    #[serde(skip_serializing_if = "is_zero")]
    pub unpaired_games: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// What a report is built from: the header and the stored data.
#[derive(Clone, Debug)]
pub struct Inputs<'a> {
    /// Facts about the run.
    pub header: Header,
    /// Engine pairs (A, B) in the run's order.
    pub pairings: Vec<(String, String)>,
    /// The run's SPRT, with the verdict stored at its end (inconclusive at the game limit).
    pub sprt: Option<(Test, Option<Verdict>)>,
    /// Finished pairs counted alike (every count of the report).
    pub counts: &'a [PairCount],
    /// Finished pairs in finishing order (the openings and the curves; empty
    /// for the short view). With `progress`, only the first few in plan
    /// order, for the openings table.
    pub pairs: &'a [PairOutcome],
    /// A large run's finished pairs by block of finishing order: the curves
    /// are drawn from these, and `pairs` lists only the openings table's.
    pub progress: Option<&'a [ProgressCount]>,
    /// The games of the finished pairs, counted alike.
    pub games: &'a [GameCount],
    /// Per-engine move totals.
    pub move_totals: &'a [EngineMoveTotals],
    /// Each engine's `nodes=` limit, in the order of `header.engines`
    /// (`None` for any other time control): its mean nodes per move are
    /// judged against it.
    pub node_limits: Vec<Option<u64>>,
    /// Anchor of tournament ratings (the first engine when `None` or unknown).
    pub anchor: Option<String>,
    /// A tuning run's SPSA settings and stored iterations.
    pub tune: Option<(&'a Spsa, &'a [TuneIteration])>,
    /// A scaling run's engines A and B (as named on the command line) and
    /// its budgets, pairing i at budget i.
    pub scale: Option<(&'a str, &'a str, &'a [Budget])>,
    /// Mate scores whose PV did not back them, per engine and kind.
    pub pv_issues: &'a [PvIssueCount],
    /// The machines that played, and whether the games of those set aside count.
    pub machines: Option<MachineInputs<'a>>,
    /// A family of SPRTs (several candidates against one base): each
    /// pairing is read under the test the family gave it, and `sprt` is
    /// the family's.
    pub family: Option<FamilyInputs>,
}

/// One engine's mate scores of one kind that their PV did not back.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MatePvRow {
    /// The engine.
    pub engine: String,
    /// `false-mate` or `illegal-pv-move`.
    pub problem: &'static str,
    /// How many of its moves.
    pub moves: u64,
    /// The first: `pair 3 game 2, ply 17: mate 1 claimed, but …`.
    pub first: String,
}

/// A's results with one colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct ColourResult {
    /// Games A won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games A lost.
    pub losses: u64,
    /// A's mean score (0.5 without games).
    pub score: f64,
}

/// A's results by colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Colours {
    /// A with White.
    pub a_white: ColourResult,
    /// A with Black.
    pub a_black: ColourResult,
}

/// One pair (one opening, both colours) in the FHR paper's Table 2 layout.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OpeningRow {
    /// Pair number in the plan (1-based).
    pub pair: i64,
    /// Opening name.
    pub opening: String,
    /// A's points with White.
    pub a_white: f64,
    /// A's points with Black.
    pub a_black: f64,
    /// A's points in the pair.
    pub score: f64,
}

/// Elo after a number of games.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EloPoint {
    /// Games counted.
    pub games: u64,
    /// Elo (pentanomial).
    pub elo: f64,
    /// Lower end of the 95 % interval.
    pub low: f64,
    /// Upper end.
    pub high: f64,
}

/// The SPRT's LLR after a number of games.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct LlrPoint {
    /// Games counted.
    pub games: u64,
    /// LLR.
    pub llr: f64,
}

/// One pairing's results.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairingReport {
    /// Engine A.
    pub a: String,
    /// Engine B.
    pub b: String,
    /// Elo, intervals, tests, SPRT.
    pub statistics: Statistics,
    /// By colour.
    pub colours: Colours,
    /// Per pair, in plan order.
    pub openings: Vec<OpeningRow>,
    /// When `openings` are only the first pairs in plan order (a large
    /// run): how many pairs the pairing has.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub openings_of: Option<u64>,
    /// Elo with its interval as pairs finished.
    pub elo_progress: Vec<EloPoint>,
    /// LLR as pairs finished (SPRT only).
    pub llr_progress: Vec<LlrPoint>,
}

/// How often an engine's games ended one way.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TerminationCount {
    /// [`Termination::as_str`].
    pub termination: &'static str,
    /// Games the engine won this way.
    pub won: u64,
    /// Games drawn this way.
    pub drawn: u64,
    /// Games the engine lost this way.
    pub lost: u64,
}

/// One engine over the whole run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EngineReport {
    /// Name.
    pub name: String,
    /// Games played.
    pub games: u64,
    /// Points.
    pub points: f64,
    /// Moves played.
    pub moves: u64,
    /// Mean reported depth per move.
    pub avg_depth: Option<f64>,
    /// Mean reported nodes per move.
    pub avg_nodes: Option<f64>,
    /// Its `nodes=` limit, if it played under one.
    pub node_limit: Option<u64>,
    /// Whether its mean nodes per move kept that limit
    /// ([`model::node_limit_kept`]); `None` without a limit or without
    /// reported nodes.
    pub node_limit_kept: Option<bool>,
    /// Mean reported nps.
    pub avg_nps: Option<f64>,
    /// Mean time per move, ms.
    pub avg_time_ms: Option<f64>,
    /// Median of its moves' overhead (wall time beyond its own `info time`), ms.
    pub overhead_p50_ms: Option<u64>,
    /// 99th percentile of its moves' overhead, ms.
    pub overhead_p99_ms: Option<u64>,
    /// Terminations that occurred in its games.
    pub terminations: Vec<TerminationCount>,
}

/// A bin of the game-length histogram.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct LengthBin {
    /// First length in the bin, plies.
    pub from_plies: i64,
    /// Last length in the bin, plies.
    pub to_plies: i64,
    /// Games.
    pub games: u64,
}

/// Points and games of one engine against another.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Cell {
    /// Points of the row engine.
    pub points: f64,
    /// Games.
    pub games: u64,
}

/// Crosstable and ratings of a run with more than two engines.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Tournament {
    /// Engine names, the crosstable's rows and columns.
    pub engines: Vec<String>,
    /// `[i][j]`: engine i against engine j.
    pub crosstable: Vec<Vec<Option<Cell>>>,
    /// The engine rated 0.
    pub anchor: String,
    /// Bradley–Terry ratings relative to the anchor, best first.
    pub ratings: Vec<Rating>,
}

/// The whole report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// [`REPORT_VERSION`].
    pub version: u32,
    /// Facts about the run.
    pub header: Header,
    /// Per pairing.
    pub pairings: Vec<PairingReport>,
    /// Per engine.
    pub engines: Vec<EngineReport>,
    /// Game lengths.
    pub lengths: Vec<LengthBin>,
    /// For more than two engines.
    pub tournament: Option<Tournament>,
    /// For tuning runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tune: Option<Box<TuneSection>>,
    /// For scaling runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scale: Option<Box<ScaleSection>>,
    /// Mate scores whose PV did not back them (absent when there were none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub mate_pvs: Vec<MatePvRow>,
    /// The machines that played (absent when no game names its machine).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub machines: Option<Box<MachineSection>>,
    /// A family of SPRTs: the procedure and each candidate's state.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub family: Option<Box<FamilySection>>,
}

impl Report {
    /// Builds the report of a run from its stored data.
    pub fn build(inputs: Inputs<'_>) -> Report {
        // The games of machines set aside are left out of every count, unless asked for.
        let excluded = inputs.machines.map(machines::excluded).unwrap_or_default();
        let counted = |machine: &String| !excluded.contains(machine);
        let pairs: Vec<PairOutcome> = inputs.pairs.iter().filter(|p| counted(&p.machine)).cloned().collect();
        // By reference: a million-game run has tens of thousands of block rows.
        let progress: Option<Vec<&ProgressCount>> =
            inputs.progress.map(|rows| rows.iter().filter(|r| counted(&r.count.machine)).collect());
        let counts: Vec<PairCount> = inputs.counts.iter().filter(|c| counted(&c.machine)).cloned().collect();
        let games: Vec<GameCount> = inputs.games.iter().filter(|g| counted(&g.machine)).cloned().collect();
        let family_tests = inputs.family.as_ref().map(FamilyInputs::tests);
        let pairings: Vec<PairingReport> = inputs
            .pairings
            .iter()
            .enumerate()
            .map(|(index, (a, b))| {
                let sprt = match &family_tests {
                    Some(tests) => tests.get(index).copied(),
                    None => inputs.sprt.filter(|_| index == 0),
                };
                pairing((a, b), &counts, &pairs, progress.as_deref(), sprt, inputs.header.unpaired_games == 0)
            })
            .collect();
        // An SPRT stopped by hand before a bound: said so, with what it allows.
        let mut pairings = pairings;
        if inputs.header.status == model::RunStatus::Stopped {
            for pairing in &mut pairings {
                pairing.statistics.stopped_by_hand(inputs.header.run);
            }
        }
        let names: Vec<String> = inputs.header.engines.iter().map(|e| e.name.clone()).collect();
        let records = inputs.machines.map_or(&[][..], |m| m.records);
        let engines = names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let limit = inputs.node_limits.get(i).copied().flatten();
                engine(name, limit, &games, inputs.move_totals, records)
            })
            .collect();
        // A scaling run's engine copies play only their own budget: no round robin to rate.
        // Nor a family's candidates, who play only the base: its section says how each stands.
        let tournament = (names.len() > 2 && inputs.scale.is_none() && inputs.family.is_none())
            .then(|| tournament(&names, &counts, inputs.anchor.as_deref()));
        let family = inputs.family.as_ref().map(|f| Box::new(FamilySection::build(f, &pairings)));
        let scale = inputs.scale.map(|(a, b, budgets)| Box::new(ScaleSection::build(a, b, budgets, &pairings)));
        Report {
            version: REPORT_VERSION,
            header: inputs.header,
            pairings,
            engines,
            lengths: lengths(&games),
            tournament,
            tune: inputs.tune.map(|(spsa, iterations)| Box::new(TuneSection::build(spsa, iterations))),
            scale,
            mate_pvs: inputs
                .pv_issues
                .iter()
                .map(|c| MatePvRow {
                    engine: c.engine.clone(),
                    problem: c.kind.as_str(),
                    moves: c.count,
                    first: format!(
                        "pair {} game {}, ply {}: {}",
                        c.pair_index + 1,
                        c.game_in_pair + 1,
                        c.ply,
                        c.detail
                    ),
                })
                .collect(),
            machines: inputs.machines.and_then(|m| MachineSection::build(m, inputs.counts)).map(Box::new),
            family,
        }
    }

    /// The report as pretty-printed JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }
}

/// A's points in a game given White's result and whether A had White.
fn points_of(result: GameResult, a_is_white: bool) -> f64 {
    if a_is_white { result.white_score() } else { 1.0 - result.white_score() }
}

/// Whether a pair of engine_a and engine_b is one of A against B: `Some(true)`
/// when A is engine_a (White in game 0), `Some(false)` when A is engine_b.
fn a_first(engine_a: &str, engine_b: &str, a: &str, b: &str) -> Option<bool> {
    match (engine_a == a && engine_b == b, engine_a == b && engine_b == a) {
        (true, _) => Some(true),
        (_, true) => Some(false),
        _ => None,
    }
}

/// A's results with White and with Black in a pair's two games.
fn a_results(results: [GameResult; 2], a_first: bool) -> (GameResult, GameResult) {
    // Game 0 has engine_a as White: A is White there when A is engine_a.
    if a_first { (results[0], results[1]) } else { (results[1], results[0]) }
}

/// A against B: the counts from `counts`; the openings from `pairs`, and the
/// curves from `progress` when given, else from `pairs` in finishing order
/// (none in the short view).
fn pairing(
    (a, b): (&str, &str),
    counts: &[PairCount],
    pairs: &[PairOutcome],
    progress: Option<&[&ProgressCount]>,
    sprt: Option<(Test, Option<Verdict>)>,
    paired: bool,
) -> PairingReport {
    let mut tally = Tally::default();
    let mut colours = Colours::default();
    for count in counts {
        let Some(a_first) = a_first(&count.engine_a, &count.engine_b, a, b) else { continue };
        let (a_white_result, a_black_result) = a_results(count.results, a_first);
        tally.add_pairs(a_white_result, a_black_result, count.pairs);
        let points = [points_of(a_white_result, true), points_of(a_black_result, false)];
        for (side, points) in [(&mut colours.a_white, points[0]), (&mut colours.a_black, points[1])] {
            match points {
                p if p > 0.75 => side.wins += count.pairs,
                p if p < 0.25 => side.losses += count.pairs,
                _ => side.draws += count.pairs,
            }
        }
    }
    let relevant: Vec<(&PairOutcome, bool)> =
        pairs.iter().filter_map(|p| Some((p, a_first(&p.engine_a, &p.engine_b, a, b)?))).collect();
    let mut openings: Vec<OpeningRow> = relevant
        .iter()
        .map(|&(pair, a_first)| {
            let (a_white_result, a_black_result) = a_results(pair.results, a_first);
            let white_points = points_of(a_white_result, true);
            let black_points = points_of(a_black_result, false);
            OpeningRow {
                pair: pair.index + 1,
                opening: pair.opening_name.clone(),
                a_white: white_points,
                a_black: black_points,
                score: white_points + black_points,
            }
        })
        .collect();
    // The points of the curves: the counts after each pair, or after each block.
    let steps: Vec<Tally> = match progress {
        None => {
            let mut so_far = Tally::default();
            relevant
                .iter()
                .map(|&(pair, a_first)| {
                    let (a_white_result, a_black_result) = a_results(pair.results, a_first);
                    so_far.add_pair(a_white_result, a_black_result);
                    so_far
                })
                .collect()
        }
        Some(rows) => block_steps(rows, a, b),
    };
    let (elo_progress, llr_progress) = curves(&steps, sprt.as_ref().map(|(test, _)| test));
    let openings_of = progress.map(|_| tally.pentanomial.iter().sum::<u64>());
    for side in [&mut colours.a_white, &mut colours.a_black] {
        let games = side.wins + side.draws + side.losses;
        side.score = if games == 0 { 0.5 } else { (side.wins as f64 + side.draws as f64 / 2.0) / games as f64 };
    }
    openings.sort_by_key(|row| row.pair);
    let statistics = Statistics::new(
        Some((tally.wins, tally.draws, tally.losses)),
        paired.then_some(tally.pentanomial),
        sprt.map(|(test, _)| test),
        sprt.and_then(|(_, verdict)| verdict.filter(|v| *v == Verdict::Inconclusive)),
    );
    PairingReport {
        a: a.to_string(),
        b: b.to_string(),
        statistics,
        colours,
        openings,
        openings_of,
        elo_progress,
        llr_progress,
    }
}

/// A against B's counts after each block of `rows` in which they played.
fn block_steps(rows: &[&ProgressCount], a: &str, b: &str) -> Vec<Tally> {
    let mut steps: Vec<Tally> = Vec::new();
    let mut so_far = Tally::default();
    let mut current: Option<i64> = None;
    for row in rows {
        let count = &row.count;
        let Some(a_first) = a_first(&count.engine_a, &count.engine_b, a, b) else { continue };
        if current.is_some_and(|block| block != row.block) {
            steps.push(so_far);
        }
        let (a_white_result, a_black_result) = a_results(count.results, a_first);
        so_far.add_pairs(a_white_result, a_black_result, count.pairs);
        current = Some(row.block);
    }
    if current.is_some() {
        steps.push(so_far);
    }
    steps
}

/// The Elo curve and, with an SPRT, the LLR curve through at most
/// [`PROGRESS_POINTS`] of `steps` (every stride-th and the last). The LLR
/// is computed from the counts, as the SPRT's verdict is: no stored figure
/// that a worker wrote is drawn.
fn curves(steps: &[Tally], sprt: Option<&Test>) -> (Vec<EloPoint>, Vec<LlrPoint>) {
    let mut elo_progress = Vec::new();
    let mut llr_progress = Vec::new();
    let stride = steps.len().div_ceil(PROGRESS_POINTS).max(1);
    for (k, so_far) in steps.iter().enumerate() {
        if (k + 1) % stride != 0 && k + 1 != steps.len() {
            continue;
        }
        // A sample without a two-sided interval (too few pairs, or every
        // pair won or lost) is left out of the curve.
        if let Some((elo, [low, high])) =
            crate::stats::answer::Answer::of(&Counts::Pentanomial(so_far.pentanomial)).and_then(|a| a.point())
        {
            elo_progress.push(EloPoint { games: so_far.games(), elo, low, high });
        }
        if let Some(test) = sprt {
            let llr = crate::stats::sprt::llr_of_tally(test, so_far);
            llr_progress.push(LlrPoint { games: so_far.games(), llr });
        }
    }
    (elo_progress, llr_progress)
}

fn engine(
    name: &str,
    node_limit: Option<u64>,
    games: &[GameCount],
    totals: &[EngineMoveTotals],
    machines: &[MachineRecord],
) -> EngineReport {
    let mut overheads = Latencies::default();
    for (_, latencies) in machines.iter().flat_map(|m| &m.overheads).filter(|(engine, _)| engine == name) {
        overheads.merge(latencies);
    }
    // By the ending's place in `Termination::ALL`: the report's order.
    let mut by_termination: BTreeMap<usize, [u64; 3]> = BTreeMap::new();
    let (mut played, mut points) = (0u64, 0.0f64);
    for game in games.iter().filter(|g| g.white == name || g.black == name) {
        let score = points_of(game.result, game.white == name);
        played += game.games;
        points += score * game.games as f64;
        let slot = if score > 0.75 {
            0
        } else if score < 0.25 {
            2
        } else {
            1
        };
        let kind = game.termination as usize;
        by_termination.entry(kind).or_default()[slot] += game.games;
    }
    let total = totals.iter().find(|t| t.engine == name).cloned().unwrap_or_default();
    let mean = |sum: i64, count: i64| (count > 0).then(|| sum as f64 / count as f64);
    let avg_nodes = mean(total.nodes_sum, total.nodes_moves);
    EngineReport {
        name: name.to_string(),
        games: played,
        points,
        moves: u64::try_from(total.moves).unwrap_or(0),
        avg_depth: mean(total.depth_sum, total.depth_moves),
        avg_nodes,
        node_limit,
        node_limit_kept: node_limit
            .zip(avg_nodes)
            .map(|(limit, nodes)| model::node_limit_kept(limit, nodes.round() as u64)),
        avg_nps: mean(total.nps_sum, total.nps_moves),
        avg_time_ms: mean(total.time_ms, total.moves),
        overhead_p50_ms: overheads.quantile(0.5),
        overhead_p99_ms: overheads.quantile(0.99),
        terminations: by_termination
            .into_iter()
            .map(|(kind, [won, drawn, lost])| TerminationCount {
                termination: Termination::as_str(TERMINATIONS[kind]),
                won,
                drawn,
                lost,
            })
            .collect(),
    }
}

fn lengths(games: &[GameCount]) -> Vec<LengthBin> {
    let Some(longest) = games.iter().map(|g| g.plies.max(0)).max() else { return Vec::new() };
    let mut bins: Vec<LengthBin> = (0..=longest / LENGTH_BIN_PLIES)
        .map(|i| LengthBin { from_plies: i * LENGTH_BIN_PLIES, to_plies: (i + 1) * LENGTH_BIN_PLIES - 1, games: 0 })
        .collect();
    for game in games {
        bins[(game.plies.max(0) / LENGTH_BIN_PLIES) as usize].games += game.games;
    }
    bins
}

/// The crosstable and ratings, from the finished pairs: the counts every
/// other statistic of the report uses, and what both its full and its short
/// view (`arena show`) have.
fn tournament(names: &[String], counts: &[PairCount], anchor: Option<&str>) -> Tournament {
    let n = names.len();
    let mut crosstable: Vec<Vec<Option<Cell>>> = vec![vec![None; n]; n];
    let index = |name: &str| names.iter().position(|n| n == name);
    let games = counts.iter().flat_map(|count| {
        [
            (&count.engine_a, &count.engine_b, count.results[0], count.pairs),
            (&count.engine_b, &count.engine_a, count.results[1], count.pairs),
        ]
    });
    for (white, black, result, n) in games {
        let (Some(w), Some(b)) = (index(white), index(black)) else { continue };
        let white_points = result.white_score();
        for (row, col, points) in [(w, b, white_points), (b, w, 1.0 - white_points)] {
            let cell = crosstable[row][col].get_or_insert(Cell { points: 0.0, games: 0 });
            cell.points += n as f64 * points;
            cell.games += n;
        }
    }
    let encounters: Vec<Encounter> = crosstable
        .iter()
        .enumerate()
        .flat_map(|(i, row)| {
            row.iter().enumerate().skip(i + 1).filter_map(move |(j, cell)| {
                cell.map(|c| Encounter { first: i, second: j, games: c.games, points: c.points })
            })
        })
        .collect();
    let anchor_index = anchor.and_then(index).unwrap_or(0);
    let mut ratings = bradley_terry(names, &encounters, anchor_index, DEFAULT_VIRTUAL_DRAWS);
    ratings.sort_by(|x, y| y.elo.unwrap_or(f64::MIN).total_cmp(&x.elo.unwrap_or(f64::MIN)));
    Tournament { engines: names.to_vec(), crosstable, anchor: names[anchor_index].clone(), ratings }
}

/// UTC `YYYY-MM-DD HH:MM:SS` of Unix milliseconds (`????-??-?? ??:??:??`
/// beyond chrono's range of years, ±262,000).
pub fn utc_timestamp(unix_ms: i64) -> String {
    match chrono::DateTime::from_timestamp_millis(unix_ms) {
        Some(time) => time.format("%Y-%m-%d %H:%M:%S").to_string(),
        None => "????-??-?? ??:??:??".to_string(),
    }
}

#[cfg(test)]
mod tests;
