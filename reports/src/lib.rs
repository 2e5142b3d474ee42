//! Statistics (Elo, confidence intervals, significance, SPRT) and, later,
//! report rendering. The statistics are pure functions without I/O, written
//! to agree with the code engine developers already trust: fishtest's
//! `stat_util`/`LLRcalc` and cutechess's BayesElo SPRT (checked against
//! reference vectors in `tests/`).

pub mod stats;
