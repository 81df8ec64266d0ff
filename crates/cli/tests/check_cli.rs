//! `accord check` with a baseline: files, git revisions, --fail-on and the output formats.

mod common;

use common::*;

#[test]
fn the_bundled_pair_reports_lint_and_compatibility_and_exits_1() {
    let out = accord(&["check", PUMP, "--against", OLD_PUMP]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let text = stdout(&out);
    for line in [
        "fixtures/contracts/pump-plant.types.json:301:9: warning[undeclared-semantics]: ",
        "lint: 0 errors, 1 warning\n",
        "fixtures/contracts/pump-plant.types.json:7:7: breaking[version-not-bumped] pump.version: ",
        "fixtures/contracts/pump-plant.types.json:120:54: breaking[bound-tightened] pump.start.params.rampTime: ",
        "fixtures/contracts/pump-plant.types.json:562:17: risky[enum-value-added] pump.types.Interlock.permissive: ",
        "safe[method-added] pump.runSelfTest: ",
    ] {
        assert!(text.contains(line), "missing {line:?} in\n{text}");
    }
}

#[test]
fn a_git_baseline_reads_the_contract_at_a_revision() {
    // The committed version of a fixture contract: the same document, nothing to report.
    let out =
        accord(&["check", "fixtures/contracts/work-queue.types.json", "--against", "git:HEAD"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        stdout(&out).contains("# against HEAD (HEAD:fixtures/contracts/work-queue.types.json)")
    );
    // An explicit path: the old pump plant as committed, against the current one.
    let spec = format!("git:HEAD:{OLD_PUMP}");
    let explicit = accord(&["check", PUMP, "--against", &spec, "--format", "json"]);
    if explicit.status.code() == Some(2) {
        // The baseline is not committed yet; a path missing at a revision is an input error.
        assert!(String::from_utf8_lossy(&explicit.stderr).contains("cannot read HEAD:"));
    } else {
        assert_eq!(explicit.status.code(), Some(1));
    }
}

#[test]
fn a_missing_revision_or_path_is_an_input_error() {
    for spec in
        ["git:no-such-rev-anywhere", "git:HEAD:no/such/file.types.json", "git:", "no/such/file"]
    {
        let out = accord(&["check", PUMP, "--against", spec]);
        assert_eq!(out.status.code(), Some(2), "{spec}");
        assert!(out.stdout.is_empty(), "{spec}");
    }
}

#[test]
fn fail_on_risky_fails_on_an_additive_enum_value() {
    let old = "fixtures/diff/enum-value-added/old.types.json";
    let new = "fixtures/diff/enum-value-added/new.types.json";
    assert_eq!(accord(&["check", new, "--against", old]).status.code(), Some(0));
    assert_eq!(
        accord(&["check", new, "--against", old, "--fail-on", "risky"]).status.code(),
        Some(1)
    );
}

#[test]
fn json_with_a_baseline_is_the_versioned_check_report() {
    let out = accord(&["check", PUMP, "--against", OLD_PUMP, "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["version"], 1);
    assert_eq!(json["fails"], true);
    assert_eq!(json["failOn"], "breaking");
    assert_eq!(json["lint"][0]["rule"], "undeclared-semantics");
    let b = &json["baselines"][0];
    assert_eq!(b["name"], OLD_PUMP);
    assert_eq!(b["fails"], true);
    assert_eq!(b["report"]["summary"]["worst"], "breaking");
}

#[test]
fn github_format_is_workflow_commands() {
    let out = accord(&["check", PUMP, "--against", OLD_PUMP, "--format", "github"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.contains("::error file=fixtures/contracts/pump-plant.types.json,line=120,col=54,title=bound-tightened::against "),
        "{text}"
    );
    assert!(text.contains("::warning file=fixtures/contracts/pump-plant.types.json,line=301,col=9,title=undeclared-semantics::"), "{text}");
    assert!(text.lines().all(|l| l.starts_with("::")), "{text}");
}
