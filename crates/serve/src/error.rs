//! The crate's one error type: why a plant could not be stood up.

/// A plant that cannot start: the contract, the scenario file or the port refused it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The contract's types do not compile into validators.
    // The cause is printed in the message, so it is not also a `source` (a reporter walking
    // the chain would print it twice).
    #[error("the contract cannot be served: {0}")]
    Compile(accord_validate::Error),
    /// The contract has a namespace called `rpc`, whose methods would collide with the
    /// protocol's own (docs/wire.md §2).
    #[error(
        "the contract has a namespace called `rpc`; JSON-RPC reserves `rpc.` names for the protocol (rpc.describe, rpc.fake, ...), so its methods could never be called: rename the namespace"
    )]
    ReservedNamespace,
    /// The contract's `wire` section does not resolve (docs/format.md §15): the model's error
    /// names the member's JSON Pointer and the reason.
    #[error("{0}")]
    Wire(accord_schema_model::Error),
    /// A contract method is called `rpc.fake` on the wire, the name of accord serve's own
    /// steering method (docs/wire.md §11.1).
    #[error(
        "`{method}` is called `rpc.fake` on the wire, which is accord serve's steering method: give it another wire name"
    )]
    FakeName {
        /// The method, `namespace.method`.
        method: String,
    },
    /// The scenario file is not valid, at `line`:`column`.
    #[error("{file}:{line}:{column}: {reason}")]
    Scenario {
        /// The file as named on the command line.
        file: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong there.
        reason: String,
    },
    /// The credential is unusable (an empty token).
    #[error("the token is empty; a plant with credentials needs a non-empty token")]
    EmptyToken,
    /// No `Authorization: Bearer` header could carry the token as it is (a line break, a byte
    /// past ASCII, over 4 KiB ...): every caller would be refused.
    #[error(
        "{reason}; a plant with credentials needs a token that an Authorization header can carry"
    )]
    UnusableToken {
        /// What is wrong with the token, from accord-wire's check.
        reason: String,
    },
    /// The answer engine refused the contract for a reason not listed above.
    #[error("{0}")]
    Engine(accord_plant::Error),
    /// The address could not be bound.
    // The cause is printed in the message, so it is not also a `source` (a reporter walking
    // the chain would print it twice): hence not a field named `source`.
    #[error("cannot listen on {addr}: {error}")]
    Bind {
        /// The address asked for.
        addr: std::net::SocketAddr,
        /// Why the OS refused it.
        error: std::io::Error,
    },
}

impl Error {
    /// The answer engine's refusal of the contract, in serve's words.
    pub(crate) fn from_engine(error: accord_plant::Error) -> Error {
        match error {
            accord_plant::Error::ReservedNamespace { .. } => Error::ReservedNamespace,
            accord_plant::Error::Wire { error, .. } => Error::Wire(error),
            accord_plant::Error::Compile { error, .. } => Error::Compile(error),
            other => Error::Engine(other),
        }
    }
}

impl From<accord_validate::Error> for Error {
    fn from(err: accord_validate::Error) -> Error {
        Error::Compile(err)
    }
}
