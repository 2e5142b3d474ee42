//! A UCI chess engine on [shakmaty] whose forward pruning switches at run
//! time between the methods of four classic papers: standard and adaptive
//! null move, verified null move, Fail-High Reductions, multi-cut and the
//! variable null-move bound. See [`search::pruning`] for the presets.
//!
//! The search is PVS/Negascout with a transposition table, quiescence,
//! killers and history, a check extension, repetition and fifty-move
//! detection, iterative deepening and time management.

pub mod bench;
pub mod board;
pub mod captures;
pub mod eval;
pub mod game;
pub mod moves;
pub mod ordering;
pub mod perft;
#[cfg(test)]
mod random_games;
pub mod score;
pub mod search;
pub mod see;
pub mod time;
pub mod tt;
pub mod uci;
