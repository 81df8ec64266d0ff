//! Validation speed against the peers of brief §5, in one run of one build.
//!
//! Workloads: the standard corpora of `../shared/bench-data/` (twitter, citm_catalog, canada;
//! minified) with their accord contracts in `fixtures/bench/` and the equivalent JSON Schemas,
//! and 100,000 plant telemetry messages of 200 B to 2 KB as JSON Lines, each line validated on
//! its own. Before anything is timed, every workload is checked to be valid under both
//! validators, and its broken variant invalid under both.
//!
//! - `bytes_to_verdict`: accord's `is_valid_bytes`; sonic-rs skimming the same bytes
//!   (`from_slice::<IgnoredAny>`, the floor); serde_json `from_slice::<Value>` then jsonschema's
//!   `is_valid` (the end-to-end peer).
//! - `parsed_value`: accord's `is_valid` and jsonschema's `is_valid` on the same parsed `Value`.
//! - `invalid`: the broken variants: accord's `validate` and jsonschema's
//!   `iter_errors(..).count()` on the `Value`, and accord's `validate_bytes` on the bytes.
//! - `jsonl_100k`: all of the above over the 100,000 messages.
//! - `compile`: `Contract::compile` of a generated 1,000-type contract and of the imported
//!   Ethereum execution APIs.
//!
//! Throughput is counted in bytes of the JSON text in every case, the value paths included, so
//! the rows compare directly. Allocations are counted by the `validate_alloc` bench.
//! See docs/benchmarks.md (`## validate`) for the numbers and how to read them.
//!
//! Run: `cargo bench -p accord-validate --bench validate`

use std::sync::OnceLock;

use accord_schema_model::Document;
use accord_validate::Contract;
use divan::{Bencher, black_box, counter::BytesCount};
use serde::de::IgnoredAny;
use serde_json::Value;

#[path = "common/mod.rs"]
mod common;

use common::{CORPORA, corpus, jsonl};

fn main() {
    common::check_workloads();
    let doc = contract_1000();
    let types: usize = doc
        .namespaces
        .iter()
        .flatten()
        .map(|(_, ns)| ns.types.as_ref().map_or(0, |t| t.len()))
        .sum();
    eprintln!("compile: a generated contract of {types} named types");
    divan::main();
}

fn contract_1000() -> &'static Document {
    static DOC: OnceLock<Document> = OnceLock::new();
    DOC.get_or_init(common::contract_1000)
}

/// Bytes in, verdict out, on the standard corpora.
mod bytes_to_verdict {
    use super::*;

    #[divan::bench(args = CORPORA, sample_count = 60)]
    fn accord_is_valid_bytes(bencher: Bencher, name: &str) {
        let c = corpus(name);
        bencher
            .counter(BytesCount::new(c.bytes.len()))
            .bench(|| assert!(c.accord.is_valid_bytes(black_box(&c.bytes))));
    }

    #[divan::bench(args = CORPORA, sample_count = 60)]
    fn sonic_rs_skim(bencher: Bencher, name: &str) {
        let c = corpus(name);
        bencher
            .counter(BytesCount::new(c.bytes.len()))
            .bench(|| sonic_rs::from_slice::<IgnoredAny>(black_box(&c.bytes)).expect("valid JSON"));
    }

    #[divan::bench(args = CORPORA, sample_count = 30)]
    fn serde_json_then_jsonschema(bencher: Bencher, name: &str) {
        let c = corpus(name);
        bencher.counter(BytesCount::new(c.bytes.len())).bench(|| {
            let value: Value = serde_json::from_slice(black_box(&c.bytes)).expect("valid JSON");
            assert!(c.schema.is_valid(&value));
        });
    }
}

/// On an already parsed `Value`.
mod parsed_value {
    use super::*;

    #[divan::bench(args = CORPORA, sample_count = 60)]
    fn accord_is_valid(bencher: Bencher, name: &str) {
        let c = corpus(name);
        bencher
            .counter(BytesCount::new(c.bytes.len()))
            .bench(|| assert!(c.accord.is_valid(black_box(&c.value))));
    }

    #[divan::bench(args = CORPORA, sample_count = 60)]
    fn jsonschema_is_valid(bencher: Bencher, name: &str) {
        let c = corpus(name);
        bencher
            .counter(BytesCount::new(c.bytes.len()))
            .bench(|| assert!(c.schema.is_valid(black_box(&c.value))));
    }
}

/// The broken variants: every error, as each validator reports them.
mod invalid {
    use super::*;

    #[divan::bench(args = CORPORA, sample_count = 60)]
    fn accord_validate(bencher: Bencher, name: &str) {
        let c = corpus(name);
        bencher
            .counter(BytesCount::new(c.invalid_bytes.len()))
            .bench(|| c.accord.validate(black_box(&c.invalid_value)).expect_err("invalid").len());
    }

    #[divan::bench(args = CORPORA, sample_count = 60)]
    fn accord_validate_bytes(bencher: Bencher, name: &str) {
        let c = corpus(name);
        bencher.counter(BytesCount::new(c.invalid_bytes.len())).bench(|| {
            c.accord.validate_bytes(black_box(&c.invalid_bytes)).expect_err("invalid").len()
        });
    }

    #[divan::bench(args = CORPORA, sample_count = 60)]
    fn jsonschema_iter_errors(bencher: Bencher, name: &str) {
        let c = corpus(name);
        bencher.counter(BytesCount::new(c.invalid_bytes.len())).bench(|| {
            let n = c.schema.iter_errors(black_box(&c.invalid_value)).count();
            assert!(n > 0);
            n
        });
    }
}

/// 100,000 telemetry messages, one JSON text per line, each validated on its own. One iteration
/// is the whole stream.
mod jsonl_100k {
    use super::*;

    fn bytes() -> BytesCount {
        BytesCount::new(jsonl().lines.iter().map(|(a, b)| b - a).sum::<usize>())
    }

    fn invalid_bytes() -> BytesCount {
        BytesCount::new(jsonl().invalid_lines.iter().map(|(a, b)| b - a).sum::<usize>())
    }

    #[divan::bench(sample_count = 12, sample_size = 1)]
    fn accord_is_valid_bytes(bencher: Bencher) {
        let j = jsonl();
        bencher.counter(bytes()).bench(|| {
            for &line in &j.lines {
                assert!(j.accord.is_valid_bytes(black_box(j.line(line))));
            }
        });
    }

    #[divan::bench(sample_count = 12, sample_size = 1)]
    fn sonic_rs_skim(bencher: Bencher) {
        let j = jsonl();
        bencher.counter(bytes()).bench(|| {
            for &line in &j.lines {
                sonic_rs::from_slice::<IgnoredAny>(black_box(j.line(line))).expect("valid JSON");
            }
        });
    }

    #[divan::bench(sample_count = 12, sample_size = 1)]
    fn serde_json_then_jsonschema(bencher: Bencher) {
        let j = jsonl();
        bencher.counter(bytes()).bench(|| {
            for &line in &j.lines {
                let value: Value =
                    serde_json::from_slice(black_box(j.line(line))).expect("valid JSON");
                assert!(j.schema.is_valid(&value));
            }
        });
    }

    #[divan::bench(sample_count = 12, sample_size = 1)]
    fn accord_is_valid(bencher: Bencher) {
        let j = jsonl();
        bencher.counter(bytes()).bench(|| {
            for value in &j.values {
                assert!(j.accord.is_valid(black_box(value)));
            }
        });
    }

    #[divan::bench(sample_count = 12, sample_size = 1)]
    fn jsonschema_is_valid(bencher: Bencher) {
        let j = jsonl();
        bencher.counter(bytes()).bench(|| {
            for value in &j.values {
                assert!(j.schema.is_valid(black_box(value)));
            }
        });
    }

    #[divan::bench(sample_count = 12, sample_size = 1)]
    fn invalid_accord_validate(bencher: Bencher) {
        let j = jsonl();
        bencher.counter(invalid_bytes()).bench(|| {
            for value in &j.invalid_values {
                black_box(j.accord.validate(black_box(value)).expect_err("invalid"));
            }
        });
    }

    #[divan::bench(sample_count = 12, sample_size = 1)]
    fn invalid_accord_validate_bytes(bencher: Bencher) {
        let j = jsonl();
        bencher.counter(invalid_bytes()).bench(|| {
            for &line in &j.invalid_lines {
                black_box(
                    j.accord.validate_bytes(black_box(j.invalid_line(line))).expect_err("invalid"),
                );
            }
        });
    }

    #[divan::bench(sample_count = 12, sample_size = 1)]
    fn invalid_jsonschema_iter_errors(bencher: Bencher) {
        let j = jsonl();
        bencher.counter(invalid_bytes()).bench(|| {
            for value in &j.invalid_values {
                assert!(j.schema.iter_errors(black_box(value)).count() > 0);
            }
        });
    }
}

/// Compiling a generated contract of 1,000 named types (the document already read).
mod compile {
    use super::*;

    #[divan::bench(sample_count = 60)]
    fn contract_1000_types(bencher: Bencher) {
        let doc = contract_1000();
        bencher.bench(|| Contract::compile(black_box(doc)).expect("compiles"));
    }

    /// The Ethereum execution APIs as `accord import` writes them (2.1 MB: 86 methods, 124
    /// types, hex patterns on most strings), the document already read.
    #[divan::bench(sample_count = 30)]
    fn ethereum_execution_apis(bencher: Bencher) {
        static DOC: OnceLock<Document> = OnceLock::new();
        let doc = DOC.get_or_init(|| {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../fixtures/import/execution-apis/expected.types.json");
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            Document::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        });
        bencher.bench(|| Contract::compile(black_box(doc)).expect("compiles"));
    }
}
