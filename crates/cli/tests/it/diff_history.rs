//! `accord diff` on a real spec's release history: five releases of starknet-specs
//! (fixtures/import/starknet-history, MIT), a multi-file OpenRPC spec whose trace, write,
//! WebSocket and executables documents refer into the main API document. Each document of each
//! release is imported (`--ref-base` the release folder, as the spec's tooling resolves its refs)
//! and diffed against the same document of the release before. Every finding is listed in
//! `verdicts.txt` with a verdict checked by hand against the documents and the upstream commit
//! that made the change; this test keeps the two equal, so a finding that appears, disappears or
//! changes level is seen, and it counts the false alarms among breaking findings.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;

use crate::common::*;

const HISTORY: &str = "fixtures/import/starknet-history";
const RELEASES: [&str; 5] = ["v0.9.0", "v0.10.0", "v0.10.1", "v0.10.2", "v0.10.3"];
const DOCUMENTS: [&str; 5] = [
    "starknet_api_openrpc",
    "starknet_trace_api_openrpc",
    "starknet_write_api",
    "starknet_ws_api",
    "starknet_executables",
];

fn import(dir: &Path, release: &str, document: &str) -> String {
    let out = dir.join(format!("{release}-{document}.types.json"));
    let report = dir.join(format!("{release}-{document}.report.json"));
    let source = format!("{HISTORY}/{release}/api/{document}.json");
    let base = format!("{HISTORY}/{release}");
    let run = accord(&[
        "import",
        "openrpc",
        &source,
        "--separator",
        "_",
        "--ref-base",
        &base,
        "--out",
        out.to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(0), "{source}: {}", stderr(&run));
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let unfollowed: Vec<&Value> = report["losses"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["kind"] == "unresolved-ref" || l["kind"] == "external-ref")
        .collect();
    assert!(unfollowed.is_empty(), "{source}: every cross-file ref is followed: {unfollowed:?}");
    // A component that is only a ref to the main document's component of the same name
    // (`"BLOCK_ID": {"$ref": "./api/starknet_api_openrpc.json#/components/schemas/BLOCK_ID"}`) is
    // that one type, under one name: no `BLOCK_ID_starknet_api_openrpc` beside it.
    let contract = std::fs::read_to_string(&out).unwrap();
    assert!(!contract.contains("_starknet_api_openrpc\""), "{source}: a type named twice");
    if document == "starknet_ws_api" {
        // The per-subscription style: notifications are events the node sends, with their own
        // route; the subscribe and unsubscribe methods are that route, not contract methods.
        let contract: Value = serde_json::from_str(&contract).unwrap();
        let ns = &contract["namespaces"]["starknet"];
        let methods = ns["methods"].as_object().map_or(0, |m| m.len());
        assert_eq!(methods, 0, "{source}: {}", ns["methods"]);
        assert_eq!(
            ns["wire"]["events"]["subscriptionEvents"],
            serde_json::json!({
                "subscribe": "starknet_subscribeEvents",
                "unsubscribe": "starknet_unsubscribe",
                "notification": "starknet_subscriptionEvents"
            }),
            "{source}"
        );
        assert!(
            ns["events"]["subscriptionEvents"]["payload"]["fields"]["from_address"].is_object()
        );
    }
    out.to_str().unwrap().to_owned()
}

#[test]
fn every_finding_of_the_starknet_release_history_has_its_hand_checked_verdict() {
    let dir = std::env::temp_dir().join(format!("accord-history-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut found = BTreeSet::new();
    for pair in RELEASES.windows(2) {
        for document in DOCUMENTS {
            let old = import(&dir, pair[0], document);
            let new = import(&dir, pair[1], document);
            let run = accord(&["diff", &old, &new, "--format", "json"]);
            assert!(matches!(run.status.code(), Some(0 | 1)), "{}", stderr(&run));
            let report: Value = serde_json::from_str(&stdout(&run)).unwrap();
            for f in report["findings"].as_array().unwrap() {
                found.insert(format!(
                    "{}..{} {document} {} {}[{}] {}",
                    pair[0],
                    pair[1],
                    f["pairing"].as_str().unwrap(),
                    f["level"].as_str().unwrap(),
                    f["rule"].as_str().unwrap(),
                    f["path"].as_str().unwrap()
                ));
            }
        }
    }
    let text = std::fs::read_to_string(root().join(HISTORY).join("verdicts.txt")).unwrap();
    let mut listed = BTreeSet::new();
    let mut false_breaking = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let parts: Vec<&str> = line.split(" | ").collect();
        let [key, verdict, commit, why] = parts[..] else {
            panic!("a verdict line is `FINDING | VERDICT | COMMIT | WHY`: {line}");
        };
        assert!(matches!(verdict, "true" | "false"), "{line}");
        assert!(commit.len() == 7 && commit.chars().all(|c| c.is_ascii_hexdigit()), "{line}");
        assert!(why.len() > 20, "each verdict says why: {line}");
        if verdict == "false" && key.contains(" breaking[") {
            false_breaking.push(key.to_owned());
        }
        assert!(listed.insert(key.to_owned()), "listed twice: {key}");
    }
    let unreviewed: Vec<&String> = found.difference(&listed).collect();
    let gone: Vec<&String> = listed.difference(&found).collect();
    assert!(
        unreviewed.is_empty() && gone.is_empty(),
        "findings without a verdict: {unreviewed:#?}\nverdicts of findings no longer given: {gone:#?}"
    );
    assert!(false_breaking.is_empty(), "false breaking alarms: {false_breaking:#?}");
    std::fs::remove_dir_all(&dir).ok();
}
