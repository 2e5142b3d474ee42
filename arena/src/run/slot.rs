//! A game slot: claims units one at a time and keeps its players (one
//! engine process each) between them, on its own CPUs when pinned, until
//! they have sat idle for [`IDLE_UNITS`] units.

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

/// A slot quits a player's engine once none of the slot's last
/// `IDLE_UNITS` units used it. A worker serves run after run for days and
/// would otherwise keep every engine it ever started; a rotation of units
/// (four scaling runs of eight engines each, taken in turn) is well inside.
pub const IDLE_UNITS: u64 = 64;

/// A player the slot keeps, and the number of its last unit that used it.
struct Kept {
    player: Player,
    last_unit: u64,
}

/// One game slot: claims units one at a time and keeps one player per run
/// and engine between them.
pub struct Slot {
    runtime: Runtime,
    /// Names this slot in the database (`host:pid/index`) and in log files.
    name: String,
    lease: Duration,
    players: HashMap<(i64, String), Kept>,
    /// Units that asked for players so far.
    units: u64,
    /// The CPUs its engines run on (`--affinity`).
    cpus: Option<Vec<usize>>,
}

impl Slot {
    /// A slot named `name`, holding units for `lease` between heartbeats.
    pub fn new(runtime: Runtime, name: String, lease: Duration) -> Slot {
        Slot { runtime, name, lease, players: HashMap::new(), units: 0, cpus: None }
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

    /// The players of `engines` (each with its time control) for run `run`,
    /// for one unit: those kept from earlier units, or new ones (their
    /// processes started on first use). They stay with the slot, so a unit
    /// dropped midway leaves them here to be shut down.
    ///
    /// # Errors
    ///
    /// [`RunError`] when an engine is named twice.
    pub fn players<const N: usize>(
        &mut self,
        run: i64,
        engines: [(&EngineSpec, &TimeControl); N],
    ) -> Result<[&mut Player; N], RunError> {
        self.units += 1;
        for (engine, tc) in engines {
            if !self.players.contains_key(&(run, engine.name.clone())) {
                let log = self.runtime.run_folder(run).map(|folder| {
                    let _ = std::fs::create_dir_all(&folder);
                    folder.join(format!("{}-{}.stderr.log", sanitize(&engine.name), sanitize(&self.name)))
                });
                let launch = engine.launch(&self.runtime.arena_exe);
                let mut player = Player::new(engine.clone(), tc.clone(), launch, log, self.runtime.timeouts);
                player.pin(self.cpus.clone());
                self.players.insert((run, engine.name.clone()), Kept { player, last_unit: 0 });
            }
        }
        let keys = engines.map(|(engine, _)| (run, engine.name.clone()));
        if (0..N).any(|i| keys[..i].contains(&keys[i])) {
            return Err(RunError::NamedTwice { run, engine: keys[0].1.to_string() });
        }
        let units = self.units;
        let kept = self.players.get_disjoint_mut(keys.each_ref());
        Ok(kept.map(|kept| {
            let kept = kept.expect("inserted above");
            kept.last_unit = units;
            &mut kept.player
        }))
    }

    /// Quits the engines that none of the last [`IDLE_UNITS`] units used
    /// (those of a finished run, say).
    pub async fn retire_idle(&mut self) {
        let units = self.units;
        let idle: Vec<(i64, String)> = (self.players.iter())
            .filter(|(_, kept)| units - kept.last_unit >= IDLE_UNITS)
            .map(|(key, _)| key.clone())
            .collect();
        for key in idle {
            if let Some(mut kept) = self.players.remove(&key) {
                kept.player.shutdown().await;
            }
        }
    }

    /// Quits every engine process of the slot.
    pub async fn shutdown(&mut self) {
        for (_, mut kept) in self.players.drain() {
            kept.player.shutdown().await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use db::Target;

    #[tokio::test]
    async fn a_slot_quits_the_engines_its_last_units_did_not_use() {
        let path = std::env::temp_dir().join(format!("arena-slot-test-{}.db", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let db = Db::open(&Target::Sqlite(path.clone())).await.expect("a scratch database");
        let runtime = Runtime {
            db,
            arena_exe: PathBuf::from("arena"),
            log_dir: None,
            timeouts: Timeouts::default(),
            progress: false,
            affinity: None,
            io_logs: false,
        };
        let mut slot = Slot::new(runtime, "test".into(), Duration::from_secs(60));
        let tc: TimeControl = "nodes=1000".parse().expect("a time control");
        let spec = |name: &str| EngineSpec { name: name.into(), preset: Some("plain".into()), ..EngineSpec::default() };
        let (finished, a, b) = (spec("finished"), spec("a"), spec("b"));
        let finished_key = (1, "finished".to_string());
        slot.players(1, [(&finished, &tc)]).expect("players");
        // Run 1 is over; run 2's units follow. Run 1's engine stays while it
        // is one of the last IDLE_UNITS units' ...
        for unit in 1..IDLE_UNITS {
            slot.players(2, [(&a, &tc), (&b, &tc)]).expect("players");
            slot.retire_idle().await;
            assert!(slot.players.contains_key(&finished_key), "retired after {unit} units");
        }
        // ... and goes with the next.
        slot.players(2, [(&a, &tc), (&b, &tc)]).expect("players");
        slot.retire_idle().await;
        assert!(!slot.players.contains_key(&finished_key));
        assert_eq!(slot.players.len(), 2, "run 2's engines stay");
        // A unit of run 1 gets a new player.
        slot.players(1, [(&finished, &tc)]).expect("players");
        assert_eq!(slot.players.len(), 3);
        slot.shutdown().await;
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
    }
}
