//! A load generator for `cargo xtask bench-serve`: raw HTTP/1.1 keep-alive connections on
//! loopback, each sending one request and reading its response before the next (so the body
//! read is the server's whole answer), in two shapes: closed loop (as fast as the server
//! answers: throughput) and open loop at a fixed rate (latency at a given load).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// What one case measured.
#[derive(Debug, Clone)]
pub(crate) struct Measured {
    pub(crate) requests: usize,
    pub(crate) elapsed: Duration,
    /// Latencies in microseconds, sorted.
    pub(crate) latencies: Vec<u32>,
    /// The server's CPU time over the case, when it could be read.
    pub(crate) cpu: Option<Duration>,
    /// The load generator's own CPU time over the case, when it could be read.
    pub(crate) generator_cpu: Option<Duration>,
}

impl Measured {
    pub(crate) fn per_second(&self) -> f64 {
        self.requests as f64 / self.elapsed.as_secs_f64()
    }

    /// The `q`-quantile latency in milliseconds.
    pub(crate) fn quantile_ms(&self, q: f64) -> f64 {
        if self.latencies.is_empty() {
            return f64::NAN;
        }
        let at = ((self.latencies.len() as f64 - 1.0) * q).round() as usize;
        f64::from(self.latencies[at]) / 1000.0
    }
}

/// One request, written out once.
pub(crate) fn request(addr: SocketAddr, path: &str, body: &str) -> Arc<[u8]> {
    format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
    .into()
}

struct Connection {
    stream: TcpStream,
    buf: Vec<u8>,
}

impl Connection {
    async fn open(addr: SocketAddr) -> Result<Connection> {
        let stream = TcpStream::connect(addr).await.with_context(|| format!("connect {addr}"))?;
        stream.set_nodelay(true)?;
        Ok(Connection { stream, buf: Vec::with_capacity(32 * 1024) })
    }

    /// Sends `request` and reads one whole response; the body's length.
    async fn exchange(&mut self, request: &[u8]) -> Result<usize> {
        self.stream.write_all(request).await?;
        let (head_end, length) = read_message(&mut self.stream, &mut self.buf).await?;
        let head = std::str::from_utf8(&self.buf[..head_end]).context("response head")?;
        if !head.starts_with("HTTP/1.1 200") {
            bail!("unexpected response: {}", head.lines().next().unwrap_or(""));
        }
        Ok(length)
    }
}

/// Reads one whole HTTP/1.1 message (a request or a response, framed by `Content-Length` or
/// chunked) into `buf`, cleared first: where its head ends and its body's length. `Ok(None)`
/// when the peer closed the connection before a message began.
pub(crate) async fn read_message_or_end(
    stream: &mut TcpStream,
    buf: &mut Vec<u8>,
) -> Result<Option<(usize, usize)>> {
    buf.clear();
    let head_end = loop {
        if let Some(at) = find(buf, b"\r\n\r\n") {
            break at + 4;
        }
        if !fill(stream, buf).await? {
            if buf.is_empty() {
                return Ok(None);
            }
            bail!("the peer closed the connection in the middle of a message");
        }
    };
    let head = std::str::from_utf8(&buf[..head_end]).context("message head")?;
    let length = head.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("content-length").then(|| value.trim().parse::<usize>().ok())?
    });
    let chunked = head.to_ascii_lowercase().contains("transfer-encoding: chunked");
    let length = match (length, chunked) {
        (Some(length), _) => {
            while buf.len() < head_end + length {
                fill_or_fail(stream, buf).await?;
            }
            length
        }
        (None, true) => {
            // Read to the last chunk; a benchmark message has no trailers.
            while find(&buf[head_end..], b"\r\n0\r\n\r\n").is_none()
                && !buf[head_end..].starts_with(b"0\r\n\r\n")
            {
                fill_or_fail(stream, buf).await?;
            }
            buf.len() - head_end
        }
        (None, false) => bail!("a message without Content-Length or chunked encoding"),
    };
    Ok(Some((head_end, length)))
}

async fn read_message(stream: &mut TcpStream, buf: &mut Vec<u8>) -> Result<(usize, usize)> {
    read_message_or_end(stream, buf).await?.context("the server closed the connection")
}

/// Appends what the socket has; `false` at the end of the stream.
async fn fill(stream: &mut TcpStream, buf: &mut Vec<u8>) -> Result<bool> {
    let mut chunk = [0u8; 16 * 1024];
    let n = stream.read(&mut chunk).await?;
    buf.extend_from_slice(&chunk[..n]);
    Ok(n > 0)
}

async fn fill_or_fail(stream: &mut TcpStream, buf: &mut Vec<u8>) -> Result<()> {
    if !fill(stream, buf).await? {
        bail!("the peer closed the connection in the middle of a message");
    }
    Ok(())
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Checks that `request` gets a 200 whose body contains `expect`; the body.
pub(crate) async fn probe(addr: SocketAddr, request: &[u8], expect: &str) -> Result<Vec<u8>> {
    let mut connection = Connection::open(addr).await?;
    let length = connection.exchange(request).await?;
    let body = connection.buf[connection.buf.len() - length..].to_vec();
    let text = String::from_utf8_lossy(&body);
    if !text.contains(expect) {
        bail!("the answer does not contain `{expect}`: {}", &text[..text.len().min(300)]);
    }
    Ok(body)
}

/// `connections` connections sending back to back for `duration`.
pub(crate) async fn closed_loop(
    addr: SocketAddr,
    request: Arc<[u8]>,
    connections: usize,
    duration: Duration,
) -> Result<Measured> {
    let start = Instant::now();
    let deadline = start + duration;
    let mut tasks = Vec::new();
    for _ in 0..connections {
        let request = request.clone();
        tasks.push(tokio::spawn(async move {
            let mut connection = Connection::open(addr).await?;
            let mut latencies = Vec::with_capacity(100_000);
            while Instant::now() < deadline {
                let sent = Instant::now();
                connection.exchange(&request).await?;
                latencies.push(sent.elapsed().as_micros() as u32);
            }
            anyhow::Ok(latencies)
        }));
    }
    gather(tasks, start).await
}

/// `rate` requests per second spread over `connections` connections for `duration`. Each
/// connection sends on its own schedule (tokio's timer, 1 ms grain) and measures from the
/// moment it sends; a connection whose previous answer came late sends at once, so a server
/// that falls behind shows in the achieved rate as well as in the latencies.
pub(crate) async fn fixed_rate(
    addr: SocketAddr,
    request: Arc<[u8]>,
    rate: u32,
    connections: usize,
    duration: Duration,
) -> Result<Measured> {
    let start = Instant::now() + Duration::from_millis(20);
    let period = Duration::from_secs_f64(f64::from(rate).recip()) * connections as u32;
    let per_connection = (duration.as_secs_f64() / period.as_secs_f64()) as u32;
    let mut tasks = Vec::new();
    for i in 0..connections {
        let request = request.clone();
        let offset = period / connections as u32 * i as u32;
        tasks.push(tokio::spawn(async move {
            let mut connection = Connection::open(addr).await?;
            let mut latencies = Vec::with_capacity(per_connection as usize);
            for k in 0..per_connection {
                let due = start + offset + period * k;
                tokio::time::sleep_until(due.into()).await;
                let sent = Instant::now();
                connection.exchange(&request).await?;
                latencies.push(sent.elapsed().as_micros() as u32);
            }
            anyhow::Ok(latencies)
        }));
    }
    gather(tasks, start).await
}

async fn gather(
    tasks: Vec<tokio::task::JoinHandle<Result<Vec<u32>>>>,
    start: Instant,
) -> Result<Measured> {
    let mut latencies = Vec::new();
    for task in tasks {
        latencies.extend(task.await.context("load task")??);
    }
    let elapsed = start.elapsed();
    latencies.sort_unstable();
    Ok(Measured { requests: latencies.len(), elapsed, latencies, cpu: None, generator_cpu: None })
}
