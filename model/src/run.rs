//! Runs and what they are made of: the kind and state of a run, the planned
//! pairs and suite chunks, and what reports read back of them.

use serde::{Deserialize, Serialize};

use crate::record::{GameRecord, GameResult, Termination};
use crate::sprt::Verdict;

crate::stored_code! {
    /// What a run plays. Stored as its lowercase name.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "lowercase")]
    pub enum RunKind as "run kind" {
        /// `arena elo`: A vs B over the whole opening set.
        Elo = "elo",
        /// `arena match`: A vs B for a number of games.
        Match = "match",
        /// `arena tournament`: round robin or gauntlet.
        Tournament = "tournament",
        /// `arena sprt`: pairs until the SPRT decides.
        Sprt = "sprt",
        /// `arena suite`: test positions under fixed limits.
        Suite = "suite",
        /// `arena tune`: SPSA, one pair of games per iteration.
        Tune = "tune",
        /// `arena scale`: A vs B at several search budgets, one pairing each.
        Scale = "scale",
        /// `arena import`: games played elsewhere, read from PGN.
        Import = "import",
    }
}

/// Every kind, in the order of [`RunKind::as_str`].
pub const RUN_KINDS: &[RunKind] = RunKind::ALL;

impl RunKind {
    /// Parses [`RunKind::as_str`].
    pub fn parse(text: &str) -> Option<RunKind> {
        crate::code::Code::read(text).ok()
    }

    /// Whether the run plays games (pairs), rather than answering positions.
    pub fn plays_games(self) -> bool {
        self != RunKind::Suite
    }
}

crate::stored_code! {
    /// Where a run stands. Stored as its lowercase name.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "lowercase")]
    pub enum RunStatus as "status" {
        /// Slots and workers may take its work.
        Running = "running",
        /// Stopped (Ctrl-C, an error); `arena resume` continues it.
        Stopped = "stopped",
        /// All its work is done, or its SPRT decided.
        Finished = "finished",
    }
}

impl RunStatus {
    /// Parses [`RunStatus::as_str`].
    pub fn parse(text: &str) -> Option<RunStatus> {
        crate::code::Code::read(text).ok()
    }
}

macro_rules! display_as_str {
    ($($t:ty),*) => {$(
        impl std::fmt::Display for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    )*};
}
display_as_str!(RunKind, RunStatus);

/// A stored run with its counts, as `arena runs` lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct RunInfo {
    /// Run id.
    pub id: i64,
    /// What it plays.
    pub kind: RunKind,
    /// The JSON spec it was started with (read it with [`crate::Spec::parse`]).
    pub spec: String,
    /// Where it stands.
    pub status: RunStatus,
    /// SPRT verdict, if any.
    pub verdict: Option<Verdict>,
    /// Creation time, Unix ms.
    pub created_ms: i64,
    /// Finish time, Unix ms.
    pub finished_ms: Option<i64>,
    /// Host name of the machine that created it.
    pub machine: String,
    /// Pairs planned (not skipped).
    pub pairs_planned: i64,
    /// Pairs finished.
    pub pairs_done: i64,
    /// Games stored.
    pub games: i64,
    /// Workers and slots take units of higher-priority runs first.
    pub priority: i64,
}

/// What played as one of a run's engines on one machine: recorded the
/// first time that machine plays it, and again for a change accepted with
/// `--accept-change`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EngineIdentity {
    /// The engine's name in the run.
    pub engine: String,
    /// The machine.
    pub host: String,
    /// The executable's sha256 (the `arena` binary's for the bundled engine).
    pub sha256: String,
    /// The engine's `id name` (for the bundled engine, arena's version).
    pub id_name: String,
    /// The bench signature this machine measured, if the engine has one.
    pub bench: Option<i64>,
    /// Its bench speed, nodes per second.
    pub nps: Option<i64>,
    /// A change of binary accepted with `--accept-change`.
    pub accepted: bool,
    /// When, Unix ms.
    pub seen_ms: i64,
}

/// A machine's standing in a run: set aside (and why), readmitted.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MachineState {
    /// The machine (`arena worker --name`, else its host name).
    pub machine: String,
    /// Why it gets no more pairs of the run (`None`: it does).
    pub set_aside: Option<String>,
    /// When it was set aside, Unix ms.
    pub set_aside_ms: Option<i64>,
    /// Readmitted from the dashboard: never set aside again in this run.
    pub readmitted: bool,
    /// Its measured speed, when the run scales clocks (`--scale-nps`).
    pub nps: Option<i64>,
    /// The factor its clocks are multiplied by.
    pub scale: Option<f64>,
}

/// What a run's games say about one machine that played them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MachineRecord {
    /// The machine.
    pub machine: String,
    /// Games it stored.
    pub games: u64,
    /// Games lost on time there.
    pub time_losses: u64,
    /// Games lost there by an illegal move, a crash or a stall.
    pub other_faults: u64,
    /// Per engine, its moves' overheads there.
    pub overheads: Vec<(String, crate::Latencies)>,
    /// Its games lost on time or by a stall, with the latency of the losing move.
    pub lost: Vec<LostMove>,
}

/// A move that lost a game on time or by a stall.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LostMove {
    /// Pair position in the plan, 0-based (the text's `pair 8 game 1` is index 7, game 0).
    pub pair_index: i64,
    /// 0 or 1.
    pub game_in_pair: i64,
    /// The engine that lost.
    pub engine: String,
    /// `time-forfeit` or `stalled` (as stored, in JSON).
    #[serde(serialize_with = "crate::code::serialize_code")]
    pub termination: Termination,
    /// Wall time from `go` to `bestmove` or to giving up, ms (`None` in games
    /// stored before it was kept).
    pub latency_ms: Option<u64>,
    /// The stored detail (`no move after 1012 ms`).
    pub detail: String,
}

/// An arena process that plays work (a local run or an `arena worker`), as
/// the work loop records it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WorkerInfo {
    /// `host:pid`.
    pub name: String,
    /// When it started, Unix ms.
    pub started_ms: i64,
    /// Its last claim, heartbeat or store, Unix ms.
    pub last_seen_ms: i64,
    /// The run of its latest unit.
    pub run: Option<i64>,
    /// Its latest unit, e.g. `run 3 pair 12`.
    pub doing: String,
    /// Units stored (pairs, suite chunks).
    pub units: i64,
    /// Games or answers stored.
    pub progress: i64,
    /// Units that failed and went back to the queue.
    pub faults: i64,
    /// The latest run it would not serve, and why (empty: none).
    pub refused: String,
}

/// What a process did since it last said so, for [`WorkerInfo`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WorkerBeat {
    /// The run of the unit, if any.
    pub run: Option<i64>,
    /// The unit, or empty when idle.
    pub doing: String,
    /// Units stored since.
    pub units: i64,
    /// Games or answers stored since.
    pub progress: i64,
    /// Units failed since.
    pub faults: i64,
    /// A run this process will not serve, and why (kept until the next one).
    pub refused: Option<String>,
}

impl WorkerBeat {
    /// Adds `other`'s counts; its unit, if it names one, becomes the latest.
    pub fn add(&mut self, other: WorkerBeat) {
        self.units += other.units;
        self.progress += other.progress;
        self.faults += other.faults;
        if other.refused.is_some() {
            self.refused = other.refused;
        }
        if other.run.is_some() {
            self.run = other.run;
            self.doing = other.doing;
        }
    }
}

/// One planned pair: an opening played twice with colours swapped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairPlan {
    /// Position in the plan.
    pub index: i64,
    /// White in the first game.
    pub engine_a: String,
    /// White in the second game.
    pub engine_b: String,
    /// Index of the opening in its book selection.
    pub opening_index: i64,
    /// Opening name.
    pub opening_name: String,
    /// Start FEN.
    pub fen: String,
    /// Opening moves, UCI.
    pub opening_moves: Vec<String>,
    /// Opening moves, SAN.
    pub opening_san: Vec<String>,
}

/// A piece of a suite run's work: one engine, one limit, a range of positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteChunkPlan {
    /// Position in the plan.
    pub index: i64,
    /// Engine name.
    pub engine: String,
    /// Position of the limit in the run's spec.
    pub limit_index: i64,
    /// Index of the first position.
    pub first_position: i64,
    /// How many positions.
    pub positions: i64,
}

/// The finished results of one pair, for statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct PairOutcome {
    /// Position in the plan.
    pub index: i64,
    /// White in game 0.
    pub engine_a: String,
    /// White in game 1.
    pub engine_b: String,
    /// Opening name.
    pub opening_name: String,
    /// Result of game 0 (A White) and game 1 (B White).
    pub results: [GameResult; 2],
    /// Order of finishing.
    pub finished_seq: i64,
    /// The machine that played it (empty for pairs stored before it was kept).
    pub machine: String,
}

/// Finished pairs alike in what statistics count: pairing, machine and
/// both results. What the short view, the ratings, the machines' residuals
/// and every count of a report are made of; the pairs one by one
/// ([`PairOutcome`]) only draw what depends on their order.
#[derive(Clone, Debug, PartialEq)]
pub struct PairCount {
    /// White in game 0.
    pub engine_a: String,
    /// White in game 1.
    pub engine_b: String,
    /// The machine that played them (empty for pairs stored before it was kept).
    pub machine: String,
    /// Result of game 0 (A White) and game 1 (B White).
    pub results: [GameResult; 2],
    /// How many pairs.
    pub pairs: u64,
}

impl PairCount {
    /// `pairs` counted alike, in order of first appearance.
    pub fn of(pairs: &[PairOutcome]) -> Vec<PairCount> {
        let mut counts: Vec<PairCount> = Vec::new();
        let mut index: std::collections::HashMap<(&str, &str, &str, [GameResult; 2]), usize> =
            std::collections::HashMap::new();
        for pair in pairs {
            let key = (pair.engine_a.as_str(), pair.engine_b.as_str(), pair.machine.as_str(), pair.results);
            match index.get(&key) {
                Some(&i) => counts[i].pairs += 1,
                None => {
                    index.insert(key, counts.len());
                    counts.push(PairCount {
                        engine_a: pair.engine_a.clone(),
                        engine_b: pair.engine_b.clone(),
                        machine: pair.machine.clone(),
                        results: pair.results,
                        pairs: 1,
                    });
                }
            }
        }
        counts
    }
}

/// Finished pairs of one block of finishing order counted alike: what a
/// large run's Elo and LLR curves are drawn from instead of every pair (the
/// LLR computed from the counts, never stored).
/// Block `b` holds the pairs finished `b × PROGRESS_BLOCK + 1` to
/// `(b + 1) × PROGRESS_BLOCK`.
#[derive(Clone, Debug, PartialEq)]
pub struct ProgressCount {
    /// The block.
    pub block: i64,
    /// The pairs counted alike.
    pub count: PairCount,
    /// The finishing place of the block's last pair of this kind.
    pub last_seq: i64,
}

/// Pairs per block of [`ProgressCount`].
pub const PROGRESS_BLOCK: i64 = 256;

/// A stored game (without moves).
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    /// Game id.
    pub id: i64,
    /// Pair position in the plan.
    pub pair_index: i64,
    /// 0 or 1.
    pub game_in_pair: i64,
    /// The game.
    pub record: GameRecord,
}

/// Games of a run alike in what reports count: machine, colours, result,
/// termination and length.
#[derive(Clone, Debug, PartialEq)]
pub struct GameCount {
    /// The machine that played them (empty for games stored before it was kept).
    pub machine: String,
    /// White's engine.
    pub white: String,
    /// Black's engine.
    pub black: String,
    /// The result.
    pub result: GameResult,
    /// Why they ended.
    pub termination: Termination,
    /// Engine moves played (opening moves not counted).
    pub plies: i64,
    /// How many games.
    pub games: u64,
}

/// One engine's mate scores of one kind that their PV does not back, in a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PvIssueCount {
    /// The engine.
    pub engine: String,
    /// What was wrong.
    pub kind: crate::PvIssueKind,
    /// How many moves.
    pub count: u64,
    /// The first one: its pair's index in the plan,
    pub pair_index: i64,
    /// the game in the pair (0 or 1),
    pub game_in_pair: i64,
    /// the move's ply in the game (from 1, opening moves included),
    pub ply: i64,
    /// and what was wrong.
    pub detail: String,
}

/// What one engine reported over all its moves of a run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineMoveTotals {
    /// Engine name.
    pub engine: String,
    /// Moves played.
    pub moves: i64,
    /// Time used, milliseconds.
    pub time_ms: i64,
    /// Sum of reported depths, over `depth_moves` moves.
    pub depth_sum: i64,
    /// Moves with a reported depth.
    pub depth_moves: i64,
    /// Sum of reported selective depths, over `seldepth_moves` moves.
    pub seldepth_sum: i64,
    /// Moves with a reported selective depth.
    pub seldepth_moves: i64,
    /// Sum of reported node counts, over `nodes_moves` moves.
    pub nodes_sum: i64,
    /// Moves with a reported node count.
    pub nodes_moves: i64,
    /// Sum of reported nps, over `nps_moves` moves.
    pub nps_sum: i64,
    /// Moves with a reported nps.
    pub nps_moves: i64,
}

/// One engine's answer to one test position under one limit (`arena suite`).
/// Its serde form is an element of the suite report's `answers`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SuiteResult {
    /// Engine name.
    pub engine: String,
    /// Position of the limit in the run's spec.
    pub limit_index: i64,
    /// The limit, e.g. `depth 8`.
    pub limit_label: String,
    /// Index of the position in the suite.
    pub position: i64,
    /// The position's EPD id.
    pub position_id: String,
    /// The engine's final best move (UCI).
    pub best_move: Option<String>,
    /// Whether it solved the position.
    pub solved: bool,
    /// Nodes reported.
    pub nodes: Option<u64>,
    /// Depth reported.
    pub depth: Option<u64>,
    /// Time from `go` to `bestmove`, milliseconds.
    pub time_ms: u64,
    /// Final score, centipawns.
    pub score_cp: Option<i64>,
    /// Final score, mate in N (negative: mated).
    pub score_mate: Option<i64>,
    /// Timeout or crash, else empty.
    pub fault: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_names_round_trip() {
        for &kind in RUN_KINDS {
            assert_eq!(RunKind::parse(kind.as_str()), Some(kind));
            assert_eq!(serde_json::to_string(&kind).unwrap(), format!("\"{kind}\""));
        }
        for status in [RunStatus::Running, RunStatus::Stopped, RunStatus::Finished] {
            assert_eq!(RunStatus::parse(status.as_str()), Some(status));
            assert_eq!(serde_json::to_string(&status).unwrap(), format!("\"{status}\""));
        }
        for verdict in [Verdict::AcceptH0, Verdict::AcceptH1, Verdict::Inconclusive] {
            assert_eq!(Verdict::parse(verdict.as_str()), Some(verdict));
        }
        assert_eq!(RunKind::parse("Suite"), None);
    }
}
