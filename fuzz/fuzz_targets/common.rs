//! The assertions both targets make about one input.

use accord_schema_model::Document;
use serde_json::Value;

/// Reads `data` as a document. It must not panic; an error must name a place inside the input;
/// a document must survive a rewrite losslessly and idempotently.
pub fn check(data: &[u8]) {
    match Document::parse_bytes(data) {
        Ok(doc) => round_trip(data, &doc),
        Err(err) => {
            // Formatting the error must not panic either.
            let _ = err.to_string();
            let span = err.span.expect("parse errors carry a span");
            assert!(
                span.start <= span.end && span.end <= data.len(),
                "span {span:?} outside the {}-byte input: {err}",
                data.len()
            );
            let position = err.position.expect("parse errors carry a position");
            assert!(position.offset <= data.len() && position.line >= 1 && position.column >= 1);
        }
    }
}

fn round_trip(data: &[u8], doc: &Document) {
    let canonical = doc.to_canonical_string();
    let again = match Document::parse(&canonical) {
        Ok(again) => again,
        Err(err) => panic!("canonical text does not re-parse: {err}\n{canonical}"),
    };
    assert_eq!(doc, &again, "re-parsed model differs");
    let twice = again.to_canonical_string();
    assert_eq!(canonical, twice, "canonical text is not idempotent");

    // Nothing lost: the input and the canonical output are the same JSON value (member order
    // aside, which serde_json's Map equality ignores).
    let input: Value = serde_json::from_slice(data).expect("a document that parsed is JSON");
    let output: Value = serde_json::from_str(&canonical).expect("canonical text is JSON");
    assert_eq!(input, output, "canonical output is not the input's JSON value");
    assert_eq!(doc.to_value(), output, "to_value differs from the canonical text");
}
