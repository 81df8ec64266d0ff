//! The credential check (docs/wire.md §8): pluggable, so a plant can rotate its secret.

use std::sync::Arc;

use accord_wire::{Access, Presented};

/// Who may call the plant.
#[derive(Clone, Default)]
pub enum Credential {
    /// No credentials: every caller is answered in full.
    #[default]
    None,
    /// One static bearer token, compared in constant time (accord-wire's `Access::decide`).
    Token(String),
    /// A callback asked whether a presented bearer token is right now: for rotation, a
    /// secret store, several tokens. It sees only non-empty bearer tokens; an absent header is
    /// the reduced access and a malformed one refused before it is asked.
    Check(Arc<dyn Fn(&str) -> bool + Send + Sync>),
}

impl std::fmt::Debug for Credential {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the token itself: a configuration is logged.
        f.write_str(match self {
            Credential::None => "None",
            Credential::Token(_) => "Token(..)",
            Credential::Check(_) => "Check(..)",
        })
    }
}

impl Credential {
    /// A callback check.
    pub fn check(f: impl Fn(&str) -> bool + Send + Sync + 'static) -> Credential {
        Credential::Check(Arc::new(f))
    }

    /// What the `Authorization` header's value (`None`: no header) gets a caller.
    pub fn access(&self, header: Option<&str>) -> Access {
        let presented = Presented::from_header(header);
        match self {
            Credential::None => Access::Full,
            Credential::Token(token) => Access::decide(Some(token), presented),
            Credential::Check(check) => match presented {
                Presented::Nothing => Access::Reduced,
                Presented::Malformed => Access::Refused,
                Presented::Bearer(token) if check(token) => Access::Full,
                Presented::Bearer(_) => Access::Refused,
            },
        }
    }

    /// Why this credential cannot be used (a static token no header can carry).
    pub(crate) fn problem(&self) -> Option<String> {
        match self {
            Credential::Token(token) => accord_wire::credential::token_problem(token),
            _ => None,
        }
    }
}
