//! The client libraries people use against `accord serve` of the imported Ethereum execution
//! API (fixtures/import/execution-apis), with default options, over five seeds: ethers v6 and
//! viem (crates/cli/tests/eth-clients, pinned in its package.json, `npm ci` by
//! `cargo xtask test`) and web3.py (a venv `cargo xtask test` makes, `ACCORD_WEB3_PYTHON`).
//! Each makes the same 16 typical calls (calls.mjs, web3_calls.py).
//!
//! Every failure must be one docs/interop.md lists (section "Client libraries against the
//! fake"), by library, call and the error's words, with its cause. Failures whose cause is the
//! spec (it refuses what the client sends, or lacks a rule the client relies on) are left out
//! of the count, and only those; each library then gets at least 95% of its calls through, on
//! each seed.
//! A listed row that no run shows any more fails the test too, so the list stays true.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::*;

const CONTRACT: &str = "fixtures/import/execution-apis/expected.types.json";
const SEEDS: std::ops::Range<u64> = 0..5;
const LIBRARIES: [&str; 3] = ["ethers", "viem", "web3.py"];

/// One row of docs/interop.md's table of failures.
#[derive(Debug)]
struct Listed {
    library: String,
    call: String,
    /// Words the failure's message holds.
    error: String,
    /// `spec` (left out of the count), `fake` or `client`.
    cause: String,
    seen: bool,
}

/// The rows of the table between the two markers of docs/interop.md.
fn listed() -> Vec<Listed> {
    let doc = std::fs::read_to_string(root().join("docs/interop.md")).unwrap();
    let start = doc.find("<!-- eth-clients:start -->").expect("docs/interop.md has the table");
    let end = doc.find("<!-- eth-clients:end -->").expect("docs/interop.md ends the table");
    doc[start..end]
        .lines()
        .filter(|line| {
            line.starts_with("| ") && !line.starts_with("| library") && !line.starts_with("| ---")
        })
        .map(|line| {
            let cells: Vec<&str> = line.trim_matches('|').split(" | ").map(str::trim).collect();
            assert!(cells.len() >= 5, "docs/interop.md: a row needs five cells: {line}");
            let code = |cell: &str| cell.trim_matches('`').to_owned();
            Listed {
                library: cells[0].to_owned(),
                call: code(cells[1]),
                error: code(cells[2]),
                cause: cells[3].to_owned(),
                seen: false,
            }
        })
        .collect()
}

/// The venv's interpreter: `ACCORD_WEB3_PYTHON`, else the venv under the target directory.
fn web3_python() -> PathBuf {
    let python = std::env::var_os("ACCORD_WEB3_PYTHON").map(PathBuf::from).unwrap_or_else(|| {
        let target = std::env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| root().join("target"));
        root().join(target).join("web3-venv/bin/python")
    });
    assert!(
        python.exists(),
        "web3.py's venv is missing ({}): `cargo xtask test` makes it (or set ACCORD_WEB3_PYTHON to a python with web3==8.0.0)",
        python.display()
    );
    python
}

/// How long one library's calls may take (they take a few seconds): a client stuck on the
/// fake fails the test instead of hanging it.
const RUN_LIMIT: Duration = Duration::from_secs(120);

/// `command`'s output, killed and failed past `limit`.
fn output_within(command: &mut Command, limit: Duration, what: &str) -> Output {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{what} does not start: {e}"));
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > limit {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("{what}'s calls took more than {} s", limit.as_secs());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

/// The lines one library's script wrote: (call, error) with `None` for a call that went through.
fn run_library(library: &str, url: &str, python: &PathBuf) -> Vec<(String, Option<String>)> {
    let kit = root().join("crates/cli/tests/eth-clients");
    let mut command = if library == "web3.py" {
        let mut command = Command::new(python);
        command.arg(kit.join("web3_calls.py")).arg(url);
        command
    } else {
        assert!(
            kit.join("node_modules").join(library).join("package.json").exists(),
            "{library} is not installed in {}: `cargo xtask test` installs it (`npm ci` there)",
            kit.display()
        );
        let mut command = Command::new("node");
        command.arg(kit.join("calls.mjs")).arg(library).arg(url);
        command
    };
    let out = output_within(&mut command, RUN_LIMIT, library);
    assert!(
        out.status.success(),
        "{library}'s calls did not run: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|line| {
            let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{line}: {e}"));
            let call = v["call"].as_str().unwrap().to_owned();
            let error = (v["ok"] != Value::Bool(true))
                .then(|| v["error"].as_str().unwrap_or("").to_owned());
            (call, error)
        })
        .collect()
}

#[test]
fn ethers_viem_and_web3py_get_their_calls_through_the_default_fake() {
    let python = web3_python();
    let mut rows = listed();
    // library -> per seed (through, counted, left out as the spec's)
    let mut figures: BTreeMap<&str, Vec<(usize, usize, usize)>> = BTreeMap::new();
    let mut unlisted = Vec::new();
    for seed in SEEDS {
        let seed_arg = seed.to_string();
        let mut plant = spawn_serve(&[CONTRACT, "--addr", "127.0.0.1:0", "--seed", &seed_arg]);
        let (_, url, _) = banner(&mut plant);
        for library in LIBRARIES {
            let results = run_library(library, &url, &python);
            assert!(results.len() >= 12, "{library}: at least 12 calls, got {}", results.len());
            let (mut through, mut counted, mut left_out) = (0, 0, 0);
            for (call, error) in results {
                let Some(error) = error else {
                    through += 1;
                    counted += 1;
                    continue;
                };
                match rows
                    .iter_mut()
                    .find(|r| r.library == library && r.call == call && error.contains(&r.error))
                {
                    Some(row) => {
                        row.seen = true;
                        if row.cause.starts_with("spec") {
                            left_out += 1;
                        } else {
                            counted += 1;
                        }
                    }
                    None => {
                        counted += 1;
                        unlisted.push(format!("seed {seed} {library} {call}: {error}"));
                    }
                }
            }
            figures.entry(library).or_default().push((through, counted, left_out));
        }
        let (code, log) = terminate(&mut plant);
        assert_eq!(code, 0, "accord serve --seed {seed}: {log}");
    }
    let report: Vec<String> = figures
        .iter()
        .map(|(library, seeds)| {
            let per_seed: Vec<String> =
                seeds.iter().map(|(t, c, l)| format!("{t}/{c} (+{l} spec)")).collect();
            format!("{library}: {}", per_seed.join(", "))
        })
        .collect();
    let report = report.join("\n");
    println!("{report}");
    assert!(
        unlisted.is_empty(),
        "failures docs/interop.md does not list (add each with its cause):\n{}\n{report}",
        unlisted.join("\n")
    );
    let stale: Vec<String> = rows
        .iter()
        .filter(|r| !r.seen)
        .map(|r| format!("{} {} `{}`", r.library, r.call, r.error))
        .collect();
    assert!(stale.is_empty(), "docs/interop.md lists failures no run showed: {stale:?}");
    for (library, seeds) in &figures {
        for (seed, (through, counted, _)) in SEEDS.zip(seeds) {
            assert!(
                through * 100 >= counted * 95,
                "{library}, seed {seed}: {through} of {counted} calls through, under 95%\n{report}"
            );
        }
    }
}

/// What docs/interop.md says of the spec, checked on the fake itself: `eth_call` with `data`
/// is refused as the closed object's (and goes through with `input`, the spec's name), the
/// one cause of the calls it leaves out; and the signature members ethers checks are a `byte`
/// that admits values ethers refuses (a `v` of `0x05`, a `yParity` of `0x1b`), so they agree
/// by the default's static values (docs/serve.md), not by any rule of the contract.
#[test]
fn the_spec_refuses_data_and_admits_signatures_ethers_refuses() {
    let mut plant = spawn_serve(&[CONTRACT, "--addr", "127.0.0.1:0"]);
    let (_, url, _) = banner(&mut plant);
    let call = |member: &str| {
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{{"to":"0x6b175474e89094c44da98b954eedeac495271d0f","{member}":"0x70a08231"}},"latest"]}}"#
        );
        let (_, answer) = post_with(&url, "", &body);
        serde_json::from_str::<Value>(&answer).unwrap()
    };
    let refused = call("data");
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert_eq!(refused["error"]["data"]["errors"][0]["path"], "/0/data", "{refused}");
    assert_eq!(refused["error"]["data"]["errors"][0]["rule"], "closed", "{refused}");
    let through = call("input");
    assert!(through["result"].as_str().is_some_and(|r| r.starts_with("0x")), "{through}");
    let (code, log) = terminate(&mut plant);
    assert_eq!(code, 0, "{log}");

    for (member, value) in [("v", "0x05"), ("yParity", "0x1b")] {
        let mut transaction = serde_json::json!({
            "type": "0x2", "nonce": "0x0", "gas": "0x5208", "value": "0x0", "input": "0x",
            "maxPriorityFeePerGas": "0x1", "maxFeePerGas": "0x2", "gasPrice": "0x2",
            "accessList": [], "chainId": "0x1", "r": "0x1", "s": "0x1",
            "yParity": "0x0", "v": "0x0",
        });
        transaction[member] = Value::from(value);
        let out = accord_with_stdin(
            &["validate", CONTRACT, "--type", "eth.Transaction1559Signed", "-"],
            &transaction.to_string(),
        );
        assert_eq!(
            out.status.code(),
            Some(0),
            "{member} {value}: {}{}",
            stdout(&out),
            stderr(&out)
        );
    }
}
