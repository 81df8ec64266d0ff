//! The store test suite: every scenario runs against SQLite (a fresh file) and against
//! PostgreSQL (a fresh database on the server `ACCORD_TEST_POSTGRES_URL` names), through the
//! `Store` trait, and must come out the same: leases, retries, dead-lettering, capacity, batch
//! calls, events, and the refusal of a newer queue schema.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;

use super::{Event, NewJob, Refusal, Sink, Storage, Store};
use crate::api::{JobState, QueueName};

#[path = "../../tests/common/postgres.rs"]
mod test_postgres;

struct Fixture {
    store: Arc<dyn Store>,
    events: Arc<Mutex<Vec<Event>>>,
    storage: Storage,
}

fn recorder() -> (Sink, Arc<Mutex<Vec<Event>>>) {
    let events = Arc::new(Mutex::new(Vec::new()));
    let seen = events.clone();
    (Arc::new(move |e| seen.lock().unwrap().push(e)), events)
}

async fn open(storage: Storage, capacity: u64) -> Fixture {
    let (sink, events) = recorder();
    let store = super::open(&storage, capacity, sink).await.expect("the store opens");
    Fixture { store, events, storage }
}

fn sqlite_path() -> std::path::PathBuf {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let dir = std::env::temp_dir().join(format!(
        "work-queue-suite-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("queue.db")
}

async fn sqlite(capacity: u64) -> Fixture {
    open(Storage::Sqlite(sqlite_path()), capacity).await
}

async fn postgres(capacity: u64) -> Fixture {
    open(Storage::Postgres(test_postgres::fresh_database("suite").await), capacity).await
}

fn job(queue: &str, n: u64, priority: u8) -> NewJob {
    NewJob {
        queue: QueueName(queue.into()),
        payload: json!({"n": n}),
        priority,
        delay_ms: 0,
        max_attempts: 5,
    }
}

fn q(name: &str) -> QueueName {
    QueueName(name.into())
}

/// Waits (up to 5 s: PostgreSQL's events travel through NOTIFY) until `n` events named `name`
/// were seen; answers them.
async fn events(f: &Fixture, name: &str, n: usize) -> Vec<Event> {
    let until = std::time::Instant::now() + Duration::from_secs(5);
    loop {
        let seen: Vec<Event> =
            f.events.lock().unwrap().iter().filter(|e| e.name == name).cloned().collect();
        if seen.len() >= n || std::time::Instant::now() > until {
            return seen;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn claims_by_priority_then_age_and_acks_once(f: Fixture) {
    let s = &f.store;
    s.enqueue(vec![job("a", 1, 4), job("a", 2, 9), job("a", 3, 4)]).await.unwrap();
    let leases = s.claim(q("a"), "w".into(), 60, 10).await.unwrap();
    let order: Vec<_> = leases.iter().map(|l| l.job.payload["n"].as_u64().unwrap()).collect();
    assert_eq!(order, [2, 1, 3]);
    assert!(leases.iter().all(|l| l.job.attempts == 1 && l.job.state == JobState::Claimed));
    assert!(s.claim(q("a"), "w".into(), 60, 10).await.unwrap().is_empty(), "all are leased");
    let first = &leases[0];
    let done = s.ack(vec![(first.job.id.0, first.token.0.clone())]).await.unwrap();
    let at = *done[0].as_ref().unwrap();
    // The same ack again: the same answer, nothing changed.
    let again = s.ack(vec![(first.job.id.0, first.token.0.clone())]).await.unwrap();
    assert_eq!(*again[0].as_ref().unwrap(), at);
    // Another job's token, and an unknown job.
    let other = s.ack(vec![(first.job.id.0, leases[1].token.0.clone())]).await.unwrap();
    assert!(matches!(other[0], Err(Refusal::TokenMismatch)), "{other:?}");
    let unknown = uuid::Uuid::new_v4();
    let missing = s.ack(vec![(unknown, "lt_x".into())]).await.unwrap();
    assert!(matches!(missing[0], Err(Refusal::NotFound(id)) if id == unknown));
    let stats = s.stats(Some(q("a"))).await.unwrap();
    assert_eq!((stats[0].pending, stats[0].claimed, stats[0].completed), (0, 2, 1));
    assert_eq!(events(&f, "queue.jobEnqueued", 3).await.len(), 3);
    assert_eq!(events(&f, "queue.jobClaimed", 3).await.len(), 3);
    let completed = events(&f, "queue.jobCompleted", 1).await;
    assert_eq!(completed.len(), 1, "one completion event, not one per repeated ack");
    assert_eq!(completed[0].payload["id"], json!(first.job.id.0));
}

async fn an_expired_lease_comes_back_then_goes_dead(f: Fixture) {
    let s = &f.store;
    let mut one = job("l", 1, 4);
    one.max_attempts = 2;
    s.enqueue(vec![one]).await.unwrap();
    let first = s.claim(q("l"), "w1".into(), 1, 1).await.unwrap().remove(0);
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let second = s.claim(q("l"), "w2".into(), 1, 1).await.unwrap().remove(0);
    assert_eq!(second.job.id, first.job.id);
    assert_eq!(second.job.attempts, 2);
    assert_eq!(second.job.last_error, crate::api::Nullable::Value("lease expired".into()));
    // The first worker's ack comes too late: refused, naming who holds the job now.
    let late = s.ack(vec![(first.job.id.0, first.token.0.clone())]).await.unwrap();
    match &late[0] {
        Err(Refusal::LeaseExpired { claimed_by, .. }) => {
            assert_eq!(claimed_by.as_deref(), Some("w2"));
        }
        other => panic!("{other:?}"),
    }
    tokio::time::sleep(Duration::from_millis(1100)).await;
    s.reap_all().await.unwrap();
    let stats = s.stats(Some(q("l"))).await.unwrap();
    assert_eq!((stats[0].pending, stats[0].claimed, stats[0].dead), (0, 0, 1));
    let failed = events(&f, "queue.jobFailed", 2).await;
    let dead: Vec<bool> = failed.iter().map(|e| e.payload["dead"].as_bool().unwrap()).collect();
    assert_eq!(dead, [false, true]);
    assert!(failed.iter().all(|e| e.payload["reason"] == "lease-expired"));
    assert!(s.claim(q("l"), "w3".into(), 5, 1).await.unwrap().is_empty(), "dead stays dead");
}

async fn a_nack_requeues_with_its_error_and_a_refused_one_is_dead(f: Fixture) {
    let s = &f.store;
    s.enqueue(vec![job("n", 1, 4)]).await.unwrap();
    let lease = s.claim(q("n"), "w".into(), 60, 1).await.unwrap().remove(0);
    let (state, attempts, visible) =
        s.nack(lease.job.id.0, lease.token.0.clone(), true, 0, Some("boom".into())).await.unwrap();
    assert_eq!((state, attempts), (JobState::Pending, 1));
    assert!(visible.is_some());
    // Repeated: the same answer, nothing changed.
    let again = s.nack(lease.job.id.0, lease.token.0.clone(), true, 0, None).await.unwrap();
    assert_eq!((again.0, again.1), (JobState::Pending, 1));
    let lease = s.claim(q("n"), "w".into(), 60, 1).await.unwrap().remove(0);
    assert_eq!(lease.job.attempts, 2);
    assert_eq!(lease.job.last_error, crate::api::Nullable::Value("boom".into()));
    let (state, _, visible) =
        s.nack(lease.job.id.0, lease.token.0.clone(), false, 0, None).await.unwrap();
    assert_eq!((state, visible), (JobState::Dead, None));
    let stats = s.stats(Some(q("n"))).await.unwrap();
    assert_eq!(stats[0].dead, 1);
    let failed = events(&f, "queue.jobFailed", 2).await;
    assert_eq!(failed.len(), 2, "one event per nack, none for the repeat");
    assert_eq!(failed[0].payload["error"], "boom");
    assert_eq!(failed[1].payload["dead"], true);
}

async fn a_delayed_job_is_invisible_until_its_time(f: Fixture) {
    let s = &f.store;
    let mut later = job("d", 1, 4);
    later.delay_ms = 1200;
    s.enqueue(vec![later]).await.unwrap();
    assert!(s.claim(q("d"), "w".into(), 60, 1).await.unwrap().is_empty());
    tokio::time::sleep(Duration::from_millis(1300)).await;
    assert_eq!(s.claim(q("d"), "w".into(), 60, 1).await.unwrap().len(), 1);
}

async fn capacity_and_payload_bounds_refuse_the_whole_call(f: Fixture) {
    let s = &f.store;
    s.enqueue(vec![job("c", 1, 4), job("c", 2, 4)]).await.unwrap();
    let full = s.enqueue(vec![job("c", 3, 4), job("c", 4, 4)]).await;
    assert!(matches!(full, Err(Refusal::QueueFull { capacity: 3, .. })), "{full:?}");
    let mut big = job("c", 5, 4);
    big.payload = json!("x".repeat(super::MAX_PAYLOAD + 1));
    let refused = s.enqueue(vec![job("c", 6, 4), big]).await;
    assert!(matches!(refused, Err(Refusal::PayloadTooLarge { .. })), "{refused:?}");
    // Neither refused call added anything.
    assert_eq!(s.stats(Some(q("c"))).await.unwrap()[0].pending, 2);
    s.enqueue(vec![job("c", 7, 4)]).await.unwrap();
    assert_eq!(s.stats(Some(q("c"))).await.unwrap()[0].pending, 3);
}

async fn a_batch_ack_answers_each_job(f: Fixture) {
    let s = &f.store;
    s.enqueue((0..3).map(|n| job("b", n, 4)).collect()).await.unwrap();
    let leases = s.claim(q("b"), "w".into(), 60, 3).await.unwrap();
    let answers = s
        .ack(vec![
            (leases[0].job.id.0, leases[0].token.0.clone()),
            (leases[1].job.id.0, "lt_wrong".into()),
            (leases[2].job.id.0, leases[2].token.0.clone()),
            (leases[0].job.id.0, leases[0].token.0.clone()),
        ])
        .await
        .unwrap();
    assert!(answers[0].is_ok() && answers[2].is_ok() && answers[3].is_ok(), "{answers:?}");
    assert!(matches!(answers[1], Err(Refusal::TokenMismatch)));
    let stats = s.stats(Some(q("b"))).await.unwrap();
    assert_eq!((stats[0].claimed, stats[0].completed), (1, 2));
}

/// Concurrent claimers, on one store and (PostgreSQL) on a second store over the same
/// database, as a second node: every job handed out exactly once.
async fn concurrent_claims_never_share_a_job(f: Fixture) {
    let other = match &f.storage {
        Storage::Sqlite(_) => f.store.clone(),
        Storage::Postgres(_) => open(f.storage.clone(), u64::MAX).await.store,
    };
    f.store.enqueue((0..300).map(|n| job("x", n, (n % 10) as u8)).collect()).await.unwrap();
    let claimers: Vec<_> = (0..8)
        .map(|w| {
            let store = if w % 2 == 0 { f.store.clone() } else { other.clone() };
            tokio::spawn(async move {
                let mut got = Vec::new();
                loop {
                    let leases = store.claim(q("x"), format!("w{w}"), 60, 7).await.unwrap();
                    if leases.is_empty() {
                        return got;
                    }
                    got.extend(leases.into_iter().map(|l| l.job.id.0));
                }
            })
        })
        .collect();
    let mut all = Vec::new();
    for c in claimers {
        all.extend(c.await.unwrap());
    }
    let distinct: std::collections::HashSet<_> = all.iter().collect();
    assert_eq!((all.len(), distinct.len()), (300, 300));
}

/// A database whose queue schema a newer node wrote is refused, naming both versions.
async fn a_newer_queue_schema_is_refused(f: Fixture) {
    let storage = f.storage.clone();
    drop(f);
    match &storage {
        Storage::Sqlite(path) => {
            let db = rusqlite::Connection::open(path).unwrap();
            db.pragma_update(None, "user_version", 99).unwrap();
        }
        Storage::Postgres(url) => {
            let (client, connection) =
                tokio_postgres::connect(url, tokio_postgres::NoTls).await.unwrap();
            let driver = tokio::spawn(connection);
            client.batch_execute("UPDATE work_queue_schema SET version = 99").await.unwrap();
            drop(client);
            let _ = driver.await;
        }
    }
    let (sink, _) = recorder();
    let error = super::open(&storage, 10, sink).await.err().expect("refused").to_string();
    let known = match storage {
        Storage::Sqlite(_) => super::schema::SQLITE.len(),
        Storage::Postgres(_) => super::schema::POSTGRES.len(),
    };
    assert!(
        error.contains("version 99") && error.contains(&format!("(version {known})")),
        "{error}"
    );
}

macro_rules! on_both_stores {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::$name(super::sqlite(if stringify!($name).starts_with("capacity") { 3 } else { 1_000_000 }).await).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::$name(super::postgres(if stringify!($name).starts_with("capacity") { 3 } else { 1_000_000 }).await).await;
                }
            )*
        }
    };
}

on_both_stores!(
    claims_by_priority_then_age_and_acks_once,
    an_expired_lease_comes_back_then_goes_dead,
    a_nack_requeues_with_its_error_and_a_refused_one_is_dead,
    a_delayed_job_is_invisible_until_its_time,
    capacity_and_payload_bounds_refuse_the_whole_call,
    a_batch_ack_answers_each_job,
    concurrent_claims_never_share_a_job,
    a_newer_queue_schema_is_refused,
);
