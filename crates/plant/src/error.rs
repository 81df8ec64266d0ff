//! The crate's one error: why a plant could not start.

/// Why a [`crate::Plant`] could not be made from its contract.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    // A cause is printed in its message, so it is not also a `source` (a reporter walking the
    // chain would print it twice): hence no field named `source`.
    /// The embedded contract does not read as a contract document.
    #[error("the contract `{name}` does not parse: {error}")]
    Contract {
        /// The name the contract was embedded under (its file name).
        name: String,
        /// The model's refusal, with its pointer and position.
        error: accord_schema_model::Error,
    },
    /// The contract reads but its types do not compile (a dangling ref, a bad pattern).
    #[error("the contract `{name}` does not compile: {error}")]
    Compile {
        /// The contract's name.
        name: String,
        /// accord-validate's refusal.
        error: accord_validate::Error,
    },
    /// The contract's `wire` section does not resolve into a dialect.
    #[error("the contract `{name}` has a wire that does not resolve: {error}")]
    Wire {
        /// The contract's name.
        name: String,
        /// The model's refusal of the section.
        error: accord_schema_model::Error,
    },
    /// A namespace named `rpc`, whose methods would be the protocol's own (docs/wire.md §2).
    #[error("the contract `{name}` has a namespace `rpc`, which the wire reserves for itself")]
    ReservedNamespace {
        /// The contract's name.
        name: String,
    },
    /// A static token no `Authorization: Bearer` header can carry.
    #[error("the plant's token cannot be used: {reason}")]
    Token {
        /// accord-wire's reason.
        reason: String,
    },
    /// A metrics path that is not a path, or is the JSON-RPC path `/` itself.
    #[error("the metrics path `{path}` must start with `/` and must not be `/`, the JSON-RPC path")]
    MetricsPath {
        /// The path configured.
        path: String,
    },
}
