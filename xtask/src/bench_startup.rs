//! `cargo xtask bench-startup`: how long `accord serve` (release) takes from exec to its first
//! answer, on generated contracts of 1,000 and 10,000 methods. Each round starts the server once
//! per size, the sizes interleaved (1k, 10k, 1k, 10k, …) so that a change in the machine's load
//! hits both; the first answer is a call of the last method declared, validated, so the whole
//! contract has been read and compiled. Reports the median with the quartiles and the range.

use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};

use crate::bench_serve::{free_port, in_release};
use crate::workspace;

/// The contract sizes, in methods (spread over [`NAMESPACES`] namespaces).
const SIZES: [usize; 2] = [1_000, 10_000];
const NAMESPACES: usize = 10;
/// How many times each size is started.
const ROUNDS: usize = 15;
/// Longer than this is a failure, not a sample.
const GIVE_UP: Duration = Duration::from_secs(30);

/// A generated contract of `methods` read methods: each takes one bounded integer and a pattern
/// string and answers an object by ref (one named type per method, as a plant's readings are),
/// with an example the fake answers.
fn contract(methods: usize) -> Value {
    let mut namespaces = serde_json::Map::new();
    for n in 0..NAMESPACES {
        let (mut ms, mut types) = (serde_json::Map::new(), serde_json::Map::new());
        for i in 0..per_namespace(methods) {
            types.insert(
                format!("Reading{i}"),
                json!({"kind": "object", "fields": {
                    "value": {"type": {"kind": "number", "min": 0, "max": 1000}},
                    "unit": {"type": {"kind": "enum", "values": ["bar", "rpm", "celsius"]}},
                    "at": {"type": {"kind": "string", "format": "date-time"}},
                }}),
            );
            ms.insert(
                format!("read{i}"),
                json!({
                    "semantics": "read",
                    "params": [
                        {"name": "channel", "type": {"kind": "integer", "min": 0, "max": 63}},
                        {"name": "tag", "type": {"kind": "string", "pattern": "^[A-Z]-[0-9]{3}$"}},
                    ],
                    "result": {"kind": "ref", "name": format!("Reading{i}")},
                    "examples": [{
                        "params": {"channel": 1, "tag": "P-101"},
                        "result": {"value": 2.5, "unit": "bar", "at": "2026-12-03T10:00:00Z"},
                    }],
                }),
            );
        }
        namespaces.insert(
            format!("plant{n}"),
            json!({"version": "1.0.0", "methods": ms, "types": types}),
        );
    }
    json!({"schema": 1, "namespaces": namespaces})
}

/// The methods of each namespace: the sizes are whole multiples of [`NAMESPACES`].
const fn per_namespace(methods: usize) -> usize {
    assert!(methods.is_multiple_of(NAMESPACES) && methods > 0);
    methods / NAMESPACES
}

pub(crate) fn run(root: &Path) -> Result<()> {
    let Some(release) = in_release(root, &["bench-startup".to_owned()])? else { return Ok(()) };
    let accord = release.join("accord");
    let dir = workspace::target_dir(root).join("bench-startup");
    std::fs::create_dir_all(&dir)?;
    let mut files = Vec::new();
    for size in SIZES {
        let file = dir.join(format!("methods-{size}.types.json"));
        let text = serde_json::to_string_pretty(&contract(size))?;
        std::fs::write(&file, &text)?;
        eprintln!("{}: {} bytes", file.display(), text.len());
        files.push((size, file));
    }
    let mut samples: Vec<Vec<Duration>> = vec![Vec::new(); SIZES.len()];
    for round in 0..ROUNDS {
        // Alternate which size goes first.
        let order: Vec<usize> = if round % 2 == 0 { vec![0, 1] } else { vec![1, 0] };
        for i in order {
            let (size, file) = &files[i];
            let took = first_answer(&accord, file, *size)?;
            samples[i].push(took);
        }
    }
    println!(
        "| methods | contract bytes | fastest | lower quartile | median | upper quartile | slowest |"
    );
    println!("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (i, (size, file)) in files.iter().enumerate() {
        let s = &mut samples[i];
        s.sort();
        let q = |f: f64| ms(s[((s.len() - 1) as f64 * f).round() as usize]);
        println!(
            "| {size} | {} | {} | {} | {} | {} | {} |",
            std::fs::metadata(file)?.len(),
            q(0.0),
            q(0.25),
            q(0.5),
            q(0.75),
            q(1.0)
        );
    }
    Ok(())
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1e3)
}

/// A server process, killed when dropped.
pub(crate) struct Server(pub(crate) Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `accord serve FILE` and calls its last method until an answer comes: the time from
/// the spawn to the answer's last byte.
fn first_answer(accord: &PathBuf, file: &Path, size: usize) -> Result<Duration> {
    let addr = free_port()?;
    let (last_ns, last) = (NAMESPACES - 1, per_namespace(size) - 1);
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"plant{last_ns}.read{last}","params":{{"channel":1,"tag":"P-101"}}}}"#
    );
    let request = format!(
        "POST / HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let start = Instant::now();
    let mut server = Server(
        Command::new(accord)
            .arg("serve")
            .arg(file)
            .args(["--addr", &addr.to_string()])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .context("could not start accord serve")?,
    );
    loop {
        if let Some(answer) = try_call(addr, &request) {
            let took = start.elapsed();
            if !answer.contains("\"result\"") {
                bail!("accord serve answered without a result: {answer}");
            }
            return Ok(took);
        }
        if let Some(status) = server.0.try_wait()? {
            bail!("accord serve exited with {status} before answering");
        }
        if start.elapsed() > GIVE_UP {
            bail!("accord serve did not answer within {GIVE_UP:?}");
        }
        std::thread::sleep(Duration::from_micros(500));
    }
}

/// One request on a connection of its own: the whole response, or `None` when nothing listens.
pub(crate) fn try_call(addr: SocketAddr, request: &str) -> Option<String> {
    use std::io::{Read, Write};
    let mut stream = TcpStream::connect(addr).ok()?;
    stream.write_all(request.as_bytes()).ok()?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer).ok()?;
    Some(answer)
}
