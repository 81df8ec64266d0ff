//! Semantics as the user wrote them. `accord import openrpc --config accord.toml` once read the
//! `[import.semantics]` table with its keys sorted, so `read = ["eth_*"]` came first and made
//! `eth_sendTransaction`, `eth_sign*` and `eth_newFilter` reads; `accord mcp` then offered them to
//! an agent with `readOnlyHint: true`. These tests import the Ethereum execution API as a user
//! would and hold the answer that matters: nothing that sends or signs is a read.

use rmcp::ServiceExt;
use rmcp::transport::TokioChildProcess;
use serde_json::Value;

use crate::common::*;

const SOURCE: &str = "fixtures/import/execution-apis/source/openrpc.refs.json";
const CONFIG: &str = "fixtures/import/execution-apis/accord.toml";

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("accord-import-sem-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every method's wire name (`eth_sendTransaction`) with its semantics, if declared.
fn semantics(contract: &Value) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    for (ns, record) in contract["namespaces"].as_object().unwrap() {
        for (name, m) in record["methods"].as_object().into_iter().flatten() {
            let s = m.get("semantics").and_then(Value::as_str).map(str::to_owned);
            out.push((format!("{ns}_{name}"), s));
        }
    }
    out
}

fn import(args: &[&str], out_file: &std::path::Path) -> std::process::Output {
    let mut all = vec!["import", "openrpc", SOURCE, "--out", out_file.to_str().unwrap()];
    all.extend_from_slice(args);
    let out = accord(&all);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    out
}

fn assert_nothing_that_sends_or_signs_is_a_read(contract: &Value) {
    let all = semantics(contract);
    let risky: Vec<&(String, Option<String>)> = all
        .iter()
        .filter(|(n, _)| {
            ["eth_send", "eth_sign", "eth_newFilter", "eth_newBlockFilter"]
                .iter()
                .any(|p| n.starts_with(p))
        })
        .collect();
    assert_eq!(
        risky.len(),
        6,
        "sendTransaction, sendRawTransaction, sign, signTransaction, newFilter, newBlockFilter: {risky:?}"
    );
    for (name, s) in risky {
        assert_eq!(s.as_deref(), Some("write"), "{name}");
    }
}

#[test]
fn the_config_files_rules_apply_in_file_order_and_overlaps_are_reported() {
    let dir = temp("config");
    let out_file = dir.join("eth.types.json");
    let out = import(&["--config", CONFIG], &out_file);
    let contract: Value =
        serde_json::from_str(&std::fs::read_to_string(&out_file).unwrap()).unwrap();
    assert_nothing_that_sends_or_signs_is_a_read(&contract);
    // The committed fixture is what the import writes.
    let committed =
        std::fs::read_to_string(root().join("fixtures/import/execution-apis/expected.types.json"))
            .unwrap();
    assert_eq!(std::fs::read_to_string(&out_file).unwrap(), committed);
    let committed: Value = serde_json::from_str(&committed).unwrap();
    assert_nothing_that_sends_or_signs_is_a_read(&committed);
    // `eth_sendTransaction` matches `write` (eth_send*) and `read` (eth_*): reported.
    let err = stderr(&out);
    assert!(
        err.contains("note: ") && err.contains("semantics-overlap: `eth_sendTransaction` matches `write` (`eth_send*`) and later `read` (`eth_*`); the first rule applies: `write`"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn flags_apply_in_command_line_order_and_come_before_the_file() {
    let dir = temp("flags");
    let out_file = dir.join("eth.types.json");
    // The same rules as flags, in the file's order: the same semantics.
    import(
        &[
            "--semantics",
            "write=eth_getFilterChanges,eth_newFilter,eth_newBlockFilter,eth_newPendingTransactionFilter,eth_send*,eth_sign*",
            "--semantics",
            "idempotent=eth_uninstallFilter",
            "--semantics",
            "read=eth_*",
        ],
        &out_file,
    );
    let flags: Value = serde_json::from_str(&std::fs::read_to_string(&out_file).unwrap()).unwrap();
    assert_nothing_that_sends_or_signs_is_a_read(&flags);
    // The other order: the first match wins, so `read` takes every eth method.
    import(&["--semantics", "read=eth_*", "--semantics", "write=eth_send*"], &out_file);
    let reversed: Value =
        serde_json::from_str(&std::fs::read_to_string(&out_file).unwrap()).unwrap();
    let send = reversed["namespaces"]["eth"]["methods"]["sendTransaction"]["semantics"].clone();
    assert_eq!(send, "read", "first match wins, as --help says");
    // A flag comes before the file, so it wins over it.
    import(&["--semantics", "destructive=eth_sendRawTransaction", "--config", CONFIG], &out_file);
    let both: Value = serde_json::from_str(&std::fs::read_to_string(&out_file).unwrap()).unwrap();
    assert_eq!(
        both["namespaces"]["eth"]["methods"]["sendRawTransaction"]["semantics"],
        "destructive"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `accord mcp` of the import: `eth_sendTransaction` is no read-only tool.
#[tokio::test]
async fn mcp_of_the_imported_contract_gives_send_transaction_no_read_only_hint() {
    let dir = temp("mcp");
    let out_file = dir.join("eth.types.json");
    import(&["--config", CONFIG], &out_file);
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_accord"));
    command.arg("mcp").arg(&out_file).stderr(std::process::Stdio::null());
    let client = ().serve(TokioChildProcess::new(command).unwrap()).await.unwrap();
    let tools = client.list_all_tools().await.unwrap();
    client.cancel().await.unwrap();
    let hint = |name: &str| {
        let tool =
            tools.iter().find(|t| t.name == name).unwrap_or_else(|| panic!("{name} is a tool"));
        tool.annotations.as_ref().and_then(|a| a.read_only_hint)
    };
    for name in [
        "eth_sendTransaction",
        "eth_sendRawTransaction",
        "eth_sign",
        "eth_signTransaction",
        "eth_newFilter",
    ] {
        assert_ne!(hint(name), Some(true), "{name} must not be offered as read-only");
    }
    assert_eq!(hint("eth_getBalance"), Some(true), "a real read keeps its hint");
    let _ = std::fs::remove_dir_all(&dir);
}
