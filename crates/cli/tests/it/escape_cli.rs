//! A contract, an input or a peer holding ESC and other control characters cannot drive the
//! terminal through accord's output: `inspect`, `validate`, `conform` and `serve` write them
//! out (`\u001b`), as check's and lint's diagnostics do (lint_cli.rs).

use crate::common::*;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::Output;

/// Bytes no output may carry: ESC, BEL, CSI (C1) and the right-to-left override.
const DRIVERS: [&str; 4] = ["\u{1b}", "\u{7}", "\u{9b}", "\u{202e}"];

fn assert_harmless(what: &str, bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    for driver in DRIVERS {
        assert!(!text.contains(driver), "{what} carries {driver:?}:\n{text}");
    }
}

fn assert_output_harmless(what: &str, out: &Output) {
    assert_harmless(&format!("{what}: stdout"), &out.stdout);
    assert_harmless(&format!("{what}: stderr"), &out.stderr);
}

/// A contract whose every name, description and semantics holds control characters (as JSON
/// escapes: the document is valid JSON and reads). Each test process writes a file of its own:
/// nextest runs the tests of this file side by side, and one rewriting a shared file while
/// another's `accord serve` read it gave that serve half a document (a flaky "no URL").
fn contract() -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("escape-cli");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("esc-{}.types.json", std::process::id()));
    std::fs::write(
        &file,
        r#"{
  "schema": 1,
  "name": "plant\u001b[31m\u0007",
  "namespaces": {
    "pu\u001b[2Jmp": {
      "version": "1.0.0",
      "component": { "name": "drv\u009b31m" },
      "methods": {
        "go\u001b[31m": {
          "semantics": "re\u001bad",
          "params": [{ "name": "n\u202eame", "type": { "kind": "integer" } }],
          "result": { "kind": "ref", "name": "T\u001b[0m" },
          "examples": [{ "params": { "n\u202eame": 1 }, "result": { "k\u001b": "v\u0007" } }]
        },
        "read\u001b": { "semantics": "read", "result": { "kind": "string", "maxLength": 1 } }
      },
      "types": {
        "T\u001b[0m": { "kind": "object", "fields": { "k\u001b": { "type": { "kind": "string" } } }, "closed": true }
      }
    }
  }
}
"#,
    )
    .unwrap();
    file
}

#[test]
fn inspect_writes_control_characters_out() {
    let file = contract();
    for format in ["text", "json"] {
        let out = accord(&["inspect", file.to_str().unwrap(), "--format", format]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert_output_harmless(&format!("inspect --format {format}"), &out);
        assert!(stdout(&out).contains("go\\u001b[31m"), "{}", stdout(&out));
    }
}

#[test]
fn validate_writes_the_inputs_control_characters_out() {
    let file = contract();
    let file = file.to_str().unwrap();
    let target = "pu\u{1b}[2Jmp.T\u{1b}[0m";
    // A member the closed object does not declare, and a value of the wrong type, both named
    // with controls; as a value and as JSON Lines, in text and JSON.
    let input = "{\"k\\u001b\": 5, \"x\\u001b[31m\\u0007\": \"\\u202e\"}";
    for format in ["text", "json"] {
        let out =
            accord_with_stdin(&["validate", file, "--type", target, "--format", format], input);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert_output_harmless(&format!("validate --format {format}"), &out);
        let lines = format!("{input}\n{input}\n");
        let out = accord_with_stdin(
            &["validate", file, "--type", target, "--jsonl", "--format", format],
            &lines,
        );
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert_output_harmless(&format!("validate --jsonl --format {format}"), &out);
    }
    let out = accord_with_stdin(&["validate", file, "--type", target], input);
    assert!(stdout(&out).contains("\\u001b[31m"), "{}", stdout(&out));
    // Raw control bytes in what is not JSON; a target that is not there (a did-you-mean names
    // the contract's types).
    let out = accord_with_stdin(&["validate", file, "--type", target], "\"\u{1b}[31m\u{7}\"");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_output_harmless("validate of raw controls", &out);
    let out = accord_with_stdin(&["validate", file, "--type", "pu\u{1b}[2Jmp.T\u{1b}[1m"], "1");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_output_harmless("validate of a misspelt type", &out);
}

/// A plant on loopback that answers every call with a result of control characters, as a
/// hostile or broken peer may: its address.
fn hostile_plant() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            std::thread::spawn(move || answer_all(stream));
        }
    });
    format!("http://{addr}/")
}

/// Answers each HTTP request on `stream` with the same JSON-RPC response, its id copied.
fn answer_all(stream: std::net::TcpStream) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut writer = stream;
    loop {
        let mut length = 0;
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse().unwrap_or(0);
            }
        }
        let mut body = vec![0; length];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        let request: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
        let answer = serde_json::json!({
            "jsonrpc": "2.0",
            "id": request.get("id").cloned().unwrap_or_default(),
            "error": { "code": -5, "message": "bo\u{1b}[2Jom\u{7}\u{9b}1m\u{202e}", "data": "\u{1b}]0;title\u{7}" },
        });
        let answer = answer.to_string().replace("\\u001b", "\u{1b}").replace("\\u0007", "\u{7}");
        // Raw control bytes in the body, as a peer that does not escape them would send.
        let response = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{answer}",
            answer.len()
        );
        if writer.write_all(response.as_bytes()).is_err() {
            return;
        }
    }
}

#[test]
fn conform_writes_the_contracts_and_the_plants_control_characters_out() {
    let file = contract();
    let file = file.to_str().unwrap();
    let url = hostile_plant();
    for format in ["text", "json"] {
        let out = accord(&["conform", file, "--url", &url, "--dry-run", "--format", format]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert_output_harmless(&format!("conform --dry-run --format {format}"), &out);
    }
    for format in ["text", "json", "junit"] {
        let out = accord(&[
            "conform",
            file,
            "--url",
            &url,
            "--allow",
            "undeclared",
            "--calls",
            "2",
            "--format",
            format,
        ]);
        assert_ne!(out.status.code(), Some(0), "{}\n{}", stdout(&out), stderr(&out));
        assert_output_harmless(&format!("conform --format {format}"), &out);
        if format == "text" {
            // The plant's answer is quoted, written out.
            assert!(stdout(&out).contains("bo\\u001b[2Jom"), "{}", stdout(&out));
        }
    }
}

#[test]
fn serve_writes_the_contracts_and_the_peers_control_characters_out() {
    let file = contract();
    let file = file.to_str().unwrap();
    for format in ["text", "json"] {
        let mut child = spawn_serve(&[file, "--addr", "127.0.0.1:0", "--log-format", format]);
        let mut banner = String::new();
        let mut lines = BufReader::new(child.stdout.take().unwrap());
        lines.read_line(&mut banner).unwrap();
        let mut rest = String::new();
        for _ in 0..2 {
            lines.read_line(&mut rest).unwrap();
        }
        let url = rest
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .expect("a URL in the banner")
            .to_owned();
        // A method that is not there and ids the log writes, with JSON escapes and raw bytes.
        for body in [
            r#"{"jsonrpc": "2.0", "id": "\u001b[31m\u009b", "method": "pu\u001b[2Jmp.go\u001b[31m", "params": {"n\u202eame": 1}}"#,
            r#"{"jsonrpc": "2.0", "id": 1, "method": "\u001b]0;x\u0007\u202e"}"#,
            "{\"jsonrpc\": \"2.0\", \"id\": \"\u{1b}[31m\", \"method\": \"x\"}",
        ] {
            let _ = post_with(&url, "", body);
        }
        let (_, log) = terminate(&mut child);
        assert_harmless(&format!("serve --log-format {format}: banner"), banner.as_bytes());
        assert_harmless(&format!("serve --log-format {format}: banner"), rest.as_bytes());
        assert_harmless(&format!("serve --log-format {format}: log"), log.as_bytes());
        assert!(log.contains("call"), "{log}");
    }
}
