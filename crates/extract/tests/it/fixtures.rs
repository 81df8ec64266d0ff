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

/// `fixtures/extract/workspace`: a workspace root (no crate of its own) is every member with
/// RPC traits in one contract; two members' traits merge into `eth`, their types come from a
/// third member (a path dependency), a member without traits adds nothing.
#[test]
fn a_workspace_root_extracts_every_member_into_one_contract() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/extract/workspace");
    let mut config = Config::default();
    config.offline = true;
    let x = extract_dir(&dir, &config).unwrap();
    holds_to_expected(&x, &dir.join("expected.types.json"), "workspace");
    // Provenance names each member's file under the workspace root.
    assert!(
        x.provenance.iter().any(|(p, at)| p == "/namespaces/eth/methods/logs"
            && at.file == "crates/eth-pubsub/src/lib.rs"),
        "{:?}",
        x.provenance
    );
}

/// Several sources are one contract, each one's files named under it as given.
#[test]
fn several_sources_are_one_contract() {
    let ws = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/extract/workspace");
    let mut config = Config::default();
    config.offline = true;
    let dirs = [ws.join("crates/eth-api"), ws.join("crates/eth-pubsub")];
    let x = accord_extract::extract_dirs(&dirs, &config).unwrap();
    let whole = extract_dir(&ws, &config).unwrap();
    assert_eq!(x.document.to_value(), whole.document.to_value());
    let logs = x.provenance.iter().find(|(p, _)| p == "/namespaces/eth/methods/logs").unwrap();
    assert_eq!(logs.1.file, format!("{}/src/lib.rs", dirs[1].display()));
    // Only a member without traits: nothing found, warning `no-rpc-traits`.
    let none = extract_dir(&ws.join("crates/util"), &config).unwrap();
    assert!(none.found_nothing());
    assert!(none.diagnostics.iter().any(|d| d.code == "no-rpc-traits"));
}

/// `fixtures/extract/workspace-member`: a member whose manifest inherits from its workspace
/// (`version.workspace = true`, `wm-types.workspace = true`), extracted from its own folder: the
/// enclosing workspace is found (as cargo finds it) and the sibling member's types are read.
/// The same member copied out of its workspace says plainly why nothing is followed.
#[test]
fn a_workspace_member_is_read_within_its_enclosing_workspace() {
    let ws = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/extract/workspace-member");
    let mut config = Config::default();
    config.offline = true;
    let x = extract_dir(&ws.join("api"), &config).unwrap();
    holds_to_expected(&x, &ws.join("expected.types.json"), "workspace-member");

    // Copied out of the workspace (outside this repository's own too): `cargo metadata`
    // cannot resolve the inherited keys, and the warning says why.
    let alone =
        std::env::temp_dir().join(format!("accord-workspace-member-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&alone);
    std::fs::create_dir_all(alone.join("src")).unwrap();
    std::fs::copy(ws.join("api/Cargo.toml"), alone.join("Cargo.toml")).unwrap();
    std::fs::copy(ws.join("api/src/lib.rs"), alone.join("src/lib.rs")).unwrap();
    let x = extract_dir(&alone, &config).unwrap();
    let deps =
        x.diagnostics.iter().find(|d| d.code == "dependencies").expect("a dependencies warning");
    assert!(deps.message.contains("inherits from a workspace"), "{deps}");
    let _ = std::fs::remove_dir_all(&alone);
}

/// The extraction is the case's expected document byte for byte (`ACCORD_BLESS` rewrites it)
/// and its diagnostics are the snapshot `diagnostics-{case}`.
fn holds_to_expected(x: &accord_extract::Extraction, expected_path: &Path, case: &str) {
    let text = x.document.to_canonical_string();
    if std::env::var_os("ACCORD_BLESS").is_some() {
        std::fs::write(expected_path, &text).unwrap();
    }
    let expected = std::fs::read_to_string(expected_path).unwrap_or_default();
    assert_eq!(text, expected, "{case}: the extraction differs from expected.types.json");
    let diagnostics: Vec<String> = x.diagnostics.iter().map(ToString::to_string).collect();
    insta::assert_snapshot!(format!("diagnostics-{case}"), diagnostics.join("\n"));
}
