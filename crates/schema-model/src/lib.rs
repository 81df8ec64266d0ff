#![doc = include_str!("../README.md")]

pub mod dialect;
mod document;
mod error;
pub mod inhabited;
mod json;
mod layout;
mod link;
pub mod members;
mod node;
mod pointer;
mod read;
mod refinement;
mod refs;
mod severity;
mod source;
mod type_node;
mod version;
mod wire;
mod write;

pub use crate::{
    dialect::{
        Dialect, EventRoute, MethodRoute, Profile, ProtocolCodes, PubsubRoute, split_wire_name,
    },
    document::{
        Component, Deprecated, Document, ErrorDecl, Event, Field, Method, MethodExample, Namespace,
        Param, ParamStructure, Reserved, Semantics, SemanticsClass, Unknown,
    },
    error::{Error, ErrorKind},
    json::{DuplicateKey, StrictJson, StrictValue},
    link::{
        Cause, ExprSource, Link, LinkParamError, LinkValue, RuntimeExpr, path_index, path_step,
    },
    pointer::Pointer,
    refinement::{
        ArrayType, EnumType, MapType, NumberRules, ObjectType, RefType, Refinement, StringRules,
        TupleType, UnionType,
    },
    refs::Resolved,
    severity::Severity,
    source::{Located, Position, SourceMap, Span},
    type_node::{Kind, TypeKind, TypeNode},
    version::{READABLE_SCHEMAS, SCHEMA_VERSION, is_newer_than_readable, reads_schema},
    wire::{DescribeMethod, EventWire, Pubsub, Wire, WireCodes},
};

/// Reads `text` as one JSON value under the reader's JSON rules (docs/format.md §2): duplicate
/// keys, integer literals past 64 bits and nesting past [`DEPTH_LIMIT`] are refused, with the
/// place. For files that travel beside contracts (serve's scenarios, check's accept files), so
/// that none of them loses a value to a duplicate key the way a plain JSON parser would.
///
/// # Errors
///
/// The JSON errors of [`Document::parse`], with pointer, span and position.
pub fn parse_json(text: &str) -> Result<serde_json::Value, Error> {
    json::parse_value(text)
}

/// The nesting limit of the reader: JSON deeper than this is refused with [`ErrorKind::TooDeep`].
pub const DEPTH_LIMIT: usize = json::DEPTH_LIMIT;

impl Document {
    /// Reads a document from text.
    ///
    /// # Errors
    ///
    /// Malformed JSON, duplicate keys, nesting past [`DEPTH_LIMIT`], a missing, non-integer or
    /// unread `schema` number, an unknown type kind, and any member of the wrong JSON type are
    /// refused with an [`Error`] carrying the pointer, span and position.
    pub fn parse(text: &str) -> Result<Document, Error> {
        Document::parse_all(text).map_err(first)
    }

    /// Reads a document from text, giving every structural error the reader finds in one pass
    /// (in document order), not only the first: each entry of a map or array and each member of
    /// a record is read even when a neighbour was refused. JSON errors (syntax, duplicates,
    /// depth) and a refused `schema` number stop the reading, so they come alone.
    ///
    /// # Errors
    ///
    /// Those of [`Document::parse`], all of them; the vector is never empty.
    pub fn parse_all(text: &str) -> Result<Document, Vec<Error>> {
        let tree = json::parse_tree(text).map_err(|err| vec![err])?;
        read::document(tree).map_err(|refused| {
            let mut errors: Vec<Error> =
                refused.0.into_iter().map(|err| locate(text, err)).collect();
            // The reader visits a record's members in its own order; people read the file top
            // to bottom (a stable sort keeps the reader's order among errors at one place).
            errors.sort_by_key(|err| err.span.map_or(0, |span| span.start));
            errors
        })
    }

    /// Reads a document from bytes, which must be UTF-8.
    ///
    /// # Errors
    ///
    /// As [`Document::parse`], and [`ErrorKind::InvalidUtf8`] at the first byte that is not UTF-8.
    pub fn parse_bytes(bytes: &[u8]) -> Result<Document, Error> {
        Document::parse_bytes_all(bytes).map_err(first)
    }

    /// Reads a document from bytes, giving every structural error as [`Document::parse_all`]
    /// does.
    ///
    /// # Errors
    ///
    /// Those of [`Document::parse_bytes`], all of them; the vector is never empty.
    pub fn parse_bytes_all(bytes: &[u8]) -> Result<Document, Vec<Error>> {
        match std::str::from_utf8(bytes) {
            Ok(text) => Document::parse_all(text),
            Err(err) => {
                let valid = &bytes[..err.valid_up_to()];
                // The valid prefix is UTF-8 by definition, so positions can be counted in it.
                let prefix = std::str::from_utf8(valid).unwrap_or_default();
                let map = SourceMap::new(prefix);
                let at = err.valid_up_to();
                Err(vec![Error {
                    kind: Box::new(ErrorKind::InvalidUtf8),
                    pointer: map.pointer_at(at).0,
                    span: Some(Span { start: at, end: at + err.error_len().unwrap_or(1) }),
                    position: Some(map.position(at)),
                }])
            }
        }
    }

    /// Reads a document from an already parsed JSON value. Errors carry a pointer but no
    /// position, since there is no text.
    ///
    /// # Errors
    ///
    /// As [`Document::parse`], except those only text can have (syntax, duplicates); nesting
    /// past [`DEPTH_LIMIT`] is refused here too.
    pub fn from_value(value: serde_json::Value) -> Result<Document, Error> {
        read_value(value, read::document)
    }

    /// The document as canonical JSON: documented member order, unknown members after the
    /// known ones of their record, in the order they were read.
    pub fn to_value(&self) -> serde_json::Value {
        write::document(self)
    }

    /// The document as compact JSON: the bytes of `serde_json::to_vec(&doc.to_value())`,
    /// written one method, event and type at a time, so that a giant contract (a describe
    /// answer of a million methods) is never held as a `Value` tree beside its text.
    pub fn to_compact_json(&self) -> Vec<u8> {
        let mut out = Vec::new();
        write::document_compact(self, &mut out);
        out
    }

    /// The place where the document, as written, nests deeper than [`DEPTH_LIMIT`] (which every
    /// reader refuses, docs/format.md §2.5), or `None`: for a writer that must not write what
    /// cannot be read back. The same test the readers make first, without reading the rest.
    pub fn too_deep_to_read(&self) -> Option<Pointer> {
        json::too_deep(&self.to_value())
    }

    /// The document as canonical text: [`Document::to_value`] laid out by docs/format.md
    /// §12.2 (2-space indentation, arrays and objects on one line when it is at most 100
    /// characters wide) with a trailing newline.
    pub fn to_canonical_string(&self) -> String {
        layout::to_text(&self.to_value())
    }
}

/// Reads a parsed JSON value with one of the reader's rules (a document, a type node, a
/// field): nesting past [`DEPTH_LIMIT`] refused first, then the first refusal, with its pointer
/// and no position (there is no text).
fn read_value<T>(
    value: serde_json::Value,
    rule: fn(node::Node) -> Result<T, read::Refused>,
) -> Result<T, Error> {
    if let Some(pointer) = json::too_deep(&value) {
        let kind = Box::new(ErrorKind::TooDeep { limit: DEPTH_LIMIT });
        return Err(Error { kind, pointer, span: None, position: None });
    }
    rule(node::Node::from_value(value)).map_err(|refused| {
        first(
            refused
                .0
                .into_iter()
                .map(|err| Error {
                    kind: Box::new(err.kind),
                    pointer: err.pointer,
                    span: None,
                    position: None,
                })
                .collect(),
        )
    })
}

impl TypeNode {
    /// Reads one type node from JSON by the reader's rules (format.md §7), as
    /// [`Document::from_value`] reads the nodes of a document: for a tool that builds a node from
    /// JSON it did not write (an import's lossless members). Pointers are relative to the node.
    ///
    /// # Errors
    ///
    /// What [`Document::from_value`] refuses in a type node.
    pub fn from_value(value: serde_json::Value) -> Result<TypeNode, Error> {
        read_value(value, read::lone_type_node)
    }

    /// The node as canonical JSON.
    pub fn to_value(&self) -> serde_json::Value {
        write::type_node(self)
    }
}

impl Field {
    /// Reads one field (or param, without its `name`) from JSON by the reader's rules, as
    /// [`TypeNode::from_value`] reads a node.
    ///
    /// # Errors
    ///
    /// What [`Document::from_value`] refuses in a field.
    pub fn from_value(value: serde_json::Value) -> Result<Field, Error> {
        read_value(value, read::lone_field)
    }

    /// The field as canonical JSON (as a document writes an object's field).
    pub fn to_value(&self) -> serde_json::Value {
        write::field(self)
    }
}

/// The first of a reading's errors, for the readers that give one. The reader never refuses
/// without an error; an empty list is still answered with one rather than a panic.
fn first(errors: Vec<Error>) -> Error {
    errors.into_iter().next().unwrap_or_else(|| Error {
        kind: Box::new(ErrorKind::InvalidValue {
            what: "the document".to_owned(),
            reason: "refused without a reason: a bug in accord's reader, please report it"
                .to_owned(),
        }),
        pointer: Pointer::root(),
        span: None,
        position: None,
    })
}

fn locate(text: &str, err: read::Unlocated) -> Error {
    let map = SourceMap::new(text);
    // A missing member is about its record, which its key names best; every other error is
    // about the value that is wrong.
    let about_record =
        matches!(err.kind, ErrorKind::MissingField { .. } | ErrorKind::MissingSchema { .. });
    let span = map
        .locate(&err.pointer)
        .map_or(Span { start: 0, end: 0 }, |l| if about_record { l.label() } else { l.value });
    Error {
        kind: Box::new(err.kind),
        pointer: err.pointer,
        span: Some(span),
        position: Some(map.position(span.start)),
    }
}
