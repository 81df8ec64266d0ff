//! `cargo xtask soak --secs N [--url URL]`: `accord serve` of the bundled pump plant under mixed
//! load for N seconds, on loopback: normal callers (HTTP keep-alive calls and WebSocket
//! subscribers that call now and then, [`normal`]) beside hostile peers ([`hostile`]), then a
//! report on stdout (markdown): the server's peak RSS (`VmHWM` of /proc/PID/status), p50/p99 of
//! the normal calls, how many failed and why, and what the server did to each hostile peer.
//! Exits non-zero when a normal call failed.
//!
//! With the plant it starts, the surfaces in front of it are soaked too ([`surfaces`]): `accord
//! mcp` over Streamable HTTP and stdio, and `accord console`, each with its callers, its hostile
//! peers and its peak RSS.
//!
//! Like bench-serve, it builds accord and itself in release and runs that build (a debug load
//! generator would measure itself). With `--url`, it drives a plant already running there
//! instead; its RSS is then not known.

mod hostile;
mod normal;
mod surfaces;
mod ws;

use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::workspace;
use hostile::Outcomes;
use normal::Tally;

/// Normal HTTP callers, each sending a call every [`HTTP_PERIOD`]: 400 calls/s in all.
const HTTP_CALLERS: usize = 8;
const HTTP_PERIOD: Duration = Duration::from_millis(20);
/// WebSocket callers, subscribed and calling every [`WS_PERIOD`].
const WS_CALLERS: usize = 4;
const WS_PERIOD: Duration = Duration::from_millis(50);
/// The served notifications' interval (`--event-interval`).
const EVENT_INTERVAL_MS: u64 = 200;
/// Hostile peers of each connection-holding kind, at once.
const SLOWLORIS: usize = 100;
const STALLED_BODIES: usize = 20;
const PING_FLOODS: usize = 2;

/// MCP hosts over Streamable HTTP, and the period of every surface caller.
const MCP_HOSTS: usize = 2;
const SURFACE_PERIOD: Duration = Duration::from_millis(100);

/// The served contract.
const CONTRACT: &str = "fixtures/contracts/pump-plant.types.json";

/// What `soak` was asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Options {
    pub(crate) secs: u64,
    pub(crate) url: Option<String>,
}

/// The plant under load: one this task started, or one at a URL.
struct Plant {
    addr: SocketAddr,
    child: Option<Child>,
}

impl Drop for Plant {
    fn drop(&mut self) {
        if let Some(child) = &mut self.child {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

pub(crate) fn run(root: &Path, options: &Options) -> Result<()> {
    let mut task = vec!["soak".to_owned(), "--secs".to_owned(), options.secs.to_string()];
    if let Some(url) = &options.url {
        task.extend(["--url".to_owned(), url.clone()]);
    }
    let Some(release) = crate::bench_serve::in_release(root, &task)? else { return Ok(()) };
    let mut plant = match &options.url {
        Some(url) => Plant { addr: address_of(url)?, child: None },
        None => start(root, &release.join("accord"))?,
    };
    let pid = plant.child.as_ref().map(Child::id);
    let mut surfaces = match pid {
        Some(_) => Some(surfaces::start(root, &release.join("accord"), CONTRACT, plant.addr)?),
        None => None,
    };
    let duration = Duration::from_secs(options.secs);
    eprintln!("soaking {} for {} s...", plant.addr, options.secs);
    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    let surface_pids = surfaces.as_ref().map(surfaces::Surfaces::pids).unwrap_or_default();
    // The surfaces' peaks, sampled while they run: the stdio server exits as soon as its host
    // closes its input at the end.
    let sampled = std::sync::Arc::new(std::sync::Mutex::new(vec![None; surface_pids.len()]));
    let sampler = {
        let (pids, sampled) = (surface_pids.clone(), sampled.clone());
        let deadline = Instant::now() + Duration::from_secs(options.secs);
        std::thread::spawn(move || {
            while Instant::now() < deadline {
                for (i, (_, pid)) in pids.iter().enumerate() {
                    if let Some(kb) = status_kb(*pid, "VmHWM")
                        && let Ok(mut all) = sampled.lock()
                    {
                        all[i] = Some(all[i].unwrap_or(0).max(kb));
                    }
                }
                std::thread::sleep(Duration::from_millis(250));
            }
        })
    };
    let (tally, hostile, rss, surface_tallies) =
        runtime.block_on(soak(plant.addr, pid, surfaces.as_mut(), duration));
    let _ = sampler.join();
    let peak = pid.and_then(|pid| status_kb(pid, "VmHWM"));
    let sampled = sampled.lock().map(|s| s.clone()).unwrap_or_default();
    let surface_peaks: Vec<(&str, Option<u64>)> = surface_pids
        .iter()
        .zip(sampled)
        .map(|((name, pid), kb)| (*name, status_kb(*pid, "VmHWM").or(kb)))
        .collect();
    drop(surfaces);
    let stop = plant.child.as_mut().map(stop);
    drop(runtime);
    report(options, &tally, &hostile, rss, peak, stop);
    report_surfaces(&surface_tallies, &surface_peaks);
    let failed = tally.failures() + surface_tallies.iter().map(|(_, t)| t.failures()).sum::<u64>();
    if failed > 0 {
        bail!("{failed} normal calls failed");
    }
    Ok(())
}

/// The surfaces' normal callers and their peak RSS.
fn report_surfaces(tallies: &[(String, Tally)], peaks: &[(&str, Option<u64>)]) {
    if tallies.is_empty() {
        return;
    }
    println!();
    println!("| surface callers | calls | failed | p50 / p99 / max |");
    println!("| --- | ---: | ---: | ---: |");
    for (name, t) in tallies {
        println!(
            "| {name} | {} | {} | {} / {} / {} ms |",
            t.http_calls + t.ws_calls,
            t.failures(),
            quantile_ms(&t.latencies, 0.5),
            quantile_ms(&t.latencies, 0.99),
            quantile_ms(&t.latencies, 1.0)
        );
        for (reason, n) in &t.failed {
            eprintln!("{name}: {n} × {reason}");
        }
    }
    println!();
    println!("| process | peak RSS (VmHWM) |");
    println!("| --- | ---: |");
    for (name, kb) in peaks {
        let shown =
            kb.map_or("n/a (not sampled)".to_owned(), |kb| format!("{:.1} MB", kb as f64 / 1024.0));
        println!("| accord {name} | {shown} |");
    }
}

/// `accord serve` of the pump plant on a free port, its log in `<target>/soak/serve.log`.
fn start(root: &Path, accord: &Path) -> Result<Plant> {
    let dir = workspace::target_dir(root).join("soak");
    std::fs::create_dir_all(&dir)?;
    let log = dir.join("serve.log");
    let addr = TcpListener::bind("127.0.0.1:0")?.local_addr()?;
    let mut command = Command::new(accord);
    command
        .current_dir(root)
        .args(["serve", CONTRACT, "--addr", &addr.to_string()])
        .args(["--event-interval", &EVENT_INTERVAL_MS.to_string()])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log)?);
    let child = command.spawn().context("could not start accord serve")?;
    let mut plant = Plant { addr, child: Some(child) };
    let deadline = Instant::now() + Duration::from_secs(30);
    while TcpStream::connect(addr).is_err() {
        if let Some(status) = plant.child.as_mut().and_then(|c| c.try_wait().ok().flatten()) {
            bail!("accord serve exited with {status} before listening ({})", log.display());
        }
        if Instant::now() > deadline {
            bail!("accord serve did not listen on {addr} within 30 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    eprintln!("accord serve's log: {}", show(&log));
    Ok(plant)
}

fn show(path: &Path) -> String {
    path.display().to_string()
}

/// `http://HOST:PORT/` as an address.
fn address_of(url: &str) -> Result<SocketAddr> {
    let rest = url.strip_prefix("http://").context("--url must begin with http://")?;
    let host = rest.split('/').next().unwrap_or(rest);
    host.to_socket_addrs()?.next().with_context(|| format!("`{host}` has no address"))
}

/// RSS figures sampled while the soak ran, in kB: the highest sample and the last.
#[derive(Debug, Default, Clone, Copy)]
struct Rss {
    highest: Option<u64>,
    last: Option<u64>,
}

async fn soak(
    addr: SocketAddr,
    pid: Option<u32>,
    surfaces: Option<&mut surfaces::Surfaces>,
    duration: Duration,
) -> (Tally, Vec<(String, Outcomes)>, Rss, Vec<(String, Tally)>) {
    let deadline = Instant::now() + duration;
    let mut surface_tasks: Vec<(String, tokio::task::JoinHandle<Tally>)> = Vec::new();
    let mut stdio_task = None;
    let mut surface_hostile: Vec<(String, tokio::task::JoinHandle<Outcomes>)> = Vec::new();
    if let Some(s) = surfaces {
        let (mcp, console) = (s.mcp_http, s.console);
        for i in 0..MCP_HOSTS {
            surface_tasks.push((
                format!(
                    "mcp --http host {}: a tools/call every {} ms",
                    i + 1,
                    SURFACE_PERIOD.as_millis()
                ),
                tokio::spawn(surfaces::mcp_http_caller(mcp, SURFACE_PERIOD, deadline)),
            ));
        }
        surface_tasks.push((
            format!("console page: its describe every {} ms", SURFACE_PERIOD.as_millis()),
            tokio::spawn(surfaces::console_caller(console, SURFACE_PERIOD, deadline)),
        ));
        if let Some((stdin, stdout)) = s.take_stdio() {
            stdio_task = Some(tokio::spawn(surfaces::mcp_stdio_caller(
                stdin,
                stdout,
                SURFACE_PERIOD,
                deadline,
            )));
        }
        surface_hostile.push((
            "mcp --http: an `initialize` every 5 ms, the session never used".into(),
            tokio::spawn(surfaces::initialize_flood(mcp, Duration::from_millis(5), deadline)),
        ));
        surface_hostile.push((
            "console: a DNS-rebinding page (foreign Host and Origin) every 100 ms".into(),
            tokio::spawn(surfaces::rebinding(console, Duration::from_millis(100), deadline)),
        ));
    }
    let mut normal = Vec::new();
    for _ in 0..HTTP_CALLERS {
        normal.push(tokio::spawn(normal::http_caller(addr, HTTP_PERIOD, deadline)));
    }
    for _ in 0..WS_CALLERS {
        normal.push(tokio::spawn(normal::ws_caller(addr, WS_PERIOD, deadline)));
    }
    let mut hostile: Vec<(String, Vec<tokio::task::JoinHandle<Outcomes>>)> = Vec::new();
    let mut kind =
        |name: String, count: usize, spawn: &dyn Fn() -> tokio::task::JoinHandle<Outcomes>| {
            hostile.push((name, (0..count).map(|_| spawn()).collect()));
        };
    kind(format!("slowloris: {SLOWLORIS} connections, a header line a second"), SLOWLORIS, &|| {
        tokio::spawn(hostile::slowloris(addr, deadline))
    });
    kind(
        format!("stalled bodies: {STALLED_BODIES} connections, 64 KiB of 1 MiB sent"),
        STALLED_BODIES,
        &|| tokio::spawn(hostile::stalled_body(addr, deadline)),
    );
    kind(
        format!("ping floods: {PING_FLOODS} WebSockets, 125-byte pings, pongs never read"),
        PING_FLOODS,
        &|| tokio::spawn(hostile::ping_flood(addr, deadline)),
    );
    let every = |pause_ms| Duration::from_millis(pause_ms);
    kind("oversized bodies: 2 MiB, one every 200 ms".into(), 1, &|| {
        tokio::spawn(hostile::requests(addr, hostile::oversized, every(200), deadline))
    });
    kind("deep nesting: params 100,000 deep, one every 100 ms".into(), 1, &|| {
        tokio::spawn(hostile::requests(addr, hostile::deep, every(100), deadline))
    });
    kind("duplicate keys: `id` and `pump` twice, one every 100 ms".into(), 1, &|| {
        tokio::spawn(hostile::requests(addr, hostile::duplicate_keys, every(100), deadline))
    });
    kind("huge batches: 10,000 calls, one every 500 ms".into(), 1, &|| {
        tokio::spawn(hostile::requests(addr, hostile::huge_batch, every(500), deadline))
    });
    let sampler = tokio::spawn(async move {
        let mut rss = Rss::default();
        let Some(pid) = pid else { return rss };
        while Instant::now() < deadline {
            if let Some(kb) = status_kb(pid, "VmRSS") {
                rss.highest = Some(rss.highest.unwrap_or(0).max(kb));
                rss.last = Some(kb);
            }
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
        rss
    });
    let mut tally = Tally::default();
    for task in normal {
        match task.await {
            Ok(t) => tally.merge(t),
            Err(err) => {
                *tally.failed.entry(format!("a caller task failed: {err}")).or_default() += 1
            }
        }
    }
    let mut outcomes = Vec::new();
    for (name, tasks) in hostile {
        let mut all = Outcomes::default();
        for task in tasks {
            if let Ok(o) = task.await {
                all.merge(o);
            }
        }
        outcomes.push((name, all));
    }
    let rss = sampler.await.unwrap_or_default();
    tally.latencies.sort_unstable();
    let mut surface_tallies = Vec::new();
    for (name, task) in surface_tasks {
        let mut t = task.await.unwrap_or_default();
        t.latencies.sort_unstable();
        surface_tallies.push((name, t));
    }
    if let Some(task) = stdio_task
        && let Ok((mut t, garbage)) = task.await
    {
        t.latencies.sort_unstable();
        surface_tallies.push((
            format!("mcp stdio host: a tools/call every {} ms", SURFACE_PERIOD.as_millis()),
            t,
        ));
        outcomes
            .push(("mcp stdio: a garbage line every fifth message of its host".into(), garbage));
    }
    for (name, task) in surface_hostile {
        outcomes.push((name, task.await.unwrap_or_default()));
    }
    (tally, outcomes, rss, surface_tallies)
}

/// A `kB` figure of /proc/PID/status.
fn status_kb(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line =
        status.lines().find(|l| l.starts_with(field) && l[field.len()..].starts_with(':'))?;
    line[field.len() + 1..].trim().trim_end_matches("kB").trim().parse().ok()
}

/// SIGTERM, then how the server ended and how long it took.
fn stop(child: &mut Child) -> String {
    let started = Instant::now();
    let sent = Command::new("kill").args(["-TERM", &child.id().to_string()]).status();
    if !sent.is_ok_and(|s| s.success()) {
        return "could not send SIGTERM".into();
    }
    let deadline = started + Duration::from_secs(20);
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                return format!("{status} {:.1} s after SIGTERM", started.elapsed().as_secs_f64());
            }
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(20)),
            _ => return "still running 20 s after SIGTERM (killed)".into(),
        }
    }
}

fn quantile_ms(sorted: &[u32], q: f64) -> String {
    if sorted.is_empty() {
        return "n/a".into();
    }
    let at = ((sorted.len() as f64 - 1.0) * q).round() as usize;
    format!("{:.2}", f64::from(sorted[at]) / 1000.0)
}

fn mb(kb: Option<u64>) -> String {
    kb.map_or("n/a (--url)".to_owned(), |kb| format!("{:.1} MB", kb as f64 / 1024.0))
}

fn report(
    options: &Options,
    tally: &Tally,
    hostile: &[(String, Outcomes)],
    rss: Rss,
    peak: Option<u64>,
    stop: Option<String>,
) {
    let target = options.url.clone().unwrap_or_else(|| format!("accord serve {CONTRACT}"));
    println!("Soak of {target}: {} s on loopback.", options.secs);
    println!();
    println!("| figure | value |");
    println!("| --- | ---: |");
    println!("| peak RSS (VmHWM) | {} |", mb(peak));
    println!(
        "| highest RSS sampled (every 250 ms) / at the end | {} / {} |",
        mb(rss.highest),
        mb(rss.last)
    );
    println!(
        "| normal calls | {} ({} HTTP from {HTTP_CALLERS} keep-alive callers, {} WebSocket from {WS_CALLERS} subscribers) |",
        tally.http_calls + tally.ws_calls,
        tally.http_calls,
        tally.ws_calls
    );
    println!("| normal calls failed | {} |", tally.failures());
    println!(
        "| p50 / p99 / max of the normal calls | {} / {} / {} ms |",
        quantile_ms(&tally.latencies, 0.5),
        quantile_ms(&tally.latencies, 0.99),
        quantile_ms(&tally.latencies, 1.0)
    );
    println!("| notifications received | {} |", tally.notifications);
    if let Some(stop) = stop {
        println!("| shutdown | {stop} |");
    }
    println!();
    println!("| hostile peer | attempts | what the server did (count, time an attempt took) |");
    println!("| --- | ---: | --- |");
    for (name, outcomes) in hostile {
        let what: Vec<String> = outcomes
            .0
            .iter()
            .map(|(outcome, (n, least, most))| {
                format!("{outcome}: {n} ({:.1}–{:.1} s)", least.as_secs_f64(), most.as_secs_f64())
            })
            .collect();
        println!("| {name} | {} | {} |", outcomes.attempts(), what.join("; ").replace('|', "\\|"));
    }
    for (reason, n) in &tally.failed {
        eprintln!("normal calls failed: {n} × {reason}");
    }
}
