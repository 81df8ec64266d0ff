//! Presence per direction (docs/format.md §14): params read `inputOptional`, results, events
//! and error data read `outputOptional`, a named type on its own reads `optional`; the
//! validators, the generator and the JSON Schema export all read it the same way.

use accord_schema_model::Document;
use accord_validate::{Contract, Target, json_schema};
use serde_json::json;

/// `Status.lastFault` may be absent when a caller sends it (optional) but the plant always
/// writes it (`outputOptional: false`); `note` is the other way round.
fn doc() -> Document {
    Document::parse(
        r#"{"schema": 1, "namespaces": {"pump": {"version": "1.0.0",
        "types": {"Status": {"kind": "object", "fields": {
            "lastFault": {"type": {"kind": "string"}, "optional": true, "outputOptional": false},
            "note": {"type": {"kind": "string"}, "inputOptional": true}
        }}},
        "methods": {
            "get": {"params": [], "result": {"kind": "ref", "name": "Status"}},
            "put": {"params": [{"name": "status", "type": {"kind": "ref", "name": "Status"}}],
                    "result": {"kind": "null"}}
        }}}}"#,
    )
    .unwrap()
}

fn target(kind: &str) -> Target {
    let (namespace, method) = ("pump".to_owned(), if kind == "params" { "put" } else { "get" });
    match kind {
        "params" => Target::Params { namespace, method: method.to_owned() },
        "result" => Target::Result { namespace, method: method.to_owned() },
        _ => Target::Type { namespace, name: "Status".to_owned() },
    }
}

#[test]
fn each_position_reads_its_own_presence() {
    let doc = doc();
    let contract = Contract::compile(&doc).unwrap();
    let result = contract.validator(&target("result")).unwrap();
    let params = contract.validator(&target("params")).unwrap();
    let plain = contract.validator(&target("type")).unwrap();

    // The plant always writes lastFault: a result without it is wrong.
    assert!(!result.is_valid(&json!({"note": "n"})));
    assert!(result.is_valid(&json!({"note": "n", "lastFault": "f"})));
    // `note` is optional on input only: the plant always writes it too.
    assert!(!result.is_valid(&json!({"lastFault": "f"})));
    // Callers may leave out both.
    assert!(params.is_valid(&json!({"status": {}})));
    // On its own the type reads `optional`: lastFault optional, note required.
    assert!(plain.is_valid(&json!({"note": "n"})));
    assert!(!plain.is_valid(&json!({})));
    // The bytes path agrees.
    assert!(!result.is_valid_bytes(br#"{"note": "n"}"#));
    assert!(params.is_valid_bytes(br#"{"status": {}}"#));
}

#[test]
fn generated_results_always_carry_what_the_plant_always_writes() {
    let doc = doc();
    let contract = Contract::compile(&doc).unwrap();
    let result = contract.validator(&target("result")).unwrap();
    let generator = result.generator();
    for seed in 0..64 {
        let value = generator.generate(seed).unwrap();
        assert!(value.get("lastFault").is_some(), "seed {seed}: {value}");
        assert!(result.is_valid(&value));
    }
}

#[test]
fn json_schema_export_reads_presence_per_target_and_per_def() {
    let doc = doc();
    let result = json_schema(&doc, &target("result")).unwrap();
    assert_eq!(result["$defs"]["pump.Status"]["required"], json!(["lastFault", "note"]));
    let params = json_schema(&doc, &target("params")).unwrap();
    assert!(params["$defs"]["pump.Status"].get("required").is_none(), "{params}");
    let whole = accord_validate::json_schema_of_contract(&doc).unwrap();
    let defs = &whole["$defs"];
    assert_eq!(defs["pump.Status"]["required"], json!(["note"]));
    assert_eq!(defs["pump.Status.output"]["required"], json!(["lastFault", "note"]));
    assert!(defs["pump.Status.input"].get("required").is_none());
    assert_eq!(defs["pump.get.result"]["$ref"], "#/$defs/pump.Status.output");
}
