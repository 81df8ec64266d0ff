//! The envelope over HTTP: every JSON-RPC error code, batches, notifications, status codes.

use accord_schema_model::Document;
use serde_json::{Value, json};

use crate::common::{local, post, post_with, pump};

#[tokio::test]
async fn every_envelope_error_has_its_code_and_data() {
    let server = pump(local()).await;
    let cases = [
        ("parse_error", r#"{"jsonrpc": "2.0", "id": 1, "method": "pump.list""#),
        ("not_an_object", "42"),
        ("wrong_jsonrpc", r#"{"jsonrpc": "1.0", "id": 1, "method": "pump.list"}"#),
        ("method_not_a_string", r#"{"jsonrpc": "2.0", "id": 2, "method": 7}"#),
        ("id_not_scalar", r#"{"jsonrpc": "2.0", "id": [1], "method": "pump.list"}"#),
        ("params_scalar", r#"{"jsonrpc": "2.0", "id": 3, "method": "pump.list", "params": 1}"#),
        ("empty_batch", "[]"),
        ("unknown_method", r#"{"jsonrpc": "2.0", "id": 4, "method": "pump.explode"}"#),
        ("unknown_namespace", r#"{"jsonrpc": "2.0", "id": 5, "method": "boiler.list"}"#),
        ("unknown_protocol_method", r#"{"jsonrpc": "2.0", "id": 6, "method": "rpc.discover"}"#),
        ("unqualified_method", r#"{"jsonrpc": "2.0", "id": 7, "method": "list"}"#),
        (
            "invalid_params_by_name",
            r#"{"jsonrpc": "2.0", "id": 8, "method": "pump.setSpeed", "params": {"pump": "X-1", "rpm": 99999, "extra": true}}"#,
        ),
        (
            "invalid_params_by_position",
            r#"{"jsonrpc": "2.0", "id": "s", "method": "pump.status", "params": [17]}"#,
        ),
        (
            "missing_required_param",
            r#"{"jsonrpc": "2.0", "id": 9, "method": "pump.status", "params": {}}"#,
        ),
        (
            "subscribe_over_http",
            r#"{"jsonrpc": "2.0", "id": 10, "method": "rpc.subscribe", "params": {"event": "pump.alarm"}}"#,
        ),
        (
            "describe_bad_version",
            r#"{"jsonrpc": "2.0", "id": 11, "method": "rpc.describe", "params": {"builtAgainst": {"pump": "two"}}}"#,
        ),
    ];
    for (name, body) in cases {
        let reply = post(&server, body).await;
        assert_eq!(reply.status, 200, "{name}");
        insta::assert_json_snapshot!(name, reply.body);
    }
    server.shutdown().await;
}

/// A contract whose result has no value the generator can make: the plant answers -32603
/// rather than send something invalid.
#[tokio::test]
async fn a_result_that_cannot_be_made_is_an_internal_error() {
    let doc = Document::parse(
        r#"{"schema": 1, "namespaces": {"odd": {"version": "1.0.0", "methods": {
            "code": {"semantics": "read", "result": {"kind": "string", "pattern": "^a{10}$", "maxLength": 3}}}}}}"#,
    )
    .unwrap();
    let server = accord_serve::start(doc, local()).await.unwrap();
    let reply = post(&server, r#"{"jsonrpc": "2.0", "id": 1, "method": "odd.code"}"#).await;
    insta::assert_json_snapshot!("internal_error", reply.body);
    server.shutdown().await;
}

#[tokio::test]
async fn batches_keep_order_and_leave_notifications_out() {
    let server = pump(local()).await;
    let batch = json!([
        {"jsonrpc": "2.0", "id": 1, "method": "pump.list"},
        {"jsonrpc": "2.0", "method": "pump.list"},
        {"jsonrpc": "2.0", "id": 2, "method": "pump.nothing"},
        7,
        {"jsonrpc": "2.0", "method": "pump.nothing"},
        {"jsonrpc": "2.0", "id": "three", "method": "pump.status", "params": ["P-101"]}
    ]);
    let reply = post(&server, &batch.to_string()).await;
    assert_eq!(reply.status, 200);
    let answers = reply.body.as_array().unwrap();
    let ids: Vec<&Value> = answers.iter().map(|a| &a["id"]).collect();
    assert_eq!(ids, [&json!(1), &json!(2), &Value::Null, &json!("three")]);
    assert!(answers[0]["result"].is_array());
    assert_eq!(answers[1]["error"]["code"], -32601);
    assert_eq!(answers[2]["error"]["code"], -32600);
    assert_eq!(answers[3]["result"]["pump"], "P-101");
    server.shutdown().await;
}

#[tokio::test]
async fn notifications_get_no_answer_not_even_an_error() {
    let server = pump(local()).await;
    for body in [
        r#"{"jsonrpc": "2.0", "method": "pump.list"}"#,
        r#"{"jsonrpc": "2.0", "method": "pump.nothing"}"#,
        r#"{"jsonrpc": "2.0", "method": "pump.status", "params": [1]}"#,
        r#"[{"jsonrpc": "2.0", "method": "pump.list"}, {"jsonrpc": "2.0", "method": "x"}]"#,
    ] {
        let reply = post(&server, body).await;
        assert_eq!((reply.status, reply.text.as_str()), (204, ""), "{body}");
    }
    server.shutdown().await;
}

#[tokio::test]
async fn http_status_codes_follow_the_wire() {
    let server = pump(local()).await;
    let wrong_type = post_with(
        &server,
        r#"{"jsonrpc": "2.0", "id": 1, "method": "pump.list"}"#,
        None,
        "text/plain",
    )
    .await;
    assert_eq!(wrong_type.status, 415);
    assert_eq!(wrong_type.body["error"]["code"], -32600);
    let with_charset = post_with(
        &server,
        r#"{"jsonrpc": "2.0", "id": 1, "method": "pump.list"}"#,
        None,
        "application/json; charset=utf-8",
    )
    .await;
    assert_eq!(with_charset.status, 200);
    let put = reqwest::Client::new().put(server.url()).body("{}").send().await.unwrap();
    assert_eq!(put.status().as_u16(), 405);
    assert_eq!(put.headers()["allow"], "GET, POST");
    let elsewhere = reqwest::Client::new()
        .post(format!("{}rpc", server.url()))
        .header("content-type", "application/json")
        .body(r#"{"jsonrpc": "2.0", "id": 1, "method": "pump.list"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(elsewhere.status().as_u16(), 404, "the plant is on / only");
    let get = reqwest::Client::new().get(server.url()).send().await.unwrap();
    assert_eq!(get.status().as_u16(), 426);
    assert_eq!(get.headers()["upgrade"], "websocket");
    let body: Value = serde_json::from_str(&get.text().await.unwrap()).unwrap();
    insta::assert_json_snapshot!("get_without_upgrade", body);
    server.shutdown().await;
}

#[tokio::test]
async fn a_contract_with_a_namespace_rpc_is_refused_at_startup() {
    let doc = Document::parse(
        r#"{"schema": 1, "namespaces": {"rpc": {"version": "1.0.0", "methods": {
            "describe": {"semantics": "read", "result": {"kind": "null"}}}}}}"#,
    )
    .unwrap();
    let err = accord_serve::start(doc, local()).await.unwrap_err();
    insta::assert_snapshot!(err.to_string(), @"the contract has a namespace called `rpc`; JSON-RPC reserves `rpc.` names for the protocol (rpc.describe, rpc.fake, ...), so its methods could never be called: rename the namespace");
}

/// Names given twice are refused, not read last-wins (the request-smuggling class): a member of
/// the envelope is `-32600` naming it, a key inside params `-32602` at its path.
#[tokio::test]
async fn names_given_twice_are_refused() {
    let server = pump(local()).await;
    let reply = post(&server, r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"pump.list"}"#).await;
    assert_eq!(reply.body["id"], Value::Null, "neither id is answered: {}", reply.text);
    assert_eq!(reply.body["error"]["code"], -32600);
    assert_eq!(reply.body["error"]["data"]["member"], "id");
    for (text, member) in [
        (r#"{"jsonrpc":"2.0","id":1,"method":"pump.list","method":"pump.explode"}"#, "method"),
        (r#"{"jsonrpc":"2.0","jsonrpc":"1.0","id":1,"method":"pump.list"}"#, "jsonrpc"),
        (r#"{"jsonrpc":"2.0","id":1,"method":"pump.list","params":{},"params":[]}"#, "params"),
    ] {
        let reply = post(&server, text).await;
        assert_eq!(reply.body["id"], 1, "{}", reply.text);
        assert_eq!(reply.body["error"]["code"], -32600, "{}", reply.text);
        assert_eq!(reply.body["error"]["data"]["member"], member, "{}", reply.text);
    }
    let reply = post(
        &server,
        r#"{"jsonrpc":"2.0","id":9,"method":"pump.status","params":{"pump":"bad","pump":"P-101"}}"#,
    )
    .await;
    assert_eq!(reply.body["id"], 9);
    assert_eq!(reply.body["error"]["code"], -32602, "{}", reply.text);
    assert_eq!(reply.body["error"]["data"]["errors"][0]["path"], "/pump");
    assert_eq!(reply.body["error"]["data"]["errors"][0]["rule"], "duplicate-key");
    server.shutdown().await;
}

/// A 900 KB batch of 100,000 tiny requests is one `-32003 batch-length`, refused as soon as
/// element 101 begins: what follows is never parsed, so a tail that is not JSON does not make
/// it a parse error (read whole first, it would be `-32700`).
#[tokio::test]
async fn a_huge_batch_is_refused_while_read() {
    let server = pump(local()).await;
    let batch = format!("[{}, not JSON", vec![r#"{"id":1}"#; 100_000].join(","));
    assert!((850_000..1 << 20).contains(&batch.len()), "{} bytes", batch.len());
    let reply = post(&server, &batch).await;
    assert_eq!(reply.body["error"]["code"], -32003, "{}", reply.text);
    let max = accord_serve::ServeLimits::default().engine.batch_length;
    assert_eq!(reply.body["error"]["data"], json!({"limit": "batch-length", "max": max}));
    server.shutdown().await;
}
