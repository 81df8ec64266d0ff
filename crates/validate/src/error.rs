//! The crate's one error type: why a contract's types could not be compiled into validators.

use accord_schema_model::Pointer;

/// A contract whose types cannot be compiled. Every variant names the place in the contract
/// (a JSON Pointer into the document) so that callers can point into the file.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A `ref` to a type its namespace does not define.
    #[error("{at}: refers to type `{name}`, which namespace `{namespace}` does not define")]
    DanglingRef {
        /// The ref node.
        at: Pointer,
        /// The namespace searched.
        namespace: String,
        /// The type named.
        name: String,
    },
    /// A `pattern` the regex crate cannot compile.
    #[error("{at}: pattern `{pattern}` does not compile: {reason}")]
    BadPattern {
        /// The pattern member.
        at: Pointer,
        /// The pattern as written.
        pattern: String,
        /// The regex crate's explanation.
        reason: String,
    },
    /// Named types that refer to themselves through refs and unions alone: checking a value
    /// against them would never consume any of it.
    #[error(
        "{at}: type `{name}` refers back to itself through refs and union arms alone, so no value can be checked against it"
    )]
    RefCycle {
        /// The named type.
        at: Pointer,
        /// Its name.
        name: String,
    },
    /// A union `discriminator` that does not pick arms.
    #[error("{at}: discriminator `{member}`: {reason}")]
    BadDiscriminator {
        /// The union node.
        at: Pointer,
        /// The discriminator member.
        member: String,
        /// What is wrong.
        reason: String,
    },
    /// No value of a type could be generated: its rules leave no value (a `pattern` no string
    /// within `maxLength` matches, bounds no number lies between, more distinct items than the
    /// item type has), or it has no finite value (an object that requires itself), or it needs
    /// more nesting than the validator's depth limit allows.
    #[error("cannot generate a value{}: {reason}", at_pointer(pointer))]
    Generate {
        /// Where in the value being generated (a JSON Pointer; `""` for the whole value).
        pointer: String,
        /// Why no value was found.
        reason: String,
    },
    /// A value of the type would pass the generator's [`Budget`](crate::Budget): its least
    /// value already does, or the value being made grew past it. Nothing past the budget is
    /// ever allocated.
    #[error("cannot generate a value{}: {reason}", at_pointer(pointer))]
    Budget {
        /// Where in the value being generated the budget ran out (`""` when the whole value's
        /// least size passes it).
        pointer: String,
        /// Which bound was passed.
        limit: crate::BudgetLimit,
        /// That bound's configured maximum.
        max: u64,
        /// What passed it, in a sentence.
        reason: String,
    },
    /// No such method, event or type.
    #[error("the contract has no {what} `{namespace}.{name}`")]
    NotFound {
        /// "method", "event" or "type".
        what: &'static str,
        /// The namespace.
        namespace: String,
        /// The name.
        name: String,
    },
}

fn at_pointer(pointer: &str) -> String {
    if pointer.is_empty() { String::new() } else { format!(" at {pointer}") }
}
