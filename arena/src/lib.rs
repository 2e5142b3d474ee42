//! The arena: engine processes over UCI, clocks, games, the work loop that
//! plays stored runs (pairs of games, suite chunks) here or in workers, and
//! the `arena` command line.

pub mod affinity;
pub mod cli;
pub mod clock;
pub mod engines;
pub mod game;
pub mod iolog;
pub mod limits;
pub mod plan;
pub mod player;
pub mod process;
pub mod reporting;
pub mod runfile;
pub mod serve;
pub mod suite;
pub mod tablebase;
pub mod tune;
pub mod uci;
pub mod work;
