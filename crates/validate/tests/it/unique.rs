//! `uniqueItems` on the bytes path (items hashed by their meaning as they are read) against the
//! value path (every pair compared with `json_equal`): the same verdict and the same errors, on
//! the spellings that differ as text but not as JSON, and the reverse.

use accord_schema_model::Document;
use accord_validate::{Contract, Target, ValidationError};
use proptest::prelude::*;
use serde_json::{Value, json};

fn contract() -> Contract {
    let doc = json!({"schema": 1, "namespaces": {"t": {"version": "1.0.0", "types": {
        "Any": {"kind": "array", "items": {"kind": "any"}, "uniqueItems": true},
        "Ints": {"kind": "array", "items": {"kind": "integer"}, "uniqueItems": true},
        "Few": {"kind": "array", "items": {"kind": "any"}, "uniqueItems": true, "maxItems": 3},
        "Sets": {"kind": "array", "items": {"kind": "ref", "name": "Any"}, "uniqueItems": true},
    }}}});
    Contract::compile(&Document::from_value(doc).expect("contract reads")).expect("compiles")
}

fn ty(name: &str) -> Target {
    Target::Type { namespace: "t".into(), name: name.into() }
}

/// `text` checked on both paths (the value path on serde_json's reading of it); they must
/// agree, verdicts and errors. Returns the errors.
fn both(contract: &Contract, name: &str, text: &str) -> Vec<ValidationError> {
    let v = contract.validator(&ty(name)).expect("target");
    let value: Value = serde_json::from_str(text).expect("JSON");
    let by_value = v.validate(&value).err().unwrap_or_default();
    let by_bytes = v.validate_bytes(text.as_bytes()).err().unwrap_or_default();
    assert_eq!(by_value, by_bytes, "{name}: paths disagree on {text}");
    assert_eq!(v.is_valid(&value), by_value.is_empty(), "{name}: is_valid on {text}");
    assert_eq!(v.is_valid_bytes(text.as_bytes()), by_bytes.is_empty(), "{name}: {text}");
    by_value
}

/// The `found` of the one `uniqueItems` error of `text` against `name`, or `None` if it passes.
fn equal_items(contract: &Contract, name: &str, text: &str) -> Option<String> {
    let errors = both(contract, name, text);
    let found: Vec<&str> = errors
        .iter()
        .filter(|e| e.rule == accord_validate::ValidationRule::UniqueItems)
        .map(|e| e.found.as_str())
        .collect();
    assert!(found.len() <= 1, "{text}: {errors:?}");
    found.first().map(|f| (*f).to_owned())
}

#[test]
fn numbers_are_equal_by_value_and_by_kind() {
    let c = contract();
    let equal = Some("items 0 and 1 are equal".to_owned());
    for (text, want) in [
        // An integer and a double are different items, as they are to `json_equal`.
        ("[1, 1.0]", None),
        ("[1.0, 1e0]", equal.clone()),
        ("[1.0, 10e-1, 1.00]", equal.clone()),
        ("[100, 1e2]", None),
        ("[1E2, 100.0]", equal.clone()),
        ("[0.0, -0.0]", equal.clone()),
        // `-0` is the double -0.0 to serde_json, `0` the integer.
        ("[0, -0]", None),
        ("[-0, 0.0]", equal.clone()),
        ("[18446744073709551615, 18446744073709551615]", equal.clone()),
        ("[-9223372036854775808, 9223372036854775808]", None),
        ("[18446744073709551616, 1.8446744073709552e19]", equal.clone()),
        // Integers exactly; doubles past 2^53 round to the same double.
        ("[9007199254740993, 9007199254740992]", None),
        ("[9007199254740993.0, 9007199254740992.0]", equal.clone()),
        ("[0.1, 0.10000000000000001, 0.2]", equal.clone()),
        ("[1, 2, 3, 2, 1]", Some("items 1 and 3 are equal".to_owned())),
        ("[5, 6, 5, 6]", Some("items 0 and 2 are equal".to_owned())),
    ] {
        assert_eq!(equal_items(&c, "Any", text), want, "{text}");
    }
}

#[test]
fn strings_are_equal_by_their_decoded_text() {
    let c = contract();
    let equal = Some("items 0 and 1 are equal".to_owned());
    for (text, want) in [
        (r#"["A", "\u0041"]"#, equal.clone()),
        (r#"["\u00e9", "é"]"#, equal.clone()),
        (r#"["\ud83d\ude00", "😀"]"#, equal.clone()),
        (r#"["a\/b", "a/b"]"#, equal.clone()),
        (r#"["\n", "\u000a"]"#, equal.clone()),
        (r#"["\u000A", "\u000a"]"#, equal.clone()),
        (r#"["\"", "\u0022", "x"]"#, equal.clone()),
        (r#"["ab", "a", "b", "\u0061\u0062c"]"#, None),
        (r#"["x", "é", "\u00e8", "è"]"#, Some("items 2 and 3 are equal".to_owned())),
        (r#"["1", 1, "true", true, "null", null, "", [], {}]"#, None),
        ("[true, false, null, true]", Some("items 0 and 3 are equal".to_owned())),
        ("[null, 0, false, null]", Some("items 0 and 3 are equal".to_owned())),
    ] {
        assert_eq!(equal_items(&c, "Any", text), want, "{text}");
    }
}

#[test]
fn containers_are_equal_by_their_meaning() {
    let c = contract();
    let equal = Some("items 0 and 1 are equal".to_owned());
    for (text, want) in [
        (r#"[{"a": 1, "b": [1, 2]}, {"b": [1, 2], "a": 1}]"#, equal.clone()),
        (r#"[{"a": 1}, {"a": 1.0}]"#, None),
        (r#"[{"a": 1.0}, { "a" : 1e0 }]"#, equal.clone()),
        (r#"[{"\u0061": "\u00e9"}, {"a": "é"}]"#, equal.clone()),
        ("[[1, 2], [2, 1]]", None),
        ("[[1, [2]], [1, [2.0]], [1, [2]]]", Some("items 0 and 2 are equal".to_owned())),
        ("[[], {}, [[]], [{}]]", None),
        ("[{}, {}]", equal.clone()),
        (r#"[{"a": {"x": 1, "y": 2}}, {"a": {"y": 2, "x": 1}}]"#, equal.clone()),
        (r#"[{"a": 1, "b": 2}, {"a": 2, "b": 1}, {"a": 1}]"#, None),
        ("[[1], 1, [[1]], [1]]", Some("items 0 and 3 are equal".to_owned())),
        ("[null, [null], {}, null]", Some("items 0 and 3 are equal".to_owned())),
    ] {
        assert_eq!(equal_items(&c, "Any", text), want, "{text}");
    }
}

#[test]
fn large_arrays_and_duplicates_at_the_end() {
    let c = contract();
    let numbers: Vec<String> = (0..2_000).map(|i| format!("{i}.5")).collect();
    let strings: Vec<String> = (0..2_000).map(|i| format!(r#""s\u00e9{i}""#)).collect();
    let objects: Vec<String> = (0..300).map(|i| format!(r#"{{"n": {i}, "s": "{i}"}}"#)).collect();
    for (items, last) in
        [(&numbers, "1234.50"), (&strings, r#""sé1234""#), (&objects, r#"{"s": "299", "n": 299}"#)]
    {
        let all = items.join(",");
        assert_eq!(equal_items(&c, "Any", &format!("[{all}]")), None);
        let n = items.len();
        let found = equal_items(&c, "Any", &format!("[{all},{last}]")).expect("a duplicate");
        assert!(found.starts_with("items ") && found.ends_with(&format!(" and {n} are equal")));
    }
}

#[test]
fn every_error_in_order_with_uniqueness_last() {
    let c = contract();
    // Items that fail their type still count as items for uniqueness, after their own errors.
    let errors = both(&c, "Ints", r#"[1, "x", 1, "x"]"#);
    let said: Vec<(&str, String)> =
        errors.iter().map(|e| (e.pointer.as_str(), e.to_string())).collect();
    assert_eq!(said.len(), 3, "{said:?}");
    assert_eq!(errors[2].found, "items 0 and 2 are equal");
    // The count first, then uniqueness.
    let errors = both(&c, "Few", "[1, 2, 1, 3]");
    let rules: Vec<_> = errors.iter().map(|e| e.rule).collect();
    use accord_validate::ValidationRule::{MaxItems, UniqueItems};
    assert_eq!(rules, [MaxItems, UniqueItems]);
    // Arrays inside arrays, each unique on its own.
    assert_eq!(both(&c, "Sets", "[[1, 2], [3, 3.0]]"), []);
    let errors = both(&c, "Sets", "[[1, 2], [3, 3], [2, 1], [1, 2.0], [2, 1]]");
    let said: Vec<(&str, &str)> =
        errors.iter().map(|e| (e.pointer.as_str(), e.found.as_str())).collect();
    assert_eq!(said, [("/1", "items 0 and 1 are equal"), ("", "items 2 and 4 are equal")]);
}

/// Items written in several spellings of a few values.
fn item() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "1",
        "1.0",
        "1e0",
        "10e-1",
        "-0",
        "0",
        "0.0",
        "-0.0",
        "2",
        "2E0",
        r#""a""#,
        r#""\u0061""#,
        r#""é""#,
        r#""\u00e9""#,
        r#""""#,
        "true",
        "false",
        "null",
        "[]",
        "{}",
        "[1]",
        "[1.0]",
        r#"{"a": 1, "b": "é"}"#,
        r#"{"b": "\u00e9", "a": 1}"#,
        r#"{"a": 1.0, "b": "é"}"#,
    ])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

    /// Any array of such items: both paths agree (verdict and errors).
    #[test]
    fn both_paths_agree_on_arbitrary_arrays(items in prop::collection::vec(item(), 0..10)) {
        let c = contract();
        both(&c, "Any", &format!("[{}]", items.join(", ")));
        both(&c, "Sets", &format!("[[{}], [{}]]", items.join(","), items.iter().rev().cloned().collect::<Vec<_>>().join(",")));
    }
}
