//! The middleware's cost on real payloads: the Ethereum execution API contract (imported by
//! accord from the spec, `fixtures/import/execution-apis/expected.types.json`) served by one
//! jsonrpsee server, bare (`plain`) and with what docs/plant.md installs (`plant`: the HTTP
//! layer and the RPC middleware, which checks every result on the bytes path), answering with
//! the spec's own recorded answers (`fixtures/import/execution-apis/source/tests`, recorded
//! from a real node, CC0 1.0):
//!
//! - `eth_getBlockReceipts`: the receipt list of `get-block-receipts-latest.io` as recorded
//!   (four receipts with their logs, 9.3 KB: the 10 KB call);
//! - `eth_getLogs`: the logs of that receipt list and of `eth_getLogs/contract-addr.io`, in turn
//!   until the list is at least 10 KiB;
//! - `eth_getBlockByNumber` (hydrated): the block of `get-latest.io`, its four recorded
//!   transactions repeated in turn until the block is at least 50 KiB (a full block: the
//!   recorded chain's blocks hold four).
//!
//! The results are checked in full (release's `OnViolation::Warn`, no sampling): before timing
//! each side answers each call, and a result the contract refuses is counted by the plant,
//! which must have counted none at the end. The rounds interleave the sides as the group
//! above does (`CALLS` sequential calls of one method per side, order reversed every other
//! round, the median call kept); the figure is the median over rounds of the per-round ratio
//! `plant / plain`, with its quartiles. Its own group, so that the other groups of this bench
//! stay as they are.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use accord_plant::{Access, Config, Plant, Route};
use jsonrpsee::RpcModule;
use jsonrpsee_core::client::ClientT;
use jsonrpsee_core::params::ArrayParams;
use jsonrpsee_http_client::HttpClient;
use serde_json::Value;

/// The imported contract and the spec's recorded calls, beside it.
const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/import/execution-apis");

/// One call of the group: the method, its params as recorded, the answer the handler gives.
struct Call {
    method: &'static str,
    what: String,
    params: Vec<Value>,
    result: Arc<Value>,
}

/// The `>>` request and `<<` answer of a recorded `.io` file: (params, result).
fn recorded(file: &str) -> (Vec<Value>, Value) {
    let path = Path::new(FIXTURES).join("source/tests").join(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let line = |mark: &str| -> Value {
        let line = text
            .lines()
            .find_map(|l| l.strip_prefix(mark))
            .unwrap_or_else(|| panic!("{}: no `{mark}` line", path.display()));
        serde_json::from_str(line).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    };
    let params = line(">> ")["params"].as_array().cloned().expect("positional params");
    (params, line("<< ")["result"].clone())
}

/// `items` repeated in turn until the JSON of `wrap(list)` is at least `bytes` long.
fn grow(items: &[Value], bytes: usize, wrap: impl Fn(Vec<Value>) -> Value) -> Value {
    let mut list = Vec::new();
    loop {
        list.push(items[list.len() % items.len()].clone());
        let whole = wrap(list.clone());
        if whole.to_string().len() >= bytes {
            return whole;
        }
    }
}

fn calls() -> Vec<Call> {
    let (receipt_params, receipts) = recorded("eth_getBlockReceipts/get-block-receipts-latest.io");
    let (log_params, logs) = recorded("eth_getLogs/contract-addr.io");
    let mut all_logs: Vec<Value> = receipts
        .as_array()
        .expect("a receipt list")
        .iter()
        .flat_map(|r| r["logs"].as_array().cloned().unwrap_or_default())
        .collect();
    all_logs.extend(logs.as_array().cloned().expect("a log list"));
    let logs = grow(&all_logs, 10 * 1024, Value::Array);
    let (block_params, block) = recorded("eth_getBlockByNumber/get-latest.io");
    let transactions = block["transactions"].as_array().cloned().expect("hydrated transactions");
    let block = grow(&transactions, 50 * 1024, |txs| {
        let mut block = block.clone();
        block["transactions"] = Value::Array(txs);
        block
    });
    let size = |v: &Value| v.to_string().len();
    vec![
        Call {
            method: "eth_getBlockReceipts",
            what: format!(
                "{} receipts, {} B",
                receipts.as_array().map_or(0, Vec::len),
                size(&receipts)
            ),
            params: receipt_params,
            result: Arc::new(receipts),
        },
        Call {
            method: "eth_getLogs",
            what: format!("{} logs, {} B", logs.as_array().map_or(0, Vec::len), size(&logs)),
            params: log_params,
            result: Arc::new(logs),
        },
        Call {
            method: "eth_getBlockByNumber",
            what: format!(
                "block of {} transactions, {} B",
                block["transactions"].as_array().map_or(0, Vec::len),
                size(&block)
            ),
            params: block_params,
            result: Arc::new(block),
        },
    ]
}

/// The answer a handler gives: the recorded result, serialized by jsonrpsee on each call as a
/// node serializes its own (not cloned first).
#[derive(Clone)]
struct Answer(Arc<Value>);

impl serde::Serialize for Answer {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

fn module(calls: &[Call]) -> RpcModule<()> {
    let mut module = RpcModule::new(());
    for call in calls {
        let result = Answer(call.result.clone());
        module
            .register_method(call.method, move |_, _, _| {
                Ok::<Answer, jsonrpsee::types::ErrorObjectOwned>(result.clone())
            })
            .expect("a method registered once");
    }
    module
}

fn array(params: &[Value]) -> ArrayParams {
    let mut array = ArrayParams::new();
    for p in params {
        array.insert(p).unwrap();
    }
    array
}

/// The median of `n` sequential calls.
async fn round(client: &HttpClient, call: &Call, n: usize) -> f64 {
    let mut times = Vec::with_capacity(n);
    for _ in 0..n {
        let started = Instant::now();
        let answer: Value = client.request(call.method, array(&call.params)).await.unwrap();
        times.push(started.elapsed().as_secs_f64() * 1e6);
        std::hint::black_box(answer);
    }
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

/// The group: prints its table. `rounds`, `n` calls per round and side, after `warmup` rounds.
pub(crate) async fn run(rounds: usize, n: usize, warmup: usize) {
    let text = std::fs::read_to_string(Path::new(FIXTURES).join("expected.types.json"))
        .expect("the imported execution-apis contract");
    let plant = Arc::new(Plant::from_contract("execution-apis", &text, Config::default()).unwrap());
    let calls = calls();
    let plain = super::serve(super::Side::Plain, &plant, || module(&calls)).await;
    let checked = super::serve(super::Side::Plant, &plant, || module(&calls)).await;
    let clients = [&plain.0, &checked.0]
        .map(|url| HttpClient::builder().max_response_size(u32::MAX).build(url).unwrap());
    // Both sides answer every call the same, and the contract passes every recorded result.
    for call in &calls {
        let answers: Vec<Value> = futures_util::future::join_all(
            clients.iter().map(|c| c.request::<Value, _>(call.method, array(&call.params))),
        )
        .await
        .into_iter()
        .map(Result::unwrap)
        .collect();
        assert!(answers.iter().all(|a| a == &*call.result), "{} answered otherwise", call.method);
    }
    assert_eq!(plant.violations(), 0, "a recorded result the contract refuses");

    println!();
    println!(
        "Ethereum execution API payloads (the spec's recorded answers): {rounds} rounds x {n} calls \
         per side and method; load {}",
        super::loadavg()
    );
    let mut times = vec![[Vec::new(), Vec::new()]; calls.len()];
    for r in 0..warmup + rounds {
        for (m, call) in calls.iter().enumerate() {
            let order = if r % 2 == 0 { [0, 1] } else { [1, 0] };
            for s in order {
                let median = round(&clients[s], call, n).await;
                if r >= warmup {
                    times[m][s].push(median);
                }
            }
        }
    }
    println!();
    println!(
        "| method | result | plain median call (µs), Q1–Q3 | plant median call (µs), Q1–Q3 | plant / plain, median [Q1, Q3] of per-round ratios | added (µs), median | result check on bytes in process (µs) | target |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- |");
    for (m, call) in calls.iter().enumerate() {
        let [plain, plant_side] = &times[m];
        let [p1, p, p3] = super::quartiles(plain.clone());
        let [c1, c, c3] = super::quartiles(plant_side.clone());
        let [r1, r, r3] =
            super::quartiles(plant_side.iter().zip(plain).map(|(x, y)| x / y).collect());
        let [_, added, _] =
            super::quartiles(plant_side.iter().zip(plain).map(|(x, y)| x - y).collect());
        let check = judge_bytes(&plant, call, rounds, n);
        let verdict = if r < 1.2 { "< 1.2×: met at the median" } else { "< 1.2×: missed" };
        println!(
            "| `{}` | {} | {p:.1} ({p1:.1}–{p3:.1}) | {c:.1} ({c1:.1}–{c3:.1}) | {r:.3} [{r1:.3}, {r3:.3}] | {added:+.1} | {check:.2} | {verdict} |",
            call.method, call.what,
        );
    }
    println!();
    println!("violations counted by the plant: {}; load {}", plant.violations(), super::loadavg());
    assert_eq!(plant.violations(), 0, "a recorded result the contract refuses");
    for (_, handle) in [plain, checked] {
        handle.stop().unwrap();
    }
}

/// The result check alone, in process: what the RPC middleware does to the serialized answer
/// (`Plant::judge_result_bytes`), median of `rounds` batches of `n`, µs per call.
fn judge_bytes(plant: &Plant, call: &Call, rounds: usize, n: usize) -> f64 {
    let params = Value::Array(call.params.clone());
    let Route::Contract(routed) = plant.route(call.method, Some(&params), Access::Full) else {
        panic!("{} is not a contract call with its recorded params", call.method)
    };
    let bytes = call.result.to_string();
    let mut batches: Vec<f64> = (0..rounds.max(1))
        .map(|_| {
            let started = Instant::now();
            for _ in 0..n {
                assert!(plant.judge_result_bytes(routed, bytes.as_bytes()).is_none());
            }
            started.elapsed().as_secs_f64() * 1e6 / n as f64
        })
        .collect();
    batches.sort_by(f64::total_cmp);
    batches[batches.len() / 2]
}
