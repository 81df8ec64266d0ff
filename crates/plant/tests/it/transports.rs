//! Both adapters on loopback: accord-plant's axum router (HTTP and WebSocket, accord's events)
//! with a plant written as a `Dispatch`, and a jsonrpsee server behind the HTTP layer and the
//! RPC middleware, with accord's `rpc.subscribe` registered.

use std::sync::Arc;

use accord_plant::{Config, Credential, Dispatch, DispatchFuture, Plant, RpcError};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

const PUMP: &str = include_str!("../../../../fixtures/contracts/pump-plant.types.json");

/// A station that knows one pump and answers `pump.getSpeed` (and, wrongly, a speed past the
/// contract's maximum for P-102, and an error the method does not declare for the rest).
struct Station;

impl Dispatch for Station {
    fn call<'a>(&'a self, method: &'a str, params: Option<Value>) -> DispatchFuture<'a> {
        Box::pin(async move {
            let pump = params
                .as_ref()
                .and_then(|p| p.get(0).or_else(|| p.get("pump")))
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
            match (method, pump.as_str()) {
                ("pump.getSpeed", "P-101") => Ok(json!(1480)),
                ("pump.getSpeed", "P-102") => Ok(json!(99_999)),
                // An error pump.getSpeed does not declare.
                _ => Err(RpcError::declared(-32099, "station offline", None)),
            }
        })
    }
}

fn pump(credential: Credential) -> Arc<Plant> {
    let mut config = Config::default();
    config.credential = credential;
    Arc::new(Plant::from_contract("pump-plant.types.json", PUMP, config).unwrap())
}

async fn post(url: &str, token: Option<&str>, body: &str) -> (u16, String, Option<String>) {
    let client = reqwest::Client::new();
    let mut request =
        client.post(url).header("content-type", "application/json").body(body.to_owned());
    if let Some(token) = token {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    let response = request.send().await.expect("an answer");
    let status = response.status().as_u16();
    let challenge =
        response.headers().get("www-authenticate").map(|v| v.to_str().unwrap().to_owned());
    (status, response.text().await.unwrap(), challenge)
}

async fn serve_router(plant: Arc<Plant>) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = accord_plant::router(plant, Arc::new(Station));
    tokio::spawn(async move { axum::serve(listener, app).await });
    format!("http://{addr}/")
}

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// One message sent, the next one read.
async fn ask(ws: &mut Ws, text: &str) -> Value {
    ws.send(Message::text(text)).await.unwrap();
    parse(ws.next().await.unwrap().unwrap().to_text().unwrap())
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_router_answers_http_as_the_wire_says() {
    let url = serve_router(pump(Credential::Token("s3cret".into()))).await;
    let tok = Some("s3cret");
    let (status, body, _) =
        post(&url, tok, r#"{"jsonrpc":"2.0","id":1,"method":"pump.getSpeed","params":["P-101"]}"#)
            .await;
    assert_eq!((status, parse(&body)), (200, json!({"jsonrpc": "2.0", "id": 1, "result": 1480})));
    // A result past the contract: the test sees an error (debug builds fail violations).
    let (_, body, _) =
        post(&url, tok, r#"{"jsonrpc":"2.0","id":2,"method":"pump.getSpeed","params":["P-102"]}"#)
            .await;
    assert_eq!(parse(&body)["error"]["code"], -32603, "{body}");
    let (_, body, _) =
        post(&url, tok, r#"{"jsonrpc":"2.0","id":3,"method":"pump.getSpeed","params":["P1"]}"#)
            .await;
    assert_eq!(parse(&body)["error"]["code"], -32602, "{body}");
    let (_, body, _) =
        post(&url, tok, r#"{"jsonrpc":"2.0","id":4,"id":5,"method":"rpc.describe"}"#).await;
    assert_eq!(parse(&body)["error"]["data"]["member"], "id", "{body}");
    let (_, body, _) = post(&url, tok, r#"{"jsonrpc":"2.0","id":6,"method":"rpc.subscribe","params":{"event":"pump.stateChanged"}}"#).await;
    assert_eq!(
        parse(&body)["error"],
        json!({"code": -32004, "message": "Not on this transport", "data": {"transport": "http"}})
    );
    let (status, body, _) = post(&url, tok, r#"[{"jsonrpc":"2.0","method":"pump.list"}]"#).await;
    assert_eq!((status, body.as_str()), (204, ""), "a batch of notifications is not answered");
    let (_, body, _) =
        post(&url, None, r#"{"jsonrpc":"2.0","id":7,"method":"rpc.describe"}"#).await;
    assert_eq!(parse(&body)["result"]["reduced"], true, "{body}");
    let (_, body, _) = post(&url, None, r#"{"jsonrpc":"2.0","id":8,"method":"pump.list"}"#).await;
    assert_eq!(parse(&body)["error"]["code"], -32001, "{body}");
    let (status, body, challenge) =
        post(&url, Some("rotated"), r#"{"jsonrpc":"2.0","id":9,"method":"rpc.describe"}"#).await;
    assert_eq!((status, challenge.as_deref()), (401, Some("Bearer")));
    assert_eq!(
        parse(&body),
        json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32002, "message": "Credential refused"}})
    );
    let big = format!(
        r#"{{"jsonrpc":"2.0","id":10,"method":"rpc.describe","params":{{"pad":"{}"}}}}"#,
        "x".repeat(1 << 20)
    );
    let (status, body, _) = post(&url, tok, &big).await;
    assert_eq!(
        (status, parse(&body)["error"]["data"]["limit"].as_str()),
        (413, Some("body-bytes")),
        "{body}"
    );
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    let (_, body, _) = post(&url, tok, &deep).await;
    assert_eq!(parse(&body)["error"]["data"]["limit"], "depth", "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_router_sends_checked_events_to_rpc_subscribe() {
    let plant = pump(Credential::None);
    let url = serve_router(plant.clone()).await;
    let (mut ws, _) = tokio_tungstenite::connect_async(url.replace("http", "ws")).await.unwrap();
    ws.send(Message::text(r#"{"jsonrpc":"2.0","id":1,"method":"rpc.subscribe","params":{"event":"pump.stateChanged"}}"#)).await.unwrap();
    let answer = parse(ws.next().await.unwrap().unwrap().to_text().unwrap());
    let sub = answer["result"].as_str().expect("a subscription id").to_owned();
    // The bad payload is refused before it is sent; the good one arrives.
    let bad =
        json!({"pump": "P-103", "from": "starting", "to": "flying", "at": "2024-05-14T06:00:32Z"});
    assert!(plant.emit("pump.stateChanged", bad).is_err());
    let good =
        json!({"pump": "P-103", "from": "starting", "to": "running", "at": "2024-05-14T06:00:32Z"});
    plant.emit("pump.stateChanged", good.clone()).unwrap();
    let note = parse(ws.next().await.unwrap().unwrap().to_text().unwrap());
    assert_eq!(
        note,
        json!({"jsonrpc": "2.0", "method": "rpc.event", "params": {"subscription": sub, "event": "pump.stateChanged", "payload": good}})
    );
    ws.send(Message::text(format!(r#"{{"jsonrpc":"2.0","id":2,"method":"rpc.unsubscribe","params":{{"subscription":"{sub}"}}}}"#))).await.unwrap();
    assert_eq!(parse(ws.next().await.unwrap().unwrap().to_text().unwrap())["result"], true);
}

/// The same station as a jsonrpsee module.
fn module() -> jsonrpsee::RpcModule<()> {
    let mut module = jsonrpsee::RpcModule::new(());
    module
        .register_method("pump.getSpeed", |params, _, _| {
            let pump: String = params.one().map_err(|_| {
                jsonrpsee::types::ErrorObjectOwned::owned(-32602, "bad", None::<()>)
            })?;
            match pump.as_str() {
                "P-101" => Ok(1480),
                "P-102" => Ok(99_999),
                // An error pump.getSpeed does not declare.
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn jsonrpsee_behind_the_layer_and_the_middleware_keeps_the_contract() {
    let plant = pump(Credential::Token("s3cret".into()));
    let mut methods: jsonrpsee::Methods = module().into();
    accord_plant::jsonrpsee::register_events(&mut methods, plant.clone()).unwrap();
    let (addr, handle) = crate::jsonrpsee_behind(&plant, methods).await;
    let url = format!("http://{addr}/");
    let tok = Some("s3cret");

    // HTTP: the layer answers the envelope, the handler the call, the plant checks the answer.
    let (_, body, _) =
        post(&url, tok, r#"{"jsonrpc":"2.0","id":1,"method":"pump.getSpeed","params":["P-101"]}"#)
            .await;
    assert_eq!(parse(&body)["result"], 1480, "{body}");
    let (_, body, _) =
        post(&url, tok, r#"{"jsonrpc":"2.0","id":2,"method":"pump.getSpeed","params":["P-999"]}"#)
            .await;
    assert!(
        parse(&body)["error"]["data"]["reason"].as_str().unwrap().contains("does not declare"),
        "{body}"
    );
    let (_, body, _) = post(
        &url,
        tok,
        r#"{"jsonrpc":"2.0","id":3,"method":"pump.getSpeed","params":["P-101", 1]}"#,
    )
    .await;
    assert_eq!(
        parse(&body)["error"]["code"],
        -32602,
        "jsonrpsee would ignore the extra param: {body}"
    );
    let (status, _, _) =
        post(&url, Some("wrong"), r#"{"jsonrpc":"2.0","id":4,"method":"rpc.describe"}"#).await;
    assert_eq!(status, 401);

    // WebSocket: the middleware checks each call; a wrong credential is refused at the upgrade.
    let wrong = tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(
        format!("ws://{addr}/"),
    )
    .map(|mut r| {
        r.headers_mut().insert("authorization", "Bearer wrong".parse().unwrap());
        r
    });
    assert!(
        tokio_tungstenite::connect_async(wrong.unwrap()).await.is_err(),
        "refused before the upgrade"
    );
    let mut request =
        tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(format!(
            "ws://{addr}/"
        ))
        .unwrap();
    request.headers_mut().insert("authorization", "Bearer s3cret".parse().unwrap());
    let (mut ws, _) = tokio_tungstenite::connect_async(request).await.unwrap();
    assert_eq!(
        ask(&mut ws, r#"{"jsonrpc":"2.0","id":1,"method":"pump.getSpeed","params":["P-101"]}"#)
            .await["result"],
        1480
    );
    assert_eq!(
        ask(&mut ws, r#"{"jsonrpc":"2.0","id":2,"method":"pump.getSpeed","params":["bad"]}"#).await
            ["error"]["data"]["errors"][0]["path"],
        "/0"
    );
    assert_eq!(
        ask(&mut ws, r#"{"jsonrpc":"2.0","id":3,"method":"pump.getSpeed","params":["P-102"]}"#)
            .await["error"]["code"],
        -32603
    );
    assert_eq!(
        ask(&mut ws, r#"{"jsonrpc":"2.0","id":4,"method":"rpc.describe"}"#).await["result"]["reduced"],
        false
    );
    assert_eq!(
        ask(&mut ws, r#"{"jsonrpc":"2.0","id":5,"method":"pump.nothing"}"#).await["error"]["data"]
            ["method"],
        "pump.nothing"
    );
    let sub = ask(&mut ws, r#"{"jsonrpc":"2.0","id":6,"method":"rpc.subscribe","params":{"event":"pump.stateChanged"}}"#).await;
    let sub = sub["result"].as_str().unwrap_or_else(|| panic!("{sub}")).to_owned();
    let good =
        json!({"pump": "P-103", "from": "starting", "to": "running", "at": "2024-05-14T06:00:32Z"});
    plant.emit("pump.stateChanged", good.clone()).unwrap();
    let note = parse(ws.next().await.unwrap().unwrap().to_text().unwrap());
    assert_eq!(
        note["params"],
        json!({"subscription": sub, "event": "pump.stateChanged", "payload": good})
    );
    assert_eq!(note["method"], "rpc.event");
    let gone = ask(&mut ws, &format!(r#"{{"jsonrpc":"2.0","id":7,"method":"rpc.unsubscribe","params":{{"subscription":"{sub}"}}}}"#)).await;
    assert_eq!(gone["result"], true, "{gone}");
    handle.stop().unwrap();
}
