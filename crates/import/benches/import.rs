//! Importing the Ethereum execution-apis OpenRPC document (`openrpc.refs.json`, 2.0 MB, 86
//! methods, 124 named schemas; vendored under fixtures/import/execution-apis/source) into a
//! contract, with its loss report. Target: under 100 ms. The peer is the floor: parsing the same
//! text into a `serde_json::Value`, which the import needs first. `import+write` adds the
//! canonical text of the contract (what `accord import` writes).
//!
//! `cargo bench -p accord-import --bench import`

use accord_import::{Options, import_openrpc};
use serde_json::Value;

fn source() -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/import/execution-apis/source/openrpc.refs.json"
    );
    std::fs::read_to_string(path).expect("the vendored execution-apis document")
}

fn options() -> Options {
    let mut options = Options::default();
    options.profile = Some("eip-1474".to_owned());
    options
}

fn main() {
    divan::main();
}

#[divan::bench]
fn floor_parse(bencher: divan::Bencher) {
    let text = source();
    bencher.bench(|| serde_json::from_str::<Value>(divan::black_box(&text)).expect("json"));
}

#[divan::bench]
fn import(bencher: divan::Bencher) {
    let value: Value = serde_json::from_str(&source()).expect("json");
    let options = options();
    bencher.bench(|| import_openrpc(divan::black_box(&value), &options).expect("imports"));
}

#[divan::bench]
fn parse_import_write(bencher: divan::Bencher) {
    let text = source();
    let options = options();
    bencher.bench(|| {
        let value: Value = serde_json::from_str(divan::black_box(&text)).expect("json");
        import_openrpc(&value, &options).expect("imports").document.to_canonical_string()
    });
}
