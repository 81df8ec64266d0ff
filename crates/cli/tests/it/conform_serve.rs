//! `accord conform` against `accord serve`, both as shipped: every bundled contract (the jsonrpsee
//! boiler plant's foreign wire among them), served with and without a credential, passes a
//! conformance run with every semantics allowed.

use std::process::Child;

use crate::common::*;

/// accord's own wire twice, and jsonrpsee's (`_` names, no describe method, jsonrpsee's codes, a
/// per-subscription event): the fake speaks whatever wire its contract declares, and conform
/// holds it to the same one.
const CONTRACTS: [&str; 3] = [
    "fixtures/contracts/pump-plant.types.json",
    "fixtures/contracts/work-queue.types.json",
    "fixtures/contracts/boiler-plant.types.json",
];

/// Stops the plant however the test ends, so no server outlives it.
struct Plant(Child);

impl Drop for Plant {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn conform_passes_against_accord_serve_for_every_bundled_contract() {
    let dir = std::env::temp_dir().join(format!("accord-conform-serve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let token = dir.join("plant.token");
    std::fs::write(&token, "s3cret-for-the-test\n").unwrap();
    let token = token.display().to_string();
    for contract in CONTRACTS {
        for with_token in [false, true] {
            let mut args = vec![contract, "--addr", "127.0.0.1:0", "--seed", "3"];
            if with_token {
                args.extend(["--token-file", &token]);
            }
            let mut plant = Plant(spawn_serve(&args));
            let (_, url, _) = banner(&mut plant.0);
            let mut conform = vec![
                "conform",
                contract,
                "--url",
                &url,
                "--allow",
                "idempotent,write,destructive,undeclared",
                "--calls",
                "8",
                "--seed",
                "11",
            ];
            if with_token {
                conform.extend(["--token-file", &token]);
            }
            let out = accord(&conform);
            let report = stdout(&out);
            assert_eq!(
                out.status.code(),
                Some(0),
                "{contract} (token: {with_token}):\n{report}\n{}",
                stderr(&out)
            );
            assert!(!report.contains("failed:"), "{contract}: {report}");
            let (code, log) = terminate(&mut plant.0);
            assert_eq!(code, 0, "{contract}: accord serve did not stop cleanly:\n{log}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A plant that wants a token, run without one: one stop after describe, named
/// `credential-missing` (nothing was refused: nothing was sent), not a failure per call.
#[test]
fn without_the_plant_s_token_the_run_stops_once() {
    let dir = std::env::temp_dir().join(format!("accord-conform-no-token-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let token = dir.join("plant.token");
    std::fs::write(&token, "s3cret-for-the-test\n").unwrap();
    let token = token.display().to_string();
    let mut plant = Plant(spawn_serve(&[PUMP, "--addr", "127.0.0.1:0", "--token-file", &token]));
    let (_, url, _) = banner(&mut plant.0);
    let out = accord(&["conform", PUMP, "--url", &url, "--format", "json"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    let failed = failed_checks(&report);
    assert_eq!(failed.len(), 1, "one stop, not a failure per call: {failed:#?}");
    let kinds = failed[0].to_string();
    assert!(kinds.contains("credential-missing"), "{kinds}");
    assert!(!kinds.contains("right-credential-refused"), "no credential was sent: {kinds}");
    let text = stdout(&accord(&["conform", PUMP, "--url", &url]));
    assert!(text.contains("// credential: none"), "the transcript says what was sent: {text}");
    assert!(text.contains("the run stopped after describe"), "{text}");
    assert!(!text.contains("(0 checks)"), "untouched methods are not listed: {text}");
    let (code, log) = terminate(&mut plant.0);
    assert_eq!(code, 0, "{log}");
    let _ = std::fs::remove_dir_all(&dir);
}
