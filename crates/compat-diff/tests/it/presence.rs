//! Presence per direction: the comparison reads `inputOptional` where callers write and
//! `outputOptional` where the plant writes, each falling back to `optional`.

use accord_compat_diff::{Polarity, compare_types};
use accord_schema_model::Document;

fn ty(fields: &str) -> accord_schema_model::TypeNode {
    let text = format!(
        r#"{{"schema": 1, "namespaces": {{"p": {{"version": "1.0.0", "types": {{"T": {{"kind": "object", "fields": {fields}}}}}}}}}}}"#
    );
    let doc = Document::parse(&text).unwrap();
    doc.namespaces.unwrap()["p"].types.as_ref().unwrap()["T"].clone()
}

fn ids(old: &str, new: &str, polarity: Polarity) -> Vec<&'static str> {
    compare_types(&ty(old), &ty(new), polarity).into_iter().map(|r| r.id).collect()
}

#[test]
fn a_field_required_only_on_output_is_compared_per_direction() {
    // `Option<T>` in Rust: a caller may leave it out, the plant always sends it.
    let option = r#"{"a": {"type": {"kind": "null"}, "optional": true, "outputOptional": false}}"#;
    let required = r#"{"a": {"type": {"kind": "null"}}}"#;
    assert_eq!(ids(option, required, Polarity::Input), ["field-became-required"]);
    assert!(ids(option, required, Polarity::Output).is_empty());
    let either = r#"{"a": {"type": {"kind": "null"}, "optional": true}}"#;
    assert_eq!(ids(option, either, Polarity::Output), ["field-became-optional"]);
    assert!(ids(option, either, Polarity::Input).is_empty());
}
