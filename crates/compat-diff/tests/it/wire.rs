//! The wire section compared old → new, beyond one fixture per rule: a whole foreign wire
//! dropped at once, and a separator change reported once however many names it renames.

use std::path::Path;

use accord_compat_diff::{Pairing, Source, diff};

fn foreign() -> Source {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/future/foreign-wire.types.json");
    let text = std::fs::read_to_string(&path).expect("fixture");
    Source::parse("foreign.types.json", &text).expect("reads")
}

/// `rule path` of every old-callers × new-plant finding.
fn primary(old: &Source, new: &Source) -> String {
    let report = diff(old, new);
    for f in &report.findings {
        assert!(f.location.is_some(), "{} {} has no place", f.rule, f.path);
    }
    report
        .findings
        .iter()
        .filter(|f| f.pairing == Pairing::OldCallersNewPlant)
        .map(|f| format!("{} {} {}\n", f.level, f.rule, f.path))
        .collect()
}

#[test]
fn dropping_a_foreign_wire_is_every_wire_change_once() {
    let old = foreign();
    let mut doc = old.document.clone();
    doc.wire = None;
    for (_, ns) in doc.namespaces.iter_mut().flatten() {
        ns.wire = None;
    }
    let new = Source::parse("accord.types.json", &doc.to_canonical_string()).expect("reads");
    // `eth` loses its `_`: one finding for its two methods; its events' pubsub names were
    // given by name, so each event's move to accord's style is its own finding. `net`'s names
    // were given one by one, so each is a wire-name change. The namespaces' versions did not
    // move, and the breaking changes in them need a major bump; the plant-wide members
    // (describe, codes) belong to no namespace's version.
    insta::assert_snapshot!(primary(&old, &new), @r"
    policy version-not-bumped eth.version
    breaking subscription-route-changed eth.newHeads
    breaking subscription-route-changed eth.logs
    policy version-not-bumped net.version
    breaking wire-name-changed net.listening
    breaking wire-name-changed net.peers
    breaking wire-separator-changed eth.wire.separator
    safe describe-method-added wire.describe
    breaking codes-profile-changed wire.codes.profile
    safe protocol-code-removed wire.codes.-32015
    ");
}

#[test]
fn identical_wires_give_nothing() {
    let a = foreign();
    assert!(diff(&a, &a).findings.is_empty());
}
