//! The plant's token: checked when it is set, and replaceable while the plant serves, so that a
//! secret can be rotated without a restart (`accord serve` re-reads its token file on SIGHUP).
//! What a header gets a caller is accord-plant's `Credential`, which asks [`Token::admits`].

use std::sync::{Arc, PoisonError, RwLock};

use accord_wire::{Access, Presented};

use crate::Error;

/// The token every request is judged against; `None` inside: a plant without credentials.
pub(crate) struct Token(RwLock<Option<String>>);

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the secret itself: a Debug print may end up in a log.
        f.write_str("Token(..)")
    }
}

impl Token {
    /// The token of a starting plant, refused when no header could carry it.
    pub(crate) fn new(token: Option<&str>) -> Result<Token, Error> {
        if let Some(token) = token {
            check(token)?;
        }
        Ok(Token(RwLock::new(token.map(str::to_owned))))
    }

    /// Whether `bearer` is the token as it is now (compared in constant time): the check
    /// accord-plant's `Credential::Check` asks, which decides the rest of the access.
    pub(crate) fn admits(&self, bearer: &str) -> bool {
        let token = self.0.read().unwrap_or_else(PoisonError::into_inner);
        Access::decide(token.as_deref(), Presented::Bearer(bearer)) == Access::Full
    }

    /// Whether the plant has credentials at all.
    pub(crate) fn is_set(&self) -> bool {
        self.0.read().unwrap_or_else(PoisonError::into_inner).is_some()
    }
}

fn check(token: &str) -> Result<(), Error> {
    if token.is_empty() {
        return Err(Error::EmptyToken);
    }
    match accord_wire::credential::token_problem(token) {
        Some(reason) => Err(Error::UnusableToken { reason }),
        None => Ok(()),
    }
}

/// Replaces the token of a running plant that has credentials ([`crate::Server::token_handle`]).
/// Requests and WebSocket upgrades after the replacement need the new token; a WebSocket that
/// is open keeps the access its upgrade was given.
#[derive(Debug, Clone)]
pub struct TokenHandle(pub(crate) Arc<Token>);

impl TokenHandle {
    /// Puts `token` in place of the current one.
    ///
    /// # Errors
    ///
    /// [`Error::EmptyToken`] or [`Error::UnusableToken`] when no `Authorization` header could
    /// carry `token`; the current token then stays.
    pub fn replace(&self, token: &str) -> Result<(), Error> {
        check(token)?;
        *self.0.0.write().unwrap_or_else(PoisonError::into_inner) = Some(token.to_owned());
        Ok(())
    }
}
