//! `arena check ENGINE…`: each engine's UCI compliance, one table per engine
//! (see [`crate::engine_io::check`]); the status is non-zero when a step
//! fails, so the command can gate a script.

use anyhow::anyhow;
use clap::Args;
use model::EngineSpec;

use super::{CliResult, outln};
use crate::engine_io::check::{Status, check};
use crate::engine_io::engines::Registry;
use crate::engine_io::process::Timeouts;

/// `arena check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Engines: names from engines.toml or presets, or UCI programs (a path, or a program on PATH).
    #[arg(required = true, value_name = "ENGINE")]
    engines: Vec<String>,
    #[command(flatten)]
    registry: super::EnginesFileArg,
}

/// `arena check`.
pub(super) async fn run(args: CheckArgs) -> CliResult {
    let registry = args.registry.load()?;
    let mut failed = Vec::new();
    for name in &args.engines {
        let spec = resolve(&registry, name).await?;
        failed.extend(check_one(name, &spec).await?);
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(anyhow!("{} of {} engines failed the check: {}", failed.len(), args.engines.len(), failed.join("; ")))
    }
}

/// Checks one engine and prints its findings; what it failed, if anything:
/// `NAME (STEP and STEP)`.
///
/// # Errors
///
/// arena's own program cannot be found (to launch a preset).
pub(super) async fn check_one(name: &str, spec: &EngineSpec) -> CliResult<Option<String>> {
    let arena_exe = std::env::current_exe()?;
    let launch = spec.launch(&arena_exe);
    let what = spec.describe();
    crate::term::set_line(&format!("checking {name}…"));
    let compliance = check(spec, &launch, Timeouts::default()).await;
    crate::term::end_line();
    let id = compliance.id_name.as_deref().map(|id| format!(" [id name: {id}]")).unwrap_or_default();
    outln!("engine {name}: {what}{id}");
    let width = compliance.findings.iter().map(|f| f.step.chars().count()).max().unwrap_or(0);
    for finding in &compliance.findings {
        outln!("  {:<width$}  {:<4}  {}", finding.step, finding.status.as_str(), finding.detail);
    }
    let count = |status| compliance.findings.iter().filter(|f| f.status == status).count();
    outln!("  {}: {} pass, {} warn, {} fail\n", name, count(Status::Pass), count(Status::Warn), count(Status::Fail));
    if compliance.worst() != Status::Fail {
        return Ok(None);
    }
    let steps: Vec<&str> = compliance.findings.iter().filter(|f| f.status == Status::Fail).map(|f| f.step).collect();
    Ok(Some(format!("{name} ({})", steps.join(" and "))))
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
