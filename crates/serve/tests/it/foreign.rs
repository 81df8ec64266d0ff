//! Contracts with a `wire` section (docs/wire.md §11) served to real clients: a jsonrpsee-style
//! plant (`_` names, jsonrpsee's codes, one `#[subscription]`) driven by jsonrpsee's own HTTP
//! and WebSocket clients, and the Ethereum-shaped fixture spoken to as geth is (EIP-1474 codes,
//! no describe method, `eth_subscribe`/`eth_subscription`/`eth_unsubscribe`).

use accord_schema_model::Document;
use accord_serve::{Config, Server};
use accord_validate::{Contract, Target};
use jsonrpsee_core::client::{ClientT, Error as ClientError, SubscriptionClientT};
use jsonrpsee_core::params::ObjectParams;
use jsonrpsee_core::rpc_params;
use jsonrpsee_http_client::HttpClient;
use jsonrpsee_ws_client::{WsClient, WsClientBuilder};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::common::{fixtures, local, local_with, next, post, post_with, send, ws, ws_call};

fn read(path: &str) -> Document {
    Document::parse(&std::fs::read_to_string(fixtures().join(path)).unwrap()).unwrap()
}

fn boiler() -> Document {
    read("serve/boiler/boiler.types.json")
}

fn ethereum() -> Document {
    read("future/foreign-wire.types.json")
}

async fn serve(doc: Document, config: Config) -> Server {
    accord_serve::start(doc, config).await.unwrap()
}

/// Checks `value` against the type `target` of `doc`.
fn valid(doc: &Document, target: Target, value: &Value) {
    let contract = Contract::compile(doc).unwrap();
    if let Err(errors) = contract.validator(&target).unwrap().validate(value) {
        panic!("{value} is not valid: {}", errors[0]);
    }
}

/// The boiler's `Reading`, as a jsonrpsee client declares it.
#[derive(Debug, Deserialize, PartialEq)]
struct Reading {
    sensor: String,
    celsius: f64,
}

/// The boiler's `Status` event payload (open: a fake sometimes adds a member the contract
/// does not declare, which readers must tolerate, as serde's default does).
#[derive(Debug, Deserialize)]
struct Status {
    burner: String,
    modulation: u8,
}

fn code(error: ClientError) -> i32 {
    match error {
        ClientError::Call(object) => object.code(),
        other => panic!("not a JSON-RPC error: {other}"),
    }
}

#[tokio::test]
async fn jsonrpsee_http_client_calls_an_underscore_contract() {
    let server = serve(boiler(), local()).await;
    let client: HttpClient = HttpClient::builder().build(server.url()).unwrap();

    // The example's params: the example's result, into the client's own type.
    let reading: Reading = client.request("boiler_temperature", rpc_params!["flow"]).await.unwrap();
    assert_eq!(reading, Reading { sensor: "flow".into(), celsius: 71.5 });
    // Other params: a generated value, still of the declared type.
    let generated: Reading =
        client.request("boiler_temperature", rpc_params!["flue"]).await.unwrap();
    assert!((-20.0..=400.0).contains(&generated.celsius), "{generated:?}");
    let set: bool = client.request("boiler_setTarget", rpc_params![55.5]).await.unwrap();
    let _ = set;

    // jsonrpsee's codes: invalid params and a missing method; the contract's own name is not
    // a wire name.
    let refused = client.request::<bool, _>("boiler_setTarget", rpc_params![200]).await;
    assert_eq!(code(refused.unwrap_err()), -32602);
    let missing = client.request::<Value, _>("boiler.temperature", rpc_params!["flow"]).await;
    assert_eq!(code(missing.unwrap_err()), -32601);
    server.shutdown().await;
}

#[tokio::test]
async fn jsonrpsee_ws_client_calls_and_subscribes() {
    let doc = boiler();
    let server = serve(doc.clone(), local()).await;
    let client: WsClient = WsClientBuilder::default().build(server.ws_url()).await.unwrap();

    let reading: Reading = client.request("boiler_temperature", rpc_params!["flow"]).await.unwrap();
    assert_eq!(reading.celsius, 71.5);

    let mut subscription = client
        .subscribe::<Value, _>("boiler_subscribeStatus", rpc_params![], "boiler_unsubscribeStatus")
        .await
        .unwrap();
    // rpc.fake steers on every wire, and its `emit` takes the contract's `namespace.event`.
    for _ in 0..3 {
        let mut emit = ObjectParams::new();
        emit.insert("emit", "boiler.status").unwrap();
        let emitted: Value = client.request("rpc.fake", emit).await.unwrap();
        assert_eq!(emitted, json!({"emitted": 1}));
        let payload = subscription.next().await.unwrap().unwrap();
        valid(&doc, Target::Event { namespace: "boiler".into(), event: "status".into() }, &payload);
        let status: Status = serde_json::from_value(payload).unwrap();
        assert!(status.modulation <= 100 && !status.burner.is_empty());
    }
    subscription.unsubscribe().await.unwrap();
    // Unsubscribed: an emit reaches nobody.
    let mut emit = ObjectParams::new();
    emit.insert("emit", "boiler.status").unwrap();
    let emitted: Value = client.request("rpc.fake", emit).await.unwrap();
    assert_eq!(emitted, json!({"emitted": 0}));
    server.shutdown().await;
}

#[tokio::test]
async fn geth_style_subscriptions_over_a_websocket() {
    let doc = ethereum();
    let server = serve(doc.clone(), local()).await;
    let mut socket = ws(&server, None).await.unwrap();

    let heads = ws_call(&mut socket, "eth_subscribe", json!(["newHeads"])).await;
    let heads = heads["result"].as_str().unwrap().to_owned();
    // Params after the selector (a log filter) are accepted unread.
    let logs = ws_call(
        &mut socket,
        "eth_subscribe",
        json!(["logs", {"address": "0x407d73d8a49eeb85d32cf465507dd71d507100c1"}]),
    )
    .await;
    let logs = logs["result"].as_str().unwrap().to_owned();
    assert_ne!(heads, logs);
    let unknown = ws_call(&mut socket, "eth_subscribe", json!(["pendingTransactions"])).await;
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
    // accord's own subscribe is not this plant's.
    let accord = ws_call(&mut socket, "rpc.subscribe", json!(["eth.newHeads"])).await;
    assert_eq!(accord["error"]["code"], -32601, "{accord}");

    send(
        &mut socket,
        r#"{"jsonrpc":"2.0","id":7,"method":"rpc.fake","params":{"emit":"eth.newHeads"}}"#,
    )
    .await;
    let note = next(&mut socket).await.unwrap();
    assert_eq!(note["method"], "eth_subscription");
    assert!(note.get("id").is_none());
    let params = note["params"].as_object().unwrap();
    assert_eq!(params.keys().collect::<Vec<_>>(), ["subscription", "result"]);
    assert_eq!(params["subscription"], heads.as_str());
    valid(
        &doc,
        Target::Event { namespace: "eth".into(), event: "newHeads".into() },
        &params["result"],
    );
    assert_eq!(
        next(&mut socket).await.unwrap(),
        json!({"jsonrpc": "2.0", "id": 7, "result": {"emitted": 1}})
    );

    let gone = ws_call(&mut socket, "eth_unsubscribe", json!([heads])).await;
    assert_eq!(gone["result"], true);
    let again = ws_call(&mut socket, "eth_unsubscribe", json!([heads])).await;
    assert_eq!(again["result"], false);
    let emitted = ws_call(&mut socket, "rpc.fake", json!({"emit": "eth.newHeads"})).await;
    assert_eq!(emitted["result"]["emitted"], 0);
    server.shutdown().await;
}

#[tokio::test]
async fn eip_1474_codes_and_no_describe_method() {
    let config = local_with(|c| c.limits.engine.batch_length = 1);
    let server = serve(ethereum(), config).await;
    let balance = crate::common::call(
        &server,
        "eth_getBalance",
        json!(["0x407d73d8a49eeb85d32cf465507dd71d507100c1", "latest"]),
    )
    .await;
    assert!(balance["result"].as_str().unwrap().starts_with("0x"), "{balance}");
    // An irregular wire name from `wire.methods`.
    let peers = crate::common::call(&server, "net_peerCount", json!([])).await;
    assert!(peers["result"].is_string(), "{peers}");

    let missing = crate::common::call(&server, "eth_getCode", json!([])).await;
    assert_eq!(missing["error"]["code"], -32601);
    let qualified = crate::common::call(&server, "eth.getBalance", json!([])).await;
    assert_eq!(qualified["error"]["code"], -32601);
    let invalid = crate::common::call(&server, "eth_getBalance", json!(["nope", "latest"])).await;
    assert_eq!(invalid["error"]["code"], -32602);
    assert_eq!(invalid["error"]["data"]["errors"][0]["path"], "/0");
    // `"describe": false`: the plant answers no describe method.
    let describe = crate::common::call(&server, "rpc.describe", json!({})).await;
    assert_eq!(describe["error"]["code"], -32601);
    // EIP-1474's limit code.
    let batch = post(&server, r#"[{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"},{"jsonrpc":"2.0","id":2,"method":"eth_blockNumber"}]"#).await;
    assert_eq!(batch.body["error"]["code"], -32005, "{}", batch.text);
    // Subscriptions need a WebSocket; over HTTP the method is not there.
    let over_http = crate::common::call(&server, "eth_subscribe", json!(["newHeads"])).await;
    assert_eq!(over_http["error"]["code"], -32601);
    assert_eq!(over_http["error"]["data"], json!({"transport": "http"}));
    server.shutdown().await;
}

#[tokio::test]
async fn describe_under_the_wires_name_carries_the_section() {
    let mut value = boiler().to_value();
    value["wire"]["describe"] = json!("rpc.discover");
    let doc = Document::from_value(value).unwrap();
    let server = serve(doc.clone(), local()).await;
    let answer = crate::common::call(&server, "rpc.discover", json!({})).await;
    let contract = &answer["result"]["contract"];
    assert_eq!(
        contract["wire"],
        json!({"separator": "_", "describe": "rpc.discover", "codes": {"profile": "jsonrpsee"}})
    );
    assert_eq!(
        contract["namespaces"]["boiler"]["wire"],
        doc.to_value()["namespaces"]["boiler"]["wire"]
    );
    assert_eq!(Document::from_value(contract.clone()).unwrap(), doc);
    let accord = crate::common::call(&server, "rpc.describe", json!({})).await;
    assert_eq!(accord["error"]["code"], -32601);
    server.shutdown().await;
}

#[tokio::test]
async fn a_wire_that_does_not_resolve_is_refused_at_start() {
    let mut value = boiler().to_value();
    value["wire"]["codes"]["profile"] = json!("grpc");
    let doc = Document::from_value(value).unwrap();
    let error = accord_serve::start(doc, local()).await.err().unwrap();
    let message = error.to_string();
    assert!(message.contains("/wire/codes/profile"), "{message}");
    assert!(message.contains("`grpc` is not a profile accord knows"), "{message}");

    let mut value = boiler().to_value();
    value["namespaces"]["boiler"]["wire"]["methods"] = json!({"temperature": "rpc.fake"});
    let error = accord_serve::start(Document::from_value(value).unwrap(), local()).await.err();
    assert!(error.unwrap().to_string().contains("`boiler.temperature` is called `rpc.fake`"));
}

#[tokio::test]
async fn a_wire_without_credential_codes_refuses_at_the_http_level() {
    let config = local_with(|c| c.token = Some("s3cret".into()));
    let server = serve(boiler(), config).await;
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"boiler_temperature","params":["flow"]}"#;
    for authorization in [None, Some("Bearer wrong")] {
        let reply = post_with(&server, body, authorization, "application/json").await;
        assert_eq!(reply.status, 401, "{authorization:?}");
        assert_eq!(reply.www_authenticate.as_deref(), Some("Bearer"));
        assert_eq!(reply.body["error"]["code"], -32600, "{}", reply.text);
        assert_eq!(reply.body["id"], Value::Null);
        let upgrade = ws(&server, authorization).await.err().unwrap();
        assert_eq!(upgrade.0, 401);
    }
    let reply = post_with(&server, body, Some("Bearer s3cret"), "application/json").await;
    assert_eq!(reply.body["result"]["celsius"], 71.5, "{}", reply.text);
    server.shutdown().await;
}
