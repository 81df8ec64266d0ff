//! Type nodes as the format's JSON (docs/format.md §7), built and taken apart by the import.
//!
//! The import writes type nodes as JSON values and hands the whole document to the model's one
//! reader (`Document::from_value`), so every node it makes is checked by the same rules as a
//! contract read from a file.

use accord_schema_model::{Kind, NumberRules, Refinement, StringRules, TypeKind, TypeNode};
use serde_json::{Map, Number, Value, json};

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

/// Whether `node` has a member of its kind that restricts values (a bound, its items, its
/// fields; not a unit, a discriminator or reserved names).
pub(crate) fn has_assertions(node: &Value) -> bool {
    let Some(kind) = Kind::from_name(kind_of(node)) else { return false };
    Refinement::of(kind).iter().any(|&r| restricts(r) && node.get(r.name()).is_some())
}

/// Whether a kind-specific member restricts the values a node admits (what a merge must
/// keep). Every row of the model's declaration is named, so a new one does not compile until
/// the import says.
fn restricts(r: Refinement) -> bool {
    match r {
        Refinement::Min
        | Refinement::Max
        | Refinement::ExclusiveMin
        | Refinement::ExclusiveMax
        | Refinement::MultipleOf
        | Refinement::MinLength
        | Refinement::MaxLength
        | Refinement::Pattern
        | Refinement::Format
        | Refinement::Value
        | Refinement::EnumValues
        | Refinement::Items
        | Refinement::MinItems
        | Refinement::MaxItems
        | Refinement::UniqueItems
        | Refinement::Elements
        | Refinement::Fields
        | Refinement::Closed
        | Refinement::Keys
        | Refinement::MapValues
        | Refinement::Variants
        | Refinement::Name => true,
        #[cfg(feature = "dummy-refinement-handled")]
        Refinement::Dummy => true,
        Refinement::Unit
        | Refinement::Open
        | Refinement::EnumReserved
        | Refinement::ObjectReserved
        | Refinement::Discriminator
        | Refinement::Namespace => false,
    }
}

/// The numeric refinements of a node, read from its members (a member of another JSON type
/// than the refinement's is none: the import writes none such).
pub(crate) fn number_rules(node: &Value) -> NumberRules {
    NumberRules {
        min: number(node, Refinement::Min),
        max: number(node, Refinement::Max),
        exclusive_min: number(node, Refinement::ExclusiveMin),
        exclusive_max: number(node, Refinement::ExclusiveMax),
        multiple_of: number(node, Refinement::MultipleOf),
        unit: text(node, Refinement::Unit),
        #[cfg(feature = "dummy-refinement-handled")]
        dummy: node.get("dummy").and_then(Value::as_u64),
    }
}

/// The string refinements of a node, read as [`number_rules`] reads numbers'.
pub(crate) fn string_rules(node: &Value) -> StringRules {
    StringRules {
        min_length: node.get(Refinement::MinLength.name()).and_then(Value::as_u64),
        max_length: node.get(Refinement::MaxLength.name()).and_then(Value::as_u64),
        pattern: text(node, Refinement::Pattern),
        format: text(node, Refinement::Format),
    }
}

fn number(node: &Value, r: Refinement) -> Option<Number> {
    match node.get(r.name()) {
        Some(Value::Number(n)) => Some(n.clone()),
        _ => None,
    }
}

fn text(node: &Value, r: Refinement) -> Option<String> {
    node.get(r.name()).and_then(Value::as_str).map(str::to_owned)
}

/// `node` with its kind's refinements replaced by `kind`'s (an integer, number or string
/// node's rules), written by the model's writer; its other members are kept.
pub(crate) fn with_rules(mut node: Value, kind: TypeKind) -> Value {
    let Some(members) = node.as_object_mut() else { return node };
    for r in Refinement::of(kind.kind()) {
        members.remove(r.name());
    }
    if let Value::Object(written) = TypeNode::new(kind).to_value() {
        members.extend(written.into_iter().filter(|(k, _)| k != "kind"));
    }
    node
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
    Refinement::named(name).next().is_some()
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
