//! Properties: the duality of input and output, and shared named types.

use crate::strategies::node;
use accord_compat_diff::{Category, Level, Pairing, Polarity, Source, compare_types, diff};
use accord_schema_model::TypeNode;
use proptest::prelude::*;

fn verdict(old: &TypeNode, new: &TypeNode, polarity: Polarity) -> Level {
    compare_types(old, new, polarity)
        .into_iter()
        .filter(|r| r.category == Category::Structural)
        .map(|r| r.level(polarity))
        .max()
        .unwrap_or(Level::None)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// A change in params from old to new is judged as the same change in a result from new
    /// to old.
    #[test]
    fn params_old_to_new_is_result_new_to_old(old in node(), new in node()) {
        prop_assert_eq!(verdict(&old, &new, Polarity::Input), verdict(&new, &old, Polarity::Output));
    }

    #[test]
    fn a_type_against_itself_is_unchanged(t in node()) {
        prop_assert!(compare_types(&t, &t, Polarity::Input).is_empty());
        prop_assert!(compare_types(&t, &t, Polarity::Output).is_empty());
    }
}

#[test]
fn a_named_type_used_in_both_directions_is_one_finding_with_no_safe_order() {
    let doc = |max: u64| {
        format!(
            r#"{{"schema": 1, "namespaces": {{"pump": {{"version": "1.0.0",
  "methods": {{
    "list": {{"semantics": "read", "params": [{{"name": "page", "type": {{"kind": "ref", "name": "Page"}}}}],
      "result": {{"kind": "ref", "name": "Page"}}}}}},
  "types": {{"Page": {{"kind": "object", "fields": {{"size": {{"type": {{"kind": "integer", "max": {max}}}}}}}}}}}}}}}}}"#
        )
    };
    // Tightening and loosening a bound of a type reached from params and from results: each
    // breaks one pairing through one polarity and the other pairing through the other, so no
    // deploy order is safe. One finding per pairing, not one per polarity with two orders.
    for (from, to, rule) in [(100, 200, "bound-loosened"), (200, 100, "bound-tightened")] {
        let old = Source::parse("old.types.json", &doc(from)).expect("old");
        let new = Source::parse("new.types.json", &doc(to)).expect("new");
        let report = diff(&old, &new);
        for pairing in [Pairing::OldCallersNewPlant, Pairing::NewCallersOldPlant] {
            let found: Vec<_> =
                report.findings.iter().filter(|f| f.pairing == pairing && f.rule == rule).collect();
            assert_eq!(found.len(), 1, "{rule} in {pairing:?}: {}", report.to_text());
            let f = found[0];
            assert_eq!(f.level, Level::Breaking, "{}", report.to_text());
            assert!(f.message.contains("used in both directions"), "{}", f.message);
            assert!(f.message.contains("pump.list.result (result)"), "{}", f.message);
            assert_eq!(f.path, "pump.types.Page.size");
            assert!(f.advice.starts_with("no deploy order is safe"), "{}", f.advice);
            assert!(f.advice.contains("Expand–migrate–contract"), "{}", f.advice);
            assert!(!f.advice.contains("first"), "no order is advised: {}", f.advice);
        }
    }
}

#[test]
fn recursive_types_terminate() {
    let doc = |kind: &str| {
        format!(
            r#"{{"schema": 1, "namespaces": {{"t": {{"version": "1.0.0",
  "methods": {{"tree": {{"result": {{"kind": "ref", "name": "A"}}}}}},
  "types": {{
    "A": {{"kind": "object", "fields": {{"v": {{"type": {{"kind": "{kind}"}}}}, "next": {{"type": {{"kind": "ref", "name": "B"}}, "optional": true}}}}}},
    "B": {{"kind": "object", "fields": {{"v": {{"type": {{"kind": "{kind}"}}}}, "next": {{"type": {{"kind": "ref", "name": "A"}}, "optional": true}}}}}}}}}}}}}}"#
        )
    };
    let old = Source::parse("old", &doc("integer")).expect("old");
    let new = Source::parse("new", &doc("number")).expect("new");
    let report = diff(&old, &new);
    assert!(report.findings.iter().any(|f| f.rule == "type-widened"), "{}", report.to_text());
}

/// One finding per cause: an object type wrapped in a union whose matched variant lacks two of
/// its fields is one `required-field-removed` at the type, naming both fields and the places
/// the type reaches, beside the `union-variant-added`; not one finding per field, and no
/// removal-discipline findings for members that left one variant only.
#[test]
fn a_type_wrapped_in_a_union_is_one_finding_per_rule_at_the_type() {
    let read = |side: &str| {
        let rel = format!("fixtures/diff/union-variant-added.wrapped-object/{side}.types.json");
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(&rel);
        Source::parse(&rel, &std::fs::read_to_string(path).expect("fixture")).expect("reads")
    };
    let report = diff(&read("old"), &read("new"));
    let primary: Vec<_> =
        report.findings.iter().filter(|f| f.pairing == Pairing::OldCallersNewPlant).collect();
    let rules: Vec<&str> = primary.iter().map(|f| f.rule).collect();
    assert_eq!(rules, ["union-variant-added", "required-field-removed"], "{}", report.to_text());
    let removed = primary[1];
    assert_eq!(removed.path, "pump.types.Tx");
    for part in [
        "Tx|object.gas",
        "Tx|object.value",
        "pump.tx.result (result)",
        "pump.mined.payload (event)",
    ] {
        assert!(removed.message.contains(part), "{part}: {}", removed.message);
    }
    assert!(!report.findings.iter().any(|f| f.rule.starts_with("removed-without")));
}
