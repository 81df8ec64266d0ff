//! Type nodes as the format's JSON (docs/format.md §7), built and taken apart by the import.
//!
//! The import writes type nodes as JSON values and hands the whole document to the model's one
//! reader (`Document::from_value`), so every node it makes is checked by the same rules as a
//! contract read from a file.

use serde_json::{Map, Value, json};

/// The member that marks a node made from a schema without `type` (its kind implied by its
/// keywords): a loss unless a merge with a typed part settles it. Never written out.
pub(crate) const UNTYPED: &str = "\u{1}untyped";

/// A node of `kind` with nothing else said.
pub(crate) fn kind(kind: &str) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("kind".to_owned(), json!(kind));
    m
}

/// The node that admits every value.
pub(crate) fn any() -> Value {
    Value::Object(kind("any"))
}

/// The node that admits no value: a union without arms (JSON Schema's `false`).
pub(crate) fn never() -> Value {
    json!({"kind": "union", "variants": []})
}

/// Whether `node` admits no value (a union without arms).
pub(crate) fn is_never(node: &Value) -> bool {
    kind_of(node) == "union" && node["variants"].as_array().is_some_and(Vec::is_empty)
}

/// The node's `kind`.
pub(crate) fn kind_of(node: &Value) -> &str {
    node.get("kind").and_then(Value::as_str).unwrap_or("any")
}

/// A union of `arms`, or the one arm when there is one.
pub(crate) fn union(mut arms: Vec<Value>) -> Value {
    if arms.len() == 1 {
        return arms.remove(0);
    }
    json!({"kind": "union", "variants": arms})
}

/// Members every kind takes (format.md §7.1), which say nothing about what is admitted.
pub(crate) const ANNOTATIONS: [&str; 4] = ["description", "deprecated", "default", "examples"];

/// The members of a node that restrict values: its kind's own members.
pub(crate) fn assertions(node: &Value) -> Vec<&str> {
    let own: &[&str] = match kind_of(node) {
        "integer" | "number" => &["min", "max", "exclusiveMin", "exclusiveMax", "multipleOf"],
        "string" => &["minLength", "maxLength", "pattern", "format"],
        "literal" => &["value"],
        "enum" => &["values"],
        "array" => &["items", "minItems", "maxItems", "uniqueItems"],
        "tuple" => &["elements"],
        "object" => &["fields", "closed"],
        "map" => &["keys", "values"],
        "union" => &["variants"],
        "ref" => &["name"],
        _ => &[],
    };
    own.iter().copied().filter(|k| node.get(*k).is_some()).collect()
}

/// Whether the node admits every value: kind `any`.
pub(crate) fn is_any(node: &Value) -> bool {
    kind_of(node) == "any"
}

/// Adds `from`'s annotations and unknown members to `to` where `to` has none of that name.
pub(crate) fn add_annotations(to: &mut Value, from: &Value) {
    let (Some(to), Some(from)) = (to.as_object_mut(), from.as_object()) else { return };
    let from_kind = from.get("kind").and_then(Value::as_str).unwrap_or("any");
    for (k, v) in from {
        if k == "kind"
            || (from_kind != "any" && !ANNOTATIONS.contains(&k.as_str()) && is_kind_member(k))
        {
            continue;
        }
        if !to.contains_key(k) {
            to.insert(k.clone(), v.clone());
        }
    }
}

/// Every kind-specific member name of the format (section 12.1).
fn is_kind_member(name: &str) -> bool {
    matches!(
        name,
        "min"
            | "max"
            | "exclusiveMin"
            | "exclusiveMax"
            | "multipleOf"
            | "unit"
            | "minLength"
            | "maxLength"
            | "pattern"
            | "format"
            | "value"
            | "values"
            | "open"
            | "reserved"
            | "items"
            | "minItems"
            | "maxItems"
            | "uniqueItems"
            | "elements"
            | "fields"
            | "closed"
            | "keys"
            | "variants"
            | "discriminator"
            | "name"
            | "namespace"
    )
}

/// The JSON type class a kind's values belong to, for telling arms apart: values of two
/// different classes are never equal.
pub(crate) fn class_of(node: &Value) -> Option<&'static str> {
    Some(match kind_of(node) {
        "null" => "null",
        "boolean" => "boolean",
        "integer" | "number" => "number",
        "string" => "string",
        "array" | "tuple" => "array",
        "object" | "map" => "object",
        "literal" => value_class(&node["value"]),
        "enum" => {
            let values = node["values"].as_array()?;
            let first = value_class(values.first()?);
            if values.iter().all(|v| value_class(v) == first) {
                first
            } else {
                return None;
            }
        }
        _ => return None,
    })
}

/// The JSON type class of a value.
pub(crate) fn value_class(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The values a literal or enum node admits, when it is one.
pub(crate) fn listed_values(node: &Value) -> Option<Vec<Value>> {
    match kind_of(node) {
        "literal" => Some(vec![node["value"].clone()]),
        "enum" => node["values"].as_array().cloned(),
        _ => None,
    }
}

/// A node admitting exactly `values`: a literal for one, an enum for strings and integers, a
/// union of literals (and an enum) otherwise.
pub(crate) fn values_node(values: Vec<Value>) -> Value {
    if values.len() == 1 {
        return json!({"kind": "literal", "value": values[0]});
    }
    let enumerable = |v: &Value| v.is_string() || v.is_i64() || v.is_u64();
    if values.iter().all(enumerable) {
        return json!({"kind": "enum", "values": values});
    }
    let (listed, others): (Vec<Value>, Vec<Value>) = values.into_iter().partition(enumerable);
    let mut arms: Vec<Value> =
        others.into_iter().map(|v| json!({"kind": "literal", "value": v})).collect();
    match listed.len() {
        0 => {}
        1 => arms.push(json!({"kind": "literal", "value": listed[0]})),
        _ => arms.push(json!({"kind": "enum", "values": listed})),
    }
    union(arms)
}
