//! Storage for arena: engines, runs, pairs, games and moves; the only crate
//! with SQL in it. SQLite by default (WAL, one writer, `BEGIN IMMEDIATE`,
//! multi-row inserts); PostgreSQL when several machines share one run
//! (pairs claimed with `FOR UPDATE SKIP LOCKED` under a lease). One set of
//! statements serves both through sqlx's `Any` driver: [`dialect`] numbers
//! the placeholders and fills in the few words the two dialects spell
//! differently. Each backend has its own migrations folder.

mod chunks;
mod connect;
mod dialect;
mod lease;
mod read;
pub mod record;
mod runs;
mod suite;
mod target;

pub use connect::{Db, TEST_POSTGRES_DEFAULT, scratch_postgres};
pub use target::{BadTarget, Target};

use record::GameResult;

/// Why the database could not be used.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// Opening, connecting or migrating failed.
    #[error("cannot open database '{target}': {cause} (check the path or URL, or choose another with --db)")]
    Open {
        /// The file or URL (never with its password).
        target: String,
        /// What went wrong.
        cause: String,
    },
    /// Another process holds the write lock beyond the busy timeout.
    #[error("database '{target}' is locked by another process (another arena run?); wait for it, or use --db OTHER.db")]
    Locked {
        /// The file.
        target: String,
    },
    /// The file or its directory is read-only, or the role may not write.
    #[error("database '{target}' is not writable (check permissions or the role's grants, or use another --db)")]
    ReadOnly {
        /// The file or URL.
        target: String,
    },
    /// The run does not exist.
    #[error("no run {0} in this database (see `arena runs`)")]
    NoSuchRun(i64),
    /// Any other database error.
    #[error("database error: {0}")]
    Sql(String),
}

/// A run as listed by `arena runs`.
#[derive(Clone, Debug, PartialEq)]
pub struct RunRow {
    /// Run id.
    pub id: i64,
    /// `elo`, `match`, `tournament` or `sprt`.
    pub kind: String,
    /// The JSON spec the run was started with.
    pub spec: String,
    /// `running`, `stopped` or `finished`.
    pub status: String,
    /// SPRT verdict, if any.
    pub verdict: Option<String>,
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

/// A pair claimed for play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClaimedPair {
    /// Database id.
    pub id: i64,
    /// The run it belongs to.
    pub run: i64,
    /// Which hand-out of the pair this is (1 the first time). Together with
    /// `id` it is the lease: storing needs it to be the newest.
    pub claim: i64,
    /// The plan.
    pub plan: PairPlan,
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

/// A chunk handed out for play; `(id, claim)` is its lease.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClaimedChunk {
    /// Database id.
    pub id: i64,
    /// The run it belongs to.
    pub run: i64,
    /// Which hand-out of the chunk this is (1 the first time).
    pub claim: i64,
    /// The plan.
    pub plan: SuiteChunkPlan,
}

/// Engine A's record against engine B over the finished pairs of a run, kept
/// by the database in the transaction that finishes each pair.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PairingCounts {
    /// White in each pair's first game.
    pub engine_a: String,
    /// White in each pair's second game.
    pub engine_b: String,
    /// Games A won.
    pub wins: i64,
    /// Games drawn.
    pub draws: i64,
    /// Games A lost.
    pub losses: i64,
    /// Pairs by A's score in half points: `[LL, LD, DD+WL, WD, WW]`.
    pub pentanomial: [i64; 5],
}

/// What the caller's SPRT says after a pair: the LLR and, once a bound is
/// crossed, the verdict (`H0` or `H1`).
#[derive(Clone, Debug, PartialEq)]
pub struct SprtStep {
    /// Log-likelihood ratio after this pair.
    pub llr: f64,
    /// `Some` when a bound is crossed.
    pub verdict: Option<String>,
}

/// What finishing a pair did to its run.
#[derive(Clone, Debug, PartialEq)]
pub struct PairCommit {
    /// The pairing's counts including this pair.
    pub counts: PairingCounts,
    /// The SPRT step, for SPRT pairings.
    pub sprt: Option<SprtStep>,
    /// The run ended with this pair (all pairs done, or the SPRT decided).
    pub run_finished: bool,
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
    /// SPRT LLR after this pair.
    pub llr: Option<f64>,
}

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
    pub record: record::GameRecord,
}

/// A stored game in brief, for reports: who, how it ended, how long.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSummary {
    /// Pair position in the plan.
    pub pair_index: i64,
    /// 0 or 1.
    pub game_in_pair: i64,
    /// White's engine.
    pub white: String,
    /// Black's engine.
    pub black: String,
    /// The result.
    pub result: GameResult,
    /// Why it ended.
    pub termination: record::Termination,
    /// Engine moves played (opening moves not counted).
    pub plies: i64,
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
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
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
