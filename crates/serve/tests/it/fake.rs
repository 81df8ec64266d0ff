//! `rpc.fake`: an example by name or index, a declared error, a delay, and its refusals.

use serde_json::json;

use crate::common::{call, local, pump};

#[tokio::test]
async fn an_example_by_name_or_index() {
    let server = pump(local()).await;
    let params = json!({"pump": "P-102"});
    let by_name = call(
        &server,
        "rpc.fake",
        json!({"call": {"method": "pump.status", "params": params}, "example": "pump after a trip"}),
    )
    .await;
    assert_eq!(by_name["result"]["pump"], "P-103", "the example's result, whatever the params");
    let by_index = call(
        &server,
        "rpc.fake",
        json!({"call": {"method": "pump.status", "params": params}, "example": 1}),
    )
    .await;
    assert_eq!(by_index["result"], by_name["result"]);
    server.shutdown().await;
}

#[tokio::test]
async fn a_declared_error_with_valid_data() {
    let server = pump(local()).await;
    let answer = call(
        &server,
        "rpc.fake",
        json!({"call": {"method": "pump.status", "params": ["P-101"]}, "error": -32004}),
    )
    .await;
    assert_eq!(answer["error"]["code"], -32004);
    assert_eq!(answer["error"]["message"], "unknown pump");
    assert!(answer["error"]["data"]["pump"].is_string());
    let no_data = call(
        &server,
        "rpc.fake",
        json!({"call": {"method": "pump.start", "params": {"pump": "P-101", "mode": {"kind": "manual", "rpm": 1200}}},
               "error": -32010, "delayMs": 1}),
    )
    .await;
    assert_eq!(no_data["error"]["code"], -32010);
    server.shutdown().await;
}

#[tokio::test]
async fn refusals_name_what_is_wrong() {
    let server = pump(local()).await;
    let cases = [
        (
            "fake_unknown_example",
            json!({"call": {"method": "pump.status", "params": ["P-101"]}, "example": "nope"}),
        ),
        (
            "fake_undeclared_error",
            json!({"call": {"method": "pump.status", "params": ["P-101"]}, "error": -1}),
        ),
        ("fake_invalid_call_params", json!({"call": {"method": "pump.status", "params": [1]}})),
        ("fake_unknown_method", json!({"call": {"method": "pump.fly"}})),
        ("fake_protocol_method", json!({"call": {"method": "rpc.describe"}})),
        ("fake_both_call_and_emit", json!({"call": {"method": "pump.list"}, "emit": "pump.alarm"})),
        ("fake_delay_too_long", json!({"call": {"method": "pump.list"}, "delayMs": 60001})),
    ];
    for (name, params) in cases {
        insta::assert_json_snapshot!(name, call(&server, "rpc.fake", params).await);
    }
    server.shutdown().await;
}
