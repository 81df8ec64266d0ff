#![allow(dead_code)]
//! The node as its callers meet it, for the process-level tests (reliability.rs, nodes.rs): a
//! node started as a process, calls over HTTP, the load of four workers under faults, and the
//! invariants every fault test checks afterwards.

use std::collections::{HashMap, HashSet};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// The shortest lease the contract allows; unacked claims come back after it.
pub(crate) const LEASE_S: u64 = 5;

/// The node on a free port with the store `args` name (`--db PATH` or `--postgres URL`); its
/// URL from the first stdout line.
pub(crate) fn start(args: &[&str]) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_work-queue"))
        .args(["--port", "0"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the node starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).expect("a first line");
    let url = line.trim().to_owned();
    assert!(url.starts_with("http://127.0.0.1:"), "{url:?}");
    (child, format!("{url}/"))
}

/// One call; `None` when the node did not answer (killed mid-call, or gone).
pub(crate) async fn call(
    client: &reqwest::Client,
    url: &str,
    method: &str,
    params: Value,
) -> Option<Value> {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    let response = client
        .post(url)
        .header("content-type", "application/json")
        .body(body.to_string())
        .timeout(Duration::from_secs(10))
        .send()
        .await
        .ok()?;
    serde_json::from_str(&response.text().await.ok()?).ok()
}

/// What the workers saw.
#[derive(Default)]
pub(crate) struct Seen {
    /// Enqueues a node acknowledged (answered with an id).
    pub(crate) enqueued: HashSet<String>,
    /// Acks a node acknowledged.
    pub(crate) acked: HashSet<String>,
    /// Every claim: job id to (when, lease token).
    pub(crate) claims: HashMap<String, Vec<(Instant, String)>>,
    /// A job handed out after its ack was acknowledged.
    pub(crate) redelivered: Vec<String>,
    /// Calls answered with an error (the database away): a clear error, not a lost job.
    pub(crate) errors: u64,
    /// Calls a node did not answer (killed mid-call).
    pub(crate) unanswered: u64,
}

/// A worker until `until`: enqueues (even) or claims and acks (odd) on `queue`, at its own node
/// first and at the next one when that does not answer; every third claimed job is left unacked,
/// as a worker that died would. It stops when no node answers.
pub(crate) async fn work(
    urls: Vec<String>,
    queue: &str,
    seen: Arc<Mutex<Seen>>,
    worker: usize,
    until: Instant,
) {
    let client = reqwest::Client::new();
    let mut at = worker % urls.len();
    let ask = async |method: &str, params: Value, at: &mut usize| {
        for _ in 0..urls.len() {
            if let Some(answer) = call(&client, &urls[*at], method, params.clone()).await {
                if answer.get("error").is_some() {
                    seen.lock().unwrap().errors += 1;
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                return Some(answer);
            }
            seen.lock().unwrap().unanswered += 1;
            *at = (*at + 1) % urls.len();
        }
        None
    };
    let mut n = 0u64;
    while Instant::now() < until {
        n += 1;
        if worker.is_multiple_of(2) {
            let params = json!({"queue": queue, "payload": {"worker": worker, "n": n}});
            let Some(answer) = ask("queue.enqueue", params, &mut at).await else { return };
            if let Some(id) = answer["result"]["id"].as_str() {
                seen.lock().unwrap().enqueued.insert(id.to_owned());
            }
        } else {
            let params =
                json!({"queue": queue, "worker": format!("w{worker}"), "lease": LEASE_S, "max": 4});
            let Some(answer) = ask("queue.claim", params, &mut at).await else { return };
            for lease in answer["result"].as_array().cloned().unwrap_or_default() {
                let id = lease["job"]["id"].as_str().unwrap().to_owned();
                let token = lease["token"].as_str().unwrap().to_owned();
                {
                    let mut seen = seen.lock().unwrap();
                    if seen.acked.contains(&id) {
                        seen.redelivered.push(id.clone());
                    }
                    seen.claims
                        .entry(id.clone())
                        .or_default()
                        .push((Instant::now(), token.clone()));
                }
                if n.is_multiple_of(3) {
                    continue;
                }
                let ack = json!({"id": id, "token": token});
                let Some(answer) = ask("queue.ack", ack, &mut at).await else { return };
                if answer["result"]["completedAt"].is_string() {
                    seen.lock().unwrap().acked.insert(id);
                }
            }
        }
    }
}

/// Claims every claimable job of `queue` at `url` (under a long lease); their ids.
pub(crate) async fn drain(url: &str, queue: &str) -> HashSet<String> {
    let client = reqwest::Client::new();
    let mut drained = HashSet::new();
    loop {
        let params = json!({"queue": queue, "worker": "drain", "lease": 3600, "max": 100});
        let answer = call(&client, url, "queue.claim", params).await.expect("an answer");
        let leases = answer["result"].as_array().cloned().unwrap_or_else(|| panic!("{answer}"));
        if leases.is_empty() {
            return drained;
        }
        for lease in leases {
            drained.insert(lease["job"]["id"].as_str().unwrap().to_owned());
        }
    }
}

/// The invariants, from what the workers saw, what the database holds (id to state, read after
/// the nodes are gone) and what the drain claimed once every lease had run out: no
/// acknowledged enqueue lost, no acknowledged completion lost nor handed out again, every job
/// not completed claimable again, never one job under two live leases.
pub(crate) fn check(seen: &Seen, stored: &HashMap<String, String>, drained: &HashSet<String>) {
    assert!(seen.enqueued.len() > 20, "the load enqueued: {}", seen.enqueued.len());
    assert!(!seen.acked.is_empty(), "the load acked");
    let lost: Vec<_> = seen.enqueued.iter().filter(|id| !stored.contains_key(*id)).collect();
    assert!(lost.is_empty(), "acknowledged enqueues lost: {lost:?}");
    // (An ack a node committed but was killed before answering is completed in the database,
    // though the workers never saw it.)
    for id in &seen.acked {
        assert_eq!(stored.get(id).map(String::as_str), Some("completed"), "acked: {id}");
    }
    let again: Vec<_> = drained.iter().filter(|id| seen.acked.contains(*id)).collect();
    assert!(
        again.is_empty() && seen.redelivered.is_empty(),
        "acked jobs delivered again: {again:?} {:?}",
        seen.redelivered
    );
    let stuck: Vec<_> = stored
        .iter()
        .filter(|(id, state)| *state != "completed" && *state != "dead" && !drained.contains(*id))
        .map(|(id, _)| id)
        .collect();
    assert!(stuck.is_empty(), "jobs neither completed nor claimable again: {stuck:?}");
    for (id, claims) in &seen.claims {
        for pair in claims.windows(2) {
            let gap = pair[1].0.duration_since(pair[0].0);
            assert!(
                gap >= Duration::from_secs(LEASE_S) - Duration::from_millis(200),
                "{id} held by two workers at once: claimed twice {gap:?} apart"
            );
        }
    }
}
