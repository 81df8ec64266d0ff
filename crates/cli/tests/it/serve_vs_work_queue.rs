//! The same calls against `accord serve` of the work-queue contract and against the real node
//! (examples/work-queue, behind accord-plant): their answers validate identically. Protocol
//! answers (describe, invalid params, a missing method, a subscription over HTTP) are the same
//! bytes' worth of JSON; a contract call gets, from each, an answer the contract admits (a
//! result of the method's type, or one of its declared errors with valid data).
//!
//! Both stand on accord-plant's one answer engine, so the protocol answers (describe, invalid
//! params, a missing method, a subscription over HTTP) agree by construction as far as the
//! engine goes; what can still differ, and what this test catches, is what each side hands the
//! engine (its contract, limits, credential) and what each transport adds around it (statuses,
//! the node's jsonrpsee server on the real side). The contract-call comparison is not by
//! construction at all: the fake generates, the node computes.

use crate::common::*;
use accord_schema_model::Document;
use accord_validate::{Contract, Target};
use serde_json::{Value, json};

const WQ: &str = "fixtures/contracts/work-queue.types.json";

/// What the contract says of one answer.
#[derive(Debug, PartialEq)]
enum Verdict {
    /// A protocol error (not a declared one), compared whole.
    Protocol(Value),
    /// A result of the method's type, or a declared error with valid data.
    Admitted,
    /// What the contract does not admit, and why.
    Broken(String),
}

fn verdict(contract: &Contract, doc: &Document, method: &str, answer: &Value) -> Verdict {
    let (namespace, name) = method.split_once('.').unwrap_or(("", method));
    let declared = doc
        .namespaces
        .as_ref()
        .and_then(|n| n.get(namespace))
        .and_then(|n| n.methods.as_ref())
        .and_then(|m| m.get(name));
    if let Some(result) = answer.get("result") {
        let target = Target::Result { namespace: namespace.into(), method: name.into() };
        return match contract.validator(&target).map(|v| v.validate(result)) {
            Ok(Ok(())) if declared.is_some() => Verdict::Admitted,
            Ok(Ok(())) => Verdict::Broken("a result of no method".into()),
            Ok(Err(errors)) => Verdict::Broken(errors[0].to_string()),
            Err(_) => Verdict::Protocol(answer["result"].clone()),
        };
    }
    let error = &answer["error"];
    let code = error["code"].as_i64().unwrap_or(0);
    let Some(found) = declared.and_then(|m| m.errors.iter().flatten().find(|e| e.code == code))
    else {
        return Verdict::Protocol(error.clone());
    };
    if error["message"] != found.message.as_str() {
        return Verdict::Broken(format!("message {}", error["message"]));
    }
    if found.data.is_none() {
        return Verdict::Admitted;
    }
    let target = Target::ErrorData { namespace: namespace.into(), method: name.into(), code };
    match contract.validator(&target).unwrap().validate(error.get("data").unwrap_or(&Value::Null)) {
        Ok(()) => Verdict::Admitted,
        Err(errors) => Verdict::Broken(errors[0].to_string()),
    }
}

async fn post(url: &str, body: &Value) -> Value {
    let client = reqwest::Client::new();
    let response = client
        .post(url)
        .header("content-type", "application/json")
        .body(body.to_string())
        .send()
        .await
        .expect("an answer");
    serde_json::from_str(&response.text().await.unwrap()).expect("JSON")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_and_the_work_queue_node_answer_the_same_calls_alike() {
    let text = std::fs::read_to_string(root().join(WQ)).unwrap();
    let doc = Document::parse(&text).unwrap();
    let contract = Contract::compile(&doc).unwrap();
    let mut config = accord_serve::Config::default();
    config.addr = ([127, 0, 0, 1], 0).into();
    let fake = accord_serve::start(doc.clone(), config).await.expect("serve");
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("serve-vs-work-queue-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let plant = work_queue::plant(work_queue::Config::default()).unwrap();
    let (addr, node) =
        work_queue::serve(([127, 0, 0, 1], 0).into(), &dir.join("q.db"), plant.clone())
            .await
            .expect("the node");
    let urls = [fake.url(), format!("http://{addr}/")];

    let uuid = "0c4e8a2f-6b1d-4f3a-8e57-d9b1c3a5e702";
    let calls = [
        ("rpc.describe", json!({})),
        ("rpc.describe", json!({"builtAgainst": {"queue": "1.2.0", "jobs": "1.0.0"}})),
        ("rpc.describe", json!({"builtAgainst": {"queue": "one"}})),
        ("queue.enqueue", json!({"queue": "thumbnails", "payload": {"image": "cat.jpg"}})),
        ("queue.enqueue", json!(["mail.outbound", "reminder", 8, 900000, 3])),
        ("queue.enqueue", json!({"queue": "thumbnails", "payload": 1, "priority": 12})),
        ("queue.enqueue", json!({"queue": "Thumbnails", "payload": 1, "extra": true})),
        ("queue.enqueue", json!({"payload": 1})),
        ("queue.claim", json!({"queue": "thumbnails", "worker": "w1", "lease": 30, "max": 2})),
        ("queue.claim", json!({"queue": "thumbnails", "worker": "w1", "lease": 2})),
        ("queue.ack", json!({"id": uuid, "token": "lt_5f0c9a7e31b2"})),
        ("queue.ack", json!({"id": "not-a-uuid", "token": "lt_5f0c9a7e31b2"})),
        (
            "queue.nack",
            json!({"id": uuid, "token": "lt_5f0c9a7e31b2", "requeue": false, "error": "boom"}),
        ),
        ("queue.nack", json!({"id": uuid, "token": "lt_5f0c9a7e31b2", "delay": -1})),
        ("queue.stats", json!({})),
        ("queue.stats", json!({"queue": "thumbnails"})),
        ("queue.purge", json!({})),
        ("rpc.subscribe", json!({"event": "queue.jobEnqueued"})),
        ("rpc.unsubscribe", json!({"subscription": "x"})),
    ];
    for (id, (method, params)) in calls.iter().enumerate() {
        let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let [from_serve, from_node] = [post(&urls[0], &body).await, post(&urls[1], &body).await];
        let [a, b] =
            [&from_serve, &from_node].map(|answer| verdict(&contract, &doc, method, answer));
        assert!(!matches!(a, Verdict::Broken(_)), "serve broke the contract on {body}: {a:?}");
        assert!(!matches!(b, Verdict::Broken(_)), "the node broke the contract on {body}: {b:?}");
        assert_eq!(a, b, "{body}\nserve: {from_serve}\nnode:  {from_node}");
    }
    // Batches and envelopes too: accord-wire reads both.
    for raw in [
        r#"[{"jsonrpc":"2.0","id":1,"method":"queue.stats","params":{"queue":"Bad Name"}},{"jsonrpc":"2.0","method":"queue.stats"}]"#,
        r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"queue.stats"}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"queue.stats","params":"all"}"#,
        r#"[]"#,
        r#"{"jsonrpc":"2.0","id":1"#,
    ] {
        let client = reqwest::Client::new();
        let mut answers = Vec::new();
        for url in &urls {
            let response = client
                .post(url)
                .header("content-type", "application/json")
                .body(raw)
                .send()
                .await
                .unwrap();
            answers.push((response.status().as_u16(), response.text().await.unwrap()));
        }
        assert_eq!(answers[0], answers[1], "{raw}");
    }
    assert_eq!(plant.violations(), 0, "{:#?}", plant.recent_violations());
    node.stop().unwrap();
    fake.shutdown().await;
}
