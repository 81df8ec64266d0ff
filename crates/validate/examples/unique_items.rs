//! A `uniqueItems` workload for the bytes path, which no corpus of the benchmarks has: arrays of
//! distinct items (so every item is compared, and the array is valid) checked by
//! `is_valid_bytes` a given number of times. Its instruction count under cachegrind is the
//! figure docs/benchmarks.md gives:
//!
//! ```sh
//! cargo build --release -p accord-validate --example unique_items
//! valgrind --tool=cachegrind --cache-sim=no target/release/examples/unique_items numbers 1
//! valgrind --tool=cachegrind --cache-sim=no target/release/examples/unique_items numbers 11
//! ```
//!
//! (the difference divided by 10 is one run, without the set-up). Without valgrind it prints the
//! time per run. Workloads: `numbers` (2,000 integers and 2,000 decimals), `strings` (2,000
//! strings, a third with escapes, a third non-ASCII), `objects` (500 objects of three members).

use std::hint::black_box;
use std::time::Instant;

use accord_schema_model::Document;
use accord_validate::{Contract, Target};
use serde_json::json;

fn items(workload: &str) -> Vec<String> {
    match workload {
        "numbers" => (0..2_000).flat_map(|i| [format!("{i}"), format!("{i}.5")]).collect(),
        "strings" => (0..2_000)
            .map(|i| match i % 3 {
                0 => format!(r#""tag-{i}""#),
                1 => format!(r#""caf\u00e9 {i}""#),
                _ => format!(r#""été {i}""#),
            })
            .collect(),
        "objects" => (0..500)
            .map(|i| format!(r#"{{"id": {i}, "name": "n{i}", "on": {}}}"#, i % 2 == 0))
            .collect(),
        other => panic!("no workload `{other}`: numbers, strings or objects"),
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let workload = args.next().unwrap_or_else(|| "numbers".to_owned());
    let runs: usize = args.next().map_or(1_000, |n| n.parse().expect("a number of runs"));
    let doc = json!({"schema": 1, "namespaces": {"t": {"version": "1.0.0", "types": {
        "Set": {"kind": "array", "items": {"kind": "any"}, "uniqueItems": true},
    }}}});
    let contract = Contract::compile(&Document::from_value(doc).expect("reads")).expect("compiles");
    let target = Target::Type { namespace: "t".into(), name: "Set".into() };
    let validator = contract.validator(&target).expect("target");
    let bytes = format!("[{}]", items(&workload).join(",")).into_bytes();
    let start = Instant::now();
    for _ in 0..runs {
        assert!(validator.is_valid_bytes(black_box(&bytes)));
    }
    let per_run = start.elapsed() / u32::try_from(runs.max(1)).unwrap_or(u32::MAX);
    println!("{workload}: {} bytes, {per_run:?} per run", bytes.len());
}
