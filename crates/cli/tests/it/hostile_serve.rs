//! Hostile peers against a real `accord serve` child process (docs/serve.md, section Hostile
//! peers): each probe runs on loopback, bounded in time and count, and asserts the server's
//! answer, that a normal call still succeeds during and after it, and where stated that the
//! server's memory (VmHWM, its peak resident set, read from /proc) stays under a bound.
#![cfg(target_os = "linux")]

use std::io::{ErrorKind, Read, Write};
use std::net::Shutdown;
use std::net::TcpStream;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use crate::common::*;

/// A running `accord serve` whose log is read as it comes (a full stderr pipe would hold the
/// server up).
struct Plant {
    child: Child,
    log: std::thread::JoinHandle<String>,
}

impl Plant {
    /// SIGTERM; the exit code and the whole log.
    fn terminate(mut self) -> (i32, String) {
        let status = Command::new("kill").args(["-TERM", &self.child.id().to_string()]).status();
        assert!(status.unwrap().success());
        let code = self.child.wait().unwrap().code().unwrap_or(-1);
        (code, self.log.join().unwrap())
    }
}

/// `accord serve ARGS` under a descriptor limit of `nofile` (a shell's `ulimit -n`, then
/// exec), on a free port; the plant and the address it listens on.
fn serve_with_nofile(nofile: u32, args: &[&str]) -> (Plant, String) {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(format!("ulimit -n {nofile} && exec \"$0\" serve \"$@\""))
        .arg(env!("CARGO_BIN_EXE_accord"))
        .args([PUMP, "--addr", "127.0.0.1:0"])
        .args(args);
    let mut child = spawn_piped(command);
    let (_, url, _) = banner(&mut child);
    let addr = url.trim_start_matches("http://").trim_end_matches('/').to_owned();
    let mut stderr = child.stderr.take().unwrap();
    let log = std::thread::spawn(move || {
        let mut log = String::new();
        let _ = stderr.read_to_string(&mut log);
        log
    });
    (Plant { child, log }, addr)
}

/// The server's peak resident set so far, in MiB (VmHWM of /proc/PID/status).
fn peak_mib(plant: &Plant) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", plant.child.id())).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).expect("VmHWM");
    let kib: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kib / 1024
}

/// A normal call (`pump.list`) on a fresh connection, bounded by `within`: its status line and
/// JSON body, or why it failed.
fn normal_call(addr: &str, within: Duration) -> Result<(String, serde_json::Value), String> {
    let started = Instant::now();
    let mut stream = TcpStream::connect(addr).map_err(|e| e.to_string())?;
    stream.set_read_timeout(Some(within)).unwrap();
    stream.set_write_timeout(Some(within)).unwrap();
    let body = r#"{"jsonrpc": "2.0", "id": 7, "method": "pump.list"}"#;
    write!(
        stream,
        "POST / HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .map_err(|e| e.to_string())?;
    let mut response = Vec::new();
    stream.read_to_end(&mut response).map_err(|e| format!("{e} after {:?}", started.elapsed()))?;
    let response = String::from_utf8_lossy(&response).into_owned();
    let (head, body) = response.split_once("\r\n\r\n").ok_or(response.clone())?;
    let status = head.lines().next().unwrap_or_default().to_owned();
    let json = serde_json::from_str(body).map_err(|e| format!("{e}: {response}"))?;
    Ok((status, json))
}

/// A normal call that must succeed within `within`.
fn assert_normal_call(addr: &str, within: Duration, when: &str) {
    let started = Instant::now();
    let (status, body) = normal_call(addr, within).unwrap_or_else(|e| panic!("{when}: {e}"));
    assert_eq!(status, "HTTP/1.1 200 OK", "{when}: {body}");
    assert!(body["result"].is_array(), "{when}: {body}");
    assert!(started.elapsed() < within, "{when}: took {:?}", started.elapsed());
}

/// A WebSocket handshake on a raw socket (RFC 6455 §1.3's sample key); the socket after the
/// 101's head.
fn raw_websocket(addr: &str) -> TcpStream {
    let mut tcp = TcpStream::connect(addr).unwrap();
    tcp.write_all(
        b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
          Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
    )
    .unwrap();
    let mut head = Vec::new();
    let mut byte = [0];
    while !head.ends_with(b"\r\n\r\n") {
        tcp.read_exact(&mut byte).unwrap();
        head.push(byte[0]);
    }
    assert!(head.starts_with(b"HTTP/1.1 101"), "{}", String::from_utf8_lossy(&head));
    tcp
}

/// One masked client frame with a payload under 126 bytes (mask 0: the payload as it is).
fn short_frame(opcode: u8, payload: &[u8]) -> Vec<u8> {
    assert!(payload.len() < 126);
    let mut frame = vec![0x80 | opcode, 0x80 | payload.len() as u8, 0, 0, 0, 0];
    frame.extend_from_slice(payload);
    frame
}

#[test]
fn a_ping_flood_that_never_reads_stays_under_64_mib() {
    let (plant, addr) = serve_with_nofile(1024, &[]);
    // Four sockets, so that the flood is not limited by one connection's reads.
    let floods: Vec<_> = (0..4)
        .map(|_| {
            let flood_addr = addr.clone();
            std::thread::spawn(move || {
                let mut tcp = raw_websocket(&flood_addr);
                // Pings with the longest payload a control frame may have, as fast as the
                // socket takes them; nothing is ever read.
                let burst: Vec<u8> = short_frame(0x9, &[b'p'; 125]).repeat(512);
                let until = Instant::now() + Duration::from_secs(12);
                let mut sent = 0u64;
                while Instant::now() < until {
                    match tcp.write_all(&burst) {
                        Ok(()) => sent += burst.len() as u64,
                        Err(error) => panic!("the flood was cut after {sent} bytes: {error}"),
                    }
                }
                (tcp, sent)
            })
        })
        .collect();
    std::thread::sleep(Duration::from_secs(6));
    assert_normal_call(&addr, Duration::from_secs(5), "during the flood");
    let (sockets, sent): (Vec<TcpStream>, Vec<u64>) =
        floods.into_iter().map(|f| f.join().unwrap()).unzip();
    let sent: u64 = sent.iter().sum();
    let peak = peak_mib(&plant);
    assert_normal_call(&addr, Duration::from_secs(5), "after the flood");
    drop(sockets);
    let (code, log) = plant.terminate();
    assert_eq!(code, 0, "{log}");
    eprintln!("ping flood: {} MiB sent in 12 s, peak RSS {peak} MiB", sent >> 20);
    // Unbounded, the pongs would be as many bytes as the pings, on top of the ~20 MiB the plant
    // starts with: a flood of 48 MiB passes the bound (before the cap, 100 MiB sent peaked at
    // 109 MiB). A machine too busy to send that much cannot show the bound.
    assert!(sent > 48 << 20, "the flood sent only {} MiB", sent >> 20);
    assert!(peak < 64, "peak RSS {peak} MiB under a ping flood of {} MiB", sent >> 20);
    assert!(!log.contains("message refused"), "{log}");
}

#[test]
fn slowloris_past_the_connection_limit_does_not_starve_a_normal_call() {
    // 256 descriptors: the default connection limit is 192 (256 less 64).
    let (plant, addr) = serve_with_nofile(256, &[]);
    let started = Instant::now();
    let mut stalled = Vec::new();
    for i in 0..400 {
        let mut tcp = TcpStream::connect(&addr).unwrap();
        // Half a head, then nothing (the header read timeout is 30 s).
        tcp.write_all(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Type: appli").unwrap();
        stalled.push(tcp);
        if i == 300 {
            assert_normal_call(&addr, Duration::from_secs(5), "while the stalled pile up");
        }
    }
    assert_normal_call(&addr, Duration::from_secs(5), "with 400 stalled connections");
    assert_normal_call(&addr, Duration::from_secs(5), "again");
    eprintln!("slowloris: 400 stalled connections and 3 calls in {:?}", started.elapsed());
    drop(stalled);
    assert_normal_call(&addr, Duration::from_secs(5), "after the stalled ones left");
    let (code, log) = plant.terminate();
    assert_eq!(code, 0, "{log}");
    assert!(log.contains("connection limit reached"), "{log}");
}

#[test]
fn stalled_one_mib_bodies_stay_under_256_mib() {
    const PEERS: usize = 1500;
    const LENGTH: usize = 1 << 20;
    let (plant, addr) = serve_with_nofile(4096, &[]);
    let started = Instant::now();
    let head = format!(
        "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {LENGTH}\r\n\r\n["
    );
    let mut peers: Vec<(TcpStream, usize)> = (0..PEERS)
        .map(|_| {
            let mut tcp = TcpStream::connect(&addr).unwrap();
            tcp.write_all(head.as_bytes()).unwrap();
            tcp.set_nonblocking(true).unwrap();
            (tcp, 1)
        })
        .collect();
    // Every body all but its last byte, as far as the server takes it within 5 s.
    let chunk = vec![b' '; 64 * 1024];
    let until = Instant::now() + Duration::from_secs(5);
    let mut sent = 0usize;
    while Instant::now() < until {
        let mut progress = false;
        for (tcp, written) in &mut peers {
            let left = LENGTH - 1 - *written;
            if left == 0 {
                continue;
            }
            match tcp.write(&chunk[..left.min(chunk.len())]) {
                Ok(n) => {
                    *written += n;
                    sent += n;
                    progress |= n > 0;
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock => {}
                Err(e) => panic!("a stalled body's connection failed: {e}"),
            }
        }
        if !progress {
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    assert_normal_call(&addr, Duration::from_secs(5), "with 1,500 stalled bodies");
    let peak = peak_mib(&plant);
    eprintln!(
        "stalled bodies: {} MiB sent by {PEERS} peers in {:?}, peak RSS {peak} MiB",
        sent >> 20,
        started.elapsed()
    );
    for (tcp, _) in &peers {
        let _ = tcp.shutdown(Shutdown::Both);
    }
    drop(peers);
    assert_normal_call(&addr, Duration::from_secs(5), "after the bodies left");
    let (code, log) = plant.terminate();
    eprintln!("stalled bodies: stopped after {:?}", started.elapsed());
    assert_eq!(code, 0, "{log}");
    assert!(peak < 256, "peak RSS {peak} MiB with {PEERS} stalled bodies");
    assert!(sent > 300 << 20, "only {} MiB of bodies were sent", sent >> 20);
}

#[test]
fn a_large_emit_streams_and_does_not_hold_up_other_calls() {
    let (plant, addr) = serve_with_nofile(1024, &["--max-subscriptions", "20000"]);
    let mut ws = raw_websocket(&addr);
    // 20,000 subscriptions, 100 to a batch, each batch's answer read before the next.
    let subscribe = r#"{"jsonrpc": "2.0", "id": 1, "method": "rpc.subscribe", "params": {"event": "pump.alarm"}}"#;
    let batch = format!("[{}]", vec![subscribe; 100].join(","));
    for _ in 0..200 {
        write_text(&mut ws, batch.as_bytes());
        let answer = read_text(&mut ws);
        assert!(answer.starts_with(b"[{"), "{}", String::from_utf8_lossy(&answer));
        assert!(!answer.windows(6).any(|w| w == b"-32003"), "{}", String::from_utf8_lossy(&answer));
    }
    // One more is past the limit.
    write_text(&mut ws, subscribe.as_bytes());
    let over: serde_json::Value = serde_json::from_slice(&read_text(&mut ws)).unwrap();
    assert_eq!(over["error"]["code"], -32003, "{over}");
    assert_eq!(over["error"]["data"], serde_json::json!({"limit": "subscriptions", "max": 20000}));
    // 100 emits of 20,000 notifications each: two million, which the peer reads slowly.
    let emit =
        r#"{"jsonrpc": "2.0", "id": 2, "method": "rpc.fake", "params": {"emit": "pump.alarm"}}"#;
    write_text(&mut ws, format!("[{}]", vec![emit; 100].join(",")).as_bytes());
    // The first notification comes before all are made.
    let first: serde_json::Value = serde_json::from_slice(&read_text(&mut ws)).unwrap();
    assert_eq!(first["method"], "rpc.event", "{first}");
    for _ in 0..5 {
        assert_normal_call(&addr, Duration::from_secs(2), "during a large emit");
        let mut sink = [0; 4096];
        let _ = ws.read(&mut sink).unwrap();
        std::thread::sleep(Duration::from_millis(200));
    }
    let peak = peak_mib(&plant);
    eprintln!("large emit: peak RSS {peak} MiB");
    drop(ws);
    assert_normal_call(&addr, Duration::from_secs(2), "after a large emit");
    let (code, log) = plant.terminate();
    assert_eq!(code, 0, "{log}");
    assert!(peak < 128, "peak RSS {peak} MiB during a large emit");
}

/// One masked text frame (mask 0) of any length.
fn write_text(tcp: &mut TcpStream, payload: &[u8]) {
    let mut frame = vec![0x81];
    match payload.len() {
        n if n < 126 => frame.push(0x80 | n as u8),
        n if n <= 0xFFFF => {
            frame.push(0x80 | 126);
            frame.extend_from_slice(&(n as u16).to_be_bytes());
        }
        n => {
            frame.push(0x80 | 127);
            frame.extend_from_slice(&(n as u64).to_be_bytes());
        }
    }
    frame.extend_from_slice(&[0, 0, 0, 0]);
    frame.extend_from_slice(payload);
    tcp.write_all(&frame).unwrap();
}

/// The next unfragmented text message's payload (the server's frames are unmasked).
fn read_text(tcp: &mut TcpStream) -> Vec<u8> {
    tcp.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    loop {
        let mut head = [0; 2];
        tcp.read_exact(&mut head).unwrap();
        let length = match head[1] & 0x7F {
            126 => {
                let mut n = [0; 2];
                tcp.read_exact(&mut n).unwrap();
                u64::from(u16::from_be_bytes(n))
            }
            127 => {
                let mut n = [0; 8];
                tcp.read_exact(&mut n).unwrap();
                u64::from_be_bytes(n)
            }
            n => u64::from(n),
        };
        let mut payload = vec![0; length as usize];
        tcp.read_exact(&mut payload).unwrap();
        if head[0] & 0x0F == 0x1 {
            assert!(head[0] & 0x80 != 0, "a fragmented message");
            return payload;
        }
    }
}
