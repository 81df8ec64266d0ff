//! Which targets can meet a `pattern` (`Validator::reaches_pattern`): what a server asks once
//! per method to decide whether a params check goes off its event loop.

use accord_schema_model::Document;
use accord_validate::{Contract, Target};
use serde_json::json;

#[test]
fn only_targets_whose_types_lead_to_a_pattern_reach_one() {
    let doc = json!({"schema": 1, "namespaces": {"t": {"version": "1.0.0",
    "types": {
        "Id": {"kind": "string", "pattern": "^P-[0-9]{3}$"},
        "Plain": {"kind": "object", "fields": {"n": {"type": {"kind": "integer"}}}},
        "Deep": {"kind": "array", "items": {"kind": "union", "variants": [
            {"kind": "null"}, {"kind": "map", "keys": {"kind": "ref", "name": "Id"},
             "values": {"kind": "boolean"}}]}},
        "Loop": {"kind": "object", "fields": {"next": {"type": {"kind": "union",
            "variants": [{"kind": "null"}, {"kind": "ref", "name": "Loop"}]}}}},
        "Tree": {"kind": "object", "fields": {
            "kids": {"type": {"kind": "array", "items": {"kind": "ref", "name": "Tree"}}},
            "tag": {"type": {"kind": "union", "variants": [{"kind": "null"},
                {"kind": "ref", "name": "Id"}]}}}}
    },
    "methods": {
        "ping": {"params": [], "result": {"kind": "ref", "name": "Id"}},
        "plain": {"params": [{"name": "p", "type": {"kind": "ref", "name": "Plain"}},
                             {"name": "l", "type": {"kind": "ref", "name": "Loop"}}],
                  "result": {"kind": "null"}},
        "deep": {"params": [{"name": "d", "type": {"kind": "ref", "name": "Deep"}}],
                 "result": {"kind": "null"}},
        "tree": {"params": [{"name": "t", "type": {"kind": "array",
                  "items": {"kind": "ref", "name": "Tree"}}}], "result": {"kind": "null"}}
    }}}});
    let contract = Contract::compile(&Document::from_value(doc).unwrap()).unwrap();
    let reaches = |target: Target| contract.validator(&target).unwrap().reaches_pattern();
    let params = |m: &str| Target::Params { namespace: "t".into(), method: m.into() };
    let result = |m: &str| Target::Result { namespace: "t".into(), method: m.into() };
    assert!(contract.has_patterns());
    // The result of `ping` meets the pattern; its params (none) do not.
    assert!(!reaches(params("ping")));
    assert!(reaches(result("ping")));
    // Refs, a cycle of refs and plain kinds without a pattern: none (and the walk ends).
    assert!(!reaches(params("plain")));
    // A map's keys under a union under an array: found.
    assert!(reaches(params("deep")));
    // Through a type that contains itself: found (the cycle is no end of the search).
    assert!(reaches(params("tree")));
}
