//! Hostile WebSocket peers (docs/wire.md §9): broken frames closed with the close code RFC 6455
//! gives them, a message that takes too long closed however steadily it trickles, a ping flood
//! that never reads closed by the write timeout (its pongs coalesced meanwhile), subscriptions
//! per connection limited, and a long answer sent in fragments. After each, a normal call over
//! HTTP still succeeds. The slow probes measured against a real process (RSS, descriptor
//! limits) are crates/cli/tests/it/hostile_serve.rs.

use std::time::{Duration, Instant};

use accord_schema_model::Document;
use accord_serve::{Config, ScenarioSource, Server};
use futures_util::StreamExt;
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpSocket;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::coding::{Control, Data, OpCode};

use crate::common::{call, local, local_with, next, pump, send, ws, ws_call};
use crate::lifecycle::capture_log;
use crate::stall::{frame, handshaken, list, read, text, write};

/// The most any step waits for the server.
const BOUND: Duration = Duration::from_secs(10);

async fn a_normal_call_answers(server: &Server) {
    let answer = tokio::time::timeout(BOUND, call(server, "pump.list", json!({}))).await;
    assert!(answer.expect("a normal call answered")["result"].is_array());
}

/// `bytes` written on a fresh WebSocket: the close frame's code and reason it gets.
async fn closed_with(server: &Server, bytes: &[u8]) -> (u16, String) {
    let mut ws = handshaken(server).await.unwrap();
    write(&mut ws, bytes).await;
    read(&mut ws).await.unwrap_err().expect("a close frame")
}

#[tokio::test]
async fn broken_frames_get_the_close_code_rfc_6455_gives_them() {
    let server = pump(local()).await;
    // Not UTF-8 in a text message: 1007 (invalid frame payload data).
    let (code, reason) =
        closed_with(&server, &frame(OpCode::Data(Data::Text), true, b"\xff\xfe")).await;
    assert_eq!((code, reason.as_str()), (1007, "invalid UTF-8 in a text message"));
    // An unmasked client frame: 1002 (protocol error).
    let (code, _) = closed_with(&server, &[0x81, 0x02, b'{', b'}']).await;
    assert_eq!(code, 1002);
    // A reserved data opcode (0x3), masked: 1002.
    let (code, _) = closed_with(&server, &[0x83, 0x80, 1, 2, 3, 4]).await;
    assert_eq!(code, 1002);
    // A ping of 200 bytes (control frames carry at most 125): 1002.
    let (code, reason) =
        closed_with(&server, &frame(OpCode::Control(Control::Ping), true, &[b'p'; 200])).await;
    assert_eq!(code, 1002, "{reason}");
    // Past the hard cap (the header says 5 MiB; the payload is never read): 1009 naming the
    // limit, as before.
    let huge = text(true, &"x".repeat(5 << 20));
    let (code, reason) = closed_with(&server, &huge[..100]).await;
    assert_eq!((code, reason.as_str()), (1009, "limit body-bytes: max 1048576 bytes"));
    a_normal_call_answers(&server).await;
    server.shutdown().await;
}

/// The read timeout of the message-deadline plants.
const READ: Duration = Duration::from_millis(1000);

fn patient() -> Config {
    local_with(|c| c.read_timeout = READ)
}

/// Writes `first`, then each of `then` every 300 ms, until the socket closes; the close frame.
async fn trickled(server: &Server, first: Vec<u8>, then: Vec<u8>) -> ((u16, String), Duration) {
    let mut ws = handshaken(server).await.unwrap();
    let started = Instant::now();
    write(&mut ws, &first).await;
    let closed = tokio::time::timeout(BOUND, async {
        loop {
            tokio::select! {
                message = ws.next() => match message {
                    Some(Ok(Message::Close(Some(frame)))) => {
                        return (u16::from(frame.code), frame.reason.to_string());
                    }
                    Some(Ok(_)) => continue,
                    other => panic!("no close frame: {other:?}"),
                },
                () = tokio::time::sleep(Duration::from_millis(300)) => {
                    // The test writes its own bytes; a socket already closed takes none.
                    let _ = ws.get_mut().write_all(&then).await;
                }
            }
        }
    });
    (closed.await.expect("closed within the bound"), started.elapsed())
}

/// A message begun, then `then` every 300 ms: closed with 1008 within a few read timeouts, and
/// a normal call answers after.
async fn closed_as_too_slow(then: Vec<u8>) {
    let server = pump(patient()).await;
    let (closed, took) = trickled(&server, text(false, r#"{"jsonrpc": "2.0","#), then).await;
    assert_eq!(closed, (1008, "read timeout: a message took longer than 1000 ms".to_owned()));
    assert!(took < READ * 3, "{took:?}");
    a_normal_call_answers(&server).await;
    server.shutdown().await;
}

#[tokio::test]
async fn a_fragmented_message_trickled_is_closed_once_it_has_taken_too_long() {
    // A fragment every 300 ms: each in time, the message for ever.
    closed_as_too_slow(frame(OpCode::Data(Data::Continue), false, b" ")).await;
}

#[tokio::test]
async fn a_message_kept_open_by_pings_is_closed_once_it_has_taken_too_long() {
    closed_as_too_slow(frame(OpCode::Control(Control::Ping), true, b"still here")).await;
}

#[tokio::test]
async fn messages_that_keep_coming_each_in_time_are_answered() {
    // Whole messages back to back for longer than the timeout: each is new, none is late.
    let server = pump(patient()).await;
    let mut ws = handshaken(&server).await.unwrap();
    let started = Instant::now();
    let mut id = 0;
    while started.elapsed() < READ * 2 {
        id += 1;
        let request = list(id);
        let (first, last) = request.split_at(10);
        write(&mut ws, &text(false, first)).await;
        tokio::time::sleep(Duration::from_millis(100)).await;
        write(&mut ws, &frame(OpCode::Data(Data::Continue), true, last.as_bytes())).await;
        assert_eq!(read(&mut ws).await.unwrap()["id"], id);
    }
    server.shutdown().await;
}

#[tokio::test]
async fn a_ping_flood_that_never_reads_is_closed_by_the_write_timeout() {
    let log = capture_log();
    let config = local_with(|c| c.write_timeout = Duration::from_millis(300));
    let server = pump(config).await;
    let socket = TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let tcp = socket.connect(server.addr()).await.unwrap();
    let mut ws = crate::stall::handshake_on(tcp).await;
    let burst = frame(OpCode::Control(Control::Ping), true, &[b'p'; 125]).repeat(256);
    let flood = tokio::time::timeout(BOUND, async {
        // Until the server drops the connection: a write fails.
        while ws.get_mut().write_all(&burst).await.is_ok() {}
    });
    flood.await.expect("the flood was cut within the bound");
    a_normal_call_answers(&server).await;
    server.shutdown().await;
    let log = log.text();
    assert!(log.contains("write stalled; closing"), "{log}");
    assert!(!log.contains("message refused"), "{log}");
}

#[tokio::test]
async fn subscriptions_per_connection_are_limited() {
    let server = pump(local_with(|c| c.limits.engine.subscriptions = 3)).await;
    let mut socket = ws(&server, None).await.unwrap();
    let event = json!({"event": "pump.alarm"});
    for _ in 0..3 {
        assert!(ws_call(&mut socket, "rpc.subscribe", event.clone()).await["result"].is_string());
    }
    let over = ws_call(&mut socket, "rpc.subscribe", event.clone()).await;
    assert_eq!(over["error"]["code"], -32003, "{over}");
    assert_eq!(over["error"]["data"], json!({"limit": "subscriptions", "max": 3}));
    // One ended makes room for one more.
    let ended = ws_call(&mut socket, "rpc.unsubscribe", json!({"subscription": "sub-1"})).await;
    assert_eq!(ended["result"], true);
    assert!(ws_call(&mut socket, "rpc.subscribe", event).await["result"].is_string());
    // An emit reaches each of the three, before its answer.
    send(
        &mut socket,
        r#"{"jsonrpc": "2.0", "id": 9, "method": "rpc.fake", "params": {"emit": "pump.alarm"}}"#,
    )
    .await;
    for _ in 0..3 {
        assert_eq!(next(&mut socket).await.unwrap()["method"], "rpc.event");
    }
    assert_eq!(next(&mut socket).await.unwrap()["result"], json!({"emitted": 3}));
    a_normal_call_answers(&server).await;
    server.shutdown().await;
}

#[tokio::test]
async fn a_long_answer_goes_out_in_fragments_and_arrives_whole() {
    let doc = Document::parse(
        r#"{"schema": 1, "namespaces": {"t": {"version": "1.0.0",
            "methods": {"big": {"semantics": "read", "result": {"kind": "string"}}}}}}"#,
    )
    .unwrap();
    let long = "é".repeat(150_000);
    let scenario = json!({"scenario": 1, "answers": [{"method": "t.big", "result": long}]});
    let config = local_with(|c| {
        c.scenario = Some(ScenarioSource { file: "big.json".into(), text: scenario.to_string() });
    });
    let server = accord_serve::start(doc, config).await.unwrap();
    let mut raw = handshaken(&server).await.unwrap();
    write(&mut raw, &text(true, r#"{"jsonrpc": "2.0", "id": 1, "method": "t.big"}"#)).await;
    // Read frame by frame: more than one text frame, and the whole is the answer.
    let answer: Value = read(&mut raw).await.unwrap();
    assert_eq!(answer["result"].as_str().map(str::len), Some(300_000));
    server.shutdown().await;
}
