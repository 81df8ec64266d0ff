//! `cargo xtask bench-serve`: `accord serve` against `@open-rpc/mock-server` and Prism on
//! loopback, serving the equivalent contracts of `fixtures/peers/` (a small read and a read
//! with a ~10 KB result, answered from the documents' examples by all three), then accord at a
//! fixed 5,000 requests/s. Each case runs a few seconds; the table goes to stdout as markdown.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::load::{self, Measured};
use crate::workspace;

/// How long each throughput case runs, after a warm-up of [`WARM_UP`].
const CASE: Duration = Duration::from_secs(3);
const WARM_UP: Duration = Duration::from_millis(500);
/// Connections of the throughput cases.
const CONNECTIONS: usize = 16;
/// The fixed load of the latency case.
const RATE: u32 = 5_000;

/// The two methods, and a string each answer must contain.
const METHODS: [(&str, &str); 2] = [("bench.ping", "\"seq\":1"), ("bench.catalog", "P-187")];

struct Peer {
    name: &'static str,
    child: Child,
    addr: SocketAddr,
    /// Prism routes by path: one POST path per method; the JSON-RPC servers take `/`.
    path_per_method: bool,
}

impl Drop for Peer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> Result<SocketAddr> {
    let listener = TcpListener::bind("127.0.0.1:0")?;
    Ok(listener.local_addr()?)
}

fn wait_for(addr: SocketAddr, name: &str, child: &mut Child) -> Result<()> {
    let deadline = Instant::now() + Duration::from_secs(60);
    while Instant::now() < deadline {
        if TcpStream::connect(addr).is_ok() {
            return Ok(());
        }
        if let Some(status) = child.try_wait()? {
            bail!("{name} exited with {status} before listening");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    bail!("{name} did not listen on {addr} within 60 s")
}

fn spawn(
    name: &'static str,
    mut command: Command,
    addr: SocketAddr,
    path_per_method: bool,
) -> Result<Peer> {
    command.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null());
    let child = command.spawn().with_context(|| format!("could not start {name}"))?;
    let mut peer = Peer { name, child, addr, path_per_method };
    wait_for(addr, name, &mut peer.child)?;
    Ok(peer)
}

/// The npm peers, installed into `<target>/bench-peers` when npm is there.
fn npm_peers(root: &Path) -> Result<Option<PathBuf>> {
    let dir = workspace::target_dir(root).join("bench-peers");
    let bin = dir.join("node_modules/.bin");
    if bin.join("prism").exists() && bin.join("open-rpc-mock-server").exists() {
        return Ok(Some(bin));
    }
    if Command::new("npm").arg("--version").stdout(Stdio::null()).status().is_err() {
        eprintln!("npm is not installed: skipping @open-rpc/mock-server and Prism");
        return Ok(None);
    }
    std::fs::create_dir_all(&dir)?;
    eprintln!(
        "installing @open-rpc/mock-server and @stoplight/prism-cli into {}...",
        dir.display()
    );
    let status = Command::new("npm")
        .args(["install", "--no-audit", "--no-fund", "--prefix"])
        .arg(&dir)
        .args(["@open-rpc/mock-server@1", "@stoplight/prism-cli@5"])
        .status()?;
    if !status.success() {
        eprintln!("npm install failed ({status}): skipping the peers");
        return Ok(None);
    }
    Ok(Some(bin))
}

pub(crate) fn run(root: &Path) -> Result<()> {
    eprintln!("building accord (release)...");
    let mut build = workspace::cargo();
    build.current_dir(root).args(["build", "--release", "-q", "-p", "accord-cli"]);
    workspace::stdout_of(&mut build).context("could not build accord")?;
    let accord_bin = workspace::target_dir(root).join("release/accord");
    let peers_dir = root.join("fixtures/peers");

    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let mut rows = Vec::new();

    let addr = free_port()?;
    let mut accord = Command::new(&accord_bin);
    accord.current_dir(root).arg("serve").arg(peers_dir.join("bench.types.json"));
    accord.args(["--addr", &addr.to_string()]);
    let server = spawn("accord serve", accord, addr, false)?;
    rows.extend(runtime.block_on(throughput(&server))?);
    let fixed = runtime.block_on(fixed_rate(&server))?;
    drop(server);

    if let Some(bin) = npm_peers(root)? {
        let addr = free_port()?;
        let mut mock = Command::new(bin.join("open-rpc-mock-server"));
        mock.arg("-d")
            .arg(peers_dir.join("bench.openrpc.json"))
            .args(["-p", &addr.port().to_string()]);
        let server = spawn("@open-rpc/mock-server", mock, addr, false)?;
        rows.extend(runtime.block_on(throughput(&server))?);
        drop(server);

        let addr = free_port()?;
        let mut prism = Command::new(bin.join("prism"));
        prism.args(["mock", "-h", "127.0.0.1", "-p", &addr.port().to_string(), "-v", "warn"]);
        prism.arg(peers_dir.join("bench.openapi.json"));
        let server = spawn("Prism", prism, addr, true)?;
        rows.extend(runtime.block_on(throughput(&server))?);
        drop(server);
    }

    println!("| server | method | requests/s | p50 ms | p99 ms |");
    println!("| --- | --- | ---: | ---: | ---: |");
    for (name, method, m) in &rows {
        println!(
            "| {name} | `{method}` | {:.0} | {:.3} | {:.3} |",
            m.per_second(),
            m.quantile_ms(0.5),
            m.quantile_ms(0.99)
        );
    }
    println!();
    for (method, _) in METHODS {
        let ours = rows.iter().find(|(n, m, _)| *n == "accord serve" && *m == method);
        let best_peer = rows
            .iter()
            .filter(|(n, m, _)| *n != "accord serve" && *m == method)
            .max_by(|a, b| a.2.per_second().total_cmp(&b.2.per_second()));
        if let (Some(ours), Some(peer)) = (ours, best_peer) {
            println!(
                "`{method}`: accord serve {:.1}x the faster peer ({})",
                ours.2.per_second() / peer.2.per_second(),
                peer.0
            );
        }
    }
    println!();
    println!(
        "| accord serve at a fixed {RATE} requests/s | achieved requests/s | p50 ms | p99 ms | max ms |"
    );
    println!("| --- | ---: | ---: | ---: | ---: |");
    for (method, m) in &fixed {
        println!(
            "| `{method}` | {:.0} | {:.3} | {:.3} | {:.3} |",
            m.per_second(),
            m.quantile_ms(0.5),
            m.quantile_ms(0.99),
            m.quantile_ms(1.0)
        );
    }
    Ok(())
}

fn body(method: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":1,"method":"{method}","params":[]}}"#)
}

async fn throughput(peer: &Peer) -> Result<Vec<(&'static str, &'static str, Measured)>> {
    let mut rows = Vec::new();
    for (method, expect) in METHODS {
        let path = if peer.path_per_method { format!("/{method}") } else { "/".to_owned() };
        let request = load::request(peer.addr, &path, &body(method));
        load::probe(peer.addr, &request, expect)
            .await
            .with_context(|| format!("{}: {method}", peer.name))?;
        load::closed_loop(peer.addr, request.clone(), CONNECTIONS, WARM_UP).await?;
        let measured = load::closed_loop(peer.addr, request, CONNECTIONS, CASE).await?;
        eprintln!("{} {method}: {:.0} requests/s", peer.name, measured.per_second());
        rows.push((peer.name, method, measured));
    }
    Ok(rows)
}

async fn fixed_rate(peer: &Peer) -> Result<Vec<(&'static str, Measured)>> {
    let mut rows = Vec::new();
    for (method, _) in METHODS {
        let request = load::request(peer.addr, "/", &body(method));
        let measured = load::fixed_rate(peer.addr, request, RATE, CONNECTIONS, CASE).await?;
        rows.push((method, measured));
    }
    Ok(rows)
}
