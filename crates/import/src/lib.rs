#![doc = include_str!("../README.md")]

mod bundle;
mod cycles;
mod error;
mod export;
mod jsonschema;
mod links;
mod merge;
mod node;
mod openrpc;
mod options;
mod report;
mod schema;

use accord_schema_model::Document;
use serde_json::Value;

pub use crate::{
    error::Error,
    export::{OPENRPC_VERSION, export_openrpc},
    options::{Options, SemanticsOverlap, SemanticsRule},
    report::{Accepts, Loss, Note, Report},
};

/// The JSON Schema dialect a source is read under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Draft {
    /// 2020-12 (and OpenRPC's schemas): keywords beside `$ref` apply.
    Draft2020,
    /// Draft 07: keywords beside `$ref` are ignored.
    Draft07,
}

impl Draft {
    /// The draft a schema's `$schema` names; 2020-12 when it names none or another.
    pub fn of(schema: &Value) -> Draft {
        match schema.get("$schema").and_then(Value::as_str) {
            Some(s)
                if s.contains("draft-07") || s.contains("draft-06") || s.contains("draft-04") =>
            {
                Draft::Draft07
            }
            _ => Draft::Draft2020,
        }
    }
}

/// What an import made: the contract and what it could not carry over exactly.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Import {
    /// The contract, as the model's reader read it.
    pub document: Document,
    /// One loss per construct the contract cannot hold exactly.
    pub report: Report,
}

/// Imports an OpenRPC 1.x document.
///
/// # Errors
///
/// [`Error::Source`] for a document without the shape OpenRPC requires (no `methods`, a method
/// without a name, a name given twice, an error code that is not an integer);
/// [`Error::Reference`] for a reference object that cannot be followed; [`Error::Model`] when
/// the contract built does not read (a bug, reported rather than written).
pub fn import_openrpc(source: &Value, options: &Options) -> Result<Import, Error> {
    openrpc::import(source, options, Vec::new())
}

/// Imports the OpenRPC document `source` read from the file `path`, following `$ref`s into
/// other local files (relative to the file that holds each ref, or to [`Options::ref_base`];
/// outside the document's folder only with [`Options::allow_outside`]; never over the network). A ref that cannot be followed
/// is an `unresolved-ref` loss naming the path tried, never an error.
///
/// # Errors
///
/// As for [`import_openrpc`].
pub fn import_openrpc_file(
    source: &Value,
    path: &std::path::Path,
    options: &Options,
) -> Result<Import, Error> {
    let (bundled, losses) = bundle::bundle(source, path, options);
    openrpc::import(&bundled, options, losses)
}

/// Imports a JSON Schema: its `$defs` (or draft 07's `definitions`) become named types of
/// `namespace`, and the root schema too when `name` is given.
///
/// # Errors
///
/// [`Error::Source`] for a namespace version that is not semver or a source that is not a
/// schema; [`Error::Model`] as for [`import_openrpc`].
pub fn import_json_schema(
    source: &Value,
    namespace: &str,
    version: &str,
    name: Option<&str>,
) -> Result<Import, Error> {
    jsonschema::import(source, namespace, version, name)
}
