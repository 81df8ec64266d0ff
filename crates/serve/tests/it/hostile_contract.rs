//! A contract that asks for huge values: the plant answers `-32003` naming the generation
//! budget or the answer size, and keeps serving; it never aborts or answers hundreds of MB.

use accord_schema_model::Document;
use accord_serve::{Budget, Config, Server};
use serde_json::{Value, json};

use crate::common::{call, local, local_with, post};

/// A contract of one method `h.get` with this result type.
async fn plant(result: Value, config: Config) -> Server {
    let doc = json!({"schema": 1, "namespaces": {"h": {"version": "1.0.0", "methods": {
        "get": {"semantics": "read", "params": [], "result": result},
        "small": {"semantics": "read", "params": [], "result": {"kind": "string", "minLength": 1000, "maxLength": 1000}}}}}});
    accord_serve::start(Document::from_value(doc).unwrap(), config).await.unwrap()
}

fn error(body: &Value) -> &Value {
    body.get("error").unwrap_or_else(|| panic!("an error: {body}"))
}

/// 10,000 × 10,000 integers: without the budget the plant aborts on the allocation.
#[tokio::test]
async fn arrays_of_huge_arrays_are_refused_by_the_node_budget() {
    let result = json!({"kind": "array", "minItems": 10000, "items":
        {"kind": "array", "minItems": 10000, "items": {"kind": "integer"}}});
    let server = plant(result, local()).await;
    let body = call(&server, "h.get", json!([])).await;
    let e = error(&body);
    assert_eq!(e["code"], -32003, "{body}");
    assert_eq!(e["data"]["limit"], "generation-nodes");
    assert_eq!(e["data"]["max"], Budget::default().nodes as u64);
    assert!(e["data"]["reason"].as_str().unwrap().contains("no result could be made"), "{body}");
    // Still serving.
    let body = call(&server, "h.small", json!([])).await;
    assert_eq!(body["result"].as_str().map(str::len), Some(1000), "{body}");
    server.shutdown().await;
}

/// The 45-byte call of the probe: 10,000 strings of 65,536 characters (655 MB) is refused by
/// the byte budget.
#[tokio::test]
async fn huge_strings_are_refused_by_the_byte_budget() {
    let result = json!({"kind": "array", "minItems": 10000, "items": {"kind": "string", "minLength": 65536}});
    let server = plant(result, local()).await;
    let reply = post(&server, r#"{"jsonrpc":"2.0","id":1,"method":"h.get"}"#).await;
    assert!(reply.text.len() < 1024, "{} bytes", reply.text.len());
    assert_eq!(error(&reply.body)["data"]["limit"], "generation-bytes", "{}", reply.text);
    server.shutdown().await;
}

/// An answer past `answer-bytes`, within the generation budget: one response, and a batch
/// whose responses add up past it (each response that would pass it is refused in its place).
#[tokio::test]
async fn answers_past_answer_bytes_are_refused() {
    let result = json!({"kind": "array", "minItems": 10, "maxItems": 10, "items": {"kind": "string", "minLength": 4000, "maxLength": 4000}});
    let server = plant(result, local_with(|c| c.limits.engine.answer_bytes = 20_000)).await;
    let reply = post(&server, r#"{"jsonrpc":"2.0","id":7,"method":"h.get"}"#).await;
    assert!(reply.text.len() < 20_000, "{} bytes", reply.text.len());
    assert_eq!(reply.body["id"], 7);
    let e = error(&reply.body);
    assert_eq!(e["code"], -32003);
    assert_eq!(e["data"]["limit"], "answer-bytes");
    assert_eq!(e["data"]["max"], 20_000);
    let small = json!({"jsonrpc": "2.0", "id": 1, "method": "h.small"});
    let batch: Vec<Value> = (1..=30)
        .map(|i| json!({"jsonrpc": "2.0", "id": i, "method": "h.small"}))
        .chain([small])
        .collect();
    let reply = post(&server, &Value::from(batch).to_string()).await;
    // Past the limit only the refusals themselves are added, each under 256 bytes.
    assert!(reply.text.len() <= 20_000 + 31 * 256, "{} bytes", reply.text.len());
    let answers = reply.body.as_array().expect("a batch answer");
    assert_eq!(answers.len(), 31, "every request answered");
    let fitted = answers.iter().filter(|a| a.get("result").is_some()).count();
    assert!((15..=19).contains(&fitted), "{fitted} results fit in 20,000 bytes");
    assert!(answers[fitted..].iter().all(|a| a["error"]["data"]["limit"] == "answer-bytes"));
    server.shutdown().await;
}

/// The budget is the caller's to set: a tight one refuses what the default makes.
#[tokio::test]
async fn the_generation_budget_is_configurable() {
    let result = json!({"kind": "array", "minItems": 10, "items": {"kind": "integer"}});
    let server = plant(result, local_with(|c| c.limits.generation = Budget::new(5, 1 << 20))).await;
    let body = call(&server, "h.get", json!([])).await;
    assert_eq!(
        error(&body)["data"],
        json!({"limit": "generation-nodes", "max": 5,
        "reason": error(&body)["data"]["reason"]})
    );
    server.shutdown().await;
}

/// A request with a thousand wrong values gets the first 32 errors and the count of the rest,
/// not a thousand errors (a 600 KB request once got a 24 MB answer).
#[tokio::test]
async fn invalid_params_list_at_most_32_errors() {
    let doc = json!({"schema": 1, "namespaces": {"h": {"version": "1.0.0", "methods": {
        "put": {"semantics": "write", "params": [{"name": "xs", "type":
            {"kind": "array", "items": {"kind": "integer"}}}], "result": {"kind": "null"}}}}}});
    let server = accord_serve::start(Document::from_value(doc).unwrap(), local()).await.unwrap();
    let body = call(&server, "h.put", json!([vec!["no"; 1000]])).await;
    let data = &error(&body)["data"];
    assert_eq!(data["errors"].as_array().map(Vec::len), Some(32), "{body}");
    assert_eq!(data["errors"][31]["path"], "/0/31");
    assert_eq!(data["more"], 968);
    // Within the cap, no `more`.
    let body = call(&server, "h.put", json!([["no", 1, "no"]])).await;
    assert_eq!(error(&body)["data"].get("more"), None, "{body}");
    server.shutdown().await;
}
