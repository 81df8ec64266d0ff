//! The targets of issue 21 measured so that a shared, noisy machine cannot fake a result: each
//! comparison runs its two sides interleaved in one process (A B, then B A, … for many rounds),
//! each round timing one fixed batch of each side, and reports the median of the per-round
//! ratios with its quartiles and extremes. A load spike slows both sides of the rounds it hits
//! and moves their ratio far less than it moves either time.
//!
//! The comparisons, per workload (twitter, citm_catalog, canada, the plant JSON Lines), each a
//! ratio "how many times accord's speed" (the other side's time over accord's):
//!
//! - `skim`: accord `is_valid_bytes` against sonic-rs' skim (`from_slice::<IgnoredAny>`); target
//!   ≥ 0.6.
//! - `e2e`: accord `is_valid_bytes` against serde_json `from_slice::<Value>` then jsonschema
//!   `is_valid`; target ≥ 5.
//! - `value`: accord `is_valid` against jsonschema `is_valid` on the same parsed `Value`; target
//!   ≥ 1.5.
//!
//! A round of the plant stream is one chunk of 10,000 messages, each validated on its own (the
//! rounds go through the ten chunks in turn); a round of a corpus is a batch of whole documents,
//! sized once so that the faster side takes about 20 ms.
//!
//! Instruction counts (stable whatever the load): `--instructions` runs this binary again under
//! `valgrind --tool=cachegrind --cache-sim=no` in its `--once SIDE WORKLOAD N` mode, which sets
//! everything up and then runs one side N times over the workload (for the plant, the first
//! 10,000 messages). Each side's count is the difference between N = 1 + k and N = 1 runs,
//! divided by k: set-up (corpus load, compilation) and the first, warming run are excluded.
//!
//! Run (docs/benchmarks.md, `## validate`, says how the results read):
//!
//! ```sh
//! cargo bench -p accord-validate --bench interleaved                     # timings, all rows
//! cargo bench -p accord-validate --bench interleaved -- --rounds 61 --compare value canada
//! cargo bench -p accord-validate --bench interleaved -- --instructions   # needs valgrind
//! ```

use std::hint::black_box;
use std::process::Command;
use std::time::{Duration, Instant};

use serde::de::IgnoredAny;
use serde_json::Value;

#[path = "common/mod.rs"]
mod common;

use common::{Jsonl, corpus, jsonl, jsonl_first};

/// Messages in one round of the plant stream (and in the instruction-count run).
const CHUNK: usize = 10_000;

/// The workloads, by the names the arguments take.
const WORKLOADS: [&str; 4] = ["twitter", "citm_catalog", "canada", "plant"];

/// One side of a comparison.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Side {
    AccordBytes,
    SonicSkim,
    SerdeJsonschema,
    AccordValue,
    JsonschemaValue,
}

impl Side {
    const ALL: [Side; 5] = [
        Side::AccordBytes,
        Side::SonicSkim,
        Side::SerdeJsonschema,
        Side::AccordValue,
        Side::JsonschemaValue,
    ];

    fn name(self) -> &'static str {
        match self {
            Side::AccordBytes => "accord-bytes",
            Side::SonicSkim => "sonic-skim",
            Side::SerdeJsonschema => "serde-jsonschema",
            Side::AccordValue => "accord-value",
            Side::JsonschemaValue => "jsonschema-value",
        }
    }

    fn parse(name: &str) -> Side {
        Side::ALL
            .into_iter()
            .find(|s| s.name() == name)
            .unwrap_or_else(|| panic!("no side `{name}`: one of accord-bytes, sonic-skim, serde-jsonschema, accord-value, jsonschema-value"))
    }
}

/// A comparison: accord's side, the other side, its name and the target (the other side's time
/// over accord's).
struct Comparison {
    name: &'static str,
    accord: Side,
    other: Side,
    target: f64,
}

const COMPARISONS: [Comparison; 3] = [
    Comparison { name: "skim", accord: Side::AccordBytes, other: Side::SonicSkim, target: 0.6 },
    Comparison {
        name: "e2e",
        accord: Side::AccordBytes,
        other: Side::SerdeJsonschema,
        target: 5.0,
    },
    Comparison {
        name: "value",
        accord: Side::AccordValue,
        other: Side::JsonschemaValue,
        target: 1.5,
    },
];

/// Runs `side` once over the corpus document (`times` times).
fn run_corpus(side: Side, c: &common::Corpus, times: usize) {
    for _ in 0..times {
        match side {
            Side::AccordBytes => assert!(c.accord.is_valid_bytes(black_box(&c.bytes))),
            Side::SonicSkim => {
                black_box(sonic_rs::from_slice::<IgnoredAny>(black_box(&c.bytes)).expect("JSON"));
            }
            Side::SerdeJsonschema => {
                let value: Value = serde_json::from_slice(black_box(&c.bytes)).expect("JSON");
                assert!(c.schema.is_valid(&value));
            }
            Side::AccordValue => assert!(c.accord.is_valid(black_box(&c.value))),
            Side::JsonschemaValue => assert!(c.schema.is_valid(black_box(&c.value))),
        }
    }
}

/// Runs `side` over messages `from..to` of the stream, each on its own.
fn run_lines(side: Side, j: &Jsonl, from: usize, to: usize) {
    for i in from..to {
        let line = j.line(j.lines[i]);
        match side {
            Side::AccordBytes => assert!(j.accord.is_valid_bytes(black_box(line))),
            Side::SonicSkim => {
                black_box(sonic_rs::from_slice::<IgnoredAny>(black_box(line)).expect("JSON"));
            }
            Side::SerdeJsonschema => {
                let value: Value = serde_json::from_slice(black_box(line)).expect("JSON");
                assert!(j.schema.is_valid(&value));
            }
            Side::AccordValue => assert!(j.accord.is_valid(black_box(&j.values[i]))),
            Side::JsonschemaValue => assert!(j.schema.is_valid(black_box(&j.values[i]))),
        }
    }
}

fn time(run: impl FnOnce()) -> Duration {
    let start = Instant::now();
    run();
    start.elapsed()
}

/// The value at quantile `q` of sorted `xs` (linear between neighbours).
fn quantile(xs: &[f64], q: f64) -> f64 {
    let at = q * (xs.len() - 1) as f64;
    let (lo, hi) = (at.floor() as usize, at.ceil() as usize);
    xs[lo] + (xs[hi] - xs[lo]) * (at - lo as f64)
}

fn median_ms(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    quantile(&xs, 0.5) * 1e3
}

/// One comparison on one workload, `rounds` rounds; prints a row.
fn compare(workload: &str, cmp: &Comparison, rounds: usize) {
    // One round of each side: `batch(side, round)`.
    let batch: Box<dyn Fn(Side, usize)> = if workload == "plant" {
        let j = jsonl();
        Box::new(move |side, round| {
            let from = (round % (j.lines.len() / CHUNK)) * CHUNK;
            run_lines(side, j, from, from + CHUNK);
        })
    } else {
        let c = corpus(workload);
        // Size the batch: the faster side about 20 ms (after a warm-up of each).
        run_corpus(cmp.accord, c, 2);
        run_corpus(cmp.other, c, 2);
        let one = time(|| run_corpus(cmp.accord, c, 3))
            .min(time(|| run_corpus(cmp.other, c, 3)))
            .as_secs_f64()
            / 3.0;
        let times = ((0.02 / one).ceil() as usize).clamp(1, 10_000);
        Box::new(move |side, _| run_corpus(side, c, times))
    };
    batch(cmp.accord, 0);
    batch(cmp.other, 0);
    let (mut ratios, mut accord, mut other) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..rounds {
        // Alternate which side goes first, so neither always runs on a warmer or colder cache.
        let (a, b) = if round % 2 == 0 {
            let a = time(|| batch(cmp.accord, round));
            (a, time(|| batch(cmp.other, round)))
        } else {
            let b = time(|| batch(cmp.other, round));
            (time(|| batch(cmp.accord, round)), b)
        };
        ratios.push(b.as_secs_f64() / a.as_secs_f64());
        accord.push(a.as_secs_f64());
        other.push(b.as_secs_f64());
    }
    ratios.sort_by(f64::total_cmp);
    let (q1, med, q3) = (quantile(&ratios, 0.25), quantile(&ratios, 0.5), quantile(&ratios, 0.75));
    let verdict = if q1 >= cmp.target {
        "met".to_owned()
    } else {
        format!("missed (lower quartile short by {:.3}x)", cmp.target / q1)
    };
    println!(
        "| {workload} | {} | {med:.3} | {q1:.3} – {q3:.3} | {:.3} – {:.3} | {} | {:.3} ms | {:.3} ms | {rounds} | {verdict} |",
        cmp.name,
        ratios[0],
        ratios[ratios.len() - 1],
        cmp.target,
        median_ms(accord),
        median_ms(other),
    );
}

/// `--once SIDE WORKLOAD N`: set up, then run one side N times (for valgrind).
fn once(side: Side, workload: &str, n: usize) {
    if workload == "plant" {
        let j = jsonl_first(CHUNK);
        for _ in 0..n {
            run_lines(side, &j, 0, CHUNK);
        }
    } else {
        let c = corpus(workload);
        run_corpus(side, c, n);
    }
}

/// Instructions of `--once SIDE WORKLOAD n`, as cachegrind counts them ("I refs").
fn instructions(side: Side, workload: &str, n: usize) -> u64 {
    let exe = std::env::current_exe().expect("the bench binary's path");
    let out = Command::new("valgrind")
        .args(["--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"])
        .arg(exe)
        .args(["--once", side.name(), workload, &n.to_string()])
        .output()
        .expect("valgrind runs (is it installed?)");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "valgrind failed: {stderr}");
    stderr
        .lines()
        .find_map(|l| {
            let (_, rest) = l.split_once("I refs:").or_else(|| l.split_once("I   refs:"))?;
            rest.trim().replace(',', "").parse().ok()
        })
        .unwrap_or_else(|| panic!("no `I refs` in valgrind's output: {stderr}"))
}

/// Instructions per run of one side over the workload: (I(1 + k) − I(1)) / k.
fn per_run(side: Side, workload: &str, k: usize) -> f64 {
    let base = instructions(side, workload, 1);
    let more = instructions(side, workload, 1 + k);
    (more.saturating_sub(base)) as f64 / k as f64
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    if args.first().map(String::as_str) == Some("--once") {
        let [_, side, workload, n] = &args[..] else {
            panic!("usage: --once SIDE WORKLOAD N");
        };
        once(Side::parse(side), workload, n.parse().expect("N is a count"));
        return;
    }
    let mut rounds = 41;
    let mut count_instructions = false;
    let mut only: Option<String> = None;
    if let Some(at) = args.iter().position(|a| a == "--compare") {
        only = Some(args.get(at + 1).cloned().expect("--compare skim|e2e|value"));
        args.drain(at..at + 2);
    }
    if let Some(at) = args.iter().position(|a| a == "--rounds") {
        rounds = args.get(at + 1).and_then(|n| n.parse().ok()).expect("--rounds N");
        args.drain(at..at + 2);
    }
    if let Some(at) = args.iter().position(|a| a == "--instructions") {
        count_instructions = true;
        args.remove(at);
    }
    let workloads: Vec<&str> = if args.is_empty() {
        WORKLOADS.to_vec()
    } else {
        args.iter()
            .map(|a| {
                *WORKLOADS.iter().find(|w| *w == a).unwrap_or_else(|| panic!("no workload `{a}`"))
            })
            .collect()
    };
    if count_instructions {
        println!("| workload | side | instructions per run |");
        println!("| --- | --- | ---: |");
        for workload in &workloads {
            let k = if *workload == "plant" { 1 } else { 3 };
            let counts: Vec<(Side, f64)> =
                Side::ALL.iter().map(|&s| (s, per_run(s, workload, k))).collect();
            for (side, n) in &counts {
                println!("| {workload} | {} | {n:.0} |", side.name());
            }
            let of = |s: Side| counts.iter().find(|(x, _)| *x == s).map_or(f64::NAN, |c| c.1);
            for cmp in &COMPARISONS {
                println!(
                    "| {workload} | ratio {} ({} / {}) | {:.3} |",
                    cmp.name,
                    cmp.other.name(),
                    cmp.accord.name(),
                    of(cmp.other) / of(cmp.accord)
                );
            }
        }
        return;
    }
    common::check_workloads();
    println!(
        "| workload | comparison | median ratio | quartiles | min – max | target | accord median | other median | rounds | verdict |"
    );
    println!("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
    for workload in &workloads {
        for cmp in COMPARISONS.iter().filter(|c| only.as_deref().is_none_or(|o| o == c.name)) {
            compare(workload, cmp, rounds);
        }
    }
}
