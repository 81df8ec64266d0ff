//! The node under kill -9: driven over HTTP from this process, killed (SIGKILL) at random
//! points under load and restarted on the same database, a bounded number of times. Checked:
//! no acknowledged enqueue is lost, no acked job is delivered again, a job claimed and never
//! acked becomes claimable again once its lease has run out, two claimers never hold one job
//! at once; a read-only database answers with an error instead of acknowledging a job, and one
//! that would need a migration is refused at start; SIGTERM under load answers every call in
//! flight before the node exits.

use std::collections::{HashMap, HashSet};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// Kill rounds: each runs the node under load for a random 150..650 ms, then kills it.
const ROUNDS: u64 = 6;
/// The shortest lease the contract allows; unacked claims come back after it.
const LEASE_S: u64 = 5;

/// The node on a free port with `db`; its URL from the first stdout line.
fn start(db: &str) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_work-queue"))
        .args(["--port", "0", "--db", db])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the node starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).expect("a first line");
    let url = line.trim().to_owned();
    assert!(url.starts_with("http://127.0.0.1:"), "{url:?}");
    (child, format!("{url}/"))
}

/// One call; `None` when the node did not answer (killed mid-call).
async fn call(client: &reqwest::Client, url: &str, method: &str, params: Value) -> Option<Value> {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    let response = client
        .post(url)
        .header("content-type", "application/json")
        .body(body.to_string())
        .timeout(Duration::from_secs(5))
        .send()
        .await
        .ok()?;
    let text = response.text().await.ok()?;
    serde_json::from_str(&text).ok()
}

#[derive(Default)]
struct Seen {
    /// Enqueues the node acknowledged (answered with an id).
    enqueued: HashSet<String>,
    /// Acks the node acknowledged.
    acked: HashSet<String>,
    /// Every claim: job id to (when, lease token).
    claims: HashMap<String, Vec<(Instant, String)>>,
    /// A job handed out after its ack was acknowledged.
    redelivered: Vec<String>,
}

async fn load(url: String, seen: Arc<Mutex<Seen>>, worker: usize, until: Instant) {
    let client = reqwest::Client::new();
    let mut n = 0u64;
    while Instant::now() < until {
        n += 1;
        if worker.is_multiple_of(2) {
            let payload = json!({"worker": worker, "n": n});
            let Some(answer) =
                call(&client, &url, "queue.enqueue", json!({"queue": "kill", "payload": payload}))
                    .await
            else {
                return;
            };
            if let Some(id) = answer["result"]["id"].as_str() {
                seen.lock().unwrap().enqueued.insert(id.to_owned());
            }
        } else {
            let params = json!({"queue": "kill", "worker": format!("w{worker}"), "lease": LEASE_S, "max": 4});
            let Some(answer) = call(&client, &url, "queue.claim", params).await else { return };
            let leases = answer["result"].as_array().cloned().unwrap_or_default();
            for lease in leases {
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
                // Every third claimed job is left unacked, as a worker that died would.
                if n.is_multiple_of(3) {
                    continue;
                }
                let Some(answer) =
                    call(&client, &url, "queue.ack", json!({"id": id, "token": token})).await
                else {
                    return;
                };
                if answer["result"]["completedAt"].is_string() {
                    seen.lock().unwrap().acked.insert(id);
                }
            }
        }
    }
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
        let workers: Vec<_> =
            (0..4).map(|w| tokio::spawn(load(url.clone(), seen.clone(), w, until))).collect();
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
    let client = reqwest::Client::new();
    let mut drained = HashSet::new();
    loop {
        let params = json!({"queue": "kill", "worker": "drain", "lease": 3600, "max": 100});
        let answer = call(&client, &url, "queue.claim", params).await.expect("an answer");
        let leases = answer["result"].as_array().cloned().unwrap_or_else(|| panic!("{answer}"));
        if leases.is_empty() {
            break;
        }
        for lease in leases {
            drained.insert(lease["job"]["id"].as_str().unwrap().to_owned());
        }
    }
    node.kill().unwrap();
    node.wait().unwrap();
    let seen = seen.lock().unwrap();
    assert!(seen.enqueued.len() > 20, "the load enqueued: {}", seen.enqueued.len());
    assert!(!seen.acked.is_empty(), "the load acked");
    // What the database holds, read after the node is gone. (An ack the node committed but
    // was killed before answering is completed there, though this side never saw it.)
    let stored: HashMap<String, String> = {
        let db = rusqlite::Connection::open(db).unwrap();
        let mut rows = db.prepare("SELECT id, state FROM jobs").unwrap();
        rows.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).unwrap().map(Result::unwrap).collect()
    };
    let lost: Vec<&String> = seen.enqueued.iter().filter(|id| !stored.contains_key(*id)).collect();
    assert!(lost.is_empty(), "acknowledged enqueues lost: {lost:?}");
    let again: Vec<&String> = drained.iter().filter(|id| seen.acked.contains(*id)).collect();
    assert!(
        again.is_empty() && seen.redelivered.is_empty(),
        "acked jobs delivered again: {again:?} {:?}",
        seen.redelivered
    );
    for id in &seen.acked {
        assert_eq!(stored.get(id).map(String::as_str), Some("completed"), "{id}");
    }
    // Unacked claims came back: every claimed job that is not completed was drained.
    let stuck: Vec<&String> = seen
        .claims
        .keys()
        .filter(|id| {
            stored.get(*id).map(String::as_str) != Some("completed") && !drained.contains(*id)
        })
        .collect();
    assert!(stuck.is_empty(), "claimed, never acked, not claimable again: {stuck:?}");
    // Every job not completed was handed out by the drain: nothing pending is left unclaimable.
    let pending_left: Vec<&String> = stored
        .iter()
        .filter(|(id, state)| *state != "completed" && *state != "dead" && !drained.contains(*id))
        .map(|(id, _)| id)
        .collect();
    assert!(pending_left.is_empty(), "jobs the drain could not claim: {pending_left:?}");
    // Never one job under two live leases: a job is claimed again only after its lease.
    for (id, claims) in &seen.claims {
        for pair in claims.windows(2) {
            let gap = pair[1].0.duration_since(pair[0].0);
            assert!(
                gap >= Duration::from_secs(LEASE_S) - Duration::from_millis(200),
                "{id} claimed twice {gap:?} apart"
            );
        }
    }
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
