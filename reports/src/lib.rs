//! Statistics (Elo, confidence intervals, significance, SPRT) and report
//! rendering (text summaries, PGN). The statistics are pure functions
//! without I/O, written to agree with the code engine developers already
//! trust: fishtest's `stat_util`/`LLRcalc` and cutechess's BayesElo SPRT
//! (checked against reference vectors in `tests/`).

pub mod pgn;
pub mod report;
pub mod stats;
pub mod summary;
