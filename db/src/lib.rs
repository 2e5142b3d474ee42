//! Storage for arena: engines, runs, pairs, games and moves. SQLite by
//! default (WAL, one writer, `BEGIN IMMEDIATE`, multi-row inserts); the only
//! crate with SQL in it. The API speaks in typed records so that a
//! PostgreSQL backend can sit behind it later.

pub mod record;
mod sqlite;

pub use sqlite::Db;

use record::GameResult;

/// Why the database could not be used.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// Opening, creating or migrating the file failed.
    #[error("cannot open database '{path}': {cause} (check the path, or choose another with --db PATH)")]
    Open {
        /// The file.
        path: String,
        /// What went wrong.
        cause: String,
    },
    /// Another process holds the write lock beyond the busy timeout.
    #[error("database '{path}' is locked by another process (another arena run?); wait for it, or use --db OTHER.db")]
    Locked {
        /// The file.
        path: String,
    },
    /// The file or its directory is read-only.
    #[error("database '{path}' is not writable (check permissions, or use --db PATH in a writable directory)")]
    ReadOnly {
        /// The file.
        path: String,
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
    /// The plan.
    pub plan: PairPlan,
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
