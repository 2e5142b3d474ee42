//! One game slot: plays claimed pairs under a lease. Both games of a pair
//! are played by the same two engine processes (kept between pairs); each
//! finished game is stored in one transaction, the second together with the
//! pair's counts and the SPRT step. While it plays, a heartbeat renews the
//! lease every third of its length; when a renewal is refused (the pair was
//! handed to another worker, or the run stopped or decided) the pair is
//! dropped at once and the slot moves on. The local run (`arena elo …`) and
//! `arena worker` both play through slots.

use std::collections::HashMap;
use std::future::Future;
use std::time::Duration;

use db::{ClaimedPair, PairCommit, PairingCounts, SprtStep};
use openings::Opening;
use reports::tally::Tally;

use super::{RunError, RunSpec, Runtime};
use crate::clock::TimeControl;
use crate::game;
use crate::player::Player;

/// How long a claimed pair stays with its worker without a heartbeat.
pub const DEFAULT_LEASE: Duration = Duration::from_secs(60);

/// A run as this process plays it: its spec with engines resolved on this
/// machine, and their time controls.
#[derive(Clone, Debug)]
pub struct PlayableRun {
    /// Run id.
    pub run: i64,
    /// The spec, engines resolved here.
    pub spec: RunSpec,
    tcs: Vec<TimeControl>,
}

impl PlayableRun {
    /// Checks the time controls of a run's engines.
    ///
    /// # Errors
    ///
    /// [`RunError::Spec`] for a bad time control.
    pub fn new(run: i64, spec: RunSpec) -> Result<PlayableRun, RunError> {
        let tcs = (0..spec.engines.len())
            .map(|i| spec.time_control(i).map_err(|e| RunError::Spec(e.to_string())))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(PlayableRun { run, spec, tcs })
    }

    /// The SPRT step after a pair of the run's first pairing (SPRT runs only).
    pub fn judge(&self, counts: &PairingCounts) -> Option<SprtStep> {
        let test = self.spec.sprt?;
        let &(a, b) = self.spec.pairings.first()?;
        if counts.engine_a != self.spec.engines[a].name || counts.engine_b != self.spec.engines[b].name {
            return None;
        }
        let llr = test.llr(&tally_of(counts).pairs());
        Some(SprtStep { llr, verdict: test.decide(llr).map(|v| v.as_str().to_string()) })
    }
}

/// Stored counts as a [`Tally`].
pub fn tally_of(counts: &PairingCounts) -> Tally {
    let count = |n: i64| u64::try_from(n).unwrap_or(0);
    Tally {
        wins: count(counts.wins),
        draws: count(counts.draws),
        losses: count(counts.losses),
        pentanomial: counts.pentanomial.map(count),
    }
}

/// How a pair ended for this slot.
#[derive(Debug)]
pub enum PairEnd {
    /// Both games stored and counted.
    Counted(PairCommit),
    /// The lease was lost: nothing more of this pair is stored by us.
    LeaseLost,
    /// Abandoned on request (second Ctrl-C); the caller releases the pair.
    Abandoned,
}

/// A game slot with its engine processes.
pub struct Slot {
    runtime: Runtime,
    /// Names this slot in the database (`host:pid/slot`) and in log files.
    worker: String,
    lease: Duration,
    players: HashMap<(i64, String), Player>,
}

impl Slot {
    /// A slot of worker `worker` holding pairs for `lease` between heartbeats.
    pub fn new(runtime: Runtime, worker: String, lease: Duration) -> Slot {
        Slot { runtime, worker, lease, players: HashMap::new() }
    }

    /// The database it stores in.
    pub fn db(&self) -> &db::Db {
        &self.runtime.db
    }

    /// The worker name claims are made under.
    pub fn worker(&self) -> &str {
        &self.worker
    }

    /// The lease length.
    pub fn lease(&self) -> Duration {
        self.lease
    }

    /// Plays both games of a claimed pair. `first_game` is called when the
    /// first game is stored; `abandon` resolving drops the pair.
    ///
    /// # Errors
    ///
    /// [`RunError::Db`] when a game cannot be stored; [`RunError::Spec`] when
    /// the pair names an engine the run does not have.
    pub async fn play(
        &mut self,
        run: &PlayableRun,
        pair: &ClaimedPair,
        first_game: impl FnOnce(),
        abandon: impl Future<Output = ()>,
    ) -> Result<PairEnd, RunError> {
        let plan = &pair.plan;
        let opening = Opening {
            name: plan.opening_name.clone(),
            fen: plan.fen.clone(),
            moves: plan.opening_moves.clone(),
            san: plan.opening_san.clone(),
        };
        let mut a = self.player(run, &plan.engine_a)?;
        let mut b = self.player(run, &plan.engine_b)?;
        let db = &self.runtime.db;
        let rules = run.spec.adjudication;
        let games = async {
            let record = game::play(&mut a, &mut b, &opening, rules).await;
            if !db.save_first_game(pair, &record).await? {
                return Ok(PairEnd::LeaseLost);
            }
            first_game();
            let record = game::play(&mut b, &mut a, &opening, rules).await;
            let commit = db.finish_pair(pair, &record, &|counts| run.judge(counts)).await?;
            Ok::<_, RunError>(commit.map_or(PairEnd::LeaseLost, PairEnd::Counted))
        };
        let heartbeat = async {
            loop {
                tokio::time::sleep(self.lease / 3).await;
                // A failed renewal (database unreachable) is retried: storing
                // checks the lease anyway.
                if let Ok(false) = db.renew_lease(pair, self.lease).await {
                    return;
                }
            }
        };
        let end = tokio::select! {
            end = games => end,
            () = heartbeat => Ok(PairEnd::LeaseLost),
            () = abandon => Ok(PairEnd::Abandoned),
        };
        if matches!(end, Ok(PairEnd::Counted(_))) {
            self.players.insert((run.run, plan.engine_a.clone()), a);
            self.players.insert((run.run, plan.engine_b.clone()), b);
        } else {
            // Possibly mid-game: a fresh start for the next pair.
            a.shutdown().await;
            b.shutdown().await;
        }
        end
    }

    /// Quits every engine process of the slot.
    pub async fn shutdown(self) {
        for (_, mut player) in self.players {
            player.shutdown().await;
        }
    }

    fn player(&mut self, run: &PlayableRun, name: &str) -> Result<Player, RunError> {
        if let Some(player) = self.players.remove(&(run.run, name.to_string())) {
            return Ok(player);
        }
        let index = run
            .spec
            .engines
            .iter()
            .position(|e| e.name == name)
            .ok_or_else(|| RunError::Spec(format!("pair names engine '{name}', which the run does not have")))?;
        let engine = &run.spec.engines[index];
        let log = self.runtime.log_dir.as_ref().map(|dir| {
            dir.join(format!("run-{}", run.run)).join(format!(
                "{}-{}.stderr.log",
                sanitize(name),
                sanitize(&self.worker)
            ))
        });
        if let Some(folder) = log.as_ref().and_then(|path| path.parent()) {
            let _ = std::fs::create_dir_all(folder);
        }
        Ok(Player::new(
            engine.clone(),
            run.tcs[index].clone(),
            engine.launch(&self.runtime.arena_exe),
            log,
            self.runtime.timeouts,
        ))
    }
}

/// `name` as a file-name part: letters, digits, `-` and `_` kept, the rest `_`.
pub(crate) fn sanitize(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect()
}
