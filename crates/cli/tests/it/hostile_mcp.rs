//! Hostile peers against a real `accord mcp` child process (issue 28): over Streamable HTTP a
//! foreign `Host` or `Origin` is refused and 20,000 `initialize` posts stay under 200 MiB (the
//! session cap closes the idlest); over stdio a host that never reads stays under 100 MiB and a
//! garbage line gets `-32700`. Loopback only, bounded in count and time; memory is the child's
//! peak resident set (VmHWM of /proc/PID/status).
#![cfg(target_os = "linux")]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::*;

/// The peak resident set of `child` so far, in MiB.
fn peak_mib(child: &Child) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).expect("VmHWM");
    line.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap() / 1024
}

/// `accord mcp PUMP --http 127.0.0.1:0 EXTRA…`: the child and the address it listens on.
fn mcp_http(extra: &[&str]) -> (Child, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_accord"));
    command.args(["mcp", PUMP, "--http", "127.0.0.1:0"]).args(extra).stderr(Stdio::null());
    let mut child = spawn_piped(command);
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let addr = lines
        .find_map(|l| {
            l.unwrap()
                .strip_prefix("accord mcp listening on http://")
                .map(|u| u.trim_end_matches("/mcp").to_owned())
        })
        .expect("the URL line");
    (child, addr)
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"probe","version":"1"}}}"#;

/// POSTs `body` to /mcp with these header lines: the status code and the whole response.
fn post(addr: &str, headers: &str, body: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(
        stream,
        "POST /mcp HTTP/1.1\r\n{headers}\r\nAccept: application/json, text/event-stream\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    let _ = stream.read_to_string(&mut response);
    let status = response.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, response)
}

#[test]
fn mcp_http_refuses_a_foreign_host_or_origin() {
    let (mut child, addr) = mcp_http(&["--allow-host", "mcp.plant.lan"]);
    let port = addr.rsplit_once(':').unwrap().1;
    let evil = format!("rebind.evil.example:{port}");
    let (status, response) = post(&addr, &format!("Host: {evil}"), INITIALIZE);
    assert_eq!(status, 403, "{response}");
    let (status, response) =
        post(&addr, &format!("Host: {addr}\r\nOrigin: http://{evil}"), INITIALIZE);
    assert_eq!(status, 403, "{response}");
    let (status, response) = post(&addr, &format!("Host: {addr}\r\nOrigin: null"), INITIALIZE);
    assert_eq!(status, 403, "{response}");
    // Its own names, and the allowed one, are served.
    for own in [
        format!("Host: {addr}"),
        format!("Host: localhost:{port}\r\nOrigin: http://localhost:{port}"),
        "Host: mcp.plant.lan\r\nOrigin: https://mcp.plant.lan".to_owned(),
    ] {
        let (status, response) = post(&addr, &own, INITIALIZE);
        assert_eq!(status, 200, "{own}: {response}");
        assert!(response.contains("\"protocolVersion\""), "{response}");
    }
    let _ = child.kill();
    let _ = child.wait();
}

#[test]
fn twenty_thousand_initialize_posts_stay_under_200_mib() {
    let (mut child, addr) = mcp_http(&[]);
    let started = Instant::now();
    let threads: Vec<_> = (0..4)
        .map(|_| {
            let addr = addr.clone();
            std::thread::spawn(move || {
                let host = format!("Host: {addr}");
                (0..5_000).filter(|_| post(&addr, &host, INITIALIZE).0 == 200).count()
            })
        })
        .collect();
    let answered: usize = threads.into_iter().map(|t| t.join().unwrap()).sum();
    let took = started.elapsed();
    let peak = peak_mib(&child);
    eprintln!("20,000 initialize posts: {answered} answered in {took:?}, peak {peak} MiB");
    assert_eq!(answered, 20_000);
    assert!(peak < 200, "peak resident set {peak} MiB after 20,000 sessions");
    // Still serving.
    assert_eq!(post(&addr, &format!("Host: {addr}"), INITIALIZE).0, 200);
    let _ = child.kill();
    let _ = child.wait();
}

/// `accord mcp PUMP` on stdio: the child, its stdin and stdout.
fn mcp_stdio() -> Child {
    Command::new(env!("CARGO_BIN_EXE_accord"))
        .args(["mcp", PUMP])
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

#[test]
fn a_stdio_host_that_never_reads_stays_under_100_mib() {
    let mut child = mcp_stdio();
    let mut stdin = child.stdin.take().unwrap();
    // Never read: the pipe fills, then accord must stop reading input.
    let _stdout = child.stdout.take().unwrap();
    let writer = std::thread::spawn(move || {
        let mut lines = vec![
            INITIALIZE.to_owned(),
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned(),
        ];
        for id in 2..200_000 {
            lines.push(format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"pump_list","arguments":{{}}}}}}"#
            ));
        }
        let mut written = 0usize;
        for line in lines {
            if stdin.write_all(line.as_bytes()).and_then(|()| stdin.write_all(b"\n")).is_err() {
                break;
            }
            written += 1;
        }
        written
    });
    // Long enough for an unbounded queue to grow past the bound (474 MB in 20 s before).
    std::thread::sleep(Duration::from_secs(8));
    let peak = peak_mib(&child);
    eprintln!("a host that never reads: peak {peak} MiB after 8 s");
    assert!(
        !writer.is_finished(),
        "accord read all 200,000 requests without their answers being read"
    );
    assert!(peak < 100, "peak resident set {peak} MiB");
    let _ = child.kill();
    let _ = child.wait();
    let written = writer.join().unwrap();
    eprintln!("{written} lines taken before the host's writes blocked");
}

#[test]
fn a_garbage_stdin_line_gets_a_parse_error() {
    let mut child = mcp_stdio();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"this is not json\n").unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    let answer: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(answer["error"]["code"], -32700, "{line}");
    assert_eq!(answer["id"], serde_json::Value::Null, "{line}");
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
}
