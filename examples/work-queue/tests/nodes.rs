//! Many nodes on one PostgreSQL database, as separate processes driven over HTTP and WebSocket:
//! a worker subscribed on one node sees a job enqueued on another; and under load from four
//! workers, a kill -9 of one node and a restart of the PostgreSQL server lose no acknowledged
//! enqueue or completion and never hand one job to two workers at once (the SQLite kill test's
//! invariants, tests/reliability.rs).

mod common {
    pub(crate) mod node;
    pub(crate) mod postgres;
}
use common::node::{self, LEASE_S, Seen, call};
use common::postgres as test_postgres;

use std::collections::HashMap;
use std::path::Path;
use std::process::{Child, Command};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};

/// A node on a free port with its jobs in the PostgreSQL database `url`.
fn start(url: &str) -> (Child, String) {
    node::start(&["--postgres", url])
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
    for child in [&mut a, &mut b] {
        child.kill().unwrap();
        child.wait().unwrap();
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
        .map(|w| {
            let urls = vec![url_a.clone(), url_b.clone()];
            tokio::spawn(node::work(urls, "faults", seen.clone(), w, until))
        })
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
    let drained = node::drain(&url_a2, "faults").await;
    for child in [&mut a2, &mut b] {
        child.kill().unwrap();
        child.wait().unwrap();
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
        seen.errors,
        seen.unanswered,
    );
    assert!(seen.enqueued.len() > 50, "the load enqueued: {}", seen.enqueued.len());
    assert!(after_restart > before_restart, "enqueues went on after the faults");
    node::check(&seen, &stored, &drained);
}
