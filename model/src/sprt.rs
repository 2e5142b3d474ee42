//! An SPRT as a run states it: the hypotheses, error rates and Elo model,
//! its decision bounds and its verdict. The likelihood ratio itself is
//! statistics and lives in `reports::stats::sprt`.

use serde::{Deserialize, Serialize};

use crate::invalid::Invalid;

/// The SPRT's decision thresholds on the log-likelihood ratio.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    /// Accept H0 (a gain below elo1) at or below this: ln(β / (1 − α)).
    pub lower: f64,
    /// Accept H1 (a gain above elo0) at or above this: ln((1 − β) / α).
    pub upper: f64,
}

impl Bounds {
    /// Bounds for false-positive rate `alpha` and false-negative rate `beta`.
    pub fn new(alpha: f64, beta: f64) -> Self {
        Self { lower: (beta / (1.0 - alpha)).ln(), upper: ((1.0 - beta) / alpha).ln() }
    }
}

/// The Elo model an SPRT's bounds are stated in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Model {
    /// Normalized Elo (fishtest's default since 2021).
    #[default]
    Normalized,
    /// Logistic Elo.
    Logistic,
}

impl Model {
    /// The unit of Elo in this model, as the views print it: `nElo` or `Elo`.
    pub fn unit(self) -> &'static str {
        match self {
            Model::Normalized => "nElo",
            Model::Logistic => "Elo",
        }
    }
}

impl std::fmt::Display for Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Model::Normalized => "normalized",
            Model::Logistic => "logistic",
        })
    }
}

impl std::str::FromStr for Model {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text {
            "normalized" => Ok(Model::Normalized),
            "logistic" => Ok(Model::Logistic),
            _ => Err(format!("unknown SPRT model '{text}' (normalized or logistic)")),
        }
    }
}

/// A sequential test: H0 (Elo = `elo0`) against H1 (Elo = `elo1`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Test {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False-positive rate.
    pub alpha: f64,
    /// False-negative rate.
    pub beta: f64,
    /// The Elo model of `elo0` and `elo1`.
    pub model: Model,
}

impl Test {
    /// Checks the parameters.
    ///
    /// # Errors
    ///
    /// A message when elo0 ≥ elo1 or α, β are not in (0, 0.5).
    pub fn validate(&self) -> Result<(), Invalid> {
        if self.elo0.is_nan() || self.elo1.is_nan() || self.elo0 >= self.elo1 {
            return Err(Invalid::new("sprt", format!("elo0 ({}) must be below elo1 ({})", self.elo0, self.elo1)));
        }
        for (name, value) in [("alpha", self.alpha), ("beta", self.beta)] {
            if !(value > 0.0 && value < 0.5) {
                return Err(Invalid::new("sprt", format!("{name} must be in (0, 0.5), got {value}")));
            }
        }
        Ok(())
    }

    /// The decision bounds.
    pub fn bounds(&self) -> Bounds {
        Bounds::new(self.alpha, self.beta)
    }

    /// The verdict at this LLR, if a bound is reached.
    pub fn decide(&self, llr: f64) -> Option<Verdict> {
        let bounds = self.bounds();
        if llr >= bounds.upper {
            Some(Verdict::AcceptH1)
        } else if llr <= bounds.lower {
            Some(Verdict::AcceptH0)
        } else {
            None
        }
    }
}

/// What an SPRT concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Verdict {
    /// The LLR reached the upper bound: A gains more than `elo0` (wrongly
    /// with probability at most α).
    AcceptH1,
    /// The LLR reached the lower bound: A gains less than `elo1` (wrongly
    /// with probability at most β).
    AcceptH0,
    /// The game limit came first.
    Inconclusive,
}

impl Verdict {
    /// Stable name, as stored: `H1`, `H0`, `inconclusive`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::AcceptH1 => "H1",
            Verdict::AcceptH0 => "H0",
            Verdict::Inconclusive => "inconclusive",
        }
    }

    /// Parses [`Verdict::as_str`].
    pub fn parse(text: &str) -> Option<Verdict> {
        [Verdict::AcceptH1, Verdict::AcceptH0, Verdict::Inconclusive].into_iter().find(|v| v.as_str() == text)
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
