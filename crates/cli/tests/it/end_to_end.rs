//! End-to-end tests of the `accord` binary: exit codes, diagnostics, and fmt's promises.

use crate::common::*;

use std::path::{Path, PathBuf};

fn relative(path: &Path) -> String {
    path.strip_prefix(root()).expect("under the root").to_string_lossy().into_owned()
}

fn documents_in(folder: &str) -> Vec<PathBuf> {
    let mut all: Vec<PathBuf> = std::fs::read_dir(root().join(folder))
        .expect("fixture folder")
        .map(|entry| entry.expect("entry").path())
        .filter(|p| p.to_string_lossy().ends_with(".types.json"))
        .collect();
    all.sort();
    assert!(!all.is_empty(), "no documents in {folder}");
    all
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).expect("read")).expect("JSON")
}

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

#[test]
fn every_refusal_exits_2_with_its_diagnostic() {
    insta::glob!("../../../../fixtures/refused", "*.types.json", |path| {
        let out = accord(&["inspect", &relative(path)]);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(out.stdout.is_empty(), "a refused document prints no summary");
        insta::assert_snapshot!(stderr(&out));
    });
}

#[test]
fn an_unread_schema_number_names_both_numbers() {
    let out = accord(&["inspect", "fixtures/refused/schema-2.types.json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out)
            .contains("this document is schema 2; this accord reads schema 1: upgrade accord"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn fmt_keeps_every_value_of_future_documents_and_is_idempotent() {
    let dir = scratch("fmt-future");
    for original in
        documents_in("fixtures/future").into_iter().chain(documents_in("fixtures/contracts"))
    {
        let copy = dir.join(original.file_name().expect("file name"));
        std::fs::copy(&original, &copy).expect("copy");
        let copy_arg = copy.to_string_lossy().into_owned();

        let first = accord(&["fmt", &copy_arg]);
        assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
        assert_eq!(json(&original), json(&copy), "fmt changed a value of {}", original.display());

        let once = std::fs::read(&copy).expect("read");
        let second = accord(&["fmt", &copy_arg]);
        assert_eq!(second.status.code(), Some(0), "{}", stderr(&second));
        assert_eq!(once, std::fs::read(&copy).expect("read"), "fmt twice differs from fmt once");

        let check = accord(&["fmt", "--check", &copy_arg]);
        assert_eq!(
            check.status.code(),
            Some(0),
            "a formatted file passes --check: {}",
            stderr(&check)
        );
    }
}

/// The contracts the repository ships — the examples' and the work queue's, the baseline, the
/// benchmark contracts — are in canonical form: `fmt --check` passes on every one, so a user's
/// first `fmt` of a copied contract changes nothing (issue 18, defect 4).
#[test]
fn every_bundled_contract_is_canonical() {
    let mut files = Vec::new();
    for folder in ["fixtures/contracts", "fixtures/baselines", "fixtures/bench"] {
        files.extend(documents_in(folder).iter().map(|p| relative(p)));
    }
    let mut args = vec!["fmt", "--check"];
    args.extend(files.iter().map(String::as_str));
    let out = accord(&args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "not canonical (run `accord fmt` on them):\n{}",
        stderr(&out)
    );
}

#[test]
fn fmt_check_exits_1_and_names_the_files_that_would_change() {
    let dir = scratch("fmt-check");
    let tidy = dir.join("tidy.types.json");
    let messy = dir.join("messy.types.json");
    std::fs::write(&tidy, "{ \"schema\": 1 }\n").expect("write");
    let messy_text = r#"{"x-later": 1, "schema": 1}"#;
    std::fs::write(&messy, messy_text).expect("write");
    let out = accord(&["fmt", "--check", &tidy.to_string_lossy(), &messy.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("messy.types.json"), "{stdout}");
    assert!(!stdout.contains("tidy.types.json"), "{stdout}");
    assert_eq!(
        std::fs::read_to_string(&messy).expect("read"),
        messy_text,
        "--check rewrites nothing"
    );
}

#[test]
fn fmt_stdout_prints_the_canonical_form() {
    let dir = scratch("fmt-stdout");
    let file = dir.join("a.types.json");
    std::fs::write(&file, r#"{"x-later": {"b": [1, 2.50]}, "schema": 1, "name": "a"}"#)
        .expect("write");
    let out = accord(&["fmt", "--stdout", &file.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    insta::assert_snapshot!(
        String::from_utf8_lossy(&out.stdout),
        @r#"{ "schema": 1, "name": "a", "x-later": { "b": [1, 2.5] } }"#
    );
}

#[test]
fn usage_and_io_errors_exit_2() {
    let missing = accord(&["inspect", "fixtures/no-such-file.types.json"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        stderr(&missing).contains("cannot read fixtures/no-such-file.types.json"),
        "{}",
        stderr(&missing)
    );

    let two = accord(&["fmt", "--stdout", "a.types.json", "b.types.json"]);
    assert_eq!(two.status.code(), Some(2));
    assert!(stderr(&two).contains("--stdout takes exactly one FILE"), "{}", stderr(&two));

    let unknown_flag = accord(&["inspect", "--frobnicate"]);
    assert_eq!(unknown_flag.status.code(), Some(2));
}

#[test]
fn inspect_marks_undeclared_methods() {
    let dir = scratch("inspect");
    let file = dir.join("a.types.json");
    std::fs::write(
        &file,
        r#"{"schema": 1, "namespaces": {"pump": {"version": "2.0.0", "component": {"name": "pumpd"},
          "methods": {
            "status": {"semantics": "read", "result": {"kind": "string"}},
            "prime": {"semantics": "append", "result": {"kind": "null"}},
            "purge": {"result": {"kind": "null"}, "deprecated": "use drain"}
          }}}}"#,
    )
    .expect("write");
    let out = accord(&["inspect", &file.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    insta::assert_snapshot!(String::from_utf8_lossy(&out.stdout), @r"
    schema 1 (this accord reads schema 1)
    1 namespace

    pump 2.0.0 (component pumpd)
      3 methods, 0 events, 0 types
      read         status
      undeclared   prime (semantics `append` unknown to this accord), purge [deprecated] — ask before pressing
    ");
}

/// Links and causes (format.md §5.11, §5.12): a line per method, a target in another namespace
/// named with it, the link's name shown when it is not the target's; in JSON, members only
/// where there are any.
#[test]
fn inspect_shows_links_and_causes() {
    let dir = scratch("inspect-links");
    let file = dir.join("a.types.json");
    std::fs::write(
        &file,
        r#"{"schema": 1, "namespaces": {
          "auth": {"version": "1.0.0", "methods": {"login": {"semantics": "write", "result": {"kind": "string"},
            "links": {"start": {"method": "start", "namespace": "pump", "params": {"token": "$result", "rpm": 1200}}}}}},
          "pump": {"version": "2.0.0", "methods": {
            "start": {"semantics": "write", "params": [{"name": "token", "type": {"kind": "string"}},
              {"name": "rpm", "type": {"kind": "integer"}}], "result": {"kind": "null"},
              "links": {"check": {"method": "status"}}, "causes": [{"event": "started"}, {"event": "raised", "namespace": "alarms"}]},
            "status": {"semantics": "read", "result": {"kind": "string"}}},
            "events": {"started": {"payload": {"kind": "null"}}}}}}"#,
    )
    .expect("write");
    let out = accord(&["inspect", &file.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    insta::assert_snapshot!(String::from_utf8_lossy(&out.stdout), @r"
    schema 1 (this accord reads schema 1)
    2 namespaces

    auth 1.0.0
      1 method, 0 events, 0 types
      write        login
      links        login → pump.start (token = $result, rpm = 1200)

    pump 2.0.0
      2 methods, 1 event, 0 types
      read         status
      write        start
      links        start → check: status
      causes       start: started, alarms.raised
    ");
    let out = accord(&["inspect", "--format", "json", &file.to_string_lossy()]);
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(
        summary["namespaces"][1]["causes"],
        serde_json::json!([
            { "method": "start", "event": "pump.started" },
            { "method": "start", "event": "alarms.raised" }
        ])
    );
    assert_eq!(summary["namespaces"][0]["links"][0]["to"], "pump.start");
    assert!(summary["namespaces"][0].get("causes").is_none(), "no causes, no member");
}

#[test]
fn validate_exits_0_for_valid_and_1_for_invalid_values() {
    let ok = accord_with_stdin(
        &["validate", PUMP, "--params", "pump.setSpeed"],
        r#"{"pump": "P-101", "rpm": 1200}"#,
    );
    assert_eq!(ok.status.code(), Some(0), "{}{}", String::from_utf8_lossy(&ok.stdout), stderr(&ok));
    assert_eq!(String::from_utf8_lossy(&ok.stdout), "valid\n");

    let bad =
        accord_with_stdin(&["validate", PUMP, "--params", "pump.setSpeed"], r#"["P-101", 99999]"#);
    assert_eq!(bad.status.code(), Some(1));
    insta::assert_snapshot!(String::from_utf8_lossy(&bad.stdout), @r"
    invalid: 1 error
      /1: expected at most 3600, found the integer 99999 [max]
    ");

    let json = accord_with_stdin(
        &["validate", PUMP, "--params", "pump.setSpeed", "--format", "json"],
        r#"{"rpm": "fast"}"#,
    );
    assert_eq!(json.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON report");
    assert_eq!(report["valid"], false);
    assert_eq!(report["errors"][0]["pointer"], "/rpm");
    assert_eq!(report["errors"][0]["rule"], "type");
}

#[test]
fn validate_of_a_file_that_is_not_json_exits_2() {
    let dir = scratch("validate-garbage");
    let file = dir.join("garbage.bin");
    std::fs::write(&file, [0x7f, b'E', b'L', b'F', 0, 1, 0xff, 0xfe]).expect("write");
    let out = accord(&["validate", PUMP, "--params", "pump.setSpeed", &file.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(2), "{}{}", stdout(&out), stderr(&out));
    assert!(stderr(&out).contains("garbage.bin is not JSON"), "{}", stderr(&out));
    let text = accord_with_stdin(&["validate", PUMP, "--params", "pump.setSpeed"], "not json");
    assert_eq!(text.status.code(), Some(2), "{}", stderr(&text));
    assert!(stderr(&text).contains("stdin is not JSON"), "{}", stderr(&text));
}

#[test]
fn validate_jsonl_summarises_every_line() {
    let lines = "{\"pump\": \"P-101\", \"rpm\": 1200}\n\n[\"P-102\", -1]\nnot json\n{\"pump\": \"P-103\", \"rpm\": 10}\n";
    let out = accord_with_stdin(&["validate", PUMP, "--params", "pump.setSpeed", "--jsonl"], lines);
    assert_eq!(out.status.code(), Some(1));
    insta::assert_snapshot!(String::from_utf8_lossy(&out.stdout), @r"
    4 values: 2 valid, 2 invalid
    line 3: /1: expected at least 0, found the integer -1 [min]
    line 4: (root): expected JSON: `true`, `false` or `null`, found `not json` at byte 0 [syntax]
    ");
}

#[test]
fn validate_usage_errors_exit_2() {
    for args in [
        &["validate", PUMP, "-"][..],
        &["validate", PUMP, "--params", "nodot"],
        &["validate", PUMP, "--params", "pump.nosuch"],
        &["validate", PUMP, "--params", "pump.start", "--result", "pump.start"],
        &["validate", "fixtures/refused/schema-2.types.json", "--type", "pump.Speed"],
    ] {
        let out = accord_with_stdin(args, "{}");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn export_jsonschema_of_a_type_and_of_the_whole_contract() {
    let one = accord(&[
        "export",
        "jsonschema",
        "fixtures/contracts/work-queue.types.json",
        "--type",
        "queue.JobId",
    ]);
    assert_eq!(one.status.code(), Some(0), "{}", stderr(&one));
    insta::assert_snapshot!(String::from_utf8_lossy(&one.stdout), @r#"
    {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "string",
      "format": "uuid",
      "description": "A job's id, assigned by enqueue (UUID v4)."
    }
    "#);

    let all = accord(&["export", "jsonschema", "fixtures/contracts/work-queue.types.json"]);
    assert_eq!(all.status.code(), Some(0), "{}", stderr(&all));
    let schema: serde_json::Value = serde_json::from_slice(&all.stdout).expect("JSON");
    assert!(schema["$defs"]["queue.enqueue.params"].is_object());
    assert!(schema["$defs"]["queue.Job"].is_object());
    let missing = accord(&[
        "export",
        "jsonschema",
        "fixtures/contracts/work-queue.types.json",
        "--type",
        "queue.Nope",
    ]);
    assert_eq!(missing.status.code(), Some(2));
}

#[test]
fn sample_is_deterministic_and_its_values_validate() {
    let args = ["sample", PUMP, "--params", "pump.start", "--seed", "7", "--count", "20"];
    let first = accord(&args);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    assert_eq!(first.stdout, accord(&args).stdout, "the same seed gives the same values");
    let lines = String::from_utf8_lossy(&first.stdout).into_owned();
    assert_eq!(lines.lines().count(), 20);
    let check = accord_with_stdin(&["validate", PUMP, "--params", "pump.start", "--jsonl"], &lines);
    assert_eq!(
        String::from_utf8_lossy(&check.stdout).lines().next(),
        Some("20 values: 20 valid, 0 invalid")
    );
    // `--seed 7 --count 20` ends where `--seed 26 --count 1` begins.
    let last = accord(&["sample", PUMP, "--params", "pump.start", "--seed", "26"]);
    assert_eq!(
        String::from_utf8_lossy(&last.stdout).trim(),
        lines.lines().last().unwrap_or_default()
    );
}

const FOREIGN: &str = "fixtures/future/foreign-wire.types.json";

#[test]
fn value_commands_take_a_wire_name_as_well_as_the_contract_name() {
    // docs/wire.md §11.1: `eth.getBalance` is called `eth_getBalance` on this `_` wire, and
    // `net.peers` is called `net_peerCount` (a `wire.methods` entry); either spelling names it.
    let params = r#"["0x407d73d8a49eeb85d32cf465507dd71d507100c1", "latest"]"#;
    for name in ["eth_getBalance", "eth.getBalance"] {
        let ok = accord_with_stdin(&["validate", FOREIGN, "--params", name], params);
        assert_eq!(ok.status.code(), Some(0), "{name}: {}", stderr(&ok));
        let bad =
            accord_with_stdin(&["validate", FOREIGN, "--params", name], r#"["nope", "latest"]"#);
        assert_eq!(bad.status.code(), Some(1), "{name}: {}", stderr(&bad));
    }
    for name in ["net_peerCount", "net.peers"] {
        let ok = accord_with_stdin(&["validate", FOREIGN, "--result", name], r#""0x2""#);
        assert_eq!(ok.status.code(), Some(0), "{name}: {}", stderr(&ok));
        let bad = accord_with_stdin(&["validate", FOREIGN, "--result", name], "2");
        assert_eq!(bad.status.code(), Some(1), "{name}: {}", stderr(&bad));
    }
    // `net_peers` is neither the wire name nor the contract's name.
    let wrong = accord_with_stdin(&["validate", FOREIGN, "--result", "net_peers"], r#""0x2""#);
    assert_eq!(wrong.status.code(), Some(2));

    let by_wire =
        accord(&["sample", FOREIGN, "--params", "eth_getBalance", "--seed", "3", "--count", "5"]);
    let by_name =
        accord(&["sample", FOREIGN, "--params", "eth.getBalance", "--seed", "3", "--count", "5"]);
    assert_eq!(by_wire.status.code(), Some(0), "{}", stderr(&by_wire));
    assert_eq!(by_wire.stdout, by_name.stdout, "one method, one sample");
    let lines = String::from_utf8_lossy(&by_wire.stdout).into_owned();
    let check =
        accord_with_stdin(&["validate", FOREIGN, "--params", "eth_getBalance", "--jsonl"], &lines);
    assert_eq!(
        String::from_utf8_lossy(&check.stdout).lines().next(),
        Some("5 values: 5 valid, 0 invalid")
    );

    let by_wire = accord(&["export", "jsonschema", FOREIGN, "--result", "net_peerCount"]);
    let by_name = accord(&["export", "jsonschema", FOREIGN, "--result", "net.peers"]);
    assert_eq!(by_wire.status.code(), Some(0), "{}", stderr(&by_wire));
    assert_eq!(by_wire.stdout, by_name.stdout);
}

#[test]
fn an_unknown_wire_name_names_both_spellings_of_a_close_one() {
    let close = accord_with_stdin(&["validate", FOREIGN, "--params", "eth_getBalanse"], "[]");
    assert_eq!(close.status.code(), Some(2));
    insta::assert_snapshot!(stderr(&close), @"error: --params: the contract has no method called `eth_getBalanse`; did you mean `eth_getBalance` (`eth.getBalance`)?");
    let far = accord(&["sample", FOREIGN, "--result", "web3_clientVersion"]);
    assert_eq!(far.status.code(), Some(2));
    insta::assert_snapshot!(stderr(&far), @"error: --result: the contract has no method called `web3_clientVersion`: name one by its wire name or as NAMESPACE.METHOD, such as `eth_blockNumber` (`eth.blockNumber`)");
}

/// On accord's own wire a misspelt NAMESPACE.METHOD gets its did-you-mean too.
#[test]
fn a_misspelt_method_on_accords_wire_gets_a_did_you_mean() {
    let close = accord_with_stdin(&["validate", PUMP, "--params", "pump.strat"], "{}");
    assert_eq!(close.status.code(), Some(2));
    insta::assert_snapshot!(stderr(&close), @"error: --params: the contract has no method called `pump.strat`; did you mean `pump.start`?");
}

/// `accord init NAME` writes a starter contract that is canonical and lints clean, prints what
/// to do next, and never overwrites a file (issue 18: a newcomer's first contract).
#[test]
fn init_writes_a_canonical_starter_that_lints_clean_and_never_overwrites() {
    let dir = scratch("init");
    let out = accord_in(&dir, &["init", "pump"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).starts_with("wrote pump.types.json: namespace `pump`"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("accord check pump.types.json"), "{}", stderr(&out));
    let fmt = accord_in(&dir, &["fmt", "--check", "pump.types.json"]);
    assert_eq!(fmt.status.code(), Some(0), "the starter is canonical: {}", stderr(&fmt));
    let check = accord_in(&dir, &["check", "pump.types.json"]);
    assert_eq!(check.status.code(), Some(0), "{}", stderr(&check));
    assert_eq!(stdout(&check), "0 errors, 0 warnings\n");
    let before = std::fs::read(dir.join("pump.types.json")).expect("read");

    let again = accord_in(&dir, &["init", "pump"]);
    assert_eq!(again.status.code(), Some(2));
    assert!(stderr(&again).contains("already exists"), "{}", stderr(&again));
    assert_eq!(std::fs::read(dir.join("pump.types.json")).expect("read"), before);

    let bad = accord_in(&dir, &["init", "pump.station"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("cannot name a namespace"), "{}", stderr(&bad));
}
