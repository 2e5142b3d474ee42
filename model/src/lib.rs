//! Plain domain types of arena, shared by storage (`db`), statistics
//! (`reports`) and the arena itself: game and move records, the W/D/L and
//! pentanomial tally, run kinds, states and verdicts, and the specs a run is
//! stored with. No I/O here, only serde.

pub mod adjudication;
pub mod code;
pub mod games_kind;
pub mod invalid;
pub mod latency;
pub mod record;
pub mod run;
pub mod spec;
pub mod sprt;
pub mod tally;
pub mod time_control;
pub mod tune;

pub use code::{Code, UnknownCode};
pub use games_kind::{GamesKind, ImportedFile};
pub use invalid::Invalid;
pub use latency::Latencies;
pub use record::{
    GameRecord, GameResult, MoveRecord, PvIssue, PvIssueKind, TERMINATIONS, Termination, Wording, now_ms,
};
pub use run::{
    EngineIdentity, EngineMoveTotals, GameCount, GameRow, LostMove, MachineRecord, MachineState, PROGRESS_BLOCK,
    PairCount, PairOutcome, PairPlan, ProgressCount, PvIssueCount, RunInfo, RunKind, RunStatus, SuiteChunkPlan,
    SuiteResult, WorkerBeat, WorkerInfo,
};
pub use spec::{
    Adjudication, DrawRule, EngineSpec, GamesSpec, Launch, MachineRule, NotPlayable, Playable, ResignRule, Spec,
    SpecError, SuiteLimit, SuiteSpec, TablebaseRule, TbResults, Variant, base_name, base_names,
};
pub use sprt::{Bounds, Model, Test, Verdict};
pub use tally::{PairingCounts, Tally};
pub use time_control::{BadTimeControl, Budgets, Limit, Period, TimeControl, node_limit_kept};
pub use tune::{Perturbation, Spsa, TuneIteration, TuneParam};
