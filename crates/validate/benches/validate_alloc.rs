//! Allocations per message on accord's bytes path (brief: none after compilation), counted by a
//! counting global allocator, with the peers' counts beside them for scale.
//!
//! Same workloads as the `validate` bench (the checks that they mean the same to accord and
//! jsonschema run first here too). Each path is run once to warm up (regex caches are filled per
//! thread on first use) and then counted over every document or message. A separate binary, so
//! that counting never slows the timed runs.
//!
//! Run: `cargo bench -p accord-validate --bench validate_alloc`

use std::alloc::System;
use std::hint::black_box;

use serde::de::IgnoredAny;
use serde_json::Value;
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};

#[path = "common/mod.rs"]
mod common;

use common::{CORPORA, MESSAGES, corpus, jsonl};

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// Allocations and bytes allocated by `run` (after one warm-up call), divided by `per`.
fn count(per: usize, mut run: impl FnMut()) -> (f64, f64) {
    run();
    let region = Region::new(GLOBAL);
    run();
    let change = region.change();
    (change.allocations as f64 / per as f64, change.bytes_allocated as f64 / per as f64)
}

fn row(workload: &str, path: &str, (allocs, bytes): (f64, f64)) {
    println!("| {workload} | {path} | {allocs:.2} | {bytes:.0} |");
}

fn main() {
    common::check_workloads();
    println!();
    println!("| workload | path | allocations per message | bytes allocated per message |");
    println!("| --- | --- | ---: | ---: |");
    for name in CORPORA {
        let c = corpus(name);
        row(
            name,
            "accord `is_valid_bytes` (valid)",
            count(1, || assert!(c.accord.is_valid_bytes(&c.bytes))),
        );
        row(
            name,
            "accord `validate_bytes` (valid)",
            count(1, || assert!(c.accord.validate_bytes(&c.bytes).is_ok())),
        );
        row(
            name,
            "accord `is_valid` on a `Value` (valid)",
            count(1, || assert!(c.accord.is_valid(&c.value))),
        );
        row(
            name,
            "sonic-rs skim (`IgnoredAny`)",
            count(1, || {
                black_box(sonic_rs::from_slice::<IgnoredAny>(&c.bytes).expect("JSON"));
            }),
        );
        row(
            name,
            "serde_json `Value` + jsonschema `is_valid`",
            count(1, || {
                let value: Value = serde_json::from_slice(&c.bytes).expect("JSON");
                assert!(c.schema.is_valid(&value));
            }),
        );
        row(
            name,
            "jsonschema `is_valid` on a `Value` (valid)",
            count(1, || assert!(c.schema.is_valid(&c.value))),
        );
        row(
            name,
            "accord `validate_bytes` (broken)",
            count(1, || assert!(c.accord.validate_bytes(&c.invalid_bytes).is_err())),
        );
        row(
            name,
            "accord `validate` (broken)",
            count(1, || assert!(c.accord.validate(&c.invalid_value).is_err())),
        );
        row(
            name,
            "jsonschema `iter_errors` (broken)",
            count(1, || assert!(c.schema.iter_errors(&c.invalid_value).count() > 0)),
        );
    }
    let j = jsonl();
    let w = "plant JSON Lines";
    row(
        w,
        "accord `is_valid_bytes` (valid)",
        count(MESSAGES, || {
            for &line in &j.lines {
                assert!(j.accord.is_valid_bytes(j.line(line)));
            }
        }),
    );
    row(
        w,
        "accord `validate_bytes` (valid)",
        count(MESSAGES, || {
            for &line in &j.lines {
                assert!(j.accord.validate_bytes(j.line(line)).is_ok());
            }
        }),
    );
    row(
        w,
        "accord `is_valid` on a `Value` (valid)",
        count(MESSAGES, || {
            for value in &j.values {
                assert!(j.accord.is_valid(value));
            }
        }),
    );
    row(
        w,
        "sonic-rs skim (`IgnoredAny`)",
        count(MESSAGES, || {
            for &line in &j.lines {
                black_box(sonic_rs::from_slice::<IgnoredAny>(j.line(line)).expect("JSON"));
            }
        }),
    );
    row(
        w,
        "serde_json `Value` + jsonschema `is_valid`",
        count(MESSAGES, || {
            for &line in &j.lines {
                let value: Value = serde_json::from_slice(j.line(line)).expect("JSON");
                assert!(j.schema.is_valid(&value));
            }
        }),
    );
    row(
        w,
        "jsonschema `is_valid` on a `Value` (valid)",
        count(MESSAGES, || {
            for value in &j.values {
                assert!(j.schema.is_valid(value));
            }
        }),
    );
    row(
        w,
        "accord `validate_bytes` (broken)",
        count(MESSAGES, || {
            for &line in &j.invalid_lines {
                assert!(j.accord.validate_bytes(j.invalid_line(line)).is_err());
            }
        }),
    );
    row(
        w,
        "accord `validate` (broken)",
        count(MESSAGES, || {
            for value in &j.invalid_values {
                assert!(j.accord.validate(value).is_err());
            }
        }),
    );
    row(
        w,
        "jsonschema `iter_errors` (broken)",
        count(MESSAGES, || {
            for value in &j.invalid_values {
                assert!(j.schema.iter_errors(value).count() > 0);
            }
        }),
    );

    // How the allocations spread over the valid messages.
    let mut allocating = 0;
    let (mut fewest, mut most) = (usize::MAX, 0);
    for &line in &j.lines {
        let region = Region::new(GLOBAL);
        assert!(j.accord.is_valid_bytes(j.line(line)));
        let n = region.change().allocations;
        allocating += usize::from(n > 0);
        fewest = fewest.min(n);
        most = most.max(n);
    }
    println!();
    println!(
        "plant JSON Lines, accord `is_valid_bytes`: {allocating} of {MESSAGES} valid messages allocate \
         (from {fewest} to {most} allocations in one message)"
    );
}
