//! Stored codes: the enumerations arena writes into the database as text
//! (a game's result and ending, a run's kind, status and verdict, a PV
//! issue's kind). Each is declared once, variant and text side by side, by
//! [`stored_code!`]; reading one back is [`Code::read`], which knows every
//! value or refuses: a text this arena does not know is an error, never a
//! default (a newer arena may have written it).

use std::fmt;

/// An enumeration stored as text.
pub trait Code: Copy + 'static {
    /// What it is, in words (`termination`).
    const WHAT: &'static str;
    /// Every value, in declaration order.
    fn all() -> &'static [Self];
    /// The text it is stored as.
    fn code(self) -> &'static str;

    /// The value stored as `text`, or what is wrong with it.
    ///
    /// # Errors
    ///
    /// [`UnknownCode`] when no value is stored as `text`.
    fn read(text: &str) -> Result<Self, UnknownCode> {
        Self::all().iter().copied().find(|v| v.code() == text).ok_or_else(|| UnknownCode::new(Self::WHAT, text))
    }
}

/// A stored text that names no value this arena knows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownCode {
    /// What it should have been (`termination`).
    pub what: &'static str,
    /// The text, cut to [`UnknownCode::SHOWN`] characters.
    pub text: String,
}

impl UnknownCode {
    /// The longest stored text an error repeats.
    pub const SHOWN: usize = 40;

    /// The error for `text` read as a `what`.
    pub fn new(what: &'static str, text: &str) -> Self {
        let mut shown: String = text.chars().take(Self::SHOWN).filter(|c| !c.is_control()).collect();
        if text.chars().count() > Self::SHOWN {
            shown.push('…');
        }
        Self { what, text: shown }
    }
}

impl fmt::Display for UnknownCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown {} '{}' (written by a newer arena? upgrade this one)", self.what, self.text)
    }
}

impl std::error::Error for UnknownCode {}

/// Serializes a stored code as its stored text (for JSON that shows what
/// the database holds: `"time-forfeit"`, not the variant's name).
///
/// # Errors
///
/// The serializer's.
pub fn serialize_code<S: serde::Serializer, T: Code>(value: &T, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(value.code())
}

/// Declares an enumeration stored as text: each variant beside its text,
/// once. It gives `ALL` (every value), `as_str` (the text) and [`Code`];
/// the caller's attributes (derives, serde) are kept.
#[macro_export]
macro_rules! stored_code {
    (
        $(#[$meta:meta])*
        pub enum $name:ident as $what:literal {
            $( $(#[$vmeta:meta])* $variant:ident = $code:literal, )+
        }
    ) => {
        $(#[$meta])*
        pub enum $name { $( $(#[$vmeta])* $variant, )+ }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The stable text it is stored as.
            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $code),+ }
            }
        }

        impl $crate::code::Code for $name {
            const WHAT: &'static str = $what;
            fn all() -> &'static [Self] {
                Self::ALL
            }
            fn code(self) -> &'static str {
                self.as_str()
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{GameResult, PvIssueKind, RunKind, RunStatus, Termination, Verdict};

    fn round_trips<T: Code + PartialEq + fmt::Debug>() {
        for &value in T::all() {
            assert_eq!(T::read(value.code()), Ok(value));
        }
        let codes: std::collections::HashSet<&str> = T::all().iter().map(|v| v.code()).collect();
        assert_eq!(codes.len(), T::all().len(), "{}: every text names one value", T::WHAT);
    }

    #[test]
    fn every_stored_code_reads_back_and_nothing_else_does() {
        round_trips::<Termination>();
        round_trips::<GameResult>();
        round_trips::<PvIssueKind>();
        round_trips::<RunKind>();
        round_trips::<RunStatus>();
        round_trips::<Verdict>();
        assert_eq!(
            Termination::read("exploded").unwrap_err().to_string(),
            "unknown termination 'exploded' (written by a newer arena? upgrade this one)"
        );
        assert_eq!(GameResult::read("1/2").unwrap_err().what, "result");
        let long = Termination::read(&"x".repeat(500)).unwrap_err().to_string();
        assert!(long.len() < 120 && long.contains('…'), "{long}");
        assert!(!Termination::read("a\nb").unwrap_err().to_string().contains('\n'));
    }
}
