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
fn a_named_type_used_in_both_directions_is_checked_under_both() {
    let doc = |max: u64| {
        format!(
            r#"{{"schema": 1, "namespaces": {{"pump": {{"version": "1.0.0",
  "methods": {{
    "list": {{"semantics": "read", "params": [{{"name": "page", "type": {{"kind": "ref", "name": "Page"}}}}],
      "result": {{"kind": "ref", "name": "Page"}}}}}},
  "types": {{"Page": {{"kind": "object", "fields": {{"size": {{"type": {{"kind": "integer", "max": {max}}}}}}}}}}}}}}}}}"#
        )
    };
    let old = Source::parse("old.types.json", &doc(100)).expect("old");
    let new = Source::parse("new.types.json", &doc(200)).expect("new");
    let report = diff(&old, &new);
    let primary: Vec<_> =
        report.findings.iter().filter(|f| f.pairing == Pairing::OldCallersNewPlant).collect();
    let loosened: Vec<_> = primary.iter().filter(|f| f.rule == "bound-loosened").collect();
    assert_eq!(loosened.len(), 2, "{}", report.to_text());
    assert!(loosened.iter().any(|f| f.level == Level::Breaking));
    assert!(loosened.iter().any(|f| f.level == Level::Safe));
    assert!(loosened[0].message.contains("used in both directions"), "{}", loosened[0].message);
    assert!(loosened[0].message.contains("pump.list.result (result)"), "{}", loosened[0].message);
    assert_eq!(loosened[0].path, "pump.types.Page.size");
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
