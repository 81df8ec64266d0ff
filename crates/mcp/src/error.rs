//! The crate's one error: why `accord mcp` cannot start or serve.

/// Why `accord mcp` cannot start or serve.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The contract's `wire` does not resolve.
    #[error("the contract's wire: {0}")]
    Wire(String),
    /// The contract does not compile into validators.
    #[error("the contract cannot be compiled: {0}")]
    Compile(String),
    /// A method's params or result cannot be exported as JSON Schema.
    #[error("JSON Schema export: {0}")]
    Schema(String),
    /// `--allow` names something that is neither a class nor a method of the contract.
    #[error("--allow: `{0}` is neither `destructive`, `undeclared` nor a method of the contract")]
    Allow(String),
    /// The built-in fake could not start.
    #[error("the fake plant: {0}")]
    Fake(String),
    /// The upstream plant's URL cannot be used.
    #[error("--upstream: {0}")]
    Upstream(String),
    /// The MCP session failed (stdio closed before initialising, a protocol failure).
    #[error("MCP: {0}")]
    Mcp(String),
    /// The HTTP listener could not be bound or failed.
    #[error("--http {addr}: {reason}")]
    Http {
        /// The address asked for.
        addr: String,
        /// Why.
        reason: String,
    },
}
