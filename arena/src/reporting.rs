//! A stored run's report: the one path from the database to `arena
//! report`, `arena show`, the summary after a run and the dashboard
//! (`arena serve`). Reads the run, its spec and what the report of its kind
//! needs, and builds the `reports` crate's report, which every format draws.

use clap::ValueEnum;
use db::{Db, DbError};
use model::{GamesKind, GamesSpec, PairCount, PairOutcome, ProgressCount, RunInfo, Spec, SpecError, TimeControl};
use reports::report::{
    Brief, Budget, EngineHeader, FamilyInputs, Header, Inputs, Layout, MachineInputs, Report, SuiteHeader, SuiteInputs,
    SuiteReport, render_html, render_html_body, render_markdown, render_markdown_with_plots, render_text,
    utc_timestamp,
};
use reports::stats::family::Family;

use crate::engine_io::engines::EngineSpec;

/// Why a report could not be built.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// Reading failed (or there is no such run).
    #[error(transparent)]
    Db(#[from] DbError),
    /// The stored spec is from another version.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// The anchor names no engine of the run.
    #[error("{0}")]
    Anchor(String),
}

/// Report formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Plain text for a terminal.
    Text,
    /// GitHub-flavoured markdown.
    Markdown,
    /// One self-contained HTML page with plots.
    Html,
    /// JSON (documented schema, version field).
    Json,
}

/// A stored run's report, by kind of run.
pub enum RunReport {
    /// Pairs of games; for the short view, built without the per-game
    /// tables and with the stored terminations instead.
    Games(Report, Vec<(model::Termination, i64)>),
    /// Test positions.
    Suite(SuiteReport),
}

/// How much of a report to build.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Detail {
    /// Everything (`arena report`).
    #[default]
    Full,
    /// The short view (`arena show`, after a run): no pass over the games.
    Brief,
}

impl RunReport {
    /// The report in `format`.
    pub fn render(&self, format: Format) -> String {
        fn draw(report: &impl Layout, json: impl FnOnce() -> String, format: Format) -> String {
            match format {
                Format::Text => render_text(report),
                Format::Markdown => render_markdown(report),
                Format::Html => render_html(report),
                Format::Json => json() + "\n",
            }
        }
        match self {
            RunReport::Games(report, _) => draw(report, || report.to_json(), format),
            RunReport::Suite(report) => draw(report, || report.to_json(), format),
        }
    }

    /// The report in markdown with its plots as files `STEM-plot-N.svg`:
    /// the markdown and the plots, `(file name, SVG)`.
    pub fn markdown_with_plots(&self, stem: &str) -> (String, Vec<(String, String)>) {
        match self {
            RunReport::Games(report, _) => render_markdown_with_plots(report, stem),
            RunReport::Suite(report) => render_markdown_with_plots(report, stem),
        }
    }

    /// The full report's title and HTML blocks, for a page of one's own (the dashboard).
    pub fn html_body(&self) -> (String, String) {
        match self {
            RunReport::Games(report, _) => render_html_body(report),
            RunReport::Suite(report) => render_html_body(report),
        }
    }

    /// The report as JSON.
    pub fn json(&self) -> String {
        match self {
            RunReport::Games(report, _) => report.to_json(),
            RunReport::Suite(report) => report.to_json(),
        }
    }

    /// The short view (`arena show`, after a run): a match's header,
    /// statistics, terminations and ratings; a suite's tables.
    pub fn brief(&self) -> String {
        match self {
            RunReport::Games(report, terminations) => render_text(&Brief { report, terminations }),
            RunReport::Suite(report) => render_text(report),
        }
    }
}

/// The engines as reports show them, each with what played it on each
/// machine (a scaling run's copies `A@BUDGET` share A's, shown once).
fn engine_headers(engines: &[EngineSpec], identities: &[model::EngineIdentity]) -> Vec<EngineHeader> {
    let mut shown: Vec<&str> = Vec::new();
    engines
        .iter()
        .map(|engine| {
            let base = model::base_name(&engine.name);
            let played_by = match shown.contains(&base) {
                true => Vec::new(),
                false => {
                    shown.push(base);
                    identities.iter().filter(|i| i.engine == base).cloned().collect()
                }
            };
            EngineHeader {
                name: engine.name.clone(),
                kind: engine.describe(),
                options: engine.options.clone(),
                time_control: engine.tc.as_ref().map(ToString::to_string),
                commit: engine.source.as_ref().map(|s| s.commit.clone()),
                bench: engine.bench.and_then(|b| b.nodes()),
                played_by,
            }
        })
        .collect()
}

/// What a report is asked for, beside its run.
#[derive(Clone, Debug, Default)]
pub struct Ask {
    /// The engine rated 0 in a tournament, or the 100 % reference of a
    /// suite (default: the first).
    pub anchor: Option<String>,
    /// How much to build.
    pub detail: Detail,
    /// Count the games of machines set aside (`None`: as the run says).
    pub count_set_aside: Option<bool>,
    /// The most finished pairs a full report reads one by one (`None`:
    /// [`PAIRS_READ_UP_TO`]).
    pub pairs_read_up_to: Option<u64>,
}

/// A full report reads a run's pairs one by one up to this many finished
/// pairs. A larger run's curves come from its pairs counted by block of
/// finishing order, and its openings table lists the first
/// [`OPENINGS_LISTED`] pairs in plan order: at 500,000 pairs a row each
/// would be 77 MB of JSON and seconds to read.
pub const PAIRS_READ_UP_TO: u64 = 20_000;

/// The pairs a large run's openings table lists.
pub const OPENINGS_LISTED: usize = 1_000;

impl Ask {
    /// The report's `detail`, everything else as the run says.
    pub fn of(detail: Detail) -> Ask {
        Ask { detail, ..Ask::default() }
    }
}

/// The report of stored run `run`.
pub async fn report_of(db: &Db, run: i64, ask: Ask) -> Result<RunReport, ReportError> {
    let info = db.run(run).await?;
    let spec = Spec::of(&info)?;
    if let Some(name) = &ask.anchor
        && !spec.engines().iter().any(|e| &e.name == name)
    {
        let names: Vec<&str> = spec.engines().iter().map(|e| e.name.as_str()).collect();
        return Err(ReportError::Anchor(format!(
            "no engine '{name}' in run {run} (choose from: {})",
            names.join(", ")
        )));
    }
    let engines = engine_headers(spec.engines(), &db.identities(run).await?);
    match spec {
        Spec::Games(spec) => games_report(db, &info, &spec, engines, ask).await,
        Spec::Suite(spec) => {
            let results = db.suite_results(run).await?;
            let header = SuiteHeader {
                run,
                status: info.status,
                suite: spec.suite.clone(),
                positions: spec.positions,
                engines,
                limits: spec.limits.iter().map(|l| l.label()).collect(),
                created: utc_timestamp(info.created_ms),
                finished: info.finished_ms.map(utc_timestamp),
                machine: info.machine.clone(),
            };
            Ok(RunReport::Suite(SuiteReport::build(SuiteInputs { header, results: &results, reference: ask.anchor })))
        }
    }
}

/// The report of a run of games.
async fn games_report(
    db: &Db,
    info: &RunInfo,
    spec: &GamesSpec,
    engines: Vec<EngineHeader>,
    ask: Ask,
) -> Result<RunReport, ReportError> {
    let Ask { anchor, detail, count_set_aside, pairs_read_up_to } = ask;
    let run = info.id;
    let (pairs, counts, progress) = pairs_read(db, run, detail, pairs_read_up_to.unwrap_or(PAIRS_READ_UP_TO)).await?;
    // Under a deterministic limit a replayed opening is the same games
    // again: counted once (a tuning run's θ± change the games).
    let replayed = match crate::run::plan::may_replay(spec) {
        true => db.replayed_pairs(run).await?,
        false => Vec::new(),
    };
    let (pairs, counts) = leave_out_replays(pairs, counts, &replayed);
    let records = db.machine_records(run).await?;
    let states = db.machine_states(run).await?;
    let machines = MachineInputs {
        records: &records,
        states: &states,
        count_set_aside: count_set_aside.unwrap_or(spec.machines.count_set_aside),
    };
    let excluded = reports::report::machines_left_out(machines);
    // Both views read the move totals (a row per engine): the short one
    // for whether each engine kept its node limit.
    let move_totals = db.move_totals(run).await?;
    let (games, terminations) = match detail {
        Detail::Full => (db.game_counts(run).await?, Vec::new()),
        Detail::Brief => (Vec::new(), db.terminations(run, &excluded).await?),
    };
    let pv_issues = db.pv_issue_counts(run).await?;
    let iterations = match &spec.kind {
        GamesKind::Tune(_) => db.tune_iterations(run).await?,
        _ => Vec::new(),
    };
    let budgets = match &spec.kind {
        GamesKind::Scale(budgets) => scale_budgets(&move_totals, spec, budgets),
        _ => Vec::new(),
    };
    let names = |i: usize| spec.engines.get(i).map_or("", |e| model::base_name(&e.name));
    let report = Report::build(Inputs {
        header: Header { replayed_pairs: replayed.len() as u64, ..games_header(info, spec, engines) },
        pairings: spec.pairing_names(),
        sprt: spec.kind.sprt().map(|test| (test, info.verdict)),
        counts: &counts,
        pairs: &pairs,
        progress: progress.as_deref(),
        games: &games,
        move_totals: &move_totals,
        node_limits: (0..spec.engines.len()).map(|i| spec.time_control(i).and_then(TimeControl::node_limit)).collect(),
        anchor,
        tune: spec.kind.tune().map(|spsa| (spsa, iterations.as_slice())),
        pv_issues: &pv_issues,
        scale: (!budgets.is_empty()).then(|| (names(0), names(1), budgets.as_slice())),
        machines: Some(machines),
        family: family_inputs(spec, info, &db.family_verdicts(run).await?),
    });
    Ok(RunReport::Games(report, terminations))
}

/// A family of SPRTs as its views read it (`None` for any other run): the
/// stored decisions in their order, each naming its candidate's pairing,
/// and whether the run ended.
pub fn family_inputs(spec: &GamesSpec, info: &RunInfo, decided: &[db::FamilyVerdict]) -> Option<FamilyInputs> {
    let (test, size) = spec.family()?;
    let decided = crate::run::pairs::decisions(&spec.pairing_names(), decided);
    Some(FamilyInputs { family: Family::new(test, size), decided, ended: info.status == model::RunStatus::Finished })
}

/// A stored run's pairing counts with each replayed opening counted once,
/// as its report counts them (the runs' list and the dashboard).
///
/// # Errors
///
/// A database failure.
pub async fn counted_once(
    db: &Db,
    run: i64,
    spec: &GamesSpec,
    mut counts: Vec<model::PairingCounts>,
) -> Result<Vec<model::PairingCounts>, DbError> {
    if !crate::run::plan::may_replay(spec) {
        return Ok(counts);
    }
    for replay in db.replayed_pairs(run).await? {
        if let Some(pairing) =
            counts.iter_mut().find(|c| c.engine_a == replay.engine_a && c.engine_b == replay.engine_b)
        {
            pairing.tally -= model::Tally::of_pair(replay.results[0], replay.results[1]);
        }
    }
    Ok(counts)
}

/// The pairs and counts without the `replayed` pairs.
fn leave_out_replays(
    pairs: Vec<PairOutcome>,
    mut counts: Vec<PairCount>,
    replayed: &[PairOutcome],
) -> (Vec<PairOutcome>, Vec<PairCount>) {
    if replayed.is_empty() {
        return (pairs, counts);
    }
    for replay in PairCount::of(replayed) {
        let alike = |c: &&mut PairCount| {
            (&c.engine_a, &c.engine_b, &c.machine, c.results)
                == (&replay.engine_a, &replay.engine_b, &replay.machine, replay.results)
        };
        if let Some(count) = counts.iter_mut().find(alike) {
            count.pairs = count.pairs.saturating_sub(replay.pairs);
        }
    }
    counts.retain(|c| c.pairs > 0);
    let gone: std::collections::HashSet<i64> = replayed.iter().map(|p| p.index).collect();
    (pairs.into_iter().filter(|p| !gone.contains(&p.index)).collect(), counts)
}

/// The pairs a report reads: the short view only their counts; the full
/// report the pairs in order too, or for a run of more than `up_to` pairs
/// the first [`OPENINGS_LISTED`] and the counts by block.
async fn pairs_read(
    db: &Db,
    run: i64,
    detail: Detail,
    up_to: u64,
) -> Result<(Vec<PairOutcome>, Vec<PairCount>, Option<Vec<ProgressCount>>), DbError> {
    if detail == Detail::Brief {
        return Ok((Vec::new(), db.pair_counts(run).await?, None));
    }
    let counts = db.pair_counts(run).await?;
    let finished: u64 = counts.iter().map(|c| c.pairs).sum();
    if finished > up_to {
        let pairs = db.first_pair_outcomes(run, OPENINGS_LISTED).await?;
        return Ok((pairs, counts, Some(db.progress_counts(run).await?)));
    }
    let pairs = db.pair_outcomes(run).await?;
    let counts = PairCount::of(&pairs);
    Ok((pairs, counts, None))
}

/// The header of a run of games: a scaling run's budgets as its time
/// control, a variant after the book's name.
fn games_header(info: &RunInfo, spec: &GamesSpec, engines: Vec<EngineHeader>) -> Header {
    Header {
        run: info.id,
        kind: info.kind,
        status: info.status,
        engines,
        time_control: match &spec.kind {
            GamesKind::Scale(budgets) => {
                let budgets: Vec<String> = budgets.0.iter().map(ToString::to_string).collect();
                format!("{} (one pairing per budget)", budgets.join(", "))
            }
            _ => spec.tc.as_ref().map_or_else(|| "unknown (played elsewhere)".into(), ToString::to_string),
        },
        openings: match (spec.variant, spec.is_imported()) {
            (model::Variant::Standard, true) => format!("the games' own, from {}", spec.openings),
            (variant, true) => format!("the games' own ({}), from {}", variant.pgn(), spec.openings),
            (model::Variant::Standard, false) => spec.openings.clone(),
            (variant, false) => format!("{} ({})", spec.openings, variant.pgn()),
        },
        games_planned: u64::try_from(2 * info.pairs_planned).unwrap_or(0),
        games_played: u64::try_from(info.games).unwrap_or(0),
        created: utc_timestamp(info.created_ms),
        finished: info.finished_ms.map(utc_timestamp),
        machine: info.machine.clone(),
        replayed_pairs: 0,
        unpaired_games: spec.kind.imported().iter().map(|f| f.unpaired).sum(),
    }
}

/// A run's progress as lists show it (`arena runs`, the dashboard): games
/// stored and planned, or for a suite run answers stored and planned.
///
/// # Errors
///
/// A database failure.
pub async fn done_and_planned(db: &Db, run: &RunInfo, spec: Option<&Spec>) -> Result<(i64, i64), DbError> {
    Ok(match spec {
        Some(Spec::Suite(suite)) => (db.suite_answer_count(run.id).await?, suite.answers_planned() as i64),
        _ => (run.games, 2 * run.pairs_planned),
    })
}

/// A scaling run's budgets with the mean depth and seldepth each side's
/// moves reached there, from the games' move totals: each engine copy plays
/// one budget only.
fn scale_budgets(totals: &[model::EngineMoveTotals], spec: &GamesSpec, budgets: &model::Budgets) -> Vec<Budget> {
    let mean = |name: &str, slot: usize| {
        let t = totals.iter().find(|t| t.engine == name)?;
        let (sum, count) = if slot == 0 { (t.depth_sum, t.depth_moves) } else { (t.seldepth_sum, t.seldepth_moves) };
        (count > 0).then(|| sum as f64 / count as f64)
    };
    let side = |i: usize| spec.engines.get(i).map_or([None, None], |e| [mean(&e.name, 0), mean(&e.name, 1)]);
    budgets
        .0
        .iter()
        .enumerate()
        .map(|(i, tc)| Budget {
            label: tc.to_string(),
            amount: tc.budget().unwrap_or(f64::NAN),
            depths: [side(2 * i), side(2 * i + 1)],
        })
        .collect()
}
