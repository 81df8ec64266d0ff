//! accord mcp over Streamable HTTP (`/mcp` on axum), driven by rmcp's own client: tools, a read
//! call on the fake, a refused argument, the resources and collect_events.

use crate::common;

use std::time::Duration;

use accord_mcp::http::HttpServer;
use accord_mcp::{Backend, ExposurePolicy, Mcp, Options};
use rmcp::RoleClient;
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, ReadResourceRequestParams};
use rmcp::service::RunningService;
use rmcp::transport::StreamableHttpClientTransport;
use serde_json::{Value, json};

async fn start(name: &str, policy: ExposurePolicy) -> (HttpServer, RunningService<RoleClient, ()>) {
    let mut options = Options::new(Backend::Fake { seed: 0 });
    options.policy = policy;
    options.timeout = Duration::from_secs(10);
    let mcp = Mcp::start(common::contract(name), options).await.unwrap();
    let server = mcp.serve_http("127.0.0.1:0".parse().unwrap()).await.unwrap();
    let transport = StreamableHttpClientTransport::from_uri(server.url());
    let client = ().serve(transport).await.unwrap();
    (server, client)
}

fn args(value: Value) -> serde_json::Map<String, Value> {
    value.as_object().unwrap().clone()
}

#[tokio::test]
async fn tools_are_listed_and_a_read_tool_answers_from_the_fake() {
    let (server, client) = start("pump-plant", ExposurePolicy::default()).await;
    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert!(names.contains(&"pump_status"), "{names:?}");
    assert!(!names.contains(&"tank_drain"), "destructive is hidden by default: {names:?}");
    assert!(names.contains(&"collect_events"), "{names:?}");
    for tool in &tools {
        let a = serde_json::to_value(tool.annotations.as_ref().unwrap()).unwrap();
        for hint in ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] {
            assert!(a[hint].is_boolean(), "{}: {hint} missing in {a}", tool.name);
        }
    }

    let call =
        CallToolRequestParams::new("pump_status").with_arguments(args(json!({"pump": "P-101"})));
    let result = client.call_tool(call).await.unwrap();
    assert_eq!(result.is_error, Some(false));
    let structured = result.structured_content.unwrap();
    // The contract's example for these params, as `accord serve` answers it.
    assert_eq!(structured["result"]["pump"], "P-101");
    assert_eq!(structured["result"]["state"], "running");

    let list = client.call_tool(CallToolRequestParams::new("pump_list")).await.unwrap();
    assert!(list.structured_content.unwrap()["result"].is_array());

    client.cancel().await.unwrap();
    server.stop();
}

#[tokio::test]
async fn an_invalid_argument_is_a_tool_error_with_its_pointer_and_an_unknown_tool_an_mcp_error() {
    let (server, client) = start("pump-plant", ExposurePolicy::default()).await;
    let call = CallToolRequestParams::new("pump_status").with_arguments(args(json!({"pump": 7})));
    let result = client.call_tool(call).await.unwrap();
    assert_eq!(result.is_error, Some(true));
    assert!(result.structured_content.is_none(), "{result:?}");
    let text = result.content[0].as_text().unwrap().text.clone();
    assert!(text.contains("\n/pump: expected "), "{text}");
    assert!(client.call_tool(CallToolRequestParams::new("tank_drain")).await.is_err());
    client.cancel().await.unwrap();
    server.stop();
}

#[tokio::test]
async fn the_contract_and_each_namespaces_types_are_resources() {
    let (server, client) = start("pump-plant", ExposurePolicy::default()).await;
    let resources = client.list_all_resources().await.unwrap();
    let uris: Vec<&str> = resources.iter().map(|r| r.uri.as_str()).collect();
    assert_eq!(
        uris,
        ["accord://contract", "accord://types/pump", "accord://types/valve", "accord://types/tank"]
    );
    for uri in uris {
        let read = client.read_resource(ReadResourceRequestParams::new(uri)).await.unwrap();
        let text = match &read.contents[0] {
            rmcp::model::ResourceContents::TextResourceContents { text, .. } => text.clone(),
            other => panic!("{uri}: {other:?}"),
        };
        let value: Value = serde_json::from_str(&text).unwrap();
        if uri == "accord://contract" {
            // The describe answer of the fake: the contract it serves.
            assert!(value["contract"]["namespaces"]["pump"].is_object(), "{value}");
        } else {
            assert!(value.is_object() && !value.as_object().unwrap().is_empty(), "{uri}");
        }
    }
    client.cancel().await.unwrap();
    server.stop();
}

#[tokio::test]
async fn collect_events_gathers_payloads_from_the_fake_on_both_subscription_styles() {
    for (name, event) in [("pump-plant", "pump.stateChanged"), ("boiler-plant", "boiler.telemetry")]
    {
        let (server, client) = start(name, ExposurePolicy::default()).await;
        let call = CallToolRequestParams::new("collect_events")
            .with_arguments(args(json!({"event": event, "count": 2, "timeoutMs": 5000})));
        let result = client.call_tool(call).await.unwrap();
        let structured = result.structured_content.unwrap();
        assert_eq!(structured["payloads"].as_array().unwrap().len(), 2, "{name}: {structured}");
        let bad = CallToolRequestParams::new("collect_events")
            .with_arguments(args(json!({"event": "nope.none", "count": 0})));
        let refused = client.call_tool(bad).await.unwrap();
        assert_eq!(refused.is_error, Some(true));
        client.cancel().await.unwrap();
        server.stop();
    }
}
