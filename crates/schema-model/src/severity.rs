//! How serious a finding about a contract or its source is. One enum for every layer that
//! reports findings (validate's lint, extract's diagnostics), so the cli renders, counts and
//! filters them one way.

use std::fmt;

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Something is wrong: the contract (lint: `accord check` exits 1) or what was made of
    /// the source (extract: a type could not be described, and nothing is written).
    Error,
    /// It works, but a reader, a caller or serde will trip over this.
    Warning,
}

impl Severity {
    /// `error` or `warning`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
