//! A game slot: claims units one at a time and keeps its players (one
//! engine process each) between them, on its own CPUs when pinned.

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;

use db::Db;
use model::TimeControl;

use super::error::RunError;
use crate::engine_io::affinity::Affinity;
use crate::engine_io::engines::EngineSpec;
use crate::engine_io::iolog::IoLog;
use crate::engine_io::player::Player;
use crate::engine_io::process::Timeouts;
use crate::util::sanitize;

/// Where work executes: the database, the engines' binary, logs, timeouts.
#[derive(Clone, Debug)]
pub struct Runtime {
    /// The database.
    pub db: Db,
    /// The `arena` binary (runs the bundled engine).
    pub arena_exe: PathBuf,
    /// Folder for engines' stderr logs (a `run-N` folder per run inside).
    pub log_dir: Option<PathBuf>,
    /// Protocol timeouts.
    pub timeouts: Timeouts,
    /// Print progress to stderr.
    pub progress: bool,
    /// Core pinning: each slot's engines on its own CPUs (`--affinity`).
    pub affinity: Option<Affinity>,
    /// Keep each game's engine I/O log in `log_dir` (`--no-io-log` turns it off).
    pub io_logs: bool,
}

impl Runtime {
    /// The folder of run `run`'s logs.
    pub fn run_folder(&self, run: i64) -> Option<PathBuf> {
        self.log_dir.as_ref().map(|dir| dir.join(format!("run-{run}")))
    }
}

/// One game slot: claims units one at a time and keeps one player per run
/// and engine between them.
pub struct Slot {
    runtime: Runtime,
    /// Names this slot in the database (`host:pid/index`) and in log files.
    name: String,
    lease: Duration,
    players: HashMap<(i64, String), Player>,
    /// The CPUs its engines run on (`--affinity`).
    cpus: Option<Vec<usize>>,
}

impl Slot {
    /// A slot named `name`, holding units for `lease` between heartbeats.
    pub fn new(runtime: Runtime, name: String, lease: Duration) -> Slot {
        Slot { runtime, name, lease, players: HashMap::new(), cpus: None }
    }

    /// Opens a new I/O log for a game of run `run`, when logs are kept.
    pub fn io_log(&self, run: i64) -> Option<IoLog> {
        let folder = self.runtime.run_folder(run).filter(|_| self.runtime.io_logs)?;
        Some(IoLog::new(folder))
    }

    /// Runs the slot's engines on `cpus`.
    pub fn pin(&mut self, cpus: Vec<usize>) {
        self.cpus = Some(cpus);
    }

    /// The database.
    pub fn db(&self) -> &Db {
        &self.runtime.db
    }

    /// The name claims are made under.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The lease length.
    pub fn lease(&self) -> Duration {
        self.lease
    }

    /// The players of `engines` (each with its time control) for run `run`:
    /// those kept from earlier units, or new ones (their processes started
    /// on first use). They stay with the slot, so a unit dropped midway
    /// leaves them here to be shut down.
    ///
    /// # Errors
    ///
    /// [`RunError::Spec`] when an engine is named twice.
    pub fn players<const N: usize>(
        &mut self,
        run: i64,
        engines: [(&EngineSpec, &TimeControl); N],
    ) -> Result<[&mut Player; N], RunError> {
        for (engine, tc) in engines {
            if !self.players.contains_key(&(run, engine.name.clone())) {
                let log = self.runtime.run_folder(run).map(|folder| {
                    let _ = std::fs::create_dir_all(&folder);
                    folder.join(format!("{}-{}.stderr.log", sanitize(&engine.name), sanitize(&self.name)))
                });
                let launch = engine.launch(&self.runtime.arena_exe);
                let mut player = Player::new(engine.clone(), tc.clone(), launch, log, self.runtime.timeouts);
                player.pin(self.cpus.clone());
                self.players.insert((run, engine.name.clone()), player);
            }
        }
        let keys = engines.map(|(engine, _)| (run, engine.name.clone()));
        if (0..N).any(|i| keys[..i].contains(&keys[i])) {
            return Err(RunError::Spec(format!("run {run} names engine '{}' twice", keys[0].1)));
        }
        let players = self.players.get_disjoint_mut(keys.each_ref());
        Ok(players.map(|player| player.expect("inserted above")))
    }

    /// Quits every engine process of the slot.
    pub async fn shutdown(&mut self) {
        for (_, mut player) in self.players.drain() {
            player.shutdown().await;
        }
    }
}
