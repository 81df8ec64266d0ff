//! Compatibility diff speed on generated contracts of 1,000, 10,000 and 100,000 methods.
//!
//! Each contract has 10 namespaces with a few named types each; every method takes params
//! (a ref to a named id type, a bounded integer, a string) and returns an object (an inline
//! enum, a number, an array of a named object type). The "new" copy changes 1% of the methods,
//! rotating through: a bound tightened (breaking), a field added to the result, the method
//! removed, an enum value added to the result (risky, with a witness). Both are parsed outside
//! the timed region; `diff` is timed as the cli calls it (`accord check --against`,
//! `accord diff`): findings, locations from the text, and witness values for every risky or
//! breaking finding.
//!
//! Run: `cargo bench -p accord-compat-diff --bench diff`

use std::fmt::Write as _;
use std::sync::OnceLock;

use accord_compat_diff::{Source, diff};
use divan::{Bencher, black_box};

fn main() {
    divan::main();
}

const NAMESPACES: usize = 10;

/// A contract of `methods` methods; with `changed`, 1% of them changed.
fn contract(methods: usize, changed: bool) -> String {
    let per_ns = methods / NAMESPACES;
    let mut out = String::from("{\n  \"schema\": 1,\n  \"namespaces\": {\n");
    for ns in 0..NAMESPACES {
        let _ = write!(
            out,
            "    \"ns{ns}\": {{\n      \"version\": \"1.0.0\",\n      \"types\": {{\n        \"Id\": {{\"kind\": \"string\", \"minLength\": 1, \"maxLength\": 32}},\n        \"Item\": {{\"kind\": \"object\", \"fields\": {{\"name\": {{\"type\": {{\"kind\": \"string\"}}}}, \"count\": {{\"type\": {{\"kind\": \"integer\", \"min\": 0}}}}}}}},\n        \"Level\": {{\"kind\": \"enum\", \"values\": [\"low\", \"mid\", \"high\"]}}\n      }},\n      \"methods\": {{\n"
        );
        let mut first = true;
        for m in 0..per_ns {
            let i = ns * per_ns + m;
            // 1% of methods, spread over the namespaces, each kind of change in turn.
            let change = (changed && i.is_multiple_of(100)).then_some((i / 100) % 4);
            if change == Some(2) {
                continue; // removed
            }
            let max = if change == Some(0) { 1000 } else { 3000 };
            let states = if change == Some(3) {
                "\"idle\", \"running\", \"fault\", \"paused\""
            } else {
                "\"idle\", \"running\", \"fault\""
            };
            let extra = if change == Some(1) {
                ", \"note\": {\"type\": {\"kind\": \"string\"}}"
            } else {
                ""
            };
            if !first {
                out.push_str(",\n");
            }
            first = false;
            let _ = write!(
                out,
                "        \"m{i:06}\": {{\"semantics\": \"read\", \"params\": [{{\"name\": \"id\", \"type\": {{\"kind\": \"ref\", \"name\": \"Id\"}}}}, {{\"name\": \"speed\", \"type\": {{\"kind\": \"integer\", \"min\": 0, \"max\": {max}}}}}, {{\"name\": \"label\", \"type\": {{\"kind\": \"string\", \"maxLength\": 64}}}}], \"result\": {{\"kind\": \"object\", \"fields\": {{\"state\": {{\"type\": {{\"kind\": \"enum\", \"values\": [{states}]}}}}, \"value\": {{\"type\": {{\"kind\": \"number\"}}}}, \"level\": {{\"type\": {{\"kind\": \"ref\", \"name\": \"Level\"}}}}, \"items\": {{\"type\": {{\"kind\": \"array\", \"items\": {{\"kind\": \"ref\", \"name\": \"Item\"}}}}}}{extra}}}}}}}"
            );
        }
        let _ = write!(out, "\n      }}\n    }}{}\n", if ns + 1 < NAMESPACES { "," } else { "" });
    }
    out.push_str("  }\n}\n");
    out
}

fn pair(methods: usize) -> &'static (Source, Source) {
    static PAIRS: [OnceLock<(Source, Source)>; 3] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let slot = match methods {
        1_000 => &PAIRS[0],
        10_000 => &PAIRS[1],
        _ => &PAIRS[2],
    };
    slot.get_or_init(|| {
        let old = Source::parse("old.types.json", &contract(methods, false)).expect("old parses");
        let new = Source::parse("new.types.json", &contract(methods, true)).expect("new parses");
        // The changes are found: one finding or more per changed method.
        let report = diff(&old, &new);
        assert!(report.findings.len() >= methods / 100, "{} findings", report.findings.len());
        (old, new)
    })
}

#[divan::bench(args = [1_000, 10_000, 100_000], sample_count = 5, sample_size = 1)]
fn diff_with_witnesses(bencher: Bencher, methods: usize) {
    let (old, new) = pair(methods);
    bencher.bench(|| black_box(diff(black_box(old), black_box(new))));
}
