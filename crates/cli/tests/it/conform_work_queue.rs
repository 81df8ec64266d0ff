//! The work-queue node end to end: examples/work-queue (a jsonrpsee server behind accord-plant,
//! its jobs in SQLite) started in-process on 127.0.0.1:0 on an EMPTY database, as its usage
//! says (`work-queue --port 0 --db fresh.db`), and `accord conform` run against it with the
//! bundled contract and every semantics allowed: zero failures, every event validated (none
//! skipped), and the contract's flows walked: enqueue → claim → ack and → nack, each step's
//! result fed into the next. Nothing is put into the database first: the jobs the ack and nack
//! calls settle are the ones the flows enqueue and claim.

use crate::common::*;

const WQ: &str = "fixtures/contracts/work-queue.types.json";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_work_queue_node_on_an_empty_database_conforms_with_its_flows() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("conform-work-queue-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("fresh.db");
    assert!(!db.exists(), "the database starts empty: the node makes it");
    let plant = work_queue::plant(work_queue::Config::default()).expect("the bundled contract");
    let (addr, handle) =
        work_queue::serve(([127, 0, 0, 1], 0).into(), &db, plant.clone()).await.unwrap();
    let url = format!("http://{addr}/");
    let report = conform_passes(WQ, &url, &["--jobs", "1"]).await;
    assert_eq!(plant.violations(), 0, "{:#?}", plant.recent_violations());

    let checks = report["checks"].as_array().expect("checks");
    // The flows ran and passed over HTTP and over a WebSocket, each step returning a result.
    for flow in
        ["queue.enqueue → queue.claim → queue.ack", "queue.enqueue → queue.claim → queue.nack"]
    {
        let walked: Vec<&serde_json::Value> =
            checks.iter().filter(|c| c["phase"] == "flows" && c["subject"] == flow).collect();
        assert_eq!(walked.len(), 2, "over http and ws: {walked:#?}");
        assert!(walked.iter().all(|c| c["outcome"] == "passed"), "{walked:#?}");
        let planned = report["plan"]["flows"].as_array().unwrap();
        assert!(planned.iter().any(|f| f["flow"] == flow && f["action"] == "run"), "{planned:#?}");
    }
    let notes: Vec<&str> =
        report["notes"].as_array().expect("notes").iter().filter_map(|n| n.as_str()).collect();
    for flow in
        ["queue.enqueue → queue.claim → queue.ack", "queue.enqueue → queue.claim → queue.nack"]
    {
        for over in ["http", "ws"] {
            let lead = format!("{flow} over {over}: 3 of 3 step(s) returned a result");
            assert!(notes.iter().any(|n| n.starts_with(&lead)), "{lead}: {notes:#?}");
        }
    }
    // Every event was validated: none skipped.
    let events: Vec<&serde_json::Value> =
        checks.iter().filter(|c| c["phase"] == "events").collect();
    assert_eq!(events.len(), 4, "{events:#?}");
    assert!(events.iter().all(|c| c["outcome"] == "passed"), "{events:#?}");
    // The ack and nack examples, whose job ids only the node can make, were checked against the
    // types and left to the flows.
    let types_only: Vec<&serde_json::Value> = checks
        .iter()
        .filter(|c| c["name"].as_str().is_some_and(|n| n.ends_with("(types only)")))
        .collect();
    assert!(
        types_only.iter().any(|c| c["subject"] == "queue.ack")
            && types_only.iter().any(|c| c["subject"] == "queue.nack"),
        "{types_only:#?}"
    );
    handle.stop().unwrap();
    handle.stopped().await;
}
