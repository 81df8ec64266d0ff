//! The client matrix: `accord mcp` driven by the MCP clients people run, each a program of its
//! own that lists the tools, holds every annotation to the method's semantics, calls
//! `pump_status` (a result with a tuple, validated by the client against the tool's
//! `outputSchema`), calls it with an invalid and with an unknown argument (tool errors in text,
//! with no `structuredContent`), and reads the resources; it prints "N of M checks passed".
//!
//! - the TypeScript SDK over stdio and Streamable HTTP, and the MCP Inspector's CLI:
//!   crates/mcp/tests/clients (`npm ci` there; pinned in its package.json and lock);
//! - the Python SDK 1.x and 2.x: crates/mcp/tests/python_client.py with each venv.
//!
//! `cargo xtask test` installs them all (xtask/src/suite/needs.rs); a missing one fails its test
//! with what to install.

use std::path::PathBuf;
use std::process::Command;

use crate::common::root;

/// Runs one client of the matrix and holds it to "every check passed"; gives its count line.
fn run_client(client: &str, mut command: Command) -> String {
    let out = command.output().unwrap_or_else(|e| panic!("{client} did not start: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let count = stdout.lines().rev().find(|l| l.contains(" checks passed")).unwrap_or_default();
    assert!(
        out.status.success() && !count.is_empty(),
        "{client} failed ({}):\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    eprintln!("{count}");
    count.to_owned()
}

/// `node SCRIPT ARGS` in the pinned npm folder, after checking that `npm ci` ran there.
fn node_client(script: &str, args: &[&str]) -> Command {
    let kit = root().join("crates/mcp/tests/clients");
    for package in ["@modelcontextprotocol/sdk", "@modelcontextprotocol/inspector"] {
        assert!(
            kit.join("node_modules").join(package).join("package.json").exists(),
            "{package} is not installed in {}: `cargo xtask test` installs it (`npm ci` there; node and npm from Debian's nodejs and npm)",
            kit.display()
        );
    }
    let mut command = Command::new("node");
    command
        .arg(kit.join(script))
        .arg(env!("CARGO_BIN_EXE_accord"))
        .arg(root().join("fixtures/contracts"))
        .args(args)
        .current_dir(&kit);
    command
}

/// The interpreter of one Python SDK venv: `variable`, else the venv's place under the target
/// directory, which `cargo xtask test` makes.
fn python_client(variable: &str, folder: &str) -> Command {
    let python = std::env::var_os(variable).map(PathBuf::from).unwrap_or_else(|| {
        let target = std::env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| root().join("target"));
        root().join(target).join(folder).join("bin/python")
    });
    assert!(
        python.exists(),
        "the Python MCP SDK's venv is missing ({}): `cargo xtask test` makes it (or set {variable})",
        python.display()
    );
    let mut command = Command::new(python);
    command
        .arg(root().join("crates/mcp/tests/python_client.py"))
        .arg(env!("CARGO_BIN_EXE_accord"))
        .arg(root().join("fixtures/contracts"));
    command
}

#[test]
fn mcp_matrix_typescript_sdk_over_stdio() {
    let count = run_client("the TypeScript SDK", node_client("sdk_client.mjs", &["stdio"]));
    assert!(count.starts_with("typescript sdk (stdio): "), "{count}");
}

#[test]
fn mcp_matrix_typescript_sdk_over_streamable_http() {
    let count = run_client("the TypeScript SDK", node_client("sdk_client.mjs", &["http"]));
    assert!(count.starts_with("typescript sdk (http): "), "{count}");
}

#[test]
fn mcp_matrix_inspector_cli() {
    let count = run_client("the MCP Inspector CLI", node_client("inspector_client.mjs", &[]));
    assert!(count.starts_with("mcp inspector cli: "), "{count}");
}

#[test]
fn mcp_matrix_python_sdk_2() {
    let count = run_client("the Python SDK 2.x", python_client("ACCORD_MCP_PYTHON", "mcp-venv"));
    assert!(count.starts_with("python sdk 2."), "{count}");
}

#[test]
fn mcp_matrix_python_sdk_1() {
    let count = run_client("the Python SDK 1.x", python_client("ACCORD_MCP1_PYTHON", "mcp1-venv"));
    assert!(count.starts_with("python sdk 1."), "{count}");
}
