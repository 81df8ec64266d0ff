//! `cargo xtask release VERSION [--dry-run]`: one command from a green tree to a tagged release.
//!
//! Everything happens in a worktree of `HEAD` under `target/release/`, so a failing step leaves
//! the checkout as it was: `.ci/run`, the format side (roundtrip against the previous release,
//! goldens frozen to `fixtures/golden/vVERSION/`), the Rust API side (cargo-semver-checks
//! against the previous release), the version bump, CHANGELOG.md, `cargo package`, the release
//! commit. Only then, and only without `--dry-run`, is the checkout fast-forwarded to that commit
//! and the annotated tag `vVERSION` made (pushing is left to the person).

mod bump;
mod changelog;
pub(crate) mod previous;
mod semver_checks;

/// The cargo-semver-checks version the release task runs (and `cargo xtask test` installs).
pub(crate) use semver_checks::VERSION as SEMVER_CHECKS_VERSION;
#[cfg(test)]
mod tests;

use std::{
    fs,
    path::{Path, PathBuf},
    process::Command,
};

use anyhow::{Context, Result, bail};
use semver::Version;

use crate::{
    freeze, roundtrip,
    workspace::{self, describe, stdout_of},
};

/// What one run of the release does.
#[derive(Debug, Clone)]
pub(crate) struct Options {
    /// The version to release, `MAJOR.MINOR.PATCH`.
    pub(crate) version: String,
    /// Do everything in the throwaway worktree and change nothing.
    pub(crate) dry_run: bool,
    /// Where the worktree's builds go (the checkout's own target dir, so a release does not
    /// rebuild every dependency).
    pub(crate) target_dir: PathBuf,
    /// The steps to take; every one for `cargo xtask release`.
    pub(crate) steps: Steps,
}

/// The checks a release runs. All are on from the command line; the xtask's own test turns off
/// the format side, which needs accord's contracts and binary (its throwaway repository has
/// neither).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Steps {
    /// `.ci/run` must pass.
    pub(crate) ci: bool,
    /// Roundtrip against the previous release and freeze the goldens.
    pub(crate) format: bool,
    /// cargo-semver-checks against the previous release.
    pub(crate) semver: bool,
    /// `cargo package` of the publishable crates.
    pub(crate) package: bool,
}

impl Steps {
    /// Every step.
    pub(crate) const ALL: Steps = Steps { ci: true, format: true, semver: true, package: true };
}

/// Runs the release; returns the release commit's hash.
pub(crate) fn run(root: &Path, options: &Options) -> Result<String> {
    freeze::check_version(&options.version).map_err(anyhow::Error::msg)?;
    let version = Version::parse(&options.version)?;
    let name = format!("v{version}");
    refuse_dirty(root)?;
    let releases = previous::releases(root)?;
    if let Some(done) = releases.iter().find(|r| r.version >= version) {
        bail!(
            "{} is already released ({}); a release must be newer than every earlier one",
            done.name,
            done.rev
        );
    }
    let previous = previous::before(&releases, &version);
    match &previous {
        Some(p) => println!("release {name}: previous release {} ({})", p.name, p.rev),
        None => println!("release {name}: no previous release (no v* tag, no release commit)"),
    }

    let work = root.join("target/release").join(&name);
    let worktree = Worktree::add(root, &work)?;
    let outcome = release_in(&work, options, &version, previous.as_ref());
    let commit = match outcome {
        Ok(commit) => commit,
        Err(err) => {
            println!(
                "release {name}: failed; the worktree is left at {} to look into",
                work.display()
            );
            return Err(err);
        }
    };
    worktree.remove()?;
    if options.dry_run {
        println!("release {name} (dry run): every step passed; nothing was changed");
        return Ok(commit);
    }
    git(root, &["merge", "--ff-only", "--quiet", &commit])?;
    git(root, &["tag", "-a", &name, "-m", &format!("accord {version}"), &commit])?;
    println!(
        "release {name}: committed {commit} and tagged {name}; push with `git push --follow-tags`"
    );
    Ok(commit)
}

/// Every step, in the worktree `work`; returns the release commit.
fn release_in(
    work: &Path,
    options: &Options,
    version: &Version,
    previous: Option<&previous::Release>,
) -> Result<String> {
    let target = options.target_dir.as_path();
    if options.steps.ci {
        step("`.ci/run`");
        let mut ci = Command::new(work.join(".ci/run"));
        ci.current_dir(work).env("CARGO_TARGET_DIR", target);
        let status = ci.status().with_context(|| format!("could not run {}", describe(&ci)))?;
        if !status.success() {
            bail!("`.ci/run` failed ({status}): a release needs a green CI");
        }
    }
    if options.steps.format {
        step("format side: roundtrip against the previous release, goldens frozen");
        roundtrip::run(work, previous.map(|p| p.rev.as_str()))?;
        freeze::run(work, &version.to_string())?;
    }
    let publishable: Vec<String> =
        workspace::publishable_packages(work)?.into_iter().map(|(name, _)| name).collect();
    if options.steps.semver {
        step("Rust API side: cargo-semver-checks");
        match previous {
            Some(p) => {
                let kind = semver_checks::release_type(&p.version, version);
                println!("{} → {version} is a {kind} release", p.version);
                semver_checks::check(work, target, &publishable, &p.rev, kind)?;
            }
            None => println!("no previous release: the Rust API has nothing to be compared with"),
        }
    }
    step("version bump and CHANGELOG.md");
    let manifest = work.join("Cargo.toml");
    let text = fs::read_to_string(&manifest).context("could not read Cargo.toml")?;
    fs::write(&manifest, bump::workspace_manifest(&text, &version.to_string())?)?;
    let mut update = workspace::cargo();
    update.current_dir(work).env("CARGO_TARGET_DIR", target);
    stdout_of(update.args(["update", "--workspace", "--offline", "--quiet"]))?;
    let changelog = work.join("CHANGELOG.md");
    let text = fs::read_to_string(&changelog).context("could not read CHANGELOG.md")?;
    fs::write(&changelog, changelog::release(&text, &version.to_string(), &today()?)?)?;
    if options.steps.package {
        step("cargo package of the publishable crates");
        workspace::package(work, target, &publishable)?;
    }
    step("release commit");
    git(work, &["add", "--all"])?;
    let subject = format!("{}v{version}", previous::COMMIT_PREFIX);
    let body = format!(
        "The workspace version is {version}. Made by `cargo xtask release {version}`: .ci/run, roundtrip and \
         frozen goldens, cargo-semver-checks and cargo package passed."
    );
    git(work, &["commit", "--quiet", "-m", &subject, "-m", &body])?;
    Ok(git(work, &["rev-parse", "HEAD"])?.trim().to_owned())
}

fn step(what: &str) {
    println!("\n== release: {what}");
}

/// Refuses a tree with uncommitted or untracked changes: a release is of a commit.
fn refuse_dirty(root: &Path) -> Result<()> {
    let status = git(root, &["status", "--porcelain"])?;
    if !status.trim().is_empty() {
        bail!(
            "the tree has uncommitted changes; commit or stash them first, a release is made from a commit:\n{}",
            status.trim_end()
        );
    }
    Ok(())
}

/// Today's date, `YYYY-MM-DD`, in UTC.
fn today() -> Result<String> {
    Ok(stdout_of(Command::new("date").args(["-u", "+%Y-%m-%d"]))?.trim().to_owned())
}

/// Runs git in `dir`; gives its stdout.
fn git(dir: &Path, args: &[&str]) -> Result<String> {
    stdout_of(Command::new("git").current_dir(dir).args(args))
}

/// The throwaway worktree of `HEAD` a release is made in.
struct Worktree<'r> {
    root: &'r Path,
    path: PathBuf,
}

impl<'r> Worktree<'r> {
    fn add(root: &'r Path, path: &Path) -> Result<Worktree<'r>> {
        if path.exists() {
            let _ = git(root, &["worktree", "remove", "--force", &path.to_string_lossy()]);
            if path.exists() {
                fs::remove_dir_all(path)
                    .with_context(|| format!("could not remove {}", path.display()))?;
            }
            git(root, &["worktree", "prune"])?;
        }
        git(root, &["worktree", "add", "--detach", "--quiet", &path.to_string_lossy(), "HEAD"])?;
        Ok(Worktree { root, path: path.to_path_buf() })
    }

    fn remove(self) -> Result<()> {
        git(self.root, &["worktree", "remove", "--force", &self.path.to_string_lossy()])?;
        Ok(())
    }
}
