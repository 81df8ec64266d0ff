//! `accord export jsonschema` against ajv 8, the most used JSON Schema validator, in its default
//! strict mode (draft 2020-12, ajv-formats for the formats): every bundled contract's export
//! compiles with no error and no strict-mode warning, and over generated values (valid ones and
//! their one-change mutants, for every target of every bundled contract) ajv's verdict is
//! accord's. ajv is pinned in crates/cli/tests/ajv/package.json and installed by `cargo xtask test`
//! (`npm ci` there).

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use accord_schema_model::Document;
use accord_validate::{Contract, Target, ValidationRule};
use serde_json::{Value, json};

use crate::common::*;

/// The bundled contracts: the examples' and the imported Ethereum execution API.
const CONTRACTS: [&str; 4] = [
    "fixtures/contracts/pump-plant.types.json",
    "fixtures/contracts/boiler-plant.types.json",
    "fixtures/contracts/work-queue.types.json",
    "fixtures/import/execution-apis/expected.types.json",
];

/// Runs ajv on `cases` (`[{schema, values}]`), one node process for all.
fn ajv(cases: &[Value]) -> Vec<Value> {
    let kit = root().join("crates/cli/tests/ajv");
    assert!(
        kit.join("node_modules/ajv/package.json").exists(),
        "ajv is not installed in {}: `cargo xtask test` installs it (`npm ci` in crates/cli/tests/ajv)",
        kit.display()
    );
    let mut child = Command::new("node")
        .arg(kit.join("ajv.cjs"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node runs (Debian's nodejs)");
    let request = serde_json::to_vec(cases).unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(&request));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(out.status.success(), "ajv.cjs: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("ajv.cjs answers JSON")
}

#[test]
fn ajv_strict_compiles_every_bundled_contracts_export() {
    let mut cases = Vec::new();
    for contract in CONTRACTS {
        let out = accord(&["export", "jsonschema", contract]);
        assert_eq!(out.status.code(), Some(0), "{contract}: {}", stderr(&out));
        let schema: Value = serde_json::from_str(&stdout(&out)).unwrap();
        assert!(!stdout(&out).contains("x-accord-"), "{contract}: no accord annotation by default");
        cases.push(json!({"schema": schema, "values": []}));
    }
    for (contract, answer) in CONTRACTS.iter().zip(ajv(&cases)) {
        assert_eq!(answer["errors"], json!([]), "{contract}: ajv strict refuses the export");
        assert_eq!(answer["warnings"], json!([]), "{contract}: ajv strict warns");
    }
    // With the opt-in flag the annotations are there, and strict ajv refuses them undeclared.
    let out = accord(&["export", "jsonschema", CONTRACTS[0], "--accord-annotations"]);
    assert!(stdout(&out).contains("x-accord-unit"));
    let schema: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let answer = &ajv(&[json!({"schema": schema, "values": []})])[0];
    assert!(answer["errors"].to_string().contains("unknown keyword"), "{answer}");
}

/// Values of a target: generated ones and their mutants, with accord's verdict and what the
/// mutant breaks. Mutants past accord's depth limit are left out: the limit has no JSON Schema
/// counterpart (format.md §10, the one documented difference of the export).
fn values_of(contract: &Contract, target: &Target) -> Vec<(Value, bool, String)> {
    let validator = contract.validator(target).unwrap();
    let mut out = Vec::new();
    for seed in 0..6 {
        let Ok(valid) = validator.generate(seed) else { continue };
        for m in validator.mutants(&valid, seed).into_iter().take(12) {
            if m.rule == ValidationRule::Depth {
                continue;
            }
            let verdict = validator.is_valid(&m.value);
            out.push((m.value, verdict, format!("{} ({})", m.description, m.rule.id())));
        }
        out.push((valid, true, "generated".to_owned()));
    }
    out
}

/// The one place ajv-formats is wider than RFC 3339: it takes a space for the `T` of a
/// date-time (its separator is `/t|\s/i`; RFC 3339 §5.6's grammar has `T` only, and JSON
/// Schema's `date-time` is that grammar). A value accord refuses for that reason alone is this
/// known difference of the peer, counted apart.
fn space_for_t(value: &Value) -> bool {
    match value {
        Value::String(s) => {
            s.len() > 10
                && s.as_bytes()[10] == b' '
                && accord_validate::Format::DateTime.check(&format!("{}T{}", &s[..10], &s[11..]))
        }
        Value::Array(items) => items.iter().any(space_for_t),
        Value::Object(m) => m.values().any(space_for_t),
        _ => false,
    }
}

#[test]
fn ajv_and_accord_validate_agree_on_generated_values() {
    let mut total = 0;
    let mut space_for_t_count = 0;
    let mut disagreements = Vec::new();
    for path in CONTRACTS {
        let text = std::fs::read_to_string(root().join(path)).unwrap();
        let doc = Document::parse(&text).unwrap();
        let contract = Contract::compile(&doc).unwrap();
        let mut targets: Vec<&Target> = contract.targets();
        targets.sort_by_key(|t| format!("{t:?}"));
        let mut cases = Vec::new();
        let mut expected = Vec::new();
        for target in &targets {
            let schema = accord_validate::json_schema(&doc, target).unwrap();
            let schema = accord_validate::strict_json_schema(schema, false);
            let values = values_of(&contract, target);
            cases.push(json!({"schema": schema, "values": values.iter().map(|(v, _, _)| v).collect::<Vec<_>>()}));
            expected.push(values);
        }
        let answers = ajv(&cases);
        for ((target, values), answer) in targets.iter().zip(&expected).zip(&answers) {
            assert_eq!(answer["errors"], json!([]), "{path} {target:?}");
            for ((value, accord, what), ajv) in
                values.iter().zip(answer["verdicts"].as_array().unwrap())
            {
                total += 1;
                if ajv.as_bool() != Some(*accord) {
                    if !accord && what.contains("date-time") && space_for_t(value) {
                        space_for_t_count += 1;
                        continue;
                    }
                    let value = value.to_string();
                    let value =
                        if value.len() > 200 { format!("{}…", &value[..200]) } else { value };
                    disagreements.push(format!(
                        "{} {target:?}: {what}: {value}: accord {accord}, ajv {ajv}",
                        Path::new(path).display()
                    ));
                }
            }
        }
    }
    assert!(total > 1000, "{total} values compared");
    assert!(
        disagreements.is_empty(),
        "{} of {total} values judged differently:\n{}",
        disagreements.len(),
        disagreements.iter().take(30).cloned().collect::<Vec<_>>().join("\n")
    );
    eprintln!(
        "ajv and accord agree on {} of {total} generated values; the other {space_for_t_count} are date-times with a space for `T`, which ajv-formats admits",
        total - space_for_t_count
    );
}
