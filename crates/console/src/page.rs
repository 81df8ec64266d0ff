//! Page sessions: each load of the console page gets a secret of its own, set as an
//! `HttpOnly`, `SameSite=Strict` cookie scoped to `/console`. A confirmation is given only to a
//! request carrying a page's secret and is good only with that same secret: a script of another
//! site gets no cookie from the browser (SameSite=Strict), reads none (HttpOnly), and a request
//! that never loaded the page has none, so none of them can obtain or spend a confirmation.

use std::collections::VecDeque;

use axum::http::{HeaderMap, header};

/// The cookie's name.
pub(crate) const COOKIE: &str = "accord-console-page";

/// The most page sessions remembered; past it the oldest is forgotten (its page must be
/// reloaded to confirm again).
const MAX_PAGES: usize = 256;

/// The secrets of the pages loaded, oldest first.
#[derive(Default)]
pub(crate) struct Pages {
    secrets: VecDeque<String>,
}

impl Pages {
    /// A new page's secret; `None` without the OS's randomness.
    pub(crate) fn open(&mut self) -> Option<String> {
        let secret = crate::confirm::new_token()?;
        if self.secrets.len() >= MAX_PAGES {
            self.secrets.pop_front();
        }
        self.secrets.push_back(secret.clone());
        Some(secret)
    }

    /// Whether `secret` is a loaded page's.
    pub(crate) fn knows(&self, secret: &str) -> bool {
        self.secrets.iter().any(|s| s == secret)
    }
}

/// The `Set-Cookie` value that gives a page its secret.
pub(crate) fn set_cookie(secret: &str) -> String {
    format!("{COOKIE}={secret}; Path=/console; HttpOnly; SameSite=Strict")
}

/// The page secret a request carries, if any.
pub(crate) fn of(headers: &HeaderMap) -> Option<&str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE)
        .map(|(_, value)| value)
        .filter(|v| !v.is_empty())
}
