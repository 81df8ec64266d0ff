//! The process edges of `accord` (issue 22, item 7): stdout or stderr that cannot be written,
//! flag values out of range, token files no header can carry, SIGHUP re-reading the token file,
//! and SIGTERM with a stderr pipe that nobody reads.

use std::fs::File;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use crate::common::*;

fn dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("process-edges").join(name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `accord ARGS` with stdout (or stderr) `/dev/full`: every write fails with ENOSPC.
fn with_full(args: &[&str], stream: &str) -> (Option<i32>, String) {
    let full = || Stdio::from(File::options().write(true).open("/dev/full").unwrap());
    let mut command = Command::new(env!("CARGO_BIN_EXE_accord"));
    command.args(args).current_dir(root()).env("NO_COLOR", "1");
    if stream == "stdout" {
        command.stdout(full()).stderr(Stdio::piped());
    } else {
        command.stdout(Stdio::null()).stderr(full());
    }
    let out = command.output().unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// `accord ARGS` whose stdout is a pipe already closed by its reader.
fn with_closed_pipe(args: &[&str]) -> (Option<i32>, String) {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_accord"))
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// Waits up to `limit` for the child to exit; kills it (and fails) past that.
fn wait_within(child: &mut Child, limit: Duration, what: &str) -> ExitStatus {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn signal(child: &Child, name: &str) {
    let status = Command::new("kill").args([name, &child.id().to_string()]).status().unwrap();
    assert!(status.success());
}

#[test]
fn every_command_exits_2_with_a_message_when_stdout_is_full() {
    let schema = "export jsonschema fixtures/contracts/pump-plant.types.json";
    let cases: Vec<Vec<&str>> = vec![
        vec!["--help"],
        vec!["--version"],
        vec!["inspect", PUMP],
        vec!["rules"],
        vec!["explain", "method-removed"],
        vec!["fmt", "--stdout", PUMP],
        vec!["check", PUMP],
        vec!["diff", OLD_PUMP, PUMP],
        vec!["sample", PUMP, "--type", "pump.PumpStatus", "--count", "3"],
        schema.split(' ').collect(),
        vec!["serve", PUMP, "--addr", "127.0.0.1:0"],
    ];
    for args in cases {
        let (code, stderr) = with_full(&args, "stdout");
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("No space left on device"), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn a_message_stderr_cannot_take_does_not_panic() {
    let (code, _) = with_full(&["inspect", "fixtures/contracts/none.types.json"], "stderr");
    assert_eq!(code, Some(2));
    let (code, _) = with_full(&["serve", PUMP, "--max-connections", "0"], "stderr");
    assert_eq!(code, Some(2));
}

#[test]
fn a_closed_pipe_ends_a_lister_quietly_but_not_serve_s_banner() {
    let (code, stderr) = with_closed_pipe(&["rules"]);
    assert_eq!((code, stderr.as_str()), (Some(0), ""));
    // The exit code is still the command's own: the check's problems are not forgotten.
    let (code, stderr) = with_closed_pipe(&["diff", OLD_PUMP, PUMP]);
    assert_eq!((code, stderr.as_str()), (Some(1), ""));
    // Written value by value, so a closed pipe ends a long run at once.
    let started = Instant::now();
    let args = ["sample", PUMP, "--type", "pump.PumpStatus", "--count", "100000000"];
    let (code, stderr) = with_closed_pipe(&args);
    assert_eq!((code, stderr.as_str()), (Some(0), ""));
    assert!(started.elapsed() < Duration::from_secs(30), "sample ran on: {:?}", started.elapsed());
    // The banner is the only place serve tells its URL: nobody reading it is an error.
    let (code, stderr) = with_closed_pipe(&["serve", PUMP, "--addr", "127.0.0.1:0"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("cannot write the banner"), "{stderr}");
}

#[test]
fn numeric_flags_out_of_range_are_usage_errors() {
    for (flag, value) in [
        ("--max-connections", "2305843009213693952"),
        ("--max-connections", "4294967296"),
        ("--max-connections", "0"),
        ("--max-depth", "129"),
        ("--max-body-bytes", "18446744073709551616"),
        ("--event-interval", "0"),
    ] {
        let out = accord(&["serve", PUMP, "--addr", "127.0.0.1:0", flag, value]);
        assert_eq!(out.status.code(), Some(2), "{flag} {value}: {}", stderr(&out));
        assert!(stderr(&out).contains(flag), "{flag} {value}: {}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"), "{flag} {value}: {}", stderr(&out));
    }
    let url = "http://127.0.0.1:1/";
    for (flag, value) in [("--calls", "18446744073709551615"), ("--timeout", "0")] {
        let out = accord(&["conform", PUMP, "--url", url, "--dry-run", flag, value]);
        assert_eq!(out.status.code(), Some(2), "{flag} {value}: {}", stderr(&out));
        assert!(stderr(&out).contains(flag), "{flag} {value}: {}", stderr(&out));
    }
}

#[test]
fn a_token_no_header_can_carry_exits_2_naming_the_file_and_the_reason() {
    let dir = dir("tokens");
    let long = "a".repeat(4097);
    for (name, text, reason) in [
        ("empty.token", "\n", "the token file is empty"),
        ("newline.token", "s3cret\nsecond\n", "a line break"),
        ("nul.token", "s3cret\0\n", "a NUL byte"),
        ("accent.token", "s\u{e9}cret\n", "past ASCII"),
        ("leading.token", "  s3cret\n", "loses only its trailing whitespace"),
        ("long.token", long.as_str(), "4097 bytes"),
    ] {
        let file = dir.join(name);
        std::fs::write(&file, text).unwrap();
        let file = file.to_str().unwrap();
        for args in [
            vec!["serve", PUMP, "--addr", "127.0.0.1:0", "--token-file", file],
            vec!["conform", PUMP, "--url", "http://127.0.0.1:1/", "--token-file", file],
        ] {
            let out = accord(&args);
            assert_eq!(out.status.code(), Some(2), "{name} {}: {}", args[0], stderr(&out));
            let message = stderr(&out);
            assert!(message.contains(name) && message.contains(reason), "{name}: {message}");
            assert!(message.starts_with("error: the token file "), "{name}: {message}");
        }
    }
}

/// POSTs `body` with `token`: the status line and body.
fn post(url: &str, token: &str, body: &str) -> (String, String) {
    post_with(url, &format!("Authorization: Bearer {token}\r\n"), body)
}

#[test]
fn sighup_re_reads_the_token_file_and_keeps_the_old_token_when_the_new_one_is_bad() {
    let file = dir("sighup").join("plant.token");
    std::fs::write(&file, "first-token\n").unwrap();
    let mut child =
        spawn_serve(&[PUMP, "--addr", "127.0.0.1:0", "--token-file", file.to_str().unwrap()]);
    let (_, url, body) = banner(&mut child);
    assert_eq!(post(&url, "first-token", &body).0, "HTTP/1.1 200 OK");

    std::fs::write(&file, "second-token\n").unwrap();
    signal(&child, "-HUP");
    let deadline = Instant::now() + Duration::from_secs(10);
    while post(&url, "second-token", &body).0 != "HTTP/1.1 200 OK" {
        assert!(Instant::now() < deadline, "the new token was never taken");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(post(&url, "first-token", &body).0, "HTTP/1.1 401 Unauthorized");

    // A token no header can carry is not taken: the one in place stays.
    std::fs::write(&file, "third\ntoken\n").unwrap();
    signal(&child, "-HUP");
    std::thread::sleep(Duration::from_millis(300));
    let (status, answer) = post(&url, "second-token", &body);
    assert_eq!(status, "HTTP/1.1 200 OK", "{answer}");
    let (code, log) = terminate(&mut child);
    assert_eq!(code, 0, "{log}");
    assert!(log.contains("token file re-read; the new token is in place"), "{log}");
    assert!(log.contains("token file not re-read; the old token stays"), "{log}");
    assert!(log.contains("a line break"), "{log}");
    assert!(!log.contains("second-token") && !log.contains("third"), "a token in the log: {log}");
}

#[test]
fn sigterm_ends_serve_in_time_while_nobody_reads_its_stderr() {
    // stderr is a pipe this test never reads: once its 64 KiB are full, every write to it
    // blocks. The log's lines are long (the unknown method's name is in each), so a few
    // hundred requests fill it many times over.
    let mut child = spawn_serve(&[PUMP, "--addr", "127.0.0.1:0"]);
    let (_, url, _) = banner(&mut child);
    let addr = url.trim_start_matches("http://").trim_end_matches('/').to_owned();
    let method = "x".repeat(4000);
    let body = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"{method}"}}"#);
    let mut stream = TcpStream::connect(&addr).unwrap();
    let mut answer = [0u8; 64 * 1024];
    for _ in 0..300 {
        write!(
            stream,
            "POST / HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        // One answer per request (the -32601 is far shorter than the buffer).
        let n = stream.read(&mut answer).unwrap();
        assert!(n > 0);
    }
    drop(stream);
    // Let the log's writer fill the pipe and block on it.
    std::thread::sleep(Duration::from_millis(300));
    let started = Instant::now();
    signal(&child, "-TERM");
    // The grace for requests in flight (none here) and one second for the log's last lines.
    let status = wait_within(&mut child, Duration::from_secs(15), "serve after SIGTERM");
    assert_eq!(status.code(), Some(0));
    assert!(started.elapsed() < Duration::from_secs(7), "took {:?}", started.elapsed());
}
