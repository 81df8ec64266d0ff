//! Events over a WebSocket: subscribe, notifications on demand and on an interval, payloads
//! valid for the event's type, unsubscribe.

use std::time::Duration;

use accord_validate::{Contract, Target};
use serde_json::{Value, json};

use crate::common::{contract, local, local_with, next, pump, ws, ws_call};

fn payload_is_valid(event: &str, payload: &Value) {
    let doc = contract("pump-plant");
    let compiled = Contract::compile(&doc).unwrap();
    let (namespace, name) = event.split_once('.').unwrap();
    let target = Target::Event { namespace: namespace.into(), event: name.into() };
    compiled.validator(&target).unwrap().validate(payload).unwrap();
}

#[tokio::test]
async fn emit_sends_one_valid_notification_per_subscription() {
    let server = pump(local()).await;
    let mut socket = ws(&server, None).await.unwrap();
    let first = ws_call(&mut socket, "rpc.subscribe", json!({"event": "pump.alarm"})).await;
    let second = ws_call(&mut socket, "rpc.subscribe", json!(["pump.alarm"])).await;
    let other = ws_call(&mut socket, "rpc.subscribe", json!({"event": "tank.levelAlarm"})).await;
    let ids: Vec<&str> =
        [&first, &second, &other].iter().map(|r| r["result"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), 3);
    assert!(ids[0] != ids[1] && ids[1] != ids[2] && ids[0] != ids[2], "{ids:?}");

    crate::common::send(
        &mut socket,
        r#"{"jsonrpc": "2.0", "id": 9, "method": "rpc.fake", "params": {"emit": "pump.alarm"}}"#,
    )
    .await;
    let mut seen = Vec::new();
    for _ in 0..2 {
        let note = next(&mut socket).await.unwrap();
        assert_eq!(note["method"], "rpc.event");
        assert!(note.get("id").is_none());
        assert_eq!(note["params"]["event"], "pump.alarm");
        payload_is_valid("pump.alarm", &note["params"]["payload"]);
        seen.push(note["params"]["subscription"].as_str().unwrap().to_owned());
    }
    seen.sort();
    let mut want = vec![ids[0].to_owned(), ids[1].to_owned()];
    want.sort();
    assert_eq!(seen, want);
    let answer = next(&mut socket).await.unwrap();
    assert_eq!(answer, json!({"jsonrpc": "2.0", "id": 9, "result": {"emitted": 2}}));

    let gone = ws_call(&mut socket, "rpc.unsubscribe", json!({"subscription": ids[0]})).await;
    assert_eq!(gone["result"], true);
    let again = ws_call(&mut socket, "rpc.unsubscribe", json!({"subscription": ids[0]})).await;
    assert_eq!(again["result"], false);
    let emitted = ws_call(&mut socket, "rpc.fake", json!({"emit": "valve.moved"})).await;
    assert_eq!(emitted["result"]["emitted"], 0);
    server.shutdown().await;
}

#[tokio::test]
async fn unknown_events_and_emit_over_http_are_refused() {
    let server = pump(local()).await;
    let mut socket = ws(&server, None).await.unwrap();
    let unknown = ws_call(&mut socket, "rpc.subscribe", json!({"event": "pump.explosion"})).await;
    insta::assert_json_snapshot!("subscribe_unknown_event", unknown);
    let missing = ws_call(&mut socket, "rpc.subscribe", json!({})).await;
    assert_eq!(missing["error"]["code"], -32602);
    let emit_unknown = ws_call(&mut socket, "rpc.fake", json!({"emit": "pump.explosion"})).await;
    assert_eq!(emit_unknown["error"]["code"], -32602);
    let over_http = crate::common::call(&server, "rpc.fake", json!({"emit": "pump.alarm"})).await;
    insta::assert_json_snapshot!("emit_over_http", over_http);
    server.shutdown().await;
}

#[tokio::test]
async fn notifications_arrive_on_the_interval() {
    let config = local_with(|c| c.event_interval = Some(Duration::from_millis(5)));
    let server = pump(config).await;
    let mut socket = ws(&server, None).await.unwrap();
    let sub = ws_call(&mut socket, "rpc.subscribe", json!({"event": "valve.moved"})).await;
    let id = sub["result"].as_str().unwrap().to_owned();
    let mut payloads = Vec::new();
    while payloads.len() < 5 {
        let note = next(&mut socket).await.unwrap();
        assert_eq!(note["params"]["subscription"], id.as_str());
        payload_is_valid("valve.moved", &note["params"]["payload"]);
        payloads.push(note["params"]["payload"].clone());
    }
    server.shutdown().await;
}
