//! `arena suite`: test-suite experiments (tree size and solved positions per
//! engine and limit), stored as a run, resumable, reported like the papers.

use anyhow::anyhow;

use clap::Args;
use model::SuiteSpec;

use super::common::{View, play_run, positions_of, waits_for_workers};
use super::shared::{CliResult, ConcurrencyArg, DbArg, EnginesFileArg, QuietArg};
use crate::engine_io::engines::EngineSpec;
use crate::run::suite::{DEFAULT_STALL_S, SuiteLimits, depths, move_times, node_budgets, one_kind};

/// `arena suite`.
#[derive(Args, Debug)]
pub struct SuiteArgs {
    /// Comma-separated engines: presets, engines.toml names or UCI programs (a path, or a program on PATH) (the first is the 100 % reference of the tree-size table).
    #[arg(long, value_delimiter = ',', required = true)]
    engines: Vec<String>,
    /// wac, bk, ecm, wcsac, mate1, mate2, mate3, mate4, hardmates, or an EPD/FEN file.
    #[arg(long)]
    suite: String,
    /// Fixed depths: 8,9,10 or 4..8.
    #[arg(long, value_parser = depths)]
    depth: Option<SuiteLimits>,
    /// Node budgets: 100000,200000 or 2700x2^1..2^10 (2,700 × 2^i, the FHR paper's Table 1).
    #[arg(long, value_parser = node_budgets)]
    nodes: Option<SuiteLimits>,
    /// Milliseconds per position: 100 or 100,1000.
    #[arg(long, value_parser = move_times)]
    movetime: Option<SuiteLimits>,
    /// Only the first N positions of the suite.
    #[arg(long, value_parser = super::shared::at_least::<usize, 1>)]
    count: Option<usize>,
    #[command(flatten)]
    concurrency: ConcurrencyArg,
    /// Seconds the engine runs without `bestmove` under --depth/--nodes before an answer counts as stalled (engine restarted).
    #[arg(long, default_value_t = DEFAULT_STALL_S)]
    stall: u64,
    #[command(flatten)]
    db: DbArg,
    #[command(flatten)]
    registry: EnginesFileArg,
    #[command(flatten)]
    quiet: QuietArg,
    /// Only create the run: `arena worker`s answer it (on a shared --db postgres://…).
    #[arg(long)]
    no_local: bool,
}

/// `arena suite`.
pub(super) async fn suite(args: SuiteArgs) -> CliResult {
    let limits = one_kind(args.depth, args.nodes, args.movetime)?;
    let concurrency = args.concurrency.or_default()?;

    let registry = args.registry.load()?;
    let mut engines: Vec<EngineSpec> = Vec::new();
    for name in &args.engines {
        if engines.iter().any(|e| &e.name == name) {
            return Err(anyhow!("engine '{name}' is named twice in --engines"));
        }
        engines.push(registry.get_or_path(name)?);
    }
    // The positions are read first: the spec is whole when built.
    let positions = positions_of(&args.suite, args.count)?;
    let spec = SuiteSpec {
        engines,
        suite: args.suite.clone(),
        count: args.count,
        positions: positions.len(),
        limits,
        concurrency,
        stall_s: args.stall.max(1),
    };
    let target = &args.db.target;
    // A suite's searches keep no clock and no I/O log, and are not pinned.
    let machine = crate::run::life::Machine {
        target: target.clone(),
        quiet: args.quiet.quiet,
        pinning: crate::run::life::Pinning::Off,
        io_logs: false,
        plays_here: !args.no_local,
    };
    let here = machine.here(crate::run::life::SlotNeeds { concurrency, per_slot: 1, clocked: false })?;
    let created = crate::run::life::create_suite(spec, &positions, here).await?;
    let run = created.run;
    if !args.quiet.quiet {
        crate::term::note(&format!("run {run}: {}; database {target}", created.described));
    }
    if args.no_local {
        created.runtime.db.close().await;
        waits_for_workers(run, target, &created.spec)?;
        return Ok(());
    }
    let records = crate::run::record::Records::default();
    play_run(&created.runtime, target, run, created.spec, Some(positions), &records, View::Arena).await
}
