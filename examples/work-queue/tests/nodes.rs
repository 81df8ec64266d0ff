//! Many nodes on one PostgreSQL database, as separate processes driven over HTTP and WebSocket:
//! a worker subscribed on one node sees a job enqueued on another; and under load from four
//! workers, a kill -9 of one node and a restart of the PostgreSQL server lose no acknowledged
//! enqueue or completion and never hand one job to two workers at once (the SQLite kill test's
//! invariants, tests/reliability.rs).

#[path = "common/postgres.rs"]
mod test_postgres;

use std::collections::{HashMap, HashSet};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};

/// The shortest lease the contract allows; unacked claims come back after it.
const LEASE_S: u64 = 5;

/// A node on a free port with its jobs in the PostgreSQL database `url`.
fn start(url: &str) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_work-queue"))
        .args(["--port", "0", "--postgres", url])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the node starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).expect("a first line");
    let base = line.trim().to_owned();
    assert!(base.starts_with("http://127.0.0.1:"), "{base:?}");
    (child, format!("{base}/"))
}

/// One call; `None` when the node did not answer at all.
async fn call(client: &reqwest::Client, url: &str, method: &str, params: Value) -> Option<Value> {
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_subscribed_on_one_node_sees_a_job_enqueued_on_another() {
    let db = test_postgres::fresh_database("events").await;
    let (mut a, url_a) = start(&db);
    let (mut b, url_b) = start(&db);
    let ws_url = url_a.replace("http://", "ws://");
    let (mut ws, _) = tokio_tungstenite::connect_async(ws_url.as_str()).await.unwrap();
    let subscribe = json!({"jsonrpc": "2.0", "id": 1, "method": "rpc.subscribe",
        "params": {"event": "queue.jobEnqueued"}});
    ws.send(tokio_tungstenite::tungstenite::Message::text(subscribe.to_string())).await.unwrap();
    let answer = ws.next().await.unwrap().unwrap().into_text().unwrap();
    assert!(serde_json::from_str::<Value>(&answer).unwrap().get("result").is_some(), "{answer}");
    let client = reqwest::Client::new();
    let enqueued = call(&client, &url_b, "queue.enqueue", json!({"queue": "across", "payload": 7}))
        .await
        .expect("an answer");
    let id = enqueued["result"]["id"].as_str().unwrap_or_else(|| panic!("{enqueued}")).to_owned();
    let seen = tokio::time::timeout(Duration::from_secs(5), async {
        while let Some(Ok(message)) = ws.next().await {
            let text = message.into_text().unwrap_or_default();
            if text.contains(&id) {
                return text;
            }
        }
        panic!("the WebSocket closed before the event came");
    })
    .await
    .expect("node A sent node B's jobEnqueued within 5 s");
    assert!(seen.contains("queue.jobEnqueued"), "{seen}");
    // And the job itself is A's to hand out.
    let claimed =
        call(&client, &url_a, "queue.claim", json!({"queue": "across", "worker": "on-a"}))
            .await
            .unwrap();
    assert_eq!(claimed["result"][0]["job"]["id"], json!(id), "{claimed}");
    for node in [&mut a, &mut b] {
        node.kill().unwrap();
        node.wait().unwrap();
    }
}

#[derive(Default)]
struct Seen {
    enqueued: HashSet<String>,
    acked: HashSet<String>,
    claims: HashMap<String, Vec<(Instant, String)>>,
    redelivered: Vec<String>,
    /// Calls answered with an error (the database away): a clear error, not a lost job.
    store_errors: u64,
    /// Calls no node answered (the node killed mid-call).
    unanswered: u64,
}

/// A worker: enqueues (even) or claims and acks (odd) on its own node, and on the other one
/// when its own does not answer; every third claimed job is left unacked.
async fn work(urls: [String; 2], seen: Arc<Mutex<Seen>>, worker: usize, until: Instant) {
    let client = reqwest::Client::new();
    let mut n = 0u64;
    let mut at = worker % 2;
    let ask = async |method: &str, params: Value, at: &mut usize| {
        for _ in 0..2 {
            if let Some(answer) = call(&client, &urls[*at], method, params.clone()).await {
                if answer.get("error").is_some() {
                    seen.lock().unwrap().store_errors += 1;
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                return Some(answer);
            }
            seen.lock().unwrap().unanswered += 1;
            *at = 1 - *at;
        }
        None
    };
    while Instant::now() < until {
        n += 1;
        if worker.is_multiple_of(2) {
            let params = json!({"queue": "faults", "payload": {"worker": worker, "n": n}});
            if let Some(answer) = ask("queue.enqueue", params, &mut at).await
                && let Some(id) = answer["result"]["id"].as_str()
            {
                seen.lock().unwrap().enqueued.insert(id.to_owned());
            }
        } else {
            let params = json!({"queue": "faults", "worker": format!("w{worker}"), "lease": LEASE_S, "max": 4});
            let Some(answer) = ask("queue.claim", params, &mut at).await else { continue };
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
                if let Some(answer) = ask("queue.ack", ack, &mut at).await
                    && answer["result"]["completedAt"].is_string()
                {
                    seen.lock().unwrap().acked.insert(id);
                }
            }
        }
    }
}

/// `.ci/postgres` with `args`; its stdout.
fn cluster(args: &[&str]) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.ci/postgres");
    let out = Command::new("bash").arg(&script).args(args).output().expect("bash runs");
    assert!(
        out.status.success(),
        "bash .ci/postgres {args:?} failed (needs Debian's postgresql package: apt-get install \
         postgresql): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_nodes_survive_a_kill_9_and_a_postgres_restart_losing_nothing() {
    // Its own cluster: restarting the shared test server would fail the tests running beside.
    let exports = cluster(&["start"]);
    let var = |name: &str| {
        exports.lines().find_map(|l| l.strip_prefix(&format!("export {name}="))).unwrap().to_owned()
    };
    let (url, dir) = (var("ACCORD_TEST_POSTGRES_URL"), var("ACCORD_TEST_POSTGRES_DIR"));
    struct Stop(String);
    impl Drop for Stop {
        fn drop(&mut self) {
            let _ = cluster(&["stop", &self.0]);
        }
    }
    let _stop = Stop(dir.clone());
    let (mut a, url_a) = start(&url);
    let (mut b, url_b) = start(&url);
    let seen = Arc::new(Mutex::new(Seen::default()));
    let started = Instant::now();
    let until = started + Duration::from_secs(6);
    let workers: Vec<_> = (0..4)
        .map(|w| tokio::spawn(work([url_a.clone(), url_b.clone()], seen.clone(), w, until)))
        .collect();
    // Node A dies at 1.5 s; the server restarts at 3 s; B serves throughout.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    a.kill().expect("SIGKILL");
    a.wait().unwrap();
    let before_restart = seen.lock().unwrap().enqueued.len();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let restart = tokio::task::spawn_blocking({
        let dir = dir.clone();
        move || cluster(&["restart", &dir])
    });
    restart.await.unwrap();
    let (mut a2, url_a2) = start(&url);
    for w in workers {
        w.await.unwrap();
    }
    let after_restart = seen.lock().unwrap().enqueued.len();
    // Wait out every lease, then drain through the restarted node.
    tokio::time::sleep(Duration::from_secs(LEASE_S + 1)).await;
    let client = reqwest::Client::new();
    let mut drained = HashSet::new();
    loop {
        let params = json!({"queue": "faults", "worker": "drain", "lease": 3600, "max": 100});
        let answer = call(&client, &url_a2, "queue.claim", params).await.expect("an answer");
        let leases = answer["result"].as_array().cloned().unwrap_or_else(|| panic!("{answer}"));
        if leases.is_empty() {
            break;
        }
        for lease in leases {
            drained.insert(lease["job"]["id"].as_str().unwrap().to_owned());
        }
    }
    for node in [&mut a2, &mut b] {
        node.kill().unwrap();
        node.wait().unwrap();
    }
    let stored: HashMap<String, String> = {
        let (client, connection) =
            tokio_postgres::connect(&url, tokio_postgres::NoTls).await.unwrap();
        let driver = tokio::spawn(connection);
        let rows = client.query("SELECT id, state FROM jobs", &[]).await.unwrap();
        drop(client);
        let _ = driver.await;
        rows.iter().map(|r| (r.get(0), r.get(1))).collect()
    };
    let seen = seen.lock().unwrap();
    println!(
        "two nodes, one PostgreSQL, four workers, 6 s, node A killed at 1.5 s, server restarted \
         at 3 s: {} enqueues acknowledged ({before_restart} by the kill, \
         {after_restart} by the end), {} acks acknowledged, {} claims, {} jobs stored, {} drained \
         after the leases ran out, {} calls answered with an error during the faults, {} calls \
         no node answered",
        seen.enqueued.len(),
        seen.acked.len(),
        seen.claims.values().map(Vec::len).sum::<usize>(),
        stored.len(),
        drained.len(),
        seen.store_errors,
        seen.unanswered,
    );
    assert!(seen.enqueued.len() > 50, "the load enqueued: {}", seen.enqueued.len());
    assert!(after_restart > before_restart, "enqueues went on after the faults");
    assert!(!seen.acked.is_empty(), "the load acked");
    let lost: Vec<_> = seen.enqueued.iter().filter(|id| !stored.contains_key(*id)).collect();
    assert!(lost.is_empty(), "acknowledged enqueues lost: {lost:?}");
    for id in &seen.acked {
        assert_eq!(
            stored.get(id).map(String::as_str),
            Some("completed"),
            "acked, not completed: {id}"
        );
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
