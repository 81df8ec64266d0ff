//! `accord check --accept FILE`: accepted breaks keyed by rule id and path.

use crate::common::*;

use std::path::Path;
use std::process::{Command, Output};

fn check(accept: &str, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_accord"))
        .args(["check", PUMP, "--against", OLD_PUMP, "--accept", accept])
        .args(extra)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .output()
        .expect("run accord")
}

#[test]
fn accepted_breaks_pass_and_are_reported_with_their_reason() {
    // The run still fails: the pump step also adds a value to the closed enum
    // `Interlock.permissive` that old callers read, which is breaking (the seed's "Add an enum
    // value — Only if every reader had an explicit unknown branch"), and no entry accepts it.
    let out = check("fixtures/accept/pump-plant.accept.json", &[]);
    assert_eq!(out.status.code(), Some(1), "{}{}", stdout(&out), stderr(&out));
    let text = stdout(&out);
    for line in [
        "fixtures/contracts/pump-plant.types.json:120:54: accepted breaking[bound-tightened] pump.start.params.rampTime (old callers × new plant): by fixtures/accept/pump-plant.accept.json:4: ramp times above 120 s were never used in the field (OPS-1432)\n",
        // `pump.*` is a prefix match.
        "fixtures/contracts/pump-plant.types.json:7:7: accepted policy[version-not-bumped] pump.version (old callers × new plant): by fixtures/accept/pump-plant.accept.json:9: ",
        "accept: fixtures/accept/pump-plant.accept.json (2 entries): 2 accepted, 0 entry problems\n",
        // The summary counts what still stands: the two accepted findings are listed as
        // accepted, not counted; the enum value is.
        "summary: old callers × new plant: 1 breaking, 7 risky, 0 policy, 2 safe;",
    ] {
        assert!(text.contains(line), "missing {line:?} in\n{text}");
    }

    let out = check("fixtures/accept/pump-plant.accept.json", &["--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["fails"], true);
    assert_eq!(json["baselines"][0]["fails"], true);
    let accepted = json["baselines"][0]["accepted"].as_array().expect("accepted");
    assert_eq!(accepted.len(), 2, "{accepted:?}");
    assert!(accepted.iter().any(|a| a["rule"] == "bound-tightened"
        && a["path"] == "pump.start.params.rampTime"
        && a["entry"]["line"] == 4));
    assert_eq!(json["accept"]["problems"], serde_json::json!([]));

    // Accepted findings are not errors in the machine formats either.
    let out = check("fixtures/accept/pump-plant.accept.json", &["--format", "github"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let errors: Vec<&str> = text.lines().filter(|l| l.starts_with("::error")).collect();
    assert!(
        errors.len() == 1 && errors[0].contains("title=enum-value-added::"),
        "only the unaccepted enum value: {errors:?}"
    );
}

#[test]
fn accepting_is_by_rule_and_path_not_by_message() {
    // Without the file the same pair fails; with it the unaccepted enum-value-added (breaking)
    // and, under --fail-on risky, the unaccepted risky error-code-added findings still fail the
    // run.
    let out = check("fixtures/accept/pump-plant.accept.json", &["--fail-on", "risky"]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
}

#[test]
fn an_expired_entry_fails_and_accepts_nothing() {
    let out = check("fixtures/accept/expired.accept.json", &[]);
    assert_eq!(out.status.code(), Some(1), "{}{}", stdout(&out), stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("fixtures/accept/expired.accept.json:9:5: error[accept-expired] accept entry 1 (version-not-bumped pump.version) expired on 2020-01-31"),
        "{text}"
    );
    // The live entry still accepts its finding.
    assert!(
        text.contains("accepted breaking[bound-tightened] pump.start.params.rampTime"),
        "{text}"
    );
    assert!(!text.contains("accepted policy[version-not-bumped]"), "{text}");

    let out = check("fixtures/accept/expired.accept.json", &["--format", "github"]);
    let text = stdout(&out);
    assert!(
        text.contains(
            "::error file=fixtures/accept/expired.accept.json,line=9,col=5,title=accept-expired::"
        ),
        "{text}"
    );
    assert!(text.contains("title=version-not-bumped::"), "{text}");
}

#[test]
fn an_unmatched_entry_fails() {
    let out = check("fixtures/accept/unmatched.accept.json", &["--format", "json"]);
    assert_eq!(out.status.code(), Some(1), "{}{}", stdout(&out), stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["fails"], true);
    // The stale entry fails the run; the baseline fails on its own only by the enum value no
    // entry accepts (see accepted_breaks_pass_and_are_reported_with_their_reason).
    let breaking: Vec<&serde_json::Value> = json["baselines"][0]["report"]["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["level"] == "breaking" && f["pairing"] == "old-callers-new-plant")
        .collect();
    let rules: Vec<&serde_json::Value> = breaking.iter().map(|f| &f["rule"]).collect();
    assert_eq!(rules, ["bound-tightened", "enum-value-added"], "{breaking:?}");
    let accepted = json["baselines"][0]["accepted"].as_array().expect("accepted");
    assert!(accepted.iter().any(|a| a["rule"] == "bound-tightened"), "{accepted:?}");
    assert!(!accepted.iter().any(|a| a["rule"] == "enum-value-added"), "{accepted:?}");
    let problems = json["accept"]["problems"].as_array().expect("problems");
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0]["rule"], "accept-unmatched");
    assert_eq!(problems[0]["entry"]["rule"], "method-removed");
    assert_eq!(problems[0]["entry"]["path"], "pump.stop");
    assert_eq!(problems[0]["entry"]["line"], 14);
}

#[test]
fn a_malformed_accept_file_is_an_input_error() {
    let out = check("fixtures/accept/malformed.accept.json", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(
        stderr(&out).contains(
            "fixtures/accept/malformed.accept.json:4:5: accept entry 0: missing `reason`"
        ),
        "{}",
        stderr(&out)
    );

    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("accept_cli");
    std::fs::create_dir_all(&dir).expect("tmp dir");
    for (name, text, what) in [
        ("not-json.json", "{\"version\": 1,\n \"accept\": [", "not-json.json:2:"),
        ("version.json", "{\"version\": 2, \"accept\": []}", "unsupported accept file version 2"),
        (
            "date.json",
            "{\"version\": 1, \"accept\": [{\"rule\": \"bound-tightened\", \"path\": \"a\", \"reason\": \"r\", \"expires\": \"2027-02-30\"}]}",
            "`expires` must be a date YYYY-MM-DD, not `2027-02-30`",
        ),
        (
            "rule.json",
            "{\"version\": 1, \"accept\": [{\"rule\": \"no-such-rule\", \"path\": \"a\", \"reason\": \"r\"}]}",
            "`no-such-rule` is not a compatibility rule",
        ),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("write");
        let out = check(path.to_str().expect("utf-8 path"), &[]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        assert!(stderr(&out).contains(what), "{name}: {}", stderr(&out));
    }
    let out = check("fixtures/accept/no-such-file.json", &[]);
    assert_eq!(out.status.code(), Some(2));
}
