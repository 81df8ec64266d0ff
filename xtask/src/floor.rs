//! `cargo xtask bench-floor`: the floor of `cargo xtask bench-serve`. A server that does as
//! little as an HTTP/1.1 server can and still answer: it reads each request whole (head and
//! `Content-Length` body), picks a canned response by the method name in the body, and writes it.
//! No HTTP parser, no JSON, no validation, no log. Its CPU time per request is what the
//! machine's loopback TCP costs a server per request, which every server pays; five times a
//! peer's throughput is out of reach on a machine where the floor itself costs more than a
//! fifth of the peer's time per request.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpListener;

use crate::load;

/// One canned answer: the method name it is for, and the whole HTTP response.
struct Canned {
    method: Vec<u8>,
    response: Vec<u8>,
}

/// The body of the response `method=FILE` means: FILE's bytes, as `application/json`.
fn canned(pair: &str) -> Result<Canned> {
    let (method, file) = pair.split_once('=').context("an answer is METHOD=FILE")?;
    let body = std::fs::read(Path::new(file)).with_context(|| format!("could not read {file}"))?;
    let mut response = format!(
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    response.extend_from_slice(&body);
    // The method name as it appears in a request body: `"method":"bench.ping"`.
    let method = format!("\"{method}\"").into_bytes();
    Ok(Canned { method, response })
}

/// Serves until killed. `answers` are `METHOD=FILE` pairs.
pub(crate) fn run(addr: SocketAddr, answers: &[String]) -> Result<()> {
    if answers.is_empty() {
        bail!("bench-floor needs at least one METHOD=FILE answer");
    }
    let answers: Arc<Vec<Canned>> =
        Arc::new(answers.iter().map(|pair| canned(pair)).collect::<Result<_>>()?);
    // One thread, like the Node peer: the floor is a cost per request, not a parallel server.
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async move {
        let listener =
            TcpListener::bind(addr).await.with_context(|| format!("could not bind {addr}"))?;
        loop {
            let (mut stream, _) = listener.accept().await?;
            stream.set_nodelay(true)?;
            let answers = answers.clone();
            tokio::spawn(async move {
                let mut buf = Vec::with_capacity(16 * 1024);
                while let Some((head_end, _)) =
                    load::read_message_or_end(&mut stream, &mut buf).await?
                {
                    let body = &buf[head_end..];
                    let Some(answer) = answers.iter().find(|a| contains(body, &a.method)) else {
                        bail!("a request for none of the canned methods");
                    };
                    stream.write_all(&answer.response).await?;
                }
                anyhow::Ok(())
            });
        }
    })
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}
