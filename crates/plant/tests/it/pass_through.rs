//! The HTTP layer's short path: a body that is one plainly written contract call goes to
//! jsonrpsee as it was sent, and the RPC middleware behind checks the answer (once). Bodies the
//! short path does not take (a key named twice, an escaped id, a batch) are read strictly as
//! before; without the middleware the layer checks the answer itself; `answer-bytes` holds.

use std::sync::Arc;

use accord_plant::http::PlantLayer;
use accord_plant::jsonrpsee::PlantRpcLayer;
use accord_plant::{Config, Limits, OnViolation, Plant};
use serde_json::{Value, json};

const PUMP: &str = include_str!("../../../../fixtures/contracts/pump-plant.types.json");

fn pump(limits: Limits) -> Arc<Plant> {
    let mut config = Config::default();
    config.limits = limits;
    config.on_violation = OnViolation::Fail;
    Arc::new(Plant::from_contract("pump-plant.types.json", PUMP, config).unwrap())
}

/// `pump.getSpeed`: 1480 for P-101, past the contract's maximum for P-102, an error the method
/// does not declare for the rest.
fn module() -> jsonrpsee::RpcModule<()> {
    let mut module = jsonrpsee::RpcModule::new(());
    module
        .register_method("pump.getSpeed", |params, _, _| {
            let params: Value = params.parse().map_err(|_| {
                jsonrpsee::types::ErrorObjectOwned::owned(-32602, "bad", None::<()>)
            })?;
            let pump = params.get(0).or_else(|| params.get("pump")).and_then(Value::as_str);
            let pump = pump.unwrap_or_default().to_owned();
            match pump.as_str() {
                "P-101" => Ok(1480),
                "P-102" => Ok(99_999),
                _ => Err(jsonrpsee::types::ErrorObjectOwned::owned(
                    -32099,
                    "station offline",
                    None::<()>,
                )),
            }
        })
        .unwrap();
    module
}

/// The jsonrpsee server behind the layer, with the RPC middleware or without it.
async fn serve(plant: &Arc<Plant>, middleware: bool) -> (String, jsonrpsee::server::ServerHandle) {
    let http = tower::ServiceBuilder::new().layer(PlantLayer::new(plant.clone()));
    let builder = jsonrpsee::server::Server::builder().set_http_middleware(http);
    let (addr, handle) = if middleware {
        let server = builder
            .set_rpc_middleware(
                jsonrpsee::server::middleware::rpc::RpcServiceBuilder::new()
                    .layer(PlantRpcLayer::new(plant.clone())),
            )
            .build("127.0.0.1:0")
            .await
            .unwrap();
        (server.local_addr().unwrap(), server.start(module()))
    } else {
        let server = builder.build("127.0.0.1:0").await.unwrap();
        (server.local_addr().unwrap(), server.start(module()))
    };
    (format!("http://{addr}/"), handle)
}

async fn post(url: &str, body: &str) -> Value {
    let response = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .body(body.to_owned())
        .send()
        .await
        .expect("an answer");
    assert_eq!(response.status().as_u16(), 200);
    let text = response.text().await.unwrap();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

async fn checks_the_answer_once(middleware: bool) {
    let plant = pump(Limits::default());
    let (url, handle) = serve(&plant, middleware).await;

    let ok =
        post(&url, r#"{"jsonrpc":"2.0","id":7,"method":"pump.getSpeed","params":["P-101"]}"#).await;
    assert_eq!(ok, json!({"jsonrpc": "2.0", "id": 7, "result": 1480}));
    let ok = post(
        &url,
        r#"{"jsonrpc":"2.0","id":"a-1","method":"pump.getSpeed","params":{"pump":"P-101"}}"#,
    )
    .await;
    assert_eq!(ok, json!({"jsonrpc": "2.0", "id": "a-1", "result": 1480}));
    // Ids the short path leaves to the strict reader, answered as sent.
    let ok = post(
        &url,
        r#"{"jsonrpc":"2.0","id":"\u00e9","method":"pump.getSpeed","params":["P-101"]}"#,
    )
    .await;
    assert_eq!(ok["id"], "é");
    let ok = post(&url, r#"{"jsonrpc":"2.0","id":-3,"method":"pump.getSpeed","params":["P-101"]}"#)
        .await;
    assert_eq!(ok, json!({"jsonrpc": "2.0", "id": -3, "result": 1480}));
    assert_eq!(plant.violations(), 0);

    // A result past the contract: -32603 (OnViolation::Fail), counted once.
    let broken =
        post(&url, r#"{"jsonrpc":"2.0","id":8,"method":"pump.getSpeed","params":["P-102"]}"#).await;
    assert_eq!(broken["id"], 8, "{broken}");
    assert_eq!(broken["error"]["code"], -32603, "{broken}");
    assert!(broken["error"]["data"]["reason"].as_str().unwrap().contains("result"), "{broken}");
    assert_eq!(plant.violations(), 1);
    let undeclared =
        post(&url, r#"{"jsonrpc":"2.0","id":9,"method":"pump.getSpeed","params":["P-104"]}"#).await;
    assert!(
        undeclared["error"]["data"]["reason"].as_str().unwrap().contains("does not declare"),
        "{undeclared}"
    );
    assert_eq!(plant.violations(), 2);

    // What only the strict reader refuses still is refused.
    let twice = post(
        &url,
        r#"{"jsonrpc":"2.0","id":10,"method":"pump.getSpeed","params":{"pump":"P-101","pump":"P-102"}}"#,
    )
    .await;
    assert_eq!(twice["error"]["code"], -32602, "{twice}");
    let twice = post(
        &url,
        r#"{"jsonrpc":"2.0","id":11,"method":"pump.getSpeed","method":"pump.getSpeed","params":["P-101"]}"#,
    )
    .await;
    assert_eq!(twice["error"]["code"], -32600, "{twice}");
    assert_eq!(twice["error"]["data"]["member"], "method", "{twice}");
    let extra = post(
        &url,
        r#"{"jsonrpc":"2.0","id":12,"method":"pump.getSpeed","params":["P-101"],"x":1}"#,
    )
    .await;
    assert_eq!(extra["result"], 1480, "{extra}");
    let bad =
        post(&url, r#"{"jsonrpc":"2.0","id":13,"method":"pump.getSpeed","params":["bad"]}"#).await;
    assert_eq!(bad["error"]["data"]["errors"][0]["path"], "/0", "{bad}");
    assert_eq!(plant.violations(), 2);
    handle.stop().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_the_middleware_the_answer_is_checked_once() {
    checks_the_answer_once(true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_middleware_the_layer_checks_the_answer() {
    checks_the_answer_once(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_past_answer_bytes_is_replaced_on_the_short_path() {
    let mut limits = Limits::default();
    limits.answer_bytes = 30;
    let plant = pump(limits);
    let (url, handle) = serve(&plant, true).await;
    let answer =
        post(&url, r#"{"jsonrpc":"2.0","id":5,"method":"pump.getSpeed","params":["P-101"]}"#).await;
    assert_eq!(answer["id"], 5, "{answer}");
    assert_eq!(answer["error"]["code"], -32003, "{answer}");
    assert_eq!(plant.violations(), 0);
    handle.stop().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_warned_answer_is_sent_as_made_and_counted_once() {
    for middleware in [true, false] {
        let mut config = Config::default();
        config.on_violation = OnViolation::Warn;
        let plant = Arc::new(Plant::from_contract("pump-plant.types.json", PUMP, config).unwrap());
        let (url, handle) = serve(&plant, middleware).await;
        let broken =
            post(&url, r#"{"jsonrpc":"2.0","id":1,"method":"pump.getSpeed","params":["P-102"]}"#)
                .await;
        assert_eq!(broken, json!({"jsonrpc": "2.0", "id": 1, "result": 99_999}));
        assert_eq!(plant.violations(), 1, "middleware: {middleware}");
        handle.stop().unwrap();
    }
}
