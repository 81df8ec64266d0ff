//! The WebSocket read timeout (docs/wire.md §9): a frame or fragmented message that stalls is
//! closed with 1008 after the read timeout and its connection slot comes back; an idle socket
//! stays open. The tests handshake over a raw TCP socket and write frames byte-exact (masked by
//! tungstenite's own frame writer) so that they can stop anywhere inside one.

use std::time::Duration;

use accord_serve::{Config, Server};
use futures_util::StreamExt;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::Role;
use tokio_tungstenite::tungstenite::protocol::frame::coding::{Control, Data, OpCode};
use tokio_tungstenite::tungstenite::protocol::frame::{Frame, FrameHeader};

use crate::common::{local_with, pump};
use crate::lifecycle::capture_log;

/// The read timeout of these plants.
const TIMEOUT: Duration = Duration::from_millis(200);
/// The most any step waits for the server; far past the timeout, so never what a test measures.
const BOUND: Duration = Duration::from_secs(10);

pub(crate) type Raw = WebSocketStream<TcpStream>;

fn short() -> Config {
    local_with(|c| c.read_timeout = TIMEOUT)
}

/// A raw connection after a real handshake (RFC 6455 §1.3's sample key), read with tungstenite
/// and written byte by byte by the test; `Err` is the status line of a refused upgrade.
pub(crate) async fn handshaken(server: &Server) -> Result<Raw, String> {
    handshaken_on(TcpStream::connect(server.addr()).await.unwrap()).await
}

/// [`handshaken`] over a socket already connected; panics on a refused upgrade.
pub(crate) async fn handshake_on(tcp: TcpStream) -> Raw {
    handshaken_on(tcp).await.unwrap()
}

async fn handshaken_on(mut tcp: TcpStream) -> Result<Raw, String> {
    tcp.write_all(
        b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
          Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
    )
    .await
    .unwrap();
    // Byte by byte, so that nothing past the head is taken from the socket.
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        head.push(tcp.read_u8().await.unwrap());
    }
    let head = String::from_utf8(head).unwrap().to_ascii_lowercase();
    if !head.starts_with("http/1.1 101") {
        return Err(head.lines().next().unwrap_or_default().to_owned());
    }
    assert!(head.contains("sec-websocket-accept: s3pplmbitxaq9kygzzhzrbk+xoo=\r\n"), "{head}");
    Ok(WebSocketStream::from_raw_socket(tcp, Role::Client, None).await)
}

/// One frame from this client: masked, as RFC 6455 §5.3 requires.
pub(crate) fn frame(opcode: OpCode, fin: bool, payload: &[u8]) -> Vec<u8> {
    let header =
        FrameHeader { is_final: fin, opcode, mask: Some([1, 2, 3, 4]), ..FrameHeader::default() };
    let mut out = Vec::new();
    Frame::from_payload(header, payload.to_vec().into()).format(&mut out).unwrap();
    out
}

pub(crate) fn text(fin: bool, payload: &str) -> Vec<u8> {
    frame(OpCode::Data(Data::Text), fin, payload.as_bytes())
}

pub(crate) fn list(id: u64) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "pump.list"}).to_string()
}

pub(crate) async fn write(ws: &mut Raw, bytes: &[u8]) {
    ws.get_mut().write_all(bytes).await.unwrap();
}

/// The next text message as JSON, or how the socket ended: `Err(Some((code, reason)))` a close
/// frame, `Err(None)` the end of the stream without one.
pub(crate) async fn read(ws: &mut Raw) -> Result<Value, Option<(u16, String)>> {
    let next = async {
        loop {
            match ws.next().await {
                Some(Ok(Message::Text(text))) => return Ok(serde_json::from_str(&text).unwrap()),
                Some(Ok(Message::Close(frame))) => {
                    return Err(frame.map(|f| (u16::from(f.code), f.reason.to_string())));
                }
                Some(Ok(_)) => continue,
                None | Some(Err(_)) => return Err(None),
            }
        }
    };
    tokio::time::timeout(BOUND, next).await.expect("the server neither answered nor closed")
}

/// The socket is closed for its stalled frame: 1008 naming the read timeout, then the end.
async fn closed_for_stalling(ws: &mut Raw) {
    let (code, reason) = read(ws).await.unwrap_err().expect("a close frame");
    assert_eq!((code, reason.as_str()), (1008, "read timeout: a frame stalled for 200 ms"));
    assert_eq!(read(ws).await.unwrap_err(), None, "the socket ends after its close");
}

#[tokio::test]
async fn half_a_frame_header_then_silence_is_closed() {
    let log = capture_log();
    let server = pump(short()).await;
    let mut ws = handshaken(&server).await.unwrap();
    // Three bytes of a six-byte header (first byte, length byte, half the masking key).
    write(&mut ws, &text(true, &list(1))[..3]).await;
    closed_for_stalling(&mut ws).await;
    server.shutdown().await;
    let log = log.text();
    let stalled = log
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .find(|line| line["fields"]["message"] == "frame stalled; closing")
        .unwrap_or_else(|| panic!("no log line of the stalled frame: {log}"));
    assert_eq!(stalled["fields"]["timeout_ms"], 200);
    assert_eq!(stalled["fields"]["transport"], "websocket");
}

#[tokio::test]
async fn a_header_and_half_the_payload_then_silence_is_closed() {
    let server = pump(short()).await;
    let mut ws = handshaken(&server).await.unwrap();
    // 300 bytes: the 16-bit extended length.
    let request = json!({"jsonrpc": "2.0", "id": 1, "method": "pump.list", "x": "y".repeat(240)});
    let bytes = text(true, &request.to_string());
    let header = 2 + 2 + 4;
    write(&mut ws, &bytes[..header + (bytes.len() - header) / 2]).await;
    closed_for_stalling(&mut ws).await;
    server.shutdown().await;
}

#[tokio::test]
async fn a_first_fragment_then_silence_is_closed() {
    let server = pump(short()).await;
    let mut ws = handshaken(&server).await.unwrap();
    write(&mut ws, &text(false, r#"{"jsonrpc": "2.0", "id": 1,"#)).await;
    closed_for_stalling(&mut ws).await;
    server.shutdown().await;
}

#[tokio::test]
async fn a_ping_between_fragments_does_not_finish_the_message() {
    let server = pump(short()).await;
    let mut ws = handshaken(&server).await.unwrap();
    let ping = frame(OpCode::Control(Control::Ping), true, b"still here");
    write(&mut ws, &[text(false, r#"{"jsonrpc": "2.0", "id": 1,"#), ping].concat()).await;
    // The ping is answered (read skips the pong), and the message still stalls.
    closed_for_stalling(&mut ws).await;
    server.shutdown().await;
}

#[tokio::test]
async fn a_message_and_the_start_of_the_next_in_one_write() {
    let server = pump(short()).await;
    let mut ws = handshaken(&server).await.unwrap();
    let bytes = [text(true, &list(1)), text(true, &list(2))[..2].to_vec()].concat();
    write(&mut ws, &bytes).await;
    let answer = read(&mut ws).await.unwrap();
    assert_eq!(answer["id"], 1);
    assert!(answer["result"].is_array(), "{answer}");
    closed_for_stalling(&mut ws).await;
    server.shutdown().await;
}

#[tokio::test]
async fn an_idle_socket_stays_open_past_several_timeouts() {
    let server = pump(short()).await;
    let mut ws = handshaken(&server).await.unwrap();
    // Idle from the handshake on.
    let quiet = tokio::time::timeout(TIMEOUT * 5, ws.next()).await;
    assert!(quiet.is_err(), "something arrived on an idle socket: {quiet:?}");
    // A fragmented message, finished: answered, and nothing is owed after it.
    let request = list(1);
    let (first, last) = request.split_at(10);
    write(&mut ws, &text(false, first)).await;
    write(&mut ws, &frame(OpCode::Data(Data::Continue), true, last.as_bytes())).await;
    assert_eq!(read(&mut ws).await.unwrap()["id"], 1);
    let quiet = tokio::time::timeout(TIMEOUT * 5, ws.next()).await;
    assert!(quiet.is_err(), "something arrived on an idle socket: {quiet:?}");
    write(&mut ws, &text(true, &list(2))).await;
    assert_eq!(read(&mut ws).await.unwrap()["id"], 2);
    server.shutdown().await;
}

#[tokio::test]
async fn a_stalled_socket_gives_its_connection_back() {
    let mut config = short();
    config.limits.connections = 1;
    let server = pump(config).await;
    let mut stalled = handshaken(&server).await.unwrap();
    // It holds the only slot (checked before it stalls, so no timer races the check).
    assert_eq!(handshaken(&server).await.unwrap_err(), "http/1.1 503 service unavailable");
    write(&mut stalled, &text(true, &list(1))[..1]).await;
    closed_for_stalling(&mut stalled).await;
    let again = tokio::time::timeout(BOUND, async {
        loop {
            match handshaken(&server).await {
                Ok(ws) => break ws,
                Err(status) if status.contains(" 503 ") => tokio::task::yield_now().await,
                Err(status) => panic!("{status}"),
            }
        }
    });
    let mut ws = again.await.expect("the slot came back");
    write(&mut ws, &text(true, &list(2))).await;
    assert_eq!(read(&mut ws).await.unwrap()["id"], 2);
    server.shutdown().await;
}
