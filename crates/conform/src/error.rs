//! The crate's one error type: what stops a run before or outside the checks. A plant that
//! answers wrongly is never an `Err`: that is a failed check in the [`Report`](crate::Report).

/// What stops a conformance run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The plant could not be reached at all (refused, unreachable, timed out on connect).
    #[error("cannot connect to {url}: {reason}")]
    Connect {
        /// The URL as given.
        url: String,
        /// What the transport said.
        reason: String,
    },
    /// The URL is not an `http://` or `ws://` URL.
    #[error("`{url}` is not a plant URL: {reason}")]
    Url {
        /// The URL as given.
        url: String,
        /// Why it was refused.
        reason: String,
    },
    /// The contract does not compile into validators (a dangling ref, a bad pattern).
    // The cause is printed in the message, so it is not also a `source` (a reporter walking
    // the chain would print it twice).
    #[error("the contract cannot be checked against: {0}")]
    Contract(accord_validate::Error),
    /// The contract's `wire` section cannot be resolved (docs/format.md §15): the plant's
    /// names or codes are unknown, so nothing can be sent.
    #[error("the contract's wire cannot be spoken: {0}")]
    Wire(accord_schema_model::Error),
    /// A transcript line that is not a note (`//`), a request (`>>`) or an answer (`<<`).
    #[error("transcript line {line}: {reason}")]
    Transcript {
        /// 1-based line number.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// A `--allow` entry that is neither a semantics class nor a method of the contract.
    #[error("`--allow {entry}`: {reason}")]
    Allow {
        /// The entry as given.
        entry: String,
        /// Why it was refused.
        reason: String,
    },
}

impl From<accord_validate::Error> for Error {
    fn from(err: accord_validate::Error) -> Error {
        Error::Contract(err)
    }
}
