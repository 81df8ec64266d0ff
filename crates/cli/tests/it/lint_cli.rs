//! End-to-end tests of `accord check`: exit codes 0/1/2, the rendered text and the JSON form.

use crate::common::*;

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
        text.starts_with("fixtures/contracts/pump-plant.types.json:349:9: warning[undeclared-semantics]: method `pump.runSelfTest` declares no semantics: undeclared — callers will ask before pressing\n"),
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
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).expect("a JSON report");
    assert_eq!(report["error"]["code"], "truncated", "{report}");
    assert_eq!(report["contract"], "fixtures/refused/truncated.types.json");
    assert!(report["error"]["line"].is_u64(), "{report}");

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

/// CI reads the machine formats, not stderr: an unreadable contract is in each of them, at its
/// place, and still exits 2.
#[test]
fn every_machine_format_carries_the_read_error() {
    let file = "fixtures/refused/malformed-json.types.json";
    let run = |format: &str| {
        let out = accord(&["check", "--format", format, file]);
        assert_eq!(out.status.code(), Some(2), "{format}: {}", stderr(&out));
        assert!(!stderr(&out).is_empty(), "{format}: the diagnostic stays on stderr too");
        stdout(&out)
    };
    let github = run("github");
    assert!(
        github.starts_with(&format!("::error file={file},line="))
            && github.contains("title=malformed-json::"),
        "{github}"
    );
    let sarif: serde_json::Value = serde_json::from_str(&run("sarif")).expect("SARIF");
    let result = &sarif["runs"][0]["results"][0];
    assert_eq!(result["ruleId"], "malformed-json", "{sarif}");
    assert_eq!(result["level"], "error");
    let place = &result["locations"][0]["physicalLocation"];
    assert_eq!(place["artifactLocation"]["uri"], file);
    assert!(place["region"]["startLine"].is_u64(), "{place}");
    let junit = run("junit");
    assert!(
        junit.contains("failures=\"1\"") && junit.contains("<failure type=\"error\""),
        "{junit}"
    );
    assert!(junit.contains("error[malformed-json]"), "{junit}");

    let missing = accord(&["check", "--format", "sarif", "fixtures/no-such-file.types.json"]);
    assert_eq!(missing.status.code(), Some(2));
    let sarif: serde_json::Value = serde_json::from_slice(&missing.stdout).expect("SARIF");
    assert_eq!(sarif["runs"][0]["results"][0]["ruleId"], "unreadable-file", "{sarif}");
}

/// A scratch folder holding `accord.toml` and a contract whose semantics are misspelt.
fn typo_project(name: &str, toml: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("legacy")).unwrap();
    let contract = r#"{"schema": 1, "namespaces": {"pump": {"version": "1.0.0", "methods": {
        "status": {"semantics": "reed", "result": {"kind": "string"}}}}}}"#;
    std::fs::write(dir.join("plant.types.json"), contract).unwrap();
    std::fs::write(dir.join("legacy/old.types.json"), contract).unwrap();
    std::fs::write(dir.join("accord.toml"), toml).unwrap();
    dir
}

#[test]
fn the_lint_table_and_deny_warnings_decide_what_fails() {
    // No configuration: the typo is a warning, and the run passes.
    let plain = typo_project("lint-plain", "");
    let out = accord_in(&plain, &["check", "plant.types.json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(stdout(&out).contains("warning[unknown-semantics]"), "{}", stdout(&out));
    // --deny warnings: the same warning fails it.
    let out = accord_in(&plain, &["check", "plant.types.json", "--deny", "warnings"]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(stdout(&out).contains("warnings denied"), "{}", stdout(&out));

    // [lint.rules] makes it an error; an override allows it under legacy/.
    let strict = typo_project(
        "lint-strict",
        "[lint.rules]\nunknown-semantics = \"error\"\n\n[[lint.overrides]]\npaths = [\"legacy/**\"]\nrules = { unknown-semantics = \"allow\" }\n",
    );
    let out = accord_in(&strict, &["check", "plant.types.json"]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(stdout(&out).contains("error[unknown-semantics]"), "{}", stdout(&out));
    let out = accord_in(&strict, &["check", "legacy/old.types.json", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(stdout(&out), "[]\n", "allowed under legacy/");
    // --config names the file from elsewhere.
    let config = strict.join("accord.toml");
    let contract = strict.join("plant.types.json");
    let out = accord(&["check", contract.to_str().unwrap(), "--config", config.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));

    // deny-warnings in the table; a typo in the table is refused with the name meant.
    let deny = typo_project("lint-deny", "[lint]\ndeny-warnings = true\n");
    assert_eq!(accord_in(&deny, &["check", "plant.types.json"]).status.code(), Some(1));
    let typo = typo_project("lint-typo", "[lint.rules]\nunknown-semantic = \"error\"\n");
    let out = accord_in(&typo, &["check", "plant.types.json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("did you mean `unknown-semantics`?"), "{}", stderr(&out));
}

/// A name with ESC in it cannot drive the terminal through a diagnostic: it is written out.
#[test]
fn control_characters_from_a_contract_are_escaped() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("lint-escape");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("esc.types.json");
    std::fs::write(
        &file,
        r#"{"schema": 1, "namespaces": {"pump": {"version": "1.0.0", "methods": {
            "go\u001b[2J\u0007": {"result": {"kind": "null"}}}}}}"#,
    )
    .unwrap();
    let out = accord(&["check", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!out.stdout.contains(&0x1b) && !out.stdout.contains(&0x07), "{}", stdout(&out));
    assert!(stdout(&out).contains("go\\u001b[2J\\u0007"), "{}", stdout(&out));
    let github = accord(&["check", file.to_str().unwrap(), "--format", "github"]);
    assert!(!github.stdout.contains(&0x1b), "{}", stdout(&github));

    let dup = dir.join("dup.types.json");
    std::fs::write(&dup, "{\"schema\": 1, \"\\u001b[31m\": 1, \"\\u001b[31m\": 2}").unwrap();
    let out = accord(&["check", dup.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!out.stderr.contains(&0x1b), "{}", stderr(&out));
    assert!(stderr(&out).contains("duplicate key `\\u001b[31m`"), "{}", stderr(&out));
}
