//! The work-queue node's throughput for whole job cycles: `queue.enqueue` → `queue.claim` (one
//! job) → `queue.ack`, three calls over its real RPC interface (jsonrpsee's HTTP client on
//! loopback, through accord-plant's layer and middleware, SQLite in WAL with synchronous FULL
//! on disk), by 1 and by 4 concurrent workers.
//!
//! Each run starts the node in-process on 127.0.0.1:0 on a fresh database and stops after
//! `ACCORD_BENCH_CYCLES` cycles (default 2,000) or 20 s, whichever comes first; the runs of one
//! and of four workers alternate, `ACCORD_BENCH_RUNS` times (default 5). Reported per run: jobs
//! per second (cycles completed over the run's wall time), the cycle latency's median, p99
//! and maximum, and the claims that came back empty and were retried (counted in the cycle). A `harness = false` main: divan times one closure and reports no percentiles
//! of a concurrent run.
//!
//! `cargo bench -p work-queue --bench cycles`; the databases go under cargo's
//! `CARGO_TARGET_TMPDIR` (on the target directory's disk, not a tmpfs, so each commit pays a
//! real fsync). Figures in docs/benchmarks.md.

use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use jsonrpsee_core::client::ClientT;
use jsonrpsee_core::params::ObjectParams;
use jsonrpsee_http_client::HttpClient;
use serde_json::{Value, json};

fn object(value: Value) -> ObjectParams {
    let mut params = ObjectParams::new();
    for (name, member) in value.as_object().unwrap() {
        params.insert(name, member).unwrap();
    }
    params
}

/// One enqueue → claim → ack cycle: its latency, and how many claims came back empty first.
async fn cycle(client: &HttpClient, worker: &str, n: u64) -> (Duration, u64) {
    let started = Instant::now();
    let payload =
        json!({"image": format!("s3://media/bench/{worker}/{n}.jpg"), "sizes": [64, 256]});
    let _: Value = client
        .request("queue.enqueue", object(json!({"queue": "bench", "payload": payload})))
        .await
        .unwrap();
    let claim = json!({"queue": "bench", "worker": worker, "lease": 60, "max": 1});
    // Every worker enqueues before it claims, so a job is pending for each claim; but a claim
    // sees the jobs visible at the moment it read the clock, before it waited for the database,
    // so with several workers it may find only a job enqueued after that moment, and answer
    // empty. The worker claims again, as a real one would; those claims are counted.
    let mut empty = 0;
    let leases = loop {
        let leases: Value = client.request("queue.claim", object(claim.clone())).await.unwrap();
        if leases.as_array().is_some_and(|l| !l.is_empty()) {
            break leases;
        }
        empty += 1;
        assert!(empty < 1000, "no job to claim");
    };
    let lease = &leases[0];
    let ack = json!({"id": lease["job"]["id"], "token": lease["token"]});
    let done: Value = client.request("queue.ack", object(ack)).await.unwrap();
    assert!(done["completedAt"].is_string(), "{done}");
    (started.elapsed(), empty)
}

struct Run {
    workers: usize,
    cycles: usize,
    wall: Duration,
    latencies: Vec<Duration>,
    empty_claims: u64,
}

async fn run(workers: usize, cycles: usize, limit: Duration, dir: &std::path::Path) -> Run {
    let db = dir.join(format!("cycles-{workers}-{}.db", std::process::id()));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    let plant = work_queue::plant(work_queue::Config::default()).unwrap();
    let (addr, handle) =
        work_queue::serve(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)), &db, plant).await.unwrap();
    let url = format!("http://{addr}/");
    let next = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let started = Instant::now();
    let deadline = started + limit;
    let tasks: Vec<_> = (0..workers)
        .map(|w| {
            let (url, next) = (url.clone(), next.clone());
            tokio::spawn(async move {
                let client = HttpClient::builder().build(&url).unwrap();
                let worker = format!("bench-{w}");
                let mut latencies = Vec::new();
                let mut empty_claims = 0;
                loop {
                    let n = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if n >= cycles || Instant::now() >= deadline {
                        break;
                    }
                    let (latency, empty) = cycle(&client, &worker, n as u64).await;
                    latencies.push(latency);
                    empty_claims += empty;
                }
                (latencies, empty_claims)
            })
        })
        .collect();
    let (mut latencies, mut empty_claims) = (Vec::new(), 0);
    for task in tasks {
        let (more, empty) = task.await.unwrap();
        latencies.extend(more);
        empty_claims += empty;
    }
    let wall = started.elapsed();
    handle.stop().unwrap();
    handle.stopped().await;
    latencies.sort_unstable();
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    Run { workers, cycles: latencies.len(), wall, latencies, empty_claims }
}

fn percentile(sorted: &[Duration], q: f64) -> Duration {
    // Nearest rank: the smallest latency at or above the q-th fraction of cycles.
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn env(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` runs this without: a few cycles
    // there, so the bench is checked without being timed.
    let quick = !std::env::args().any(|a| a == "--bench");
    let runs = if quick { 1 } else { env("ACCORD_BENCH_RUNS", 5) };
    let cycles = if quick { 10 } else { env("ACCORD_BENCH_CYCLES", 2000) };
    let limit = Duration::from_secs(20);
    let dir = std::env::var_os("ACCORD_BENCH_DB_DIR")
        .map_or_else(|| PathBuf::from(env!("CARGO_TARGET_TMPDIR")), PathBuf::from);
    std::fs::create_dir_all(&dir).unwrap();
    let rt =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    println!(
        "work-queue enqueue → claim → ack: {runs} runs of up to {cycles} cycles (or {}s) each, \
         by 1 and by 4 workers; database under {}; load {}",
        limit.as_secs(),
        dir.display(),
        loadavg(),
    );
    println!();
    println!(
        "| run | workers | cycles | wall (s) | jobs/s | median (ms) | p99 (ms) | max (ms) | empty claims | load |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    // Per worker count: (jobs/s, p99 ms) of each run.
    let mut summary: [Vec<(f64, f64)>; 2] = [Vec::new(), Vec::new()];
    for r in 0..runs {
        for (k, workers) in [1, 4].into_iter().enumerate() {
            let run = rt.block_on(run(workers, cycles, limit, &dir));
            let lat = &run.latencies;
            summary[k]
                .push((run.cycles as f64 / run.wall.as_secs_f64(), ms(percentile(lat, 0.99))));
            println!(
                "| {} | {} | {} | {:.2} | {:.0} | {:.2} | {:.2} | {:.2} | {} | {} |",
                r + 1,
                run.workers,
                run.cycles,
                run.wall.as_secs_f64(),
                run.cycles as f64 / run.wall.as_secs_f64(),
                ms(percentile(lat, 0.5)),
                ms(percentile(lat, 0.99)),
                ms(*lat.last().unwrap()),
                run.empty_claims,
                loadavg(),
            );
        }
    }
    println!();
    println!("| workers | jobs/s, median of runs (min–max) | p99 (ms), median of runs (min–max) |");
    println!("| --- | --- | --- |");
    for (k, workers) in [1, 4].into_iter().enumerate() {
        let mut rate: Vec<f64> = summary[k].iter().map(|s| s.0).collect();
        let mut p99: Vec<f64> = summary[k].iter().map(|s| s.1).collect();
        rate.sort_by(f64::total_cmp);
        p99.sort_by(f64::total_cmp);
        let (n, last) = (rate.len() / 2, rate.len() - 1);
        println!(
            "| {workers} | {:.0} ({:.0}–{:.0}) | {:.2} ({:.2}–{:.2}) |",
            rate[n], rate[0], rate[last], p99[n], p99[0], p99[last]
        );
    }
}
