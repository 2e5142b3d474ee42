//! Every engine of a run started once before the run exists.

use std::path::Path;
use std::time::Duration;

use model::{Spec, TimeControl, node_limit_kept};

use super::chunks;
use super::error::RunError;
use crate::engine_io::engines::EngineSpec;
use crate::engine_io::player::Player;
use crate::engine_io::process::{Deadline, ThinkFailure, Timeouts};
use crate::engine_io::uci::command::{self, GoLimits};
use crate::game::clock::{Clock, go_limits};

/// How long a first search runs before the live line says what it waits for.
const SAY_WAITING_AFTER: Duration = Duration::from_secs(2);

/// Starts every engine of a run once as its games or searches will start
/// it — its options, and under node-time the node-time option the clock
/// sets — and quits it, so that a bad command, option or setting is
/// reported before anything is stored or played. Where the engine must
/// stop by itself (nodes, depth, node-time; a suite's every limit) it
/// searches the start position once, as the run will ask: an engine that
/// ignores the limit is named here, after one stall deadline, instead of
/// stalling every game, and one that stops far from a node limit is
/// warned of.
///
/// Returns each engine's `id name`, in the run's order.
///
/// # Errors
///
/// The first engine's [`crate::engine_io::process::EngineError`], or
/// [`RunError`] for a first search that failed.
pub async fn preflight(arena_exe: &Path, timeouts: Timeouts, spec: &Spec) -> Result<Vec<Option<String>>, RunError> {
    let engines: Vec<(&EngineSpec, TimeControl, Option<FirstSearch>)> = match spec {
        Spec::Games(games) => (games.engines.iter().zip(games.playable()?.time_controls))
            .map(|(engine, tc)| {
                let clock = Clock::new(tc);
                let deadline = clock.deadline();
                let first = matches!(deadline, Deadline::Available(_))
                    .then(|| FirstSearch::new(&go_limits(&clock, &clock, &clock), deadline));
                (engine, tc.clone(), first)
            })
            .collect(),
        Spec::Suite(suite) => {
            let tc = chunks::time_control(suite);
            let deadline = Clock::new(&tc).deadline();
            let first = suite.limits.first().map(|limit| FirstSearch::new(&super::suite::go_limits(*limit), deadline));
            suite.engines.iter().map(|engine| (engine, tc.clone(), first.clone())).collect()
        }
    };
    let mut ids = Vec::with_capacity(engines.len());
    for (engine, tc, first) in engines {
        let mut player = Player::new(engine.clone(), tc, engine.launch(arena_exe), None, timeouts);
        let ready = player.ready_for_game().await.map(|process| ids.push(process.id_name().map(str::to_string)));
        if ready.is_ok() && engine.ponder && !player.ponders() {
            crate::term::warn(&format!(
                "engine '{}' does not declare the option Ponder: it plays without pondering",
                engine.name
            ));
        }
        let searched = match (ready, first) {
            (Ok(()), Some(first)) => first.run(&mut player, &engine.name).await,
            (Ok(()), None) => Ok(()),
            (Err(e), _) => Err(e.into()),
        };
        player.shutdown().await;
        searched?;
    }
    Ok(ids)
}

/// The search an engine makes before the run: the start position with
/// `go`, waited for until `deadline` (the time control's: a stall deadline).
#[derive(Clone)]
struct FirstSearch {
    go: String,
    /// The node limit in `go`, if any: a search far from it is warned of.
    nodes: Option<u64>,
    deadline: Deadline,
}

impl FirstSearch {
    fn new(limits: &GoLimits, deadline: Deadline) -> FirstSearch {
        FirstSearch { go: command::go(limits), nodes: limits.nodes, deadline }
    }

    /// Runs it on `player`'s engine, called `name`.
    ///
    /// # Errors
    ///
    /// [`RunError`] naming the limit the engine did not keep, or how
    /// it failed.
    async fn run(self, player: &mut Player, name: &str) -> Result<(), RunError> {
        let FirstSearch { go, nodes, deadline } = self;
        let (Deadline::Available(limit) | Deadline::Wall(limit)) = deadline;
        let Some(process) = player.process() else { return Ok(()) };
        let failure = match said_if_slow(process.think("position startpos", &go, deadline), name, &go, limit).await {
            Ok(thought) => {
                warn_if_node_limit_missed(name, &go, nodes, thought.info.nodes);
                return Ok(());
            }
            Err(failure) => failure,
        };
        let why = match failure {
            ThinkFailure::Timeout { elapsed, spent, nodes } => {
                let reported = nodes.map(|n| format!("; it reported {n} nodes")).unwrap_or_default();
                format!(
                    "does not keep the run's limit: '{go}' gave {}{reported}. `arena check {name}` tests each kind of limit: give it one it keeps, or longer before a stall (stall=S; suites: --stall S)",
                    crate::game::stalled(elapsed, spent)
                )
            }
            ThinkFailure::Disconnected => {
                let exit = match player.process() {
                    Some(process) => process.exit_reason().await,
                    None => String::new(),
                };
                format!("ended during its first search ('{go}'){exit}")
            }
            ThinkFailure::StopIgnored { .. } => format!("did not answer its first search ('{go}')"),
        };
        player.discard().await;
        Err(RunError::FirstSearch { engine: name.to_string(), why })
    }
}

/// Warns when an engine asked for `go` with a node limit of `asked`
/// reported `searched` nodes, far from it: its games are not at the
/// run's budget (Debian's Ethereal 12 searches 6 nodes for any).
fn warn_if_node_limit_missed(name: &str, go: &str, asked: Option<u64>, searched: Option<u64>) {
    if let (Some(asked), Some(searched)) = (asked, searched)
        && !node_limit_kept(asked, searched)
    {
        crate::term::warn(&format!(
            "engine '{name}' searched {searched} nodes for '{go}': its games are not played at the run's node budget (`arena check {name}` tests its limits)"
        ));
    }
}

/// `search`'s outcome; after [`SAY_WAITING_AFTER`] the live line says what
/// it waits for, and for how long at most.
async fn said_if_slow<T>(search: impl Future<Output = T>, name: &str, go: &str, limit: Duration) -> T {
    tokio::pin!(search);
    tokio::select! {
        outcome = &mut search => outcome,
        () = tokio::time::sleep(SAY_WAITING_AFTER) => {
            crate::term::set_line(&format!(
                "engine '{name}': waiting for its first search ('{go}'), at most {} s of its time before a stall…",
                limit.as_secs()
            ));
            let outcome = search.await;
            crate::term::end_line();
            outcome
        }
    }
}
