//! The work-queue node end to end: examples/work-queue (a jsonrpsee server behind accord-plant,
//! its jobs in SQLite) started in-process on 127.0.0.1:0 on a fresh database, and `accord
//! conform` run against it with the bundled contract and every semantics allowed: zero
//! failures. The contract's ack and nack examples are promises about jobs under given leases,
//! so the database is first given those jobs, claimed under the examples' tokens.

use crate::common::*;

const WQ: &str = "fixtures/contracts/work-queue.types.json";

/// The jobs the examples settle, under their examples' leases (an hour long).
fn seed(db: &std::path::Path) {
    let conn = rusqlite::Connection::open(db).unwrap();
    let now =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis()
            as i64;
    for (id, token, attempts) in [
        ("9b2f6c1e-4d3a-4e8b-a1f0-5c7d9e2b4a68", "lt_5f0c9a7e31b2", 1),
        ("0c4e8a2f-6b1d-4f3a-8e57-d9b1c3a5e702", "lt_3c9e0b5d7a14", 1),
        ("1e8d4a2c-7b6f-4c3e-9d05-b2a4f6e8c013", "lt_77ad01c4e9f0", 2),
    ] {
        conn.execute(
            "INSERT INTO jobs (id, queue, payload, priority, state, attempts, max_attempts, enqueued_at,
                               visible_at, token, worker, claimed_at, expires_at)
             VALUES (?1, 'thumbnails', '{}', 4, 'claimed', ?3, 5, ?4, ?4, ?2, 'thumb-worker-3', ?4, ?4 + 3600000)",
            rusqlite::params![id, token, attempts, now],
        )
        .unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_work_queue_node_conforms_to_the_bundled_contract() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("conform-work-queue-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("queue.db");
    let plant = work_queue::plant(work_queue::Config::default()).expect("the bundled contract");
    // The node makes its tables; then the examples' jobs are put in.
    let (_, first) =
        work_queue::serve(([127, 0, 0, 1], 0).into(), &db, plant.clone()).await.unwrap();
    first.stop().unwrap();
    first.stopped().await;
    seed(&db);
    let (addr, handle) =
        work_queue::serve(([127, 0, 0, 1], 0).into(), &db, plant.clone()).await.unwrap();
    let url = format!("http://{addr}/");
    conform_passes(WQ, &url, &["--jobs", "1"]).await;
    assert_eq!(plant.violations(), 0, "{:#?}", plant.recent_violations());
    handle.stop().unwrap();
    handle.stopped().await;
}
