//! The crate's one error type: what stops an import or an export. Constructs the contract cannot
//! hold exactly are not errors but [`Loss`](crate::Loss)es in the report.

/// Why an import or export could not produce a document.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The source is not the shape the import needs (not an object, no `methods`, a method
    /// without a name …).
    #[error("{what} (at {pointer})")]
    Source {
        /// What is wrong.
        what: String,
        /// The JSON Pointer of the place in the source.
        pointer: String,
    },
    /// A `$ref` the import cannot follow: not a local JSON Pointer, or pointing at nothing.
    #[error("`$ref` {reference} cannot be followed: {why} (at {pointer})")]
    Reference {
        /// The reference as written.
        reference: String,
        /// Why it cannot be followed.
        why: String,
        /// The JSON Pointer of the `$ref` in the source.
        pointer: String,
    },
    /// The options are not usable (an unknown semantics value, a bad glob, a bad accord.toml).
    #[error("{0}")]
    Options(String),
    /// The contract the import built is refused by the model's reader: a bug in the import,
    /// reported rather than written.
    // The cause is printed in the message, so it is not also a `source` (a reporter walking
    // the chain would print it twice): hence `From` by hand, not `#[from]`.
    #[error("the imported contract does not read: {0}")]
    Model(accord_schema_model::Error),
    /// The contract to export cannot be written as OpenRPC (a dangling ref, a wire that does
    /// not resolve).
    #[error("{0}")]
    Export(String),
}

impl Error {
    pub(crate) fn at(what: impl Into<String>, pointer: &str) -> Error {
        Error::Source { what: what.into(), pointer: display_pointer(pointer) }
    }
}

/// A pointer as printed: the root as `(root)`, as accord prints pointers everywhere.
pub(crate) fn display_pointer(pointer: &str) -> String {
    if pointer.is_empty() { "(root)".to_owned() } else { pointer.to_owned() }
}

impl From<accord_schema_model::Error> for Error {
    fn from(err: accord_schema_model::Error) -> Error {
        Error::Model(err)
    }
}
