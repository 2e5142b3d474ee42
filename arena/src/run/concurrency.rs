//! How many games this machine plays at once: `--concurrency`'s value
//! ([`Concurrency`]), resolved on the machine from the CPUs it lets this
//! process use, and how many CPUs a game slot needs.

use serde::{Deserialize, Serialize};

use model::Invalid;

use crate::engine_io::engines::EngineSpec;

/// Without `--concurrency`: two games at once.
pub const DEFAULT_CONCURRENCY: usize = 2;

/// CPUs a game slot of these engines needs: two when they ponder (one
/// thinks while the other ponders), else one.
pub fn cpus_per_slot<'a>(engines: impl IntoIterator<Item = &'a EngineSpec>) -> usize {
    if engines.into_iter().any(|e| e.ponder) { 2 } else { 1 }
}

/// How many games a machine plays at once: a number, or one resolved on
/// the machine from the CPUs it lets this process use ([`Concurrency::on_this_machine`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Concurrency {
    /// This many.
    Games(usize),
    /// One game per CPU (per two when the engines ponder).
    Auto,
    /// The CPUs less this many (`-N`), one game per CPU.
    AllBut(usize),
}

impl std::str::FromStr for Concurrency {
    type Err = Invalid;

    fn from_str(text: &str) -> Result<Concurrency, Invalid> {
        let text = text.trim();
        let bad = || {
            Invalid::new(
                "concurrency",
                format!("'{text}' is not a number of games at once, auto, or -N (this machine's CPUs less N)"),
            )
        };
        if text.eq_ignore_ascii_case("auto") {
            return Ok(Concurrency::Auto);
        }
        if let Some(less) = text.strip_prefix('-') {
            return match less.parse::<usize>() {
                Ok(n @ 1..) => Ok(Concurrency::AllBut(n)),
                _ => Err(bad()),
            };
        }
        match text.parse::<usize>() {
            Ok(n @ 1..) => Ok(Concurrency::Games(n)),
            Ok(0) => Err(Invalid::new("concurrency", "must be at least 1".to_string())),
            _ => Err(bad()),
        }
    }
}

impl Serialize for Concurrency {
    /// Numbers as numbers (`concurrency = 3`, `= -1`), `auto` as text.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Concurrency::Games(n) => serializer.serialize_u64(*n as u64),
            Concurrency::AllBut(n) => serializer.serialize_i64(-i64::try_from(*n).unwrap_or(i64::MAX)),
            Concurrency::Auto => serializer.serialize_str("auto"),
        }
    }
}

impl<'de> Deserialize<'de> for Concurrency {
    /// `concurrency = 3`, `= -1`, `= "auto"` or `= "3"`.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Concurrency, D::Error> {
        whole_number_text(deserializer)?.parse().map_err(serde::de::Error::custom)
    }
}

impl Concurrency {
    /// The number of games at once on this machine, with `per_slot` CPUs a
    /// game (two when its engines ponder).
    ///
    /// # Errors
    ///
    /// [`Invalid`] when `-N` leaves no CPU, naming how many there are.
    pub fn on_this_machine(self, per_slot: usize) -> Result<usize, Invalid> {
        self.on(crate::engine_io::affinity::cpu_count(), per_slot)
    }

    /// [`Concurrency::on_this_machine`] on a machine of `cpus` CPUs.
    ///
    /// # Errors
    ///
    /// [`Invalid`] when `-N` leaves no CPU.
    pub fn on(self, cpus: usize, per_slot: usize) -> Result<usize, Invalid> {
        let per_slot = per_slot.max(1);
        match self {
            Concurrency::Games(n) => Ok(n),
            Concurrency::Auto => Ok((cpus / per_slot).max(1)),
            Concurrency::AllBut(n) if n < cpus => Ok(((cpus - n) / per_slot).max(1)),
            Concurrency::AllBut(n) => Err(Invalid::new(
                "concurrency",
                format!(
                    "--concurrency -{n}: this process may use {cpus} CPU(s), so -{n} leaves none; give -N with N below {cpus}, or a number"
                ),
            )),
        }
    }
}

/// A whole number, as text, from a TOML integer or string: how a run file's
/// counts are read (`concurrency = 3`, `games = "400"`).
///
/// # Errors
///
/// Neither a number nor a text.
pub fn whole_number_text<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Number {
        Integer(i64),
        Text(String),
    }
    Ok(match Number::deserialize(deserializer)? {
        Number::Integer(n) => n.to_string(),
        Number::Text(text) => text,
    })
}
