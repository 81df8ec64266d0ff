//! Tool schemas that a draft-07 validator and a 2020-12 validator read the same way.
//!
//! accord-validate exports JSON Schema 2020-12. MCP clients do not agree on a dialect: the
//! TypeScript SDK (and the Inspector built on it) compiles every schema with ajv's draft-07
//! class, whatever `$schema` says; the Python SDK picks its validator from `$schema`
//! (2020-12). The export uses one keyword the two read differently, the tuple's
//! `prefixItems` + `items: false`: draft-07 ignores `prefixItems` and reads `items: false` as
//! "no element at all", so every tuple result fails on the first element. This pass rewrites
//! what the dialects disagree on into a form both read alike (docs/mcp.md, "Schema dialect"):
//!
//! - a tuple becomes `items` (the distinct element schemas, `anyOf` when more than one, plus
//!   the open tail's) with `minItems`/`maxItems`; the positions' own descriptions go into the
//!   tuple's description. The cost: a client no longer checks which position holds which type
//!   when positions differ. accord itself still checks the exact tuple (arguments before they
//!   are sent; the fake's answers are generated from the contract);
//! - a `$ref` with assertion siblings becomes `allOf: [{"$ref"}]` beside them (draft-07
//!   ignores a `$ref`'s siblings; 2020-12 applies them). The export puts only annotations
//!   beside a `$ref` today; the rewrite keeps that true for what it may add later.
//!
//! What both read alike already is left as it is: `anyOf` unions, nullable as
//! `anyOf: [T, {"type": "null"}]`, maps as `additionalProperties` + `propertyNames`, `const`,
//! numeric `exclusiveMinimum`, `$defs` reached by JSON Pointer.

use serde_json::{Map, Value, json};

/// Keywords that only annotate: a `$ref` beside them needs no rewrite, and two element
/// schemas that differ only in them are the same constraint.
const ANNOTATIONS: &[&str] =
    &["description", "title", "examples", "default", "deprecated", "readOnly", "writeOnly"];

fn is_annotation(key: &str) -> bool {
    ANNOTATIONS.contains(&key) || key.starts_with("x-")
}

/// Keywords whose value is one schema.
const ONE: &[&str] = &[
    "items",
    "additionalProperties",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "additionalItems",
    "unevaluatedItems",
    "unevaluatedProperties",
];
/// Keywords whose value is a list of schemas.
const LIST: &[&str] = &["anyOf", "allOf", "oneOf", "prefixItems"];
/// Keywords whose value maps names to schemas.
const NAMED: &[&str] =
    &["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

/// Rewrites `schema`, in place and in every subschema, into the portable form. Only
/// subschemas are walked: a property named `prefixItems`, or a `const`, `default` or
/// `examples` value that looks like a schema, is data and stays as it is.
pub fn portable(schema: &mut Value) {
    let Value::Object(map) = schema else { return };
    for (key, value) in map.iter_mut() {
        let key = key.as_str();
        if ONE.contains(&key) {
            portable(value);
        } else if LIST.contains(&key) {
            value.as_array_mut().into_iter().flatten().for_each(portable);
        } else if NAMED.contains(&key) {
            value.as_object_mut().into_iter().flat_map(|m| m.values_mut()).for_each(portable);
        }
    }
    tuple(map);
    reference(map);
}

/// `prefixItems` (+ `items`) as `items` over the distinct element schemas, with the length.
fn tuple(map: &mut Map<String, Value>) {
    let Some(Value::Array(prefix)) = map.remove("prefixItems") else { return };
    let n = prefix.len();
    let tail = map.remove("items");
    let mut positions = Vec::new();
    let mut arms: Vec<Value> = Vec::new();
    for (i, mut element) in prefix.into_iter().enumerate() {
        // Each position's description moves up to the tuple: left on an element (an arm any
        // position may match) it would describe every position.
        if let Some(Value::String(d)) =
            element.as_object_mut().and_then(|e| e.remove("description"))
        {
            positions.push(format!("[{i}] {d}"));
        }
        let bare = without_annotations(&element);
        if !arms.iter().any(|a| without_annotations(a) == bare) {
            arms.push(element);
        }
    }
    match tail {
        // The closed tuple: exactly n elements.
        Some(Value::Bool(false)) | None => {
            map.insert("maxItems".to_owned(), json!(n));
        }
        Some(Value::Bool(true)) => arms.push(json!({})),
        Some(schema) => {
            if !arms.iter().any(|a| without_annotations(a) == without_annotations(&schema)) {
                arms.push(schema);
            }
        }
    }
    let items = if arms.len() == 1 { arms.remove(0) } else { json!({"anyOf": arms}) };
    map.insert("items".to_owned(), items);
    let least = map.get("minItems").and_then(Value::as_u64).unwrap_or(0);
    map.insert("minItems".to_owned(), json!(least.max(n as u64)));
    if !positions.is_empty() {
        let by_position = format!("By position: {}", positions.join("; "));
        let description = match map.get("description").and_then(Value::as_str) {
            Some(d) => format!("{d}\n{by_position}"),
            None => by_position,
        };
        map.insert("description".to_owned(), json!(description));
    }
}

fn without_annotations(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| !is_annotation(k))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// A `$ref` beside assertions moves into `allOf`, so that draft-07 applies them too.
fn reference(map: &mut Map<String, Value>) {
    if !map.contains_key("$ref") || map.keys().all(|k| k == "$ref" || is_annotation(k)) {
        return;
    }
    let Some(target) = map.remove("$ref") else { return };
    let arm = json!({"$ref": target});
    match map.get_mut("allOf") {
        Some(Value::Array(all)) => all.insert(0, arm),
        _ => {
            map.insert("allOf".to_owned(), json!([arm]));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closed_tuple_of_one_type_becomes_items_with_its_length() {
        let mut s = json!({"type": "array", "description": "Vibration.", "prefixItems": [
            {"type": "number", "minimum": 0, "description": "Axial."},
            {"type": "number", "minimum": 0, "description": "Horizontal."}
        ], "items": false, "minItems": 2});
        portable(&mut s);
        assert_eq!(
            s,
            json!({"type": "array", "items": {"type": "number", "minimum": 0},
                "minItems": 2, "maxItems": 2,
                "description": "Vibration.\nBy position: [0] Axial.; [1] Horizontal."})
        );
    }

    #[test]
    fn a_tuple_of_two_types_with_an_open_tail_becomes_an_any_of() {
        let mut s = json!({"prefixItems": [{"type": "string"}, {"type": "integer"}],
            "items": {"type": "boolean"}});
        portable(&mut s);
        assert_eq!(
            s,
            json!({"items": {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "boolean"}]},
                "minItems": 2})
        );
    }

    #[test]
    fn a_ref_beside_an_assertion_moves_into_all_of_and_one_beside_annotations_stays() {
        let mut s = json!({"properties": {
            "a": {"$ref": "#/$defs/x", "minimum": 1},
            "b": {"$ref": "#/$defs/x", "description": "B.", "x-accord-unit": "s"}
        }});
        portable(&mut s);
        assert_eq!(s["properties"]["a"], json!({"allOf": [{"$ref": "#/$defs/x"}], "minimum": 1}));
        assert_eq!(
            s["properties"]["b"],
            json!({"$ref": "#/$defs/x", "description": "B.", "x-accord-unit": "s"})
        );
    }

    #[test]
    fn data_that_looks_like_a_schema_is_left_alone() {
        let mut s = json!({"type": "object",
            "properties": {"prefixItems": {"type": "string"}},
            "default": {"prefixItems": [1], "items": false}});
        let before = s.clone();
        portable(&mut s);
        assert_eq!(s, before);
    }

    #[test]
    fn a_tuple_inside_defs_is_rewritten_too() {
        let mut s = json!({"$defs": {"t": {"prefixItems": [{"type": "null"}], "items": false}}});
        portable(&mut s);
        assert_eq!(
            s["$defs"]["t"],
            json!({"items": {"type": "null"}, "maxItems": 1, "minItems": 1})
        );
    }
}
