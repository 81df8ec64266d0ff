//! The crate's one error type.

/// What went wrong reading a value of the wire.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A member is missing or has the wrong JSON type; `pointer` is its JSON Pointer.
    #[error("{pointer}: {reason}")]
    Shape {
        /// Where, as a JSON Pointer into the value read.
        pointer: String,
        /// What was expected there.
        reason: String,
    },
    /// A contract version that is not semver text.
    #[error("{pointer}: `{text}` is not a version (semver, like 2.1.0): {reason}")]
    Version {
        /// Where, as a JSON Pointer into the value read.
        pointer: String,
        /// The text that was read.
        text: String,
        /// Why semver refused it.
        reason: String,
    },
}

impl Error {
    pub(crate) fn shape(pointer: impl Into<String>, reason: impl Into<String>) -> Error {
        Error::Shape { pointer: pointer.into(), reason: reason.into() }
    }
}
