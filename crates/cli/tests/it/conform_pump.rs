//! The example pump plant end to end: examples/pump-plant (a jsonrpsee server behind
//! accord-plant: the HTTP layer, the RPC middleware and accord's `rpc.subscribe`) started
//! in-process on 127.0.0.1:0, and `accord conform` run against it with its committed contract
//! and every semantics allowed: zero failures, on accord's own wire.

use crate::common::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pump_plant_behind_accord_plant_conforms_to_its_contract() {
    let plant = pump_plant::plant(pump_plant::Config::default()).expect("the committed contract");
    let (addr, handle) =
        pump_plant::serve(([127, 0, 0, 1], 0).into(), plant.clone()).await.expect("serve");
    let url = format!("http://{addr}/");
    let report = conform_passes(PUMP, &url, &[]).await;

    // accord's own wire: describe answered from the committed contract, every phase run.
    let plan = &report["plan"];
    assert_eq!(plan["protocol"]["describe"], "rpc.describe", "{plan:#}");
    assert_eq!(plan["protocol"]["accord"], true, "{plan:#}");
    let checks = report["checks"].as_array().unwrap();
    for phase in ["describe", "positive", "negative", "envelope"] {
        let passed = checks.iter().filter(|c| c["phase"] == phase && c["outcome"] == "passed");
        assert!(passed.count() > 0, "phase {phase} passed checks");
    }
    // The plant's own count: no answer broke the contract on the way out.
    assert_eq!(plant.violations(), 0, "{:#?}", plant.recent_violations());

    handle.stop().expect("stop");
    handle.stopped().await;
}
