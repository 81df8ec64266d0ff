//! Shutdown, read timeouts and the request log.

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::common::{close_code, local, local_with, post, pump, ws, ws_call};

#[tokio::test]
async fn shutdown_finishes_requests_in_flight_and_closes_websockets() {
    let log = capture_log();
    let server = pump(local()).await;
    let mut socket = ws(&server, None).await.unwrap();
    assert!(ws_call(&mut socket, "pump.list", json!({})).await["result"].is_array());
    let received = || log.text().matches("message received").count();
    let before = received();
    let url = server.url();
    let slow = tokio::spawn(async move {
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": "rpc.fake",
            "params": {"call": {"method": "pump.list"}, "delayMs": 300}});
        let response = reqwest::Client::new()
            .post(url)
            .header("Content-Type", "application/json")
            .body(body.to_string())
            .send()
            .await
            .unwrap();
        response.text().await.unwrap()
    });
    // Shut down only once the server has read the slow request (its log says so).
    while received() == before {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let addr = server.addr();
    server.shutdown().await;
    let answer: serde_json::Value = serde_json::from_str(&slow.await.unwrap()).unwrap();
    assert!(answer["result"].is_array(), "the request in flight was answered: {answer}");
    assert_eq!(close_code(&mut socket).await, Some(1001));
    assert!(tokio::net::TcpStream::connect(addr).await.is_err(), "no longer listening");
}

/// RFC 6455 §5.5.1: a Close frame is answered with a Close frame; the client then sees a clean
/// close with the code it sent, not a dropped connection (1006).
#[tokio::test]
async fn a_client_close_frame_is_answered_with_a_close_frame() {
    use futures_util::SinkExt;
    use tokio_tungstenite::tungstenite::protocol::CloseFrame;
    use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

    let server = pump(local()).await;
    let mut socket = ws(&server, None).await.unwrap();
    assert!(ws_call(&mut socket, "pump.list", json!({})).await["result"].is_array());
    let frame = CloseFrame { code: CloseCode::Normal, reason: "done".into() };
    socket.send(tokio_tungstenite::tungstenite::Message::Close(Some(frame))).await.unwrap();
    let answered = tokio::time::timeout(Duration::from_secs(10), close_code(&mut socket)).await;
    assert_eq!(answered.expect("an answer within 10 s"), Some(1000), "a clean close, code 1000");
    server.shutdown().await;
}

#[tokio::test]
async fn a_stalled_request_is_closed_after_the_read_timeout() {
    let config = local_with(|c| c.read_timeout = Duration::from_millis(100));
    let server = pump(config).await;
    let mut stream = tokio::net::TcpStream::connect(server.addr()).await.unwrap();
    stream.write_all(b"POST / HTTP/1.1\r\nHost: x\r\n").await.unwrap();
    let mut buf = Vec::new();
    // The server ends the connection; the read returns rather than hang.
    let _ = stream.read_to_end(&mut buf).await;
    let text = String::from_utf8_lossy(&buf);
    assert!(text.is_empty() || text.starts_with("HTTP/1.1 408"), "{text}");
    // A body that stalls is answered 408 and closed.
    let mut stream = tokio::net::TcpStream::connect(server.addr()).await.unwrap();
    stream
        .write_all(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{\"jsonrpc\"")
        .await
        .unwrap();
    let mut buf = Vec::new();
    let _ = stream.read_to_end(&mut buf).await;
    assert!(String::from_utf8_lossy(&buf).starts_with("HTTP/1.1 408"));
    server.shutdown().await;
}

#[derive(Clone, Default)]
pub(crate) struct Captured(Arc<Mutex<Vec<u8>>>);

impl Captured {
    pub(crate) fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
    }
}

/// Installs a JSON log at DEBUG into a buffer. nextest runs each test in its own process, so a
/// test may install the global subscriber.
pub(crate) fn capture_log() -> Captured {
    let captured = Captured::default();
    let writer = captured.clone();
    tracing_subscriber::fmt()
        .json()
        .with_max_level(tracing::Level::DEBUG)
        .with_writer(move || writer.clone())
        .try_init()
        .unwrap();
    captured
}

impl Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test]
async fn the_log_marks_calls_of_methods_with_undeclared_semantics() {
    let captured = capture_log();
    let server = pump(local()).await;
    post(
        &server,
        r#"{"jsonrpc": "2.0", "id": 1, "method": "pump.runSelfTest", "params": {"pump": "P-101"}}"#,
    )
    .await;
    post(&server, r#"{"jsonrpc": "2.0", "id": 2, "method": "pump.list"}"#).await;
    let fake = r#"{"jsonrpc": "2.0", "id": 3, "method": "rpc.fake", "params": {"call": {"method": "pump.runSelfTest", "params": {"pump": "P-101"}}}}"#;
    post(&server, fake).await;
    server.shutdown().await;
    let log = captured.text();
    let lines: Vec<serde_json::Value> =
        log.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let calls: Vec<&serde_json::Value> =
        lines.iter().filter(|l| l["fields"]["method"].is_string()).collect();
    assert_eq!(calls.len(), 3, "{log}");
    assert_eq!(calls[2]["fields"]["method"], "rpc.fake");
    assert_eq!(calls[2]["fields"]["semantics"], "undeclared", "a steered call is marked too");
    assert_eq!(calls[0]["fields"]["method"], "pump.runSelfTest");
    assert_eq!(calls[0]["fields"]["semantics"], "undeclared");
    assert_eq!(calls[0]["level"], "WARN");
    assert_eq!(calls[1]["fields"]["method"], "pump.list");
    assert!(calls[1]["fields"].get("semantics").is_none());
}
