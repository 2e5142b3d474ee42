//! Match statistics from trinomial (W/D/L) or pentanomial (game-pair) counts.
//!
//! Conventions follow fishtest: zero counts are regularised to 10⁻³ before
//! estimating (so a sample without losses gives a finite, labelled bound,
//! never a NaN), the 95 % interval is `elo ± (elo(μ⁺) − elo(μ⁻))/2` with
//! μ± = μ ± 1.96σ/√n, normalized Elo is (μ − ½)/σ per game × 800/ln 10.

mod distribution;
pub mod elo;
pub mod machines;
pub mod ratings;
pub mod scaling;
pub mod sprt;

pub use distribution::Counts;
pub use elo::{Summary, summarize};
