//! Property tests: for generated documents — every kind, every record, unknown members at every
//! level — reading then writing loses nothing, and writing is idempotent.

use accord_schema_model::Document;
use proptest::prelude::*;
use serde_json::{Map, Value, json};

/// Arbitrary JSON for unknown members and for `default`/`examples`/literal values.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (-1e12f64..1e12).prop_map(Value::from),
        "[a-zé\\\\\"/~ ]{0,8}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z~/]{1,4}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Unknown members: names no record of schema 1 uses, and `minLength` (a known refinement that
/// is unknown on every kind but `string`; callers add it only where it is unknown).
fn unknown_members() -> impl Strategy<Value = Vec<(String, Value)>> {
    prop::collection::vec(
        (
            prop::sample::select(vec!["x-owner", "since", "stability", "renamedFrom", "x-~/"]),
            any_json(),
        ),
        0..3,
    )
    .prop_map(|members| members.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
}

fn with_unknown(
    mut known: Map<String, Value>,
    unknown: Vec<(String, Value)>,
    first: bool,
) -> Value {
    if first {
        // Unknown members before the known ones: the writer moves them, values must survive.
        let mut out: Map<String, Value> = unknown.into_iter().collect();
        out.append(&mut known);
        Value::Object(out)
    } else {
        known.extend(unknown);
        Value::Object(known)
    }
}

fn obj(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => unreachable!("json! object literal"),
    }
}

fn common(node: Map<String, Value>) -> impl Strategy<Value = Map<String, Value>> {
    (
        any::<bool>(),
        prop::option::of(any_json()),
        prop::option::of(prop::collection::vec(any_json(), 0..2)),
    )
        .prop_map(move |(described, default, examples)| {
            let mut node = node.clone();
            if described {
                node.insert("description".into(), json!("what it means"));
                node.insert("deprecated".into(), json!("use something else"));
            }
            if let Some(d) = default {
                node.insert("default".into(), d);
            }
            if let Some(x) = examples {
                node.insert("examples".into(), Value::Array(x));
            }
            node
        })
}

fn type_node() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(json!({"kind": "any"})),
        Just(json!({"kind": "null"})),
        Just(json!({"kind": "boolean"})),
        (any::<i32>(), any::<bool>()).prop_map(|(min, wrong)| if wrong {
            json!({"kind": "integer", "min": min, "unit": "rpm", "minLength": 2})
        } else {
            json!({"kind": "integer", "exclusiveMax": min, "multipleOf": 2})
        }),
        (-1e6f64..1e6).prop_map(|x| json!({"kind": "number", "max": x, "exclusiveMin": -1.5, "unit": "bar"})),
        (0u64..10, "[a-z]{0,3}").prop_map(|(n, p)| json!({"kind": "string", "minLength": n, "maxLength": n + 5, "pattern": p, "format": "uuid"})),
        any_json().prop_map(|v| json!({"kind": "literal", "value": v})),
        Just(json!({"kind": "enum", "values": ["on", "off", 3], "open": true, "reserved": [{"name": "idle", "note": "gone"}]})),
        "[A-Z][a-z]{0,5}".prop_map(|n| json!({"kind": "ref", "name": n, "namespace": "other"})),
    ];
    let node = leaf.prop_recursive(4, 32, 4, |inner| {
        prop_oneof![
            (inner.clone(), any::<bool>()).prop_map(|(items, unique)| json!({"kind": "array", "items": items, "minItems": 0, "uniqueItems": unique})),
            prop::collection::vec(inner.clone(), 0..3).prop_map(|elements| json!({"kind": "tuple", "elements": elements})),
            prop::collection::vec(inner.clone(), 1..3).prop_map(|variants| json!({"kind": "union", "variants": variants, "discriminator": "kind"})),
            (prop::option::of(inner.clone()), inner.clone()).prop_map(|(keys, values)| match keys {
                Some(keys) => json!({"kind": "map", "keys": keys, "values": values}),
                None => json!({"kind": "map", "values": values}),
            }),
            (prop::collection::btree_map("[a-z~/]{1,5}", (inner, any::<bool>(), unknown_members()), 0..4), any::<bool>())
                .prop_map(|(fields, closed)| {
                    let fields: Map<String, Value> = fields
                        .into_iter()
                        .map(|(name, (ty, optional, unknown))| {
                            (name, with_unknown(obj(json!({"type": ty, "optional": optional})), unknown, optional))
                        })
                        .collect();
                    json!({"kind": "object", "fields": fields, "closed": closed, "reserved": [{"name": "old"}]})
                }),
        ]
    });
    (node, unknown_members(), any::<bool>()).prop_flat_map(|(node, unknown, first)| {
        common(obj(node)).prop_map(move |n| with_unknown(n, unknown.clone(), first))
    })
}

fn method() -> impl Strategy<Value = Value> {
    (
        prop::collection::vec(("[a-z]{1,6}", type_node(), unknown_members()), 0..3),
        type_node(),
        prop::sample::select(vec![
            None,
            Some("read"),
            Some("write"),
            Some("destructive"),
            Some("append"),
        ]),
        unknown_members(),
        prop::option::of(type_node()),
        prop::option::of((any_json(), unknown_members(), unknown_members())),
    )
        .prop_map(|(params, result, semantics, unknown, error_data, linked)| {
            let params: Vec<Value> = params
                .into_iter()
                .map(|(name, ty, unknown)| {
                    with_unknown(obj(json!({"name": name, "type": ty})), unknown, false)
                })
                .collect();
            let mut m = obj(json!({"params": params, "result": result, "paramStructure": "either",
                "examples": [{"name": "one", "params": [], "result": null, "x-later": 1}]}));
            if let Some(s) = semantics {
                m.insert("semantics".into(), json!(s));
            }
            if let Some(data) = error_data {
                m.insert(
                    "errors".into(),
                    json!([{"code": -32000, "message": "busy", "data": data}]),
                );
            }
            if let Some((constant, link_unknown, cause_unknown)) = linked {
                // A link's params are any JSON, expressions and constants alike.
                let link =
                    obj(json!({"method": "m", "params": {"a": "$result.0.id", "b": constant}}));
                m.insert("links".into(), json!({"next": with_unknown(link, link_unknown, false)}));
                let cause = obj(json!({"event": "e", "namespace": "n"}));
                m.insert("causes".into(), json!([with_unknown(cause, cause_unknown, false)]));
            }
            with_unknown(m, unknown, true)
        })
}

fn document() -> impl Strategy<Value = Value> {
    let namespace = (
        prop::collection::btree_map("[a-z]{1,6}", method(), 0..3),
        prop::collection::btree_map("[a-z]{1,6}", type_node(), 0..2),
        prop::collection::btree_map("[A-Z][a-z]{0,5}", type_node(), 0..3),
        unknown_members(),
    )
        .prop_map(|(methods, events, types, unknown)| {
            let events: Map<String, Value> =
                events.into_iter().map(|(n, p)| (n, json!({"payload": p, "examples": [1]}))).collect();
            let ns = obj(json!({"version": "1.2.3-rc.1", "component": {"name": "c", "x-c": [1]},
                "methods": methods.into_iter().collect::<Map<_, _>>(), "events": events,
                "types": types.into_iter().collect::<Map<_, _>>(), "reserved": [{"name": "gone", "x-r": true}]}));
            with_unknown(ns, unknown, false)
        });
    (prop::collection::btree_map("[a-z]{1,6}", namespace, 0..3), unknown_members()).prop_map(|(namespaces, unknown)| {
        let doc = obj(json!({"schema": 1, "name": "generated", "namespaces": namespaces.into_iter().collect::<Map<_, _>>()}));
        with_unknown(doc, unknown, true)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn reading_and_writing_loses_nothing_and_is_idempotent(value in document()) {
        let text = serde_json::to_string_pretty(&value).unwrap();
        let doc = Document::parse(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let written = doc.to_canonical_string();
        let written_value: Value = serde_json::from_str(&written).unwrap();
        // serde_json's ordered Map compares as a map: same members, same values, any order.
        prop_assert_eq!(&written_value, &value);
        let again = Document::parse(&written).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&again, &doc);
        prop_assert_eq!(again.to_canonical_string(), written);
    }

    /// The text is read through the reader's own tree, a `Value` through `from_value`: both must
    /// give the same document, unknown members in the same order (the canonical text shows the
    /// order; the model's maps compare as maps).
    #[test]
    fn text_and_value_readings_agree(value in document()) {
        let text = serde_json::to_string(&value).unwrap();
        let from_text = Document::parse(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let from_value =
            Document::from_value(value).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(from_text.to_canonical_string(), from_value.to_canonical_string());
        prop_assert_eq!(from_text, from_value);
    }

    /// The streamed compact writer (one method, event and type at a time) gives the bytes of
    /// the `Value` writer, unknown members (also ones named like known members) included.
    #[test]
    fn the_streamed_compact_json_is_the_value_writers_bytes(value in document()) {
        let text = serde_json::to_string(&value).unwrap();
        let doc = Document::parse(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let streamed = String::from_utf8(doc.to_compact_json()).unwrap();
        let whole = serde_json::to_string(&doc.to_value()).unwrap();
        prop_assert_eq!(streamed, whole);
    }

    #[test]
    fn no_input_panics(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        let _ = Document::parse_bytes(&bytes);
    }
}
