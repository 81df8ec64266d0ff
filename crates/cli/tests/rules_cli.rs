//! `accord rules` and `accord explain`.

mod common;

use common::*;

#[test]
fn rules_lists_the_registry_and_markdown_is_the_doc() {
    let json = accord(&["rules", "--format", "json"]);
    assert_eq!(json.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).expect("json");
    assert_eq!(v["version"], 1);
    let rules = v["rules"].as_array().expect("rules");
    assert!(rules.iter().any(|r| r["id"] == "bound-tightened" && r["input"] == "breaking"));
    let md = accord(&["rules", "--format", "markdown"]);
    let doc = std::fs::read_to_string(root().join("docs/compat-rules.md")).expect("doc");
    assert_eq!(String::from_utf8_lossy(&md.stdout), doc);
}

#[test]
fn explain_prints_a_rule_or_exits_2() {
    let out = accord(&["explain", "bound-tightened"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("bound-tightened: "));
    assert_eq!(accord(&["explain", "no-such-rule"]).status.code(), Some(2));
}
