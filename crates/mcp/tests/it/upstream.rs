//! `--upstream`: calls forwarded to a live plant (a test plant on 127.0.0.1:0 that counts what
//! reaches it). An invalid or undeclared argument never reaches it; its declared errors come
//! back as tool errors (text only, no `structuredContent`), anything else it answers as an MCP
//! error; the token goes with every call.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use accord_mcp::{Backend, Mcp, Options};
use axum::extract::State;
use axum::http::HeaderMap;
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::StreamableHttpClientTransport;
use serde_json::{Value, json};

use crate::common;

#[derive(Default)]
struct Seen {
    requests: AtomicUsize,
    authorization: Mutex<Vec<String>>,
}

async fn plant(State(seen): State<Arc<Seen>>, headers: HeaderMap, body: String) -> String {
    seen.requests.fetch_add(1, Ordering::SeqCst);
    if let Some(v) = headers.get("authorization").and_then(|v| v.to_str().ok()) {
        seen.authorization.lock().unwrap().push(v.to_owned());
    }
    let request: Value = serde_json::from_str(&body).unwrap();
    let id = request["id"].clone();
    let pump = request["params"]["pump"].as_str().unwrap_or_default();
    let answer = match (request["method"].as_str(), pump) {
        (Some("pump.status"), "P-404") => {
            json!({"error": {"code": -32004, "message": "unknown pump", "data": {"pump": pump}}})
        }
        (Some("pump.status"), "P-500") => {
            json!({"error": {"code": -32603, "message": "the PLC gateway is down"}})
        }
        (Some("pump.status"), _) => json!({"result": {"pump": pump, "state": "stopped"}}),
        _ => json!({"result": null}),
    };
    let mut response = json!({"jsonrpc": "2.0", "id": id});
    response.as_object_mut().unwrap().extend(answer.as_object().unwrap().clone());
    response.to_string()
}

fn args(value: Value) -> serde_json::Map<String, Value> {
    value.as_object().unwrap().clone()
}

/// The counting plant on 127.0.0.1:0: its URL, what it saw, its task.
async fn counting_plant() -> (String, Arc<Seen>, tokio::task::JoinHandle<std::io::Result<()>>) {
    let seen = Arc::new(Seen::default());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let plant_url = format!("http://{}", listener.local_addr().unwrap());
    let app = axum::Router::new().route("/", axum::routing::post(plant)).with_state(seen.clone());
    (plant_url, seen, tokio::spawn(async move { axum::serve(listener, app).await }))
}

/// The text of a tool error, which must carry no `structuredContent` (a client would hold it
/// to the tool's `outputSchema` and refuse it).
fn error_text(result: &rmcp::model::CallToolResult) -> String {
    assert_eq!(result.is_error, Some(true), "{result:?}");
    assert!(result.structured_content.is_none(), "a tool error with structuredContent: {result:?}");
    result.content.iter().filter_map(|c| c.as_text()).map(|t| t.text.clone()).collect()
}

#[tokio::test]
async fn an_unknown_mcp_argument_never_reaches_the_counting_plant() {
    let (plant_url, seen, plant_task) = counting_plant().await;
    let mut options = Options::new(Backend::Upstream { url: plant_url, token: None });
    options.timeout = Duration::from_secs(10);
    let mcp = Mcp::start(common::contract("pump-plant"), options).await.unwrap();
    let server = mcp.serve_http("127.0.0.1:0".parse().unwrap()).await.unwrap();
    let client = ().serve(StreamableHttpClientTransport::from_uri(server.url())).await.unwrap();

    let tools = client.list_all_tools().await.unwrap();
    let status = tools.iter().find(|t| t.name == "pump_status").unwrap();
    assert_eq!(status.input_schema["additionalProperties"], json!(false));

    // The plant's params are open: it would take `extra` and answer. MCP refuses it.
    for (tool, bad) in [
        ("pump_status", json!({"pump": "P-101", "extra": 1})),
        ("pump_status", json!({"pump": "P-101", "Pump": "P-102"})),
        ("pump_list", json!({"filter": "running"})),
        ("collect_events", json!({"event": "pump.alarm", "cnt": 3})),
    ] {
        let call = CallToolRequestParams::new(tool).with_arguments(args(bad.clone()));
        let text = error_text(&client.call_tool(call).await.unwrap());
        let unknown =
            bad.as_object().unwrap().keys().find(|k| !["pump", "event"].contains(&k.as_str()));
        let unknown = unknown.unwrap();
        assert!(
            text.contains(&format!("/{unknown}: unknown argument `{unknown}`")),
            "{bad}: {text}"
        );
        assert!(text.contains(": this tool takes "), "{text}");
    }
    let call = CallToolRequestParams::new("pump_status")
        .with_arguments(args(json!({"pump": "P-101", "extra": 1})));
    let text = error_text(&client.call_tool(call).await.unwrap());
    assert!(text.contains("this tool takes only `pump`"), "{text}");
    assert_eq!(seen.requests.load(Ordering::SeqCst), 0, "an unknown argument reached the plant");

    // The same call without it does reach the plant: the count can move.
    let call =
        CallToolRequestParams::new("pump_status").with_arguments(args(json!({"pump": "P-101"})));
    assert_eq!(client.call_tool(call).await.unwrap().is_error, Some(false));
    assert_eq!(seen.requests.load(Ordering::SeqCst), 1);
    client.cancel().await.unwrap();
    server.stop();
    plant_task.abort();
}

#[tokio::test]
async fn invalid_arguments_never_reach_the_plant_and_its_errors_come_back_as_tool_errors() {
    let (plant_url, seen, plant_task) = counting_plant().await;

    let mut options =
        Options::new(Backend::Upstream { url: plant_url, token: Some("t0k".to_owned()) });
    options.timeout = Duration::from_secs(10);
    let mcp = Mcp::start(common::contract("pump-plant"), options).await.unwrap();
    let server = mcp.serve_http("127.0.0.1:0".parse().unwrap()).await.unwrap();
    let client = ().serve(StreamableHttpClientTransport::from_uri(server.url())).await.unwrap();

    for tool in client.list_all_tools().await.unwrap() {
        let open_world = tool.annotations.as_ref().and_then(|a| a.open_world_hint);
        assert_eq!(open_world, Some(true), "{} upstream is an open world", tool.name);
    }

    for bad in [json!({"pump": 7}), json!({"pump": "pump one"}), json!({})] {
        let call = CallToolRequestParams::new("pump_status").with_arguments(args(bad.clone()));
        let text = error_text(&client.call_tool(call).await.unwrap());
        assert!(text.starts_with("The arguments were refused"), "{bad}: {text}");
    }
    let call = CallToolRequestParams::new("pump_status").with_arguments(args(json!({"pump": 7})));
    let text = error_text(&client.call_tool(call).await.unwrap());
    assert!(text.contains("\n/pump: expected "), "{text}");
    assert_eq!(seen.requests.load(Ordering::SeqCst), 0, "an invalid call reached the plant");

    let call =
        CallToolRequestParams::new("pump_status").with_arguments(args(json!({"pump": "P-404"})));
    let text = error_text(&client.call_tool(call).await.unwrap());
    assert_eq!(text, "The plant answered error -32004: unknown pump\ndata: {\"pump\":\"P-404\"}");

    let call =
        CallToolRequestParams::new("pump_status").with_arguments(args(json!({"pump": "P-500"})));
    let err = client.call_tool(call).await.unwrap_err();
    assert!(err.to_string().contains("-32603"), "{err}");

    let call =
        CallToolRequestParams::new("pump_status").with_arguments(args(json!({"pump": "P-101"})));
    let result = client.call_tool(call).await.unwrap();
    assert_eq!(result.structured_content.unwrap()["result"]["pump"], "P-101");

    assert_eq!(seen.requests.load(Ordering::SeqCst), 3);
    assert_eq!(*seen.authorization.lock().unwrap(), ["Bearer t0k"; 3]);
    client.cancel().await.unwrap();
    server.stop();
    plant_task.abort();
}
