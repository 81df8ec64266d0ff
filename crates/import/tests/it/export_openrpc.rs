//! `export_openrpc`: every bundled contract's export validates against the official OpenRPC
//! meta-schema (tests/data, vendored from `@open-rpc/meta-schema`), and importing the export
//! gives the contract back, compared as values.

use std::path::PathBuf;

use accord_import::{Options, export_openrpc, import_openrpc};
use accord_schema_model::Document;
use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn data(name: &str) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name);
    let mut v: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("json");
    // Their `$schema` names a dialect of their own; they are written in draft 07.
    v.as_object_mut().expect("object").remove("$schema");
    v
}

fn meta_schema() -> jsonschema::Validator {
    let registry = jsonschema::Registry::new()
        .add("https://meta.json-schema.tools/", data("json-schema-tools-meta-schema-1.8.0.json"))
        .expect("add")
        .add("https://meta.json-schema.tools", data("json-schema-tools-meta-schema-1.8.0.json"))
        .expect("add")
        .prepare()
        .expect("registry");
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft7)
        .with_registry(&registry)
        .build(&data("openrpc-meta-schema-1.14.9.json"))
        .expect("the meta-schema builds")
}

fn bundled() -> Vec<PathBuf> {
    let mut all: Vec<PathBuf> = std::fs::read_dir(root().join("fixtures/contracts"))
        .expect("fixtures/contracts")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.to_string_lossy().ends_with(".types.json"))
        .collect();
    all.sort();
    assert!(all.len() >= 3, "the bundled contracts");
    all
}

fn read(path: &PathBuf) -> Document {
    Document::parse(&std::fs::read_to_string(path).expect("read")).expect("reads")
}

#[test]
fn the_export_of_every_bundled_contract_is_valid_openrpc() {
    let meta = meta_schema();
    for path in bundled() {
        let export = export_openrpc(&read(&path)).expect("exports");
        let errors: Vec<String> =
            meta.iter_errors(&export).map(|e| format!("{} at {}", e, e.instance_path())).collect();
        assert!(errors.is_empty(), "{}: {errors:#?}", path.display());
    }
}

#[test]
fn importing_the_export_of_every_bundled_contract_gives_it_back() {
    for path in bundled() {
        let doc = read(&path);
        let export = export_openrpc(&doc).expect("exports");
        let back = import_openrpc(&export, &Options::default()).expect("imports");
        assert_eq!(back.document.to_value(), doc.to_value(), "{}", path.display());
    }
}

#[test]
fn the_meta_schema_refuses_what_openrpc_refuses() {
    // The check can fail: a document without `info` is not OpenRPC.
    let meta = meta_schema();
    let mut export = export_openrpc(&read(&bundled()[0])).expect("exports");
    export.as_object_mut().unwrap().remove("info");
    assert!(!meta.is_valid(&export));
}

#[test]
fn the_export_of_the_execution_apis_import_is_valid_openrpc_and_imports_back() {
    let text =
        std::fs::read_to_string(root().join("fixtures/import/execution-apis/expected.types.json"))
            .expect("read");
    let doc = Document::parse(&text).expect("reads");
    let export = export_openrpc(&doc).expect("exports");
    let meta = meta_schema();
    let errors: Vec<String> = meta
        .iter_errors(&export)
        .take(5)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let back = import_openrpc(&export, &Options::default()).expect("imports");
    assert_eq!(back.document.to_value(), doc.to_value());
}
