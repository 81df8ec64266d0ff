//! Usage counting (docs/usage.md) through accord-plant's router on loopback: what real callers
//! send over HTTP and WebSocket is counted per method, declared version, credential state,
//! deprecated member, unknown member and declared error, and read back from the metrics path as
//! OpenMetrics text.

use std::sync::Arc;

use accord_plant::{Config, Credential, Dispatch, DispatchFuture, Error, Plant, RpcError};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

const METER: &str = include_str!("../../../../fixtures/usage/old.types.json");

/// A meter station: M-1 is wired, every other meter is the declared `unknown meter`.
struct Meters;

impl Dispatch for Meters {
    fn call<'a>(&'a self, method: &'a str, params: Option<Value>) -> DispatchFuture<'a> {
        Box::pin(async move {
            let meter = params.as_ref().and_then(|p| p.get("meter")).and_then(Value::as_str);
            match (method, meter) {
                (_, Some(m)) if m != "M-1" => {
                    Err(RpcError::declared(-32004, "unknown meter", None))
                }
                ("meter.read", _) => Ok(json!(12.5)),
                ("meter.readRaw", _) => Ok(json!(40_211)),
                _ => Ok(json!(9000.0)),
            }
        })
    }
}

fn meter(credential: Credential, metrics: Option<&str>) -> Result<Arc<Plant>, Error> {
    let mut config = Config::default();
    config.credential = credential;
    config.metrics_path = metrics.map(str::to_owned);
    Plant::from_contract("old.types.json", METER, config).map(Arc::new)
}

async fn serve(plant: Arc<Plant>) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = accord_plant::router(plant, Arc::new(Meters));
    tokio::spawn(async move { axum::serve(listener, app).await });
    format!("http://{addr}")
}

async fn post(url: &str, token: Option<&str>, body: &str) -> Value {
    let mut request = reqwest::Client::new()
        .post(format!("{url}/"))
        .header("content-type", "application/json")
        .body(body.to_owned());
    if let Some(token) = token {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    let text = request.send().await.unwrap().text().await.unwrap();
    serde_json::from_str(&text).unwrap_or(Value::Null)
}

/// The value of the sample `name{labels}` in an exposition text (labels as written).
fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines().find_map(|l| l.strip_prefix(series)?.strip_prefix(' ')?.trim().parse().ok())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn callers_are_counted_and_read_back_from_the_metrics_path() {
    let url = serve(meter(Credential::Token("s3cret".into()), Some("/metrics")).unwrap()).await;
    let tok = Some("s3cret");
    // HTTP, no version declared: a plainly written call (the pass-through path), one with the
    // deprecated param, one with a member the contract does not name, a declared error.
    let read = r#"{"jsonrpc":"2.0","id":1,"method":"meter.read","params":{"meter":"M-1"}}"#;
    assert_eq!(post(&url, tok, read).await["result"], 12.5);
    let unit =
        r#"{"jsonrpc":"2.0","id":2,"method":"meter.read","params":{"meter":"M-1","unit":"l/s"}}"#;
    assert_eq!(post(&url, tok, unit).await["result"], 12.5);
    let typo =
        r#"{"jsonrpc":"2.0","id":3,"method":"meter.read","params":{"meter":"M-1","mter":"x"}}"#;
    assert_eq!(post(&url, tok, typo).await["result"], 12.5);
    let missing = r#"{"jsonrpc":"2.0","id":4,"method":"meter.read","params":{"meter":"M-9"}}"#;
    assert_eq!(post(&url, tok, missing).await["error"]["code"], -32004);
    // No credential: the reduced describe answer; a wrong one: refused.
    let describe = r#"{"jsonrpc":"2.0","id":5,"method":"rpc.describe"}"#;
    assert_eq!(post(&url, None, describe).await["result"]["reduced"], true);
    assert_eq!(post(&url, Some("old"), describe).await["error"]["code"], -32002);
    // A WebSocket caller built against 2.0.0 declares it, then calls the deprecated method
    // twice: both calls are counted under its version.
    let ws_url = format!("{}/", url.replace("http", "ws"));
    let mut request =
        tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(ws_url)
            .unwrap();
    request.headers_mut().insert("authorization", "Bearer s3cret".parse().unwrap());
    let (mut ws, _) = tokio_tungstenite::connect_async(request).await.unwrap();
    for text in [
        r#"{"jsonrpc":"2.0","id":1,"method":"rpc.describe","params":{"builtAgainst":{"meter":"2.0.0"}}}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"meter.readRaw","params":{"meter":"M-1"}}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"meter.readRaw","params":{"meter":"M-1"}}"#,
    ] {
        ws.send(Message::text(text)).await.unwrap();
        let answer: Value =
            serde_json::from_str(ws.next().await.unwrap().unwrap().to_text().unwrap()).unwrap();
        assert!(answer.get("result").is_some(), "{answer}");
    }
    let response = reqwest::get(format!("{url}/metrics")).await.unwrap();
    assert_eq!(
        response.headers()["content-type"],
        "application/openmetrics-text; version=1.0.0; charset=utf-8"
    );
    let text = response.text().await.unwrap();
    let calls = |method: &str, version: &str| {
        sample(
            &text,
            &format!(
                r#"accord_calls_total{{namespace="meter",method="{method}",declared_version="{version}"}}"#
            ),
        )
    };
    assert_eq!(calls("read", "undeclared"), Some(4.0), "{text}");
    assert_eq!(calls("readRaw", "2.0.0"), Some(2.0), "{text}");
    assert_eq!(calls("readRaw", "undeclared"), Some(0.0), "{text}");
    // Never called: a series at 0, not a missing one.
    assert_eq!(calls("legacyTotal", "undeclared"), Some(0.0), "{text}");
    let one = |series: &str| sample(&text, series);
    assert_eq!(
        one(
            r#"accord_deprecated_uses_total{namespace="meter",method="read",member="params.unit"}"#
        ),
        Some(1.0),
        "{text}"
    );
    assert_eq!(one(r#"accord_unknown_params_total{namespace="meter",method="read"}"#), Some(1.0));
    assert_eq!(
        one(r#"accord_declared_errors_total{namespace="meter",method="read",code="-32004"}"#),
        Some(1.0)
    );
    assert_eq!(
        one(
            r#"accord_describe_total{namespace="meter",declared_version="undeclared",answer="reduced"}"#
        ),
        Some(1.0)
    );
    assert_eq!(
        one(r#"accord_describe_total{namespace="meter",declared_version="2.0.0",answer="full"}"#),
        Some(1.0)
    );
    assert_eq!(one(r#"accord_requests_total{credential="absent"}"#), Some(1.0));
    assert_eq!(one(r#"accord_requests_total{credential="wrong"}"#), Some(1.0));
    // Four calls and the WebSocket upgrade (the metrics GET is not a JSON-RPC request).
    assert_eq!(one(r#"accord_requests_total{credential="valid"}"#), Some(5.0), "{text}");
    for member in ["method", "params.unit"] {
        let method = if member == "method" { "readRaw" } else { "read" };
        let series = format!(
            r#"accord_deprecated{{namespace="meter",method="{method}",member="{member}"}}"#
        );
        assert_eq!(one(&series), Some(1.0), "{series}\n{text}");
    }
    assert!(one("accord_plant_uptime_seconds").is_some_and(|s| s >= 0.0), "{text}");
    assert!(text.ends_with("# EOF\n"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn counting_is_off_unless_configured_and_never_on_the_json_rpc_path() {
    let url = serve(meter(Credential::None, None).unwrap()).await;
    let response = reqwest::get(format!("{url}/metrics")).await.unwrap();
    assert_eq!(response.status(), 404);
    for path in ["/", "metrics"] {
        match meter(Credential::None, Some(path)) {
            Err(error @ Error::MetricsPath { .. }) => {
                assert!(error.to_string().contains("must not be `/`"), "{error}")
            }
            other => panic!("{path}: {other:?}"),
        }
    }
}

/// The meter's methods as a plain jsonrpsee module.
fn meter_module() -> jsonrpsee::RpcModule<()> {
    let mut module = jsonrpsee::RpcModule::new(());
    module.register_method("meter.readRaw", |_, _, _| 40_211).unwrap();
    module
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_websocket_caller_behind_jsonrpsee_is_counted_under_the_version_it_declared() {
    let plant = meter(Credential::None, Some("/metrics")).unwrap();
    let (addr, handle) = crate::jsonrpsee_behind(&plant, meter_module()).await;
    // Two connections: one declares 2.1.0 and calls readRaw twice (a notification among its
    // calls), the other declares nothing and calls it once; a third declares 2.0.0 on its own
    // connection, which the others' calls never borrow.
    let calls = [(Some("2.1.0"), 2), (None, 1), (Some("2.0.0"), 0)];
    for (version, n) in calls {
        let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/")).await.unwrap();
        let mut texts = Vec::new();
        if let Some(v) = version {
            texts.push(format!(
                r#"{{"jsonrpc":"2.0","id":0,"method":"rpc.describe","params":{{"builtAgainst":{{"meter":"{v}"}}}}}}"#
            ));
        }
        for id in 1..=n {
            texts.push(format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"meter.readRaw","params":{{"meter":"M-1"}}}}"#
            ));
        }
        for text in texts {
            ws.send(Message::text(text)).await.unwrap();
            let answer: Value =
                serde_json::from_str(ws.next().await.unwrap().unwrap().to_text().unwrap()).unwrap();
            assert!(answer.get("result").is_some(), "{answer}");
        }
        ws.close(None).await.unwrap();
    }
    let text = plant.metrics().unwrap();
    let calls = |version: &str| {
        sample(
            &text,
            &format!(
                r#"accord_calls_total{{namespace="meter",method="readRaw",declared_version="{version}"}}"#
            ),
        )
    };
    assert_eq!(calls("2.1.0"), Some(2.0), "{text}");
    assert_eq!(calls("undeclared"), Some(1.0), "{text}");
    assert_eq!(calls("2.0.0"), None, "{text}");
    handle.stop().unwrap();
}
