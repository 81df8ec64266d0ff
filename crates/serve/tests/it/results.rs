//! Where results come from: examples with matching params, else generated, deterministic in
//! stable mode (per request) and in sequence mode (per call number); rpc.describe's verdicts.

use accord_serve::{Mode, Prefer};
use serde_json::json;

use crate::common::{call, local, local_with, pump};

#[tokio::test]
async fn an_example_with_the_same_params_answers_whichever_way_they_are_sent() {
    let server = pump(local()).await;
    let by_name = call(&server, "pump.status", json!({"pump": "P-103"})).await;
    let by_position = call(&server, "pump.status", json!(["P-103"])).await;
    assert_eq!(by_name["result"]["state"], "fault", "{by_name}");
    assert_eq!(by_name, by_position);
    server.shutdown().await;
}

#[tokio::test]
async fn stable_mode_answers_the_same_request_the_same_way() {
    // Drawn values (`--prefer uniform`) show the seeding: the default's static scalars are
    // the same for every request (below).
    let uniform = |seed| local_with(move |c| (c.seed, c.prefer) = (seed, Prefer::UNIFORM));
    let server = pump(uniform(7)).await;
    let a = call(&server, "pump.status", json!({"pump": "P-555"})).await;
    let b = call(&server, "pump.status", json!(["P-555"])).await;
    let other = call(&server, "pump.status", json!({"pump": "P-556"})).await;
    assert!(a["result"].is_object(), "{a}");
    assert_eq!(a, b);
    assert_ne!(a, other, "another request, another generated value");
    server.shutdown().await;
    let again = pump(uniform(7)).await;
    assert_eq!(
        call(&again, "pump.status", json!({"pump": "P-555"})).await,
        a,
        "replayed after a restart"
    );
    again.shutdown().await;
    let reseeded = pump(uniform(8)).await;
    assert_ne!(call(&reseeded, "pump.status", json!({"pump": "P-555"})).await, a);
    reseeded.shutdown().await;
}

#[tokio::test]
async fn the_default_answers_static_values_whatever_the_request_or_seed() {
    let mut answers = Vec::new();
    for seed in [7, 8] {
        let server = pump(local_with(|c| c.seed = seed)).await;
        for pump in ["P-555", "P-556"] {
            let answer = call(&server, "pump.status", json!({"pump": pump})).await;
            let mut result = answer["result"].clone();
            // The one thing a seed still varies in this all-scalar object: an unknown member.
            result.as_object_mut().unwrap().retain(|k, _| !k.starts_with("x-extra"));
            answers.push(result);
        }
        server.shutdown().await;
    }
    assert!(answers.windows(2).all(|w| w[0] == w[1]), "{answers:?}");
    insta::assert_json_snapshot!("static_pump_status", answers[0]);
}

#[tokio::test]
async fn sequence_mode_replays_per_method_after_a_restart() {
    let config = || {
        local_with(|c| {
            c.seed = 3;
            c.mode = Mode::Sequence;
            // Drawn values, so that each call number shows (static scalars would not).
            c.prefer = Prefer::UNIFORM;
        })
    };
    let mut runs = Vec::new();
    for _ in 0..2 {
        let server = pump(config()).await;
        let mut answers = Vec::new();
        for _ in 0..4 {
            // The same params each time (no example has them): only the call number moves.
            answers.push(call(&server, "pump.status", json!({"pump": "P-555"})).await);
        }
        server.shutdown().await;
        runs.push(answers);
    }
    assert_eq!(runs[0], runs[1]);
    assert!(runs[0].windows(2).any(|w| w[0] != w[1]), "a sequence, not one value: {:?}", runs[0]);
}

#[tokio::test]
async fn describe_derives_compatibility_from_the_served_versions() {
    let server = pump(local()).await;
    let answer = call(
        &server,
        "rpc.describe",
        json!({"builtAgainst": {"pump": "2.1.0", "valve": "2.0.0", "tank": "0.4.0", "boiler": "1.0.0"}}),
    )
    .await;
    let mut result = answer["result"].clone();
    assert!(result["contract"]["namespaces"]["pump"].is_object());
    result["contract"] = json!("(the served document)");
    insta::assert_json_snapshot!("describe_full", result);
    server.shutdown().await;
}
