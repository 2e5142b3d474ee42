//! Runs: a spec (engines, openings, time control, pairings, SPRT) stored
//! with the run, a plan of pairs (each opening twice, colours swapped), and
//! the slots that play them, here or in `arena worker`s.

mod execute;
mod progress;
mod slot;
mod stop;

pub use execute::{RunEnd, RunError, Runtime, execute, preflight, worker_name};
pub(crate) use slot::sanitize;
pub use slot::{DEFAULT_LEASE, PairEnd, PlayableRun, Slot, tally_of};
pub(crate) use stop::{ABANDON, FINISH_IN_FLIGHT, RUNNING, lock, pause, watch_ctrl_c};

use openings::{Book, Selection};
use serde::{Deserialize, Serialize};

use crate::clock::TimeControl;
use crate::engines::EngineSpec;
use crate::game::adjudication::Adjudication;

/// Everything needed to play (and resume) a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunSpec {
    /// `elo`, `match`, `tournament` or `sprt`.
    pub kind: String,
    /// The engines, fully resolved.
    pub engines: Vec<EngineSpec>,
    /// Who plays whom: indices into `engines`; the first is A.
    pub pairings: Vec<(usize, usize)>,
    /// The run's time control (an engine's own `tc` overrides it).
    pub tc: String,
    /// Opening set: a built-in name or a file path.
    pub openings: String,
    /// Shuffle seed; `None` for file order.
    pub seed: Option<u64>,
    /// Index of the first opening.
    pub start: usize,
    /// Cut openings to this many plies.
    pub max_plies: Option<usize>,
    /// Openings per pairing (book size by default).
    pub openings_per_round: usize,
    /// Passes through the openings.
    pub rounds: usize,
    /// Games played at once.
    pub concurrency: usize,
    /// Adjudication rules.
    pub adjudication: Adjudication,
    /// SPRT, for `sprt` runs.
    pub sprt: Option<reports::stats::sprt::Test>,
}

impl RunSpec {
    /// The time control of engine `index`.
    ///
    /// # Errors
    ///
    /// The parse error of a bad time control.
    pub fn time_control(&self, index: usize) -> Result<TimeControl, crate::clock::BadTimeControl> {
        self.engines[index].tc.as_deref().unwrap_or(&self.tc).parse()
    }

    /// The pairs to play, in order: for each opening of each round, each pairing.
    pub fn plan(&self, book: &Book) -> Vec<db::PairPlan> {
        let selection = Selection { random_seed: self.seed, start: self.start, max_plies: self.max_plies };
        let count = self.openings_per_round * self.rounds;
        let openings = book.select(&selection, count);
        let mut plan = Vec::with_capacity(count * self.pairings.len());
        for (opening_index, opening) in openings.iter().enumerate() {
            for &(a, b) in &self.pairings {
                plan.push(db::PairPlan {
                    index: plan.len() as i64,
                    engine_a: self.engines[a].name.clone(),
                    engine_b: self.engines[b].name.clone(),
                    opening_index: opening_index as i64,
                    opening_name: opening.name.clone(),
                    fen: opening.fen.clone(),
                    opening_moves: opening.moves.clone(),
                    opening_san: opening.san.clone(),
                });
            }
        }
        plan
    }

    /// A warning when a deterministic limit would replay an opening (and so
    /// the same games) more than once per pairing.
    pub fn repetition_warning(&self, book: &Book) -> Option<String> {
        let deterministic = (0..self.engines.len()).any(|i| self.time_control(i).is_ok_and(|tc| tc.is_deterministic()));
        let planned = self.openings_per_round * self.rounds;
        (deterministic && planned > book.openings.len()).then(|| {
            format!(
                "warning: {planned} openings per pairing from a book of {} under a deterministic limit ({}): \
                 replayed openings replay the same games, so those games are not independent; \
                 use a larger book (--openings noob_2moves) or a wall-clock time control",
                book.openings.len(),
                self.tc
            )
        })
    }
}
