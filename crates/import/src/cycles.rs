//! Recursion the format cannot hold. A JSON Schema may name types that only refer to each other
//! (`A` is `$ref B`, `B` is `$ref A`) or that need themselves to hold a value: no value is ever
//! checked against them to the end, and `accord check` rejects such a contract (`ref-cycle`,
//! `no-finite-value`). The import never writes one: each such type becomes `any`, a reported
//! loss. The cycles are found by the lint rules that `check` runs (one owner of the question).

use serde_json::{Value, json};

use crate::Error;
use crate::report::Accepts;
use crate::schema::Converter;

/// The lint rules whose findings mean the contract cannot hold the recursion.
const RULES: [&str; 2] = ["ref-cycle", "no-finite-value"];

/// Replaces each type of `doc` that the rules find by `any` (its annotations kept), reporting a
/// loss at the type's place in the source; repeats until none is found.
pub(crate) fn break_cycles(conv: &mut Converter<'_>, doc: &mut Value) -> Result<(), Error> {
    // Each round removes at least one type from every cycle found, so the types bound the rounds.
    for _ in 0..=types_in(doc) {
        let document = accord_schema_model::Document::from_value(doc.clone())?;
        let found: Vec<(String, String)> = accord_validate::lint(&document)
            .into_iter()
            .filter(|d| RULES.contains(&d.rule))
            .map(|d| (d.pointer.as_str().to_owned(), d.message))
            .collect();
        if found.is_empty() {
            return Ok(());
        }
        for (pointer, message) in found {
            let Some(node) = doc.pointer_mut(&pointer) else { continue };
            let mut any = json!({"kind": "any"});
            for k in ["description", "title", "deprecated"] {
                if let Some(v) = node.get(k) {
                    any[k] = v.clone();
                }
            }
            *node = any;
            let at = source_of(conv, &pointer).unwrap_or(pointer);
            conv.loss(
                &at,
                "ref-cycle",
                Accepts::Wider,
                format!("{message}; the type admits any value"),
            );
        }
    }
    Ok(())
}

/// The number of named types in `doc`.
fn types_in(doc: &Value) -> usize {
    doc["namespaces"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(_, ns)| ns["types"].as_object().map_or(0, serde_json::Map::len))
        .sum()
}

/// The source pointer of the named type at `/namespaces/NS/types/NAME` of the contract.
fn source_of(conv: &Converter<'_>, pointer: &str) -> Option<String> {
    let rest = pointer.strip_prefix("/namespaces/")?;
    let (ns, rest) = rest.split_once('/')?;
    let name = rest.strip_prefix("types/")?;
    let unescape = |s: &str| s.replace("~1", "/").replace("~0", "~");
    let (ns, name) = (unescape(ns), unescape(name));
    if name.contains('/') {
        return None;
    }
    conv.source_pointer(&ns, &name)
}
