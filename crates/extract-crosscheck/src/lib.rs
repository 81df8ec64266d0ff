//! Test-only crate: `tests/serde_crosscheck.rs` compiles each `fixtures/extract/<case>/src`
//! for real and checks its `expected.types.json` against serde itself. Values generated from
//! the contract (input presence) must deserialize into the Rust type, and what serde writes back
//! must validate against the contract (output presence). An extraction that is wrong about
//! serde fails here.
//!
//! It depends on the model and validate (dev only) and nothing depends on it; it has no API.
