//! A unit of work — a pair of games, a chunk of test positions — and what
//! every kind of work must do with one: the [`Work`] trait.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use db::{Db, DbError};
use tokio::sync::watch;

use super::error::RunError;
use super::slot::Slot;
use super::stop::Stop;

/// What storing a unit did, for the progress line.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stored {
    /// Progress made: games or answers.
    pub added: u64,
    /// The run's state after it, for the progress line (`fhr vs plain +3 =1 -2, LLR 0.4`).
    pub status: String,
    /// The run ended with this unit.
    pub run_finished: bool,
}

/// How a unit ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Played {
    /// Stored.
    Stored(Stored),
    /// The lease was lost (taken over, or the run stopped or decided):
    /// nothing more of this unit is stored by us.
    LeaseLost,
    /// The unit before it on the same slot ended its run (an SPRT decided):
    /// it was skipped with the run's other open units.
    RunEnded,
}

/// The last write of a unit whose play is over, as a future the slot
/// drives while its next unit plays.
pub type Storing = std::pin::Pin<Box<dyn Future<Output = Result<Played, RunError>> + Send>>;

/// How playing a unit ended, as its slot sees it at once.
pub enum Outcome {
    /// Stored (or lost) already.
    Done(Played),
    /// Played; storing it ends with this future. The slot claims its next
    /// unit first, then drives it beside that unit's play, so the engines
    /// do not wait for the database between units.
    Storing(Storing),
}

/// A kind of work: how to claim a unit, play and store it, renew its lease
/// and give it back. Pairs of games and suite chunks implement it, and so
/// does the worker's catalogue of open runs, which dispatches to them.
pub trait Work: Send + Sync + 'static {
    /// A claimed unit with its lease.
    type Unit: Send + Sync + 'static;

    /// The next free unit for `slot`; `None` when nothing is free now.
    fn claim(&self, slot: &Slot) -> impl Future<Output = Result<Option<Self::Unit>, RunError>> + Send;

    /// Plays a claimed unit and stores it, only while the lease holds. When
    /// `stop` asks to finish in flight, a unit that can stop midway (a suite
    /// chunk) stores what it has. Its last write may be left to the slot
    /// ([`Outcome::Storing`]).
    fn play(
        self: Arc<Self>,
        slot: &mut Slot,
        unit: &Self::Unit,
        stop: &watch::Receiver<Stop>,
    ) -> impl Future<Output = Result<Outcome, RunError>> + Send;

    /// Extends the unit's lease by `lease` from now; `false` when it is lost.
    fn renew(&self, db: &Db, lease: Duration, unit: &Self::Unit) -> impl Future<Output = Result<bool, DbError>> + Send;

    /// Gives an unfinished unit back to the queue.
    fn release(&self, db: &Db, unit: &Self::Unit) -> impl Future<Output = Result<(), DbError>> + Send;

    /// With nothing to claim: whether work may still come (units held by
    /// other workers, whose leases may expire; new runs).
    fn more_may_come(&self, db: &Db) -> impl Future<Output = Result<bool, RunError>> + Send;

    /// The unit in messages: `run 3 pair 12`.
    fn describe(&self, unit: &Self::Unit) -> String;

    /// The run the unit belongs to.
    fn run_of(&self, unit: &Self::Unit) -> i64;

    /// A unit failed with `error` (after it was given back).
    fn failed(&self, _unit: &Self::Unit, _error: &RunError) {}
}
