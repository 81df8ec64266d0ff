//! The soak's second round (issue 28): the surfaces added since the first, each in front of the
//! soaked plant: `accord mcp` over Streamable HTTP and over stdio (`--upstream` the plant), and
//! `accord console` (`--url` the plant). Normal callers use them as a host and a page would; the
//! hostile peers are the ones they were hardened against: an `initialize` flood (the session
//! cap), garbage lines on stdio (a `-32700` answer each), and a DNS-rebinding page (a foreign
//! `Host`, refused). Each process's peak RSS is reported beside the plant's.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};

use super::hostile::Outcomes;
use super::normal::Tally;

/// How long one call through a surface may take before it counts as failed.
const CALL_TIMEOUT: Duration = Duration::from_secs(10);
/// The tool call of the pump plant's `pump.status`, as MCP names it.
const TOOL_CALL: &str = r#"{"name":"pump_status","arguments":{"pump":"P-101"}}"#;

/// The surfaces' processes, killed when dropped.
pub(crate) struct Surfaces {
    pub(crate) mcp_http: SocketAddr,
    pub(crate) console: SocketAddr,
    children: Vec<(&'static str, Child)>,
}

impl Drop for Surfaces {
    fn drop(&mut self) {
        for (_, child) in &mut self.children {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Surfaces {
    /// The pid of each process, by name (`mcp --http`, `mcp stdio`, `console`).
    pub(crate) fn pids(&self) -> Vec<(&'static str, u32)> {
        self.children.iter().map(|(name, c)| (*name, c.id())).collect()
    }

    /// The stdio server's pipes, taken once for its caller.
    pub(crate) fn take_stdio(
        &mut self,
    ) -> Option<(std::process::ChildStdin, std::process::ChildStdout)> {
        let (_, child) = self.children.iter_mut().find(|(name, _)| *name == "mcp stdio")?;
        Some((child.stdin.take()?, child.stdout.take()?))
    }
}

fn free_addr() -> Result<SocketAddr> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?)
}

/// Starts the three surfaces in front of the plant at `plant`, and waits until the two HTTP ones
/// listen.
pub(crate) fn start(
    root: &Path,
    accord: &Path,
    contract: &str,
    plant: SocketAddr,
) -> Result<Surfaces> {
    let upstream = format!("http://{plant}/");
    let (mcp_http, console) = (free_addr()?, free_addr()?);
    let spawn = |args: &[&str], piped: bool| -> Result<Child> {
        let mut command = Command::new(accord);
        command.current_dir(root).args(args).stderr(Stdio::null());
        if piped {
            command.stdin(Stdio::piped()).stdout(Stdio::piped());
        } else {
            command.stdin(Stdio::null()).stdout(Stdio::null());
        }
        command.spawn().with_context(|| format!("could not start accord {}", args.join(" ")))
    };
    let mut surfaces = Surfaces { mcp_http, console, children: Vec::new() };
    let http = mcp_http.to_string();
    surfaces.children.push((
        "mcp --http",
        spawn(&["mcp", contract, "--upstream", &upstream, "--http", &http], false)?,
    ));
    surfaces
        .children
        .push(("mcp stdio", spawn(&["mcp", contract, "--upstream", &upstream], true)?));
    let console_addr = console.to_string();
    surfaces.children.push((
        "console",
        spawn(&["console", "--url", &upstream, "--addr", &console_addr], false)?,
    ));
    let deadline = Instant::now() + Duration::from_secs(30);
    for addr in [mcp_http, console] {
        while TcpStream::connect(addr).is_err() {
            if Instant::now() > deadline {
                bail!("a surface did not listen on {addr} within 30 s");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    Ok(surfaces)
}

/// One request on a connection of its own (`Connection: close`): the status line's code, the
/// head and the body.
async fn once(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, String)],
    body: &str,
) -> Result<(u16, String, String)> {
    let mut stream = tokio::net::TcpStream::connect(addr).await?;
    let mut request = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
    if !headers.iter().any(|(name, _)| name.eq_ignore_ascii_case("host")) {
        request.push_str(&format!("Host: {addr}\r\n"));
    }
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
    stream.write_all(request.as_bytes()).await?;
    let mut all = Vec::new();
    stream.read_to_end(&mut all).await?;
    let text = String::from_utf8_lossy(&all).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").context("no response head")?;
    let code = head.split_whitespace().nth(1).and_then(|c| c.parse().ok()).context("status")?;
    Ok((code, head.to_owned(), body.to_owned()))
}

fn mcp_headers(session: Option<&str>) -> Vec<(&'static str, String)> {
    let mut headers = vec![
        ("Content-Type", "application/json".to_owned()),
        ("Accept", "application/json, text/event-stream".to_owned()),
    ];
    if let Some(session) = session {
        headers.push(("Mcp-Session-Id", session.to_owned()));
    }
    headers
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"soak","version":"1"}}}"#;

/// Opens an MCP session over Streamable HTTP: its id.
async fn mcp_session(addr: SocketAddr) -> Result<String> {
    let (code, head, _) = once(addr, "POST", "/mcp", &mcp_headers(None), INITIALIZE).await?;
    if code != 200 {
        bail!("initialize: HTTP {code}");
    }
    let session = head
        .lines()
        .find_map(|l| l.split_once(':').filter(|(n, _)| n.eq_ignore_ascii_case("mcp-session-id")))
        .map(|(_, v)| v.trim().to_owned())
        .context("initialize: no Mcp-Session-Id")?;
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    once(addr, "POST", "/mcp", &mcp_headers(Some(&session)), initialized).await?;
    Ok(session)
}

/// One MCP host over Streamable HTTP: a session, then a `pump_status` tool call every `period`;
/// a session the server closed (evicted, idle) is opened again and counted as a failure.
pub(crate) async fn mcp_http_caller(
    addr: SocketAddr,
    period: Duration,
    deadline: Instant,
) -> Tally {
    let mut tally = Tally::default();
    let mut session: Option<String> = None;
    let mut id = 0u64;
    let mut next = Instant::now();
    while Instant::now() < deadline {
        tokio::time::sleep_until(next.into()).await;
        next += period;
        id += 1;
        tally.http_calls += 1;
        let sent = Instant::now();
        let call = async {
            let sid = match &session {
                Some(s) => s.clone(),
                None => session.insert(mcp_session(addr).await?).clone(),
            };
            let body = format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{TOOL_CALL}}}"#
            );
            let (code, _, answer) =
                once(addr, "POST", "/mcp", &mcp_headers(Some(&sid)), &body).await?;
            if code != 200 || !answer.contains("\"result\"") || answer.contains("\"isError\":true")
            {
                bail!("tools/call: HTTP {code}: {}", &answer[..answer.len().min(160)]);
            }
            anyhow::Ok(())
        };
        match tokio::time::timeout(CALL_TIMEOUT, call).await {
            Ok(Ok(())) => tally.latencies.push(sent.elapsed().as_micros() as u32),
            Ok(Err(err)) => {
                *tally.failed.entry(format!("mcp http: {err:#}")).or_default() += 1;
                session = None;
            }
            Err(_) => {
                *tally.failed.entry("mcp http: no answer within 10 s".to_owned()).or_default() += 1;
                session = None;
            }
        }
    }
    tally
}

/// One MCP host over stdio: `initialize`, then a `pump_status` tool call every `period`, and a
/// garbage line every fifth period, which must get a `-32700` answer (counted as a hostile
/// peer's outcome). The answers are read in order: the server answers each line in turn.
pub(crate) async fn mcp_stdio_caller(
    stdin: std::process::ChildStdin,
    stdout: std::process::ChildStdout,
    period: Duration,
    deadline: Instant,
) -> (Tally, Outcomes) {
    let mut tally = Tally::default();
    let mut garbage = Outcomes::default();
    let run = async {
        let mut stdin = tokio::process::ChildStdin::from_std(stdin)?;
        let mut lines = BufReader::new(tokio::process::ChildStdout::from_std(stdout)?).lines();
        stdin.write_all(format!("{INITIALIZE}\n").as_bytes()).await?;
        tokio::time::timeout(CALL_TIMEOUT, lines.next_line())
            .await??
            .context("no initialize answer")?;
        stdin
            .write_all(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n")
            .await?;
        let mut next = Instant::now();
        let mut id = 0u64;
        while Instant::now() < deadline {
            tokio::time::sleep_until(next.into()).await;
            next += period;
            id += 1;
            let hostile = id.is_multiple_of(5);
            let line = if hostile {
                "this is not JSON {\n".to_owned()
            } else {
                format!(
                    "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"tools/call\",\"params\":{TOOL_CALL}}}\n"
                )
            };
            let sent = Instant::now();
            stdin.write_all(line.as_bytes()).await?;
            let answer = tokio::time::timeout(CALL_TIMEOUT, lines.next_line()).await;
            let answer = match answer {
                Ok(Ok(Some(a))) => a,
                Ok(Ok(None)) => bail!("the stdio server closed its output"),
                Ok(Err(err)) => return Err(err.into()),
                Err(_) => {
                    if hostile {
                        garbage.add("no answer within 10 s", sent.elapsed());
                    } else {
                        *tally
                            .failed
                            .entry("mcp stdio: no answer within 10 s".into())
                            .or_default() += 1;
                    }
                    continue;
                }
            };
            if hostile {
                let what = if answer.contains("-32700") {
                    "answered -32700 (parse error)"
                } else {
                    "answered otherwise"
                };
                garbage.add(what, sent.elapsed());
            } else {
                tally.ws_calls += 1;
                if answer.contains("\"result\"") && !answer.contains("\"isError\":true") {
                    tally.latencies.push(sent.elapsed().as_micros() as u32);
                } else {
                    let shown = &answer[..answer.len().min(160)];
                    *tally.failed.entry(format!("mcp stdio: {shown}")).or_default() += 1;
                }
            }
        }
        anyhow::Ok(())
    };
    if let Err(err) = run.await {
        *tally.failed.entry(format!("mcp stdio: {err:#}")).or_default() += 1;
    }
    (tally, garbage)
}

/// One page of the console: its describe answer every `period`.
pub(crate) async fn console_caller(addr: SocketAddr, period: Duration, deadline: Instant) -> Tally {
    let mut tally = Tally::default();
    let mut next = Instant::now();
    while Instant::now() < deadline {
        tokio::time::sleep_until(next.into()).await;
        next += period;
        tally.http_calls += 1;
        let sent = Instant::now();
        let call = once(addr, "GET", "/console/api/describe", &[], "");
        match tokio::time::timeout(CALL_TIMEOUT, call).await {
            Ok(Ok((200, _, body))) if body.contains("\"state\"") => {
                tally.latencies.push(sent.elapsed().as_micros() as u32);
            }
            Ok(Ok((code, _, _))) => {
                *tally.failed.entry(format!("console: HTTP {code}")).or_default() += 1;
            }
            Ok(Err(err)) => *tally.failed.entry(format!("console: {err:#}")).or_default() += 1,
            Err(_) => {
                *tally.failed.entry("console: no answer within 10 s".into()).or_default() += 1
            }
        }
    }
    tally
}

/// A host that opens a session and never uses it again, every `pause`: the session cap closes
/// the idlest.
pub(crate) async fn initialize_flood(
    addr: SocketAddr,
    pause: Duration,
    deadline: Instant,
) -> Outcomes {
    let mut outcomes = Outcomes::default();
    while Instant::now() < deadline {
        let sent = Instant::now();
        let what = match once(addr, "POST", "/mcp", &mcp_headers(None), INITIALIZE).await {
            Ok((200, _, _)) => "session opened".to_owned(),
            Ok((code, _, _)) => format!("HTTP {code}"),
            Err(err) => format!("{err:#}"),
        };
        outcomes.add(&what, sent.elapsed());
        tokio::time::sleep(pause).await;
    }
    outcomes
}

/// A DNS-rebinding page: the console's API asked with a foreign `Host` (and its `Origin`),
/// every `pause`; each must be refused (403).
pub(crate) async fn rebinding(addr: SocketAddr, pause: Duration, deadline: Instant) -> Outcomes {
    let mut outcomes = Outcomes::default();
    let host = format!("rebind.evil.example:{}", addr.port());
    while Instant::now() < deadline {
        let sent = Instant::now();
        let headers = [("Host", host.clone()), ("Origin", format!("http://{host}"))];
        let what = match once(addr, "GET", "/console/api/describe", &headers, "").await {
            Ok((403, _, _)) => "refused (403)".to_owned(),
            Ok((code, _, _)) => format!("HTTP {code} (not refused)"),
            Err(err) => format!("{err:#}"),
        };
        outcomes.add(&what, sent.elapsed());
        tokio::time::sleep(pause).await;
    }
    outcomes
}
