//! `cargo xtask bless [NEXTEST ARGS]`: updates every generated file behind one variable.
//!
//! Three kinds of generated file are checked by the tests and the goldens by `cargo xtask
//! fixtures --check`; each used to have its own switch. Blessing is one command:
//!
//! 1. the goldens (`fixtures/golden/current/`), as `cargo xtask fixtures` writes them;
//! 2. the test suite under `ACCORD_BLESS=1` and `INSTA_UPDATE=always`: every insta snapshot is
//!    rewritten in place, and the tests that compare a file with its generator write the file
//!    instead of failing (docs/compat-rules.md, docs/lint-rules.md, extract's
//!    `expected.types.json`).
//!
//! Arguments are handed to `cargo nextest run` (`cargo xtask bless -p accord-compat-diff`
//! blesses one crate; without them, the workspace). Review what changed with `git diff` before
//! committing: a blessed file is only as right as the code that wrote it.

use std::path::Path;

use anyhow::{Result, bail};

use crate::{ensure::Mode, fixtures, workspace};

/// The variable every test that compares a generated file reads to write it instead.
pub(crate) const BLESS_VAR: &str = "ACCORD_BLESS";

pub(crate) fn run(root: &Path, nextest_args: &[String]) -> Result<()> {
    fixtures::run(root, Mode::Write)?;
    let mut cmd = workspace::cargo();
    cmd.args(["nextest", "run", "--no-fail-fast"]);
    if nextest_args.is_empty() {
        cmd.arg("--workspace");
    } else {
        cmd.args(nextest_args);
    }
    cmd.env(BLESS_VAR, "1").env("INSTA_UPDATE", "always").current_dir(root);
    let status = cmd.status()?;
    if !status.success() {
        bail!(
            "the tests failed under {BLESS_VAR}=1 INSTA_UPDATE=always: what they report is not a generated file; fix it and bless again"
        );
    }
    println!("blessed: review `git status` and `git diff` before committing");
    Ok(())
}
