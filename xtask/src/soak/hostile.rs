//! The hostile load of the soak, each kind of peer in a loop until the deadline, bounded in
//! connections and bytes: slowloris headers, stalled bodies, ping floods that never read,
//! oversized bodies, deep nesting, duplicate keys and huge batches. Each attempt ends in an
//! outcome (what the server did), counted with the time the attempt took.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use super::ws;
use crate::load;

/// Outcomes of one kind of hostile peer: how often each, and the shortest and longest time an
/// attempt that ended so took.
#[derive(Debug, Default)]
pub(crate) struct Outcomes(pub(crate) BTreeMap<String, (u64, Duration, Duration)>);

impl Outcomes {
    pub(crate) fn add(&mut self, outcome: impl Into<String>, took: Duration) {
        let entry = self.0.entry(outcome.into()).or_insert((0, took, took));
        entry.0 += 1;
        entry.1 = entry.1.min(took);
        entry.2 = entry.2.max(took);
    }

    pub(crate) fn merge(&mut self, other: Outcomes) {
        for (outcome, (n, least, most)) in other.0 {
            let entry = self.0.entry(outcome).or_insert((0, least, most));
            entry.0 += n;
            entry.1 = entry.1.min(least);
            entry.2 = entry.2.max(most);
        }
    }

    pub(crate) fn attempts(&self) -> u64 {
        self.0.values().map(|(n, _, _)| n).sum()
    }
}

/// A connection, or `None` once the failure is counted (after a pause, so that a server out of
/// descriptors is not hammered).
async fn connect(addr: SocketAddr, outcomes: &mut Outcomes) -> Option<TcpStream> {
    let started = Instant::now();
    match TcpStream::connect(addr).await {
        Ok(stream) => Some(stream),
        Err(_) => {
            outcomes.add("cannot connect", started.elapsed());
            tokio::time::sleep(Duration::from_secs(1)).await;
            None
        }
    }
}

/// Slowloris: a request head that never ends, one header line a second, connection after
/// connection until the deadline.
pub(crate) async fn slowloris(addr: SocketAddr, deadline: Instant) -> Outcomes {
    let mut outcomes = Outcomes::default();
    while Instant::now() < deadline {
        let started = Instant::now();
        let Some(mut stream) = connect(addr, &mut outcomes).await else { continue };
        let mut line = 0u64;
        let outcome = loop {
            if Instant::now() >= deadline {
                break "still open at the end";
            }
            let head = if line == 0 {
                "POST / HTTP/1.1\r\n".to_owned()
            } else {
                format!("X-{line}: a\r\n")
            };
            line += 1;
            if stream.write_all(head.as_bytes()).await.is_err() {
                break "closed by the server";
            }
            let mut byte = [0u8; 1];
            match tokio::time::timeout(Duration::from_secs(1), stream.read(&mut byte)).await {
                Err(_) => {}
                Ok(Ok(0) | Err(_)) => break "closed by the server",
                Ok(Ok(_)) => break "answered (the head was taken as complete)",
            }
        };
        outcomes.add(outcome, started.elapsed());
    }
    outcomes
}

/// A body announced as 1 MiB of which 64 KiB is sent, then nothing: what the server does.
pub(crate) async fn stalled_body(addr: SocketAddr, deadline: Instant) -> Outcomes {
    let mut outcomes = Outcomes::default();
    let head = format!(
        "POST / HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        1 << 20
    );
    let part = vec![b' '; 64 * 1024];
    while Instant::now() < deadline {
        let started = Instant::now();
        let Some(mut stream) = connect(addr, &mut outcomes).await else { continue };
        if stream.write_all(head.as_bytes()).await.is_err()
            || stream.write_all(&part).await.is_err()
        {
            outcomes.add("closed while sending", started.elapsed());
            continue;
        }
        let left = deadline.saturating_duration_since(Instant::now());
        let outcome = match tokio::time::timeout(left, status_or_close(&mut stream)).await {
            Err(_) => "still open at the end".to_owned(),
            Ok(outcome) => outcome,
        };
        outcomes.add(outcome, started.elapsed());
    }
    outcomes
}

/// Reads what the server answers before it closes: its status line, or that it closed.
async fn status_or_close(stream: &mut TcpStream) -> String {
    let mut buf = Vec::new();
    match load::read_message_or_end(stream, &mut buf).await {
        Ok(Some((head_end, _))) => {
            let head = String::from_utf8_lossy(&buf[..head_end]);
            format!("answered {}", status_of(&head))
        }
        Ok(None) | Err(_) => "closed by the server".to_owned(),
    }
}

fn status_of(head: &str) -> String {
    head.lines().next().unwrap_or("").trim_start_matches("HTTP/1.1 ").to_owned()
}

/// How many bytes of pings one flooding connection sends at most before it gives up.
const FLOOD_BUDGET: usize = 64 << 20;

/// A WebSocket that sends pings as fast as it can and never reads a pong, up to
/// [`FLOOD_BUDGET`] bytes; then another.
pub(crate) async fn ping_flood(addr: SocketAddr, deadline: Instant) -> Outcomes {
    let mut outcomes = Outcomes::default();
    let ping = ws::frame(ws::PING, &[b'p'; 125]);
    let burst: Vec<u8> = ping.iter().copied().cycle().take(ping.len() * 64).collect();
    while Instant::now() < deadline {
        let started = Instant::now();
        let mut stream = match ws::connect(addr).await {
            Ok(stream) => stream,
            Err(err) => {
                outcomes.add(format!("no upgrade: {err:#}"), started.elapsed());
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        let mut sent = 0;
        let outcome = loop {
            if Instant::now() >= deadline {
                break "still open at the end".to_owned();
            }
            if sent >= FLOOD_BUDGET {
                break "64 MiB of pings sent, still open".to_owned();
            }
            match tokio::time::timeout(Duration::from_secs(5), stream.write_all(&burst)).await {
                Ok(Ok(())) => sent += burst.len(),
                Ok(Err(_)) => break "closed by the server".to_owned(),
                // The server stopped reading: it is holding the flood off (or stalled).
                Err(_) => break "the server stopped reading for 5 s".to_owned(),
            }
        };
        outcomes.add(outcome, started.elapsed());
    }
    outcomes
}

/// One hostile request per attempt, one every `pause`: what the server answers (status, error
/// code and limit, or the id answered).
pub(crate) async fn requests(
    addr: SocketAddr,
    body: impl Fn() -> Vec<u8>,
    pause: Duration,
    deadline: Instant,
) -> Outcomes {
    let mut outcomes = Outcomes::default();
    let body = body();
    let mut request = format!(
        "POST / HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    request.extend_from_slice(&body);
    while Instant::now() < deadline {
        let started = Instant::now();
        let attempt = async {
            let mut stream = TcpStream::connect(addr).await?;
            // The server may answer (413) and close before the whole body is sent.
            let _ = stream.write_all(&request).await;
            let mut buf = Vec::new();
            let (head_end, length) = load::read_message_or_end(&mut stream, &mut buf)
                .await?
                .ok_or_else(|| anyhow::anyhow!("closed without an answer"))?;
            let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
            let answer = String::from_utf8_lossy(&buf[head_end..head_end + length]).into_owned();
            anyhow::Ok(format!("answered {}: {}", status_of(&head), describe(&answer)))
        };
        let outcome = match tokio::time::timeout(Duration::from_secs(60), attempt).await {
            Ok(Ok(outcome)) => outcome,
            Ok(Err(err)) => format!("{err:#}"),
            Err(_) => "no answer within 60 s".to_owned(),
        };
        outcomes.add(outcome, started.elapsed());
        tokio::time::sleep(pause).await;
    }
    outcomes
}

/// A JSON-RPC answer in a few words: its error code and limit, or the id its result is for,
/// or how many answers a batch got.
fn describe(answer: &str) -> String {
    let Ok(value) = serde_json::from_str::<serde_json::Value>(answer) else {
        return format!("{} bytes, not JSON", answer.len());
    };
    if let Some(all) = value.as_array() {
        return format!("a batch of {} answers", all.len());
    }
    match value.get("error") {
        Some(error) => {
            let what = error["data"]["limit"]
                .as_str()
                .or(error["data"]["member"].as_str())
                .map(|w| format!(" ({w})"))
                .unwrap_or_default();
            format!("error {}{what}", error["code"])
        }
        None => format!("a result for id {}", value["id"]),
    }
}

/// A body past the default 1 MiB limit: 2 MiB of one string.
pub(crate) fn oversized() -> Vec<u8> {
    let filler = "a".repeat(2 << 20);
    format!(r#"{{"jsonrpc":"2.0","id":1,"method":"pump.status","params":{{"pump":"{filler}"}}}}"#)
        .into_bytes()
}

/// Params nested 100,000 deep.
pub(crate) fn deep() -> Vec<u8> {
    let depth = 100_000;
    format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"pump.status","params":{}{}}}"#,
        "[".repeat(depth),
        "]".repeat(depth)
    )
    .into_bytes()
}

/// The same member twice, in the envelope and in the params.
pub(crate) fn duplicate_keys() -> Vec<u8> {
    br#"{"jsonrpc":"2.0","id":1,"id":2,"method":"pump.status","params":{"pump":"bad","pump":"P-101"}}"#
        .to_vec()
}

/// A batch of 10,000 calls (about 500 KB, under the body limit).
pub(crate) fn huge_batch() -> Vec<u8> {
    let calls: Vec<String> = (0..10_000)
        .map(|id| format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"pump.list","params":{{}}}}"#))
        .collect();
    format!("[{}]", calls.join(",")).into_bytes()
}
