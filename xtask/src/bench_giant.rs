//! `cargo xtask bench-giant [--methods N]`: `accord serve` (release) of a generated contract of a
//! million methods (issue 28, item 4): the time from exec to the first answer, then two
//! `rpc.describe` calls without a credential, each with the server's peak resident set
//! (VmHWM, from /proc) after it. One run: at this size a run takes about a minute and several
//! GB, so the figure is one sample, reported with the machine's load.

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use serde_json::json;

use crate::bench_serve::{free_port, in_release};
use crate::bench_startup::{Server, try_call};
use crate::workspace;

const NAMESPACES: usize = 10;
/// Longer than this is a failure, not a sample.
const GIVE_UP: Duration = Duration::from_secs(600);

/// `methods` read methods over [`NAMESPACES`] namespaces, each one bounded integer param and a
/// boolean result: the least a method can be, so that the size is the count.
fn write_contract(file: &Path, methods: usize) -> Result<u64> {
    use std::io::Write;
    let mut out = std::io::BufWriter::new(std::fs::File::create(file)?);
    write!(out, r#"{{"schema":1,"namespaces":{{"#)?;
    let per = methods / NAMESPACES;
    for n in 0..NAMESPACES {
        if n > 0 {
            write!(out, ",")?;
        }
        write!(out, r#""plant{n}":{{"version":"1.0.0","methods":{{"#)?;
        for i in 0..per {
            if i > 0 {
                write!(out, ",")?;
            }
            let method = json!({
                "semantics": "read",
                "params": [{"name": "channel", "type": {"kind": "integer", "min": 0, "max": 63}}],
                "result": {"kind": "boolean"},
            });
            write!(out, r#""read{i}":{method}"#)?;
        }
        write!(out, "}}}}")?;
    }
    write!(out, "}}}}")?;
    out.flush()?;
    Ok(std::fs::metadata(file)?.len())
}

/// The server's peak resident set so far, in bytes.
fn peak_rss(pid: u32) -> Result<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).context("no VmHWM")?;
    let kb: u64 = line.split_whitespace().nth(1).context("VmHWM")?.parse()?;
    Ok(kb * 1024)
}

fn post(addr: std::net::SocketAddr, body: &str) -> Option<String> {
    let request = format!(
        "POST / HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    try_call(addr, &request)
}

pub(crate) fn run(root: &Path, methods: usize) -> Result<()> {
    if methods == 0 || !methods.is_multiple_of(NAMESPACES) {
        bail!("--methods must be a positive multiple of {NAMESPACES}");
    }
    let task = ["bench-giant".to_owned(), "--methods".to_owned(), methods.to_string()];
    let Some(release) = in_release(root, &task)? else { return Ok(()) };
    let dir = workspace::target_dir(root).join("bench-giant");
    std::fs::create_dir_all(&dir)?;
    let file = dir.join(format!("methods-{methods}.types.json"));
    let bytes = write_contract(&file, methods)?;
    let addr = free_port()?;
    let start = Instant::now();
    let server = Server(
        std::process::Command::new(release.join("accord"))
            .arg("serve")
            .arg(&file)
            .args(["--addr", &addr.to_string()])
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .context("could not start accord serve")?,
    );
    let pid = server.0.id();
    let call = r#"{"jsonrpc":"2.0","id":1,"method":"plant3.read5","params":{"channel":1}}"#;
    let first = loop {
        if let Some(answer) = post(addr, call) {
            break answer;
        }
        if start.elapsed() > GIVE_UP {
            bail!("accord serve did not answer within {GIVE_UP:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let started = start.elapsed();
    if !first.contains("\"result\"") {
        bail!("the first call got no result: {first}");
    }
    let rss_start = peak_rss(pid)?;
    let describe = r#"{"jsonrpc":"2.0","id":2,"method":"rpc.describe"}"#;
    let mut rows = Vec::new();
    for which in ["first", "second"] {
        let t = Instant::now();
        let answer = post(addr, describe).context("rpc.describe got no answer")?;
        let took = t.elapsed();
        let body = answer.split("\r\n\r\n").nth(1).unwrap_or("");
        let what = if body.contains("\"result\"") {
            format!("answered, {} bytes", body.len())
        } else {
            let snippet: String = body.chars().take(160).collect();
            format!("refused: {snippet}")
        };
        rows.push((which, took, peak_rss(pid)?, what));
    }
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("contract: {methods} methods, {bytes} bytes; load average {}", load.trim());
    println!("| step | time | peak resident set (VmHWM) | answer |");
    println!("| --- | ---: | ---: | --- |");
    println!(
        "| start-up, exec to the first answer | {:.2} s | {} | a result |",
        started.as_secs_f64(),
        gb(rss_start)
    );
    for (which, took, rss, what) in rows {
        println!("| {which} `rpc.describe` | {:.2} s | {} | {what} |", took.as_secs_f64(), gb(rss));
    }
    Ok(())
}

fn gb(bytes: u64) -> String {
    format!("{:.2} GB", bytes as f64 / 1e9)
}
