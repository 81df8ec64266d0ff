//! How a plant is configured: its limits, its credential check and what a broken answer does.

use crate::credential::Credential;

/// The limits of docs/wire.md §9 a plant enforces itself. Connections and the memory of all
/// bodies together are the transport's (jsonrpsee's `max_connections`, a tower limit in front
/// of axum), not this layer's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// The largest HTTP body or WebSocket message, in bytes (`body-bytes`).
    pub body_bytes: usize,
    /// The deepest JSON nesting (`depth`); at most 128, the parser's own limit.
    pub depth: usize,
    /// The most requests in one batch (`batch-length`).
    pub batch_length: usize,
    /// The most subscriptions on one WebSocket (`subscriptions`).
    pub subscriptions: usize,
    /// The largest answer to one message, in bytes (`answer-bytes`).
    pub answer_bytes: usize,
}

impl Default for Limits {
    /// `accord serve`'s defaults.
    fn default() -> Limits {
        use accord_wire::limits as wire;
        Limits {
            body_bytes: wire::DEFAULT_BODY_BYTES,
            depth: wire::DEFAULT_DEPTH,
            batch_length: wire::DEFAULT_BATCH_LENGTH,
            subscriptions: wire::DEFAULT_SUBSCRIPTIONS,
            answer_bytes: wire::DEFAULT_ANSWER_BYTES,
        }
    }
}

impl Limits {
    /// The configured maximum of the limit named `name` (accord-wire's names).
    pub fn max_of(&self, name: &str) -> u64 {
        use accord_wire::limits::{ANSWER_BYTES, BATCH_LENGTH, BODY_BYTES, DEPTH, SUBSCRIPTIONS};
        let max = match name {
            BODY_BYTES => self.body_bytes,
            DEPTH => self.depth,
            BATCH_LENGTH => self.batch_length,
            SUBSCRIPTIONS => self.subscriptions,
            ANSWER_BYTES => self.answer_bytes,
            _ => 0,
        };
        max as u64
    }
}

/// What a plant's answer that breaks its own contract (a result that does not validate, an
/// error the method does not declare, declared error data that does not validate) turns into.
/// Either way it is counted ([`crate::Plant::violations`]) and logged: never a silent pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnViolation {
    /// The caller gets `-32603` naming what was broken instead of the answer: in a test, an
    /// error the test sees. The default of debug builds.
    Fail,
    /// The answer is sent as the handler made it, with a logged warning. The default of
    /// release builds, where a contract bug should not take a working call down.
    Warn,
}

impl Default for OnViolation {
    fn default() -> OnViolation {
        if cfg!(debug_assertions) { OnViolation::Fail } else { OnViolation::Warn }
    }
}

/// A plant's configuration.
#[derive(Clone, Default)]
#[non_exhaustive]
pub struct Config {
    /// The limits of docs/wire.md §9.
    pub limits: Limits,
    /// Who may call (docs/wire.md §8); [`Credential::None`] answers everyone in full.
    pub credential: Credential,
    /// What an answer that breaks the contract becomes.
    pub on_violation: OnViolation,
    /// Usage counting (docs/usage.md): `None`, off (the default); a path such as `/metrics`,
    /// on, with the counters answered as OpenMetrics text on `GET` of that path of the plant's
    /// HTTP server. Never `/`, the JSON-RPC path.
    pub metrics_path: Option<String>,
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("limits", &self.limits)
            .field("credential", &self.credential)
            .field("on_violation", &self.on_violation)
            .field("metrics_path", &self.metrics_path)
            .finish()
    }
}
