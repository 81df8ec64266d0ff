//! Usage against a real Prometheus server (docs/usage.md): `accord serve --metrics-path` of the
//! usage fixture's old contract is scraped every second by Debian's `prometheus` on a free
//! loopback port; WebSocket callers declaring contract versions 2.0.0 and 2.1.0 and HTTP callers
//! declaring none call the deprecated `meter.readRaw` (never `meter.legacyTotal`), and one sends
//! the deprecated field `Config.scale` (none `Config.legacyMode`); after two scrapes,
//! `accord usage --prometheus` reports what was used, and `accord check --usage URL
//! --usage-gate` keeps the used removals breaking with their counts and reports the unused ones
//! safe with their evidence.
//!
//! Needs `prometheus` on PATH (`cargo xtask test` installs Debian's package when it is missing:
//! xtask/src/suite/needs.rs).

use std::io::BufRead as _;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio_tungstenite::tungstenite::Message;

use crate::common;

/// A child process killed when the test ends, however it ends.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// An instant query's result vector.
async fn query(base: &str, q: &str) -> Vec<Value> {
    let mut url = url::Url::parse(&format!("{base}/api/v1/query")).unwrap();
    url.query_pairs_mut().append_pair("query", q);
    let Ok(response) = reqwest::get(url.as_str()).await else { return Vec::new() };
    let body: Value =
        serde_json::from_str(&response.text().await.unwrap_or_default()).unwrap_or(Value::Null);
    body["data"]["result"].as_array().cloned().unwrap_or_default()
}

/// The timestamp of the plant's latest scraped sample, once there is one.
async fn last_scrape(base: &str) -> Option<f64> {
    let result = query(base, "max(timestamp(accord_plant_uptime_seconds))").await;
    result.first()?["value"][1].as_str()?.parse().ok()
}

/// Waits (at most 60 s) for a scrape whose sample is later than `after` (a Unix time).
async fn scrape_after(base: &str, after: f64) -> f64 {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(t) = last_scrape(base).await.filter(|t| *t > after) {
            return t;
        }
        assert!(Instant::now() < deadline, "Prometheus at {base} scraped nothing after {after}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

fn unix_now() -> f64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs_f64()
}

/// One WebSocket caller: declares `version` with rpc.describe, then calls readRaw `n` times.
async fn caller(plant: &str, version: &str, n: usize) {
    let (mut ws, _) = tokio_tungstenite::connect_async(plant.replace("http", "ws")).await.unwrap();
    let describe = format!(
        r#"{{"jsonrpc":"2.0","id":0,"method":"rpc.describe","params":{{"builtAgainst":{{"meter":"{version}"}}}}}}"#
    );
    let calls = (1..=n).map(|i| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{i},"method":"meter.readRaw","params":{{"meter":"M-1"}}}}"#
        )
    });
    for text in std::iter::once(describe).chain(calls) {
        ws.send(Message::text(text)).await.unwrap();
        let answer: Value =
            serde_json::from_str(ws.next().await.unwrap().unwrap().to_text().unwrap()).unwrap();
        assert!(answer.get("result").is_some(), "{answer}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_real_prometheus_proves_one_deprecated_method_unused_and_the_other_used() {
    let found = Command::new("prometheus")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    assert!(
        found.is_ok_and(|s| s.success()),
        "this test needs `prometheus` on PATH: `cargo xtask test` installs Debian's package (apt-get install prometheus) when it is missing"
    );
    let mut serve = common::spawn_serve(&[
        "fixtures/usage/old.types.json",
        "--addr",
        "127.0.0.1:0",
        "--metrics-path",
        "/metrics",
    ]);
    let mut lines = std::io::BufReader::new(serve.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    let serve = Killed(serve);
    let plant = first.split(" on ").nth(1).unwrap().split_whitespace().next().unwrap().to_owned();
    let target = plant.trim_start_matches("http://").trim_end_matches('/').to_owned();

    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("usage-prometheus");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("prometheus.yml");
    std::fs::write(
        &config,
        format!(
            "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nscrape_configs:\n  - job_name: meter\n    metrics_path: /metrics\n    static_configs:\n      - targets: ['{target}']\n"
        ),
    )
    .unwrap();
    let port = free_port();
    let prometheus = Command::new("prometheus")
        .arg(format!("--config.file={}", config.display()))
        .arg(format!("--storage.tsdb.path={}", dir.join("data").display()))
        .arg(format!("--web.listen-address=127.0.0.1:{port}"))
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(dir.join("prometheus.log")).unwrap())
        .spawn()
        .expect("start prometheus");
    let _prometheus = Killed(prometheus);
    let base = format!("http://127.0.0.1:{port}");

    // The first scrape (every counter at 0), and one more before any traffic, so the window
    // holds a sample from before the calls.
    let first_seen = {
        scrape_after(&base, 0.0).await;
        unix_now()
    };
    scrape_after(&base, first_seen + 1.0).await;

    // Traffic: callers declaring 2.0.0 and 2.1.0 over WebSocket, callers declaring nothing over
    // HTTP; meter.readRaw is called, meter.legacyTotal never.
    caller(&plant, "2.0.0", 3).await;
    caller(&plant, "2.1.0", 2).await;
    let http = reqwest::Client::new();
    // A caller still sends the deprecated field `Config.scale` (through meter.configure), and
    // the enum value 3.0.0 removes; none sends `Config.legacyMode`.
    let configure = r#"{"jsonrpc":"2.0","id":1,"method":"meter.configure","params":{"meter":"M-1","config":{"interval":5,"scale":1.5,"mode":"legacy"}}}"#;
    let raw = r#"{"jsonrpc":"2.0","id":1,"method":"meter.readRaw","params":{"meter":"M-1"}}"#;
    for body in [raw, raw, raw, raw, configure] {
        let response = http
            .post(&plant)
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .unwrap();
        let answer: Value = serde_json::from_str(&response.text().await.unwrap()).unwrap();
        assert!(answer.get("result").is_some(), "{answer}");
    }
    // Two scrapes after the traffic.
    let done = unix_now();
    let one = scrape_after(&base, done).await;
    scrape_after(&base, one).await;
    // A window from just after the first scrape: the source covers it.
    let window = format!("{}s", (unix_now() - first_seen).floor() as u64);

    let usage = common::accord_async(
        [
            "usage",
            "fixtures/usage/old.types.json",
            "--prometheus",
            &base,
            "--window",
            &window,
            "--format",
            "json",
        ]
        .map(str::to_owned)
        .to_vec(),
    )
    .await;
    assert_eq!(usage.status.code(), Some(0), "{}", common::stderr(&usage));
    let report: Value = serde_json::from_str(&common::stdout(&usage)).unwrap();
    assert_eq!(report["covered"], true, "{report}");
    assert_eq!(report["plants"], 1);
    let uses = report["uses"].as_array().unwrap();
    let of = |method: &str| {
        uses.iter().find(|u| u["method"] == method && u["member"] == "method").unwrap()
    };
    let raw = of("readRaw");
    // The versioned series are born in the window and counted exactly; the undeclared one's
    // increase() is Prometheus' extrapolation of 4 calls, so at least 4.
    let versions = raw["versions"].as_array().unwrap();
    let count_of =
        |v: &str| versions.iter().find(|x| x["version"] == v).map(|x| x["count"].as_u64().unwrap());
    assert_eq!(count_of("2.0.0"), Some(3), "{report}");
    assert_eq!(count_of("2.1.0"), Some(2), "{report}");
    assert!(count_of("undeclared").is_some_and(|n| (4..=6).contains(&n)), "{report}");
    assert_eq!(of("legacyTotal")["count"], 0, "{report}");
    let field = |member: &str| {
        uses.iter().find(|u| u["method"] == "types" && u["member"] == member).unwrap()
    };
    assert_eq!(field("Config.scale")["count"], 1, "{report}");
    assert_eq!(field("Config.legacyMode")["count"], 0, "{report}");
    let seen: Vec<&str> = report["versionsSeen"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["describe"].as_u64() > Some(0))
        .map(|s| s["version"].as_str().unwrap())
        .collect();
    assert_eq!(seen, ["2.0.0", "2.1.0"], "{report}");

    let check = common::accord_async(
        [
            "check",
            "fixtures/usage/new.types.json",
            "--against",
            "fixtures/usage/old.types.json",
            "--usage",
            &base,
            "--window",
            &window,
            "--usage-gate",
            "--format",
            "json",
        ]
        .map(str::to_owned)
        .to_vec(),
    )
    .await;
    // readRaw is still called: the run fails on it.
    assert_eq!(check.status.code(), Some(1), "{}", common::stderr(&check));
    let report: Value = serde_json::from_str(&common::stdout(&check)).unwrap();
    let findings = report["baselines"][0]["report"]["findings"]
        .as_array()
        .unwrap_or_else(|| panic!("{report}"));
    let removed = |path: &str| {
        findings.iter().find(|f| f["rule"] == "method-removed" && f["path"] == path).unwrap()
    };
    let raw = removed("meter.readRaw");
    assert_eq!(raw["level"], "breaking", "{raw}");
    assert!(raw["evidence"]["count"].as_u64().is_some_and(|n| n >= 9), "{raw}");
    let text = raw["evidence"]["text"].as_str().unwrap();
    assert!(
        text.starts_with("called ")
            && text.contains("by callers declaring 2.0.0, 2.1.0 and callers declaring no version"),
        "{text}"
    );
    let legacy = removed("meter.legacyTotal");
    assert_eq!(legacy["level"], "safe", "{legacy}");
    assert_eq!(legacy["evidence"]["gatedFrom"], "breaking", "{legacy}");
    assert_eq!(legacy["evidence"]["count"], 0);
    assert!(
        legacy["evidence"]["text"]
            .as_str()
            .unwrap()
            .starts_with(&format!("no use in {window} on 1 plant (http://127.0.0.1:{port}: ")),
        "{legacy}"
    );
    // The fields of a named type, counted by type: the one still sent stays breaking with its
    // count, the unused one is safe with its evidence.
    let closed = |path: &str| {
        findings
            .iter()
            .find(|f| {
                f["rule"] == "field-removed-from-closed-object"
                    && f["path"] == path
                    && f["pairing"] == "old-callers-new-plant"
            })
            .unwrap()
    };
    let scale = closed("meter.types.Config.scale");
    assert_eq!(scale["level"], "breaking", "{scale}");
    assert_eq!(scale["evidence"]["count"], 1, "{scale}");
    // The enum value 3.0.0 removes, still sent once: its own count.
    let mode = findings
        .iter()
        .find(|f| {
            f["rule"] == "enum-value-removed"
                && f["path"] == "meter.types.Config.mode"
                && f["pairing"] == "old-callers-new-plant"
        })
        .unwrap();
    assert_eq!(mode["level"], "breaking", "{mode}");
    assert_eq!(mode["evidence"]["count"], 1, "{mode}");
    let legacy_mode = closed("meter.types.Config.legacyMode");
    assert_eq!(legacy_mode["level"], "safe", "{legacy_mode}");
    assert_eq!(legacy_mode["evidence"]["gatedFrom"], "breaking", "{legacy_mode}");
    drop(serve);
}

/// The alert rule file docs/usage.md ships is valid Prometheus rules, and its unit test (the
/// alert fires while a deprecated method is called, and only then) passes, both by Debian's
/// `promtool` (in the `prometheus` package).
#[test]
fn the_shipped_alert_rules_pass_promtool() {
    let dir = common::root().join("docs/prometheus");
    for args in [
        ["check", "rules", "accord-usage.rules.yml"],
        ["test", "rules", "accord-usage.rules.test.yml"],
    ] {
        let out = Command::new("promtool").args(args).current_dir(&dir).output().unwrap_or_else(|e| {
            panic!(
                "this test needs `promtool` on PATH ({e}): `cargo xtask test` installs Debian's prometheus package, which ships it, when it is missing"
            )
        });
        assert!(
            out.status.success(),
            "promtool {}: {}{}",
            args.join(" "),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
