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
//! `ACCORD_BENCH_BATCH=N` (default 1) makes each cycle N jobs: `queue.enqueueMany` of N, claims
//! of up to N until N are held, `queue.ackMany` of N (jobs/s counts jobs, not cycles).
//! `ACCORD_BENCH_STORE=postgres` runs on PostgreSQL instead (a fresh database on the server
//! `ACCORD_TEST_POSTGRES_URL` names, as the tests) behind two nodes in this process, each with its
//! own pool and listener, the workers alternating between them.
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

#[path = "../tests/common/postgres.rs"]
mod test_postgres;

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

/// One cycle of `batch` jobs through the batch verbs: its latency and its empty claims.
async fn batch_cycle(client: &HttpClient, worker: &str, n: u64, batch: usize) -> (Duration, u64) {
    let started = Instant::now();
    let jobs: Vec<Value> = (0..batch)
        .map(|i| json!({"queue": "bench", "payload": {"image": format!("s3://media/bench/{worker}/{n}/{i}.jpg"), "sizes": [64, 256]}}))
        .collect();
    let added: Value =
        client.request("queue.enqueueMany", object(json!({"jobs": jobs}))).await.unwrap();
    assert_eq!(added.as_array().map(Vec::len), Some(batch), "{added}");
    let mut held = Vec::new();
    let mut empty = 0;
    while held.len() < batch {
        let claim =
            json!({"queue": "bench", "worker": worker, "lease": 60, "max": batch - held.len()});
        let leases: Value = client.request("queue.claim", object(claim)).await.unwrap();
        let leases = leases.as_array().cloned().unwrap_or_default();
        if leases.is_empty() {
            empty += 1;
            assert!(empty < 1000, "no job to claim");
        }
        held.extend(leases);
    }
    let acks: Vec<Value> =
        held.iter().map(|l| json!({"id": l["job"]["id"], "token": l["token"]})).collect();
    let done: Value = client.request("queue.ackMany", object(json!({"acks": acks}))).await.unwrap();
    let done = done.as_array().unwrap();
    assert!(done.iter().all(|d| d["completedAt"].is_string()), "{done:?}");
    (started.elapsed(), empty)
}

/// Where a run keeps its jobs.
enum Store {
    Sqlite(PathBuf),
    Postgres,
}

struct Run {
    workers: usize,
    cycles: usize,
    wall: Duration,
    latencies: Vec<Duration>,
    empty_claims: u64,
}

async fn run(workers: usize, cycles: usize, batch: usize, limit: Duration, store: &Store) -> Run {
    let plant = work_queue::plant(work_queue::Config::default()).unwrap();
    let any = SocketAddr::from((Ipv4Addr::LOCALHOST, 0));
    let mut db = None;
    let nodes = match store {
        Store::Sqlite(dir) => {
            let path = dir.join(format!("cycles-{workers}-{}.db", std::process::id()));
            for suffix in ["", "-wal", "-shm"] {
                let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
            }
            let node = work_queue::serve(any, &path, plant).await.unwrap();
            db = Some(path);
            vec![node]
        }
        Store::Postgres => {
            let url = test_postgres::fresh_database("bench").await;
            let a =
                work_queue::serve(any, work_queue::Storage::Postgres(url.clone()), plant.clone())
                    .await
                    .unwrap();
            let b =
                work_queue::serve(any, work_queue::Storage::Postgres(url), plant).await.unwrap();
            vec![a, b]
        }
    };
    let urls: Vec<String> = nodes.iter().map(|(addr, _)| format!("http://{addr}/")).collect();
    let next = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let started = Instant::now();
    let deadline = started + limit;
    let tasks: Vec<_> = (0..workers)
        .map(|w| {
            let (url, next) = (urls[w % urls.len()].clone(), next.clone());
            tokio::spawn(async move {
                let client = HttpClient::builder().build(&url).unwrap();
                let worker = format!("bench-{w}");
                let mut latencies = Vec::new();
                let mut empty_claims = 0;
                loop {
                    let n = next.fetch_add(batch, std::sync::atomic::Ordering::Relaxed);
                    if n >= cycles || Instant::now() >= deadline {
                        break;
                    }
                    let (latency, empty) = if batch == 1 {
                        cycle(&client, &worker, n as u64).await
                    } else {
                        batch_cycle(&client, &worker, n as u64, batch).await
                    };
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
    for (_, handle) in nodes {
        handle.stop().unwrap();
        handle.stopped().await;
    }
    latencies.sort_unstable();
    if let Some(db) = db {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
        }
    }
    Run { workers, cycles: latencies.len() * batch, wall, latencies, empty_claims }
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
    let batch = env("ACCORD_BENCH_BATCH", 1).max(1);
    let store = if std::env::var("ACCORD_BENCH_STORE").as_deref() == Ok("postgres") {
        Store::Postgres
    } else {
        Store::Sqlite(dir.clone())
    };
    let rt =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    println!(
        "work-queue enqueue → claim → ack: {runs} runs of up to {cycles} jobs (or {}s) each, \
         {batch} per cycle, by 1 and by 4 workers; {}; load {}",
        limit.as_secs(),
        match store {
            Store::Sqlite(_) => format!("SQLite under {}", dir.display()),
            Store::Postgres => "PostgreSQL, two nodes".to_owned(),
        },
        loadavg(),
    );
    println!();
    println!(
        "| run | workers | jobs | wall (s) | jobs/s | median (ms) | p99 (ms) | max (ms) | empty claims | load |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    // Per worker count: (jobs/s, p99 ms) of each run.
    let mut summary: [Vec<(f64, f64)>; 2] = [Vec::new(), Vec::new()];
    for r in 0..runs {
        for (k, workers) in [1, 4].into_iter().enumerate() {
            let run = rt.block_on(run(workers, cycles, batch, limit, &store));
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
