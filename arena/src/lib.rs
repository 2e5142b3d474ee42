//! The arena: engine processes over UCI, clocks, games, the work loop that
//! plays stored runs (pairs of games, suite chunks) here or in workers, and
//! the `arena` command line.
//!
//! The modules are layers, each using only its own and those below it
//! (ARCHITECTURE.md, "Layers"; checked by the test `layers`):
//! [`util`], [`term`] · [`engine_io`] · [`game`] · [`run`] · [`reporting`],
//! [`serve`] · [`cli`].

pub mod cli;
pub mod engine_io;
pub mod game;
pub mod reporting;
pub mod run;
pub mod serve;
pub mod term;
pub mod util;
