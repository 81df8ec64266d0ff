//! What accord-plant adds to a call: one jsonrpsee server, its handlers unchanged, served on
//! 127.0.0.1:0 three ways and called by jsonrpsee's own HTTP client:
//!
//! - `plain`: the bare jsonrpsee server, no accord-plant;
//! - `plant`: what docs/plant.md's five lines install (and both example plants run): the HTTP
//!   layer `PlantLayer` (credential, body, envelope and params, which hands a plainly written
//!   single call on as it was sent) and the RPC middleware `PlantRpcLayer` (which then checks
//!   the result);
//! - `rpc-only`: the RPC middleware alone (`set_rpc_middleware`), which then checks params and
//!   result itself.
//!
//! The contract is `fixtures/bench/plant-bench.types.json`: `bench.status` (small params: one
//! pump name) and `bench.ingest` (about 10 KB of params: a batch of sensor readings).
//!
//! The machine this runs on is shared and noisy, so the three are interleaved: each round runs
//! `CALLS` sequential calls on each server in turn (the order reversed every other round), and
//! keeps the median call of each; the figure is the median over rounds of the per-round ratio
//! to `plain`, with its quartiles. divan times one function at a time and cannot interleave, so
//! this is a `harness = false` main that prints a table.
//!
//! Then the group of `middleware/ethereum.rs`: the Ethereum execution API contract on the spec's
//! recorded blocks, receipts and logs (`-- ethereum` runs that group alone).
//!
//! `cargo bench -p accord-plant --bench middleware` (`ACCORD_BENCH_ROUNDS`, default 100, and
//! `ACCORD_BENCH_CALLS`, default 200, to change the size); figures in docs/benchmarks.md.
//!
//! A second group, `counting` (`ACCORD_BENCH_GROUP=counting` runs it alone), times the `plant`
//! side with and without usage counting (docs/usage.md: `Config::metrics_path`) on the small
//! call and on the small call with an enum param (`bench.mode`, whose value is counted),
//! interleaved the same way: what counting adds to a call.

use std::sync::Arc;
use std::time::{Duration, Instant};

use accord_plant::http::PlantLayer;
use accord_plant::jsonrpsee::PlantRpcLayer;
use accord_plant::{Access, Config, Plant, Route};
use jsonrpsee::RpcModule;
use jsonrpsee::server::middleware::rpc::RpcServiceBuilder;
use jsonrpsee::server::{Server, ServerHandle};
use jsonrpsee::types::{ErrorObjectOwned, Params};
use jsonrpsee_core::client::{ClientT, Error as ClientError};
use jsonrpsee_core::params::ObjectParams;
use jsonrpsee_http_client::HttpClient;
use serde::Deserialize;
use serde_json::{Value, json};

#[path = "middleware/ethereum.rs"]
mod ethereum;

const CONTRACT: &str = include_str!("../../../fixtures/bench/plant-bench.types.json");

/// How the server is put together.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    Plain,
    Plant,
    RpcOnly,
}

const SIDES: [Side; 3] = [Side::Plain, Side::Plant, Side::RpcOnly];

impl Side {
    fn name(self) -> &'static str {
        match self {
            Side::Plain => "plain",
            Side::Plant => "plant",
            Side::RpcOnly => "rpc-only",
        }
    }
}

#[derive(Deserialize)]
struct Reading {
    value: f64,
}

#[derive(Deserialize)]
struct Mode {
    pump: String,
    mode: String,
}

#[derive(Deserialize)]
struct Ingest {
    readings: Vec<Reading>,
}

#[derive(Deserialize)]
struct Status {
    pump: String,
}

fn invalid(e: &impl std::fmt::Display) -> ErrorObjectOwned {
    ErrorObjectOwned::owned(-32602, "invalid params", Some(e.to_string()))
}

/// The plant's handlers, the same on every side: they read their params into their own
/// types, as a plant's handlers do.
fn module() -> RpcModule<()> {
    let mut module = RpcModule::new(());
    module
        .register_method("bench.status", |params: Params<'_>, _, _| {
            let status: Status = params.parse().map_err(|e| invalid(&e))?;
            Ok::<Value, ErrorObjectOwned>(
                json!({"pump": status.pump, "running": true, "speed": 1480.5}),
            )
        })
        .unwrap();
    module
        .register_method("bench.mode", |params: Params<'_>, _, _| {
            let mode: Mode = params.parse().map_err(|e| invalid(&e))?;
            Ok::<bool, ErrorObjectOwned>(!mode.pump.is_empty() && !mode.mode.is_empty())
        })
        .unwrap();
    module
        .register_method("bench.ingest", |params: Params<'_>, _, _| {
            let ingest: Ingest = params.parse().map_err(|e| invalid(&e))?;
            let n = ingest.readings.len();
            let sum: f64 = ingest.readings.iter().map(|r| r.value).sum();
            Ok::<Value, ErrorObjectOwned>(json!({"accepted": n, "mean": sum / n.max(1) as f64}))
        })
        .unwrap();
    module
}

/// One server of `side` on a free loopback port: its URL and handle.
async fn start(side: Side, plant: &Arc<Plant>) -> (String, ServerHandle) {
    serve(side, plant, module).await
}

/// One server of `side` with the handlers `module` makes, on a free loopback port (each group
/// of this bench has its own handlers).
async fn serve(
    side: Side,
    plant: &Arc<Plant>,
    module: impl Fn() -> RpcModule<()>,
) -> (String, ServerHandle) {
    let addr = "127.0.0.1:0";
    let (bound, handle) = match side {
        Side::Plain => {
            let server = Server::builder().build(addr).await.unwrap();
            (server.local_addr().unwrap(), server.start(module()))
        }
        Side::Plant => {
            let server = Server::builder()
                .set_http_middleware(
                    tower::ServiceBuilder::new().layer(PlantLayer::new(plant.clone())),
                )
                .set_rpc_middleware(
                    RpcServiceBuilder::new().layer(PlantRpcLayer::new(plant.clone())),
                )
                .build(addr)
                .await
                .unwrap();
            (server.local_addr().unwrap(), server.start(module()))
        }
        Side::RpcOnly => {
            let server = Server::builder()
                .set_rpc_middleware(
                    RpcServiceBuilder::new().layer(PlantRpcLayer::new(plant.clone())),
                )
                .build(addr)
                .await
                .unwrap();
            (server.local_addr().unwrap(), server.start(module()))
        }
    };
    (format!("http://{bound}/"), handle)
}

fn object(value: &Value) -> ObjectParams {
    let mut params = ObjectParams::new();
    for (name, member) in value.as_object().unwrap() {
        params.insert(name, member).unwrap();
    }
    params
}

/// `bench.ingest`'s params: readings until the params are at least 10 KiB serialized.
fn ten_kb() -> Value {
    let mut readings = Vec::new();
    let quality = ["good", "uncertain", "bad"];
    loop {
        let i = readings.len();
        readings.push(json!({
            "sensor": format!("PT-{}", 100 + i % 40),
            "at": format!("2026-12-03T14:{:02}:{:02}.{:03}Z", i / 60 % 60, i % 60, (i * 37) % 1000),
            "value": ((i as f64) * 7.3) % 900.0 - 100.0,
            "quality": quality[i % 3],
        }));
        let params =
            json!({"batch": "9b2f6c1e-4d3a-4e8b-a1f0-5c7d9e2b4a68", "readings": readings.clone()});
        if params.to_string().len() >= 10 * 1024 {
            return params;
        }
    }
}

/// The median of `CALLS` sequential calls of `method`.
async fn round(client: &HttpClient, method: &str, params: &Value, calls: usize) -> Duration {
    let mut times = Vec::with_capacity(calls);
    for _ in 0..calls {
        let started = Instant::now();
        let answer: Value = client.request(method, object(params)).await.unwrap();
        times.push(started.elapsed());
        std::hint::black_box(answer);
    }
    times.sort_unstable();
    times[times.len() / 2]
}

/// The pieces of the check, timed alone: the HTTP layer's short path (the envelope read in
/// place and the params checked as bytes), its strict read of the whole body (what a body the
/// short path does not take gets), a plain `serde_json` parse of the params (what the RPC
/// middleware does first on a WebSocket), the params check on that value, and the result
/// check on a value and on the bytes jsonrpsee serialized.
fn in_process(
    plant: &Plant,
    method: &str,
    params: &Value,
    rounds: usize,
    calls: usize,
) -> [f64; 6] {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).to_string();
    let text = params.to_string();
    let result = match method {
        "bench.status" => json!({"pump": "P-101", "running": true, "speed": 1480.5}),
        _ => json!({"accepted": 116, "mean": 312.5}),
    };
    let per_call = |f: &mut dyn FnMut()| {
        let mut batches: Vec<f64> = (0..rounds.max(1))
            .map(|_| {
                let started = Instant::now();
                for _ in 0..calls {
                    f();
                }
                started.elapsed().as_secs_f64() * 1e6 / calls as f64
            })
            .collect();
        batches.sort_by(f64::total_cmp);
        batches[batches.len() / 2]
    };
    let short = per_call(&mut || {
        std::hint::black_box(plant.pass_through(body.as_bytes(), Access::Full).unwrap());
    });
    let read = per_call(&mut || {
        std::hint::black_box(
            accord_wire::Incoming::parse_with_batch_limit(body.as_bytes(), 1).unwrap(),
        );
    });
    let parse = per_call(&mut || {
        std::hint::black_box(serde_json::from_str::<Value>(&text).unwrap());
    });
    let check = per_call(&mut || {
        let route = plant.route(method, Some(params), Access::Full);
        assert!(matches!(route, Route::Contract(_)));
        std::hint::black_box(route);
    });
    let Route::Contract(call) = plant.route(method, Some(params), Access::Full) else {
        unreachable!("checked above")
    };
    let result_text = result.to_string();
    let outcome = Ok(result);
    let judge = per_call(&mut || {
        assert!(plant.judge(call, &outcome).is_none());
    });
    let judge_bytes = per_call(&mut || {
        assert!(plant.judge_result_bytes(call, result_text.as_bytes()).is_none());
    });
    [short, read, parse, check, judge, judge_bytes]
}

fn quartiles(mut values: Vec<f64>) -> [f64; 3] {
    values.sort_by(f64::total_cmp);
    let at = |q: f64| {
        let x = q * (values.len() - 1) as f64;
        let (lo, hi) = (x.floor() as usize, x.ceil() as usize);
        values[lo] + (values[hi] - values[lo]) * (x - lo as f64)
    };
    [at(0.25), at(0.5), at(0.75)]
}

fn env(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

/// The `counting` group: the `plant` side without and with usage counting, on the small call,
/// interleaved round by round (the order reversed every other round).
async fn counting(rounds: usize, calls: usize, warmup: usize) {
    let plant = |metrics: Option<&str>| {
        let mut config = Config::default();
        config.metrics_path = metrics.map(str::to_owned);
        Arc::new(Plant::from_contract("plant-bench.types.json", CONTRACT, config).unwrap())
    };
    let counted = plant(Some("/metrics"));
    let plants = [("without counting", plant(None)), ("with counting", counted.clone())];
    let mut servers = Vec::new();
    for (_, plant) in &plants {
        let (url, handle) = start(Side::Plant, plant).await;
        servers.push((HttpClient::builder().build(&url).unwrap(), handle));
    }
    // The small call, and the small call with an enum param (whose params counting parses and
    // walks to count the value).
    let small = json!({"pump": "P-101"});
    let with_enum = json!({"pump": "P-101", "mode": "manual"});
    let calls_timed = [("bench.status", &small), ("bench.mode", &with_enum)];
    let mut medians = vec![vec![Vec::new(); plants.len()]; calls_timed.len()];
    for r in 0..warmup + rounds {
        let order: Vec<usize> = if r % 2 == 0 { vec![0, 1] } else { vec![1, 0] };
        for (m, (method, params)) in calls_timed.iter().enumerate() {
            for &s in &order {
                let median = round(&servers[s].0, method, params, calls).await;
                if r >= warmup {
                    medians[m][s].push(median.as_secs_f64() * 1e6);
                }
            }
        }
    }
    for (m, (method, _)) in calls_timed.iter().enumerate() {
        let medians = &medians[m];
        println!();
        println!(
            "Usage counting, `plant` side, `{method}` ({rounds} rounds x {calls} calls; load {}):",
            loadavg()
        );
        println!();
        println!(
            "| side | median call (µs), Q1–Q3 over rounds | ratio to without counting, median [Q1, Q3] of per-round ratios | added (µs), median of per-round differences |"
        );
        println!("| --- | --- | --- | --- |");
        for (s, (name, _)) in plants.iter().enumerate() {
            let [q1, median, q3] = quartiles(medians[s].clone());
            let ratios: Vec<f64> = medians[s].iter().zip(&medians[0]).map(|(x, p)| x / p).collect();
            let [r1, ratio, r3] = quartiles(ratios);
            let added: Vec<f64> = medians[s].iter().zip(&medians[0]).map(|(x, p)| x - p).collect();
            let [_, added, _] = quartiles(added);
            println!(
                "| {name} | {median:.1} ({q1:.1}–{q3:.1}) | {ratio:.3} [{r1:.3}, {r3:.3}] | {added:+.1} |"
            );
        }
    }
    // The counter that counted them: every call of every round reached it.
    let text = counted.metrics().unwrap();
    for prefix in [
        "accord_calls_total{namespace=\"bench\",method=\"status\"",
        "accord_enum_values_total{namespace=\"bench\",method=\"mode\",member=\"params.mode\",value=\"manual\"",
    ] {
        let line = text.lines().find(|l| l.starts_with(prefix)).unwrap();
        println!();
        println!("counted: {line}");
    }
    for (_, handle) in servers {
        handle.stop().unwrap();
    }
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` runs this with no flag: one quick
    // round there, so the bench is checked without being timed.
    let quick = !std::env::args().any(|a| a == "--bench");
    let rounds = if quick { 1 } else { env("ACCORD_BENCH_ROUNDS", 100) };
    let calls = if quick { 3 } else { env("ACCORD_BENCH_CALLS", 200) };
    let warmup = if quick { 0 } else { 3 };
    let rt =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let group = std::env::var("ACCORD_BENCH_GROUP").unwrap_or_default();
    if group.is_empty() || group == "counting" {
        rt.block_on(counting(rounds, calls, warmup));
    }
    if group == "counting" {
        return;
    }
    rt.block_on(async {
        // `-- ethereum`: that group alone.
        if std::env::args().any(|a| a == "ethereum") {
            ethereum::run(rounds, calls, warmup).await;
            return;
        }
        let plant = Arc::new(
            Plant::from_contract("plant-bench.types.json", CONTRACT, Config::default()).unwrap(),
        );
        let mut servers = Vec::new();
        for side in SIDES {
            let (url, handle) = start(side, &plant).await;
            let client = HttpClient::builder().build(&url).unwrap();
            servers.push((side, client, handle));
        }
        let small = json!({"pump": "P-101"});
        let large = ten_kb();
        let methods = [("bench.status", &small), ("bench.ingest", &large)];

        // Every side answers the same, and the plant sides do enforce the contract.
        for (side, client, _) in &servers {
            for (method, params) in methods {
                let _: Value = client.request(method, object(params)).await.unwrap();
            }
            let broken = client.request::<Value, _>("bench.status", object(&json!({"pump": "x"})));
            match (side, broken.await) {
                (Side::Plain, Ok(_)) => {}
                (Side::Plant | Side::RpcOnly, Err(ClientError::Call(e))) if e.code() == -32602 => {}
                (side, other) => panic!("{side:?} answered a broken pump name with {other:?}"),
            }
        }

        println!(
            "accord-plant middleware: {rounds} rounds x {calls} calls per side and method; \
             bench.status params {} B, bench.ingest params {} B ({} readings); load {}",
            small.to_string().len(),
            large.to_string().len(),
            large["readings"].as_array().unwrap().len(),
            loadavg(),
        );
        // medians[method][side]: the per-round median call.
        let mut medians = vec![vec![Vec::new(); SIDES.len()]; methods.len()];
        for r in 0..warmup + rounds {
            for (m, (method, params)) in methods.iter().enumerate() {
                let order: Vec<usize> =
                    if r % 2 == 0 { (0..SIDES.len()).collect() } else { (0..SIDES.len()).rev().collect() };
                for s in order {
                    let median = round(&servers[s].1, method, params, calls).await;
                    if r >= warmup {
                        medians[m][s].push(median.as_secs_f64() * 1e6);
                    }
                }
            }
        }
        println!();
        println!("| method | side | median call (µs), Q1–Q3 over rounds | ratio to plain, median [Q1, Q3] of per-round ratios | added (µs), median of per-round differences |");
        println!("| --- | --- | --- | --- | --- |");
        for (m, (method, _)) in methods.iter().enumerate() {
            let plain = &medians[m][0];
            for (s, side) in SIDES.iter().enumerate() {
                let [q1, median, q3] = quartiles(medians[m][s].clone());
                let ratios: Vec<f64> =
                    medians[m][s].iter().zip(plain).map(|(x, p)| x / p).collect();
                let [r1, ratio, r3] = quartiles(ratios);
                let added: Vec<f64> =
                    medians[m][s].iter().zip(plain).map(|(x, p)| x - p).collect();
                let [_, added, _] = quartiles(added);
                println!(
                    "| `{method}` | {} | {median:.1} ({q1:.1}–{q3:.1}) | {ratio:.3} [{r1:.3}, {r3:.3}] | {added:+.1} |",
                    side.name(),
                );
            }
        }
        println!();
        println!("In process, no transport (median of {rounds} batches of {calls}, µs per call):");
        println!();
        println!("| method | short path: envelope in place + params as bytes (`Plant::pass_through`) | strict envelope read (body bytes → model) | params JSON → Value | params check on the value (`Plant::route`) | result check on a value (`Plant::judge`) | result check on bytes (`Plant::judge_result_bytes`) |");
        println!("| --- | --- | --- | --- | --- | --- | --- |");
        for (method, params) in methods {
            let [short, read, parse, check, judge, judge_bytes] =
                in_process(&plant, method, params, rounds, calls);
            println!("| `{method}` | {short:.2} | {read:.2} | {parse:.2} | {check:.2} | {judge:.2} | {judge_bytes:.2} |");
        }
        println!();
        println!("violations counted by the plant: {}; load {}", plant.violations(), loadavg());
        for (_, _, handle) in servers {
            handle.stop().unwrap();
        }
        ethereum::run(rounds, calls, warmup).await;
    });
}
