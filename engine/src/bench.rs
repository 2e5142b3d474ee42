//! `engine bench`: a fixed search over fixed positions whose node count is a
//! signature of the search (any change to search or evaluation changes it).

use std::time::Instant;

use shakmaty::CastlingMode;
use shakmaty::fen::Fen;

use crate::board::Board;
use crate::game::Game;
use crate::search::{Counters, Limits, PruningConfig, Searcher};

/// The bench positions, one FEN per line (see `data/SOURCES.md`).
pub const BENCH_POSITIONS: &str = include_str!("../data/bench.fen");
/// The default bench depth.
pub const DEFAULT_DEPTH: i32 = 6;
/// The table size used by bench, MiB.
pub const BENCH_HASH_MB: usize = 16;

/// Totals of one bench run.
#[derive(Clone, Debug)]
pub struct BenchResult {
    /// Nodes searched over all positions: the signature.
    pub nodes: u64,
    /// Wall time, milliseconds.
    pub time_ms: u64,
    /// What the pruning techniques did, summed over positions.
    pub counters: Counters,
}

impl BenchResult {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.time_ms.max(1)
    }
}

/// Searches every bench position to `depth` with `config`, clearing the
/// table before each position so that the result does not depend on order.
pub fn run(config: &PruningConfig, depth: i32) -> BenchResult {
    let mut searcher = Searcher::new(BENCH_HASH_MB, config.clone());
    let mut counters = Counters::default();
    let start = Instant::now();
    for fen in BENCH_POSITIONS.lines().filter(|l| !l.trim().is_empty()) {
        let position = fen
            .parse::<Fen>()
            .ok()
            .and_then(|f| f.into_position(CastlingMode::Standard).ok())
            .unwrap_or_else(|| panic!("bench position is invalid: {fen}"));
        let game = Game { board: Board::new(position), ..Game::default() };
        searcher.clear();
        let result = searcher.search(&game, &Limits { depth: Some(depth), ..Limits::default() }, &mut |_| {});
        counters.accumulate(&result.counters);
    }
    BenchResult { nodes: counters.nodes, time_ms: start.elapsed().as_millis() as u64, counters }
}
