//! The Rust API side of a release: cargo-semver-checks on every publishable crate against the
//! previous release, with the release type the two version numbers make.

use std::path::Path;

use anyhow::{Context, Result, bail};
use semver::Version;

use crate::workspace::{self, describe};

/// The cargo-semver-checks this project is tested with; installed when missing.
pub(crate) const VERSION: &str = "0.51.0";

/// What a step from `old` to `new` may change, as semver reads it: in `0.y.z` the minor number
/// is the major one (cargo's rule), so `0.1.0` → `0.2.0` may break and `0.2.0` → `0.2.1` may not.
pub(crate) fn release_type(old: &Version, new: &Version) -> &'static str {
    let breaking = if old.major == 0 && new.major == 0 {
        new.minor != old.minor
    } else {
        new.major != old.major
    };
    if breaking {
        "major"
    } else if (old.major == 0 && new.major == 0) || new.minor == old.minor {
        "patch"
    } else {
        "minor"
    }
}

/// Installs cargo-semver-checks with `cargo install --locked` unless `cargo semver-checks`
/// already runs.
pub(crate) fn ensure_installed() -> Result<()> {
    let probe = workspace::cargo().args(["semver-checks", "--version"]).output();
    if probe.is_ok_and(|out| out.status.success()) {
        return Ok(());
    }
    println!("release: installing cargo-semver-checks {VERSION} (cargo install --locked)");
    let mut install = workspace::cargo();
    install.args(["install", "--locked", "cargo-semver-checks", "--version", VERSION]);
    let status =
        install.status().with_context(|| format!("could not run {}", describe(&install)))?;
    if !status.success() {
        bail!("{} failed ({status})", describe(&install));
    }
    Ok(())
}

/// Runs cargo-semver-checks in `work` on `packages` against `baseline_rev`. Its report (which
/// crate, which change, which lint) is printed as it comes; a breaking change the release type
/// does not allow fails the release.
pub(crate) fn check(
    work: &Path,
    target_dir: &Path,
    packages: &[String],
    baseline_rev: &str,
    release_type: &str,
) -> Result<()> {
    ensure_installed()?;
    let mut cmd = workspace::cargo();
    cmd.current_dir(work)
        .env("CARGO_TARGET_DIR", target_dir)
        .args(["semver-checks", "check-release", "--baseline-rev", baseline_rev])
        .args(["--release-type", release_type]);
    for package in packages {
        cmd.args(["--package", package]);
    }
    let out = workspace::output(&mut cmd)?;
    let (stdout, stderr) =
        (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    print!("{stdout}");
    eprint!("{stderr}");
    if !out.status.success() {
        bail!(
            "cargo-semver-checks found API changes a {release_type} release may not make (against {baseline_rev}); \
             bump the version semver requires, or restore the API:\n{}",
            summary(&format!("{stdout}\n{stderr}"))
        );
    }
    Ok(())
}

/// The lines of cargo-semver-checks' report that name a crate, a failed lint or a change.
fn summary(report: &str) -> String {
    let keep: Vec<&str> = report
        .lines()
        .map(str::trim_end)
        .filter(|l| {
            let t = l.trim_start();
            t.starts_with("Checking")
                || t.starts_with("--- failure")
                || t.starts_with("Failed in:")
                || t.starts_with("Summary")
                || t.starts_with("error")
                || l.starts_with("  ") && !t.is_empty() && !t.starts_with("Description")
        })
        .collect();
    keep.join("\n")
}

#[cfg(test)]
mod tests {
    use super::release_type;
    use semver::Version;

    #[test]
    fn zero_versions_break_on_the_minor_number() {
        let v = |s| Version::parse(s).unwrap();
        assert_eq!(release_type(&v("0.1.0"), &v("0.2.0")), "major");
        assert_eq!(release_type(&v("0.2.0"), &v("0.2.1")), "patch");
        assert_eq!(release_type(&v("1.2.0"), &v("1.3.0")), "minor");
        assert_eq!(release_type(&v("1.2.0"), &v("2.0.0")), "major");
        assert_eq!(release_type(&v("1.2.0"), &v("1.2.5")), "patch");
    }
}
