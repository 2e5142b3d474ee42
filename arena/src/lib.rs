//! The arena: engine processes over UCI, clocks, games, paired-opening
//! matches stored in a database, and the `arena` command line.

pub mod cli;
pub mod clock;
pub mod engines;
pub mod game;
pub mod player;
pub mod process;
pub mod run;
pub mod suite;
pub mod uci;
pub mod worker;
