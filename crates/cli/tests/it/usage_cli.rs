//! `accord usage` and `accord check --usage` on a saved metrics text (fixtures/usage/metrics.txt:
//! what `accord serve fixtures/usage/old.types.json --metrics-path /metrics` answered after a
//! describe call declaring 2.0.0, three calls of the deprecated `meter.readRaw`, one of
//! `meter.read` with its deprecated `unit`, one of `meter.configure` with the deprecated field
//! `Config.scale` and the `mode` `burst`, and one of `meter.sample`, 5.8 s after start, each an HTTP message of its
//! own), and on a source that cannot be reached.

use serde_json::Value;

use crate::common::*;

const CHECK: [&str; 4] =
    ["check", "fixtures/usage/new.types.json", "--against", "fixtures/usage/old.types.json"];

fn finding<'r>(report: &'r Value, path: &str) -> &'r Value {
    report["baselines"][0]["report"]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "method-removed" && f["path"] == path)
        .unwrap_or_else(|| panic!("{path} in {report}"))
}

/// The finding of `rule` at `path`.
fn finding_of<'r>(report: &'r Value, rule: &str, path: &str) -> &'r Value {
    report["baselines"][0]["report"]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == rule && f["path"] == path && f["pairing"] == "old-callers-new-plant")
        .unwrap_or_else(|| panic!("{rule} at {path} in {report}"))
}

fn check(extra: &[&str]) -> (Option<i32>, Value, String) {
    let args: Vec<&str> = CHECK.iter().chain(extra).copied().chain(["--format", "json"]).collect();
    let out = accord(&args);
    let report = serde_json::from_str(&stdout(&out)).unwrap_or(Value::Null);
    (out.status.code(), report, stderr(&out))
}

#[test]
fn evidence_is_added_and_only_the_gate_changes_a_level() {
    let (code, report, _) = check(&["--usage", "fixtures/usage/metrics.txt", "--window", "1s"]);
    assert_eq!(code, Some(1));
    let raw = finding(&report, "meter.readRaw");
    assert_eq!(raw["level"], "breaking");
    assert_eq!(raw["evidence"]["text"], "called 3 times in 1s, by callers declaring no version");
    let legacy = finding(&report, "meter.legacyTotal");
    assert_eq!(legacy["level"], "breaking", "no level change without --usage-gate");
    assert_eq!(legacy["evidence"]["count"], 0);
    assert_eq!(legacy["evidence"]["gatedFrom"], Value::Null);

    let (code, report, _) =
        check(&["--usage", "fixtures/usage/metrics.txt", "--window", "1s", "--usage-gate"]);
    assert_eq!(code, Some(1), "readRaw still fails the run");
    assert_eq!(finding(&report, "meter.readRaw")["level"], "breaking");
    let legacy = finding(&report, "meter.legacyTotal");
    assert_eq!(legacy["level"], "safe");
    assert_eq!(legacy["evidence"]["gatedFrom"], "breaking");
    assert_eq!(
        legacy["evidence"]["text"],
        "no use in 1s on 1 plant (fixtures/usage/metrics.txt); deprecated through the whole window, so --usage-gate reports the removal safe"
    );
}

#[test]
fn fields_of_named_types_carry_their_counts_and_only_an_unused_one_sent_in_params_is_gated() {
    const CLOSED: &str = "field-removed-from-closed-object";
    let saved = ["--usage", "fixtures/usage/metrics.txt", "--window", "1s"];
    let (_, report, _) = check(&saved);
    // Counted by type: the one call that sent `Config.scale`, through `meter.configure`.
    let scale = finding_of(&report, CLOSED, "meter.types.Config.scale");
    assert_eq!(scale["level"], "breaking");
    assert_eq!(
        scale["evidence"]["text"],
        "`Config.scale` sent 1 time in 1s, in the params of any method"
    );
    assert_eq!(scale["evidence"]["count"], 1);
    let legacy = finding_of(&report, CLOSED, "meter.types.Config.legacyMode");
    assert_eq!(legacy["level"], "breaking", "no level change without --usage-gate");
    assert_eq!(legacy["evidence"]["count"], 0);
    // A field callers read in a result: the calls of the methods that answer with it.
    let raw = finding_of(&report, "required-field-removed", "meter.types.Sample.raw");
    assert_eq!(
        raw["evidence"]["text"],
        "the methods that answer with `Sample` (meter.sample) were called 1 time in 1s, by callers declaring no version: their callers may read it (the plant does not count what callers read)"
    );

    let gated: Vec<&str> = saved.iter().copied().chain(["--usage-gate"]).collect();
    let (code, report, _) = check(&gated);
    assert_eq!(code, Some(1));
    assert_eq!(finding_of(&report, CLOSED, "meter.types.Config.scale")["level"], "breaking");
    let legacy = finding_of(&report, CLOSED, "meter.types.Config.legacyMode");
    assert_eq!(legacy["level"], "safe");
    assert_eq!(legacy["evidence"]["gatedFrom"], "breaking");
    assert_eq!(
        legacy["evidence"]["text"],
        "no use in 1s on 1 plant (fixtures/usage/metrics.txt); deprecated through the whole window, so --usage-gate reports the removal safe"
    );
    // The enum value 3.0.0 removes: the one configure call sent `burst`, never `legacy`; a
    // narrowing, so the level stands.
    let mode = finding_of(&report, "enum-value-removed", "meter.types.Config.mode");
    assert_eq!(mode["level"], "breaking");
    assert_eq!(
        mode["evidence"]["text"],
        "value \"legacy\" of `Config.mode` not sent in 1s on 1 plant (fixtures/usage/metrics.txt); a narrowing, which --usage-gate leaves at its level"
    );
    // What callers read is never gated, used or not.
    let raw = finding_of(&report, "required-field-removed", "meter.types.Sample.raw");
    assert_eq!(raw["level"], "breaking");
    assert_eq!(raw["evidence"]["gatedFrom"], Value::Null);
}

#[test]
fn a_short_or_unreachable_source_is_said_plainly_and_changes_no_level() {
    let (code, report, err) =
        check(&["--usage", "fixtures/usage/metrics.txt", "--window", "30d", "--usage-gate"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("covering only the last 5 s of the 30d window"), "{err}");
    let legacy = finding(&report, "meter.legacyTotal");
    assert_eq!(legacy["level"], "breaking");
    assert_eq!(
        legacy["evidence"]["text"],
        "no usage evidence for 30d: the source covers only the last 5 s; the level stands"
    );
    // Nothing listens on port 9 of loopback (discard; never started by the suite).
    let (code, report, err) = check(&["--usage", "http://127.0.0.1:9", "--usage-gate"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("unreachable: http://127.0.0.1:9 cannot be reached"), "{err}");
    let legacy = finding(&report, "meter.legacyTotal");
    assert_eq!(legacy["level"], "breaking");
    assert_eq!(legacy["evidence"]["covered"], false);
    assert!(legacy["evidence"]["text"].as_str().unwrap().ends_with("; the level stands"));
}

#[test]
fn sarif_and_text_carry_the_evidence() {
    let saved = ["--usage", "fixtures/usage/metrics.txt", "--window", "1s"];
    let args = |format: &'static str| -> Vec<&str> {
        CHECK.iter().chain(&saved).copied().chain(["--format", format]).collect()
    };
    let out = accord(&args("sarif"));
    let log: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let results = log["runs"][0]["results"].as_array().unwrap();
    let raw = results
        .iter()
        .find(|r| r["message"]["text"].as_str().unwrap().contains("meter.readRaw"))
        .unwrap();
    assert_eq!(raw["properties"]["accordUsage"]["count"], 3, "{raw}");
    assert!(raw["message"]["text"].as_str().unwrap().contains("(usage: called 3 times in 1s"));
    let text = stdout(&accord(&args("text")));
    assert!(
        text.contains("    usage: no use in 1s on 1 plant (fixtures/usage/metrics.txt)\n"),
        "{text}"
    );
}

#[test]
fn accord_usage_reports_a_saved_text_and_refuses_what_it_cannot_read() {
    let out = accord(&[
        "usage",
        "fixtures/usage/old.types.json",
        "--metrics",
        "fixtures/usage/metrics.txt",
        "--window",
        "1s",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "usage over 1s from fixtures/usage/metrics.txt: 1 plant, covering the whole window
meter.read: 1 call (by declared version: no version declared 1)
meter.read params.unit (deprecated): 1 use
meter.readRaw (deprecated): 3 calls (by declared version: no version declared 3)
meter.legacyTotal (deprecated): unused
meter.configure: 1 call (by declared version: no version declared 1)
meter.configure params.config.legacyMode (deprecated): unused
meter.configure params.config.scale (deprecated): 1 use
meter.sample: 1 call (by declared version: no version declared 1)
meter.types.Config.legacyMode (deprecated): unused
meter.types.Config.scale (deprecated): 1 use
versions seen:
  meter 2.0.0: 1 describe, 0 calls
  meter no version declared: 0 describe, 6 calls
reduced describe answers: 0 (no caller without a credential asked: the reduced answer can be contracted)
unused in 1s: meter.legacyTotal, meter.configure params.config.legacyMode, meter.types.Config.legacyMode
"
    );
    for (args, says) in [
        (
            vec!["--metrics", "fixtures/usage/nothing.txt"],
            "error: fixtures/usage/nothing.txt cannot be read",
        ),
        (
            vec!["--metrics", "fixtures/usage/old.types.json"],
            "error: fixtures/usage/old.types.json: line 1: `{` does not start with a metric name",
        ),
        (vec!["--prometheus", "http://127.0.0.1:9"], "error: the usage source cannot be read"),
        (vec!["--metrics", "fixtures/usage/metrics.txt", "--window", "1.5d"], "is not a duration"),
    ] {
        let mut all = vec!["usage", "fixtures/usage/old.types.json"];
        all.extend(args);
        let out = accord(&all);
        assert_eq!(out.status.code(), Some(2), "{all:?}");
        assert!(stderr(&out).contains(says), "{all:?}: {}", stderr(&out));
    }
    let out = accord(&[CHECK[0], CHECK[1], CHECK[2], CHECK[3], "--usage-gate"]);
    assert_eq!(out.status.code(), Some(2), "--usage-gate needs --usage");
}
