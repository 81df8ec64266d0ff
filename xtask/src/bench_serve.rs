//! `cargo xtask bench-serve`: `accord serve` against `@open-rpc/mock-server` and Prism on
//! loopback, serving the equivalent contracts of `fixtures/peers/` (a small read and a read
//! with a ~10 KB result, answered from the documents' examples by all three), then accord at a
//! fixed 5,000 requests/s. The servers run side by side and are measured in turn, in
//! [`ROUNDS`] rounds, so that a change in the machine's load between cases hits all of them;
//! each case reports its median round. The tables go to stdout as markdown.
//!
//! Beside them runs the floor (`cargo xtask bench-floor`, [`crate::floor`]): canned bytes and
//! nothing else, the most requests/s a server can answer on this machine. On a machine with at
//! least two CPUs, each server is pinned to the last CPU and the load generator to the others
//! (`taskset`), so that every server has one whole core and the generator never takes from it.
//! The load generator and the floor are this program: it builds itself in release and runs
//! that build, since a debug build's load generator would measure itself.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::load::{self, Measured};
use crate::workspace;

/// How long each case runs per round, after a warm-up of [`WARM_UP`].
const CASE: Duration = Duration::from_secs(2);
const WARM_UP: Duration = Duration::from_millis(300);
/// How many times every case is measured; the median round is reported.
const ROUNDS: usize = 3;
/// Connections of the throughput cases.
const CONNECTIONS: usize = 16;
/// The fixed load of the latency case.
const RATE: u32 = 5_000;

/// One throughput case: server, method, what was measured.
type Case = (&'static str, &'static str, Measured);

/// The two methods, and a string each answer must contain.
const METHODS: [(&str, &str); 2] = [("bench.ping", "\"seq\":1"), ("bench.catalog", "P-187")];

/// The name the floor's rows carry.
const FLOOR: &str = "floor (bench-floor)";

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

/// The CPU time a process has used so far (user + system, all its threads), from
/// `/proc/PID/stat` in clock ticks of 10 ms; `None` where there is no /proc. Unlike requests/s,
/// CPU time per request does not move with what else the machine runs.
fn cpu_time(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) may hold spaces; the fields after its ')' are plain.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(Duration::from_millis((utime + stime) * 10))
}

/// The floor's command: it answers with the bytes `accord` answers, fetched from it now.
fn floor_command(
    root: &Path,
    placement: &Placement,
    xtask_bin: &Path,
    accord: &Peer,
) -> Result<(Command, SocketAddr)> {
    let dir = workspace::target_dir(root).join("bench-floor");
    std::fs::create_dir_all(&dir)?;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let addr = free_port()?;
    let mut command = placement.command(xtask_bin);
    command.arg("bench-floor").arg(addr.to_string());
    for (method, expect) in METHODS {
        let request = load::request(accord.addr, "/", &body(method));
        let answer = runtime.block_on(load::probe(accord.addr, &request, expect))?;
        let file = dir.join(format!("{method}.json"));
        std::fs::write(&file, answer)?;
        command.arg(format!("{method}={}", file.display()));
    }
    Ok((command, addr))
}

fn is_same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// A loopback address no one listens on (bound, read, released).
pub(crate) fn free_port() -> Result<SocketAddr> {
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

/// How processes are placed on the machine's CPUs.
struct Placement {
    /// The CPU list (taskset's syntax) of the servers and of the load generator; `None` when
    /// the machine has one CPU or no `taskset`.
    cpus: Option<(String, String)>,
}

impl Placement {
    fn decide() -> Placement {
        let count = std::thread::available_parallelism().map_or(1, usize::from);
        let taskset = Command::new("taskset")
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if count < 2 || !taskset {
            eprintln!(
                "not pinning: {count} CPU(s), taskset {}",
                if taskset { "found" } else { "not found" }
            );
            return Placement { cpus: None };
        }
        let last = count - 1;
        let rest = if last == 1 { "0".to_owned() } else { format!("0-{}", last - 1) };
        Placement { cpus: Some((last.to_string(), rest)) }
    }

    /// Pins this process (the load generator; its runtime is built afterwards, so every
    /// thread it starts inherits the mask).
    fn pin_self(&self) -> Result<()> {
        if let Some((_, generator)) = &self.cpus {
            let status = Command::new("taskset")
                .args(["-p", "-c", generator, &std::process::id().to_string()])
                .stdout(Stdio::null())
                .status()?;
            if !status.success() {
                bail!("taskset could not pin the load generator to CPU {generator}");
            }
        }
        Ok(())
    }

    /// `program` as a command, pinned to the servers' CPU where there is one.
    fn command(&self, program: &Path) -> Command {
        match &self.cpus {
            Some((server, _)) => {
                let mut command = Command::new("taskset");
                command.args(["-c", server]).arg(program);
                command
            }
            None => Command::new(program),
        }
    }

    fn describe(&self) -> String {
        match &self.cpus {
            Some((server, generator)) => {
                format!("each server on CPU {server}, the load generator on CPU {generator}")
            }
            None => "not pinned (one CPU or no taskset): servers and load generator share".into(),
        }
    }
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

/// Builds accord and xtask in release; when this program is not that release build, runs the
/// release build with `task` and returns `None` (measure with the optimized load generator),
/// else the release directory.
pub(crate) fn in_release(root: &Path, task: &[String]) -> Result<Option<PathBuf>> {
    eprintln!("building accord and xtask (release)...");
    let mut build = workspace::cargo();
    build.current_dir(root).args(["build", "--release", "-q", "-p", "accord-cli", "-p", "xtask"]);
    workspace::stdout_of(&mut build).context("could not build accord")?;
    let release = workspace::target_dir(root).join("release");
    let xtask_bin = release.join("xtask");
    if is_same_file(&std::env::current_exe()?, &xtask_bin) {
        return Ok(Some(release));
    }
    let status = Command::new(&xtask_bin).args(task).current_dir(root).status()?;
    if !status.success() {
        bail!("the release build of {} failed ({status})", task[0]);
    }
    Ok(None)
}

pub(crate) fn run(root: &Path) -> Result<()> {
    let Some(release) = in_release(root, &["bench-serve".to_owned()])? else { return Ok(()) };
    let xtask_bin = release.join("xtask");
    let placement = Placement::decide();
    placement.pin_self()?;
    eprintln!("{}", placement.describe());
    let peers_dir = root.join("fixtures/peers");

    let mut servers = Vec::new();
    let addr = free_port()?;
    let mut accord = placement.command(&release.join("accord"));
    accord.current_dir(root).arg("serve").arg(peers_dir.join("bench.types.json"));
    accord.args(["--addr", &addr.to_string()]);
    servers.push(spawn("accord serve", accord, addr, false)?);
    let floor = floor_command(root, &placement, &xtask_bin, &servers[0])?;
    let addr = floor.1;
    servers.push(spawn(FLOOR, floor.0, addr, false)?);
    if let Some(bin) = npm_peers(root)? {
        let addr = free_port()?;
        let mut mock = placement.command(&bin.join("open-rpc-mock-server"));
        mock.arg("-d").arg(peers_dir.join("bench.openrpc.json"));
        mock.args(["-p", &addr.port().to_string()]);
        servers.push(spawn("@open-rpc/mock-server", mock, addr, false)?);
        let addr = free_port()?;
        let mut prism = placement.command(&bin.join("prism"));
        prism.args(["mock", "-h", "127.0.0.1", "-p", &addr.port().to_string(), "-v", "warn"]);
        prism.arg(peers_dir.join("bench.openapi.json"));
        servers.push(spawn("Prism", prism, addr, true)?);
    }

    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    // rounds[r] holds every (server, method) case of round r, in the same order.
    let mut rounds: Vec<Vec<Case>> = Vec::new();
    let mut fixed_rounds: Vec<Vec<(&'static str, Measured)>> = Vec::new();
    for round in 0..ROUNDS {
        eprintln!("round {} of {ROUNDS}", round + 1);
        let mut cases = Vec::new();
        for server in &servers {
            cases.extend(runtime.block_on(throughput(server))?);
        }
        rounds.push(cases);
        fixed_rounds.push(runtime.block_on(fixed_rate(&servers[0]))?);
    }
    drop(servers);

    println!("Placement: {}.", placement.describe());
    println!();
    report_throughput(&rounds);
    report_fixed_rate(&fixed_rounds);
    Ok(())
}

/// The throughput table (median rounds), then per method how accord and the floor compare
/// with the faster peer, per round and over the medians, by requests/s and by CPU.
fn report_throughput(rounds: &[Vec<Case>]) {
    let rows: Vec<Case> = (0..rounds[0].len())
        .map(|case| {
            let mut all: Vec<&Case> = rounds.iter().map(|r| &r[case]).collect();
            all.sort_by(|a, b| a.2.per_second().total_cmp(&b.2.per_second()));
            all[all.len() / 2].clone()
        })
        .collect();
    println!(
        "| server | method | requests/s (median of {ROUNDS}) | p50 ms | p99 ms | requests/s per round | server CPU µs per request (median) | load generator CPU µs per request (median) |"
    );
    println!("| --- | --- | ---: | ---: | ---: | --- | ---: | ---: |");
    let shown = |us: Option<f64>| us.map_or("n/a".to_owned(), |us| format!("{us:.1}"));
    for (case, (name, method, m)) in rows.iter().enumerate() {
        let each: Vec<String> =
            rounds.iter().map(|r| format!("{:.0}", r[case].2.per_second())).collect();
        println!(
            "| {name} | `{method}` | {:.0} | {:.3} | {:.3} | {} | {} | {} |",
            m.per_second(),
            m.quantile_ms(0.5),
            m.quantile_ms(0.99),
            each.join(", "),
            shown(median_cpu(rounds, case, |m| m.cpu)),
            shown(median_cpu(rounds, case, |m| m.generator_cpu)),
        );
    }
    println!();
    let is_peer = |case: &&&Case| case.0 != "accord serve" && case.0 != FLOOR;
    for (method, _) in METHODS {
        for round in 0..=ROUNDS {
            // Per round, and (last) for the medians.
            let cases: Vec<&Case> = match rounds.get(round) {
                Some(r) => r.iter().filter(|c| c.1 == method).collect(),
                None => rows.iter().filter(|c| c.1 == method).collect(),
            };
            let Some(peer) = cases
                .iter()
                .filter(is_peer)
                .max_by(|a, b| a.2.per_second().total_cmp(&b.2.per_second()))
            else {
                continue;
            };
            let label =
                if round < ROUNDS { format!("round {}", round + 1) } else { "medians".into() };
            for server in ["accord serve", FLOOR] {
                let Some(ours) = cases.iter().find(|c| c.0 == server) else { continue };
                println!(
                    "`{method}` {label}: {server} {:.1}x the faster peer's requests/s ({})",
                    ours.2.per_second() / peer.2.per_second(),
                    peer.0
                );
                if round < ROUNDS {
                    continue;
                }
                let index = |name: &str| rows.iter().position(|c| c.0 == name && c.1 == method);
                let cpu = |name: &str| index(name).and_then(|i| median_cpu(rounds, i, |m| m.cpu));
                if let (Some(ours_us), Some(peer_us)) = (cpu(server), cpu(peer.0)) {
                    println!(
                        "`{method}` medians: {peer_us:.1} µs of CPU per request for {} against {ours_us:.1} for {server}: {:.1}x",
                        peer.0,
                        peer_us / ours_us
                    );
                }
            }
        }
    }
    println!();
}

/// The fixed-rate table: accord's latency at [`RATE`] requests/s, the median round by p99.
fn report_fixed_rate(fixed_rounds: &[Vec<(&'static str, Measured)>]) {
    println!(
        "| accord serve at a fixed {RATE} requests/s | achieved requests/s | p50 ms | p99 ms (median of {ROUNDS}) | p99 ms per round |"
    );
    println!("| --- | ---: | ---: | ---: | --- |");
    for (case, (method, _)) in fixed_rounds[0].iter().enumerate() {
        let mut all: Vec<&Measured> = fixed_rounds.iter().map(|r| &r[case].1).collect();
        let each: Vec<String> = all.iter().map(|m| format!("{:.3}", m.quantile_ms(0.99))).collect();
        all.sort_by(|a, b| a.quantile_ms(0.99).total_cmp(&b.quantile_ms(0.99)));
        let m = all[all.len() / 2];
        println!(
            "| `{method}` | {:.0} | {:.3} | {:.3} | {} |",
            m.per_second(),
            m.quantile_ms(0.5),
            m.quantile_ms(0.99),
            each.join(", ")
        );
    }
}

/// The median over rounds of a case's CPU time per request (the one `which` picks: the
/// server's or the load generator's), in microseconds.
fn median_cpu(
    rounds: &[Vec<Case>],
    case: usize,
    which: impl Fn(&Measured) -> Option<Duration>,
) -> Option<f64> {
    let mut all: Vec<f64> = rounds
        .iter()
        .map(|r| &r[case].2)
        .map(|m| which(m).map(|cpu| cpu.as_secs_f64() * 1e6 / m.requests as f64))
        .collect::<Option<Vec<f64>>>()?;
    all.sort_by(f64::total_cmp);
    all.get(all.len() / 2).copied()
}

fn body(method: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":1,"method":"{method}","params":[]}}"#)
}

async fn throughput(peer: &Peer) -> Result<Vec<Case>> {
    let mut rows = Vec::new();
    for (method, expect) in METHODS {
        let path = if peer.path_per_method { format!("/{method}") } else { "/".to_owned() };
        let request = load::request(peer.addr, &path, &body(method));
        load::probe(peer.addr, &request, expect)
            .await
            .with_context(|| format!("{}: {method}", peer.name))?;
        load::closed_loop(peer.addr, request.clone(), CONNECTIONS, WARM_UP).await?;
        let before = (cpu_time(peer.child.id()), cpu_time(std::process::id()));
        let measured = load::closed_loop(peer.addr, request, CONNECTIONS, CASE).await?;
        let after = (cpu_time(peer.child.id()), cpu_time(std::process::id()));
        let spent = |before: Option<Duration>, after: Option<Duration>| {
            Some(after?.saturating_sub(before?))
        };
        let cpu = spent(before.0, after.0);
        let generator_cpu = spent(before.1, after.1);
        eprintln!("{} {method}: {:.0} requests/s", peer.name, measured.per_second());
        rows.push((peer.name, method, Measured { cpu, generator_cpu, ..measured }));
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
