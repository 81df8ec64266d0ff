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

/// Leaves out the named types a merge inlined (`allOf`, `$ref` beside assertions) that no `ref`
/// of the contract names any more: such a type was only ever a part of another, and left in it
/// would be an orphan that `accord diff` judges on its own. Repeats while types are left out (a
/// type may be named only by another orphan).
pub(crate) fn drop_orphans(conv: &Converter<'_>, doc: &mut Value) -> Vec<(String, String)> {
    let mut dropped = Vec::new();
    loop {
        let mut named = std::collections::HashSet::new();
        for (ns, record) in doc["namespaces"].as_object().into_iter().flatten() {
            collect_refs(record, Some(ns), &mut named);
        }
        let mut any_dropped = false;
        for t in conv.merged() {
            if named.contains(&(t.ns.clone(), t.name.clone())) {
                continue;
            }
            let removed = doc["namespaces"][&t.ns]["types"]
                .as_object_mut()
                .and_then(|types| types.shift_remove(&t.name));
            if removed.is_some() {
                dropped.push((t.ns.clone(), t.name.clone()));
                any_dropped = true;
            }
        }
        if !any_dropped {
            return dropped;
        }
    }
}

/// Every (namespace, name) a `ref` node in `v` names; `ns` is the namespace `v` stands in.
fn collect_refs(
    v: &Value,
    ns: Option<&str>,
    out: &mut std::collections::HashSet<(String, String)>,
) {
    match v {
        Value::Object(m) => {
            if m.get("kind").and_then(Value::as_str) == Some("ref")
                && let Some(name) = m.get("name").and_then(Value::as_str)
            {
                let target_ns = m.get("namespace").and_then(Value::as_str).or(ns);
                if let Some(target_ns) = target_ns {
                    out.insert((target_ns.to_owned(), name.to_owned()));
                }
            }
            for child in m.values() {
                collect_refs(child, ns, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|i| collect_refs(i, ns, out)),
        _ => {}
    }
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
