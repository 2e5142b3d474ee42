//! Engines as processes: the UCI protocol, one engine process, a player (an
//! engine's seat: its process kept across games), engines by name, the engine I/O
//! log, core pinning and the limit on open files. Uses only [`crate::util`].

pub mod affinity;
pub mod engines;
pub mod iolog;
pub mod limits;
pub mod player;
pub mod process;
pub mod uci;
