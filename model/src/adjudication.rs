//! The text of the adjudication rules, as `--draw` and `--resign` take it
//! and a run file writes it back: read once into [`DrawRule`] and
//! [`ResignRule`] (`off`: no rule), by clap through [`DrawFlag`] and
//! [`ResignFlag`], whose defaults are the rules' own.

use std::fmt;
use std::str::FromStr;

use crate::invalid::Invalid;
use crate::spec::{DrawRule, ResignRule};

impl DrawRule {
    /// `--draw`'s default, and where a partly given rule starts from.
    pub const DEFAULT: DrawRule = DrawRule { move_number: 40, move_count: 8, score: 10 };
}

impl ResignRule {
    /// `--resign`'s default, and where a partly given rule starts from.
    pub const DEFAULT: ResignRule = ResignRule { move_count: 3, score: 1000, two_sided: true };
}

/// An adjudication rule as a flag reads and writes it: `off`, or
/// `key=value` settings over [`Rule::DEFAULT`].
pub trait Rule: Copy {
    /// The flag's default, and where a partly given rule starts from.
    const DEFAULT: Self;

    /// The flag's name without dashes: `draw` or `resign`.
    const FLAG: &'static str;

    /// Sets `key` to `value`.
    ///
    /// # Errors
    ///
    /// A message naming the unknown key or the bad value.
    fn set(&mut self, key: &str, value: &str) -> Result<(), Invalid>;

    /// Whether the settings together make a rule.
    fn valid(&self) -> bool;

    /// What is wrong with settings that are not [`Rule::valid`].
    fn invalid(&self) -> String;

    /// The text of `rule` (the inverse of [`Rule::parse`]).
    fn text(rule: Option<Self>) -> String;

    /// The rule of `text`, `None` for `off`.
    ///
    /// # Errors
    ///
    /// A message naming the bad key or value.
    fn parse(text: &str) -> Result<Option<Self>, Invalid> {
        if text == "off" {
            return Ok(None);
        }
        let mut rule = Self::DEFAULT;
        for part in text.split(',').filter(|p| !p.is_empty()) {
            let (key, value) =
                part.split_once('=').ok_or_else(|| Invalid::new(Self::FLAG, format!("'{part}' is not key=value")))?;
            rule.set(key, value)?;
        }
        if !rule.valid() {
            return Err(Invalid::new(Self::FLAG, rule.invalid()));
        }
        Ok(Some(rule))
    }
}

/// `--draw` or `--resign`: a rule, or none (`off`), as clap reads and a run
/// file writes it; its default is the rule's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleFlag<R>(pub Option<R>);

/// `--draw`.
pub type DrawFlag = RuleFlag<DrawRule>;

/// `--resign`.
pub type ResignFlag = RuleFlag<ResignRule>;

impl<R: Rule> Default for RuleFlag<R> {
    fn default() -> Self {
        RuleFlag(Some(R::DEFAULT))
    }
}

impl<R: Rule> FromStr for RuleFlag<R> {
    type Err = Invalid;

    fn from_str(text: &str) -> Result<Self, Invalid> {
        R::parse(text).map(RuleFlag)
    }
}

impl<R: Rule> fmt::Display for RuleFlag<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&R::text(self.0))
    }
}

/// Parses `movenumber=40,movecount=8,score=10` (draw) or `off`.
///
/// # Errors
///
/// A message naming the bad key or value.
pub fn parse_draw(text: &str) -> Result<Option<DrawRule>, Invalid> {
    DrawRule::parse(text)
}

/// A draw rule as `--draw` writes it (the inverse of [`parse_draw`]).
pub fn draw_flag(rule: Option<DrawRule>) -> String {
    DrawRule::text(rule)
}

/// A resign rule as `--resign` writes it (the inverse of [`parse_resign`]).
pub fn resign_flag(rule: Option<ResignRule>) -> String {
    ResignRule::text(rule)
}

/// Parses `movecount=3,score=1000[,twosided=false]` (resign) or `off`;
/// what is not given is [`ResignRule::DEFAULT`]'s.
///
/// # Errors
///
/// A message naming the bad key or value.
pub fn parse_resign(text: &str) -> Result<Option<ResignRule>, Invalid> {
    ResignRule::parse(text)
}

impl Rule for DrawRule {
    const DEFAULT: Self = DrawRule::DEFAULT;
    const FLAG: &'static str = "draw";

    fn set(&mut self, key: &str, value: &str) -> Result<(), Invalid> {
        match key {
            "movenumber" => self.move_number = number::<Self, _>(key, value)?,
            "movecount" => self.move_count = number::<Self, _>(key, value)?,
            "score" => self.score = number::<Self, _>(key, value)?,
            _ => {
                return Err(Invalid::new(
                    Self::FLAG,
                    format!("unknown draw setting '{key}' (movenumber, movecount, score, or 'off')"),
                ));
            }
        }
        Ok(())
    }

    fn valid(&self) -> bool {
        self.move_number > 0 && self.move_count > 0 && self.score >= 0
    }

    fn invalid(&self) -> String {
        let DrawRule { move_number, move_count, score } = self;
        format!(
            "movenumber and movecount must be at least 1 and score at least 0 (got movenumber={move_number}, movecount={move_count}, score={score})"
        )
    }

    fn text(rule: Option<DrawRule>) -> String {
        rule.map_or("off".into(), |d| {
            format!("movenumber={},movecount={},score={}", d.move_number, d.move_count, d.score)
        })
    }
}

impl Rule for ResignRule {
    const DEFAULT: Self = ResignRule::DEFAULT;
    const FLAG: &'static str = "resign";

    fn set(&mut self, key: &str, value: &str) -> Result<(), Invalid> {
        if key == "twosided" {
            self.two_sided = value
                .parse()
                .map_err(|_| Invalid::new(Self::FLAG, format!("twosided must be true or false, got '{value}'")))?;
        } else if key == "movecount" {
            self.move_count = number::<Self, _>(key, value)?;
        } else if key == "score" {
            self.score = number::<Self, _>(key, value)?;
        } else {
            return Err(Invalid::new(
                Self::FLAG,
                format!("unknown resign setting '{key}' (movecount, score, twosided, or 'off')"),
            ));
        }
        Ok(())
    }

    fn valid(&self) -> bool {
        self.move_count > 0 && self.score > 0
    }

    fn invalid(&self) -> String {
        format!(
            "movecount and score must be at least 1 (got movecount={}, score={}; score is the centipawns the loser is behind)",
            self.move_count, self.score
        )
    }

    fn text(rule: Option<ResignRule>) -> String {
        rule.map_or("off".into(), |r| format!("movecount={},score={},twosided={}", r.move_count, r.score, r.two_sided))
    }
}

/// `value` as the number `key` of rule `R` takes.
fn number<R: Rule, T: std::str::FromStr>(key: &str, value: &str) -> Result<T, Invalid> {
    value.parse().map_err(|_| Invalid::new(R::FLAG, format!("{key} needs a whole number, got '{value}'")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_settings_are_named() {
        let bad = parse_draw("movenumber=x").unwrap_err();
        assert!(bad.setting == "draw" && bad.problem.contains("movenumber"), "{bad:?}");
        let bad = parse_resign("colour=1").unwrap_err();
        assert!(bad.setting == "resign" && bad.problem.contains("unknown resign setting"), "{bad:?}");
        assert_eq!(parse_draw("off").unwrap(), None);
        for text in ["movenumber=40,movecount=8,score=10", "off"] {
            assert_eq!(draw_flag(parse_draw(text).unwrap()), text, "round trip");
        }
        let resign = "movecount=3,score=1000,twosided=true";
        assert_eq!(resign_flag(parse_resign(resign).unwrap()), resign, "round trip");
        // The flags' defaults are the rules' own, and a rule given in part
        // starts from them.
        assert_eq!(ResignFlag::default().to_string(), resign);
        assert_eq!(DrawFlag::default().to_string().parse::<DrawFlag>().unwrap(), DrawFlag::default());
        assert_eq!(parse_resign("movecount=5").unwrap(), Some(ResignRule { move_count: 5, ..ResignRule::DEFAULT }));
        assert_eq!(parse_draw("score=20").unwrap(), Some(DrawRule { score: 20, ..DrawRule::DEFAULT }));
    }
}
