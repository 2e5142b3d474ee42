//! Runs of work: a run's life from creation to its end ([`life`], the API
//! every front end calls), what a stored run means here ([`plan`], [`suite`],
//! [`tune`]) and the one work loop that plays it. A run's work is cut into
//! units — a pair of games ([`pairs`]), a chunk of test positions
//! ([`chunks`]) — that live in the database as a leased queue. Game slots
//! ([`slot`]) claim a unit, play it under a lease renewed by a heartbeat,
//! store it, and give it back when stopped or failed; [`work_loop`] is
//! that loop, written once. The local run ([`local`]: `arena elo`, `suite`,
//! `resume` …) and `arena worker` ([`worker`]: every open run of a shared
//! database) both drive it.
//!
//! Ctrl-C once ([`Stop::FinishInFlight`]): no new unit is claimed and those
//! in flight finish (a suite chunk stops after the position in flight and
//! stores what it has). Twice ([`Stop::Abandon`]): units in flight are given
//! back at once, to be replayed whole by `arena resume` or a worker.

pub mod chunks;
pub mod concurrency;
pub mod disk;
pub mod error;
pub mod identity;
pub mod import;
pub mod life;
pub mod local;
pub mod pairs;
pub mod plan;
pub mod preflight;
pub mod progress;
pub mod record;
pub mod shared;
pub mod slot;
pub mod speed;
pub mod stop;
pub mod suite;
pub mod tune;
pub mod unit;
pub mod work_loop;
pub mod worker;

pub use error::RunError;
pub use preflight::preflight;
pub use shared::{Counts, Events, OnError, Shared, worker_name};
pub use slot::{Runtime, Slot};
pub use stop::Stop;
pub use unit::{Outcome, Played, Stored, Storing, Work};
pub use work_loop::{DEFAULT_LEASE, IDLE_POLL, run_slot, start_slots};
