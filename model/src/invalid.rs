//! [`Invalid`]: a setting given as text (a flag, a run file, a stored spec)
//! that cannot be used, with the one line that says why.

use std::fmt;

/// A setting that cannot be used: which one, and what is wrong with it and
/// what would do. Its text is the problem alone: clap and the run file
/// already name the flag around it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid {
    /// The setting as a user names it: `draw`, `resign`, `budgets`, `sprt`, `bench`.
    pub setting: &'static str,
    /// What is wrong, and what to give instead.
    pub problem: String,
}

impl Invalid {
    /// `setting` cannot be used because of `problem`.
    pub fn new(setting: &'static str, problem: impl Into<String>) -> Invalid {
        Invalid { setting, problem: problem.into() }
    }
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.problem)
    }
}

impl std::error::Error for Invalid {}
