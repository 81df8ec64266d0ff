//! A multi-file OpenRPC document (fixtures/import/multi-file, two versions): the methods' params,
//! results, errors and examples are `$ref`s into sibling files' components, which refer to each
//! other in turn, and one ref names a file that does not exist. The import follows every local
//! ref (one named type per referenced component), reports the missing one as a loss naming the
//! path tried instead of aborting; its subscription API (`tank_subscribe`, `tank_unsubscribe`
//! and the notification `tank_levelChanged`) becomes an event with the pubsub wire; and
//! `accord diff` between the two versions reports only what really changed: an error added to
//! `tank_drain`, `Rate`'s maximum raised from 50 to 80.

use serde_json::Value;

use crate::common::*;

fn import(version: &str, dir: &std::path::Path) -> (std::path::PathBuf, Value) {
    let out_file = dir.join(format!("{version}.types.json"));
    let report_file = dir.join(format!("{version}.report.json"));
    let out = accord(&[
        "import",
        "openrpc",
        &format!("fixtures/import/multi-file/{version}/openrpc.json"),
        "--out",
        out_file.to_str().unwrap(),
        "--report",
        report_file.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "no abort: {}", stderr(&out));
    let report = serde_json::from_str(&std::fs::read_to_string(&report_file).unwrap()).unwrap();
    (out_file, report)
}

#[test]
fn a_multi_file_openrpc_imports_whole_and_diffs_only_its_real_changes() {
    let dir = std::env::temp_dir().join(format!("accord-import-multi-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (v1, report) = import("v1", &dir);
    let contract: Value = serde_json::from_str(&std::fs::read_to_string(&v1).unwrap()).unwrap();
    let tank = &contract["namespaces"]["tank"];
    let types: Vec<&String> = tank["types"].as_object().unwrap().keys().collect();
    assert_eq!(types, ["TankId", "Level", "Rate", "Reading"], "one named type per component");
    assert_eq!(tank["methods"]["level"]["params"][0]["type"]["name"], "TankId");
    assert_eq!(tank["methods"]["level"]["errors"][0]["code"], 4001);
    assert_eq!(tank["methods"]["level"]["examples"][0]["params"][0], "T1");
    assert_eq!(tank["methods"]["drain"]["errors"].as_array().unwrap().len(), 2);
    // The subscription API: the notification is an event, the pair is the pubsub wire.
    let methods: Vec<&String> = tank["methods"].as_object().unwrap().keys().collect();
    assert_eq!(methods, ["level", "drain", "history"], "no subscribe, unsubscribe or notification");
    assert_eq!(tank["wire"]["pubsub"], serde_json::json!({}));
    assert_eq!(
        tank["events"]["levelChanged"]["payload"],
        serde_json::json!({"kind": "ref", "name": "Reading"})
    );
    let notes: Vec<&str> =
        report["notes"].as_array().unwrap().iter().map(|n| n["kind"].as_str().unwrap()).collect();
    assert_eq!(notes, ["subscription"; 3], "the rule is reported for each method it took");
    // The one ref into a missing file: a loss naming the path tried, never an abort.
    let losses = report["losses"].as_array().unwrap();
    assert!(
        losses.iter().all(|l| l["kind"] == "unresolved-ref"
            && l["pointer"].as_str().unwrap().starts_with("/methods/2/errors/0")),
        "{losses:?}"
    );
    assert!(losses.iter().any(|l| l["detail"].as_str().unwrap().contains("shared/missing.json: ")));
    let check = accord(&["check", v1.to_str().unwrap()]);
    assert_eq!(check.status.code(), Some(0), "{}{}", stdout(&check), stderr(&check));

    let (v2, _) = import("v2", &dir);
    let diff = accord(&["diff", v1.to_str().unwrap(), v2.to_str().unwrap()]);
    let text = stdout(&diff);
    let findings: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("[") && l.contains("]"))
        .map(|l| l.split_once(": ").map_or(l, |(_, f)| f))
        .collect();
    let expected = [
        "risky[error-code-added] tank.drain.errors.4003",
        "safe[bound-loosened] tank.types.Rate",
        "breaking[bound-loosened] tank.types.Rate",
    ];
    assert_eq!(findings.len(), expected.len(), "only the real changes: {text}");
    for (got, want) in findings.iter().zip(expected) {
        assert!(got.starts_with(want), "{got} is not {want}:\n{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
