//! What every end-to-end test of the `accord` binary needs: the workspace root, a runner that
//! runs in it (so paths in messages are relative and stable), and the bundled contracts.
// Each test binary uses its own part of this module.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

/// The bundled pump plant contract.
pub(crate) const PUMP: &str = "fixtures/contracts/pump-plant.types.json";
/// Its previous release, the baseline of the README's main command.
pub(crate) const OLD_PUMP: &str = "fixtures/baselines/pump-plant.v2.2.0.types.json";

pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("workspace root")
}

/// `accord ARGS`, run in the workspace root, colour off.
pub(crate) fn accord(args: &[&str]) -> Output {
    accord_in(&root(), args)
}

/// `accord ARGS`, run in `dir`, colour off.
pub(crate) fn accord_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_accord"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("run accord")
}

/// `accord ARGS` with `stdin` as its standard input, run in the workspace root.
pub(crate) fn accord_with_stdin(args: &[&str], stdin: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_accord"))
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run accord");
    // accord may exit (on a usage error) before it reads stdin: a closed pipe is fine here.
    let _ = child.stdin.take().expect("stdin").write_all(stdin.as_bytes());
    child.wait_with_output().expect("wait")
}

/// The failed checks of a `conform --format json` report.
pub(crate) fn failed_checks(report: &serde_json::Value) -> Vec<&serde_json::Value> {
    let checks = report["checks"].as_array().expect("checks");
    checks.iter().filter(|c| c["outcome"] == "failed").collect()
}

pub(crate) fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub(crate) fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `accord serve ARGS` started in the workspace root, stdout and stderr piped.
pub(crate) fn spawn_serve(args: &[&str]) -> Child {
    let mut command = Command::new(env!("CARGO_BIN_EXE_accord"));
    command.arg("serve").args(args);
    spawn_piped(command)
}

/// `command` (one that runs `accord serve`) started in the workspace root, stdout and stderr
/// piped.
pub(crate) fn spawn_piped(mut command: Command) -> Child {
    command
        .current_dir(root())
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run accord serve")
}

/// The banner: its first line, and the URL and request body of its curl example.
pub(crate) fn banner(child: &mut Child) -> (String, String, String) {
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    assert_eq!(lines.next().unwrap().unwrap(), "try:");
    let curl = lines.next().unwrap().unwrap();
    let url = curl.split_whitespace().nth(2).unwrap().to_owned();
    let body = curl.split(" -d '").nth(1).unwrap().trim_end_matches('\'').to_owned();
    (first, url, body)
}

/// SIGTERM, then the exit code and everything written to stderr.
pub(crate) fn terminate(child: &mut Child) -> (i32, String) {
    let status = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let status = child.wait().unwrap();
    let mut log = String::new();
    child.stderr.take().unwrap().read_to_string(&mut log).unwrap();
    (status.code().unwrap_or(-1), log)
}

/// POSTs `body` to `url` (`http://ADDR/`) with a raw HTTP/1.1 request on a connection of its
/// own, with `headers` (whole lines, each ending in CRLF) added: the response's status line and
/// body.
pub(crate) fn post_with(url: &str, headers: &str, body: &str) -> (String, String) {
    use std::io::Write;
    let addr = url.trim_start_matches("http://").trim_end_matches('/');
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "POST / HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n{headers}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    (head.lines().next().unwrap().to_owned(), body.to_owned())
}

/// `accord ARGS` on a blocking thread, so that a plant served on the test's runtime answers
/// meanwhile.
pub(crate) async fn accord_async(args: Vec<String>) -> Output {
    tokio::task::spawn_blocking(move || {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        accord(&args)
    })
    .await
    .expect("join")
}

/// `accord conform CONTRACT --url URL` with every semantics allowed, 6 calls, seed 5 and a JSON
/// report (and `extra` options): the report, once the run has exited 0 with zero failures and
/// every called method passed (the failed checks are shown otherwise).
pub(crate) async fn conform_passes(contract: &str, url: &str, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["conform", contract, "--url", url];
    args.extend(["--allow", "idempotent,write,destructive,undeclared"]);
    args.extend(["--calls", "6", "--seed", "5", "--timeout", "2000", "--format", "json"]);
    args.extend(extra);
    let out = accord_async(args.iter().map(|s| s.to_string()).collect()).await;
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("a JSON report");
    let failed: Vec<&serde_json::Value> = report["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .filter(|c| c["outcome"] == "failed")
        .collect();
    assert_eq!(out.status.code(), Some(0), "{failed:#?}\n{}", stderr(&out));
    assert_eq!(report["conforms"], true);
    assert_eq!(report["totals"]["failed"], 0, "{failed:#?}");
    for m in report["methods"].as_array().expect("methods") {
        assert_eq!(m["outcome"], "passed", "{m:#}");
    }
    report
}
