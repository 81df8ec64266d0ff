//! The crate's one error type: what stops an extraction before it starts (configuration and the
//! crate's files). Problems in the Rust source itself are diagnostics, not errors.

/// Why an extraction could not run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// `accord.toml` is not valid TOML or has a member of the wrong type.
    #[error("{file}: {message}")]
    Config {
        /// The configuration file.
        file: String,
        /// What is wrong, with its line and column when TOML names them.
        message: String,
    },
    /// The crate has neither `src/lib.rs` nor `src/main.rs`.
    #[error("{dir}: no src/lib.rs or src/main.rs: not a crate directory")]
    NoCrateRoot {
        /// The directory given.
        dir: String,
    },
    /// The source directory does not exist (or is not a directory).
    #[error("{dir}: no such directory")]
    NoDirectory {
        /// The directory given.
        dir: String,
    },
    /// The source is past one of extract's bounds on hostile input (docs/extract.md, "Bounds"):
    /// nesting deeper than `MAX_NESTING`, a module that contains itself, more than
    /// `MAX_SOURCE_BYTES` of source. Nothing is extracted.
    #[error("{at}: {code}: {message}")]
    Limit {
        /// Where: file:line:column.
        at: String,
        /// One of `LIMIT_CODES`.
        code: &'static str,
        /// What was refused.
        message: String,
    },
    /// A file of the crate could not be read.
    // The cause is printed in the message, so it is not also a `source` (a reporter walking
    // the chain would print it twice): hence not a field named `source`.
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        error: std::io::Error,
    },
}
