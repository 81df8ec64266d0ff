//! `cargo xtask test [NEXTEST ARGS]`: the README's one test command.
//!
//! It sets up everything the suite needs besides the Rust toolchain ([`needs`]: Debian
//! packages, the pinned npm folders, the Python venvs, cargo-nextest and cargo-semver-checks,
//! and a throwaway PostgreSQL server unless `ACCORD_TEST_POSTGRES_URL` names one), then runs `cargo nextest run --workspace` with the variables that point the tests at what
//! was set up. `.ci/run` calls it too, so a clean machine and CI take one path.
//!
//! No test installs software or skips itself when a tool is missing: it fails and names this
//! command. So a run of the whole suite that reports a skipped test is a failure here, as a
//! test that did not run is not a test that passed.

pub(crate) mod needs;

use std::{
    io::{BufRead, BufReader, Write},
    path::Path,
    process::Stdio,
};

use anyhow::{Context, Result, bail};

use crate::workspace;

/// Sets the suite up; with `setup_only`, stops there and prints the variables to export.
pub(crate) fn run(root: &Path, nextest_args: &[String], setup_only: bool) -> Result<()> {
    needs::debian()?;
    needs::npm(root)?;
    let variables = needs::python(&workspace::target_dir(root))?;
    needs::cargo_tools()?;
    if setup_only {
        for (name, value) in &variables {
            println!("export {name}={}", value.display());
        }
        println!(
            "# and for the PostgreSQL tests: eval \"$(bash .ci/postgres start)\" (stop: bash .ci/postgres stop \"$ACCORD_TEST_POSTGRES_DIR\")"
        );
        return Ok(());
    }
    // Held until the run ends: dropping it stops the cluster, whatever the outcome.
    let postgres = needs::Postgres::start(root)?;
    let mut cmd = workspace::cargo();
    cmd.args(["nextest", "run"]);
    let whole_suite = nextest_args.is_empty();
    if whole_suite {
        cmd.arg("--workspace");
    } else {
        cmd.args(nextest_args);
    }
    cmd.envs(variables.iter().map(|(name, value)| (*name, value.as_os_str())));
    if let Some(postgres) = &postgres {
        cmd.envs(postgres.variables.iter().map(|(name, value)| (name, value)));
    }
    cmd.current_dir(root).stderr(Stdio::piped());
    let mut child =
        cmd.spawn().with_context(|| format!("could not run {}", workspace::describe(&cmd)))?;
    // nextest writes its progress and summary to stderr: pass it through, keeping the summary.
    let mut summary = None;
    let mut err = std::io::stderr();
    for line in BufReader::new(child.stderr.take().expect("piped")).lines() {
        let line = line?;
        if line.contains(" tests run: ") || line.contains(" test run: ") {
            summary = Some(line.clone());
        }
        writeln!(err, "{line}")?;
    }
    let status = child.wait()?;
    if !status.success() {
        bail!("the test suite failed ({status})");
    }
    let skipped = summary.as_deref().and_then(skipped_count);
    match (whole_suite, skipped) {
        (true, Some(n)) if n > 0 => bail!(
            "{n} test(s) skipped in a run of the whole suite: a skipped test is not a passed one (run `cargo nextest list --run-ignored only` to see which)"
        ),
        (true, None) => {
            bail!("nextest printed no summary line; cannot tell whether every test ran")
        }
        _ => Ok(()),
    }
}

/// The skipped count of nextest's summary line (`… 545 tests run: 545 passed, 3 skipped`);
/// `Some(0)` when the line names none.
fn skipped_count(summary: &str) -> Option<usize> {
    let counts = summary.split_once(" run: ")?.1;
    Some(
        counts
            .split(',')
            .filter_map(|part| part.trim().strip_suffix(" skipped"))
            .filter_map(|n| n.trim().parse::<usize>().ok())
            .sum(),
    )
}

#[cfg(test)]
mod tests {
    use super::skipped_count;

    #[test]
    fn reads_the_skipped_count_of_the_summary() {
        assert_eq!(
            skipped_count("     Summary [  60.1s] 545 tests run: 545 passed, 0 skipped"),
            Some(0)
        );
        assert_eq!(
            skipped_count("     Summary [  60.1s] 545 tests run: 540 passed, 5 skipped"),
            Some(5)
        );
        assert_eq!(
            skipped_count(
                "     Summary [  60.1s] 545 tests run: 540 passed (2 slow), 3 failed, 2 skipped"
            ),
            Some(2)
        );
        assert_eq!(skipped_count("     Summary [   0.1s] 1 test run: 1 passed"), Some(0));
        assert_eq!(skipped_count("no summary here"), None);
    }
}
