//! The Ethereum execution API imported by `accord import openrpc`, held to the spec's own
//! conformance vectors (fixtures/import/execution-apis/source/tests, 232 `.io` files recorded
//! from a real node) and served by `accord serve`:
//!
//! - every recorded answer of a successful call validates against the imported contract, except
//!   the ones listed in `RESULTS_THE_SPEC_FORBIDS` (each says why);
//! - every recorded invalid-params answer is for params the contract refuses too, except the
//!   ones listed in `REFUSED_FOR_WHAT_NO_SCHEMA_SAYS`, and `accord serve` of the import refuses
//!   those params with the recorded class (invalid params, -32602);
//! - `accord serve` of the import answers every other vector's request with a result that
//!   validates;
//! - `accord conform` against `accord serve` of the import passes every check but one, which the
//!   spec's own broken example of engine_newPayloadV5 causes;
//! - `accord import` writes the committed contract, `accord fmt --check` finds it canonical, and
//!   `accord check` reports the spec's own 80 findings.
//!
//! docs/interop.md lists the exceptions with the same reasons.

use std::path::PathBuf;
use std::process::Child;

use crate::common::*;
use accord_conform::{Line, Transcript};
use accord_schema_model::{Dialect, Document};
use accord_validate::{Contract, Target};
use serde_json::Value;

const CONTRACT: &str = "fixtures/import/execution-apis/expected.types.json";

/// Recorded successful answers the imported contract refuses, because the spec refuses them:
/// (file, why). The vectors were recorded from a node newer or older than the spec's schemas.
const RESULTS_THE_SPEC_FORBIDS: [(&str, &str); 2] = [
    (
        "eth_simulateV1/ethSimulate-run-out-of-gas-in-block-38015.io",
        "a failed call's error is {code: -32015, message: \"out of gas\"}; the spec's CallResultFailure requires a -32015 message to match ^vm execution error",
    ),
    (
        "eth_simulateV1/ethSimulate-use-as-many-features-as-possible.io",
        "the same: a -32015 error with the message \"out of gas\", which CallResultFailure's pattern ^vm execution error refuses",
    ),
];

/// Recorded invalid-params answers for params every schema of the spec admits: what makes them
/// invalid is the chain's state or a rule between params that the spec does not state as a
/// schema (or states with `not`, which the import reports as a loss). (file, why).
const REFUSED_FOR_WHAT_NO_SCHEMA_SAYS: [(&str, &str); 4] = [
    (
        "eth_getLogs/filter-error-future-block-range.io",
        "the range reaches past the chain's head: the chain's state, not a schema",
    ),
    (
        "eth_getLogs/filter-error-invalid-blockHash-and-range.io",
        "blockHash beside fromBlock/toBlock: the spec says it with `not` (Filter/oneOf/0/not), a reported loss, so the contract admits it",
    ),
    (
        "eth_getLogs/filter-error-reversed-block-range.io",
        "fromBlock after toBlock: a rule between two members that no schema states",
    ),
    (
        "eth_getStorageValues/get-storage-values-empty-request.io",
        "an empty request: the spec's schema admits an empty object",
    ),
];

struct Vector {
    file: String,
    request: Value,
    response: Value,
}

fn vectors() -> Vec<Vector> {
    let dir = root().join("fixtures/import/execution-apis/source/tests");
    let mut files: Vec<PathBuf> = Vec::new();
    for method in std::fs::read_dir(&dir).expect("tests dir") {
        let method = method.expect("entry").path();
        if method.is_dir() {
            for f in std::fs::read_dir(&method).expect("method dir") {
                let f = f.expect("entry").path();
                if f.extension().is_some_and(|e| e == "io") {
                    files.push(f);
                }
            }
        }
    }
    files.sort();
    assert_eq!(files.len(), 232, "the vendored vectors");
    let mut out = Vec::new();
    for f in files {
        let name = f.strip_prefix(&dir).expect("under").display().to_string();
        let transcript =
            Transcript::parse(&std::fs::read_to_string(&f).expect("read")).expect("a transcript");
        let mut request = None;
        for line in transcript.lines {
            match line {
                Line::Sent(text) => request = Some(serde_json::from_str(&text).expect("json")),
                Line::Received(text) => out.push(Vector {
                    file: name.clone(),
                    request: request.take().expect("a request before its answer"),
                    response: serde_json::from_str(&text).expect("json"),
                }),
                Line::Note(_) => {}
            }
        }
    }
    out
}

struct Judge {
    contract: Contract,
    dialect: Dialect,
}

impl Judge {
    fn new() -> Judge {
        let text = std::fs::read_to_string(root().join(CONTRACT)).expect("contract");
        let doc = Document::parse(&text).expect("reads");
        let dialect = Dialect::of(&doc).expect("resolves");
        Judge { contract: Contract::compile(&doc).expect("compiles"), dialect }
    }

    fn target(&self, v: &Vector, params: bool) -> Target {
        let wire = v.request["method"].as_str().expect("method");
        let route = self
            .dialect
            .method(wire)
            .unwrap_or_else(|| panic!("{}: {wire} not in the contract", v.file));
        let (namespace, method) = (route.namespace.clone(), route.method.clone());
        if params {
            Target::Params { namespace, method }
        } else {
            Target::Result { namespace, method }
        }
    }

    fn params_valid(&self, v: &Vector) -> bool {
        let params = v.request.get("params").cloned().unwrap_or(Value::Array(Vec::new()));
        self.contract.validator(&self.target(v, true)).expect("validator").is_valid(&params)
    }

    fn result_errors(&self, v: &Vector, result: &Value) -> Option<String> {
        let validator = self.contract.validator(&self.target(v, false)).expect("validator");
        validator.validate(result).err().map(|errors| format!("{:?}", errors[0].to_string()))
    }
}

#[test]
fn recorded_answers_validate_and_recorded_refusals_are_refused() {
    let judge = Judge::new();
    let vectors = vectors();
    let mut forbidden = Vec::new();
    let mut accepted = 0;
    let mut refused_alike = 0;
    let mut refused_otherwise = Vec::new();
    for v in &vectors {
        if let Some(result) = v.response.get("result") {
            match judge.result_errors(v, result) {
                None => accepted += 1,
                Some(why) => forbidden.push((v.file.clone(), why)),
            }
        } else if v.response["error"]["code"] == -32602 {
            if judge.params_valid(v) {
                refused_otherwise.push(v.file.clone());
            } else {
                refused_alike += 1;
            }
        }
    }
    // The figures docs/interop.md gives.
    assert_eq!((vectors.len(), accepted, refused_alike), (236, 187, 7));
    for (f, why) in &forbidden {
        eprintln!("forbidden: {f}: {why}");
    }
    let listed: Vec<&str> = RESULTS_THE_SPEC_FORBIDS.iter().map(|(f, _)| *f).collect();
    assert_eq!(forbidden.iter().map(|(f, _)| f.as_str()).collect::<Vec<_>>(), listed);
    let listed: Vec<&str> = REFUSED_FOR_WHAT_NO_SCHEMA_SAYS.iter().map(|(f, _)| *f).collect();
    assert_eq!(refused_otherwise, listed);
}

/// Stops the plant however the test ends, so no server outlives it.
struct Plant(Child);

impl Drop for Plant {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn accord_serve_of_the_import_answers_every_vector_and_refuses_what_the_contract_refuses() {
    let judge = Judge::new();
    let mut plant = Plant(spawn_serve(&[CONTRACT, "--addr", "127.0.0.1:0", "--seed", "5"]));
    let (_, url, _) = banner(&mut plant.0);
    let mut answered = 0;
    let mut refused = 0;
    for v in vectors() {
        let (status, body) = post_with(&url, "", &v.request.to_string());
        let answer: Value =
            serde_json::from_str(&body).unwrap_or_else(|e| panic!("{}: {e}: {body}", v.file));
        if judge.params_valid(&v) {
            let result =
                answer.get("result").unwrap_or_else(|| panic!("{}: {status} {body}", v.file));
            assert_eq!(judge.result_errors(&v, result), None, "{}: served {result}", v.file);
            answered += 1;
        } else {
            assert_eq!(answer["error"]["code"], -32602, "{}: {body}", v.file);
            refused += 1;
        }
    }
    assert_eq!((answered, refused), (229, 7));
    let (code, log) = terminate(&mut plant.0);
    assert_eq!(code, 0, "accord serve did not stop cleanly:\n{log}");
}

#[test]
fn accord_conform_against_accord_serve_of_the_import_fails_only_on_the_spec_s_own_broken_example() {
    let mut plant = Plant(spawn_serve(&[CONTRACT, "--addr", "127.0.0.1:0", "--seed", "7"]));
    let (_, url, _) = banner(&mut plant.0);
    let out = accord(&[
        "conform",
        CONTRACT,
        "--url",
        &url,
        "--allow",
        "idempotent,write,destructive,undeclared",
        "--calls",
        "2",
        "--seed",
        "11",
    ]);
    let report = stdout(&out);
    // One check fails, and the spec is why: the example of engine_newPayloadV5 documents a
    // result for params its own schema refuses (no `slotNumber`; expected.findings.txt has it
    // as invalid-example), so the served contract refuses them. Everything else passes.
    let failures: Vec<&str> = report.lines().filter(|l| l.starts_with("FAIL ")).collect();
    assert_eq!(
        failures,
        ["FAIL positive engine.newPayloadV5: example \"engine_newPayloadV5 example\""],
        "{report}"
    );
    assert!(report.contains("[example-refused]"), "{report}");
    assert!(report.contains("1 failed, 2 skipped"), "{report}");
    assert_eq!(out.status.code(), Some(1), "{report}\n{}", stderr(&out));
    let findings = std::fs::read_to_string(
        root().join("fixtures/import/execution-apis/expected.findings.txt"),
    )
    .unwrap();
    assert!(
        findings.contains(
            "invalid-example /namespaces/engine/methods/newPayloadV5/examples/0/params/0"
        )
    );
    let (code, log) = terminate(&mut plant.0);
    assert_eq!(code, 0, "accord serve did not stop cleanly:\n{log}");
}

#[test]
fn accord_import_writes_the_committed_contract_which_fmt_and_check_agree_on() {
    let dir = std::env::temp_dir().join(format!("accord-import-eth-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out_file = dir.join("eth.types.json");
    let report_file = dir.join("report.json");
    let out = accord(&[
        "import",
        "openrpc",
        "fixtures/import/execution-apis/source/openrpc.refs.json",
        "--config",
        "fixtures/import/execution-apis/accord.toml",
        "--out",
        out_file.to_str().unwrap(),
        "--report",
        report_file.to_str().unwrap(),
        "--strict",
    ]);
    assert_eq!(out.status.code(), Some(1), "--strict: 23 losses exit 1\n{}", stderr(&out));
    assert!(stderr(&out).contains("23 loss(es)"), "{}", stderr(&out));
    let written = std::fs::read_to_string(&out_file).unwrap();
    assert_eq!(written, std::fs::read_to_string(root().join(CONTRACT)).unwrap());
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(&report_file).unwrap()).unwrap();
    assert_eq!(report["losses"].as_array().map(Vec::len), Some(23));
    let fmt = accord(&["fmt", "--check", out_file.to_str().unwrap()]);
    assert_eq!(fmt.status.code(), Some(0), "{}", stderr(&fmt));
    let check = accord(&["check", out_file.to_str().unwrap()]);
    assert_eq!(check.status.code(), Some(1));
    assert!(
        stdout(&check).contains("80 errors, 0 warnings")
            || stderr(&check).contains("80 errors, 0 warnings")
    );
    // Without --strict the same losses are reported and the import succeeds.
    let lax = accord(&[
        "import",
        "openrpc",
        "fixtures/import/execution-apis/source/openrpc.refs.json",
        "--out",
        out_file.to_str().unwrap(),
    ]);
    assert_eq!(lax.status.code(), Some(0), "{}", stderr(&lax));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn accord_import_jsonschema_names_the_root_and_its_defs() {
    let dir = std::env::temp_dir().join(format!("accord-import-js-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let schema = dir.join("s.json");
    std::fs::write(&schema, r##"{"$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": {"Id": {"type": "string", "pattern": "^[a-z]+$"}},
        "type": "object", "properties": {"id": {"$ref": "#/$defs/Id"}, "n": {"not": {"const": 0}}}, "required": ["id"]}"##).unwrap();
    let out = accord(&[
        "import",
        "jsonschema",
        schema.to_str().unwrap(),
        "--name",
        "Thing",
        "--namespace",
        "things",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let types = &doc["namespaces"]["things"]["types"];
    assert_eq!(
        types["Thing"]["fields"]["id"]["type"],
        serde_json::json!({"kind": "ref", "name": "Id"})
    );
    assert_eq!(types["Id"]["pattern"], "^[a-z]+$");
    assert!(stderr(&out).contains("/properties/n/not: not (wider)"), "{}", stderr(&out));
    let strict =
        accord(&["import", "jsonschema", schema.to_str().unwrap(), "--name", "Thing", "--strict"]);
    assert_eq!(strict.status.code(), Some(1));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn accord_export_openrpc_then_import_gives_the_contract_back() {
    let dir = std::env::temp_dir().join(format!("accord-export-openrpc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let contract = "fixtures/contracts/pump-plant.types.json";
    let out = accord(&["export", "openrpc", contract]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let exported = dir.join("pump.openrpc.json");
    std::fs::write(&exported, stdout(&out)).unwrap();
    let back = accord(&["import", "openrpc", exported.to_str().unwrap(), "--strict"]);
    assert_eq!(back.status.code(), Some(0), "{}", stderr(&back));
    let original =
        Document::parse(&std::fs::read_to_string(root().join(contract)).unwrap()).unwrap();
    assert_eq!(stdout(&back), original.to_canonical_string());
    let _ = std::fs::remove_dir_all(&dir);
}
