//! `accord rules` and `accord explain`.

use crate::common::*;

#[test]
fn rules_lists_the_registry_and_markdown_is_the_doc() {
    let json = accord(&["rules", "--format", "json"]);
    assert_eq!(json.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).expect("json");
    assert_eq!(v["version"], 1);
    let rules = v["rules"].as_array().expect("rules");
    assert!(rules.iter().any(|r| r["id"] == "bound-tightened" && r["input"] == "breaking"));
    assert!(rules.iter().any(|r| r["id"] == "bound-tightened" && r["kind"] == "compat"));
    assert!(
        rules.iter().any(|r| r["id"] == "undeclared-semantics"
            && r["kind"] == "lint"
            && r["severity"] == "warning"),
        "lint rules are listed too"
    );
    let md = accord(&["rules", "--format", "markdown", "--kind", "compat"]);
    let doc = std::fs::read_to_string(root().join("docs/compat-rules.md")).expect("doc");
    assert_eq!(String::from_utf8_lossy(&md.stdout), doc);
    let md = accord(&["rules", "--format", "markdown", "--kind", "lint"]);
    let doc = std::fs::read_to_string(root().join("docs/lint-rules.md")).expect("doc");
    assert_eq!(String::from_utf8_lossy(&md.stdout), doc);
    let text = stdout(&accord(&["rules"]));
    assert!(text.lines().any(|l| l.starts_with("bound-tightened ") && l.contains(" compat ")));
    assert!(text.lines().any(|l| l.starts_with("dangling-ref ") && l.contains(" lint ")));
}

#[test]
fn explain_prints_a_rule_or_exits_2() {
    let out = accord(&["explain", "bound-tightened"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("bound-tightened (compat): "));
    assert_eq!(accord(&["explain", "no-such-rule"]).status.code(), Some(2));
}

#[test]
fn explain_covers_lint_rules_with_their_doc() {
    let out = accord(&["explain", "undeclared-semantics"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("undeclared-semantics (lint, warning): "), "{text}");
    assert!(text.contains("## What it does"), "the registry's doc: {text}");
    assert!(text.ends_with("Fixture: fixtures/lint/undeclared-semantics/\n"), "{text}");
    let typo = accord(&["explain", "undeclared-semantic"]);
    assert_eq!(typo.status.code(), Some(2));
    assert!(stderr(&typo).contains("did you mean `undeclared-semantics`?"), "{}", stderr(&typo));
}
