//! End-to-end tests of `accord check`: exit codes 0/1/2, the rendered text and the JSON form.

mod common;

use common::*;

use std::path::PathBuf;

#[test]
fn a_clean_contract_exits_0() {
    let out = accord(&["check", "fixtures/contracts/work-queue.types.json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "0 errors, 0 warnings\n");
}

#[test]
fn warnings_alone_exit_0() {
    let out = accord(&["check", "fixtures/contracts/pump-plant.types.json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("fixtures/contracts/pump-plant.types.json:301:9: warning[undeclared-semantics]: method `pump.runSelfTest` declares no semantics: undeclared — callers will ask before pressing\n"),
        "{text}"
    );
    assert!(text.ends_with("\n0 errors, 1 warning\n"), "{text}");
}

#[test]
fn errors_exit_1_with_every_finding_rendered() {
    let out = accord(&["check", "fixtures/lint/dangling-ref/contract.types.json"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
    insta::assert_snapshot!(stdout(&out));
}

#[test]
fn every_lint_fixture_exits_1_on_errors_and_0_on_warnings() {
    let mut folders: Vec<PathBuf> = std::fs::read_dir(root().join("fixtures/lint"))
        .expect("fixtures/lint")
        .map(|e| e.expect("entry").path())
        .collect();
    folders.sort();
    for folder in folders {
        let rule = folder.file_name().expect("name").to_string_lossy().into_owned();
        let path = format!("fixtures/lint/{rule}/contract.types.json");
        let out = accord(&["check", &path, "--format", "json"]);
        let findings: Vec<serde_json::Value> =
            serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{path}: {e}"));
        let errors = findings.iter().any(|f| f["severity"] == "error");
        assert!(findings.iter().any(|f| f["rule"] == rule.as_str()), "{path}: no `{rule}`");
        assert_eq!(out.status.code(), Some(if errors { 1 } else { 0 }), "{path}");
    }
}

#[test]
fn json_lists_rule_severity_message_help_pointer_line_and_column() {
    let out = accord(&[
        "check",
        "--format",
        "json",
        "fixtures/lint/required-after-optional/contract.types.json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    insta::assert_snapshot!(stdout(&out), @r#"
    [
      {
        "rule": "required-after-optional",
        "severity": "warning",
        "message": "required param `rpm` (position 2) comes after optional param `ramp` (position 1): a call by position cannot leave `ramp` out",
        "help": "move the optional params after the required ones, or make the method `\"paramStructure\": \"by-name\"`",
        "pointer": "/namespaces/pump/methods/setSpeed/params/2",
        "line": 13,
        "column": 13
      }
    ]
    "#);
    let clean = accord(&["check", "--format", "json", "fixtures/contracts/work-queue.types.json"]);
    assert_eq!(clean.status.code(), Some(0));
    assert_eq!(stdout(&clean), "[]\n");
}

#[test]
fn an_unreadable_document_exits_2_as_parse_errors_do() {
    let out = accord(&["check", "fixtures/refused/wrong-type.types.json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty(), "a refused document gets no lint");
    let inspect = accord(&["inspect", "fixtures/refused/wrong-type.types.json"]);
    assert_eq!(stderr(&out), stderr(&inspect), "check renders parse errors as every command does");

    let json = accord(&["check", "--format", "json", "fixtures/refused/truncated.types.json"]);
    assert_eq!(json.status.code(), Some(2));
    assert!(json.stdout.is_empty());

    let missing = accord(&["check", "fixtures/no-such-file.types.json"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        stderr(&missing).contains("cannot read fixtures/no-such-file.types.json"),
        "{}",
        stderr(&missing)
    );

    let usage = accord(&["check"]);
    assert_eq!(usage.status.code(), Some(2));
}
