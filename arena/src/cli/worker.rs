//! `arena worker`: play pairs of the runs in a shared database.

use anyhow::anyhow;
use std::time::Duration;

use clap::Args;

use super::common::{machine, open_existing};
use super::shared::{CliResult, ConcurrencyArg, DbArg, EnginesFileArg, QuietArg, SlotArgs};
use crate::run::worker::{WorkerConfig, run_worker};

/// `arena worker`.
#[derive(Args, Debug)]
pub struct WorkerArgs {
    #[command(flatten)]
    db: DbArg,
    #[command(flatten)]
    concurrency: ConcurrencyArg,
    #[command(flatten)]
    registry: EnginesFileArg,
    /// Serve only this run, and exit when it ends (default: every open run, until Ctrl-C).
    #[arg(long)]
    run: Option<i64>,
    /// Seconds a claimed pair stays with this worker without a heartbeat (every third of it); then another worker replays it.
    #[arg(long, default_value_t = 60, value_parser = super::shared::at_least::<u64, 3>)]
    lease: u64,
    /// Seconds between looks for new runs.
    #[arg(long, default_value_t = 10, value_parser = super::shared::at_least::<u64, 1>)]
    poll: u64,
    #[command(flatten)]
    quiet: QuietArg,
    #[command(flatten)]
    slots: SlotArgs,
    /// Build source engines from this repository (repeatable): NAME is an engine's name or the repository's short name (e.g. myengine=~/src/myengine). Runs never choose a worker's repositories.
    #[arg(long = "repo", value_name = "NAME=PATH|URL", value_parser = parse_repo)]
    repos: Vec<(String, String)>,
    /// Play on although an engine's binary (or arena, for the bundled engine) is not what this machine played the run with before and its bench signature is another or none (a change with the same signature plays on by itself); the change is recorded and reported.
    #[arg(long)]
    accept_change: bool,
    /// This machine's name in the database, its reports and the dashboard (default: the host name). Give each machine its own.
    #[arg(long)]
    name: Option<String>,
}

/// `--repo NAME=PATH|URL`.
fn parse_repo(text: &str) -> Result<(String, String), model::Invalid> {
    match text.split_once('=') {
        Some((name, repo)) if !name.is_empty() && !repo.is_empty() => {
            Ok((name.to_string(), crate::engine_io::source::repo_location(repo)))
        }
        _ => Err(model::Invalid::new("repo", format!("'{text}' is not NAME=PATH|URL (e.g. myengine=~/src/myengine)"))),
    }
}

/// `arena worker`.
pub(super) async fn worker(args: WorkerArgs) -> CliResult {
    let concurrency = args.concurrency.or_default()?;
    if let Some(name) = &args.name {
        if name.is_empty() || name.contains(char::is_whitespace) || name.contains(':') {
            return Err(anyhow!("--name '{name}' must be a word without spaces or ':' (e.g. --name box-2)"));
        }
        crate::util::name_machine(name);
    }
    // A worker meets its runs later: slots get one CPU's share each, pondering or not.
    let machine = machine(&args.db.target, args.quiet.quiet, &args.slots, true)?;
    let here = machine.here(crate::run::life::SlotNeeds { concurrency, per_slot: 1, clocked: true })?;
    // A worker joins runs that exist: a mistyped file must not become a new, empty database.
    let db = open_existing(&args.db.target).await?;
    let config = WorkerConfig {
        runtime: crate::run::life::runtime(&db, here)?,
        concurrency,
        engines_file: args.registry.engines_file,
        only_run: args.run,
        lease: Duration::from_secs(args.lease),
        poll: Duration::from_secs(args.poll),
        repos: args.repos,
        accept_change: args.accept_change,
    };
    let summary = run_worker(config).await;
    db.close().await;
    let summary = summary?;
    if !args.quiet.quiet {
        crate::term::note(&format!(
            "worker done: {} pair(s) played, {} suite chunk(s) answered, {} given up (lease lost)",
            summary.pairs, summary.chunks, summary.lost
        ));
    }
    Ok(())
}
