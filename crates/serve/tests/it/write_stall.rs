//! The write timeout (docs/wire.md §9): a peer that sends requests but never reads their answers
//! is dropped once one write has waited the write timeout, over HTTP and over WebSocket, and its
//! slot is free again. The clients shrink their receive buffer so that the plant's writes stall
//! after a few megabytes rather than after what loopback's default buffers hold.

use std::time::{Duration, Instant};

use accord_schema_model::Document;
use accord_serve::{ServeLimits, Server};
use futures_util::SinkExt;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::Message;

use crate::common::{fixtures, local_with, ws};
use crate::lifecycle::{Captured, capture_log};

/// The write timeout of these plants.
const TIMEOUT: Duration = Duration::from_millis(200);
/// The most any step waits for the server; far past the timeout, so never what a test measures.
const BOUND: Duration = Duration::from_secs(20);
/// Requests sent without reading an answer: 2,000 answers of ~10 KB, far more than loopback
/// buffers hold once the client's receive buffer is small.
const REQUESTS: usize = 2_000;

/// The bench contract: `bench.catalog` answers with ~10 KB from its example.
async fn catalog_plant(limits: ServeLimits) -> Server {
    let path = fixtures().join("peers/bench.types.json");
    let doc = Document::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
    let config = local_with(|c| {
        c.write_timeout = TIMEOUT;
        c.limits = limits;
    });
    accord_serve::start(doc, config).await.unwrap()
}

fn catalog_request(id: usize) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"bench.catalog","params":[]}}"#)
}

/// A connected socket whose receive buffer is as small as the kernel allows.
async fn reluctant_reader(server: &Server) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    socket.connect(server.addr()).await.unwrap()
}

/// Waits for the log line of a stalled write on `transport`.
async fn stalled_write_logged(log: &Captured, transport: &str) -> Value {
    let start = Instant::now();
    loop {
        let found =
            log.text().lines().map(|line| serde_json::from_str::<Value>(line).unwrap()).find(
                |line| {
                    line["fields"]["message"] == "write stalled; closing"
                        && line["fields"]["transport"] == transport
                },
            );
        if let Some(line) = found {
            return line;
        }
        assert!(start.elapsed() < BOUND, "no stalled write logged: {}", log.text());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn an_http_peer_that_never_reads_is_dropped() {
    let log = capture_log();
    let server = catalog_plant(ServeLimits::default()).await;
    let tcp = reluctant_reader(&server).await;
    let (mut reader, mut writer) = tcp.into_split();
    // Pipelined, from a task of its own: once the plant stops reading, these writes stall too.
    let sender = tokio::spawn(async move {
        for id in 0..REQUESTS {
            let body = catalog_request(id);
            let head = format!(
                "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
                 Content-Length: {}\r\n\r\n",
                body.len()
            );
            if writer.write_all(format!("{head}{body}").as_bytes()).await.is_err() {
                return;
            }
        }
    });
    let line = stalled_write_logged(&log, "http").await;
    assert_eq!(line["fields"]["timeout_ms"], 200);
    // What was written before the stall can still be read; then the connection ends, long
    // before the 2,000 answers (about 20 MB) are all there.
    let mut read = 0_usize;
    let mut chunk = vec![0; 64 * 1024];
    let ended = tokio::time::timeout(BOUND, async {
        loop {
            match reader.read(&mut chunk).await {
                Ok(0) | Err(_) => break,
                Ok(n) => read += n,
            }
        }
    })
    .await;
    assert!(ended.is_ok(), "the connection did not end after its stalled write");
    assert!(read < REQUESTS * 10_000, "all {read} bytes were written: nothing stalled");
    sender.abort();
    server.shutdown().await;
}

#[tokio::test]
async fn a_websocket_peer_that_never_reads_is_dropped_and_its_slot_comes_back() {
    let log = capture_log();
    let mut limits = ServeLimits::default();
    limits.connections = 1;
    let server = catalog_plant(limits).await;
    let tcp = reluctant_reader(&server).await;
    let (mut stuck, _) = tokio_tungstenite::client_async(server.ws_url(), tcp).await.unwrap();
    // The one slot is taken.
    assert_eq!(ws(&server, None).await.err().map(|(status, _)| status), Some(503));
    let sender = tokio::spawn(async move {
        for id in 0..REQUESTS {
            if stuck.send(Message::text(catalog_request(id))).await.is_err() {
                return;
            }
        }
        // Held open, never read, until the test ends.
        std::future::pending::<()>().await;
    });
    let line = stalled_write_logged(&log, "websocket").await;
    assert_eq!(line["fields"]["timeout_ms"], 200);
    // The dropped connection's slot is free: a new WebSocket gets in.
    let start = Instant::now();
    let mut fresh = loop {
        match ws(&server, None).await {
            Ok(fresh) => break fresh,
            Err((503, _)) if start.elapsed() < BOUND => {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            Err(other) => panic!("the slot did not come back: {other:?}"),
        }
    };
    fresh.close(None).await.unwrap();
    sender.abort();
    server.shutdown().await;
}
