//! Raw bytes into the bytes validator of every target of the bundled contracts: never a panic;
//! `is_valid_bytes` agrees with `validate_bytes`; and where serde_json reads the bytes, the
//! value path gives the errors the bytes path gives on the value's canonical text (the
//! original bytes may hold duplicate members, which only the bytes path sees, so the verdicts
//! are compared on the canonical text).
#![no_main]

use std::sync::OnceLock;

use accord_schema_model::Document;
use accord_validate::{Contract, Target};
use libfuzzer_sys::fuzz_target;

struct Fixture {
    contract: Contract,
    targets: Vec<Target>,
}

fn fixtures() -> &'static [Fixture] {
    static ALL: OnceLock<Vec<Fixture>> = OnceLock::new();
    ALL.get_or_init(|| {
        [
            include_str!("../../fixtures/contracts/pump-plant.types.json"),
            include_str!("../../fixtures/contracts/work-queue.types.json"),
        ]
        .into_iter()
        .map(|text| {
            let doc = Document::parse(text).expect("bundled contract reads");
            let contract = Contract::compile(&doc).expect("bundled contract compiles");
            let targets = contract.targets().into_iter().cloned().collect();
            Fixture { contract, targets }
        })
        .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    // The first byte picks the target, so one input reaches one validator deeply.
    let Some((&pick, bytes)) = data.split_first() else { return };
    let all = fixtures();
    let fixture = &all[usize::from(pick) % all.len()];
    let target = &fixture.targets[usize::from(pick) / all.len() % fixture.targets.len()];
    let v = fixture.contract.validator(target).expect("target");

    let verdict = v.is_valid_bytes(bytes);
    let errors = v.validate_bytes(bytes);
    assert_eq!(verdict, errors.is_ok(), "is_valid_bytes and validate_bytes disagree");
    if let Err(errors) = &errors {
        assert!(!errors.is_empty(), "invalid with no error");
    }

    if let Ok(value) = serde_json::from_slice::<serde_json::Value>(bytes) {
        let canonical = serde_json::to_vec(&value).expect("serializes");
        let by_value = v.validate(&value).err().unwrap_or_default();
        let by_bytes = v.validate_bytes(&canonical).err().unwrap_or_default();
        assert_eq!(by_value, by_bytes, "the value path and the bytes path disagree");
        assert_eq!(v.is_valid(&value), by_value.is_empty());
    } else {
        // Not JSON to serde_json: not valid to accord either (unless only accord's depth
        // limit differs, which cannot make invalid JSON valid).
        assert!(!verdict, "accord accepts bytes serde_json refuses: {:?}", String::from_utf8_lossy(bytes));
    }
});
