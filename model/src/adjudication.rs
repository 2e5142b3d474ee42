//! The text of the adjudication rules, as `--draw` and `--resign` take it
//! and a run file writes it back: read once into [`DrawRule`] and
//! [`ResignRule`] (`off`: no rule), by clap through [`DrawFlag`] and
//! [`ResignFlag`], whose defaults are the rules' own.

use std::fmt;
use std::str::FromStr;

use crate::spec::{DrawRule, ResignRule};

impl DrawRule {
    /// `--draw`'s default, and where a partly given rule starts from.
    pub const DEFAULT: DrawRule = DrawRule { move_number: 40, move_count: 8, score: 10 };
}

impl ResignRule {
    /// `--resign`'s default, and where a partly given rule starts from.
    pub const DEFAULT: ResignRule = ResignRule { move_count: 3, score: 1000, two_sided: true };
}

/// `--draw`: a draw rule, or none (`off`), as clap reads and a run file writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawFlag(pub Option<DrawRule>);

impl Default for DrawFlag {
    fn default() -> Self {
        DrawFlag(Some(DrawRule::DEFAULT))
    }
}

impl FromStr for DrawFlag {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        parse_draw(text).map(DrawFlag)
    }
}

impl fmt::Display for DrawFlag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&draw_flag(self.0))
    }
}

/// `--resign`: a resign rule, or none (`off`), as clap reads and a run file writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignFlag(pub Option<ResignRule>);

impl Default for ResignFlag {
    fn default() -> Self {
        ResignFlag(Some(ResignRule::DEFAULT))
    }
}

impl FromStr for ResignFlag {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        parse_resign(text).map(ResignFlag)
    }
}

impl fmt::Display for ResignFlag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&resign_flag(self.0))
    }
}

/// Parses `movenumber=40,movecount=8,score=10` (draw) or `off`.
///
/// # Errors
///
/// A message naming the bad key or value.
pub fn parse_draw(text: &str) -> Result<Option<DrawRule>, String> {
    if text == "off" {
        return Ok(None);
    }
    let mut rule = DrawRule::DEFAULT;
    for (key, value) in key_values(text)? {
        match key {
            "movenumber" => rule.move_number = number(key, value)?,
            "movecount" => rule.move_count = number(key, value)?,
            "score" => rule.score = number(key, value)?,
            _ => return Err(format!("unknown draw setting '{key}' (movenumber, movecount, score, or 'off')")),
        }
    }
    if rule.move_number == 0 || rule.move_count == 0 || rule.score < 0 {
        return Err(format!(
            "movenumber and movecount must be at least 1 and score at least 0 (got movenumber={}, movecount={}, score={})",
            rule.move_number, rule.move_count, rule.score
        ));
    }
    Ok(Some(rule))
}

/// A draw rule as `--draw` writes it (the inverse of [`parse_draw`]).
pub fn draw_flag(rule: Option<DrawRule>) -> String {
    rule.map_or("off".into(), |d| format!("movenumber={},movecount={},score={}", d.move_number, d.move_count, d.score))
}

/// A resign rule as `--resign` writes it (the inverse of [`parse_resign`]).
pub fn resign_flag(rule: Option<ResignRule>) -> String {
    rule.map_or("off".into(), |r| format!("movecount={},score={},twosided={}", r.move_count, r.score, r.two_sided))
}

/// Parses `movecount=3,score=1000[,twosided=false]` (resign) or `off`;
/// what is not given is [`ResignRule::DEFAULT`]'s.
///
/// # Errors
///
/// A message naming the bad key or value.
pub fn parse_resign(text: &str) -> Result<Option<ResignRule>, String> {
    if text == "off" {
        return Ok(None);
    }
    let mut rule = ResignRule::DEFAULT;
    for (key, value) in key_values(text)? {
        match key {
            "movecount" => rule.move_count = number(key, value)?,
            "score" => rule.score = number(key, value)?,
            "twosided" => {
                rule.two_sided = value.parse().map_err(|_| format!("twosided must be true or false, got '{value}'"))?
            }
            _ => return Err(format!("unknown resign setting '{key}' (movecount, score, twosided, or 'off')")),
        }
    }
    if rule.move_count == 0 || rule.score <= 0 {
        return Err(format!(
            "movecount and score must be at least 1 (got movecount={}, score={}; score is the centipawns the loser is behind)",
            rule.move_count, rule.score
        ));
    }
    Ok(Some(rule))
}

fn key_values(text: &str) -> Result<Vec<(&str, &str)>, String> {
    text.split(',')
        .filter(|p| !p.is_empty())
        .map(|part| part.split_once('=').ok_or_else(|| format!("'{part}' is not key=value")))
        .collect()
}

fn number<T: std::str::FromStr>(key: &str, value: &str) -> Result<T, String> {
    value.parse().map_err(|_| format!("{key} needs a whole number, got '{value}'"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_settings_are_named() {
        assert!(parse_draw("movenumber=x").unwrap_err().contains("movenumber"));
        assert!(parse_resign("colour=1").unwrap_err().contains("unknown resign setting"));
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
