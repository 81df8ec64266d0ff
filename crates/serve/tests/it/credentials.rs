//! The three credential states (docs/wire.md §8) over HTTP and over WebSocket.

use accord_serve::Config;
use serde_json::json;

use crate::common::{local, local_with, next, post_with, pump, send, ws, ws_call};

const LIST: &str = r#"{"jsonrpc": "2.0", "id": 1, "method": "pump.list"}"#;
const DESCRIBE: &str = r#"{"jsonrpc": "2.0", "id": 2, "method": "rpc.describe", "params": {"builtAgainst": {"pump": "3.0.0"}}}"#;

fn guarded() -> Config {
    local_with(|c| c.token = Some("s3cret-token".into()))
}

#[tokio::test]
async fn http_without_a_credential_gets_the_reduced_describe_and_minus_32001() {
    let server = pump(guarded()).await;
    let describe = post_with(&server, DESCRIBE, None, "application/json").await;
    assert_eq!(describe.status, 200);
    insta::assert_json_snapshot!("reduced_describe", describe.body);
    let list = post_with(&server, LIST, None, "application/json").await;
    assert_eq!(list.status, 200);
    insta::assert_json_snapshot!("credential_required", list.body);
    let fake = post_with(
        &server,
        r#"{"jsonrpc": "2.0", "id": 3, "method": "rpc.fake", "params": {"call": {"method": "pump.list"}}}"#,
        None,
        "application/json",
    )
    .await;
    assert_eq!(fake.body["error"]["code"], -32001);
    server.shutdown().await;
}

#[tokio::test]
async fn http_with_a_wrong_credential_is_refused_outright() {
    let server = pump(guarded()).await;
    for authorization in ["Bearer wrong", "Basic czNjcmV0LXRva2Vu", "Bearer ", "s3cret-token"] {
        for body in [DESCRIBE, LIST] {
            let reply = post_with(&server, body, Some(authorization), "application/json").await;
            assert_eq!(reply.status, 401, "{authorization}");
            assert_eq!(reply.www_authenticate.as_deref(), Some("Bearer"));
            insta::assert_json_snapshot!("credential_refused", reply.body);
        }
    }
    server.shutdown().await;
}

#[tokio::test]
async fn http_with_the_right_credential_gets_everything() {
    let server = pump(guarded()).await;
    let auth = Some("Bearer s3cret-token");
    let describe = post_with(&server, DESCRIBE, auth, "application/json").await;
    assert_eq!(describe.body["result"]["reduced"], false);
    assert!(describe.body["result"]["contract"].is_object());
    let list = post_with(&server, LIST, auth, "application/json").await;
    assert!(list.body["result"].is_array());
    let lower = post_with(&server, LIST, Some("bearer s3cret-token"), "application/json").await;
    assert!(lower.body["result"].is_array(), "the scheme is case-insensitive");
    server.shutdown().await;
}

#[tokio::test]
async fn websocket_without_a_credential_is_reduced() {
    let server = pump(guarded()).await;
    let mut socket = ws(&server, None).await.unwrap();
    let describe = ws_call(&mut socket, "rpc.describe", json!({})).await;
    assert_eq!(describe["result"]["reduced"], true);
    assert!(describe["result"].get("contract").is_none());
    let list = ws_call(&mut socket, "pump.list", json!({})).await;
    assert_eq!(list["error"]["code"], -32001);
    let subscribe = ws_call(&mut socket, "rpc.subscribe", json!({"event": "pump.alarm"})).await;
    assert_eq!(subscribe["error"]["code"], -32001);
    server.shutdown().await;
}

#[tokio::test]
async fn websocket_with_a_wrong_credential_is_refused_before_the_upgrade() {
    let server = pump(guarded()).await;
    for authorization in ["Bearer nope", "Token s3cret-token"] {
        let (status, body) = ws(&server, Some(authorization)).await.unwrap_err();
        assert_eq!(status, 401);
        let body: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(body["error"]["code"], -32002);
    }
    server.shutdown().await;
}

#[tokio::test]
async fn websocket_with_the_right_credential_gets_everything() {
    let server = pump(guarded()).await;
    let mut socket = ws(&server, Some("Bearer s3cret-token")).await.unwrap();
    let describe = ws_call(&mut socket, "rpc.describe", json!({})).await;
    assert_eq!(describe["result"]["reduced"], false);
    send(
        &mut socket,
        r#"{"jsonrpc": "2.0", "id": 5, "method": "pump.status", "params": ["P-101"]}"#,
    )
    .await;
    let status = next(&mut socket).await.unwrap();
    assert_eq!(status["result"]["pump"], "P-101");
    server.shutdown().await;
}

#[tokio::test]
async fn an_empty_token_is_refused_at_startup() {
    let err = accord_serve::start(
        crate::common::contract("pump-plant"),
        local_with(|c| c.token = Some(String::new())),
    )
    .await
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the token is empty; a plant with credentials needs a non-empty token"
    );
}

#[tokio::test]
async fn a_token_no_header_can_carry_is_refused_at_startup() {
    for (token, reason) in [
        ("s3cret\ntoken", "a line break"),
        ("s3cret\0", "a NUL byte"),
        ("jeton-s\u{e9}cret", "a character past ASCII"),
        (" s3cret", "begins or ends with a space"),
    ] {
        let err = accord_serve::start(
            crate::common::contract("pump-plant"),
            local_with(|c| c.token = Some(token.into())),
        )
        .await
        .unwrap_err();
        assert!(matches!(err, accord_serve::Error::UnusableToken { .. }), "{token:?}: {err}");
        assert!(err.to_string().contains(reason), "{token:?}: {err}");
    }
    let long = "a".repeat(4097);
    let err = accord_serve::start(
        crate::common::contract("pump-plant"),
        local_with(|c| c.token = Some(long)),
    )
    .await
    .unwrap_err();
    assert!(err.to_string().contains("4097 bytes"), "{err}");
}

#[tokio::test]
async fn a_replaced_token_is_the_only_one_taken_and_a_bad_one_is_not_taken() {
    let server = pump(guarded()).await;
    let handle = server.token_handle().expect("a plant with a token has a token handle");
    handle.replace("rotated-token").unwrap();
    let old = post_with(&server, LIST, Some("Bearer s3cret-token"), "application/json").await;
    assert_eq!(old.status, 401, "the old token is refused once replaced");
    let new = post_with(&server, LIST, Some("Bearer rotated-token"), "application/json").await;
    assert!(new.body["result"].is_array(), "{:?}", new.body);
    let err = handle.replace("bad\ntoken").unwrap_err();
    assert!(err.to_string().contains("a line break"), "{err}");
    let still = post_with(&server, LIST, Some("Bearer rotated-token"), "application/json").await;
    assert!(still.body["result"].is_array(), "a refused replacement keeps the token in place");
    server.shutdown().await;
    let open = pump(local()).await;
    assert!(open.token_handle().is_none(), "no token, nothing to replace");
    open.shutdown().await;
}
