//! What the commands share: opening the database, where engines and logs
//! are, a stored run's report (the one path from the database to
//! `arena report`, `arena show` and the summary after a run), the PGN
//! export, and what is printed when a run ends here.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::ValueEnum;
use db::{Db, DbError, Target};
use model::{Spec, SuiteSpec};
use reports::pgn::{Context, write_game};
use reports::report::{
    Brief, EngineHeader, Header, Inputs, Layout, Report, SuiteHeader, SuiteInputs, SuiteReport, render_html,
    render_markdown, render_text, utc_timestamp,
};

use super::CliError;
use super::{out, outln};
use crate::clock::TimeControl;
use crate::engines::EngineSpec;
use crate::process::Timeouts;
use crate::suite::epd::TestPosition;
use crate::suite::load_suite;
use crate::work::local::RunEnd;
use crate::work::{RunError, Runtime};

/// Refuses a `--concurrency` (`what` it counts) of 0, or one the machine's
/// limit on open files cannot hold, with one line.
pub(super) fn check_concurrency(concurrency: usize, what: &str) -> Result<(), CliError> {
    if concurrency == 0 {
        return Err(CliError(format!("--concurrency must be at least 1 ({what})")));
    }
    crate::limits::fit_open_files(concurrency).map_err(CliError)?;
    Ok(())
}

/// Opens (creating if needed) the database.
pub(super) async fn open_db(target: &Target) -> Result<Db, CliError> {
    Ok(Db::open(target).await?)
}

/// Opens a database that must exist already (commands that read runs).
pub(super) async fn open_existing(target: &Target) -> Result<Db, CliError> {
    if !target.exists() {
        return Err(CliError(format!("no database at {target} (give one with --db PATH or --db postgres://…)")));
    }
    Ok(Db::open(target).await?)
}

/// The `arena` binary, which runs the bundled engine.
pub(super) fn arena_exe() -> Result<PathBuf, CliError> {
    std::env::current_exe().map_err(|e| CliError(format!("cannot find the arena binary to start bundled engines: {e}")))
}

/// Engines' stderr logs go to `arena-logs/` beside a SQLite file, or in the
/// current folder for a server.
pub(super) fn runtime(db: &Db, target: &Target, quiet: bool) -> Result<Runtime, CliError> {
    let beside = match target {
        Target::Sqlite(path) => path.parent().unwrap_or(Path::new(".")),
        Target::Postgres(_) => Path::new("."),
    };
    Ok(Runtime {
        db: db.clone(),
        arena_exe: arena_exe()?,
        log_dir: Some(beside.join("arena-logs")),
        timeouts: Timeouts::default(),
        progress: !quiet,
    })
}

/// Starts and quits every engine of a run once (see [`crate::work::preflight`]).
pub(super) async fn preflight(spec: &Spec) -> Result<(), CliError> {
    Ok(crate::work::preflight(&arena_exe()?, Timeouts::default(), spec).await?)
}

/// Says how to play a run created with `--no-local`.
pub(super) fn waits_for_workers(run: i64, target: &Target) -> Result<(), CliError> {
    outln!("run {run}");
    eprintln!(
        "run {run} waits for workers (--no-local): arena worker --db {target} --run {run}; follow it with: arena show {run} --db {target}"
    );
    Ok(())
}

/// The positions a suite spec runs: its suite, cut to `count`; skipped lines are said.
pub(super) fn suite_positions(spec: &SuiteSpec) -> Result<Vec<TestPosition>, CliError> {
    let suite = load_suite(&spec.suite).map_err(CliError)?;
    for problem in suite.skipped.iter().take(5) {
        eprintln!("skipped {problem}");
    }
    if suite.skipped.len() > 5 {
        eprintln!("skipped {} more lines of {}", suite.skipped.len() - 5, spec.suite);
    }
    let mut positions = suite.positions;
    positions.truncate(spec.count.unwrap_or(usize::MAX));
    Ok(positions)
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
pub(super) enum RunReport {
    /// Pairs of games; for the short view, built without the per-game
    /// tables and with the stored terminations instead.
    Games(Report, Vec<(String, i64)>),
    /// Test positions.
    Suite(SuiteReport),
}

/// How much of a report to build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Detail {
    /// Everything (`arena report`).
    Full,
    /// The short view (`arena show`, after a run): no pass over the games.
    Brief,
}

impl RunReport {
    /// The report in `format`.
    pub(super) fn render(&self, format: Format) -> String {
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

    /// The short view (`arena show`, after a run): a match's header,
    /// statistics, terminations and ratings; a suite's tables.
    pub(super) fn brief(&self) -> String {
        match self {
            RunReport::Games(report, terminations) => render_text(&Brief { report, terminations }),
            RunReport::Suite(report) => render_text(report),
        }
    }
}

/// An engine as reports show it.
fn engine_header(engine: &EngineSpec) -> EngineHeader {
    EngineHeader {
        name: engine.name.clone(),
        kind: engine.describe(),
        options: engine.options.clone(),
        time_control: engine.tc.clone(),
    }
}

/// The report of stored run `run`; `anchor` is the engine rated 0 in a
/// tournament, or the 100 % reference of a suite (default: the first).
pub(super) async fn report_of(
    db: &Db,
    run: i64,
    anchor: Option<String>,
    detail: Detail,
) -> Result<RunReport, CliError> {
    let info = db.run(run).await?;
    let spec = Spec::of(&info)?;
    if let Some(name) = &anchor
        && !spec.engines().iter().any(|e| &e.name == name)
    {
        let names: Vec<&str> = spec.engines().iter().map(|e| e.name.as_str()).collect();
        return Err(CliError(format!("no engine '{name}' in run {run} (choose from: {})", names.join(", "))));
    }
    let engines = spec.engines().iter().map(engine_header).collect();
    match spec {
        Spec::Games(spec) => {
            let pairs = db.pair_outcomes(run).await?;
            let (games, move_totals, terminations) = match detail {
                Detail::Full => (db.game_summaries(run).await?, db.move_totals(run).await?, Vec::new()),
                Detail::Brief => (Vec::new(), Vec::new(), db.terminations(run).await?),
            };
            let header = Header {
                run,
                kind: info.kind,
                status: info.status,
                engines,
                time_control: spec.tc.clone(),
                openings: spec.openings.clone(),
                games_planned: u64::try_from(2 * info.pairs_planned).unwrap_or(0),
                games_played: u64::try_from(info.games).unwrap_or(0),
                created: utc_timestamp(info.created_ms),
                finished: info.finished_ms.map(utc_timestamp),
                machine: info.machine.clone(),
            };
            let pairings = spec.pairing_names();
            let iterations = match &spec.tune {
                Some(_) => db.tune_iterations(run).await?,
                None => Vec::new(),
            };
            let report = Report::build(Inputs {
                header,
                pairings,
                sprt: spec.sprt.map(|test| (test, info.verdict)),
                pairs: &pairs,
                games: &games,
                move_totals: &move_totals,
                anchor,
                tune: spec.tune.as_deref().map(|spsa| (spsa, iterations.as_slice())),
            });
            Ok(RunReport::Games(report, terminations))
        }
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
            Ok(RunReport::Suite(SuiteReport::build(SuiteInputs { header, results: &results, reference: anchor })))
        }
    }
}

/// Writes a run's games as PGN to `out`; returns how many.
pub(super) async fn stream_pgn(db: &Db, run: i64, out: &mut impl Write) -> Result<u64, CliError> {
    let info = db.run(run).await?;
    let tc = match Spec::of(&info) {
        Ok(Spec::Games(spec)) => spec.tc.parse::<TimeControl>().ok().map(|tc| tc.pgn_tag()),
        _ => None,
    };
    let tc = tc.unwrap_or_else(|| "-".to_string());
    let event = format!("arena run {run} ({})", info.kind);
    let (mut after, mut count) = (0, 0);
    let mut text = String::with_capacity(1 << 20);
    loop {
        let page = db.games_page(run, after, 2000, true).await?;
        let Some(last) = page.last() else { break };
        after = last.id;
        text.clear();
        for game in &page {
            let context = Context {
                event: &event,
                site: &info.machine,
                round: format!("{}.{}", game.pair_index + 1, game.game_in_pair + 1),
                time_control: &tc,
            };
            write_game(&mut text, &game.record, &context);
            count += 1;
        }
        out.write_all(text.as_bytes()).map_err(|e| super::write_error(&e, "the PGN output"))?;
    }
    Ok(count)
}

/// Writes a run's games to `path`; returns how many.
pub(super) async fn write_pgn(db: &Db, run: i64, path: &Path) -> Result<u64, CliError> {
    let file = std::fs::File::create(path).map_err(|e| CliError(format!("cannot write {}: {e}", path.display())))?;
    let mut out = std::io::BufWriter::new(file);
    let games = stream_pgn(db, run, &mut out).await?;
    out.flush().map_err(|e| CliError(format!("cannot write {}: {e}", path.display())))?;
    Ok(games)
}

/// Plays stored run `run` here (after its engines passed the preflight),
/// then prints its short report, writes the PGN if asked, and says how to
/// continue a stopped run. A suite's `positions` are read from its file
/// unless given.
pub(super) async fn play_run(
    runtime: &Runtime,
    target: &Target,
    run: i64,
    spec: Spec,
    positions: Option<Vec<TestPosition>>,
    pgn: Option<&Path>,
) -> Result<(), CliError> {
    let end = match spec {
        Spec::Games(spec) => crate::work::local::play_pairs(runtime, run, &spec).await,
        Spec::Suite(spec) => {
            let positions = match positions {
                Some(positions) => positions,
                None => suite_positions(&spec)?,
            };
            if positions.len() != spec.positions {
                return Err(CliError(format!(
                    "suite {} has {} positions now but run {run} started with {}; restore the file it started with to resume",
                    spec.suite,
                    positions.len(),
                    spec.positions
                )));
            }
            crate::work::local::play_suite(runtime, run, &spec, positions).await
        }
    };
    let db = &runtime.db;
    let end = end.map_err(|e| match e {
        RunError::Db(DbError::DiskFull { .. }) => CliError(format!("run {run}: {e}: arena resume {run} --db {target}")),
        e => CliError(format!("run {run}: {e}")),
    })?;
    out!("{}", report_of(db, run, None, Detail::Brief).await?.brief());
    if let Some(path) = pgn {
        let games = write_pgn(db, run, path).await?;
        eprintln!("wrote {games} games to {}", path.display());
    }
    db.close().await;
    if end == RunEnd::Stopped {
        eprintln!("run {run} stopped; continue it with: arena resume {run} --db {target}");
    }
    Ok(())
}
