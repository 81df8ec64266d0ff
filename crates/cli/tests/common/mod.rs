//! What every end-to-end test of the `accord` binary needs: the workspace root, a runner that
//! runs in it (so paths in messages are relative and stable), and the bundled contracts.
// Each test binary uses its own part of this module.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

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

pub(crate) fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub(crate) fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}
