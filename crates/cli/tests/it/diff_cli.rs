//! `accord diff`: exit codes, text and JSON output.

use crate::common::*;

fn pair(rule: &str) -> (String, String) {
    (format!("fixtures/diff/{rule}/old.types.json"), format!("fixtures/diff/{rule}/new.types.json"))
}

#[test]
fn a_breaking_change_exits_1_with_file_line_col() {
    let (old, new) = pair("bound-tightened");
    let out = accord(&["diff", &old, &new]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("fixtures/diff/bound-tightened/new.types.json:15:17: breaking[bound-tightened] pump.start.params.rpm: "),
        "{text}"
    );
    assert!(text.contains("\n    advice: "), "{text}");
}

#[test]
fn a_risky_change_exits_0_unless_fail_on_risky() {
    let (old, new) = pair("error-code-added");
    assert_eq!(accord(&["diff", &old, &new]).status.code(), Some(0));
    assert_eq!(accord(&["diff", &old, &new, "--fail-on", "risky"]).status.code(), Some(1));
    assert_eq!(accord(&["diff", &old, &new, "--fail-on", "policy"]).status.code(), Some(0));
}

#[test]
fn a_policy_finding_exits_1_unless_fail_on_leaves_policy_out() {
    let (old, new) = pair("version-not-bumped");
    assert_eq!(accord(&["diff", &old, &new]).status.code(), Some(1), "the default names policy");
    assert_eq!(accord(&["diff", &old, &new, "--fail-on", "breaking"]).status.code(), Some(0));
    assert_eq!(accord(&["diff", &old, &new, "--fail-on", "risky"]).status.code(), Some(0));
    assert_eq!(accord(&["diff", &old, &new, "--fail-on", "policy"]).status.code(), Some(1));
    assert_eq!(
        accord(&["diff", &old, &new, "--fail-on", "breaking,policy"]).status.code(),
        Some(1)
    );
    let out = accord(&["diff", &old, &new, "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let f = json["findings"]
        .as_array()
        .and_then(|f| f.iter().find(|f| f["rule"] == "version-not-bumped").cloned())
        .expect("version-not-bumped");
    assert_eq!(f["level"], "policy");
    assert_eq!(json["summary"]["old-callers-new-plant"]["policy"], 1);
}

#[test]
fn the_same_document_exits_0_with_no_findings() {
    let (old, _) = pair("bound-tightened");
    let out = accord(&["diff", &old, &old, "--format", "json"]);
    assert_eq!(out.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["version"], 1);
    assert_eq!(json["findings"].as_array().map(Vec::len), Some(0));
}

#[test]
fn json_findings_carry_every_member() {
    let (old, new) = pair("required-field-added");
    let out = accord(&["diff", &old, &new, "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let f = &json["findings"][0];
    for key in [
        "rule", "level", "path", "position", "message", "story", "advice", "witness", "location",
        "pairing",
    ] {
        assert!(f.get(key).is_some(), "missing {key} in {f}");
    }
    assert_eq!(f["rule"], "required-field-added");
    assert_eq!(f["position"], "params");
    assert_eq!(f["pairing"], "old-callers-new-plant");
    assert_eq!(f["location"]["file"], new);
}

#[test]
fn input_errors_exit_2() {
    let (old, _) = pair("bound-tightened");
    assert_eq!(accord(&["diff", &old, "no/such/file.types.json"]).status.code(), Some(2));
    assert_eq!(
        accord(&["diff", "fixtures/refused/schema-2.types.json", &old]).status.code(),
        Some(2)
    );
}

#[test]
fn markdown_is_a_pull_request_comment() {
    let out = accord(&[
        "diff",
        "fixtures/baselines/pump-plant.v2.2.0.types.json",
        "fixtures/contracts/pump-plant.types.json",
        "--format",
        "markdown",
    ]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    insta::assert_snapshot!(text);
    let (old, _) = pair("bound-tightened");
    let same = accord(&["diff", &old, &old, "--format", "markdown"]);
    assert_eq!(same.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&same.stdout).contains("No change that matters"));
}
