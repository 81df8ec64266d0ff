//! The lint's cost grows linearly with the number of types (issue 18, defect 14): measured by
//! what it allocates, which a machine's load cannot change, never by time.
//!
//! The lint once worked out, for every named type, the set of types it reaches (n × n bytes),
//! copied the whole document to JSON and back to compile it, and compiled it again for the
//! defaults of anonymous nodes. Each of those shows here: an n × n table as bytes that grow
//! 16 times when the types grow 4 times, and a step repeated per type as allocations that do.
//!
//! This binary holds one test, so that nothing else allocates while it counts. A step that
//! is quadratic without allocating (a pass over every type per link of a chain) does not
//! show here; `no-finite-value`'s fixed point is written to look at a type again only when a
//! type it refers to gains a value.

use std::alloc::System;

use accord_schema_model::Document;
use accord_validate::LintReport;
use serde_json::{Map, json};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// A contract of `n` named types in two namespaces: chains of required refs (each type holds
/// the one before, so `no-finite-value` has a chain as long as the contract to settle), unions
/// with `null` and discriminated unions over those chains, arrays, maps, patterns (a few
/// distinct ones, repeated), and fields with a default. With `broken`, it also has what the
/// repair must set aside: a ref cycle, a dangling ref and a pattern that does not compile, and
/// a recursion with no finite value.
fn contract(n: usize, broken: bool) -> Document {
    let per = n / 2;
    let mut namespaces = Map::new();
    for ns in 0..2 {
        let mut types = Map::new();
        for i in 0..per {
            let prev = if i == 0 {
                json!({"kind": "string"})
            } else {
                json!({"kind": "ref", "name": format!("T{}", i - 1)})
            };
            let ty = match i % 6 {
                0 | 1 => json!({"kind": "object", "fields": {
                    "prev": {"type": prev},
                    "count": {"type": {"kind": "integer", "min": 0, "max": 100, "default": 1}},
                    "code": {"type": {"kind": "string", "pattern": format!("^[A-Z]{{{}}}$", 1 + i % 4)}},
                }}),
                2 => json!({"kind": "union", "variants": [{"kind": "null"}, prev]}),
                3 => json!({"kind": "array", "items": prev, "minItems": 1}),
                4 => json!({"kind": "map", "values": prev}),
                _ => json!({"kind": "union", "discriminator": "kind", "variants": [
                    {"kind": "object", "fields": {
                        "kind": {"type": {"kind": "literal", "value": "a"}},
                        "next": {"type": prev},
                    }},
                    {"kind": "object", "fields": {"kind": {"type": {"kind": "literal", "value": "b"}}}},
                ]}),
            };
            types.insert(format!("T{i}"), ty);
        }
        if broken {
            types.insert("LoopA".into(), json!({"kind": "ref", "name": "LoopB"}));
            types.insert(
                "LoopB".into(),
                json!({"kind": "union", "variants": [
                    {"kind": "ref", "name": "LoopA"}, {"kind": "null"},
                ]}),
            );
            types.insert("Lost".into(), json!({"kind": "ref", "name": "Nowhere"}));
            types.insert("Bad".into(), json!({"kind": "string", "pattern": "(unclosed"}));
            types.insert(
                "Endless".into(),
                json!({"kind": "object", "fields": {
                    "again": {"type": {"kind": "ref", "name": "Endless"}},
                }}),
            );
        }
        namespaces.insert(format!("ns{ns}"), json!({"version": "1.0.0", "types": types}));
    }
    let doc = json!({"schema": 1, "name": "growth", "namespaces": namespaces});
    Document::from_value(doc).expect("the generated contract reads")
}

/// What one lint of `doc` allocates: (allocations, bytes), and how many findings it has.
fn lint_cost(doc: &Document) -> (usize, usize, usize) {
    let region = Region::new(GLOBAL);
    let report = LintReport::of(doc);
    let change = region.change();
    (change.allocations + change.reallocations, change.bytes_allocated, report.diagnostics.len())
}

#[test]
fn lint_allocates_linearly_in_the_number_of_types() {
    // 4 times the types: a linear lint allocates 4 times as much (3.99 when this was written;
    // 4.5 leaves room for tables that double), a quadratic one up to 16 times. One n x n
    // reachability table alone, put back for a try, made 5.8 times the bytes.
    const SMALL: usize = 2_000;
    const GROWTH: usize = 4;
    const MOST: f64 = 4.5;
    for broken in [false, true] {
        let small = contract(SMALL, broken);
        let large = contract(SMALL * GROWTH, broken);
        let (small_allocs, small_bytes, small_found) = lint_cost(&small);
        let (large_allocs, large_bytes, large_found) = lint_cost(&large);
        let what = if broken { "a contract with findings" } else { "a clean contract" };
        eprintln!(
            "{what}: {small_allocs} -> {large_allocs} allocations, {small_bytes} -> {large_bytes} bytes, {small_found} findings"
        );
        assert_eq!(small_found, large_found, "{what}: the same findings at both sizes");
        assert_eq!(small_found == 0, !broken, "{what}: {small_found} findings");
        let allocs = large_allocs as f64 / small_allocs as f64;
        let bytes = large_bytes as f64 / small_bytes as f64;
        assert!(
            allocs <= MOST,
            "{what}: {GROWTH}x the types made {allocs:.2}x the allocations \
             ({small_allocs} at {SMALL} types, {large_allocs} at {} types)",
            SMALL * GROWTH
        );
        assert!(
            bytes <= MOST,
            "{what}: {GROWTH}x the types allocated {bytes:.2}x the bytes \
             ({small_bytes} at {SMALL} types, {large_bytes} at {} types)",
            SMALL * GROWTH
        );
    }
}
