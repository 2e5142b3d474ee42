//! Every engine of a run started once before the run exists.

use std::path::Path;

use model::{Spec, TimeControl};

use super::chunks;
use super::error::RunError;
use crate::engine_io::engines::EngineSpec;
use crate::engine_io::player::Player;
use crate::engine_io::process::Timeouts;

/// Starts every engine of a run once as its games or searches will start
/// it — its options, and under node-time the node-time option the clock
/// sets — and quits it, so that a bad command, option or setting is
/// reported before anything is stored or played.
///
/// Returns each engine's `id name`, in the run's order.
///
/// # Errors
///
/// The first engine's [`crate::engine_io::process::EngineError`].
pub async fn preflight(arena_exe: &Path, timeouts: Timeouts, spec: &Spec) -> Result<Vec<Option<String>>, RunError> {
    let engines: Vec<(&EngineSpec, TimeControl)> = match spec {
        Spec::Games(games) => {
            games.engines.iter().enumerate().map(|(i, engine)| (engine, games.time_control(i).clone())).collect()
        }
        Spec::Suite(suite) => suite.engines.iter().map(|engine| (engine, chunks::time_control(suite))).collect(),
    };
    let mut ids = Vec::with_capacity(engines.len());
    for (engine, tc) in engines {
        let mut player = Player::new(engine.clone(), tc, engine.launch(arena_exe), None, timeouts);
        let ready = player.ready_for_game().await.map(|process| ids.push(process.id_name().map(str::to_string)));
        if ready.is_ok() && engine.ponder && !player.ponders() {
            crate::term::warn(&format!(
                "engine '{}' does not declare the option Ponder: it plays without pondering",
                engine.name
            ));
        }
        player.shutdown().await;
        ready?;
    }
    Ok(ids)
}
