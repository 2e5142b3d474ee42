//! Engines as processes: the UCI protocol, one engine process, a player (an
//! engine kept as one process across games), engines by name, the engine I/O
//! log, engines built from source and their bench signatures, core pinning, the time an engine waited for a processor, the limit on open files, and `arena check`'s UCI compliance steps. Uses only [`crate::util`].

pub mod affinity;
pub mod bench;
pub mod check;
pub mod engines;
pub mod iolog;
pub mod open_files;
pub mod player;
pub mod process;
pub mod source;
pub mod starvation;
pub mod uci;
