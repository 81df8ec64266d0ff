//! `accord.toml`: what extract cannot read from the source. Every member is optional.
//!
//! ```toml
//! [extract]
//! source = "."                      # the crate or workspace directory, relative to this file
//!                                   # (or a list: ["plant", "../types"], one contract)
//! contract = "plant.types.json"     # where `accord extract` writes and `check --source` reads
//! name = "riverside-pumping-station"
//! description = "…"
//! wire = "source"                   # record the wire jsonrpsee serves (default), or "accord"
//! strict = false                    # an undescribable type is an error, not `any` + a warning
//!
//! [namespaces.pump]
//! version = "2.3.0"
//! semantics = { status = "read", start = "write" }
//!
//! [types."chrono::DateTime"]        # a type node, overriding the built-in table
//! kind = "string"
//! format = "date-time"
//!
//! [generics.EthApi]                # a generic trait's type parameters, as Rust types
//! T = "alloy_rpc_types::Transaction"
//!
//! [types."alloy_eips::*"]           # a glob: every path under alloy_eips (the longest match wins)
//! kind = "any"
//! ```

use std::collections::HashMap;

use accord_schema_model::{Document, TypeNode};
use indexmap::IndexMap;
use serde_json::{Value, json};

use crate::Error;

/// The configuration of one extraction.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Config {
    /// The crate or workspace directories, relative to the configuration file: `source = "."`
    /// or `source = ["plant", "types"]` (several are one contract); empty when not given.
    pub sources: Vec<String>,
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
    /// An undescribable type (unresolved, opaque to serde) is an error and no contract is
    /// written; without it such a type reads as any value with one warning per type.
    pub strict: bool,
    /// `cargo metadata --offline` when finding the dependencies' sources (`--offline`).
    pub offline: bool,
    /// `[generics.TRAIT]`: a generic trait's type parameters bound to Rust types (as written
    /// in the trait's module): trait name → parameter → type.
    pub generics: HashMap<String, HashMap<String, String>>,
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
#[non_exhaustive]
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
        known_keys(
            &value,
            "",
            SECTIONS,
            "accord.toml has [extract], [namespaces.NAME], [generics.TRAIT], [types.\"PATH\"], [import] and [lint]",
        )
        .map_err(bad)?;
        if let Some(ex) = value.get("extract") {
            known_keys(ex, "extract.", EXTRACT_KEYS, "").map_err(bad)?;
            config.strict = match ex.get("strict") {
                None => false,
                Some(Value::Bool(b)) => *b,
                Some(_) => return Err(bad("`extract.strict` must be true or false".into())),
            };
            config.sources = match ex.get("source") {
                None => Vec::new(),
                Some(Value::String(s)) => vec![s.clone()],
                Some(Value::Array(items)) if !items.is_empty() => items
                    .iter()
                    .map(|i| i.as_str().map(str::to_owned))
                    .collect::<Option<Vec<_>>>()
                    .ok_or_else(|| {
                        bad("`extract.source` must be a directory or a list of directories".into())
                    })?,
                Some(_) => {
                    return Err(bad(
                        "`extract.source` must be a directory or a non-empty list of directories"
                            .into(),
                    ));
                }
            };
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
                known_keys(ns, &format!("{what}."), NAMESPACE_KEYS, "").map_err(bad)?;
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
        if let Some(Value::Object(traits)) = value.get("generics") {
            for (name, params) in traits {
                let Value::Object(params) = params else {
                    return Err(bad(format!(
                        "`generics.{name}` must be a table of PARAM = \"Rust type\""
                    )));
                };
                let mut bound = HashMap::new();
                for (param, ty) in params {
                    let Value::String(ty) = ty else {
                        return Err(bad(format!(
                            "`generics.{name}.{param}` must be a string (a Rust type)"
                        )));
                    };
                    bound.insert(param.clone(), ty.clone());
                }
                config.generics.insert(name.clone(), bound);
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

    /// The `[types]` entry for a Rust path: the exact path, else the longest glob that matches
    /// (`alloy_eips::*`, `*::Withdrawal`).
    pub fn type_override(&self, path: &str) -> Option<&TypeNode> {
        if let Some(t) = self.types.get(path) {
            return Some(t);
        }
        self.types
            .iter()
            .filter(|(pattern, _)| pattern.contains('*') && glob_matches(pattern, path))
            .max_by(|a, b| a.0.len().cmp(&b.0.len()).then_with(|| b.0.cmp(a.0)))
            .map(|(_, t)| t)
    }
}

// `[import]` is accord import's (crates/import) and `[lint]` the cli's lint configuration:
// read there, not here, but not unknown.
const SECTIONS: &[&str] = &["extract", "namespaces", "types", "generics", "import", "lint"];
const EXTRACT_KEYS: &[&str] = &["source", "contract", "name", "description", "wire", "strict"];
const NAMESPACE_KEYS: &[&str] = &["version", "semantics"];

/// Refuses a key of `table` that is not in `known`, with the closest known key when it looks
/// like a typo (`sourc` → `source`); `prefix` names the table in the message.
fn known_keys(table: &Value, prefix: &str, known: &[&str], hint: &str) -> Result<(), String> {
    for key in table.as_object().into_iter().flat_map(|o| o.keys()) {
        if known.contains(&key.as_str()) {
            continue;
        }
        let near = known
            .iter()
            .map(|k| (strsim::osa_distance(key, k), *k))
            .filter(|&(d, _)| d <= (key.chars().count() / 3).clamp(1, 3))
            .min_by_key(|&(d, _)| d)
            .map(|(_, k)| k);
        let what = if prefix.is_empty() { "section" } else { "key" };
        let mut message = format!("unknown {what} `{prefix}{key}`");
        match near {
            Some(near) => message.push_str(&format!(": did you mean `{prefix}{near}`?")),
            None if !hint.is_empty() => message.push_str(&format!(" ({hint})")),
            None => message.push_str(&format!(
                " (known: {})",
                known.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
            )),
        }
        return Err(message);
    }
    Ok(())
}

/// `*` matches any run of characters, `::` included.
pub(crate) fn glob_matches(pattern: &str, text: &str) -> bool {
    let mut parts = pattern.split('*');
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = text.strip_prefix(first) else { return false };
    let parts: Vec<&str> = parts.collect();
    for (i, part) in parts.iter().enumerate() {
        if i + 1 == parts.len() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
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
