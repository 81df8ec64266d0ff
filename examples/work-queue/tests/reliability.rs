//! The node under kill -9: driven over HTTP from this process, killed (SIGKILL) at random
//! points under load and restarted on the same database, a bounded number of times. Checked:
//! no acknowledged enqueue is lost, no acked job is delivered again, a job claimed and never
//! acked becomes claimable again once its lease has run out, two claimers never hold one job
//! at once; a read-only database answers with an error instead of acknowledging a job, and one
//! that would need a migration is refused at start; SIGTERM under load answers every call in
//! flight before the node exits.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::process::{Child, Command};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::json;

mod common {
    pub(crate) mod node;
}
use common::node::{self, LEASE_S, Seen, call};

/// Kill rounds: each runs the node under load for a random 150..650 ms, then kills it.
const ROUNDS: u64 = 6;

/// The node on a free port with the SQLite database `db`.
fn start(db: &str) -> (Child, String) {
    node::start(&["--db", db])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_under_load_loses_no_job_and_redelivers_no_acked_one() {
    let dir = tempdir();
    let db = dir.join("queue.db");
    let db = db.to_str().unwrap();
    let seen = Arc::new(Mutex::new(Seen::default()));
    let mut rng = 0x9e3779b97f4a7c15u64;
    for _ in 0..ROUNDS {
        let (mut node, url) = start(db);
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let run = Duration::from_millis(150 + rng % 500);
        let until = Instant::now() + run + Duration::from_secs(2);
        let workers: Vec<_> = (0..4)
            .map(|w| tokio::spawn(node::work(vec![url.clone()], "kill", seen.clone(), w, until)))
            .collect();
        tokio::time::sleep(run).await;
        node.kill().expect("SIGKILL");
        node.wait().unwrap();
        for w in workers {
            w.await.unwrap();
        }
    }
    // Restart, wait out every lease, and drain: each acknowledged enqueue is either acked or
    // handed out now; none is missing.
    let (mut node, url) = start(db);
    tokio::time::sleep(Duration::from_secs(LEASE_S + 1)).await;
    let drained = node::drain(&url, "kill").await;
    node.kill().unwrap();
    node.wait().unwrap();
    // What the database holds, read after the node is gone.
    let stored: HashMap<String, String> = {
        let db = rusqlite::Connection::open(db).unwrap();
        let mut rows = db.prepare("SELECT id, state FROM jobs").unwrap();
        rows.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).unwrap().map(Result::unwrap).collect()
    };
    node::check(&seen.lock().unwrap(), &stored, &drained);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_read_only_database_answers_with_an_error_never_an_acknowledgement() {
    let dir = tempdir();
    let db = dir.join("ro.db");
    // Made by a node first, so that the read-only one finds its tables.
    let (mut node, _) = start(db.to_str().unwrap());
    node.kill().unwrap();
    node.wait().unwrap();
    // A read-only open (root ignores file modes, SQLite's mode=ro does not).
    let uri = format!("file:{}?mode=ro", db.display());
    let (mut node, url) = start(&uri);
    let client = reqwest::Client::new();
    let answer = call(&client, &url, "queue.enqueue", json!({"queue": "ro", "payload": 1}))
        .await
        .expect("an answer");
    assert_eq!(answer["error"]["code"], -32603, "{answer}");
    assert!(
        answer["error"]["data"]["reason"].as_str().unwrap().contains("the store failed"),
        "{answer}"
    );
    assert!(answer.get("result").is_none());
    let stats = call(&client, &url, "queue.stats", json!({})).await.expect("an answer");
    assert_eq!(stats["result"], json!([]), "nothing was stored: {stats}");
    node.kill().unwrap();
    node.wait().unwrap();
}

#[test]
fn a_read_only_database_that_needs_a_migration_is_refused_at_start() {
    let dir = tempdir();
    let db = dir.join("empty.db");
    // An empty database file (version 0), opened read-only: the queue's tables cannot be made.
    rusqlite::Connection::open(&db).unwrap().execute_batch("CREATE TABLE other (x);").unwrap();
    let uri = format!("file:{}?mode=ro", db.display());
    let out = Command::new(env!("CARGO_BIN_EXE_work-queue"))
        .args(["--port", "0", "--db", &uri])
        .output()
        .expect("the node runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(out.stdout.is_empty(), "it never listened: {}", String::from_utf8_lossy(&out.stdout));
    assert!(
        stderr.contains("migrating the queue schema from version 0 to 1 failed")
            && stderr.contains("readonly"),
        "{stderr}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_under_load_answers_every_call_in_flight_then_exits() {
    let dir = tempdir();
    let db = dir.join("term.db");
    let db = db.to_str().unwrap();
    let (mut node, url) = start(db);
    let answered = Arc::new(Mutex::new(HashSet::new()));
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    // 32 callers, each enqueueing until the node stops answering.
    let callers: Vec<_> = (0..32)
        .map(|w| {
            let (url, answered, stop) = (url.clone(), answered.clone(), stop.clone());
            tokio::spawn(async move {
                let client = reqwest::Client::new();
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let params = json!({"queue": "term", "payload": {"w": w}});
                    let Some(answer) = call(&client, &url, "queue.enqueue", params).await else {
                        return;
                    };
                    if let Some(id) = answer["result"]["id"].as_str() {
                        answered.lock().unwrap().insert(id.to_owned());
                    }
                }
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(400)).await;
    let status = Command::new("kill").args(["-TERM", &node.id().to_string()]).status().unwrap();
    assert!(status.success());
    let sent = Instant::now();
    let exit = tokio::task::spawn_blocking(move || node.wait()).await.unwrap().unwrap();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for c in callers {
        c.await.unwrap();
    }
    assert!(exit.success(), "a drained node exits 0: {exit:?}");
    assert!(
        sent.elapsed() < Duration::from_secs(11),
        "drained within its bound: {:?}",
        sent.elapsed()
    );
    let stored: HashSet<String> = {
        let db = rusqlite::Connection::open(db).unwrap();
        let mut rows = db.prepare("SELECT id FROM jobs").unwrap();
        rows.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
    };
    let answered = answered.lock().unwrap();
    assert!(answered.len() > 20, "the load enqueued: {}", answered.len());
    // Every job the node committed was answered: no call was cut off between its commit and
    // its answer.
    let unanswered: Vec<_> = stored.difference(&answered).collect();
    assert!(unanswered.is_empty(), "committed but never answered: {unanswered:?}");
    let lost: Vec<_> = answered.difference(&stored).collect();
    assert!(lost.is_empty(), "answered but not stored: {lost:?}");
}

/// A fresh directory under the target's temporary directory.
fn tempdir() -> std::path::PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "work-queue-{}-{}",
        std::process::id(),
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
