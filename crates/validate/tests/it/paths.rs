//! The value path and the bytes path: same verdict, same errors, on hand-picked cases for every
//! kind and rule; and the bytes path's own refusals (syntax, UTF-8, depth).

use accord_schema_model::Document;
use accord_validate::{Contract, Target, ValidationError, ValidationRule};
use serde_json::{Value, json};

/// A contract with one namespace `t` whose named types are `types`.
fn contract(types: Value) -> Contract {
    let doc = json!({"schema": 1, "namespaces": {"t": {"version": "1.0.0", "types": types,
        "methods": {"m": {"params": [
            {"name": "a", "type": {"kind": "integer", "min": 0}},
            {"name": "b", "type": {"kind": "string"}, "optional": true}
        ], "result": {"kind": "null"}}}}}});
    let doc = Document::from_value(doc).expect("contract reads");
    Contract::compile(&doc).expect("contract compiles")
}

fn ty(name: &str) -> Target {
    Target::Type { namespace: "t".into(), name: name.into() }
}

/// Checks `value` on both paths; they must agree; returns the errors.
fn both(contract: &Contract, target: &Target, value: &Value) -> Vec<ValidationError> {
    let v = contract.validator(target).expect("target");
    let by_value = v.validate(value).err().unwrap_or_default();
    let text = serde_json::to_vec(value).expect("serialize");
    let by_bytes = v.validate_bytes(&text).err().unwrap_or_default();
    assert_eq!(by_value, by_bytes, "paths disagree on {value}");
    assert_eq!(
        v.is_valid(value),
        by_value.is_empty(),
        "is_valid disagrees with validate on {value}"
    );
    assert_eq!(v.is_valid_bytes(&text), by_bytes.is_empty(), "is_valid_bytes disagrees on {value}");
    // Pretty-printed bytes (white space everywhere) give the same answer.
    let pretty = serde_json::to_vec_pretty(value).expect("serialize");
    assert_eq!(
        v.validate_bytes(&pretty).err().unwrap_or_default(),
        by_bytes,
        "white space changed the answer"
    );
    by_value
}

fn rules(errors: &[ValidationError]) -> Vec<(String, ValidationRule)> {
    errors.iter().map(|e| (e.pointer.clone(), e.rule)).collect()
}

#[test]
fn scalars_and_bounds() {
    let c = contract(json!({
        "I": {"kind": "integer", "min": -5, "exclusiveMax": 10, "multipleOf": 5},
        "N": {"kind": "number", "exclusiveMin": 0, "max": 1.5, "multipleOf": 0.1},
        "S": {"kind": "string", "minLength": 2, "maxLength": 4, "pattern": "^[a-zé]+$"},
        "F": {"kind": "string", "format": "date-time"},
        "U": {"kind": "string", "format": "some-future-format"},
        "L": {"kind": "literal", "value": "on"},
        "E": {"kind": "enum", "values": ["idle", "run", 3]},
        "B": {"kind": "boolean"},
        "Z": {"kind": "null"},
        "A": {"kind": "any"}
    }));
    assert!(both(&c, &ty("I"), &json!(5)).is_empty());
    assert_eq!(rules(&both(&c, &ty("I"), &json!(-10))), [("".into(), ValidationRule::Minimum)]);
    assert_eq!(
        rules(&both(&c, &ty("I"), &json!(10))),
        [("".into(), ValidationRule::ExclusiveMaximum)]
    );
    assert_eq!(rules(&both(&c, &ty("I"), &json!(3))), [("".into(), ValidationRule::MultipleOf)]);
    // An integer type takes integer literals only: a plant's serde refuses `5.0` for an i64.
    assert_eq!(rules(&both(&c, &ty("I"), &json!(5.0))), [("".into(), ValidationRule::Type)]);
    assert_eq!(rules(&both(&c, &ty("I"), &json!("5"))), [("".into(), ValidationRule::Type)]);
    assert!(both(&c, &ty("N"), &json!(0.3)).is_empty());
    assert!(both(&c, &ty("N"), &json!(1)).is_empty());
    assert_eq!(
        rules(&both(&c, &ty("N"), &json!(0))),
        [("".into(), ValidationRule::ExclusiveMinimum)]
    );
    assert_eq!(rules(&both(&c, &ty("N"), &json!(0.35))), [("".into(), ValidationRule::MultipleOf)]);
    assert!(both(&c, &ty("S"), &json!("éé")).is_empty(), "lengths count characters");
    assert_eq!(rules(&both(&c, &ty("S"), &json!("a"))), [("".into(), ValidationRule::MinLength)]);
    // Past its length, the pattern is not run (length before pattern).
    assert_eq!(
        rules(&both(&c, &ty("S"), &json!("ABCDEF"))),
        [("".into(), ValidationRule::MaxLength)]
    );
    assert!(both(&c, &ty("F"), &json!("2026-12-01T19:18:52Z")).is_empty());
    assert_eq!(
        rules(&both(&c, &ty("F"), &json!("yesterday"))),
        [("".into(), ValidationRule::Format)]
    );
    assert!(both(&c, &ty("U"), &json!("anything")).is_empty(), "unknown formats are accepted");
    assert!(both(&c, &ty("L"), &json!("on")).is_empty());
    assert_eq!(rules(&both(&c, &ty("L"), &json!("off"))), [("".into(), ValidationRule::Literal)]);
    assert!(both(&c, &ty("E"), &json!(3)).is_empty());
    assert_eq!(rules(&both(&c, &ty("E"), &json!("stop"))), [("".into(), ValidationRule::Enum)]);
    assert_eq!(rules(&both(&c, &ty("E"), &json!(3.0))), [("".into(), ValidationRule::Enum)]);
    assert_eq!(rules(&both(&c, &ty("B"), &json!(null))), [("".into(), ValidationRule::Type)]);
    assert_eq!(rules(&both(&c, &ty("Z"), &json!(false))), [("".into(), ValidationRule::Type)]);
    assert!(both(&c, &ty("A"), &json!({"x": [1, {"y": null}]})).is_empty());
}

#[test]
fn containers_report_every_error_in_document_order() {
    let c = contract(json!({
        "Point": {"kind": "object", "fields": {
            "x": {"type": {"kind": "number"}},
            "y": {"type": {"kind": "number"}},
            "label": {"type": {"kind": "string", "maxLength": 3}, "optional": true}
        }, "closed": true},
        "Open": {"kind": "object", "fields": {"id": {"type": {"kind": "integer"}}}},
        "Path": {"kind": "array", "items": {"kind": "ref", "name": "Point"}, "minItems": 1, "maxItems": 2},
        "Set": {"kind": "array", "items": {"kind": "integer"}, "uniqueItems": true},
        "Pair": {"kind": "tuple", "elements": [{"kind": "string"}, {"kind": "integer"}]},
        "Levels": {"kind": "map", "keys": {"kind": "string", "pattern": "^t[0-9]+$"}, "values": {"kind": "number", "min": 0}}
    }));
    let errors = both(
        &c,
        &ty("Path"),
        &json!([{"x": 1, "label": "long", "z": 0}, {"x": "a", "y": 2}, {"x": 0, "y": 0}]),
    );
    assert_eq!(
        rules(&errors),
        [
            ("/0/label".into(), ValidationRule::MaxLength),
            ("/0/z".into(), ValidationRule::Closed),
            ("/0".into(), ValidationRule::Required),
            ("/1/x".into(), ValidationRule::Type),
            ("".into(), ValidationRule::MaxItems),
        ]
    );
    assert!(
        both(&c, &ty("Open"), &json!({"id": 1, "later": {"deep": [1]}})).is_empty(),
        "objects are open by default"
    );
    assert_eq!(
        rules(&both(&c, &ty("Set"), &json!([1, 2, 1]))),
        [("".into(), ValidationRule::UniqueItems)]
    );
    assert_eq!(
        rules(&both(&c, &ty("Pair"), &json!(["a", "b", 3]))),
        [("/1".into(), ValidationRule::Type), ("".into(), ValidationRule::Length)]
    );
    assert_eq!(
        rules(&both(&c, &ty("Levels"), &json!({"t1": 1, "x": 2, "t3": -1}))),
        [("/x".into(), ValidationRule::MapKey), ("/t3".into(), ValidationRule::Minimum)]
    );
    assert_eq!(rules(&both(&c, &ty("Path"), &json!([]))), [("".into(), ValidationRule::MinItems)]);
}

#[test]
fn unions_with_and_without_discriminator() {
    let c = contract(json!({
        "Maybe": {"kind": "union", "variants": [{"kind": "integer", "min": 0}, {"kind": "null"}]},
        "Start": {"kind": "union", "discriminator": "mode", "variants": [
            {"kind": "ref", "name": "Ramp"},
            {"kind": "object", "fields": {"mode": {"type": {"kind": "literal", "value": "direct"}}}}
        ]},
        "Ramp": {"kind": "object", "fields": {
            "mode": {"type": {"kind": "literal", "value": "ramp"}},
            "seconds": {"type": {"kind": "integer", "min": 1}}
        }},
        "Tree": {"kind": "object", "fields": {"children": {"type": {"kind": "array", "items": {"kind": "ref", "name": "Tree"}}, "optional": true}}}
    }));
    assert!(both(&c, &ty("Maybe"), &json!(null)).is_empty());
    let e = both(&c, &ty("Maybe"), &json!(-1));
    assert_eq!(rules(&e), [("".into(), ValidationRule::Union)]);
    assert_eq!(
        rules(&e[0].nearest),
        [("".into(), ValidationRule::Minimum)],
        "the nearest arm explains"
    );
    assert!(both(&c, &ty("Start"), &json!({"seconds": 3, "mode": "ramp"})).is_empty());
    assert_eq!(
        rules(&both(&c, &ty("Start"), &json!({"mode": "ramp", "seconds": 0}))),
        [("/seconds".into(), ValidationRule::Minimum)],
        "the tag picks the arm"
    );
    assert_eq!(
        rules(&both(&c, &ty("Start"), &json!({"mode": "warp"}))),
        [("/mode".into(), ValidationRule::Discriminator)]
    );
    assert_eq!(
        rules(&both(&c, &ty("Start"), &json!({"seconds": 1}))),
        [("".into(), ValidationRule::Discriminator)]
    );
    assert!(
        both(&c, &ty("Tree"), &json!({"children": [{"children": [{}]}, {}]})).is_empty(),
        "recursive types"
    );
}

#[test]
fn params_by_name_and_by_position() {
    let c = contract(json!({}));
    let params = Target::Params { namespace: "t".into(), method: "m".into() };
    assert!(both(&c, &params, &json!({"a": 1})).is_empty());
    assert!(both(&c, &params, &json!([1, "x"])).is_empty());
    assert!(
        both(&c, &params, &json!([1])).is_empty(),
        "an optional trailing param may be left out"
    );
    assert_eq!(
        rules(&both(&c, &params, &json!({"b": "x"}))),
        [("".into(), ValidationRule::Required)]
    );
    assert_eq!(rules(&both(&c, &params, &json!([]))), [("".into(), ValidationRule::Required)]);
    assert_eq!(
        rules(&both(&c, &params, &json!([-1, "x", true]))),
        [("/0".into(), ValidationRule::Minimum), ("".into(), ValidationRule::Length)]
    );
    assert_eq!(rules(&both(&c, &params, &json!("a"))), [("".into(), ValidationRule::Type)]);
}

#[test]
fn messages_name_the_bound_and_the_value() {
    let c = contract(json!({"Speed": {"kind": "integer", "min": 0, "max": 3000, "unit": "rpm"}}));
    let e = both(&c, &ty("Speed"), &json!(4000));
    assert_eq!(e[0].to_string(), "(root): expected at most 3000, found the integer 4000 [max]");
}

#[test]
fn the_bytes_path_refuses_what_is_not_json() {
    let c = contract(json!({"A": {"kind": "any"}, "S": {"kind": "string"}}));
    let any = c.validator(&ty("A")).unwrap();
    for bad in [
        &b""[..],
        b"{",
        b"[1,]",
        b"{\"a\" 1}",
        b"01",
        b"1.",
        b"-",
        b"tru",
        b"\"\\x\"",
        b"\"\\ud800\"",
        b"\"a\nb\"",
        b"\"\xff\"",
        b"1 2",
        b"{\"a\":1,}",
        b"nul",
    ] {
        assert!(!any.is_valid_bytes(bad), "accepted {:?}", String::from_utf8_lossy(bad));
        let errors = any.validate_bytes(bad).unwrap_err();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].rule, ValidationRule::Syntax, "{:?}", errors[0]);
        // serde_json agrees that it is not JSON.
        assert!(
            serde_json::from_slice::<Value>(bad).is_err(),
            "serde_json accepts {:?}",
            String::from_utf8_lossy(bad)
        );
    }
    let s = c.validator(&ty("S")).unwrap();
    assert!(s.is_valid_bytes("\"caf\\u00e9 \\ud83d\\ude00 é\"".as_bytes()));
}

#[test]
fn depth_is_limited_on_both_paths() {
    let c = contract(json!({"A": {"kind": "any"}}));
    let v = c.validator(&ty("A")).unwrap().with_depth_limit(8);
    let mut deep = json!(1);
    for _ in 0..9 {
        deep = json!([deep]);
    }
    let errors = both(&c, &ty("A"), &deep);
    assert!(errors.is_empty(), "the default limit is 128");
    assert_eq!(v.validate(&deep).unwrap_err()[0].rule, ValidationRule::Depth);
    let text = serde_json::to_vec(&deep).unwrap();
    assert_eq!(v.validate_bytes(&text).unwrap_err()[0].rule, ValidationRule::Depth);
    // 100,000 levels: an error, not a stack overflow.
    let attack = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let errors = c.validator(&ty("A")).unwrap().validate_bytes(attack.as_bytes()).unwrap_err();
    assert_eq!(errors[0].rule, ValidationRule::Depth);
}

#[test]
fn a_ref_cycle_is_named_by_a_type_in_it() {
    let doc = Document::from_value(
        json!({"schema": 1, "namespaces": {"t": {"version": "1.0.0", "types": {
            "Entry": {"kind": "ref", "name": "A"},
            "A": {"kind": "ref", "name": "B"},
            "B": {"kind": "union", "variants": [{"kind": "ref", "name": "A"}, {"kind": "null"}]}
        }}}}),
    )
    .expect("reads");
    match Contract::compile(&doc) {
        Err(accord_validate::Error::RefCycle { name, .. }) => {
            assert!(name == "A" || name == "B", "named {name}")
        }
        other => panic!("expected a ref cycle, got {other:?}"),
    }
}

/// A key named twice is refused on the bytes path wherever it is (a declared member, an
/// unknown member, inside `any`, a literal or a map, escaped or not, in a small or a large
/// object), as the model refuses it in a contract: readers disagree on which of the two counts.
#[test]
fn the_bytes_path_refuses_keys_named_twice() {
    let c = contract(json!({
        "Obj": {"kind": "object", "fields": {"a": {"type": {"kind": "integer"}}}},
        "Any": {"kind": "any"},
        "Lit": {"kind": "literal", "value": {"a": 1}},
        "Dict": {"kind": "map", "values": {"kind": "integer"}},
        "Maybe": {"kind": "union", "variants": [{"kind": "null"}, {"kind": "ref", "name": "Obj"}]},
    }));
    let many: String = (0..40).map(|i| format!(r#""k{i}":{i},"#)).collect();
    for (name, text, pointer) in [
        ("Obj", r#"{"a":1,"a":2}"#.to_owned(), "/a"),
        ("Obj", r#"{"a":1,"\u0061":2}"#.to_owned(), "/a"),
        ("Obj", r#"{"a":1,"x":{"y":[{"z":1,"z":1}]}}"#.to_owned(), "/x/y/0/z"),
        ("Any", r#"[{"b":true,"b":false}]"#.to_owned(), "/0/b"),
        ("Dict", format!(r#"{{{many}"k7":1}}"#), "/k7"),
        ("Lit", r#"{"a":2,"a":1}"#.to_owned(), ""),
        // Inside the union arm that passes (its probe kept no errors: said at the whole value).
        ("Maybe", r#"{"a":1,"a":2}"#.to_owned(), ""),
    ] {
        let v = c.validator(&ty(name)).expect(name);
        assert!(!v.is_valid_bytes(text.as_bytes()), "{name}: {text}");
        let errors = v.validate_bytes(text.as_bytes()).expect_err(&text);
        let dup = errors
            .iter()
            .find(|e| e.rule == ValidationRule::DuplicateKey)
            .expect("a duplicate-key error");
        assert_eq!(dup.pointer, pointer, "{name}: {text}: {errors:?}");
    }
    // The same keys once each are fine.
    let v = c.validator(&ty("Dict")).expect("Dict");
    assert!(v.is_valid_bytes(format!(r#"{{{many}"k40":1}}"#).as_bytes()));
}

/// Length before pattern: a string past `maxLength` is not matched against the pattern (nor
/// the format) at all, on either path: one error, `max-length`, however costly the pattern.
#[test]
fn a_string_past_its_length_never_runs_the_pattern() {
    let c = contract(json!({
        "Code": {"kind": "string", "maxLength": 10, "pattern": "^(a{100}){100}x$"},
        "Day": {"kind": "string", "minLength": 12, "format": "date"},
    }));
    let long = json!("b".repeat(100_000));
    assert_eq!(rules(&both(&c, &ty("Code"), &long)), [(String::new(), ValidationRule::MaxLength)]);
    assert_eq!(
        rules(&both(&c, &ty("Day"), &json!("nope"))),
        [(String::new(), ValidationRule::MinLength)]
    );
    // Within the length, the pattern is still checked.
    assert_eq!(
        rules(&both(&c, &ty("Code"), &json!("bbb"))),
        [(String::new(), ValidationRule::Pattern)]
    );
}

/// A union without a discriminator whose arms each require `type` to be one string (a pattern
/// of one literal, a one-value enum, a literal): the verdict-only walks pick the arm by that
/// member (`Union::implied`), the detailed ones try every arm. Both say the same on every
/// value, including the tag missing, unknown, not a string, or right with another member wrong.
#[test]
fn a_union_picked_by_a_member_every_arm_fixes_agrees_on_every_path() {
    let c = contract(json!({
        "Tx": {"kind": "union", "variants": [
            {"kind": "ref", "name": "Blob"},
            {"kind": "object", "fields": {
                "type": {"type": {"kind": "string", "pattern": "^0x2$"}},
                "gas": {"type": {"kind": "string", "pattern": "^0x[0-9a-f]+$"}},
                "tip": {"type": {"kind": "string"}, "optional": true}
            }},
            {"kind": "object", "fields": {
                "type": {"type": {"kind": "enum", "values": ["0x1"]}},
                "gas": {"type": {"kind": "string"}}
            }},
            {"kind": "object", "fields": {
                "type": {"type": {"kind": "literal", "value": "0x0"}},
                "gas": {"type": {"kind": "integer"}}
            }}
        ]},
        "Blob": {"kind": "object", "fields": {
            "type": {"type": {"kind": "string", "pattern": "^0x3$", "maxLength": 3}},
            "blobs": {"type": {"kind": "array", "items": {"kind": "string"}}}
        }},
        // The same arms but for one whose `type` is optional: no tag is implied.
        "Loose": {"kind": "union", "variants": [
            {"kind": "object", "fields": {
                "type": {"type": {"kind": "string", "pattern": "^0x2$"}, "optional": true},
                "gas": {"type": {"kind": "integer"}}
            }},
            {"kind": "object", "fields": {
                "type": {"type": {"kind": "string", "pattern": "^0x1$"}},
                "gas": {"type": {"kind": "string"}}
            }}
        ]},
        "Txs": {"kind": "array", "items": {"kind": "ref", "name": "Tx"}}
    }));
    let cases = [
        json!({"type": "0x2", "gas": "0x5"}),
        json!({"gas": "0x5", "type": "0x2", "tip": "x"}),
        json!({"type": "0x2", "gas": "5"}),
        json!({"type": "0x1", "gas": "anything"}),
        json!({"type": "0x1", "gas": 5}),
        json!({"type": "0x0", "gas": 5}),
        json!({"type": "0x0", "gas": "0x5"}),
        json!({"type": "0x3", "blobs": ["a"]}),
        json!({"type": "0x3", "blobs": [1]}),
        json!({"type": "0x3"}),
        json!({"type": "0x4", "gas": "0x5"}),
        json!({"type": 2, "gas": "0x5"}),
        json!({"type": null, "gas": 5}),
        json!({"gas": "0x5"}),
        json!({}),
        json!([]),
        json!("0x2"),
    ];
    for case in &cases {
        both(&c, &ty("Tx"), case);
        both(&c, &ty("Loose"), case);
    }
    both(&c, &ty("Txs"), &Value::Array(cases[..8].to_vec()));
    assert!(both(&c, &ty("Txs"), &json!([cases[0], cases[3], cases[5], cases[7]])).is_empty());
    assert!(both(&c, &ty("Loose"), &json!({"gas": 5})).is_empty());
}
