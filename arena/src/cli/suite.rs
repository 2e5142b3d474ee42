//! `arena suite`: test-suite experiments (tree size and solved positions per
//! engine and limit), stored as a run, resumable, reported like the papers.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use db::{Db, RunRow, Target};
use reports::report::{SuiteHeader, SuiteInputs, SuiteReport, render_text, utc_timestamp};

use super::play::{arena_exe, open_db, runtime};
use super::{CliError, CliResult, DEFAULT_DB, DbParser};
use crate::engines::{EngineSpec, Registry};
use crate::process::Timeouts;
use crate::run::{RunEnd, preflight};
use crate::suite::epd::TestPosition;
use crate::suite::{DEFAULT_STALL_S, PlayableSuite, SuiteSpec, execute_suite, load_suite, parse_limits};

/// `arena suite`.
#[derive(Args, Debug)]
pub struct SuiteArgs {
    /// Comma-separated engine names (the first is the 100 % reference of the tree-size table).
    #[arg(long, value_delimiter = ',', required = true)]
    engines: Vec<String>,
    /// wac, bk, ecm, wcsac, mate1, mate2, mate3, mate4, hardmates, or an EPD/FEN file.
    #[arg(long)]
    suite: String,
    /// Fixed depths: 8,9,10 or 4..8.
    #[arg(long)]
    depth: Option<String>,
    /// Node budgets: 100000,200000 or 2700x2^1..2^10 (2,700 × 2^i, the FHR paper's Table 1).
    #[arg(long)]
    nodes: Option<String>,
    /// Milliseconds per position: 100 or 100,1000.
    #[arg(long)]
    movetime: Option<String>,
    /// Only the first N positions of the suite.
    #[arg(long)]
    count: Option<usize>,
    /// Positions searched at once (each worker keeps one process per engine).
    #[arg(long, default_value_t = 2)]
    concurrency: usize,
    /// Seconds without `bestmove` under --depth/--nodes before an answer counts as stalled (engine restarted).
    #[arg(long, default_value_t = DEFAULT_STALL_S)]
    stall: u64,
    /// Database: a SQLite file, or postgres://user@host:port/database (password from PGPASSWORD or ~/.pgpass).
    #[arg(long, default_value = DEFAULT_DB, value_parser = DbParser)]
    db: Target,
    /// engines.toml with more engines (default: ./engines.toml if present).
    #[arg(long)]
    engines_file: Option<PathBuf>,
    /// No progress line.
    #[arg(long)]
    quiet: bool,
    /// Only create the run: `arena worker`s answer it (on a shared --db postgres://…).
    #[arg(long)]
    no_local: bool,
}

/// The positions a spec runs: its suite, cut to `count`.
fn positions_of(spec: &SuiteSpec) -> Result<Vec<TestPosition>, CliError> {
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

/// `arena suite`.
pub(super) async fn suite(args: SuiteArgs) -> CliResult {
    let limits =
        parse_limits(args.depth.as_deref(), args.nodes.as_deref(), args.movetime.as_deref()).map_err(CliError)?;
    if args.count == Some(0) {
        return Err(CliError("--count must be at least 1".into()));
    }

    let registry = Registry::load(args.engines_file.as_deref())?;
    let mut engines: Vec<EngineSpec> = Vec::new();
    for name in &args.engines {
        if engines.iter().any(|e| &e.name == name) {
            return Err(CliError(format!("engine '{name}' is named twice in --engines")));
        }
        engines.push(registry.get(name)?);
    }
    let mut spec = SuiteSpec {
        kind: "suite".to_string(),
        engines,
        suite: args.suite.clone(),
        count: args.count,
        positions: 0,
        limits,
        concurrency: args.concurrency.max(1),
        stall_s: args.stall.max(1),
    };
    let positions = positions_of(&spec)?;
    spec.positions = positions.len();
    preflight(&arena_exe()?, Timeouts::default(), &spec.engines).await?;
    let db = open_db(&args.db).await?;
    let engine_rows: Vec<(String, String)> =
        spec.engines.iter().map(|e| (e.name.clone(), serde_json::to_string(e).unwrap_or_default())).collect();
    let run = db.create_run("suite", &serde_json::to_string(&spec)?, &engine_rows, &[]).await?;
    if !args.quiet {
        eprintln!(
            "run {run}: suite {} ({} positions) × {} × {}, concurrency {}; database {}",
            spec.suite,
            positions.len(),
            spec.engines.iter().map(|e| e.name.as_str()).collect::<Vec<_>>().join(","),
            spec.limits.iter().map(|l| l.label()).collect::<Vec<_>>().join(", "),
            spec.concurrency,
            args.db
        );
    }
    let suite = PlayableSuite { run, spec: spec.clone(), positions: Arc::new(positions.clone()) };
    db.plan_suite_chunks(run, &suite.chunks(&HashSet::new())).await?;
    if args.no_local {
        db.close().await;
        println!("run {run}");
        eprintln!(
            "run {run} waits for workers (--no-local): arena worker --db {} --run {run}; follow it with: arena show {run} --db {}",
            args.db, args.db
        );
        return Ok(());
    }
    play(&db, &args.db, run, &spec, &positions, args.quiet).await
}

/// `arena resume` of a suite run.
pub(super) async fn resume(db: Db, row: RunRow, target: &Target, concurrency: Option<usize>, quiet: bool) -> CliResult {
    let mut spec: SuiteSpec = serde_json::from_str(&row.spec)
        .map_err(|e| CliError(format!("run {} has a spec this version cannot read: {e}", row.id)))?;
    if let Some(concurrency) = concurrency {
        spec.concurrency = concurrency.max(1);
    }
    let positions = positions_of(&spec)?;
    if positions.len() != spec.positions {
        return Err(CliError(format!(
            "suite {} has {} positions now but run {} started with {}; restore the file it started with to resume",
            spec.suite,
            positions.len(),
            row.id,
            spec.positions
        )));
    }
    preflight(&arena_exe()?, Timeouts::default(), &spec.engines).await?;
    play(&db, target, row.id, &spec, &positions, quiet).await
}

async fn play(
    db: &Db,
    target: &Target,
    run: i64,
    spec: &SuiteSpec,
    positions: &[TestPosition],
    quiet: bool,
) -> CliResult {
    let runtime = runtime(db, target, quiet)?;
    let end = execute_suite(&runtime, run, spec, positions).await.map_err(|e| CliError(format!("run {run}: {e}")))?;
    print!("{}", render_text(&suite_report(db, run, None).await?));
    db.close().await;
    if end == RunEnd::Stopped {
        eprintln!("run {run} stopped; continue it with: arena resume {run} --db {target}");
    }
    Ok(())
}

/// The report of a stored suite run.
///
/// # Errors
///
/// [`CliError`] when the run cannot be read.
pub(super) async fn suite_report(db: &Db, run: i64, reference: Option<String>) -> Result<SuiteReport, CliError> {
    let row = db.run(run).await?;
    let spec: SuiteSpec = serde_json::from_str(&row.spec)
        .map_err(|e| CliError(format!("run {run} has a spec this version cannot read: {e}")))?;
    if let Some(name) = &reference
        && !spec.engines.iter().any(|e| &e.name == name)
    {
        let names: Vec<&str> = spec.engines.iter().map(|e| e.name.as_str()).collect();
        return Err(CliError(format!("no engine '{name}' in run {run} (choose from: {})", names.join(", "))));
    }
    let results = db.suite_results(run).await?;
    let header = SuiteHeader {
        run,
        status: row.status.clone(),
        suite: spec.suite.clone(),
        positions: spec.positions,
        engines: spec.engines.iter().map(super::report::engine_header).collect(),
        limits: spec.limits.iter().map(|l| l.label()).collect(),
        created: utc_timestamp(row.created_ms),
        finished: row.finished_ms.map(utc_timestamp),
        machine: row.machine.clone(),
    };
    Ok(SuiteReport::build(SuiteInputs { header, results: &results, reference }))
}
