//! `arena check ENGINE…`: each engine's UCI compliance, one table per engine
//! (see [`crate::engine_io::check`]); the status is non-zero when a step
//! fails, so the command can gate a script.

use anyhow::anyhow;
use clap::Args;
use model::EngineSpec;

use super::shared::CliResult;
use crate::engine_io::engines::Registry;

/// `arena check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Engines: names from engines.toml or presets, or UCI programs (a path, or a program on PATH).
    #[arg(required = true, value_name = "ENGINE")]
    engines: Vec<String>,
    #[command(flatten)]
    registry: super::shared::EnginesFileArg,
}

/// `arena check`.
pub(super) async fn run(args: CheckArgs) -> CliResult {
    let registry = args.registry.load()?;
    let mut failed = Vec::new();
    for name in &args.engines {
        let spec = resolve(&registry, name).await?;
        failed.extend(super::common::check_one(name, &spec).await?);
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(anyhow!("{} of {} engines failed the check: {}", failed.len(), args.engines.len(), failed.join("; ")))
    }
}

/// An engine by name, or a program by its path or on PATH (run without arguments).
async fn resolve(registry: &Registry, name: &str) -> CliResult<EngineSpec> {
    let mut spec = registry
        .get_or_path(name)
        .map_err(|e| anyhow::Error::new(e).context("arena check: give an engine's name or the path of its program"))?;
    let stored = &crate::run::identity::stored_repo;
    crate::run::identity::build_here(std::slice::from_mut(&mut spec), stored).await?;
    Ok(spec)
}
