//! What the commands share: opening the database, where engines and logs
//! are, and what is printed and written when a run ends here (the short
//! report, from [`crate::reporting`]; the PGN and EPD, from [`crate::run::record`]).

use anyhow::anyhow;
use std::path::Path;

use db::{Db, Target};
use model::{Spec, SuiteSpec};

use super::shared::{CliError, CliResult};
use super::shared::{out, outln};
use crate::reporting::{Ask, Detail, report_of};
use crate::run::Runtime;
use crate::run::life::{PlayError, Printer, play_recorded};
use crate::run::local::RunEnd;
use crate::run::record::Records;
use openings::epd::TestPosition;
use openings::suites::load_suite;

/// Opens (creating if needed) the database (see [`crate::run::life::open`]).
pub(super) async fn open_db(target: &Target) -> CliResult<Db> {
    Ok(crate::run::life::open(target).await?)
}

/// Opens a database that must exist already (commands that read runs).
pub(super) async fn open_existing(target: &Target) -> CliResult<Db> {
    if !target.exists() {
        return Err(anyhow!("no database at {target} (give one with --db PATH or --db postgres://…)"));
    }
    open_db(target).await
}

/// The `arena` binary, which runs the bundled engine.
pub(super) fn arena_exe() -> CliResult<std::path::PathBuf> {
    Ok(crate::run::life::arena_exe()?)
}

/// This machine as its flags say: the database, the progress line, the
/// slots' pinning and I/O logs, and whether it plays (not `--no-local`).
///
/// # Errors
///
/// A `--affinity` list that cannot be read.
pub(super) fn machine(
    target: &Target,
    quiet: bool,
    slots: &super::shared::SlotArgs,
    plays_here: bool,
) -> CliResult<crate::run::life::Machine> {
    Ok(crate::run::life::Machine {
        target: target.clone(),
        quiet,
        pinning: slots.pinning()?,
        io_logs: !slots.no_io_log,
        plays_here,
    })
}

/// Says how to play a run created with `--no-local`: the worker's command
/// with a `--repo NAME=…` for each repository its engines are built from
/// (this machine's clone; another machine names its own).
pub(super) fn waits_for_workers(run: i64, target: &Target, spec: &Spec) -> CliResult<()> {
    outln!("run {run}");
    let mut repos: Vec<String> = Vec::new();
    for source in spec.engines().iter().filter_map(|e| e.source.as_ref()) {
        let flag = format!(" --repo {}={}", model::spec::repo_name(&source.repo), source.repo);
        if !repos.contains(&flag) {
            repos.push(flag);
        }
    }
    crate::term::note(&format!(
        "run {run} waits for workers (--no-local): arena worker --db {target} --run {run}{}; follow it with: arena show {run} --db {target}",
        repos.concat()
    ));
    Ok(())
}

/// The positions a suite spec runs ([`positions_of`]).
pub(super) fn suite_positions(spec: &SuiteSpec) -> CliResult<Vec<TestPosition>> {
    positions_of(&spec.suite, spec.count)
}

/// The positions of suite `name`, cut to `count`; skipped lines are said.
pub(super) fn positions_of(name: &str, count: Option<usize>) -> CliResult<Vec<TestPosition>> {
    let suite = load_suite(name)?;
    for problem in suite.skipped.iter().take(5) {
        crate::term::note(&format!("skipped {problem}"));
    }
    if suite.skipped.len() > 5 {
        crate::term::note(&format!("skipped {} more lines of {name}", suite.skipped.len() - 5));
    }
    let mut positions = suite.positions;
    positions.truncate(count.unwrap_or(usize::MAX));
    Ok(positions)
}

/// How a run that plays here is shown: arena's progress line and summary,
/// or another tool's lines (`arena fastchess`, `arena cutechess`).
pub(super) enum View<'a> {
    /// The progress line, then the short report.
    Arena,
    /// Lines for each game as it is stored, and at the end.
    Lines(&'a mut dyn GameLines),
}

/// What prints a run's games as they are stored, instead of the summary.
pub(super) trait GameLines {
    /// Games stored since the last call, in id order: whole pairs.
    ///
    /// # Errors
    ///
    /// Standard output failed.
    fn games(&mut self, games: &[model::GameRow]) -> CliResult;

    /// The run ended here, its last games given and its PGN (at `pgn`, if
    /// asked for) written.
    ///
    /// # Errors
    ///
    /// Standard output failed, or the PGN cannot be read back.
    fn end(&mut self, pgn: Option<&Path>) -> CliResult;

    /// Run `run` in `target` is about to play here (a new run, or one resumed).
    ///
    /// # Errors
    ///
    /// What the printer cannot write.
    fn started(&mut self, run: i64, target: &Target) -> CliResult;

    /// The finishing number of the last pair already given (0: none).
    fn followed(&self) -> i64;
}

/// A run's play failed: the run's error with the command that continues
/// it where that helps, a record's, or the printer's as it is.
fn play_error(run: i64, target: &Target, error: PlayError<CliError>) -> CliError {
    match error {
        PlayError::Run(e) if e.resume_helps() => {
            let line = format!("run {run}: {e}: arena resume {run} --db {target}");
            anyhow::Error::new(e).context(line)
        }
        PlayError::Run(e) => anyhow::Error::new(e).context(format!("run {run}")),
        PlayError::Record(e) => e.into(),
        PlayError::Printer(e) => e,
    }
}

/// Plays stored run `run` here (after its engines passed the preflight)
/// with its records ([`crate::run::life::play_recorded`]), then prints its
/// short report (or `view`'s lines) and what was written, and says how to
/// continue a stopped run. A suite's `positions` are read from its file
/// unless given.
pub(super) async fn play_run(
    runtime: &Runtime,
    target: &Target,
    run: i64,
    spec: Spec,
    positions: Option<Vec<TestPosition>>,
    record: &Records,
    view: View<'_>,
) -> CliResult<()> {
    let db = &runtime.db;
    let mut view = view;
    if let View::Lines(lines) = &mut view {
        lines.started(run, target)?;
    }
    let positions = match &spec {
        Spec::Suite(suite) => match positions {
            Some(positions) => positions,
            None => suite_positions(suite)?,
        },
        Spec::Games(_) => Vec::new(),
    };
    let played = match &mut view {
        View::Arena => play_recorded::<CliError>(runtime, run, &spec, positions, record, None).await,
        View::Lines(lines) => {
            let after = lines.followed();
            let mut games = |games: &[model::GameRow]| lines.games(games);
            let printer = Printer { after, games: &mut games };
            play_recorded(runtime, run, &spec, positions, record, Some(printer)).await
        }
    };
    let played = played.map_err(|e| play_error(run, target, e))?;
    if let View::Arena = view {
        out!("{}", report_of(db, run, Ask::of(Detail::Brief)).await?.brief());
        if let (Some(path), Some(games)) = (record.pgn(), played.pgn_games) {
            crate::term::note(&format!("wrote {games} games to {}", path.display()));
        }
        if let (Some(path), Some(games)) = (record.epdout(), played.epd_positions) {
            crate::term::note(&format!("wrote {games} final positions to {}", path.display()));
        }
    }
    db.close().await;
    if let View::Lines(lines) = view {
        lines.end(record.pgn())?;
    }
    if played.end == RunEnd::Stopped {
        crate::term::note(&format!("run {run} stopped; continue it with: arena resume {run} --db {target}"));
    }
    Ok(())
}

/// Checks one engine and prints its findings; what it failed, if anything:
/// `NAME (STEP and STEP)`.
///
/// # Errors
///
/// arena's own program cannot be found (to launch a preset).
pub(super) async fn check_one(name: &str, spec: &crate::engine_io::engines::EngineSpec) -> CliResult<Option<String>> {
    let arena_exe = std::env::current_exe()?;
    let launch = spec.launch(&arena_exe);
    let what = spec.describe();
    crate::term::set_line(&format!("checking {name}…"));
    let compliance =
        crate::engine_io::check::check(spec, &launch, crate::engine_io::process::Timeouts::default()).await;
    crate::term::end_line();
    let id = compliance.id_name.as_deref().map(|id| format!(" [id name: {id}]")).unwrap_or_default();
    outln!("engine {name}: {what}{id}");
    let width = compliance.findings.iter().map(|f| f.step.chars().count()).max().unwrap_or(0);
    for finding in &compliance.findings {
        outln!("  {:<width$}  {:<4}  {}", finding.step, finding.status.as_str(), finding.detail);
    }
    let count = |status| compliance.findings.iter().filter(|f| f.status == status).count();
    outln!(
        "  {}: {} pass, {} warn, {} fail\n",
        name,
        count(crate::engine_io::check::Status::Pass),
        count(crate::engine_io::check::Status::Warn),
        count(crate::engine_io::check::Status::Fail)
    );
    if compliance.worst() != crate::engine_io::check::Status::Fail {
        return Ok(None);
    }
    let steps: Vec<&str> = compliance
        .findings
        .iter()
        .filter(|f| f.status == crate::engine_io::check::Status::Fail)
        .map(|f| f.step)
        .collect();
    Ok(Some(format!("{name} ({})", steps.join(" and "))))
}
