//! Iterative deepening over a PVS/Negascout alpha-beta search with a
//! transposition table, quiescence and switchable forward pruning.
//!
//! The node function lives in [`alphabeta`] as numbered steps, one per
//! technique; quiescence in [`quiescence`]; the pruning parameters in
//! [`pruning`]; what each technique did in [`counters`].

mod alphabeta;
pub mod counters;
pub mod pruning;
mod quiescence;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use shakmaty::{Move, Position};

use crate::board::Board;
use crate::eval::{EvalCache, Evaluation};
use crate::game::Game;
use crate::ordering::{CutoffCredit, History};
use crate::score::{INFINITY, MAX_PLY, Score, mate_in_moves};
use crate::time::{Clock, budget, movetime_budget};
use crate::tt::TranspositionTable;
pub use counters::Counters;
pub use pruning::PruningConfig;

/// Expected node type (Knuth & Moore; used by multi-cut and counted for FHR).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeType {
    /// On the principal variation: searched with an open window.
    Pv,
    /// Expected to fail high: one good move should refute it.
    Cut,
    /// Expected to fail low: every move must be searched.
    All,
}

impl NodeType {
    /// The expected type of a child that is not the first child of a PV node.
    pub fn child(self) -> NodeType {
        match self {
            NodeType::Pv | NodeType::All => NodeType::Cut,
            NodeType::Cut => NodeType::All,
        }
    }
}

/// What `go` asked for. Unset limits do not apply; none at all is infinite.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Maximum iteration depth.
    pub depth: Option<i32>,
    /// Maximum nodes; the search stops at exactly this count.
    pub nodes: Option<u64>,
    /// Time for this move, milliseconds.
    pub movetime_ms: Option<u64>,
    /// The side to move's clock.
    pub clock: Option<Clock>,
}

/// Settings of the searcher that are not pruning parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Safety margin subtracted from the clock, milliseconds.
    pub move_overhead_ms: u64,
    /// When non-zero, time is measured in nodes: this many nodes are one
    /// millisecond, so timed searches are reproducible on any machine.
    pub nodes_per_ms: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Self { move_overhead_ms: 50, nodes_per_ms: 0 }
    }
}

/// One completed iteration, as a UCI `info` line reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Iteration depth.
    pub depth: i32,
    /// Deepest ply reached, quiescence included.
    pub seldepth: usize,
    /// Score from the side to move's view.
    pub score: Score,
    /// Nodes so far.
    pub nodes: u64,
    /// Elapsed wall time, milliseconds.
    pub time_ms: u64,
    /// Table fill, permille.
    pub hashfull: u32,
    /// Principal variation.
    pub pv: Vec<Move>,
}

impl Report {
    /// Nodes per second (0 before the first millisecond).
    pub fn nps(&self) -> u64 {
        (self.nodes * 1000).checked_div(self.time_ms).unwrap_or(0)
    }
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play, `None` when there is no legal move.
    pub best_move: Option<Move>,
    /// Its score.
    pub score: Score,
    /// The last completed iteration.
    pub depth: i32,
    /// What the techniques did.
    pub counters: Counters,
    /// Principal variation of the last completed iteration.
    pub pv: Vec<Move>,
}

/// Per-ply state of the current search path.
#[derive(Clone, Copy, Debug, Default)]
struct Frame {
    killers: [Option<Move>; 2],
    /// A search extension was applied at this ply.
    extended: bool,
    /// The move into this node was a null move.
    after_null: bool,
    /// This node lies inside a null-move search.
    in_null_search: bool,
    /// Variable bound: potentially good alternatives still unexplored here.
    unexplored_alternatives: i32,
}

/// Step 10d's late-move reductions by depth and move number, in plies:
/// `base + ln(depth)·ln(move)/divisor` (Ethereal's `search.c` form), built
/// for the parameters it was last asked for.
struct LmrTable {
    params: (i32, i32),
    plies: Vec<i32>,
}

impl LmrTable {
    const SIDE: usize = 64;

    fn for_params(base: i32, divisor: i32) -> Self {
        let mut plies = vec![0; Self::SIDE * Self::SIDE];
        for depth in 1..Self::SIDE {
            for number in 1..Self::SIDE {
                let r = f64::from(base) / 100.0
                    + (depth as f64).ln() * (number as f64).ln() * 100.0 / f64::from(divisor.max(1));
                plies[depth * Self::SIDE + number] = r as i32;
            }
        }
        Self { params: (base, divisor), plies }
    }

    fn get(&self, depth: i32, number: usize) -> i32 {
        let depth = (depth.max(0) as usize).min(Self::SIDE - 1);
        self.plies[depth * Self::SIDE + number.min(Self::SIDE - 1)]
    }
}

/// Stop conditions of the running search.
struct Deadline {
    start: Instant,
    node_limit: u64,
    soft_ms: u64,
    hard_ms: u64,
    nodes_per_ms: u64,
}

/// A single-threaded searcher. It keeps the transposition table and the
/// history between searches, as a UCI engine does between moves.
pub struct Searcher {
    /// Forward-pruning configuration.
    pub config: PruningConfig,
    /// Time settings.
    pub settings: Settings,
    tt: TranspositionTable,
    eval_cache: EvalCache,
    history: History,
    /// The variable bound's credit-only history, of the running search.
    credit: CutoffCredit,
    stop: Arc<AtomicBool>,
    stopped: bool,
    counters: Counters,
    stack: Vec<Frame>,
    /// Keys of the game history followed by the current search path.
    path: Vec<u64>,
    pv: Vec<Vec<Move>>,
    seldepth: usize,
    /// The best root move of the running iteration, confirmed by a full-window search.
    iteration_best: Option<(Move, Score)>,
    deadline: Deadline,
    lmr_table: LmrTable,
}

impl Searcher {
    /// A searcher with a table of `hash_mb` MiB.
    pub fn new(hash_mb: usize, config: PruningConfig) -> Self {
        let config_lmr = (config.modern.lmr_base, config.modern.lmr_divisor);
        Self {
            config,
            settings: Settings::default(),
            tt: TranspositionTable::new(hash_mb),
            eval_cache: EvalCache::default(),
            history: History::default(),
            credit: CutoffCredit::default(),
            stop: Arc::new(AtomicBool::new(false)),
            stopped: false,
            counters: Counters::default(),
            stack: vec![Frame::default(); MAX_PLY + 8],
            path: Vec::new(),
            pv: vec![Vec::new(); MAX_PLY + 8],
            seldepth: 0,
            iteration_best: None,
            deadline: Deadline {
                start: Instant::now(),
                node_limit: u64::MAX,
                soft_ms: u64::MAX,
                hard_ms: u64::MAX,
                nodes_per_ms: 0,
            },
            lmr_table: LmrTable::for_params(config_lmr.0, config_lmr.1),
        }
    }

    /// A flag that stops the running search when set (UCI `stop`). The
    /// searcher never clears it: whoever starts a search clears it first, so
    /// a `stop` that arrives before the search thread runs is not lost.
    pub fn stop_handle(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Forgets everything learnt: table, history (UCI `ucinewgame`).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.clear();
    }

    /// Replaces the table with one of `hash_mb` MiB.
    pub fn resize(&mut self, hash_mb: usize) {
        self.tt = TranspositionTable::new(hash_mb);
    }

    /// Searches `game` within `limits`, calling `report` after every
    /// completed iteration.
    pub fn search(&mut self, game: &Game, limits: &Limits, report: &mut dyn FnMut(&Report)) -> SearchResult {
        self.prepare(game, limits);
        let root = &game.board;
        let fallback = root.position().legal_moves().first().copied();
        let mut result =
            SearchResult { best_move: fallback, score: 0, depth: 0, counters: Counters::default(), pv: Vec::new() };
        if fallback.is_none() {
            result.score = alphabeta::terminal_score(root, 0);
            result.counters = self.counters.clone();
            return result;
        }
        let max_depth = limits.depth.unwrap_or(MAX_PLY as i32 - 8).clamp(1, MAX_PLY as i32 - 8);
        for depth in 1..=max_depth {
            self.iteration_best = None;
            self.seldepth = 0;
            let score = self.root_search(depth, root, result.score);
            if self.stopped {
                // A root move confirmed by a full-window search in the
                // unfinished iteration is better informed than the last one.
                if let Some((m, s)) = self.iteration_best
                    && result.best_move != Some(m)
                {
                    result.best_move = Some(m);
                    result.score = s;
                    result.pv = vec![m];
                }
                break;
            }
            result.best_move = self.pv[0].first().copied().or(result.best_move);
            result.score = score;
            result.depth = depth;
            result.pv = self.pv[0].clone();
            report(&Report {
                depth,
                seldepth: self.seldepth,
                score,
                nodes: self.counters.nodes,
                time_ms: self.deadline.start.elapsed().as_millis() as u64,
                hashfull: self.tt.hashfull(),
                pv: result.pv.clone(),
            });
            // A proven mate cannot get shorter by searching deeper.
            let mate_proven = mate_in_moves(score).is_some_and(|moves| depth > 2 * moves.abs());
            if mate_proven || self.elapsed_ms() >= self.deadline.soft_ms {
                break;
            }
        }
        result.counters = self.counters.clone();
        result
    }

    /// One iteration at the root: with the full window, or (aspiration
    /// windows; CPW "Aspiration Windows") in a window around the last
    /// iteration's score, widened, doubling, on the side that fails until
    /// the score lies inside.
    fn root_search(&mut self, depth: i32, root: &Board, last: Score) -> Score {
        let modern = &self.config.modern;
        if !modern.aspiration || depth < modern.aspiration_depth || last.abs() >= crate::score::MATE_BOUND {
            return self.alphabeta(root, -INFINITY, INFINITY, depth, 0, NodeType::Pv, true);
        }
        let mut delta = modern.aspiration_window.max(1);
        let (mut alpha, mut beta) = ((last - delta).max(-INFINITY), (last + delta).min(INFINITY));
        loop {
            let score = self.alphabeta(root, alpha, beta, depth, 0, NodeType::Pv, true);
            if self.stopped {
                return score;
            }
            if score <= alpha && alpha > -INFINITY {
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta && beta < INFINITY {
                beta = (score + delta).min(INFINITY);
            } else {
                return score;
            }
            self.counters.aspiration_fails += 1;
            delta = delta.saturating_mul(2);
            if delta > 1_000 {
                (alpha, beta) = (-INFINITY, INFINITY);
            }
        }
    }

    fn prepare(&mut self, game: &Game, limits: &Limits) {
        self.stopped = self.stop.load(Ordering::Relaxed);
        let lmr = (self.config.modern.lmr_base, self.config.modern.lmr_divisor);
        if self.lmr_table.params != lmr {
            self.lmr_table = LmrTable::for_params(lmr.0, lmr.1);
        }
        self.counters = Counters::default();
        // A credit-only table kept for a whole game would, move by move,
        // mark every quiet move that ever cut off as an alternative; one per
        // search keeps the count a property of the tree being searched.
        if self.config.variable_bound.enabled {
            self.credit.clear();
        }
        self.tt.new_search();
        self.stack.fill(Frame::default());
        self.path.clear();
        self.path.extend_from_slice(&game.history);
        let (mut soft_ms, mut hard_ms) = (u64::MAX, u64::MAX);
        if let Some(clock) = &limits.clock {
            let b = budget(clock, self.settings.move_overhead_ms);
            soft_ms = b.soft_ms;
            hard_ms = b.hard_ms;
        }
        if let Some(movetime) = limits.movetime_ms {
            let movetime = movetime_budget(movetime, self.settings.move_overhead_ms);
            soft_ms = soft_ms.min(movetime);
            hard_ms = hard_ms.min(movetime);
        }
        self.deadline = Deadline {
            start: Instant::now(),
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            soft_ms,
            hard_ms,
            nodes_per_ms: self.settings.nodes_per_ms,
        };
    }

    /// Milliseconds used: wall time, or nodes / NodesTime in node-time mode.
    fn elapsed_ms(&self) -> u64 {
        match self.deadline.nodes_per_ms {
            0 => self.deadline.start.elapsed().as_millis() as u64,
            per_ms => self.counters.nodes / per_ms,
        }
    }

    /// The static evaluation and threat score of `board`, through the cache.
    fn evaluate(&mut self, board: &Board) -> Evaluation {
        self.eval_cache.evaluate(board.key(), board.position())
    }

    /// Starts loading the slot a search of `board` to `depth` reads first:
    /// the table's for an interior node, the evaluation cache's for
    /// quiescence. A prefetch changes no result, only when memory answers.
    fn prefetch(&self, board: &Board, depth: i32) {
        if depth > 0 {
            self.tt.prefetch(board.key());
        } else {
            self.eval_cache.prefetch(board.key());
        }
    }

    /// The static evaluation of `board` alone, through the cache.
    fn static_score(&mut self, board: &Board) -> Score {
        self.eval_cache.score(board.key(), board.position())
    }

    /// Counts a node and tells whether the search must stop now.
    fn count_node_and_check_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.counters.nodes >= self.deadline.node_limit {
            self.stopped = true;
            return true;
        }
        self.counters.nodes += 1;
        if self.counters.nodes & 1023 == 0
            && (self.stop.load(Ordering::Relaxed) || self.elapsed_ms() >= self.deadline.hard_ms)
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// True when the position `board` at `ply` repeats one since the last
    /// irreversible move (on the search path or in the game).
    fn is_repetition(&self, board: &Board) -> bool {
        let halfmoves = board.position().halfmoves() as usize;
        let len = self.path.len();
        (4..=halfmoves.min(len)).step_by(2).any(|back| self.path[len - back] == board.key())
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(m);
        head[ply].extend_from_slice(&tail[0]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repetition_is_found_in_game_history_and_path() {
        let game = Game::from_uci(None, &["g1f3", "g8f6", "f3g1", "f6g8", "g1f3"]).unwrap();
        let mut searcher = Searcher::new(1, PruningConfig::default());
        searcher.prepare(&game, &Limits::default());
        // Black plays ...Nf6: the position after 1. Nf3 Nf6 occurs again.
        let m = "g8f6".parse::<shakmaty::uci::UciMove>().unwrap().to_move(game.board.position()).unwrap();
        searcher.path.push(game.board.key());
        assert!(searcher.is_repetition(&game.board.play(m)));
        // ...Nc6 is new.
        let fresh = "b8c6".parse::<shakmaty::uci::UciMove>().unwrap().to_move(game.board.position()).unwrap();
        assert!(!searcher.is_repetition(&game.board.play(fresh)));
    }

    #[test]
    fn node_time_charges_the_clock_in_nodes() {
        // 50 nodes are one millisecond; 3 s on the clock with no overhead gives
        // a hard limit of 300 ms = 15,000 nodes (stop checks every 1,024 nodes).
        let game = Game::default();
        let limits = Limits { clock: Some(Clock { time_left_ms: 3_000, ..Clock::default() }), ..Limits::default() };
        let run = || {
            let mut searcher = Searcher::new(1, PruningConfig::default());
            searcher.settings = Settings { move_overhead_ms: 0, nodes_per_ms: 50 };
            searcher.search(&game, &limits, &mut |_| {}).counters.nodes
        };
        let first = run();
        assert!(first <= 15_000 + 1_024, "{first} nodes");
        assert_eq!(first, run(), "node time is reproducible");
    }

    #[test]
    fn stopped_search_still_returns_a_legal_move() {
        let game = Game::default();
        let mut searcher = Searcher::new(1, PruningConfig::default());
        let result = searcher.search(&game, &Limits { nodes: Some(1), ..Limits::default() }, &mut |_| {});
        assert!(result.best_move.is_some());
    }
}
