//! The generation budget: a type whose values are huge is refused with the bound named, before
//! (or while) it is made, never by running out of memory; values within the budget are made as
//! before.

use accord_schema_model::Document;
use accord_validate::{Budget, BudgetLimit, Contract, DEFAULT_MAX_NODES, Error, Target};
use serde_json::{Value, json};

fn single(ty: Value) -> Contract {
    let doc = json!({"schema": 1, "namespaces": {"t": {"version": "1.0.0", "types": {"T": ty}}}});
    Contract::compile(&Document::from_value(doc).expect("reads")).expect("compiles")
}

fn t(contract: &Contract) -> accord_validate::Validator<'_> {
    contract.validator(&Target::Type { namespace: "t".into(), name: "T".into() }).expect("T")
}

/// 10,000 arrays of 10,000 integers: 10^8 values. Without a budget the generator allocates
/// them all (and a plant aborts on the allocation failure).
#[test]
fn an_array_of_huge_arrays_is_refused_by_the_node_budget() {
    let c = single(json!({"kind": "array", "minItems": 10000, "items":
        {"kind": "array", "minItems": 10000, "items": {"kind": "integer"}}}));
    match t(&c).generate(1) {
        Err(Error::Budget { limit: BudgetLimit::Nodes, max, reason, .. }) => {
            assert_eq!(max, DEFAULT_MAX_NODES as u64);
            assert!(reason.contains("100010001 values"), "{reason}");
        }
        other => panic!("expected the node budget, got {other:?}"),
    }
    assert_eq!(t(&c).generator().least_size().map(|s| s.0), Some(100_010_001));
}

/// 10,000 strings of 65,536 characters: 655 MB of text.
#[test]
fn huge_strings_are_refused_by_the_byte_budget() {
    let c = single(json!({"kind": "array", "minItems": 10000, "items":
        {"kind": "string", "minLength": 65536}}));
    match t(&c).generate(1) {
        Err(Error::Budget { limit: BudgetLimit::Bytes, .. }) => {}
        other => panic!("expected the byte budget, got {other:?}"),
    }
}

/// A value whose least size fits but that grows past a tight budget while it is made is
/// stopped where it ran out, with the place named.
#[test]
fn a_value_growing_past_the_budget_is_stopped_while_made() {
    let c = single(
        json!({"kind": "array", "minItems": 50, "items": {"kind": "string", "minLength": 10}}),
    );
    let small = t(&c).generator().budget(Budget::new(1000, 400));
    match small.generate(1) {
        Err(Error::Budget { limit: BudgetLimit::Bytes, max: 400, .. }) => {}
        other => panic!("expected the byte budget, got {other:?}"),
    }
    let few = t(&c).generator().budget(Budget::new(20, 1 << 20));
    match few.generate(1) {
        Err(Error::Budget { limit: BudgetLimit::Nodes, max: 20, .. }) => {}
        other => panic!("expected the node budget, got {other:?}"),
    }
    // The default budget makes it.
    let value = t(&c).generate(1).expect("a value");
    assert!(value.as_array().is_some_and(|a| a.len() >= 50));
}

/// A value counted by the budget: the least size of an object with required members.
#[test]
fn least_size_counts_required_members_and_text() {
    let c = single(json!({"kind": "object", "fields": {
        "id": {"type": {"kind": "string", "minLength": 3}},
        "note": {"type": {"kind": "string"}, "optional": true}}}));
    // `{"id":"abc"}`: two values, 12 bytes, and one more for the comma every member is
    // counted with (the budget counts separators after each member or item).
    assert_eq!(t(&c).generator().least_size(), Some((2, 13)));
}
