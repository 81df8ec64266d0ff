//! The normal load of the soak: well-behaved callers over HTTP (keep-alive, a call every few
//! milliseconds) and over WebSocket (a subscription, and a call now and then), each call timed
//! and each failure counted with its reason.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

use super::ws;
use crate::load;

/// How long one normal call may take before it counts as failed.
const CALL_TIMEOUT: Duration = Duration::from_secs(10);

/// The calls, in turn: reads of the pump plant, answered from examples or generated.
const CALLS: [&str; 4] = [
    r#""method":"pump.list","params":{}"#,
    r#""method":"pump.status","params":{"pump":"P-101"}"#,
    r#""method":"pump.getSpeed","params":["P-103"]"#,
    r#""method":"rpc.describe","params":{}"#,
];

/// What the normal callers saw.
#[derive(Debug, Default)]
pub(crate) struct Tally {
    /// Latencies of the calls that succeeded, in microseconds.
    pub(crate) latencies: Vec<u32>,
    pub(crate) http_calls: u64,
    pub(crate) ws_calls: u64,
    /// Failed calls by reason.
    pub(crate) failed: BTreeMap<String, u64>,
    pub(crate) notifications: u64,
}

impl Tally {
    pub(crate) fn merge(&mut self, other: Tally) {
        self.latencies.extend(other.latencies);
        self.http_calls += other.http_calls;
        self.ws_calls += other.ws_calls;
        for (reason, n) in other.failed {
            *self.failed.entry(reason).or_default() += n;
        }
        self.notifications += other.notifications;
    }

    pub(crate) fn failures(&self) -> u64 {
        self.failed.values().sum()
    }

    fn fail(&mut self, reason: impl Into<String>) {
        *self.failed.entry(reason.into()).or_default() += 1;
    }
}

/// A caller's schedule: a call every period, ids counted from 1, the calls of [`CALLS`] in turn.
struct Pace {
    next: Instant,
    period: Duration,
    id: u64,
}

impl Pace {
    fn new(period: Duration) -> Pace {
        Pace { next: Instant::now(), period, id: 0 }
    }

    /// Waits for the next call's time: its id and call.
    async fn next(&mut self) -> (u64, &'static str) {
        tokio::time::sleep_until(self.next.into()).await;
        self.next += self.period;
        self.id += 1;
        (self.id, CALLS[self.id as usize % CALLS.len()])
    }
}

fn request(addr: SocketAddr, id: u64, call: &str) -> Vec<u8> {
    let body = format!(r#"{{"jsonrpc":"2.0","id":{id},{call}}}"#);
    format!(
        "POST / HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// One HTTP caller: a keep-alive connection, a call every `period` until `deadline`; a
/// connection that fails is opened again.
pub(crate) async fn http_caller(addr: SocketAddr, period: Duration, deadline: Instant) -> Tally {
    let mut tally = Tally::default();
    let mut connection: Option<TcpStream> = None;
    let mut buf = Vec::with_capacity(64 * 1024);
    let mut pace = Pace::new(period);
    while Instant::now() < deadline {
        let (id, call) = pace.next().await;
        let stream = match &mut connection {
            Some(stream) => stream,
            None => match TcpStream::connect(addr).await {
                Ok(stream) => {
                    let _ = stream.set_nodelay(true);
                    connection.insert(stream)
                }
                Err(err) => {
                    tally.http_calls += 1;
                    tally.fail(format!("http: cannot connect: {}", err.kind()));
                    continue;
                }
            },
        };
        tally.http_calls += 1;
        let sent = Instant::now();
        let exchange = async {
            stream.write_all(&request(addr, id, call)).await?;
            let (head_end, length) = load::read_message_or_end(stream, &mut buf)
                .await?
                .context("the server closed the connection")?;
            let head = String::from_utf8_lossy(&buf[..head_end]);
            let body = String::from_utf8_lossy(&buf[head_end..head_end + length]);
            if !head.starts_with("HTTP/1.1 200") || !body.contains("\"result\"") {
                bail!("{}", head.lines().next().unwrap_or(""));
            }
            anyhow::Ok(())
        };
        match tokio::time::timeout(CALL_TIMEOUT, exchange).await {
            Ok(Ok(())) => tally.latencies.push(sent.elapsed().as_micros() as u32),
            Ok(Err(err)) => {
                tally.fail(format!("http: {err:#}"));
                connection = None;
            }
            Err(_) => {
                tally.fail(format!("http: no answer within {CALL_TIMEOUT:?}"));
                connection = None;
            }
        }
    }
    tally
}

/// One WebSocket caller: subscribed to `pump.stateChanged`, a call every `period`; the
/// notifications that arrive in between are counted.
pub(crate) async fn ws_caller(addr: SocketAddr, period: Duration, deadline: Instant) -> Tally {
    let mut tally = Tally::default();
    while Instant::now() < deadline {
        if let Err(err) = ws_session(addr, period, deadline, &mut tally).await {
            tally.fail(format!("websocket: {err:#}"));
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    tally
}

async fn ws_session(
    addr: SocketAddr,
    period: Duration,
    deadline: Instant,
    tally: &mut Tally,
) -> Result<()> {
    let mut stream = tokio::time::timeout(CALL_TIMEOUT, ws::connect(addr))
        .await
        .context("no upgrade within the call timeout")??;
    let subscribe = r#"{"jsonrpc":"2.0","id":0,"method":"rpc.subscribe","params":{"event":"pump.stateChanged"}}"#;
    ws_call(&mut stream, subscribe, 0, tally).await?;
    let mut pace = Pace::new(period);
    while Instant::now() < deadline {
        let (id, call) = pace.next().await;
        let text = format!(r#"{{"jsonrpc":"2.0","id":{id},{call}}}"#);
        let sent = Instant::now();
        ws_call(&mut stream, &text, id, tally).await?;
        tally.latencies.push(sent.elapsed().as_micros() as u32);
    }
    let _ = stream.write_all(&ws::frame(ws::CLOSE, &1000u16.to_be_bytes())).await;
    Ok(())
}

/// Sends one call and reads up to its answer (notifications before it are counted).
async fn ws_call(stream: &mut TcpStream, text: &str, id: u64, tally: &mut Tally) -> Result<()> {
    tally.ws_calls += 1;
    let answer = async {
        stream.write_all(&ws::frame(ws::TEXT, text.as_bytes())).await?;
        loop {
            let message = ws::read_text(stream).await?;
            // A notification (a `method` and no `id`: accord's `rpc.event` for the subscription
            // this caller holds) may arrive before the answer; it is counted, not judged.
            let value: serde_json::Value = serde_json::from_str(&message).unwrap_or_default();
            if value.get("method").is_some() && value.get("id").is_none() {
                tally.notifications += 1;
                continue;
            }
            if !message.contains(&format!("\"id\":{id},")) || !message.contains("\"result\"") {
                bail!("a wrong answer: {}", &message[..message.len().min(200)]);
            }
            return anyhow::Ok(());
        }
    };
    tokio::time::timeout(CALL_TIMEOUT, answer).await.context("no answer within 10 s")?
}
