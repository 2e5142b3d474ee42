//! A player, an engine's seat at the board: one engine's spec and its (reused) process, restarted
//! after a crash, stall or timeout, with the restarts counted.

use std::path::PathBuf;

use crate::engine_io::engines::{EngineSpec, Launch};
use crate::engine_io::iolog::IoLog;
use crate::engine_io::process::{EngineError, EngineProcess, Timeouts};
use model::TimeControl;

/// An engine taking part in games.
pub struct Player {
    /// What to start.
    pub spec: EngineSpec,
    /// The time control this engine plays under.
    pub tc: TimeControl,
    launch: Launch,
    extra_options: Vec<(String, String)>,
    /// Options that change between games (a tuning run's θ±), set after the spec's.
    varying: Vec<(String, String)>,
    /// `varying` changed since the process was configured.
    varied: bool,
    stderr_log: Option<PathBuf>,
    timeouts: Timeouts,
    process: Option<EngineProcess>,
    starts: u32,
    /// The CPUs its processes run on (`--affinity`), all without.
    cpus: Option<Vec<usize>>,
    /// The current game's I/O log, given to every process it starts.
    log: Option<IoLog>,
    /// It ponders: its spec asks for it and the engine declares `Ponder`.
    ponders: bool,
}

impl Player {
    /// A player that starts its process on first use.
    pub fn new(
        spec: EngineSpec,
        tc: TimeControl,
        launch: Launch,
        stderr_log: Option<PathBuf>,
        timeouts: Timeouts,
    ) -> Player {
        Player {
            spec,
            tc,
            launch,
            extra_options: Vec::new(),
            varying: Vec::new(),
            varied: false,
            stderr_log,
            timeouts,
            process: None,
            starts: 0,
            cpus: None,
            log: None,
            ponders: false,
        }
    }

    /// Logs every line to and from its engine into `log` from now on
    /// (the next game's log), `None` to stop.
    pub fn log_to(&mut self, log: Option<IoLog>) {
        if let Some(process) = &mut self.process {
            process.set_log(log.clone());
        }
        self.log = log;
    }

    /// Runs its processes on `cpus` from the next start on (`--affinity`).
    pub fn pin(&mut self, cpus: Option<Vec<usize>>) {
        self.cpus = cpus;
    }

    /// The protocol timeouts it runs under.
    pub fn timeouts(&self) -> Timeouts {
        self.timeouts
    }

    /// How many times the process was started again after the first start.
    pub fn restarts(&self) -> u32 {
        self.starts.saturating_sub(1)
    }

    /// Options for the next games, set after the spec's (a tuning run's
    /// values for one pair): sent to a running process before its next game.
    pub fn vary_options(&mut self, options: Vec<(String, String)>) {
        if options != self.varying {
            self.varying = options;
            self.varied = true;
        }
    }

    /// The engine's process, started if needed, ready for a new game
    /// (`ucinewgame` + `isready`). A process that fails `isready` is replaced once.
    ///
    /// # Errors
    ///
    /// [`EngineError`] when the engine cannot be started or made ready.
    pub async fn ready_for_game(&mut self) -> Result<&mut EngineProcess, EngineError> {
        if let Some(mut process) = self.process.take() {
            if std::mem::take(&mut self.varied)
                && let Err(e) = process.set_options(&self.varying, self.timeouts.ready).await
            {
                process.kill().await;
                return Err(e);
            }
            match process.new_game(self.timeouts.ready).await {
                Ok(()) => return Ok(self.process.insert(process)),
                Err(_) => process.kill().await,
            }
        }
        let process = self.start().await?;
        Ok(self.process.insert(process))
    }

    async fn start(&mut self) -> Result<EngineProcess, EngineError> {
        if self.starts == 0 {
            self.extra_options = self.node_time_options().await?;
        }
        self.starts += 1;
        self.varied = false;
        let extra: Vec<(String, String)> = self.extra_options.iter().chain(&self.varying).cloned().collect();
        let mut process = EngineProcess::start(
            &self.spec,
            &self.launch,
            &extra,
            self.stderr_log.as_deref(),
            self.timeouts,
            self.cpus.as_deref(),
        )
        .await?;
        process.set_log(self.log.clone());
        // Pondering is switched on only for an engine that declares it.
        self.ponders = false;
        if self.spec.ponder
            && let Some(name) = process.declared("Ponder").map(|d| d.name.clone())
        {
            if let Err(e) = process.set_options(&[(name, "true".into())], self.timeouts.ready).await {
                process.kill().await;
                return Err(e);
            }
            self.ponders = true;
        }
        match process.new_game(self.timeouts.ready).await {
            Ok(()) => Ok(process),
            Err(e) => {
                process.kill().await;
                Err(e)
            }
        }
    }

    /// Under node-time the engine must count its time in nodes too: the
    /// option `NodesTime` (this project's engine) or `nodestime` (Stockfish).
    async fn node_time_options(&mut self) -> Result<Vec<(String, String)>, EngineError> {
        let Some(per_ms) = self.tc.node_time else { return Ok(Vec::new()) };
        let probe = EngineProcess::start(
            &self.spec,
            &self.launch,
            &[],
            self.stderr_log.as_deref(),
            self.timeouts,
            self.cpus.as_deref(),
        )
        .await?;
        let declared = probe.declared("NodesTime").map(|d| d.name.clone());
        probe.quit(self.timeouts.quit).await;
        match declared {
            Some(name) => Ok(vec![(name, per_ms.to_string())]),
            None => Err(EngineError::Option {
                name: self.spec.name.clone(),
                problem: "nodetime needs an engine option NodesTime/nodestime, which this engine does not declare"
                    .into(),
            }),
        }
    }

    /// Whether it ponders (see [`crate::game`]'s pondering): asked for, and
    /// declared by the engine.
    pub fn ponders(&self) -> bool {
        self.ponders
    }

    /// The running process, if any.
    pub fn process(&mut self) -> Option<&mut EngineProcess> {
        self.process.as_mut()
    }

    /// Kills the process (after a stall, timeout or crash); the next game starts a new one.
    pub async fn discard(&mut self) {
        if let Some(process) = self.process.take() {
            process.kill().await;
        }
    }

    /// Quits the process politely (kill after the quit timeout).
    pub async fn shutdown(&mut self) {
        if let Some(process) = self.process.take() {
            process.quit(self.timeouts.quit).await;
        }
    }
}
