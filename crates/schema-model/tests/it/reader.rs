//! Integration tests of the reader and writer.

use accord_schema_model::{Document, ErrorKind};

fn err(text: &str) -> accord_schema_model::Error {
    Document::parse(text).expect_err("must be refused")
}

#[test]
fn smoke() {
    let text = r#"{"schema": 1, "x-top": [1, 2.0], "namespaces": {"pump": {"version": "1.2.0", "x-ns": true,
      "methods": {"start": {"semantics": "launch", "params": [{"name": "rpm", "type": {"kind": "integer", "min": 0, "minLength": 3, "x-t": 1}, "optional": false}],
      "result": {"kind": "null"}}},
      "types": {"T": {"kind": "object", "fields": {"a": {"type": {"kind": "ref", "name": "T"}, "optional": true}}, "closed": false}}}}}"#;
    let doc = Document::parse(text).unwrap();
    let out = doc.to_canonical_string();
    let again = Document::parse(&out).unwrap();
    assert_eq!(doc, again);
    let a: serde_json::Value = serde_json::from_str(text).unwrap();
    let b: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(a, b);
    assert_eq!(again.to_canonical_string(), out);
    println!("{out}");
}

#[test]
fn refusals() {
    for (text, want) in [
        (
            r#"{"schema": 2}"#,
            "this document is schema 2; this accord reads schema 1: upgrade accord",
        ),
        (r#"{"schema": "1"}"#, "`schema` must be an integer"),
        (r#"{"name": "x"}"#, "no `schema`"),
        (
            r#"{"schema": 1, "namespaces": {"a": {"version": "1.0.0", "types": {"T": {"kind": "tensor"}}}}}"#,
            "unknown type kind `tensor`",
        ),
        (r#"{"schema": 1, "a": 1, "a": 2}"#, "duplicate key `a`"),
        (r#"{"schema": 1, "namespaces": {"#, "truncated"),
    ] {
        let e = err(text);
        println!("{e}");
        assert!(e.to_string().contains(want), "{e}");
    }
    let deep = "[".repeat(100_000);
    let e = err(&deep);
    assert!(matches!(*e.kind, ErrorKind::TooDeep { .. }), "{e}");
    println!("{e}");
}

#[test]
fn integers_past_64_bits_are_refused_but_exponents_are_kept() {
    let e = err(r#"{"schema": 1, "x-big": [1, 123456789012345678901234567890]}"#);
    assert!(matches!(*e.kind, ErrorKind::IntegerOutOfRange { .. }), "{e}");
    assert_eq!(e.pointer.as_str(), "/x-big/1");
    for fine in [
        r#"{"schema": 1, "x": 1e30}"#,
        r#"{"schema": 1, "x": 18446744073709551615}"#,
        r#"{"schema": 1, "x": -9223372036854775808}"#,
    ] {
        let doc = Document::parse(fine).expect("kept");
        let a: serde_json::Value = serde_json::from_str(fine).unwrap();
        assert_eq!(doc.to_value(), a);
    }
}

#[test]
fn the_depth_limit_is_exact() {
    // Depth counts containers: the document object is level 1.
    let nest = |levels: usize| {
        format!("{{\"schema\": 1, \"x\": {}{}}}", "[".repeat(levels - 1), "]".repeat(levels - 1))
    };
    assert!(Document::parse(&nest(accord_schema_model::DEPTH_LIMIT)).is_ok());
    let e = err(&nest(accord_schema_model::DEPTH_LIMIT + 1));
    assert!(matches!(*e.kind, ErrorKind::TooDeep { .. }), "{e}");
}

#[test]
fn from_value_refuses_depth_it_cannot_recurse_into() {
    let mut deep = serde_json::json!(null);
    for _ in 0..300 {
        deep = serde_json::json!([deep]);
    }
    let e =
        Document::from_value(serde_json::json!({"schema": 1, "x": deep})).expect_err("too deep");
    assert!(matches!(*e.kind, ErrorKind::TooDeep { .. }), "{e}");
    assert!(e.position.is_none());
}

#[test]
fn a_default_document_reads_back() {
    let doc = Document::default();
    assert_eq!(Document::parse(&doc.to_canonical_string()).expect("reads"), doc);
}

#[test]
fn deep_nesting_then_invalid_utf8_is_refused_in_linear_time() {
    // Found by fuzzing: locating the error used to copy the path at every value.
    let mut bytes = b"{\"schema\": 1, \"x\": ".to_vec();
    bytes.extend(std::iter::repeat_n(b'[', 200_000));
    bytes.push(0xff);
    let e = Document::parse_bytes(&bytes).expect_err("not UTF-8");
    assert!(matches!(*e.kind, ErrorKind::InvalidUtf8), "{e}");
    assert!(e.pointer.as_str().starts_with("/x/0/0"));
}

#[test]
fn presence_per_direction_is_read_written_in_order_and_falls_back_to_optional() {
    let text = r#"{"schema": 1, "namespaces": {"p": {"version": "1.0.0", "types": {"T": {"kind": "object", "fields": {
      "a": {"outputOptional": false, "optional": true, "type": {"kind": "null"}},
      "b": {"type": {"kind": "null"}, "inputOptional": true},
      "c": {"type": {"kind": "null"}, "optional": true}}}}}}}"#;
    let doc = Document::parse(text).unwrap();
    let ty = &doc.namespaces.as_ref().unwrap()["p"].types.as_ref().unwrap()["T"];
    let accord_schema_model::TypeKind::Object(o) = &ty.kind else { panic!("object") };
    let f = o.fields.as_ref().unwrap();
    assert!(f["a"].is_optional_in() && !f["a"].is_optional_out());
    assert!(f["b"].is_optional_in() && !f["b"].is_optional_out() && !f["b"].is_optional());
    assert!(f["c"].is_optional_in() && f["c"].is_optional_out());
    let out = doc.to_canonical_string();
    let a = out.find("\"optional\": true").unwrap();
    let b = out.find("\"outputOptional\": false").unwrap();
    assert!(a < b, "{out}");
    assert_eq!(Document::parse(&out).unwrap(), doc);
    assert!(
        Document::parse(r#"{"schema": 1, "namespaces": {"p": {"version": "1.0.0", "types": {"T": {"kind": "object", "fields": {"a": {"type": {"kind": "null"}, "inputOptional": 1}}}}}}}"#)
            .is_err()
    );
}

/// Objects past 16 members are checked for a duplicate through a hash index, smaller ones by a
/// search: both refuse the second key, at its place, and keep every member in order.
#[test]
fn duplicate_keys_are_refused_in_small_and_large_objects_alike() {
    for members in [3, 16, 17, 40, 1_000] {
        let types: Vec<String> =
            (0..members).map(|i| format!(r#""T{i}": {{"kind": "null"}}"#)).collect();
        let ns = |types: &[String]| {
            format!(
                r#"{{"schema": 1, "namespaces": {{"n": {{"version": "1.0.0", "types": {{{}}}}}}}}}"#,
                types.join(", ")
            )
        };
        let doc = Document::parse(&ns(&types)).expect("no duplicate");
        let names: Vec<&String> =
            doc.namespaces.as_ref().unwrap()["n"].types.as_ref().unwrap().keys().collect();
        assert_eq!(names.len(), members);
        assert!(names.iter().enumerate().all(|(i, name)| **name == format!("T{i}")));

        let mut twice = types.clone();
        twice.push(r#""T1": {"kind": "boolean"}"#.to_owned());
        twice.push(r#""U": {"kind": "null"}"#.to_owned());
        let text = ns(&twice);
        let e = err(&text);
        assert!(
            matches!(&*e.kind, ErrorKind::DuplicateKey { key } if key == "T1"),
            "{members}: {e}"
        );
        assert_eq!(e.pointer.as_str(), "/namespaces/n/types/T1", "{members}");
        // The diagnostic points at the second `"T1"`, not into either value.
        let second = text.rfind(r#""T1""#).unwrap();
        assert_eq!(e.span.map(|s| s.start), Some(second), "{members}: {e}");
    }
}

/// One run reports every structural mistake it can find, in the order of the text, and
/// `parse` still gives the first of them.
#[test]
fn every_structural_error_at_once_in_text_order() {
    let text = r#"{"schema": 1, "namespaces": {"thermo": {
      "types": {"Mode": {"kind": "enumeration", "values": ["heat"]}, "Ok": {"kind": "string"}},
      "methods": {"set": {"params": [{"name": "c", "type": {"kind": "float"}}, {"name": "d"}], "result": {"kind": "null"}}},
      "events": {"changed": {"paylod": {"kind": "number"}}}}}}"#;
    let errors = Document::parse_all(text).expect_err("four mistakes");
    let found: Vec<(String, &str)> =
        errors.iter().map(|e| (e.pointer.to_string(), e.kind.code())).collect();
    assert_eq!(
        found,
        [
            ("/namespaces/thermo".to_owned(), "missing-field"),
            ("/namespaces/thermo/types/Mode/kind".to_owned(), "unknown-kind"),
            ("/namespaces/thermo/methods/set/params/0/type/kind".to_owned(), "unknown-kind"),
            ("/namespaces/thermo/methods/set/params/1".to_owned(), "missing-field"),
            ("/namespaces/thermo/events/changed".to_owned(), "missing-field"),
        ]
    );
    let starts: Vec<usize> = errors.iter().map(|e| e.span.unwrap().start).collect();
    assert!(starts.is_sorted(), "in text order: {starts:?}");
    assert_eq!(err(text), errors[0]);
    assert_eq!(Document::parse_bytes_all(text.as_bytes()).unwrap_err(), errors);
    // A refused `schema` number stops the reading: nothing else is interpreted under it.
    let future = r#"{"schema": 2, "namespaces": {"x": {"types": {"T": {"kind": "nope"}}}}}"#;
    assert_eq!(Document::parse_all(future).unwrap_err().len(), 1);
}

/// An unknown kind is answered with the kind meant, when the name is one slip from it or what
/// another type system calls it; a name that is neither (a newer format's kind) gets none.
#[test]
fn unknown_kinds_suggest_the_kind_meant() {
    use accord_schema_model::Kind;
    for (written, meant) in [
        ("strnig", Some(Kind::String)),
        ("float", Some(Kind::Number)),
        ("f64", Some(Kind::Number)),
        ("enumeration", Some(Kind::Enum)),
        ("bool", Some(Kind::Boolean)),
        ("i64", Some(Kind::Integer)),
        ("struct", Some(Kind::Object)),
        ("Vec", Some(Kind::Array)),
        ("String", Some(Kind::String)),
        ("decimal", None),
        ("quaternion", None),
    ] {
        assert_eq!(Kind::suggest(written), meant, "{written}");
    }
}

/// A version with a number missing is named as such, not with semver's "while parsing minor
/// version number".
#[test]
fn a_short_contract_version_says_how_many_numbers_it_needs() {
    let text = r#"{"schema": 1, "namespaces": {"a": {"version": "1.0"}, "b": {"version": "2"}}}"#;
    let errors = Document::parse_all(text).unwrap_err();
    let messages: Vec<String> = errors.iter().map(|e| e.kind.to_string()).collect();
    assert_eq!(
        messages,
        [
            "`version` (the namespace's contract version): `1.0` has 2 numbers; a contract version has three, MAJOR.MINOR.PATCH, such as 1.0.0",
            "`version` (the namespace's contract version): `2` has 1 number; a contract version has three, MAJOR.MINOR.PATCH, such as 2.0.0",
        ]
    );
}

/// A method's `links` and `causes` (docs/format.md §5.11, §5.12): read into the model, written
/// back in canonical order with their unknown members, expressions kept as written (a form this
/// build cannot read is the lint's to report, not the reader's to refuse), wrong JSON types
/// refused at their place.
#[test]
fn links_and_causes_are_read_and_written_losslessly() {
    let text = r#"{"schema": 1, "namespaces": {"q": {"version": "1.0.0", "methods": {"enqueue": {
      "causes": [{"description": "once", "event": "jobEnqueued", "x-c": 1}, {"event": "tick", "namespace": "clock"}],
      "links": {"claim": {"params": {"queue": "$params.queue", "note": "$$ cash", "later": "$method", "n": {"a": "$result"}},
        "x-l": [1], "description": "claim it", "method": "claim", "summary": "s"}},
      "result": {"kind": "null"}}}}}}"#;
    let doc = Document::parse(text).unwrap();
    let m = &doc.namespaces.as_ref().unwrap()["q"].methods.as_ref().unwrap()["enqueue"];
    let link = &m.links.as_ref().unwrap()["claim"];
    assert_eq!(link.target("q"), ("q", "claim"));
    assert_eq!(link.params.as_ref().unwrap()["later"], serde_json::json!("$method"));
    assert_eq!(link.unknown["x-l"], serde_json::json!([1]));
    let causes = m.causes.as_ref().unwrap();
    assert_eq!(causes[1].target("q"), ("clock", "tick"));
    assert_eq!(causes[0].unknown["x-c"], serde_json::json!(1));
    assert_eq!(doc.unknown_member_count(), 2);
    let out = doc.to_canonical_string();
    let order: Vec<usize> = [
        "\"result\"",
        "\"links\"",
        "\"method\"",
        "\"summary\"",
        "\"description\": \"claim it\"",
        "\"params\"",
        "\"x-l\"",
        "\"causes\"",
    ]
    .iter()
    .map(|key| out.find(key).unwrap_or_else(|| panic!("{key} in {out}")))
    .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{out}");
    assert_eq!(Document::parse(&out).unwrap(), doc);
    let value: serde_json::Value = serde_json::from_str(text).unwrap();
    let written: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(value, written);

    for (bad, pointer) in [
        (r#""links": []"#, "/namespaces/q/methods/m/links"),
        (r#""links": {"l": {"params": {}}}"#, "/namespaces/q/methods/m/links/l"),
        (r#""links": {"l": {"method": 1}}"#, "/namespaces/q/methods/m/links/l/method"),
        (
            r#""links": {"l": {"method": "m", "params": []}}"#,
            "/namespaces/q/methods/m/links/l/params",
        ),
        (r#""causes": ["jobEnqueued"]"#, "/namespaces/q/methods/m/causes/0"),
        (
            r#""causes": [{"event": "e", "namespace": null}]"#,
            "/namespaces/q/methods/m/causes/0/namespace",
        ),
    ] {
        let text = format!(
            r#"{{"schema": 1, "namespaces": {{"q": {{"version": "1.0.0", "methods": {{"m": {{"result": {{"kind": "null"}}, {bad}}}}}}}}}}}"#
        );
        let e = err(&text);
        assert_eq!(e.pointer.as_str(), pointer, "{bad}: {e}");
    }
}
