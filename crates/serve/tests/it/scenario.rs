//! `--scenario`: canned answers matched by method and params, checked against the contract at
//! startup; a bad file is refused at file:line:column.

use accord_serve::{Config, ScenarioSource};
use serde_json::json;

use crate::common::{call, contract, local_with, pump};

fn with(text: &str) -> Config {
    local_with(|c| {
        c.scenario = Some(ScenarioSource { file: "plant.scenario.json".into(), text: text.into() });
    })
}

const GOOD: &str = r#"{
  "scenario": 1,
  "answers": [
    {"method": "pump.status", "params": {"pump": "P-404"},
     "error": {"code": -32004, "data": {"pump": "P-404"}}},
    {"method": "pump.getSpeed", "params": ["P-101"], "result": 1234},
    {"method": "pump.getSpeed", "result": 0, "delayMs": 1}
  ]
}"#;

#[tokio::test]
async fn canned_answers_match_by_method_and_params() {
    let server = pump(with(GOOD)).await;
    let error = call(&server, "pump.status", json!(["P-404"])).await;
    assert_eq!(
        error["error"],
        json!({"code": -32004, "message": "unknown pump", "data": {"pump": "P-404"}})
    );
    assert_eq!(call(&server, "pump.getSpeed", json!({"pump": "P-101"})).await["result"], 1234);
    assert_eq!(call(&server, "pump.getSpeed", json!(["P-102"])).await["result"], 0, "any params");
    let invalid = call(&server, "pump.getSpeed", json!([5])).await;
    assert_eq!(invalid["error"]["code"], -32602, "params are checked before the scenario");
    server.shutdown().await;
}

#[tokio::test]
async fn a_bad_scenario_is_refused_where_it_is_wrong() {
    let cases = [
        ("not_json", "{\n  \"scenario\": 1,\n  \"answers\": [\n"),
        (
            "duplicate_key",
            "{\"scenario\": 1, \"answers\": [\n  {\"method\": \"pump.getSpeed\", \"result\": 1, \"result\": 2}\n]}",
        ),
        ("unknown_format", "{\"scenario\": 2, \"answers\": []}"),
        (
            "unknown_method",
            "{\"scenario\": 1, \"answers\": [\n  {\"method\": \"pump.fly\", \"result\": 1}\n]}",
        ),
        (
            "invalid_result",
            "{\"scenario\": 1, \"answers\": [\n  {\"method\": \"pump.getSpeed\",\n   \"result\": \"fast\"}\n]}",
        ),
        (
            "invalid_params",
            "{\"scenario\": 1, \"answers\": [\n  {\"method\": \"pump.status\", \"params\": {\"pump\": 3}, \"result\": null}\n]}",
        ),
        (
            "undeclared_error",
            "{\"scenario\": 1, \"answers\": [\n  {\"method\": \"pump.list\", \"error\": {\"code\": -32099}}\n]}",
        ),
        (
            "error_data_invalid",
            "{\"scenario\": 1, \"answers\": [\n  {\"method\": \"pump.status\", \"error\": {\"code\": -32004, \"data\": {\"pump\": 1}}}\n]}",
        ),
        (
            "result_and_error",
            "{\"scenario\": 1, \"answers\": [\n  {\"method\": \"pump.getSpeed\", \"result\": 1, \"error\": {\"code\": 1}}\n]}",
        ),
    ];
    for (name, text) in cases {
        let err = accord_serve::start(contract("pump-plant"), with(text)).await.unwrap_err();
        insta::assert_snapshot!(format!("scenario_{name}"), err.to_string());
    }
}
