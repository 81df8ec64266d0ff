//! A valid `uniqueItems` array of scalars costs the bytes path no allocation (docs/ARCHITECTURE.md:
//! nothing is built for a valid message): items are hashed as they are read, into a table kept on
//! the thread between runs, with no `Value` per item. Counted by a counting global allocator.
//!
//! This binary holds one test, so that nothing else allocates while it counts.

use std::alloc::System;

use accord_schema_model::Document;
use accord_validate::{Contract, Target};
use serde_json::json;
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

#[test]
fn a_valid_unique_array_of_scalars_allocates_nothing() {
    let doc = json!({"schema": 1, "namespaces": {"t": {"version": "1.0.0", "types": {
        "Any": {"kind": "array", "items": {"kind": "any"}, "uniqueItems": true},
        "Tags": {"kind": "array", "items": {"kind": "string", "maxLength": 40}, "uniqueItems": true},
        "Grid": {"kind": "array", "items": {"kind": "ref", "name": "Any"}, "uniqueItems": false},
    }}}});
    let contract = Contract::compile(&Document::from_value(doc).expect("reads")).expect("compiles");
    // Numbers in every spelling, strings with and without escapes or non-ASCII text, the three
    // words; thousands of them, so that the item table grows well past its first size.
    let mut items: Vec<String> =
        ["true", "false", "null", "-0", "0.5", "1e300", r#""""#].map(String::from).to_vec();
    for i in 0..3_000 {
        items.push(format!("{i}"));
        items.push(format!("{i}.25"));
        items.push(format!("{}e-7", i + 1));
        items.push(format!(r#""tag {i}""#));
        items.push(format!(r#""\u00e9t\u00e9 {i} \n""#));
        items.push(format!(r#""été {i}""#));
    }
    let array = format!("[{}]", items.join(", "));
    let rows: Vec<String> = (0..20).map(|i| format!("[{i}, \"{i}\", {i}.5, true]")).collect();
    let grid = format!("[{}]", rows.join(","));
    let tags = r#"["a", "b", "caf\u00e9", "café!", "\u0041"]"#;
    for (name, text) in [("Any", array.as_str()), ("Tags", tags), ("Grid", grid.as_str())] {
        let v = contract.validator(&Target::Type { namespace: "t".into(), name: name.into() });
        let v = v.expect("target");
        // Warm: the thread's buffers and tables grow on the first run.
        assert_eq!(v.validate_bytes(text.as_bytes()), Ok(()), "{name}");
        let region = Region::new(GLOBAL);
        assert!(v.is_valid_bytes(text.as_bytes()), "{name}");
        let change = region.change();
        assert_eq!(
            (change.allocations, change.reallocations),
            (0, 0),
            "{name}: a valid array of unique scalars allocated"
        );
    }
}
