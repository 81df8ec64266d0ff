//! A whole conformance run of the bundled pump plant contract, over loopback, against the
//! healthy test plant (crates/conform/tests/plant, an axum app answering from the contract with
//! accord-validate's generator; the same plant the tests use). The plant runs on its own
//! runtime threads; each sample is one `accord_conform::run` from the first request to the
//! report, as `accord conform` runs it.
//!
//! Run: `cargo bench -p accord-conform --bench conform`

#[path = "../tests/it/plant.rs"]
mod plant;

use std::sync::OnceLock;

use accord_conform::{Endpoint, NoProgress, Options, Policy};
use accord_schema_model::Document;
use divan::Bencher;

fn main() {
    divan::main();
}

const TOKEN: &str = "bench-token";

struct Setup {
    runtime: tokio::runtime::Runtime,
    url: String,
    doc: Document,
}

fn setup() -> &'static Setup {
    static SETUP: OnceLock<Setup> = OnceLock::new();
    SETUP.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime");
        let url = runtime.block_on(plant::start(
            "pump-plant.types.json",
            Some(TOKEN),
            plant::Fault::None,
        ));
        let path = format!(
            "{}/../../fixtures/contracts/pump-plant.types.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let doc =
            Document::parse(&std::fs::read_to_string(path).expect("contract")).expect("parses");
        Setup { runtime, url, doc }
    })
}

fn conform(bencher: Bencher, allow: &[&str]) {
    let s = setup();
    let mut options = Options::default();
    options.policy = Policy::with_allowed(&s.doc, allow.iter().copied()).expect("policy");
    let mut plant = Endpoint::new(s.url.clone());
    plant.token = Some(TOKEN.to_owned());
    bencher.bench(|| {
        let report = s
            .runtime
            .block_on(accord_conform::run(&s.doc, &plant, &options, &NoProgress))
            .expect("run");
        assert!(report.passed());
        report
    });
}

/// The default run: read methods only, 5 generated calls and 5 mutants per method.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn pump_plant_read_only(bencher: Bencher) {
    conform(bencher, &[]);
}

/// Every method allowed (13 methods), 5 generated calls and 5 mutants per method.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn pump_plant_everything_allowed(bencher: Bencher) {
    conform(bencher, &["idempotent,write,destructive,undeclared"]);
}
