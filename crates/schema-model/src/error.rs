//! The crate's one error type: why a text is not a schema-1 document, and where.

use std::fmt;

use crate::{Pointer, Position, Span};

/// A document that could not be read: what is wrong, the JSON Pointer of the value, and its
/// place in the text.
///
/// Every error names a place: `pointer` is the value's JSON Pointer (for a syntax error, the
/// innermost value being read when the text stopped making sense), `span` the bytes to point
/// at, `position` the line and column of `span.start`. Errors from [`Document::parse`](crate::Document::parse)
/// always carry `span` and `position`.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{kind} (at {pointer}{})", match position { Some(p) => format!(", line {}, column {}", p.line, p.column), None => String::new() })]
pub struct Error {
    /// What is wrong.
    pub kind: Box<ErrorKind>,
    /// The JSON Pointer of the value the error is about.
    pub pointer: Pointer,
    /// The bytes of the text the error is about (a key, a token, or a point); absent only when
    /// the document was read from an already parsed value, which has no text.
    pub span: Option<Span>,
    /// Line and column of `span.start`, with the same absence.
    pub position: Option<Position>,
}

/// What is wrong with a document.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The bytes are not UTF-8; JSON text is.
    #[error("the document is not valid UTF-8")]
    InvalidUtf8,
    /// The text is not JSON.
    #[error("malformed JSON: {message}")]
    Syntax {
        /// The JSON parser's description.
        message: String,
    },
    /// The text is empty, or only white space.
    #[error("the document is empty")]
    Empty,
    /// The text ends inside a value.
    #[error("the document ends in the middle of a JSON value (is it truncated?)")]
    Truncated,
    /// Nesting deeper than the reader's limit.
    #[error("JSON nested deeper than {limit} levels; accord refuses it rather than risk its stack")]
    TooDeep {
        /// The nesting limit.
        limit: usize,
    },
    /// An integer literal outside the 64-bit range, which cannot be kept exactly.
    #[error(
        "the integer {literal} is outside the 64-bit range accord keeps exactly; a rewrite would change it"
    )]
    IntegerOutOfRange {
        /// The literal as written.
        literal: String,
    },
    /// The same key twice in one object.
    #[error(
        "duplicate key `{key}`: a reader would keep one of the two values and silently lose the other"
    )]
    DuplicateKey {
        /// The key.
        key: String,
    },
    /// The document has no `schema` member.
    #[error(
        "the document has no `schema` number; accord never assumes one (this accord reads schema {})",
        list(readable)
    )]
    MissingSchema {
        /// The numbers this build reads.
        readable: &'static [u64],
    },
    /// `schema` is not an integer.
    #[error("`schema` must be an integer such as 1, found {found}")]
    SchemaNotInteger {
        /// The value found, as JSON.
        found: String,
    },
    /// A `schema` number this build does not read.
    #[error("{}", unsupported_schema(found, readable))]
    UnsupportedSchema {
        /// The number the document carries, as written.
        found: String,
        /// The numbers this build reads.
        readable: &'static [u64],
    },
    /// A TypeNode `kind` that schema 1 does not have.
    #[error(
        "unknown type kind `{kind}`{}: schema 1 has exactly the kinds {}; a new kind is a new format, so values of this type cannot be checked by this accord",
        crate::Kind::suggest(kind).map_or(String::new(), |k| format!(" (did you mean `{}`?)", k.name())),
        crate::Kind::ALL.iter().map(|k| k.name()).collect::<Vec<_>>().join(", ")
    )]
    UnknownKind {
        /// The kind as written.
        kind: String,
    },
    /// A value of the wrong JSON type.
    #[error("{what} must be {expected}, found {found}")]
    WrongType {
        /// The member or record the value stands for.
        what: String,
        /// The JSON type the format requires.
        expected: &'static str,
        /// The JSON type found.
        found: &'static str,
    },
    /// A required member is absent.
    #[error("{record} has no `{field}`, which it requires")]
    MissingField {
        /// The record (e.g. "method `start`").
        record: String,
        /// The member name.
        field: &'static str,
    },
    /// A value of the right JSON type that the format does not allow.
    #[error("{what}: {reason}")]
    InvalidValue {
        /// The member the value stands for.
        what: String,
        /// Why it is refused.
        reason: String,
    },
    /// A link param's value that starts with `$` but is not a runtime expression this build
    /// reads (docs/format.md §5.11): not refused by the reader, which keeps link params as
    /// written, but by the tools that follow links.
    #[error("`{expression}` is not a runtime expression: {reason}")]
    Expression {
        /// The text as written.
        expression: String,
        /// Why.
        reason: String,
    },
    /// A `wire` section that reads but cannot be resolved into a dialect (an unknown
    /// separator or profile, a wire name for a method the namespace lacks, two methods with
    /// one wire name): refused by the readers that speak to a plant, never by the reader.
    #[error("the wire cannot be resolved: {reason}")]
    Wire {
        /// Why.
        reason: String,
    },
}

impl ErrorKind {
    /// A stable identifier for the kind of error, for diagnostics codes and scripts.
    pub fn code(&self) -> &'static str {
        match self {
            ErrorKind::InvalidUtf8 => "invalid-utf8",
            ErrorKind::Syntax { .. } => "malformed-json",
            ErrorKind::Empty => "empty",
            ErrorKind::Truncated => "truncated",
            ErrorKind::TooDeep { .. } => "too-deep",
            ErrorKind::DuplicateKey { .. } => "duplicate-key",
            ErrorKind::IntegerOutOfRange { .. } => "integer-out-of-range",

            ErrorKind::MissingSchema { .. } => "schema-missing",
            ErrorKind::SchemaNotInteger { .. } => "schema-not-integer",
            ErrorKind::UnsupportedSchema { .. } => "schema-unsupported",
            ErrorKind::UnknownKind { .. } => "unknown-kind",
            ErrorKind::WrongType { .. } => "wrong-type",
            ErrorKind::MissingField { .. } => "missing-field",
            ErrorKind::InvalidValue { .. } => "invalid-value",
            ErrorKind::Expression { .. } => "expression",
            ErrorKind::Wire { .. } => "wire",
        }
    }
}

fn list(numbers: &[u64]) -> String {
    numbers.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
}

fn unsupported_schema(found: &str, readable: &[u64]) -> String {
    if crate::is_newer_than_readable(found) {
        format!(
            "this document is schema {found}; this accord reads schema {}: upgrade accord",
            list(readable)
        )
    } else {
        format!(
            "this document is schema {found}; this accord reads schema {}, and no accord ever wrote schema {found}",
            list(readable)
        )
    }
}

impl fmt::Display for crate::Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}
