//! JSON Schema to type nodes, one construct per test: the node the import makes, and the
//! losses it reports (kind and pointer).

use accord_import::import_json_schema;
use serde_json::{Value, json};

/// Imports `schema` as type `T` and returns T's node as JSON and the losses as `kind@pointer`,
/// without the `integer-float` loss every `type: integer` carries (held by its own test,
/// `integer_admits_whole_floats_in_json_schema_and_the_loss_says_so`).
fn import(schema: Value) -> (Value, Vec<String>) {
    let (node, losses) = import_all(schema);
    (node, losses.into_iter().filter(|l| !l.starts_with("integer-float@")).collect())
}

/// Imports `schema` as type `T`: T's node and every loss as `kind@pointer`.
fn import_all(schema: Value) -> (Value, Vec<String>) {
    let import = import_json_schema(&schema, "ns", "1.0.0", Some("T")).expect("imports");
    let doc = import.document.to_value();
    let node = doc["namespaces"]["ns"]["types"]["T"].clone();
    let losses = import.report.losses.iter().map(|l| format!("{}@{}", l.kind, l.pointer)).collect();
    (node, losses)
}

#[test]
fn integer_admits_whole_floats_in_json_schema_and_the_loss_says_so() {
    let (n, l) = import_all(json!({"properties": {"n": {"type": "integer"}}, "type": "object"}));
    assert_eq!(n["fields"]["n"]["type"], json!({"kind": "integer"}));
    assert_eq!(l, ["integer-float@/properties/n/type"]);
}

#[test]
fn listed_whole_numbers_are_listed_in_both_kinds_nested_ones_are_a_loss() {
    // JSON Schema: `1` equals `1.0`. The format: they differ, so both are listed.
    let (n, l) = import_all(json!({"const": 0}));
    assert_eq!(
        n,
        json!({"kind": "union", "variants": [{"kind": "literal", "value": 0.0}, {"kind": "literal", "value": 0}]})
    );
    assert!(l.is_empty(), "{l:?}");
    let (n, l) = import_all(json!({"const": -2.0}));
    assert_eq!(n["variants"][1], json!({"kind": "literal", "value": -2}));
    assert!(l.is_empty(), "{l:?}");
    // Past 2^53 a float cannot say the integer exactly; inside an array neither kind is enough.
    assert_eq!(
        import_all(json!({"const": 9_007_199_254_740_993_u64})).1,
        ["number-equality@/const"]
    );
    assert_eq!(import_all(json!({"enum": [[1], "a"]})).1, ["number-equality@/enum"]);
}

#[test]
fn unknown_and_unheld_keywords_are_losses_wherever_they_stand() {
    // No `type`: the keywords that once vanished silently are reported all the same.
    let (_, l) = import_all(json!({"maxProperties": 2, "dependentRequired": {"a": ["b"]}}));
    assert_eq!(l, ["keyword-ignored@/dependentRequired", "keyword-ignored@/maxProperties"]);
    // Beside `$ref`.
    let (_, l) = import_all(json!({"$defs": {"A": {"type": "object"}},
        "maxProperties": 1, "$ref": "#/$defs/A"}));
    assert_eq!(l, ["keyword-ignored@/maxProperties"]);
    // A member no draft defines.
    let (n, l) = import_all(json!({"type": "string", "minLenght": 3}));
    assert_eq!(l, ["unknown-keyword@/minLenght"]);
    assert_eq!(n["minLenght"], 3, "kept as an unknown member");
    // Annotation-only keywords are no loss.
    let (_, l) =
        import_all(json!({"type": "string", "title": "t", "$comment": "c", "readOnly": true,
        "writeOnly": false, "examples": ["x"], "contentMediaType": "text/plain"}));
    assert!(l.is_empty(), "{l:?}");
}

#[test]
fn unevaluated_keywords_without_in_place_applicators_are_exact() {
    let (n, l) = import_all(
        json!({"type": "object", "properties": {"a": {}}, "unevaluatedProperties": false}),
    );
    assert_eq!(n["closed"], true);
    assert!(l.is_empty(), "{l:?}");
    let (n, l) = import_all(json!({"type": "array", "unevaluatedItems": {"type": "string"}}));
    assert_eq!(n["items"], json!({"kind": "string"}));
    assert!(l.is_empty(), "{l:?}");
    // Through `allOf` the import cannot see what was evaluated: a loss.
    let (_, l) =
        import_all(json!({"allOf": [{"properties": {"a": {}}}], "unevaluatedProperties": false}));
    assert_eq!(l, ["keyword-ignored@/unevaluatedProperties"]);
}

fn types_of(schema: Value) -> Value {
    let import = import_json_schema(&schema, "ns", "1.0.0", Some("T")).expect("imports");
    import.document.to_value()["namespaces"]["ns"]["types"].clone()
}

#[test]
fn scalar_types_and_their_refinements() {
    let (n, l) =
        import(json!({"type": "integer", "minimum": 0, "exclusiveMaximum": 10, "multipleOf": 2}));
    assert_eq!(n, json!({"kind": "integer", "min": 0, "exclusiveMax": 10, "multipleOf": 2}));
    assert!(l.is_empty());
    let (n, _) = import(json!({"type": "number", "maximum": 1.5}));
    assert_eq!(n, json!({"kind": "number", "max": 1.5}));
    let (n, _) = import(
        json!({"type": "string", "minLength": 1, "maxLength": 4, "pattern": "^a", "format": "uuid"}),
    );
    assert_eq!(
        n,
        json!({"kind": "string", "minLength": 1, "maxLength": 4, "pattern": "^a", "format": "uuid"})
    );
    assert_eq!(import(json!({"type": "null"})).0, json!({"kind": "null"}));
    assert_eq!(import(json!({"type": "boolean"})).0, json!({"kind": "boolean"}));
}

#[test]
fn draft_04_boolean_exclusive_bounds_make_the_bound_exclusive() {
    let (n, _) = import(json!({"type": "integer", "minimum": 0, "exclusiveMinimum": true}));
    assert_eq!(n, json!({"kind": "integer", "exclusiveMin": 0}));
}

#[test]
fn type_arrays_are_unions_with_each_kind_taking_its_keywords() {
    let (n, l) = import(json!({"type": ["string", "null"], "maxLength": 3}));
    assert_eq!(
        n,
        json!({"kind": "union", "variants": [{"kind": "string", "maxLength": 3}, {"kind": "null"}]})
    );
    assert!(l.is_empty());
}

#[test]
fn enum_and_const() {
    assert_eq!(
        import(json!({"enum": ["a", "b", 3]})).0,
        json!({"kind": "union", "variants": [{"kind": "literal", "value": 3.0}, {"kind": "enum", "values": ["a", "b", 3]}]})
    );
    assert_eq!(import(json!({"const": "x"})).0, json!({"kind": "literal", "value": "x"}));
    assert_eq!(
        import(json!({"enum": ["a", null, 1.5]})).0,
        json!({"kind": "union", "variants": [{"kind": "literal", "value": null}, {"kind": "literal", "value": 1.5}, {"kind": "literal", "value": "a"}]})
    );
    // `type` narrows listed values exactly.
    assert_eq!(
        import(json!({"type": "string", "enum": ["a", 1, "b"]})).0,
        json!({"kind": "enum", "values": ["a", "b"]})
    );
    let (_, l) = import(json!({"type": "string", "enum": ["a", "b"], "pattern": "^a"}));
    assert_eq!(l, ["enum-refined@"]);
}

#[test]
fn objects_fields_required_and_closed() {
    let (n, l) = import(
        json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}},
        "required": ["a"], "additionalProperties": false}),
    );
    assert_eq!(
        n,
        json!({"kind": "object", "fields": {
        "a": {"type": {"kind": "string"}},
        "b": {"type": {"kind": "integer"}, "optional": true}}, "closed": true})
    );
    assert!(l.is_empty());
    // A required member without a schema: any value, but present.
    let (n, _) = import(json!({"type": "object", "required": ["x"]}));
    assert_eq!(n, json!({"kind": "object", "fields": {"x": {"type": {"kind": "any"}}}}));
}

#[test]
fn maps_from_additional_properties_pattern_properties_and_property_names() {
    let (n, l) = import(
        json!({"type": "object", "additionalProperties": {"type": "integer"}, "propertyNames": {"pattern": "^x"}}),
    );
    assert_eq!(
        n,
        json!({"kind": "map", "keys": {"kind": "string", "pattern": "^x"}, "values": {"kind": "integer"}})
    );
    assert!(l.is_empty(), "{l:?}");
    let (n, l) = import(
        json!({"type": "object", "additionalProperties": false, "patternProperties": {"^0x": {"type": "string"}}}),
    );
    assert_eq!(
        n,
        json!({"kind": "map", "keys": {"kind": "string", "pattern": "^0x"}, "values": {"kind": "string"}})
    );
    assert!(l.is_empty());
    // Pattern members beside named ones: reported.
    let (_, l) = import(
        json!({"type": "object", "properties": {"a": true}, "patternProperties": {"^x": true}}),
    );
    assert_eq!(l, ["pattern-properties@/patternProperties"]);
    let (_, l) = import(
        json!({"type": "object", "properties": {"a": true}, "additionalProperties": {"type": "string"}}),
    );
    assert_eq!(l, ["additional-properties@/additionalProperties"]);
}

#[test]
fn arrays_and_tuples_in_both_drafts() {
    let (n, _) = import(
        json!({"type": "array", "items": {"type": "string"}, "minItems": 1, "uniqueItems": true}),
    );
    assert_eq!(
        n,
        json!({"kind": "array", "items": {"kind": "string"}, "minItems": 1, "uniqueItems": true})
    );
    let (n, l) = import(
        json!({"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false, "minItems": 2}),
    );
    assert_eq!(n, json!({"kind": "tuple", "elements": [{"kind": "string"}, {"kind": "integer"}]}));
    assert!(l.is_empty());
    // Optional trailing positions: a union of the tuple lengths allowed.
    let (n, _) = import(
        json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "array",
        "items": [{"type": "string"}, {"type": "integer"}], "additionalItems": false, "minItems": 1}),
    );
    assert_eq!(
        n,
        json!({"kind": "union", "variants": [
        {"kind": "tuple", "elements": [{"kind": "string"}, {"kind": "integer"}]},
        {"kind": "tuple", "elements": [{"kind": "string"}]}]})
    );
    let (_, l) = import(json!({"type": "array", "prefixItems": [{"type": "string"}]}));
    assert_eq!(l, ["open-tuple@/items"]);
    let (_, l) = import(json!({"type": "array", "contains": {"type": "string"}}));
    assert_eq!(l, ["keyword-ignored@/contains"]);
}

#[test]
fn one_of_is_exact_when_arms_are_disjoint_and_reported_when_they_may_overlap() {
    let (n, l) = import(json!({"oneOf": [{"type": "string"}, {"type": "integer"}]}));
    assert_eq!(n, json!({"kind": "union", "variants": [{"kind": "string"}, {"kind": "integer"}]}));
    assert!(l.is_empty());
    // Tags no hex number matches.
    let (_, l) = import(
        json!({"oneOf": [{"type": "string", "pattern": "^0x[0-9a-f]+$"}, {"enum": ["latest", "safe"]}]}),
    );
    assert!(l.is_empty(), "{l:?}");
    // Objects told apart by a required member of distinct literals.
    let (_, l) = import(json!({"oneOf": [
        {"type": "object", "properties": {"t": {"const": "a"}}, "required": ["t"]},
        {"type": "object", "properties": {"t": {"const": "b"}}, "required": ["t"]}]}));
    assert!(l.is_empty(), "{l:?}");
    let (_, l) = import(json!({"oneOf": [{"type": "string"}, {"type": "string", "maxLength": 3}]}));
    assert_eq!(l, ["one-of-overlap@/oneOf"]);
    // anyOf is a union, overlap or not.
    let (_, l) = import(json!({"anyOf": [{"type": "string"}, {"type": "string", "maxLength": 3}]}));
    assert!(l.is_empty());
}

#[test]
fn not_if_then_else_and_dependents_are_reported() {
    let (n, l) = import(json!({"type": "string", "not": {"const": "x"}}));
    assert_eq!(n, json!({"kind": "string"}));
    assert_eq!(l, ["not@/not"]);
    let (_, l) = import(
        json!({"type": "object", "if": {"required": ["a"]}, "then": {"required": ["b"]}, "dependentSchemas": {"a": true}}),
    );
    assert_eq!(l, ["keyword-ignored@/dependentSchemas", "if-then-else@/if"]);
}

#[test]
fn all_of_merges_objects_exactly_and_distributes_over_unions() {
    let (n, l) = import(json!({"allOf": [
        {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
        {"properties": {"b": {"type": "integer"}, "a": {"maxLength": 3}}}]}));
    assert_eq!(
        n,
        json!({"kind": "object", "fields": {
        "a": {"type": {"kind": "string", "maxLength": 3}},
        "b": {"type": {"kind": "integer"}, "optional": true}}})
    );
    assert!(l.is_empty(), "{l:?}");
    let (n, l) = import(json!({"allOf": [
        {"oneOf": [{"type": "string"}, {"type": "integer"}]},
        {"minimum": 1, "maxLength": 2}]}));
    assert_eq!(
        n,
        json!({"kind": "union", "variants": [{"kind": "string", "maxLength": 2}, {"kind": "integer", "min": 1}]})
    );
    assert!(l.is_empty(), "{l:?}");
    let (n, l) = import(
        json!({"allOf": [{"type": "string", "pattern": "a"}, {"type": "string", "pattern": "b"}]}),
    );
    assert_eq!(n, json!({"kind": "string", "pattern": "a"}));
    assert_eq!(l, ["all-of-merge@/allOf"]);
    // Different JSON types: no value, exactly.
    let (n, _) = import(json!({"allOf": [{"type": "string"}, {"type": "integer"}]}));
    assert_eq!(n, json!({"kind": "union", "variants": []}));
}

#[test]
fn refs_to_defs_deep_pointers_and_recursion() {
    let t = types_of(json!({
        "$defs": {
            "Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}, "v": {"$ref": "#/$defs/Box/properties/inner"}}},
            "Box": {"type": "object", "properties": {"inner": {"type": "integer", "minimum": 0}}}
        },
        "$ref": "#/$defs/Node"
    }));
    assert_eq!(t["T"], json!({"kind": "ref", "name": "Node"}));
    assert_eq!(t["Node"]["fields"]["next"]["type"], json!({"kind": "ref", "name": "Node"}));
    // A deeper pointer is followed and inlined.
    assert_eq!(t["Node"]["fields"]["v"]["type"], json!({"kind": "integer", "min": 0}));
}

#[test]
fn recursion_through_a_deep_pointer_becomes_a_named_type() {
    let t = types_of(json!({"type": "object", "properties": {
        "tree": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/properties/tree"}}}}}}));
    let name = t["T"]["fields"]["tree"]["type"]["fields"]["kids"]["type"]["items"]["name"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(t[name.as_str()]["kind"], "object", "{t}");
}

#[test]
fn ref_siblings_apply_in_2020_12_and_are_ignored_in_draft_07() {
    let defs = json!({"S": {"type": "string"}});
    let t =
        types_of(json!({"$defs": defs, "$ref": "#/$defs/S", "maxLength": 3, "description": "d"}));
    assert_eq!(t["T"], json!({"kind": "string", "maxLength": 3, "description": "d"}));
    // Annotations alone keep the ref.
    let t = types_of(json!({"$defs": defs, "$ref": "#/$defs/S", "title": "t"}));
    assert_eq!(t["T"], json!({"kind": "ref", "name": "S", "title": "t"}));
    let t = types_of(
        json!({"$schema": "http://json-schema.org/draft-07/schema#", "definitions": defs, "$ref": "#/definitions/S", "maxLength": 3}),
    );
    assert_eq!(t["T"], json!({"kind": "ref", "name": "S"}));
}

#[test]
fn annotations_and_extensions_are_kept() {
    let (n, _) = import(json!({"type": "string", "title": "T", "description": "d", "default": "x",
        "examples": ["a"], "deprecated": true, "x-owner": "ops"}));
    assert_eq!(
        n,
        json!({"kind": "string", "description": "d", "deprecated": true, "default": "x",
        "examples": ["a"], "title": "T", "x-owner": "ops"})
    );
}

#[test]
fn accords_own_members_are_read_by_the_models_reader_and_a_bad_one_stops_the_import() {
    // accord's own export's lossless members land in the node's typed places.
    let (n, _) = import(json!({"enum": ["a", "b"], "x-accord-open": true,
        "x-accord-reserved": [{"name": "c", "note": "removed in 2.0"}],
        "x-accord-deprecated": "use U", "x-accord-unknown": {"x-later": 1}}));
    assert_eq!(
        n,
        json!({"kind": "enum", "values": ["a", "b"], "open": true,
            "reserved": [{"name": "c", "note": "removed in 2.0"}], "deprecated": "use U",
            "x-later": 1})
    );
    // One of the wrong type is refused where it stands, as the reader refuses it in a file.
    let err = import_json_schema(
        &json!({"properties": {"e": {"enum": ["a"], "x-accord-open": "yes"}}}),
        "ns",
        "1.0.0",
        Some("T"),
    )
    .expect_err("`open` is a boolean");
    let text = err.to_string();
    assert!(text.contains("/properties/e") && text.contains("open"), "{text}");
    let err = import_json_schema(
        &json!({"type": "object", "properties": {"f": {"type": "string",
            "x-accord-field": {"optional": "no"}}}}),
        "ns",
        "1.0.0",
        Some("T"),
    )
    .expect_err("`optional` is a boolean");
    assert!(err.to_string().contains("/properties/f/x-accord-field"), "{err}");
}

#[test]
fn names_reserved_in_either_part_of_an_all_of_stay_reserved() {
    let (n, l) = import(json!({"allOf": [
        {"type": "object", "properties": {"a": {"type": "string"}},
            "x-accord-reserved": [{"name": "old"}]},
        {"type": "object", "properties": {"b": {"type": "string"}},
            "x-accord-reserved": [{"name": "older"}, {"name": "old"}]},
    ]}));
    assert_eq!(n["reserved"], json!([{"name": "old"}, {"name": "older"}]));
    assert_eq!(n["fields"].as_object().map(|f| f.len()), Some(2));
    assert!(l.is_empty(), "{l:?}");
}

#[test]
fn boolean_schemas_and_untyped_schemas() {
    assert_eq!(import(json!(true)).0, json!({"kind": "any"}));
    assert_eq!(import(json!(false)).0, json!({"kind": "union", "variants": []}));
    // Without `type`, `properties` says nothing of non-objects, which the schema admits as
    // they are: the refined object beside a plain arm of every other JSON type, exactly.
    let (n, l) = import(json!({"properties": {"a": {"type": "string"}}}));
    assert_eq!(
        n,
        json!({"kind": "union", "variants": [
            {"kind": "object", "fields": {"a": {"type": {"kind": "string"}, "optional": true}}},
            {"kind": "null"}, {"kind": "boolean"}, {"kind": "number"}, {"kind": "string"},
            {"kind": "array", "items": {"kind": "any"}}]})
    );
    assert!(l.is_empty(), "{l:?}");
}

#[test]
fn patterns_outside_the_regex_dialect_are_dropped_and_reported() {
    let (n, l) = import(json!({"type": "string", "pattern": "^(?!x)"}));
    assert_eq!(n, json!({"kind": "string"}));
    assert_eq!(l, ["pattern-dialect@/pattern"]);
}

#[test]
fn external_and_dangling_refs_are_losses_not_errors() {
    let (n, l) = import(json!({"$ref": "https://example.com/s.json"}));
    assert_eq!(n, json!({"kind": "any"}));
    assert_eq!(l, ["external-ref@/$ref"]);
    let (_, l) = import(json!({"$ref": "#/$defs/Nope"}));
    assert_eq!(l, ["dangling-ref@/$ref"]);
}

/// A → B → A through refs alone: no value is ever checked to the end, and `accord check` would
/// reject the contract (`ref-cycle`); the import writes `any` there and reports it.
#[test]
fn ref_cycles_the_format_cannot_hold_are_losses_and_the_contract_checks() {
    for schema in [
        json!({"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}, "$ref": "#/$defs/A"}),
        json!({"$defs": {"A": {"anyOf": [{"$ref": "#/$defs/B"}, {"type": "null"}]}, "B": {"$ref": "#/$defs/A"}},
            "type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}}),
        json!({"type": "object", "properties": {"self": {"$ref": "#"}}, "required": ["self"]}),
    ] {
        let import = import_json_schema(&schema, "ns", "1.0.0", Some("T")).expect("imports");
        let kinds: Vec<&str> = import.report.losses.iter().map(|l| l.kind).collect();
        assert!(kinds.contains(&"ref-cycle"), "{schema}: {kinds:?}");
        let errors: Vec<String> = accord_validate::lint(&import.document)
            .into_iter()
            .filter(|d| d.severity == accord_schema_model::Severity::Error)
            .map(|d| format!("{} {}", d.rule, d.pointer))
            .collect();
        assert!(errors.is_empty(), "{schema}: check rejects the import: {errors:?}");
    }
}
