//! The kind of a run of games with what only that kind carries: an SPRT's
//! test, a tuning run's SPSA, a scaling run's budgets, an imported run's
//! files. Stored flat in the spec's JSON as every release wrote it (`kind`
//! beside `sprt`, `tune`, `budgets`, `imported`), so stored runs still read.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::run::RunKind;
use crate::sprt::Test;
use crate::time_control::{Budgets, TimeControl};
use crate::tune::Spsa;

/// What a run of games is, and what that kind of run needs.
#[derive(Clone, Debug, PartialEq)]
pub enum GamesKind {
    /// `arena elo`: A against B over the whole opening set.
    Elo,
    /// `arena match`: A against B for a number of games.
    Match,
    /// `arena tournament`: round robin or gauntlet.
    Tournament,
    /// `arena sprt`: pairs until this test decides.
    Sprt(Test),
    /// `arena tune`: SPSA, one pair per iteration; engines 0 and 1 are θ+
    /// and θ−.
    Tune(Box<Spsa>),
    /// `arena scale`: budgets cheapest first; pairing i is A against B under
    /// budget i (each engine copy carries it as its own time control).
    Scale(Budgets),
    /// `arena import`: the PGN files its games were read from.
    Import(Vec<ImportedFile>),
}

impl GamesKind {
    /// The kind as stored in the run's row.
    pub fn run_kind(&self) -> RunKind {
        match self {
            GamesKind::Elo => RunKind::Elo,
            GamesKind::Match => RunKind::Match,
            GamesKind::Tournament => RunKind::Tournament,
            GamesKind::Sprt(_) => RunKind::Sprt,
            GamesKind::Tune(_) => RunKind::Tune,
            GamesKind::Scale(_) => RunKind::Scale,
            GamesKind::Import(_) => RunKind::Import,
        }
    }

    /// An SPRT's test.
    pub fn sprt(&self) -> Option<Test> {
        match self {
            GamesKind::Sprt(test) => Some(*test),
            _ => None,
        }
    }

    /// A tuning run's SPSA.
    pub fn tune(&self) -> Option<&Spsa> {
        match self {
            GamesKind::Tune(spsa) => Some(spsa),
            _ => None,
        }
    }

    /// A scaling run's budgets; empty for every other kind.
    pub fn budgets(&self) -> &[TimeControl] {
        match self {
            GamesKind::Scale(budgets) => &budgets.0,
            _ => &[],
        }
    }

    /// An imported run's files; empty for every other kind.
    pub fn imported(&self) -> &[ImportedFile] {
        match self {
            GamesKind::Import(files) => files,
            _ => &[],
        }
    }
}

impl std::fmt::Display for GamesKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.run_kind().fmt(f)
    }
}

/// The fields as stored, flattened into the spec.
#[derive(Serialize)]
struct Written<'a> {
    kind: RunKind,
    sprt: Option<Test>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tune: Option<&'a Spsa>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    budgets: &'a [TimeControl],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    imported: &'a [ImportedFile],
}

#[derive(Deserialize)]
struct Stored {
    kind: RunKind,
    #[serde(default)]
    sprt: Option<Test>,
    #[serde(default)]
    tune: Option<Box<Spsa>>,
    #[serde(default)]
    budgets: Vec<TimeControl>,
    #[serde(default)]
    imported: Vec<ImportedFile>,
}

impl Serialize for GamesKind {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Written {
            kind: self.run_kind(),
            sprt: self.sprt(),
            tune: self.tune(),
            budgets: self.budgets(),
            imported: self.imported(),
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for GamesKind {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<GamesKind, D::Error> {
        use serde::de::Error;
        let stored = Stored::deserialize(deserializer)?;
        let missing = |what: &str| D::Error::custom(format!("a {} run without its {what}", stored.kind));
        Ok(match stored.kind {
            RunKind::Elo => GamesKind::Elo,
            RunKind::Match => GamesKind::Match,
            RunKind::Tournament => GamesKind::Tournament,
            RunKind::Sprt => GamesKind::Sprt(stored.sprt.ok_or_else(|| missing("sprt"))?),
            RunKind::Tune => GamesKind::Tune(stored.tune.ok_or_else(|| missing("tune"))?),
            RunKind::Scale => GamesKind::Scale(Budgets(stored.budgets)),
            RunKind::Import => GamesKind::Import(stored.imported),
            RunKind::Suite => return Err(D::Error::custom("a suite run is not a run of games")),
        })
    }
}

/// A PGN file whose games an imported run holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImportedFile {
    /// The file as it was named.
    pub name: String,
    /// Its content's SHA-256, hex: the same file imported again adds nothing.
    pub sha256: String,
    /// Games stored from it.
    pub games: u64,
    /// Of those, games not played as a pair (no game beside them on their
    /// opening with colours reversed): stored beside another such game of
    /// the same two engines with colours reversed, so the run counts games
    /// (trinomial), not pairs.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub unpaired: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_reads_back_what_it_wrote_and_the_old_flat_layout_reads() {
        let test = Test::new(0.0, 5.0, 0.05, 0.05, crate::sprt::Model::Normalized).unwrap();
        let budgets = Budgets(vec!["nodes=1000".parse().unwrap(), "nodes=4000".parse().unwrap()]);
        for kind in [GamesKind::Elo, GamesKind::Sprt(test), GamesKind::Scale(budgets.clone())] {
            let json = serde_json::to_string(&kind).unwrap();
            assert_eq!(serde_json::from_str::<GamesKind>(&json).unwrap(), kind, "{json}");
        }
        let old = r#"{"kind":"scale","sprt":null,"budgets":["nodes=1000","nodes=4000"]}"#;
        assert_eq!(serde_json::from_str::<GamesKind>(old).unwrap(), GamesKind::Scale(budgets));
        assert_eq!(serde_json::to_string(&GamesKind::Match).unwrap(), r#"{"kind":"match","sprt":null}"#);
        let error = serde_json::from_str::<GamesKind>(r#"{"kind":"sprt","sprt":null}"#).unwrap_err();
        assert!(error.to_string().contains("a sprt run without its sprt"), "{error}");
    }
}
