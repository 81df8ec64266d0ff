//! The namespace-less jsonrpsee pattern end to end (issue 32): `accord extract` of
//! `examples/node-rpc`, whose traits are the extract fixture `rpc-wire-names` (six traits
//! without a `namespace`, full wire names, aliases, seven subscriptions, two of them taking
//! arguments), then `accord conform` of that contract against the crate's own server, plain
//! jsonrpsee started in-process on 127.0.0.1:0: every method and every subscription exercised,
//! zero failures.

use serde_json::Value;

use crate::common::*;

/// What the fixture declares: every one must be extracted and exercised.
const METHODS: usize = 48;
const EVENTS: usize = 7;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_node_rpc_example_conforms_to_the_contract_extracted_from_it() {
    let dir = std::env::temp_dir().join(format!("accord-node-rpc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let contract = dir.join("node-rpc.types.json");
    let contract = contract.to_str().unwrap();
    let out = accord(&["extract", "--source", "examples/node-rpc", "--out", contract, "--offline"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(contract).unwrap()).unwrap();
    let namespaces = doc["namespaces"].as_object().unwrap();
    let count = |member: &str| -> usize {
        namespaces.values().map(|ns| ns[member].as_object().map_or(0, |m| m.len())).sum()
    };
    assert_eq!((count("methods"), count("events")), (METHODS, EVENTS), "{doc:#}");

    let (addr, handle) = node_rpc::serve(([127, 0, 0, 1], 0).into()).await.expect("serve");
    let report = conform_passes(contract, &format!("http://{addr}/"), &[]).await;
    handle.stop().expect("stop");
    handle.stopped().await;
    std::fs::remove_dir_all(&dir).ok();

    // Every method called and answered with results (conform_passes holds each to `passed`).
    let methods = report["methods"].as_array().unwrap();
    assert_eq!(methods.len(), METHODS, "{methods:#?}");
    for m in methods {
        assert!(m["answers"]["results"].as_u64().unwrap_or(0) >= 6, "{m:#}");
    }
    let checks = report["checks"].as_array().unwrap();
    // Every subscription made, its notifications validated, and unsubscribed.
    let events: Vec<&Value> = checks.iter().filter(|c| c["phase"] == "events").collect();
    assert_eq!(events.len(), EVENTS, "{events:#?}");
    assert!(events.iter().all(|c| c["outcome"] == "passed"), "{events:#?}");
    let notes: Vec<&str> =
        report["notes"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    let validated =
        notes.iter().filter(|n| n.contains("notification(s) validated, subscribed with")).count();
    assert_eq!(validated, EVENTS, "{notes:#?}");
    // The subscriptions that take arguments got them (the plant refuses a subscribe without).
    for subscribe in ["author_submitAndWatchExtrinsic", "chainHead_v1_follow"] {
        assert!(
            notes
                .iter()
                .any(|n| n.ends_with(&format!("subscribed with {subscribe}"))
                    && !n.contains(": 0 `")),
            "{subscribe}: {notes:#?}"
        );
    }
    // jsonrpsee's leniencies are tolerated, with notes, not failures.
    assert!(
        notes.iter().any(|n| n.contains("read as null, which their type admits")),
        "{notes:#?}"
    );
    assert_eq!(report["totals"]["failed"], 0);
}
