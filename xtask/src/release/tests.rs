//! The release task on a throwaway repository: a dirty tree refused, a first release tagged, a
//! breaking API change caught by cargo-semver-checks under a patch bump and let through under a
//! minor one (0.x), and the previous release found by its commit when its tag is gone.
//!
//! It runs `.ci/run` (the repository's own, which passes), semver-checks and `cargo package` for
//! real; only the format side is off (the repository has no contracts).

use std::{fs, path::Path, process::Command};

use super::{Options, Steps, previous};

fn sh(dir: &Path, program: &str, args: &[&str]) -> String {
    let out = Command::new(program).current_dir(dir).args(args).output().unwrap();
    assert!(out.status.success(), "{program} {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

fn commit(dir: &Path, message: &str) {
    sh(dir, "git", &["add", "--all"]);
    sh(dir, "git", &["commit", "--quiet", "-m", message]);
}

/// A workspace of one library crate, with a passing `.ci/run` and a changelog.
fn throwaway_repo(dir: &Path) {
    write(
        &dir.join("Cargo.toml"),
        "[workspace]\nresolver = \"3\"\nmembers = [\"demo\"]\n\n[workspace.package]\nversion = \"0.1.0\"\nedition = \"2024\"\nlicense = \"MIT\"\n",
    );
    write(
        &dir.join("demo/Cargo.toml"),
        "[package]\nname = \"accord-release-demo\"\ndescription = \"A crate for the release task's test.\"\nversion.workspace = true\nedition.workspace = true\nlicense.workspace = true\n",
    );
    write(
        &dir.join("demo/src/lib.rs"),
        "//! Demo.\n\n/// The answer.\npub fn answer() -> u32 {\n    42\n}\n\n/// Soon gone.\npub fn gone() {}\n",
    );
    write(&dir.join("CHANGELOG.md"), "# Changelog\n\n## Unreleased\n\n- the first release\n");
    write(&dir.join(".gitignore"), "/target\n");
    write(&dir.join(".ci/run"), "#!/bin/sh\nexit 0\n");
    sh(dir, "chmod", &["+x", ".ci/run"]);
    sh(dir, "git", &["init", "--quiet", "--initial-branch=main"]);
    sh(dir, "git", &["config", "user.name", "release test"]);
    sh(dir, "git", &["config", "user.email", "release-test@localhost"]);
    sh(dir, "git", &["config", "commit.gpgsign", "false"]);
    commit(dir, "a workspace");
}

fn options(dir: &Path, version: &str) -> Options {
    Options {
        version: version.to_owned(),
        dry_run: false,
        target_dir: dir.join("target"),
        steps: Steps { format: false, ..Steps::ALL },
    }
}

#[test]
fn releases_refuses_and_catches_a_breaking_change() {
    // The release task installs cargo-semver-checks when it is missing; a test must not, so it
    // asks for the pinned version to be there (`cargo xtask test` installs it).
    let probe = crate::workspace::cargo().args(["semver-checks", "--version"]).output();
    assert!(
        probe.is_ok_and(|out| out.status.success()
            && String::from_utf8_lossy(&out.stdout).contains(super::SEMVER_CHECKS_VERSION)),
        "cargo-semver-checks {} is not installed: `cargo xtask test` installs it",
        super::SEMVER_CHECKS_VERSION
    );
    let tmp = std::env::temp_dir().join(format!("accord-release-test-{}", std::process::id()));
    let _ = fs::remove_dir_all(&tmp);
    fs::create_dir_all(&tmp).unwrap();
    let dir = tmp.canonicalize().unwrap();
    throwaway_repo(&dir);

    // A dirty tree is refused, and nothing happens.
    write(&dir.join("notes.txt"), "wip\n");
    let err = super::run(&dir, &options(&dir, "0.1.0")).unwrap_err().to_string();
    assert!(err.contains("uncommitted changes") && err.contains("notes.txt"), "{err}");
    fs::remove_file(dir.join("notes.txt")).unwrap();

    // The first release: tag, release commit, changelog moved.
    super::run(&dir, &options(&dir, "0.1.0")).unwrap();
    assert_eq!(sh(&dir, "git", &["tag", "--list"]).trim(), "v0.1.0");
    assert_eq!(sh(&dir, "git", &["log", "-1", "--format=%s"]).trim(), "release: v0.1.0");
    let changelog = fs::read_to_string(dir.join("CHANGELOG.md")).unwrap();
    assert!(changelog.contains("## Unreleased\n\n## 0.1.0 — "), "{changelog}");
    assert!(sh(&dir, "git", &["status", "--porcelain"]).trim().is_empty());

    // A dry run changes nothing, not even the tags.
    write(
        &dir.join("CHANGELOG.md"),
        &changelog.replace("## Unreleased\n", "## Unreleased\n\n- more\n"),
    );
    commit(&dir, "more");
    let head = sh(&dir, "git", &["rev-parse", "HEAD"]);
    super::run(&dir, &Options { dry_run: true, ..options(&dir, "0.1.1") }).unwrap();
    assert_eq!(sh(&dir, "git", &["rev-parse", "HEAD"]), head);
    assert_eq!(sh(&dir, "git", &["tag", "--list"]).trim(), "v0.1.0");

    // A public function removed: a patch release is refused, naming the crate and the change.
    write(
        &dir.join("demo/src/lib.rs"),
        "//! Demo.\n\n/// The answer.\npub fn answer() -> u32 {\n    42\n}\n",
    );
    commit(&dir, "remove gone()");
    let err = format!("{:#}", super::run(&dir, &options(&dir, "0.1.1")).unwrap_err());
    assert!(err.contains("a patch release may not make"), "{err}");
    assert!(err.contains("function_missing") && err.contains("gone"), "{err}");
    assert_eq!(
        sh(&dir, "git", &["tag", "--list"]).trim(),
        "v0.1.0",
        "no tag for a refused release"
    );
    let manifest = fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    assert!(manifest.contains("version = \"0.1.0\""), "the checkout is untouched");

    // The same change under 0.2.0 (a breaking release in 0.x) is let through.
    super::run(&dir, &options(&dir, "0.2.0")).unwrap();
    let manifest = fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    assert!(manifest.contains("version = \"0.2.0\""), "{manifest}");

    // Without its tag, the release is still found by its commit.
    sh(&dir, "git", &["tag", "--delete", "v0.2.0"]);
    let found = previous::releases(&dir).unwrap();
    let names: Vec<&str> = found.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["v0.1.0", "v0.2.0"]);
    assert_ne!(found[1].rev, "v0.2.0", "found by its release commit");

    let _ = fs::remove_dir_all(&tmp);
}
