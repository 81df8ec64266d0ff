//! A costly `pattern` (issue 28): `(a{100}){100}x` is about 10,000 NFA states, and before the
//! pattern cost bound a 200 KB string against it took 45 s while every other call waited.
//! Now a string past the bound is refused with the rule `pattern-cost` without being matched,
//! a costly match within the bound runs off the event loop, and an unrelated call on another
//! connection is answered meanwhile.

use std::time::{Duration, Instant};

use accord_schema_model::Document;
use accord_serve::Server;
use serde_json::{Value, json};

use crate::common::{call, local};

/// The most any step waits for the server.
const BOUND: Duration = Duration::from_secs(10);

/// The latency issue 28 asks of the unrelated call while the costly ones run.
const PING: Duration = Duration::from_millis(100);

async fn plant() -> Server {
    let doc = json!({"schema": 1, "namespaces": {"h": {"version": "1.0.0", "methods": {
        "check": {"semantics": "read",
            "params": [{"name": "s", "type": {"kind": "string", "pattern": "(a{100}){100}x"}}],
            "result": {"kind": "boolean"}},
        "ping": {"semantics": "read", "params": [], "result": {"kind": "boolean"}}}}}});
    accord_serve::start(Document::from_value(doc).unwrap(), local()).await.unwrap()
}

/// The rules of a `-32602` answer's errors.
fn rules(body: &Value) -> Vec<String> {
    assert_eq!(body["error"]["code"], -32602, "{body}");
    let errors = body["error"]["data"]["errors"].as_array().unwrap_or_else(|| panic!("{body}"));
    errors.iter().map(|e| e["rule"].as_str().unwrap_or_default().to_owned()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_costly_pattern_is_refused_and_a_ping_is_answered_meanwhile() {
    let server = plant().await;
    // A first ping, so that the measured one does not pay for the plant's warm-up.
    assert!(call(&server, "h.ping", json!([])).await["result"].is_boolean());
    let started = Instant::now();
    // Two 200 KB strings (the probe of issue 28), and two strings within the bound that make
    // the matcher work (they end in the `x` the pattern needs, so no prefilter skips them).
    let huge = "a".repeat(200_000);
    let within = format!("{}x", "a".repeat(900));
    let costly: Vec<_> = [huge.clone(), huge, within.clone(), within]
        .into_iter()
        .map(|s| {
            let url = server.url();
            tokio::spawn(async move {
                let body = json!({"jsonrpc": "2.0", "id": 1, "method": "h.check", "params": [s]});
                let reply = reqwest::Client::new()
                    .post(url)
                    .header("content-type", "application/json")
                    .body(body.to_string())
                    .send()
                    .await
                    .unwrap();
                let answer: Value = serde_json::from_str(&reply.text().await.unwrap()).unwrap();
                (answer, started.elapsed())
            })
        })
        .collect();
    // The ping, on its own connection, while they run.
    tokio::time::sleep(Duration::from_millis(20)).await;
    let sent = Instant::now();
    let ping = tokio::time::timeout(BOUND, call(&server, "h.ping", json!([]))).await.unwrap();
    let latency = sent.elapsed();
    assert!(ping["result"].is_boolean(), "{ping}");
    assert!(latency < PING, "the ping waited {latency:?} behind the costly calls");
    for (i, task) in costly.into_iter().enumerate() {
        let (answer, took) = tokio::time::timeout(BOUND, task).await.unwrap().unwrap();
        if i < 2 {
            assert_eq!(rules(&answer), ["pattern-cost"], "{answer}");
            let message = answer["error"]["data"]["errors"][0]["expected"].as_str().unwrap();
            assert!(message.contains("100000000 state-bytes"), "{message}");
        } else {
            // Matched (no match: 900 `a`s are not a multiple of 100 copies of 100).
            assert_eq!(rules(&answer), ["pattern"], "{answer}");
        }
        assert!(took < BOUND, "{took:?}");
    }
    server.shutdown().await;
}
