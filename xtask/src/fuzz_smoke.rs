//! `cargo xtask fuzz-smoke [--secs N]`: the `extract` fuzz target (fuzz/fuzz_targets/extract.rs,
//! libFuzzer) built and run for a bounded time, so that CI finds a panic, a stack overflow or a
//! hang that generated Rust source brings out of `accord extract`, whose input is untrusted (a
//! pull request's source).
//!
//! It needs neither cargo-fuzz nor a nightly toolchain: the target is built on the pinned stable
//! toolchain with the coverage flags cargo-fuzz passes when it runs without a sanitizer
//! (`-s none`), for the host triple given explicitly so that build scripts are not
//! instrumented, into the fuzz workspace's own target dir (fuzz/target, ignored by git). Built
//! `--release` with debug assertions, as cargo-fuzz builds: a debug build ran 7 inputs a second
//! here, the release build 152, and the smoke's seconds are few. The
//! corpus starts from the target's regression inputs (fuzz/regressions/extract-*.bin), so each
//! past finding is replayed first; libFuzzer then mutates for N seconds. A crash, a timeout of
//! one input (10 s) or memory past 2 GiB fails the task, naming the artifact and how to replay
//! it.

use std::{fs, path::Path, process::Command};

use anyhow::{Context, Result, bail};

use crate::workspace::{self, describe};

/// The longest run the task allows: CI's budget for the smoke.
pub(crate) const MAX_SECS: u64 = 60;
/// The default run.
pub(crate) const DEFAULT_SECS: u64 = 30;

/// cargo-fuzz's coverage flags without a sanitizer (its `-s none` build), with debug
/// assertions and overflow checks on, as cargo-fuzz builds by default.
const RUSTFLAGS: &[&str] = &[
    "-Cpasses=sancov-module",
    "-Cllvm-args=-sanitizer-coverage-level=4",
    "-Cllvm-args=-sanitizer-coverage-inline-8bit-counters",
    "-Cllvm-args=-sanitizer-coverage-pc-table",
    "-Cllvm-args=-sanitizer-coverage-trace-compares",
    "--cfg",
    "fuzzing",
    "-Cdebug-assertions",
    "-Coverflow-checks",
];

pub(crate) fn run(root: &Path, secs: u64) -> Result<()> {
    let fuzz = root.join("fuzz");
    let host = host_triple()?;
    let target_dir = fuzz.join("target");
    let mut build = workspace::cargo();
    build
        .current_dir(&fuzz)
        .args(["build", "--release", "--bin", "extract", "--target", &host])
        .env("CARGO_TARGET_DIR", &target_dir)
        // Not the workspace's flags: the fuzz build's own, passed one way only.
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env("RUSTFLAGS", RUSTFLAGS.join(" "));
    println!("fuzz-smoke: {}", describe(&build));
    let status = build.status().with_context(|| format!("could not run {}", describe(&build)))?;
    if !status.success() {
        bail!("{} failed ({status})", describe(&build));
    }

    // A fresh corpus each run, seeded with the regressions: what the run finds is the run's.
    let corpus = target_dir.join("smoke-corpus/extract");
    if corpus.exists() {
        fs::remove_dir_all(&corpus)
            .with_context(|| format!("could not clear {}", corpus.display()))?;
    }
    fs::create_dir_all(&corpus)?;
    let mut seeds = 0;
    for entry in fs::read_dir(fuzz.join("regressions"))? {
        let path = entry?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if name.starts_with("extract-") {
            fs::copy(&path, corpus.join(name))?;
            seeds += 1;
        }
    }
    let artifacts = fuzz.join("artifacts/extract");
    fs::create_dir_all(&artifacts)?;

    let binary = target_dir.join(&host).join("release/extract");
    let mut fuzz_run = Command::new(&binary);
    fuzz_run.current_dir(root).arg(&corpus).args([
        format!("-max_total_time={secs}"),
        "-timeout=10".to_owned(),
        "-rss_limit_mb=2048".to_owned(),
        format!("-artifact_prefix={}/", artifacts.display()),
        "-print_final_stats=1".to_owned(),
    ]);
    println!("fuzz-smoke: {seeds} regression input(s) as seeds; {}", describe(&fuzz_run));
    let status =
        fuzz_run.status().with_context(|| format!("could not run {}", binary.display()))?;
    if !status.success() {
        bail!(
            "the extract fuzz target failed ({status}): the input is in {} (replay it: {} FILE; keep it in fuzz/regressions/ once fixed)",
            artifacts.display(),
            binary.display()
        );
    }
    println!("fuzz-smoke: extract ran {secs} s with no finding");
    Ok(())
}

/// The host's target triple, from `rustc -vV`.
fn host_triple() -> Result<String> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = Command::new(&rustc).arg("-vV").output().context("could not run rustc -vV")?;
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .find_map(|l| l.strip_prefix("host: "))
        .map(str::to_owned)
        .context("rustc -vV named no host")
}
