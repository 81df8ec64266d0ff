//! The Ethereum execution API (ethereum/execution-apis, CC0; vendored under
//! fixtures/import/execution-apis/source) imported with the options of its accord.toml: the
//! contract and the loss report are committed beside it, and this test regenerates both and
//! compares. `ACCORD_BLESS=1` rewrites them (review the diff like a snapshot).

use std::path::PathBuf;

use accord_import::{Options, import_openrpc};
use accord_schema_model::Document;
use serde_json::Value;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/import/execution-apis")
}

fn import() -> accord_import::Import {
    let text = std::fs::read_to_string(dir().join("source/openrpc.refs.json")).expect("source");
    let source: Value = serde_json::from_str(&text).expect("json");
    let mut options = Options::default();
    options
        .read_toml(&std::fs::read_to_string(dir().join("accord.toml")).expect("toml"))
        .expect("options");
    import_openrpc(&source, &options).expect("imports")
}

fn compare(name: &str, text: &str) {
    let path = dir().join(name);
    if std::env::var_os("ACCORD_BLESS").is_some() {
        std::fs::write(&path, text).expect("bless");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(committed == text, "{name} is stale: run with ACCORD_BLESS=1 and review the diff");
}

#[test]
fn the_import_and_its_report_are_the_committed_ones() {
    let import = import();
    compare("expected.types.json", &import.document.to_canonical_string());
    let report = serde_json::to_string_pretty(&import.report.to_json()).expect("json") + "\n";
    compare("expected.report.json", &report);
}

#[test]
fn the_import_is_deterministic_and_already_canonical() {
    let (a, b) = (import(), import());
    let text = a.document.to_canonical_string();
    assert_eq!(text, b.document.to_canonical_string());
    assert_eq!(a.report, b.report);
    // What `accord fmt --check` checks: reading the text and writing it gives it back.
    assert_eq!(Document::parse(&text).expect("reads").to_canonical_string(), text);
}

#[test]
fn every_method_of_the_spec_is_in_its_namespace_under_its_wire_name() {
    let import = import();
    let doc = &import.document;
    let dialect = accord_schema_model::dialect::Dialect::of(doc).expect("the wire resolves");
    let listed = std::fs::read_to_string(dir().join("source/methods.txt")).expect("methods.txt");
    let mut wire_names: Vec<String> = dialect.methods().map(|m| m.wire_name.clone()).collect();
    wire_names.sort();
    let mut expected: Vec<String> = listed.lines().map(str::to_owned).collect();
    expected.sort();
    assert_eq!(wire_names, expected);
    let namespaces: Vec<&String> = doc.namespaces.iter().flatten().map(|(n, _)| n).collect();
    assert_eq!(namespaces, ["debug", "engine", "eth", "net", "testing", "txpool"]);
    let types = doc.namespaces.as_ref().unwrap()["eth"].types.as_ref().unwrap();
    // 124 components/schemas entries; AccountOverrideState and AccountOverrideStateDiff are used
    // only as parts merged into AccountOverride's arms, so they are no orphans of their own.
    assert_eq!(types.len(), 122, "every other components/schemas entry is a named type of eth");
}

/// `accord check` of the import: what it finds comes from the spec itself (docs/interop.md lists
/// each): its examples that break its own schemas, and its declared errors that reuse EIP-1474's
/// protocol codes. The ids are committed in expected.findings.txt.
#[test]
fn check_finds_only_what_is_wrong_in_the_spec_itself() {
    let import = import();
    let findings = accord_validate::lint(&import.document);
    let mut by_rule = std::collections::BTreeMap::new();
    for f in &findings {
        *by_rule.entry(f.rule).or_insert(0) += 1;
    }
    assert_eq!(
        by_rule.into_iter().collect::<Vec<_>>(),
        [("error-code-collides-with-protocol", 43), ("invalid-example", 37)]
    );
    let lines: String = findings.iter().map(|f| format!("{} {}\n", f.rule, f.pointer)).collect();
    compare("expected.findings.txt", &lines);
}
