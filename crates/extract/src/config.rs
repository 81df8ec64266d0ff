//! `accord.toml`: what extract cannot read from the source. Every member is optional.
//!
//! ```toml
//! [extract]
//! source = "."                      # the crate directory, relative to this file
//! contract = "plant.types.json"     # where `accord extract` writes and `check --source` reads
//! name = "riverside-pumping-station"
//! description = "…"
//! wire = "source"                   # record the wire jsonrpsee serves (default), or "accord"
//!
//! [namespaces.pump]
//! version = "2.3.0"
//! semantics = { status = "read", start = "write" }
//!
//! [types."chrono::DateTime"]        # a type node, overriding the built-in table
//! kind = "string"
//! format = "date-time"
//! ```

use std::collections::HashMap;

use accord_schema_model::{Document, TypeNode};
use indexmap::IndexMap;
use serde_json::{Value, json};

use crate::Error;

/// The configuration of one extraction.
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// The crate directory, relative to the configuration file.
    pub source: Option<String>,
    /// The contract file, relative to the configuration file.
    pub contract: Option<String>,
    /// The document's `name`.
    pub name: Option<String>,
    /// The document's `description` (else the crate's `//!` doc).
    pub description: Option<String>,
    /// Which wire the contract describes: the one the source serves, or accord's own.
    pub wire: WireFrom,
    /// Per namespace: its version and method semantics.
    pub namespaces: IndexMap<String, NamespaceConfig>,
    /// Type nodes by Rust path (`chrono::DateTime`, `crate::wire::Raw`), overriding the
    /// built-in table and the derived shape.
    pub types: HashMap<String, TypeNode>,
}

/// `extract.wire`: which wire a jsonrpsee plant's contract describes (docs/extract.md).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum WireFrom {
    /// The wire the source serves (`"source"`, the default): a jsonrpsee trait's separator and
    /// its per-subscription method names are recorded in the contract's `wire` sections, with
    /// jsonrpsee's codes and no describe method, so that conform calls the plant as it answers.
    #[default]
    Source,
    /// accord's own wire (`"accord"`): no `wire` section is written, the contract says how
    /// `accord serve` speaks for the plant (`namespace.method`, `rpc.subscribe`), and a
    /// separator other than `.` is warned about.
    Accord,
}

/// `[namespaces.NAME]`.
#[derive(Debug, Clone, Default)]
pub struct NamespaceConfig {
    /// The contract version.
    pub version: Option<String>,
    /// Method name to semantics.
    pub semantics: HashMap<String, String>,
}

impl Config {
    /// Reads `accord.toml` text; `file` names it in errors.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] for TOML that does not parse, a member of the wrong type or a type
    /// override that is not a type node.
    pub fn parse(text: &str, file: &str) -> Result<Config, Error> {
        let bad = |message: String| Error::Config { file: file.to_owned(), message };
        let table: toml::Table = text.parse().map_err(|e: toml::de::Error| bad(e.to_string()))?;
        let value = toml_to_json(toml::Value::Table(table));
        let mut config = Config::default();
        let str_at = |v: &Value, key: &str, what: &str| -> Result<Option<String>, Error> {
            match v.get(key) {
                None => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.clone())),
                Some(_) => Err(bad(format!("`{what}.{key}` must be a string"))),
            }
        };
        for key in value.as_object().into_iter().flat_map(|o| o.keys()) {
            // `[import]` is accord import's (crates/import): read there, not here.
            if !matches!(key.as_str(), "extract" | "namespaces" | "types" | "import") {
                return Err(bad(format!(
                    "unknown section `{key}` (accord.toml has [extract], [namespaces.NAME], [types.\"PATH\"] and [import])"
                )));
            }
        }
        if let Some(ex) = value.get("extract") {
            config.source = str_at(ex, "source", "extract")?;
            config.contract = str_at(ex, "contract", "extract")?;
            config.name = str_at(ex, "name", "extract")?;
            config.description = str_at(ex, "description", "extract")?;
            config.wire = match str_at(ex, "wire", "extract")?.as_deref() {
                None | Some("source") => WireFrom::Source,
                Some("accord") => WireFrom::Accord,
                Some(other) => {
                    return Err(bad(format!(
                        "`extract.wire` is `{other}`: use \"source\" (the wire the code serves) or \"accord\" (accord's own)"
                    )));
                }
            };
        }
        if let Some(Value::Object(nss)) = value.get("namespaces") {
            for (name, ns) in nss {
                let what = format!("namespaces.{name}");
                let mut nc = NamespaceConfig {
                    version: str_at(ns, "version", &what)?,
                    ..Default::default()
                };
                if let Some(sem) = ns.get("semantics") {
                    let Value::Object(sem) = sem else {
                        return Err(bad(format!(
                            "`{what}.semantics` must be a table of method = semantics"
                        )));
                    };
                    for (m, s) in sem {
                        let Value::String(s) = s else {
                            return Err(bad(format!("`{what}.semantics.{m}` must be a string")));
                        };
                        nc.semantics.insert(m.clone(), s.clone());
                    }
                }
                config.namespaces.insert(name.clone(), nc);
            }
        }
        if let Some(Value::Object(types)) = value.get("types") {
            for (path, node) in types {
                let node = type_node_from_value(node.clone())
                    .map_err(|e| bad(format!("`types.\"{path}\"` is not a type node: {e}")))?;
                config.types.insert(path.clone(), node);
            }
        }
        Ok(config)
    }
}

/// A type node from its JSON form, read by the model's reader (wrapped in a document).
pub(crate) fn type_node_from_value(node: Value) -> Result<TypeNode, String> {
    let doc = json!({"schema": accord_schema_model::SCHEMA_VERSION, "namespaces": {"t": {"version": "0.0.0", "types": {"T": node}}}});
    let mut doc = Document::from_value(doc).map_err(|e| e.to_string())?;
    let mut ns =
        doc.namespaces.take().and_then(|mut n| n.shift_remove("t")).ok_or("no namespace")?;
    ns.types.take().and_then(|mut t| t.shift_remove("T")).ok_or_else(|| "no type".into())
}

fn toml_to_json(v: toml::Value) -> Value {
    match v {
        toml::Value::String(s) => Value::String(s),
        toml::Value::Integer(i) => Value::from(i),
        toml::Value::Float(f) => serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number),
        toml::Value::Boolean(b) => Value::Bool(b),
        toml::Value::Datetime(d) => Value::String(d.to_string()),
        toml::Value::Array(a) => Value::Array(a.into_iter().map(toml_to_json).collect()),
        toml::Value::Table(t) => {
            Value::Object(t.into_iter().map(|(k, v)| (k, toml_to_json(v))).collect())
        }
    }
}
