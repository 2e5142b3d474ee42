//! Storage for arena: engines, runs, pairs, games and moves; the only crate
//! with SQL in it. SQLite by default (WAL, one writer, `BEGIN IMMEDIATE`,
//! multi-row inserts); PostgreSQL when several machines share one run
//! (pairs claimed with `FOR UPDATE SKIP LOCKED` under a lease). One set of
//! statements serves both through sqlx's `Any` driver: [`dialect`] numbers
//! the placeholders and fills in the few words the two dialects spell
//! differently. Each backend has its own migrations folder. What it stores
//! and returns are the plain types of the `model` crate.

mod chunks;
mod conn;
mod connect;
mod counts;
mod dialect;
mod identities;
mod lease;
mod lines;
mod machines;
mod moves;
mod pack_error;
mod packed;
mod read;
mod roles;
mod runs;
mod suite;
mod target;
mod tls;
mod tune;
mod uci_code;
mod upkeep;
mod workers;

pub use connect::{Db, Upgrade, pool_options};
#[cfg(feature = "test-support")]
pub use connect::{TEST_POSTGRES_DEFAULT, scratch_postgres};
pub use lease::PackedGame;
pub use read::{MoveFields, StoredMoves, UnreadableMoves};
pub use roles::{BadIdentifier, worker_role_sql};
pub use runs::{OpenRun, RunFilter};
pub use target::{BadTarget, Target};
pub use tune::TuneStep;
pub use upkeep::{Compacted, Shed};
pub use workers::PacedGame;

use model::{PairPlan, PairingCounts, SuiteChunkPlan, Verdict};

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
    /// The TLS handshake with a PostgreSQL server failed: a certificate
    /// the URL's `sslmode` does not accept, or a server without TLS.
    #[error("cannot open database '{target}' over TLS (sslmode={mode}): {cause}; {}", crate::connect::tls_hint(mode))]
    Tls {
        /// The URL (never with its password).
        target: String,
        /// Its `sslmode` (libpq's default, `prefer`, when it names none).
        mode: String,
        /// What the TLS library said.
        cause: String,
    },
    /// The schema has a migration this arena does not know: a newer arena
    /// wrote the database (a machine of a fleet not yet upgraded).
    #[error(
        "database '{target}' was written by a newer arena (its migration {version} is unknown to this one): \
         use that arena or a newer one here"
    )]
    Newer {
        /// The file or URL (never with its password).
        target: String,
        /// The newest migration applied that this arena lacks.
        version: i64,
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
    /// The PostgreSQL server refused this role the statement: its grants or
    /// row policies (a worker's role, `arena roles`) do not allow it.
    #[error(
        "database '{target}' refused this role: {cause} (a worker's role stores only the games of the pairs it \
         holds: do this with the owner's URL, or apply `arena roles` again after an upgrade)"
    )]
    Denied {
        /// The URL (never with its password).
        target: String,
        /// The server's message.
        cause: String,
    },
    /// The PostgreSQL server could not be reached, or went away mid-way.
    #[error("lost database '{target}': {cause}")]
    Unreachable {
        /// The URL (never with its password).
        target: String,
        /// What the connection said.
        cause: String,
    },
    /// The disk (or the server's) has no room for the next write; what was
    /// being written was rolled back.
    #[error(
        "disk full: free space where '{target}' is stored, then resume the run (its unfinished pairs are replayed whole)"
    )]
    DiskFull {
        /// The file or URL (never with its password).
        target: String,
    },
    /// The file or server database belongs to another program, or is no database at all.
    #[error("'{target}' is not an arena database ({what}); it was left as it is: give arena its own with --db NEW.db")]
    NotArena {
        /// The file or URL (never with its password).
        target: String,
        /// What it is.
        what: String,
    },
    /// The run does not exist.
    #[error("no run {0} in this database (see `arena runs`)")]
    NoSuchRun(i64),
    /// Any other failure of a statement, sqlx's error kept.
    #[error("database error: {source}")]
    Query {
        /// The file or URL (never with its password).
        target: String,
        /// What sqlx said.
        source: sqlx::Error,
    },
    /// A column of a row that does not hold what arena wrote there (a
    /// damaged file, or one another program changed): an error, never a panic.
    #[error(
        "database error: column '{column}' cannot be read ({source}); the database was changed by another program or is damaged"
    )]
    Column {
        /// The column.
        column: String,
        /// What sqlx said.
        source: sqlx::Error,
    },
    /// A column holding JSON that does not read as what arena wrote there.
    #[error(
        "database error: column '{column}' does not hold what arena wrote there ({source}); the database was changed by another program or is damaged"
    )]
    Json {
        /// The column.
        column: String,
        /// What serde_json said.
        source: serde_json::Error,
    },
    /// A game's stored moves that do not read: a damaged value, or one
    /// packed by a newer arena.
    #[error("game {game} of run {run}: its stored moves cannot be read ({source})")]
    Moves {
        /// The game's run.
        run: i64,
        /// The game's id.
        game: i64,
        /// What is wrong with them.
        source: UnreadableMoves,
    },
    /// The compressor failed to pack a game's moves for storing (it could
    /// not get memory); nothing was stored.
    #[error("cannot compress a game's moves: {0}")]
    Compress(#[source] std::io::Error),
    /// A role or schema name that cannot be written into a statement.
    #[error(transparent)]
    BadRole(#[from] BadIdentifier),
    /// A stored code (a result, an ending, a status …) this arena does not
    /// know: a newer arena wrote it, or another program changed it. The
    /// view that read it stops; nothing is written.
    #[error("{row}: {source}")]
    Unknown {
        /// The row, in the words of the views (`run 3, game 8.2`).
        row: String,
        /// The text and what it should have been.
        source: model::UnknownCode,
    },
    /// What the database holds, or what was asked of it, contradicts what
    /// arena expects: a run changed meanwhile, a run not finished, a role
    /// that does not exist, a status this version does not know.
    #[error("database error: {0}")]
    Unexpected(String),
}

/// A unit of work handed out under a lease: a pair ([`ClaimedPair`]) or a
/// suite chunk ([`ClaimedChunk`]). `(id, claim)` is the lease: storing needs
/// the claim to be the newest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claimed<P> {
    /// Database id.
    pub id: i64,
    /// The run it belongs to.
    pub run: i64,
    /// Which hand-out this is (1 the first time).
    pub claim: i64,
    /// The plan.
    pub plan: P,
}

/// A pair claimed for play.
pub type ClaimedPair = Claimed<PairPlan>;

/// A suite chunk claimed for play.
pub type ClaimedChunk = Claimed<SuiteChunkPlan>;

/// What the caller's SPRT says after a pair: the LLR and, once a bound is
/// crossed, the verdict.
#[derive(Clone, Debug, PartialEq)]
pub struct SprtStep {
    /// Log-likelihood ratio after this pair.
    pub llr: f64,
    /// `Some` when a bound is crossed.
    pub verdict: Option<Verdict>,
}

/// How the process finishing a pair judges its run, inside the pair's
/// transaction. A plain closure `|counts| -> Option<SprtStep>` is the judge
/// of a one-pairing SPRT (or of no SPRT: `|_| None`, [`NoSprt`]).
pub trait Judge: Sync {
    /// The SPRT step after a pair whose pairing now has `counts`: the LLR
    /// and, for a one-pairing SPRT, the verdict once a bound is crossed.
    fn step(&self, counts: &PairingCounts) -> Option<SprtStep>;

    /// Whether the run is a family of SPRTs: then [`Judge::decide`] decides
    /// each candidate, and the step's verdict is left unread.
    fn is_family(&self) -> bool {
        false
    }

    /// A family's new decisions, in the order taken, from every pairing's
    /// counts and the decisions stored so far (in their order).
    fn decide(&self, _counts: &[PairingCounts], _decided: &[FamilyVerdict]) -> Vec<FamilyVerdict> {
        Vec::new()
    }

    /// A family's verdict once no pair is left, from every decision (in order).
    fn verdict(&self, _decided: &[FamilyVerdict]) -> Verdict {
        Verdict::Inconclusive
    }
}

impl<F: Fn(&PairingCounts) -> Option<SprtStep> + Sync> Judge for F {
    fn step(&self, counts: &PairingCounts) -> Option<SprtStep> {
        self(counts)
    }
}

/// The judge of a run without an SPRT.
pub struct NoSprt;

impl Judge for NoSprt {
    fn step(&self, _counts: &PairingCounts) -> Option<SprtStep> {
        None
    }
}

/// A candidate of a family of SPRTs as it was decided (`run_verdicts`).
#[derive(Clone, Debug, PartialEq)]
pub struct FamilyVerdict {
    /// The candidate (engine A of its pairing).
    pub engine_a: String,
    /// The base (engine B).
    pub engine_b: String,
    /// H1 or H0.
    pub verdict: Verdict,
    /// Its LLR at the decision.
    pub llr: f64,
    /// Its finished pairs at the decision.
    pub pairs: u64,
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
    /// θ after this pair, for tuning runs.
    pub theta: Option<Vec<f64>>,
}
