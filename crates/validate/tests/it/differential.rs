//! The JSON Schema export against the jsonschema crate: for generated valid values and their
//! mutants, jsonschema on the exported schema and accord's validator give the same verdict.
//!
//! The documented differences (docs/format.md §10) are kept out of the inputs by
//! construction, not filtered out of the results: the generator and the mutator never make a
//! whole-valued float where an integer goes, nor a `1.0` for a literal `1`; mutants that nest past
//! the depth limit, which JSON Schema has no word for, are left out.

use accord_schema_model::Document;
use accord_validate::{Contract, ValidationRule, json_schema};
use serde_json::Value;

const CONTRACTS: [(&str, &str); 3] = [
    ("pump-plant", include_str!("../../../../fixtures/contracts/pump-plant.types.json")),
    ("work-queue", include_str!("../../../../fixtures/contracts/work-queue.types.json")),
    ("every-kind", EVERY_KIND),
];

/// Every kind and refinement, in the combinations the fixture contracts do not have.
const EVERY_KIND: &str = r#"{"schema": 1, "namespaces": {"k": {"version": "1.0.0",
  "methods": {
    "byPosition": {"paramStructure": "by-position", "params": [
      {"name": "a", "type": {"kind": "integer", "exclusiveMin": -3, "exclusiveMax": 9, "multipleOf": 3}},
      {"name": "b", "type": {"kind": "number", "multipleOf": 0.25, "min": -1, "max": 2.5}, "optional": true},
      {"name": "c", "type": {"kind": "string", "format": "hex", "maxLength": 10}, "optional": true}
    ], "result": {"kind": "tuple", "elements": [{"kind": "boolean"}, {"kind": "null"}, {"kind": "literal", "value": {"x": [1, "two"]}}]}},
    "byName": {"paramStructure": "by-name", "params": [
      {"name": "when", "type": {"kind": "string", "format": "date"}},
      {"name": "at", "type": {"kind": "string", "format": "time"}, "optional": true},
      {"name": "ip", "type": {"kind": "union", "variants": [{"kind": "string", "format": "ipv4"}, {"kind": "string", "format": "ipv6"}]}}
    ], "result": {"kind": "map", "keys": {"kind": "string", "pattern": "^[a-z]{2,4}$"}, "values": {"kind": "ref", "name": "Shape"}}}
  },
  "types": {
    "Shape": {"kind": "union", "discriminator": "kind", "variants": [
      {"kind": "object", "fields": {"kind": {"type": {"kind": "literal", "value": "circle"}}, "r": {"type": {"kind": "number", "exclusiveMin": 0}}}, "closed": true},
      {"kind": "object", "fields": {"kind": {"type": {"kind": "enum", "values": ["square", "box"]}}, "side": {"type": {"kind": "integer", "min": 1}}, "tags": {"type": {"kind": "array", "items": {"kind": "enum", "values": ["a", "b", 7]}, "uniqueItems": true, "maxItems": 3}, "optional": true}}}
    ]},
    "Tree": {"kind": "object", "fields": {"value": {"type": {"kind": "any"}}, "children": {"type": {"kind": "array", "items": {"kind": "ref", "name": "Tree"}, "minItems": 0}, "optional": true}}},
    "Link": {"kind": "string", "format": "uri", "minLength": 8},
    "Id": {"kind": "string", "format": "uuid"},
    "Stamp": {"kind": "string", "format": "date-time"},
    "Maybe": {"kind": "union", "variants": [{"kind": "ref", "name": "Id"}, {"kind": "null"}]}
  }}}}"#;

/// Seeds per target: with both contracts' targets this makes thousands of values and more
/// mutants, in a few seconds.
const SEEDS: u64 = 24;

#[test]
fn jsonschema_agrees_on_every_generated_value_and_mutant() {
    let mut checked = 0usize;
    let mut disagreements = Vec::new();
    for (name, text) in CONTRACTS {
        let doc = Document::parse(text).expect("contract reads");
        let contract = Contract::compile(&doc).expect("contract compiles");
        for target in contract.targets() {
            let validator = contract.validator(target).expect("target");
            let schema = json_schema(&doc, target).expect("export");
            let peer =
                jsonschema::options().should_validate_formats(true).build(&schema).unwrap_or_else(
                    |e| panic!("{name} {target:?}: jsonschema refuses the export: {e}\n{schema:#}"),
                );
            for seed in 0..SEEDS {
                let value = validator
                    .generate(seed)
                    .unwrap_or_else(|e| panic!("{name} {target:?} seed {seed}: {e}"));
                let mut cases: Vec<(Value, String)> = vec![(value.clone(), "generated".to_owned())];
                // Nesting past the depth limit has no JSON Schema counterpart (docs/format.md §10.8).
                let mutants = validator
                    .mutants(&value, seed)
                    .into_iter()
                    .filter(|m| m.rule != ValidationRule::Depth);
                cases.extend(mutants.map(|m| (m.value, m.description)));
                for (case, what) in cases {
                    checked += 1;
                    let ours = validator.is_valid(&case);
                    let theirs = peer.is_valid(&case);
                    if ours != theirs {
                        disagreements.push(format!(
                            "{name} {target:?} seed {seed} ({what}): accord says {ours}, jsonschema says {theirs}\n  value: {case}"
                        ));
                    }
                }
            }
        }
    }
    assert!(checked > 2000, "only {checked} cases: the test would not mean much");
    assert!(
        disagreements.is_empty(),
        "{} of {checked} verdicts differ:\n{}",
        disagreements.len(),
        disagreements.iter().take(20).cloned().collect::<Vec<_>>().join("\n")
    );
}
