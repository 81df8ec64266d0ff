//! The extract fixtures: `fixtures/extract/<case>/src/` is extracted and compared with the
//! case's `expected.types.json` (byte for byte: the canonical writer's text) and its
//! diagnostics with an insta snapshot. `cargo xtask bless` (`ACCORD_BLESS=1`) rewrites the
//! expected documents (read the diff before committing it).

use std::path::{Path, PathBuf};

use accord_extract::{Config, extract_dir};

fn cases() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/extract");
    let mut all: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("src").is_dir())
        .collect();
    all.sort();
    all
}

#[test]
fn every_case_extracts_to_its_expected_document() {
    let bless = std::env::var_os("ACCORD_BLESS").is_some();
    let mut stale = Vec::new();
    for case in cases() {
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        let config = match std::fs::read_to_string(case.join("accord.toml")) {
            Ok(text) => Config::parse(&text, "accord.toml").unwrap(),
            Err(_) => Config::default(),
        };
        let x = extract_dir(&case, &config).unwrap();
        let text = x.document.to_canonical_string();
        let expected_path = case.join("expected.types.json");
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if text != expected {
            if bless {
                std::fs::write(&expected_path, &text).unwrap();
            } else {
                stale.push(name.clone());
            }
        }
        let diagnostics: Vec<String> = x.diagnostics.iter().map(ToString::to_string).collect();
        insta::assert_snapshot!(format!("diagnostics-{name}"), diagnostics.join("\n"));
    }
    assert!(
        stale.is_empty(),
        "extraction differs from expected.types.json in {stale:?} (`cargo xtask bless`, or ACCORD_BLESS=1, rewrites them)"
    );
}
