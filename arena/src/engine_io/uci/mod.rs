//! The UCI protocol as the arena speaks it: commands built with vampirc-uci,
//! engine output read by a tolerant parser of our own, lines read with a cap.

pub mod command;
pub mod lines;
pub mod output;

/// The UCI option that switches an engine to Chess960 castling.
pub const CHESS960_OPTION: &str = "UCI_Chess960";
