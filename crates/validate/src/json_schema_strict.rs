//! `accord export jsonschema` for strict validators, beside the export it rewrites: the export
//! writes accord's own annotations (`x-accord-unit`, …) and tuples whose trailing items are
//! optional as one `prefixItems` with a `minItems` below its length. ajv 8's default strict
//! mode refuses unknown keywords (unless declared with `addKeyword`) and logs such tuples
//! (`strictTuples`). This pass takes the annotations out (unless asked to keep them) and writes
//! each such tuple as the `anyOf` of its full tuples, one per allowed length, which admits the
//! same arrays.

use serde_json::{Map, Value, json};

/// `schema` as ajv's default strict mode takes it; `keep_accord` keeps the `x-accord-*`
/// annotations (a validator that declares them as keywords accepts them).
pub fn strict_json_schema(schema: Value, keep_accord: bool) -> Value {
    walk(schema, keep_accord)
}

/// Members whose value is a schema.
const ONE: [&str; 9] = [
    "items",
    "additionalProperties",
    "not",
    "contains",
    "propertyNames",
    "if",
    "then",
    "else",
    "unevaluatedProperties",
];
/// Members whose value is a list of schemas.
const LIST: [&str; 4] = ["prefixItems", "anyOf", "oneOf", "allOf"];
/// Members whose value maps names to schemas.
const MAP: [&str; 4] = ["properties", "patternProperties", "$defs", "dependentSchemas"];

fn walk(schema: Value, keep: bool) -> Value {
    let Value::Object(m) = schema else { return schema };
    let mut out = Map::new();
    for (k, v) in m {
        if !keep && k.starts_with("x-accord-") {
            continue;
        }
        let v = if ONE.contains(&k.as_str()) {
            walk(v, keep)
        } else if LIST.contains(&k.as_str()) {
            match v {
                Value::Array(items) => {
                    Value::Array(items.into_iter().map(|s| walk(s, keep)).collect())
                }
                other => other,
            }
        } else if MAP.contains(&k.as_str()) {
            match v {
                Value::Object(named) => {
                    Value::Object(named.into_iter().map(|(n, s)| (n, walk(s, keep))).collect())
                }
                other => other,
            }
        } else {
            v
        };
        out.insert(k, v);
    }
    full_tuples(out)
}

/// A `prefixItems` of `n` with `items: false` and `minItems` below `n`, as the `anyOf` of the
/// full tuples of each length from `minItems` to `n` (strictTuples wants each tuple full).
fn full_tuples(mut m: Map<String, Value>) -> Value {
    let Some(Value::Array(prefix)) = m.get("prefixItems").cloned() else {
        return Value::Object(m);
    };
    let n = prefix.len() as u64;
    let least = m.get("minItems").and_then(Value::as_u64).unwrap_or(0);
    if m.get("items") != Some(&json!(false)) || least >= n || m.contains_key("maxItems") {
        return Value::Object(m);
    }
    for k in ["prefixItems", "items", "minItems"] {
        m.remove(k);
    }
    let arms: Vec<Value> = (least..=n)
        .map(|len| {
            if len == 0 {
                json!({"maxItems": 0})
            } else {
                let len_usize = usize::try_from(len).unwrap_or(usize::MAX);
                json!({"prefixItems": prefix[..len_usize], "items": false, "minItems": len})
            }
        })
        .collect();
    match m.get_mut("anyOf") {
        // An `anyOf` already there: both must hold, so the tuples go into an `allOf` part.
        Some(_) => {
            let all = m.entry("allOf").or_insert_with(|| json!([]));
            if let Some(all) = all.as_array_mut() {
                all.push(json!({"anyOf": arms}));
            }
        }
        None => {
            m.insert("anyOf".to_owned(), Value::Array(arms));
        }
    }
    Value::Object(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn optional_trailing_items_become_full_tuples_and_annotations_go() {
        let s = json!({"type": "array", "prefixItems": [{"type": "string"}, {"type": "number", "x-accord-unit": "bar"}],
            "items": false, "minItems": 1, "x-accord-kind": "tuple"});
        assert_eq!(
            strict_json_schema(s.clone(), false),
            json!({"type": "array", "anyOf": [
                {"prefixItems": [{"type": "string"}], "items": false, "minItems": 1},
                {"prefixItems": [{"type": "string"}, {"type": "number"}], "items": false, "minItems": 2}]})
        );
        let kept = strict_json_schema(s, true);
        assert_eq!(kept["x-accord-kind"], "tuple");
        assert_eq!(kept["anyOf"][1]["prefixItems"][1]["x-accord-unit"], "bar");
        // A member named like an annotation is a member, not an annotation.
        let p = json!({"properties": {"x-accord-unit": {"const": {"x-accord-unit": 1}}}});
        assert_eq!(strict_json_schema(p.clone(), false), p);
    }
}
