//! `accord conform` end to end: the binary against plants built in the test (the same plant
//! as accord-conform's own tests, shared by path), its plan, formats, exit codes and replay.

use crate::common;
#[path = "../../../conform/tests/it/plant.rs"]
mod plant;

use std::path::{Path, PathBuf};

use crate::common::{PUMP, accord, accord_async, stderr, stdout};
use plant::Fault;

const TOKEN: &str = "s3cret-token";

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn token_file(dir: &Path) -> String {
    let path = dir.join("token");
    std::fs::write(&path, format!("{TOKEN}\n")).expect("token");
    path.display().to_string()
}

#[test]
fn dry_run_prints_only_the_plan() {
    let out = accord(&[
        "conform",
        PUMP,
        "--url",
        "http://127.0.0.1:9/",
        "--dry-run",
        "--allow",
        "idempotent",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    insta::assert_snapshot!(stdout(&out));
}

#[test]
fn dry_run_as_json_is_the_plan() {
    let out =
        accord(&["conform", PUMP, "--url", "http://127.0.0.1:9/", "--dry-run", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let plan: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    let called = plan["methods"]
        .as_array()
        .expect("methods")
        .iter()
        .filter(|m| m["action"] == "call")
        .count();
    assert_eq!(called, 6, "{plan}");
}

#[test]
fn a_refused_connection_exits_2_naming_the_url() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}/", listener.local_addr().expect("addr"));
    drop(listener);
    let out = accord(&["conform", PUMP, "--url", &url]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains(&format!("cannot connect to {url}")), "{}", stderr(&out));
}

#[test]
fn an_unknown_allow_entry_exits_2() {
    let out = accord(&["conform", PUMP, "--url", "http://127.0.0.1:9/", "--allow", "pump.nosuch"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("`--allow pump.nosuch`"), "{}", stderr(&out));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_healthy_plant_exits_0() {
    let dir = scratch("conform-healthy");
    let url = plant::start("pump-plant.types.json", Some(TOKEN), Fault::None).await;
    let args = [
        "conform",
        PUMP,
        "--url",
        &url,
        "--token-file",
        &token_file(&dir),
        "--calls",
        "2",
        "--seed",
        "3",
    ];
    let out = accord_async(args.iter().map(|s| s.to_string()).collect()).await;
    assert_eq!(out.status.code(), Some(0), "{}\n{}", stdout(&out), stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("plan: 13 method(s), 6 called"), "the plan comes first:\n{text}");
    assert!(text.contains("result: the plant conforms"), "{text}");
    assert_eq!(stderr(&out), "", "no progress bar when stderr is not a terminal");
    let args = [
        "conform",
        PUMP,
        "--url",
        &url,
        "--token-file",
        &token_file(&dir),
        "--calls",
        "1",
        "--format",
        "json",
    ];
    let out = accord_async(args.iter().map(|s| s.to_string()).collect()).await;
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    assert_eq!(report["conforms"], true);
    assert_eq!(report["totals"]["failed"], 0);
    assert!(report["totals"]["passed"].as_u64().expect("count") > 30, "{}", report["totals"]);
    for method in report["methods"].as_array().expect("methods") {
        if method["outcome"] != "skipped" {
            assert!(method["answers"]["results"].as_u64() > Some(0), "{method}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_broken_plant_exits_1_and_its_saved_transcript_replays() {
    let dir = scratch("conform-broken");
    let token = token_file(&dir);
    let transcripts = dir.join("transcripts");
    let broken = plant::start("pump-plant.types.json", Some(TOKEN), Fault::WrongResultType).await;
    let args = [
        "conform",
        PUMP,
        "--url",
        &broken,
        "--token-file",
        &token,
        "--calls",
        "1",
        "--format",
        "junit",
        "--transcripts",
        &transcripts.display().to_string(),
    ];
    let out = accord_async(args.iter().map(|s| s.to_string()).collect()).await;
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    insta::assert_snapshot!(stdout(&out));
    let mut saved: Vec<PathBuf> =
        std::fs::read_dir(&transcripts).expect("dir").map(|e| e.expect("entry").path()).collect();
    saved.sort();
    assert_eq!(saved.len(), 2, "{saved:?}");
    let file = saved[0].display().to_string();
    assert!(file.ends_with("001-result-invalid.io"), "{file}");
    let healthy = plant::start("pump-plant.types.json", Some(TOKEN), Fault::None).await;
    for (url, code) in [(&broken, 1), (&healthy, 0)] {
        let args = ["conform", PUMP, "--url", url, "--token-file", &token, "--replay", &file];
        let out = accord_async(args.iter().map(|s| s.to_string()).collect()).await;
        assert_eq!(out.status.code(), Some(code), "{}\n{}", stdout(&out), stderr(&out));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_plant_exits_1_with_timeouts_and_the_deadline_not_2() {
    let slow = Fault::Slow(std::time::Duration::from_secs(3));
    let url = plant::start("pump-plant.types.json", None, slow).await;
    let args =
        ["conform", PUMP, "--url", &url, "--timeout", "200", "--deadline", "1500ms", "--jobs", "8"];
    let started = std::time::Instant::now();
    let out = accord_async(args.iter().map(|s| s.to_string()).collect()).await;
    let took = started.elapsed();
    assert_eq!(out.status.code(), Some(1), "{}\n{}", stdout(&out), stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("[timeout] no answer within 200 ms (--timeout)"), "{text}");
    assert!(text.contains("NOT RUN") && text.contains("--deadline"), "{text}");
    assert!(took < std::time::Duration::from_secs(4), "{took:?}");
}

#[test]
fn jobs_and_deadline_are_checked_as_arguments() {
    for bad in [["--jobs", "0"], ["--deadline", "soon"]] {
        let out =
            accord(&["conform", PUMP, "--url", "http://127.0.0.1:9/", "--dry-run", bad[0], bad[1]]);
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(bad[0]), "{bad:?}: {}", stderr(&out));
    }
}

/// The README's transcript pair, run as written (CONTRACT, URL and the folder filled in)
/// against a plant whose results do not validate: the first command writes the file the second
/// names, and the second replays it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_readme_transcript_commands_run_as_written() {
    let readme = std::fs::read_to_string(common::root().join("README.md")).expect("README");
    assert!(!readme.contains("target/debug"), "the README must not assume the target directory");
    let lines: Vec<&str> = readme
        .lines()
        .filter(|l| {
            l.starts_with("accord conform CONTRACT --url URL --transcripts failures/")
                || l.starts_with("accord conform CONTRACT --url URL --replay failures/")
        })
        .collect();
    assert_eq!(lines.len(), 2, "the README's transcript pair: {lines:?}");
    let dir = scratch("conform-readme");
    let broken = plant::start("pump-plant.types.json", None, Fault::WrongResultType).await;
    let failures = format!("{}/", dir.join("failures").display());
    let args = |line: &str| -> Vec<String> {
        let command = line.split(" #").next().unwrap_or(line).trim();
        command
            .split_whitespace()
            .skip(1)
            .map(|word| match word {
                "CONTRACT" => PUMP.to_owned(),
                "URL" => broken.clone(),
                other => other.replace("failures/", &failures),
            })
            .collect()
    };
    let first = accord_async(args(lines[0])).await;
    assert_eq!(first.status.code(), Some(1), "{}", stderr(&first));
    let named = args(lines[1]).last().cloned().expect("the replayed file");
    assert!(Path::new(&named).is_file(), "{named} is not what the first command wrote");
    let second = accord_async(args(lines[1])).await;
    assert_eq!(second.status.code(), Some(1), "{}\n{}", stdout(&second), stderr(&second));
    assert!(stdout(&second).contains("result-invalid"), "{}", stdout(&second));
    // The replay touched one method: the others are not listed as passed with no check.
    assert!(!stdout(&second).contains("(0 checks)"), "{}", stdout(&second));
}
