//! Clocks scaled to the machine (`--scale-nps`): before its first pair of a
//! run, a process measures its speed with the bench of the run's first
//! engine, one bench per game slot at once (the machine as loaded as when
//! it plays, as fishtest's worker measures), and plays the run's clocks
//! multiplied by reference / measured. A machine slower than the run's
//! floor is refused.

use model::GamesSpec;

use super::error::RunError;
use crate::engine_io::bench::run_once;
use db::Db;

/// The factor this machine's clocks are multiplied by for run `run` (`None`
/// when the run does not scale clocks), measured with `slots` benches at
/// once and recorded with the speed for the run's reports.
///
/// # Errors
///
/// [`RunError`] when the bench fails or the machine is below the
/// floor; [`RunError::Db`] when the speed cannot be recorded.
pub async fn clock_scale(
    db: &Db,
    run: i64,
    spec: &GamesSpec,
    arena_exe: &std::path::Path,
    slots: usize,
) -> Result<Option<f64>, RunError> {
    let Some(reference) = spec.machines.scale_nps else { return Ok(None) };
    let engine = spec.engines.first().ok_or_else(|| RunError::NoEngines { run })?;
    let (name, launch, args) =
        (model::base_name(&engine.name).to_string(), engine.launch(arena_exe), engine.bench_args.clone());
    crate::term::set_line(&format!("measuring this machine's speed: {} benches of {name} at once…", slots.max(1)));
    let measured = tokio::task::spawn_blocking(move || {
        let benches: Vec<_> = (0..slots.max(1))
            .map(|_| {
                let (name, launch, args) = (name.clone(), launch.clone(), args.clone());
                std::thread::spawn(move || run_once(&name, &launch, &args))
            })
            .collect();
        let speeds = benches
            .into_iter()
            .map(|b| match b.join() {
                Ok(bench) => bench.map(|r| r.nps).map_err(RunError::from),
                Err(_) => Err(RunError::BenchPanicked),
            })
            .collect::<Result<Vec<u64>, RunError>>();
        speeds.map(|s| s.iter().sum::<u64>() / s.len().max(1) as u64)
    })
    .await
    .map_err(|source| RunError::Task { what: "the speed bench", source })?;
    crate::term::end_line();
    let nps = measured?;
    if let Some(floor) = spec.machines.floor_nps()
        && nps < floor
    {
        return Err(RunError::BelowFloor { nps, floor, reference });
    }
    let factor = reference as f64 / nps.max(1) as f64;
    db.record_speed(run, &crate::util::machine_name(), nps, factor).await?;
    crate::term::note(&format!(
        "run {run}: this machine benches {} k nps (reference {} k): clocks × {factor:.2}",
        nps / 1000,
        reference / 1000
    ));
    Ok(Some(factor))
}
