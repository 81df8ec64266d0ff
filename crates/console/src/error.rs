//! The crate's one error: why a console could not be set up or could not reach its plant.

/// Why the console could not be set up, or a forwarded call did not get an answer.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    // A cause is printed in its message, so it is not also a `source` (a reporter walking the
    // chain would print it twice): hence `From` by hand, not `#[from]`.
    /// The contract's `wire` does not resolve.
    #[error("the contract's wire cannot be resolved: {0}")]
    Wire(accord_schema_model::Error),
    /// The contract's types do not compile.
    #[error("the contract does not compile: {0}")]
    Compile(accord_validate::Error),
    /// The plant's URL is not one the console can forward to.
    #[error("`{url}` is not an http:// URL (this build has no TLS)")]
    Url {
        /// The URL as given.
        url: String,
    },
    /// [`crate::Console::set_upstream`] was called twice.
    #[error("the console already has a plant")]
    UpstreamSet,
    /// [`crate::Console::listening_on`] was called twice.
    #[error("the console was already told where it listens")]
    ListenSet,
    /// The plant could not be reached, or its answer could not be read.
    #[error("the plant at {url}: {reason}")]
    Upstream {
        /// The plant's URL.
        url: String,
        /// What went wrong.
        reason: String,
    },
}

impl From<accord_schema_model::Error> for Error {
    fn from(err: accord_schema_model::Error) -> Error {
        Error::Wire(err)
    }
}

impl From<accord_validate::Error> for Error {
    fn from(err: accord_validate::Error) -> Error {
        Error::Compile(err)
    }
}
