//! `accord check` with a baseline: files, git revisions, --fail-on and the output formats.

use crate::common::*;

#[test]
fn the_bundled_pair_reports_lint_and_compatibility_and_exits_1() {
    let out = accord(&["check", PUMP, "--against", OLD_PUMP]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let text = stdout(&out);
    for line in [
        "fixtures/contracts/pump-plant.types.json:349:9: warning[undeclared-semantics]: ",
        "lint: 0 errors, 1 warning\n",
        "fixtures/contracts/pump-plant.types.json:7:7: policy[version-not-bumped] pump.version: ",
        "fixtures/contracts/pump-plant.types.json:120:54: breaking[bound-tightened] pump.start.params.rampTime: ",
        // A closed enum read by old callers gained a value: the seed's "Add an enum value — Only
        // if every reader had an explicit unknown branch", which a closed enum says they lack.
        "fixtures/contracts/pump-plant.types.json:636:17: breaking[enum-value-added] pump.types.Interlock.permissive: ",
        "safe[method-added] pump.runSelfTest: ",
    ] {
        assert!(text.contains(line), "missing {line:?} in\n{text}");
    }
}

/// The contract-version step of the pump contract that made the example plant conform
/// (pump 2.3.0 to 2.4.0, valve 1.1.0 to 1.2.0): the plant's `unknown pump` and `unknown valve`
/// errors declared where it answers them, and nothing else.
#[test]
fn the_pump_contract_step_from_its_2_3_0_baseline_is_eight_declared_errors() {
    let out =
        accord(&["check", PUMP, "--against", "fixtures/baselines/pump-plant.v2.3.0.types.json"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = stdout(&out);
    let findings: Vec<&str> = text
        .lines()
        .filter_map(|l| {
            l.split_once(": risky[").map(|(_, rest)| rest.split_once(' ').map_or(rest, |(f, _)| f))
        })
        .collect();
    assert_eq!(
        findings,
        [
            "error-code-added]",
            "error-code-added]",
            "error-code-added]",
            "error-code-added]",
            "error-code-added]",
            "error-code-added]",
            "error-code-added]",
            "error-code-added]",
        ],
        "{text}"
    );
    for subject in [
        "pump.start",
        "pump.setSpeed",
        "pump.stop",
        "pump.resetRuntimeCounters",
        "pump.runSelfTest",
        "pump.getSpeed",
    ] {
        assert!(text.contains(&format!("] {subject}.errors.-32004: ")), "{subject} in\n{text}");
    }
    for subject in ["valve.position", "valve.moveTo"] {
        assert!(text.contains(&format!("] {subject}.errors.-32022: ")), "{subject} in\n{text}");
    }
    assert!(
        text.contains("summary: old callers × new plant: 0 breaking, 8 risky, 0 policy, 0 safe"),
        "{text}"
    );
    assert!(!text.contains("version-not-bumped"), "the versions were bumped: {text}");
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
fn fail_on_risky_fails_on_a_new_error_code() {
    let old = "fixtures/diff/error-code-added/old.types.json";
    let new = "fixtures/diff/error-code-added/new.types.json";
    assert_eq!(accord(&["check", new, "--against", old]).status.code(), Some(0));
    assert_eq!(
        accord(&["check", new, "--against", old, "--fail-on", "risky"]).status.code(),
        Some(1)
    );
}

/// `version-not-bumped` fails no reader: neither `breaking` nor `risky` fails on it, `policy`
/// does, alone or beside `breaking`; every report names it `policy`.
#[test]
fn fail_on_policy_alone_fails_on_a_version_not_bumped() {
    let old = "fixtures/diff/version-not-bumped/old.types.json";
    let new = "fixtures/diff/version-not-bumped/new.types.json";
    let code = |extra: &[&str]| {
        let mut args = vec!["check", new, "--against", old];
        args.extend_from_slice(extra);
        accord(&args).status.code()
    };
    assert_eq!(code(&[]), Some(1), "the default fails on policy findings");
    assert_eq!(code(&["--fail-on", "breaking"]), Some(0));
    assert_eq!(code(&["--fail-on", "risky"]), Some(0));
    assert_eq!(code(&["--fail-on", "policy"]), Some(1));
    assert_eq!(code(&["--fail-on", "breaking,policy"]), Some(1));
    let text = stdout(&accord(&["check", new, "--against", old]));
    assert!(text.contains(": policy[version-not-bumped] pump.version: "), "{text}");
    assert!(text.contains("0 breaking, 0 risky, 1 policy, 1 safe"), "{text}");
    let out = accord(&["check", new, "--against", old, "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let report = &json["baselines"][0]["report"];
    let found = report["findings"].as_array().expect("findings");
    assert!(found.iter().any(|f| f["rule"] == "version-not-bumped" && f["level"] == "policy"));
    assert_eq!(report["summary"]["old-callers-new-plant"]["policy"], 1);
    // The SARIF result of version-not-bumped, under `--fail-on` `fail_on`.
    let sarif = |fail_on: &str| {
        let out =
            accord(&["check", new, "--against", old, "--format", "sarif", "--fail-on", fail_on]);
        let log: serde_json::Value = serde_json::from_slice(&out.stdout).expect("sarif");
        log["runs"][0]["results"]
            .as_array()
            .and_then(|r| r.iter().find(|r| r["ruleId"] == "version-not-bumped").cloned())
            .expect("a sarif result")
    };
    let result = sarif("breaking");
    assert_eq!(result["level"], "note", "{result}");
    assert_eq!(result["properties"]["accordLevel"], "policy");
    assert_eq!(result["properties"]["tags"][0], "policy");
    assert_eq!(sarif("policy")["level"], "error");
}

#[test]
fn json_with_a_baseline_is_the_versioned_check_report() {
    let out = accord(&["check", PUMP, "--against", OLD_PUMP, "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["version"], 1);
    assert_eq!(json["fails"], true);
    assert_eq!(json["failOn"], "breaking,policy");
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
    assert!(text.contains("::warning file=fixtures/contracts/pump-plant.types.json,line=349,col=9,title=undeclared-semantics::"), "{text}");
    assert!(text.lines().all(|l| l.starts_with("::")), "{text}");
}

/// Several contracts (files, a directory, a quoted glob) make one report in every format.
#[test]
fn several_contracts_make_one_report() {
    let queue = "fixtures/contracts/work-queue.types.json";
    let out = accord(&["check", PUMP, queue]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains(&format!("## {PUMP}\n")) && text.contains(&format!("## {queue}\n")),
        "{text}"
    );
    assert!(text.ends_with("contracts checked: 2; failing: none\n"), "{text}");

    let json = accord(&["check", "--format", "json", PUMP, queue]);
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    let contracts = report["contracts"].as_array().expect("one report with a contracts array");
    assert_eq!(contracts.len(), 2);
    assert_eq!(contracts[0]["contract"], PUMP);
    assert_eq!(contracts[1]["contract"], queue);
    assert_eq!(report["fails"], false);

    // A directory: every contract under it; a glob: every file it matches; each file once.
    let folder = stdout(&accord(&["check", "--format", "json", "fixtures/contracts"]));
    let glob =
        stdout(&accord(&["check", "--format", "json", "fixtures/contracts/*.types.json", PUMP]));
    assert_eq!(folder, glob);
    let folder: serde_json::Value = serde_json::from_str(&folder).expect("JSON");
    let names: Vec<&str> = folder["contracts"]
        .as_array()
        .expect("contracts")
        .iter()
        .map(|c| c["contract"].as_str().expect("name"))
        .collect();
    assert!(names.len() >= 3 && names.contains(&PUMP) && names.contains(&queue), "{names:?}");

    // An unreadable contract among readable ones: in the report, and exit 2.
    let broken = "fixtures/refused/truncated.types.json";
    let sarif = accord(&["check", "--format", "sarif", PUMP, broken]);
    assert_eq!(sarif.status.code(), Some(2));
    let sarif: serde_json::Value = serde_json::from_slice(&sarif.stdout).expect("SARIF");
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    assert!(results.iter().any(|r| r["ruleId"] == "truncated"), "{results:?}");
    assert!(results.iter().any(|r| r["ruleId"] == "undeclared-semantics"), "{results:?}");
    let text = accord(&["check", PUMP, broken]);
    assert_eq!(text.status.code(), Some(2));
    assert!(
        stdout(&text).contains(&format!("## {broken}\nerror[truncated]: cannot be read: ")),
        "{}",
        stdout(&text)
    );
    let junit = stdout(&accord(&["check", "--format", "junit", PUMP, broken]));
    assert!(junit.contains(&format!("<testsuite name=\"{PUMP}\"")), "{junit}");
    assert!(junit.contains(&format!("<testsuite name=\"{broken}\"")), "{junit}");

    let none = accord(&["check", "fixtures/contracts/*.nothing.json"]);
    assert_eq!(none.status.code(), Some(2));
    assert!(stderr(&none).contains("no file matches"), "{}", stderr(&none));
}

/// The README's main job prints what the README shows, word for word: its command's output is
/// the block after it (a change of layout or wording must update the README too).
#[test]
fn the_readme_shows_the_main_job_as_it_prints() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README");
    let command = "accord check fixtures/contracts/pump-plant.types.json --against fixtures/baselines/pump-plant.v2.2.0.types.json\n```\n";
    let after = &readme[readme.find(command).expect("the README's main job") + command.len()..];
    let block = after.split_once("```text\n").expect("an output block after it").1;
    let shown = &block[..block.find("```\n").expect("the block's end")];
    let out = accord(&["check", PUMP, "--against", OLD_PUMP]);
    assert_eq!(out.status.code(), Some(1));
    assert_same_text(shown, &stdout(&out));
}

fn assert_same_text(shown: &str, printed: &str) {
    if shown != printed {
        let diff = similar::TextDiff::from_lines(shown, printed)
            .unified_diff()
            .header("README.md", "accord check")
            .to_string();
        panic!("README.md's main-job output is stale; regenerate it:\n{diff}");
    }
}
