//! A real foreign plant end to end: the boiler plant (examples/boiler-plant, a plain jsonrpsee
//! server on jsonrpsee's own wire: `boiler_status` names, no describe method, jsonrpsee's codes,
//! a per-subscription telemetry stream) started in-process on 127.0.0.1:0, and `accord conform`
//! run against it with its extracted contract and every semantics allowed.

use crate::common::*;

const BOILER: &str = "fixtures/contracts/boiler-plant.types.json";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_jsonrpsee_boiler_plant_conforms_to_its_extracted_contract() {
    let (addr, handle) = boiler_plant::serve(([127, 0, 0, 1], 0).into()).await.expect("serve");
    let url = format!("http://{addr}/");
    let report = conform_passes(BOILER, &url, &[]).await;

    // The plan follows the wire: no describe method, so no describe phase.
    let plan = &report["plan"];
    assert_eq!(plan["protocol"]["describe"], serde_json::Value::Null, "{plan:#}");
    let describe: Vec<&serde_json::Value> =
        report["checks"].as_array().unwrap().iter().filter(|c| c["phase"] == "describe").collect();
    assert!(describe.iter().all(|c| c["outcome"] == "skipped"), "{describe:#?}");

    // The plan follows the wire: calls and probes by wire names, no depth probe.
    assert_eq!(plan["protocol"]["probe"], "boiler_status", "{plan:#}");
    assert_eq!(plan["protocol"]["depthLimit"], serde_json::Value::Null, "{plan:#}");
    assert_eq!(plan["protocol"]["accord"], false, "{plan:#}");

    // The telemetry subscription was made the jsonrpsee way and its frames validated.
    let events = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["phase"] == "events" && c["subject"] == "boiler.telemetry")
        .expect("the telemetry event was checked");
    assert_eq!(events["outcome"], "passed", "{events:#}");
    let notes: Vec<&str> =
        report["notes"].as_array().expect("notes").iter().filter_map(|n| n.as_str()).collect();
    let validated = notes
        .iter()
        .find_map(|n| {
            n.strip_prefix("boiler.telemetry: ")?
                .strip_suffix(
                    " `boiler_telemetry` notification(s) validated, subscribed with boiler_subscribeTelemetry",
                )?
                .parse::<u32>()
                .ok()
        })
        .unwrap_or_else(|| panic!("a note on the telemetry frames: {notes:?}"));
    assert!(validated >= 6, "at least --calls frames were validated: {notes:?}");

    handle.stop().expect("stop");
    handle.stopped().await;
}
