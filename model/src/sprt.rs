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
    /// BayesElo, the draw Elo estimated from the games' W/D/L (the SPRT of
    /// cutechess, fastchess's `model=bayesian` and fishtest's first years).
    Bayesian,
}

impl Model {
    /// The unit of Elo in this model, as the views print it: `nElo` or `Elo`.
    pub fn unit(self) -> &'static str {
        match self {
            Model::Normalized => "nElo",
            Model::Logistic => "Elo",
            Model::Bayesian => "BayesElo",
        }
    }
}

impl std::fmt::Display for Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Model::Normalized => "normalized",
            Model::Logistic => "logistic",
            Model::Bayesian => "bayesian",
        })
    }
}

impl std::str::FromStr for Model {
    type Err = Invalid;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text {
            "normalized" => Ok(Model::Normalized),
            "logistic" => Ok(Model::Logistic),
            "bayesian" => Ok(Model::Bayesian),
            _ => Err(Invalid::new(
                "model",
                format!("unknown SPRT model '{text}': give normalized, logistic or bayesian"),
            )),
        }
    }
}

/// A sequential test: H0 (Elo = `elo0`) against H1 (Elo = `elo1`), valid
/// once built: elo0 below elo1, α and β in (0, 0.5) ([`Test::new`]; a
/// stored test is checked as it is read).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "TestFields")]
pub struct Test {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
    model: Model,
}

/// A test's fields as they are stored, before they are checked.
#[derive(Deserialize)]
struct TestFields {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
    model: Model,
}

impl TryFrom<TestFields> for Test {
    type Error = Invalid;

    fn try_from(f: TestFields) -> Result<Test, Invalid> {
        Test::new(f.elo0, f.elo1, f.alpha, f.beta, f.model)
    }
}

impl Test {
    /// The test of H0 (Elo = `elo0`) against H1 (Elo = `elo1`) with
    /// false-positive rate `alpha` and false-negative rate `beta`, in `model`.
    ///
    /// # Errors
    ///
    /// elo0 not below elo1, or α or β not in (0, 0.5).
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64, model: Model) -> Result<Test, Invalid> {
        if elo0.is_nan() || elo1.is_nan() || elo0 >= elo1 {
            return Err(Invalid::new("sprt", format!("elo0 ({elo0}) must be below elo1 ({elo1})")));
        }
        for (name, value) in [("alpha", alpha), ("beta", beta)] {
            if !(value > 0.0 && value < 0.5) {
                return Err(Invalid::new("sprt", format!("{name} must be in (0, 0.5), got {value}")));
            }
        }
        Ok(Test { elo0, elo1, alpha, beta, model })
    }

    /// Elo under H0.
    pub fn elo0(&self) -> f64 {
        self.elo0
    }

    /// Elo under H1.
    pub fn elo1(&self) -> f64 {
        self.elo1
    }

    /// False-positive rate.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    /// False-negative rate.
    pub fn beta(&self) -> f64 {
        self.beta
    }

    /// The Elo model of `elo0` and `elo1`.
    pub fn model(&self) -> Model {
        self.model
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

crate::stored_code! {
    /// What an SPRT concluded, stored as `H1`, `H0`, `inconclusive`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    pub enum Verdict as "verdict" {
        /// The LLR reached the upper bound: A gains more than `elo0` (wrongly
        /// with probability at most α).
        AcceptH1 = "H1",
        /// The LLR reached the lower bound: A gains less than `elo1` (wrongly
        /// with probability at most β).
        AcceptH0 = "H0",
        /// The game limit came first.
        Inconclusive = "inconclusive",
    }
}

impl Verdict {
    /// Parses [`Verdict::as_str`].
    pub fn parse(text: &str) -> Option<Verdict> {
        crate::code::Code::read(text).ok()
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
