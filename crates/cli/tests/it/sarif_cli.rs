//! `accord check --format sarif` and `--format junit`: the SARIF log validates against the
//! SARIF 2.1.0 JSON Schema (tests/data/sarif-schema-2.1.0.json).

use crate::common::*;

use std::path::Path;

/// `check` against the baseline with the pump plant's accepted breaks, as SARIF.
const ACCEPTED_SARIF: [&str; 8] = [
    "check",
    PUMP,
    "--against",
    OLD_PUMP,
    "--accept",
    "fixtures/accept/pump-plant.accept.json",
    "--format",
    "sarif",
];

fn schema() -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sarif-schema-2.1.0.json");
    let text = std::fs::read_to_string(&path).expect("schema");
    // The published schema's `language` patterns have a literal `]` that jsonschema's regex
    // format check refuses as the meta-schema is applied; `\]` is the same ECMA-262 pattern.
    let odd = r#""^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$""#;
    assert_eq!(text.matches(odd).count(), 2, "the schema changed: look again");
    let text = text.replace(odd, r#""^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}\\]?$""#);
    let schema: serde_json::Value = serde_json::from_str(&text).expect("schema json");
    assert!(schema["title"].as_str().is_some_and(|t| t.contains("SARIF) Version 2.1.0")));
    jsonschema::draft4::options().build(&schema).expect("schema builds")
}

#[test]
fn sarif_validates_against_the_sarif_2_1_0_schema() {
    let validator = schema();
    for args in [
        vec!["check", PUMP, "--against", OLD_PUMP, "--format", "sarif"],
        vec!["check", PUMP, "--format", "sarif"],
        vec!["check", "fixtures/lint/dangling-ref/contract.types.json", "--format", "sarif"],
        ACCEPTED_SARIF.to_vec(),
        // An unreadable contract among readable ones, and one that is not there.
        vec!["check", PUMP, "fixtures/refused/truncated.types.json", "--format", "sarif"],
        vec!["check", "fixtures/no-such-file.types.json", "--format", "sarif"],
    ] {
        let out = accord(&args);
        let log: serde_json::Value =
            serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}"));
        let errors: Vec<String> = validator.iter_errors(&log).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{args:?}: {errors:#?}");
        assert_eq!(log["version"], "2.1.0");
    }
    // A log that breaks the schema is refused: the test can fail.
    assert!(!validator.is_valid(&serde_json::json!({"version": "2.1.0", "runs": [{"tool": {}}]})));
}

#[test]
fn sarif_results_carry_rule_level_message_and_place() {
    let out = accord(&["check", PUMP, "--against", OLD_PUMP, "--format", "sarif"]);
    assert_eq!(out.status.code(), Some(1));
    let log: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let run = &log["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().expect("rules");
    assert!(rules.iter().any(|r| r["id"] == "bound-tightened"));
    assert!(rules.iter().any(|r| r["id"] == "undeclared-semantics"));
    let results = run["results"].as_array().expect("results");
    let bound = results.iter().find(|r| r["ruleId"] == "bound-tightened").expect("bound-tightened");
    assert_eq!(bound["level"], "error");
    let place = &bound["locations"][0]["physicalLocation"];
    assert_eq!(place["artifactLocation"]["uri"], PUMP);
    assert_eq!(place["region"]["startLine"], 120);
    assert_eq!(place["region"]["startColumn"], 54);
    let index = bound["ruleIndex"].as_u64().expect("ruleIndex");
    assert_eq!(rules[usize::try_from(index).expect("index")]["id"], "bound-tightened");
}

#[test]
fn junit_has_one_case_per_finding_and_fails_the_failing_ones() {
    let out = accord(&["check", PUMP, "--against", OLD_PUMP, "--format", "junit"]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites "), "{text}");
    // Under the default `--fail-on breaking,policy`: the two breaking findings and the
    // version policy's.
    assert!(text.contains("tests=\"14\" failures=\"3\""), "{text}");
    assert_eq!(text.matches("<failure ").count(), 3, "{text}");
    assert!(text.contains("<failure type=\"policy\""), "{text}");
    assert!(
        text.contains(
            "name=\"breaking[bound-tightened] at fixtures/contracts/pump-plant.types.json:120:54\""
        ),
        "{text}"
    );
}

#[test]
fn accepted_findings_are_suppressed_with_their_reason() {
    // Exit 1: the closed enum value added to what old callers read is breaking and not accepted.
    let out = accord(&ACCEPTED_SARIF);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let log: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let results = log["runs"][0]["results"].as_array().expect("results");
    let accepted = results
        .iter()
        .find(|r| {
            r["ruleId"] == "bound-tightened"
                && r["message"]["text"].as_str().is_some_and(|t| t.contains("rampTime"))
                && r["message"]["text"].as_str().is_some_and(|t| t.contains("old callers"))
        })
        .expect("the accepted bound-tightened finding stays in the log");
    assert_eq!(accepted["level"], "warning", "accepted: no longer an error");
    let suppression = &accepted["suppressions"][0];
    assert_eq!(suppression["kind"], "external");
    assert_eq!(suppression["status"], "accepted");
    assert!(
        suppression["justification"].as_str().is_some_and(|j| j.contains("OPS-1432")),
        "{suppression}"
    );
    let place = &suppression["location"]["physicalLocation"];
    assert_eq!(place["artifactLocation"]["uri"], "fixtures/accept/pump-plant.accept.json");
    assert_eq!(place["region"]["startLine"], 4);
    let unaccepted = results.iter().filter(|r| r.get("suppressions").is_none()).count();
    assert!(unaccepted > 0, "only accepted findings carry a suppression");
}
