//! Shared by the mcp tests: the bundled contracts.

#![allow(dead_code, unreachable_pub)]

use std::path::PathBuf;

use accord_schema_model::Document;

/// A bundled contract: `pump-plant`, `boiler-plant`.
pub fn contract(name: &str) -> Document {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../../fixtures/contracts/{name}.types.json"));
    Document::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
}
