//! `accord check CONTRACT --against-tags GLOB` in a throwaway git repository.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::accord_in;

fn contract(version: &str, max: u32, with_stop: bool) -> String {
    let stop =
        if with_stop { r#", "stop": {"params": [], "result": {"kind": "null"}}"# } else { "" };
    format!(
        r#"{{"schema": 1, "namespaces": {{"pump": {{"version": "{version}", "methods": {{
  "start": {{"params": [{{"name": "rpm", "type": {{"kind": "integer", "max": {max}}}}}], "result": {{"kind": "null"}}}}{stop}
}}}}}}}}
"#
    )
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "accord test")
        .env("GIT_AUTHOR_EMAIL", "test@example.invalid")
        .env("GIT_COMMITTER_NAME", "accord test")
        .env("GIT_COMMITTER_EMAIL", "test@example.invalid")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .expect("run git");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// A repository: v0.9.0 without the contract, v1.0.0, v1.1.0 (adds `pump.stop`, compatible),
/// a non-matching tag, and a working tree that removes `pump.stop` and tightens nothing.
fn repo(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("contracts")).expect("mkdir");
    git(&dir, &["init", "-q", "-b", "main"]);
    std::fs::write(dir.join("README"), "pumps\n").expect("write");
    git(&dir, &["add", "README"]);
    git(&dir, &["commit", "-q", "-m", "start"]);
    git(&dir, &["tag", "v0.9.0"]);
    let file = dir.join("contracts/pump.types.json");
    std::fs::write(&file, contract("1.0.0", 3000, false)).expect("write");
    git(&dir, &["add", "."]);
    git(&dir, &["commit", "-q", "-m", "1.0.0"]);
    git(&dir, &["tag", "v1.0.0"]);
    std::fs::write(&file, contract("1.1.0", 3000, true)).expect("write");
    git(&dir, &["commit", "-q", "-am", "1.1.0"]);
    git(&dir, &["tag", "-a", "v1.1.0", "-m", "release 1.1.0"]);
    git(&dir, &["tag", "nightly"]);
    // Breaking against v1.1.0 only: `stop` is removed again (and the version bumped for it).
    std::fs::write(&file, contract("2.0.0", 3000, false)).expect("write");
    dir
}

#[test]
fn against_tags_names_the_releases_that_break() {
    let dir = repo("tags_cli_text");
    let out = accord_in(&dir, &["check", "contracts/pump.types.json", "--against-tags", "v*"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{text}{err}");
    assert!(err.contains("note: tag v0.9.0 has no contracts/pump.types.json"), "{err}");
    assert!(text.contains("# against v1.0.0 (v1.0.0:contracts/pump.types.json)"), "{text}");
    assert!(text.contains("# against v1.1.0 (v1.1.0:contracts/pump.types.json)"), "{text}");
    assert!(!text.contains("# against nightly"), "{text}");
    assert!(text.contains("breaking[method-removed] pump.stop"), "{text}");
    assert!(text.contains("releases checked: 2; failing at breaking,policy: v1.1.0\n"), "{text}");
    // v1.0.0 comes first (version order), then v1.1.0.
    let first = text.find("# against v1.0.0").expect("v1.0.0");
    let second = text.find("# against v1.1.0").expect("v1.1.0");
    assert!(first < second, "{text}");
}

#[test]
fn against_tags_json_says_which_baselines_fail() {
    let dir = repo("tags_cli_json");
    let out = accord_in(
        &dir,
        &["check", "contracts/pump.types.json", "--against-tags", "v*", "--format", "json"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let b = json["baselines"].as_array().expect("baselines");
    let verdicts: Vec<(&str, bool)> =
        b.iter().map(|b| (b["name"].as_str().unwrap_or(""), b["fails"] == true)).collect();
    assert_eq!(verdicts, [("v1.0.0", false), ("v1.1.0", true)]);

    // From a subdirectory, with the contract named relative to it.
    let out =
        accord_in(&dir.join("contracts"), &["check", "pump.types.json", "--against-tags", "v1.0*"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));

    // No matching tag holds the file: an input error.
    let out = accord_in(&dir, &["check", "contracts/pump.types.json", "--against-tags", "v0*"]);
    assert_eq!(out.status.code(), Some(2));
    let out = accord_in(&dir, &["check", "contracts/pump.types.json", "--against-tags", "x*"]);
    assert_eq!(out.status.code(), Some(2));
}

/// Before the first release the step fails with exit 2, and the machine formats say why: a SARIF
/// log with the failure as an error result (code scanning shows it), a JSON error object.
#[test]
fn against_tags_without_a_release_says_so_in_every_format() {
    let dir = repo("tags_cli_none");
    let why = "no release matching `v0*` (tag or release commit) holds contracts/pump.types.json";
    let check = |format: &str| {
        let args = ["check", "contracts/pump.types.json", "--against-tags", "v0*", "--format"];
        let out = accord_in(&dir, &[&args[..], &[format]].concat());
        assert_eq!(out.status.code(), Some(2), "{format}");
        assert!(String::from_utf8_lossy(&out.stderr).contains(why), "{format}");
        String::from_utf8(out.stdout).expect("utf-8")
    };
    let sarif: serde_json::Value = serde_json::from_str(&check("sarif")).expect("sarif");
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    assert_eq!(results.len(), 1, "{sarif:#}");
    assert_eq!(results[0]["ruleId"], "baseline-unreadable");
    assert_eq!(results[0]["level"], "error");
    assert_eq!(results[0]["message"]["text"], why);
    let json: serde_json::Value = serde_json::from_str(&check("json")).expect("json");
    assert_eq!(json["error"]["code"], "baseline-unreadable", "{json:#}");
    assert_eq!(json["fails"], true);
    assert!(check("github").contains("baseline-unreadable"));
    assert!(check("junit").contains("baseline-unreadable"));
}

#[test]
fn against_tags_finds_releases_by_their_commit_when_tags_did_not_travel() {
    let dir = repo("tags_cli_commits");
    // The clone lost its tags; v1.1.0 was made by `cargo xtask release`, whose commit names it.
    for tag in ["v0.9.0", "v1.0.0", "v1.1.0", "nightly"] {
        git(&dir, &["tag", "--delete", tag]);
    }
    git(&dir, &["commit", "-q", "--allow-empty", "-m", "release: v1.1.0"]);
    let out = accord_in(&dir, &["check", "contracts/pump.types.json", "--against-tags", "v*"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{text}{err}");
    assert!(text.contains("# against v1.1.0 (v1.1.0:contracts/pump.types.json)"), "{text}");
    assert!(text.contains("breaking[method-removed] pump.stop"), "{text}");
    assert_eq!(text.matches("# against ").count(), 1, "only v1.1.0 has a release commit: {text}");
}

/// `--format github` places a finding about an item the working tree no longer has (its place
/// is in a release read from git) on the file as it is now, without a line, and says in the
/// message where the item was: GitHub cannot place `v1.1.0:contracts/pump.types.json`.
#[test]
fn github_annotations_of_removed_items_go_on_the_file_as_it_is_now() {
    let dir = repo("tags_cli_github");
    let out = accord_in(
        &dir,
        &["check", "contracts/pump.types.json", "--against-tags", "v*", "--format", "github"],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let removed = text
        .lines()
        .find(|l| l.contains("title=method-removed"))
        .unwrap_or_else(|| panic!("a method-removed annotation:\n{text}"));
    assert!(
        removed.starts_with("::error file=contracts/pump.types.json,title=method-removed::(was at v1.1.0:contracts/pump.types.json:2:113) "),
        "{removed}"
    );
    assert!(!text.contains("file=v1"), "{text}");
}
