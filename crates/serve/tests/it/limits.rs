//! Each limit of docs/wire.md §9 answers with `-32003` naming it, over HTTP and WebSocket.

use accord_serve::Config;
use serde_json::json;

use crate::common::{close_code, local_with, next, post, pump, send, ws};

fn small() -> Config {
    local_with(|c| {
        c.limits.engine.body_bytes = 512;
        c.limits.engine.depth = 8;
        c.limits.engine.batch_length = 3;
        c.limits.connections = 1;
    })
}

#[tokio::test]
async fn body_bytes_over_http_is_413() {
    let server = pump(small()).await;
    let big =
        json!({"jsonrpc": "2.0", "id": 1, "method": "pump.status", "params": ["x".repeat(600)]});
    let reply = post(&server, &big.to_string()).await;
    assert_eq!(reply.status, 413);
    insta::assert_json_snapshot!("limit_body_bytes", reply.body);
    server.shutdown().await;
}

#[tokio::test]
async fn depth_and_batch_length_over_http() {
    let server = pump(small()).await;
    let deep = format!(
        r#"{{"jsonrpc": "2.0", "id": 1, "method": "pump.status", "params": {}1{}}}"#,
        "[".repeat(9),
        "]".repeat(9)
    );
    let reply = post(&server, &deep).await;
    assert_eq!(reply.status, 200);
    insta::assert_json_snapshot!("limit_depth", reply.body);
    let one = json!({"jsonrpc": "2.0", "id": 1, "method": "pump.list"});
    let batch = json!([one, one, one, one]);
    let reply = post(&server, &batch.to_string()).await;
    insta::assert_json_snapshot!("limit_batch_length", reply.body);
    let fits = post(&server, &json!([one, one, one]).to_string()).await;
    assert_eq!(fits.body.as_array().unwrap().len(), 3);
    server.shutdown().await;
}

#[tokio::test]
async fn body_bytes_over_websocket() {
    let server = pump(small()).await;
    let mut socket = ws(&server, None).await.unwrap();
    let over =
        json!({"jsonrpc": "2.0", "id": 1, "method": "pump.status", "params": ["x".repeat(600)]});
    send(&mut socket, &over.to_string()).await;
    let answer = next(&mut socket).await.unwrap();
    assert_eq!(answer["error"]["data"], json!({"limit": "body-bytes", "max": 512}));
    // The connection goes on after an answered limit.
    send(&mut socket, r#"{"jsonrpc": "2.0", "id": 2, "method": "pump.list"}"#).await;
    assert!(next(&mut socket).await.unwrap()["result"].is_array());
    // Past the hard cap the message is not read: the socket closes with 1009 (too big).
    let huge = "x".repeat(200 * 1024);
    send(&mut socket, &huge).await;
    assert_eq!(close_code(&mut socket).await, Some(1009));
    server.shutdown().await;
}

#[tokio::test]
async fn connections_over_the_limit_get_503() {
    let server = pump(small()).await;
    let mut first = ws(&server, None).await.unwrap();
    let (status, body) = ws(&server, None).await.unwrap_err();
    assert_eq!(status, 503);
    let body: serde_json::Value = serde_json::from_str(&body).unwrap();
    insta::assert_json_snapshot!("limit_connections", body);
    send(&mut first, r#"{"jsonrpc": "2.0", "id": 2, "method": "pump.list"}"#).await;
    assert!(next(&mut first).await.unwrap()["result"].is_array());
    drop(first);
    // The slot comes back once the first socket is gone.
    let mut again = loop {
        match ws(&server, None).await {
            Ok(socket) => break socket,
            Err((503, _)) => tokio::task::yield_now().await,
            Err(other) => panic!("{other:?}"),
        }
    };
    send(&mut again, r#"{"jsonrpc": "2.0", "id": 3, "method": "pump.list"}"#).await;
    assert!(next(&mut again).await.unwrap()["result"].is_array());
    server.shutdown().await;
}

#[tokio::test]
async fn a_depth_past_the_parser_s_counts_as_the_parser_s() {
    let server = pump(local_with(|c| c.limits.engine.depth = 500)).await;
    let deep = format!(
        r#"{{"jsonrpc": "2.0", "id": 1, "method": "pump.status", "params": {}1{}}}"#,
        "[".repeat(200),
        "]".repeat(200)
    );
    let reply = post(&server, &deep).await;
    assert_eq!(reply.body["error"]["data"], json!({"limit": "depth", "max": 128}));
    server.shutdown().await;
}
