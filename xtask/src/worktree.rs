//! An older build of `accord` from git: a detached worktree of a revision under
//! `target/roundtrip/<rev>`, built into the shared `target/roundtrip/target`.

use std::{
    fs,
    path::{Path, PathBuf},
    process::Command,
};

use anyhow::{Context, Result, bail};
use serde_json::Value;

use crate::{
    accord::Accord,
    workspace::{self, show},
};

/// `accord` built from a git revision.
#[derive(Debug)]
pub(crate) struct OldBuild {
    /// The revision as given.
    pub(crate) rev: String,
    /// The commit it names.
    pub(crate) commit: String,
    pub(crate) accord: Accord,
}

impl OldBuild {
    /// `REV (abcdef123456)`, for messages.
    pub(crate) fn label(&self) -> String {
        format!("{} ({})", self.rev, &self.commit[..self.commit.len().min(12)])
    }
}

/// A folder name for `rev`: letters, digits, `.`, `_` and `-` kept, anything else `_`; never `.`
/// or `..` or empty.
pub(crate) fn sanitize(rev: &str) -> String {
    let name: String = rev
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') { c } else { '_' })
        .collect();
    if name.is_empty() || name.starts_with('.') { format!("rev-{name}") } else { name }
}

fn git(root: &Path) -> Command {
    let mut cmd = Command::new("git");
    cmd.current_dir(root);
    cmd
}

/// Checks out `rev` in its worktree (reused if it is already at that commit) and builds `accord`.
pub(crate) fn build(root: &Path, rev: &str) -> Result<OldBuild> {
    let commit = workspace::stdout_of(git(root).args([
        "rev-parse",
        "--verify",
        "--quiet",
        &format!("{rev}^{{commit}}"),
    ]))
    .with_context(|| format!("`{rev}` does not name a commit in this repository"))?
    .trim()
    .to_owned();
    let rel = Path::new("target/roundtrip").join(sanitize(rev));
    let dir = root.join(&rel);
    if worktree_head(&dir).as_deref() == Some(commit.as_str()) {
        eprintln!("reusing the worktree {} at {commit}", show(&rel));
    } else {
        if dir.exists() {
            eprintln!("replacing {} (not a worktree at {commit})", show(&rel));
            let removed =
                workspace::output(git(root).args(["worktree", "remove", "--force"]).arg(&dir))?;
            if !removed.status.success() && dir.exists() {
                // Not a registered worktree (a leftover folder): it is ours, under target/.
                fs::remove_dir_all(&dir)
                    .with_context(|| format!("could not remove {}", show(&rel)))?;
            }
        }
        workspace::stdout_of(git(root).args(["worktree", "prune"]))?;
        eprintln!("adding the worktree {} at {commit}", show(&rel));
        workspace::stdout_of(
            git(root).args(["worktree", "add", "--quiet", "--detach"]).arg(&dir).arg(&commit),
        )
        .with_context(|| format!("could not make a worktree of `{rev}`"))?;
    }
    let label = format!("{rev} ({})", &commit[..commit.len().min(12)]);
    check_has_accord(&dir, &label)?;
    let target_dir = root.join("target/roundtrip/target");
    eprintln!("building accord at {label}...");
    let mut cmd = workspace::cargo();
    cmd.current_dir(root)
        .args(["build", "-q", "-p", "accord-cli", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(&target_dir);
    workspace::stdout_of(&mut cmd)
        .with_context(|| format!("could not build `accord` at {label}"))?;
    let accord = Accord::at(target_dir.join("debug/accord"), root);
    check_has_fmt_stdout(&accord, &label)?;
    Ok(OldBuild { rev: rev.to_owned(), commit, accord })
}

/// Fails clearly unless the built `accord` has `fmt --stdout` (an early skeleton had a binary
/// that did nothing).
fn check_has_fmt_stdout(accord: &Accord, label: &str) -> Result<()> {
    let help = accord.run(&["fmt", "--help"])?;
    if help.code == Some(0) && help.stdout.contains("--stdout") {
        return Ok(());
    }
    bail!(
        "{label} has no `accord` binary to build that can do the round trip: its `accord fmt --help` \
         does not offer `--stdout` (exit {}; a skeleton or an older command line). Pick a later commit.",
        help.code.map_or("by a signal".to_owned(), |c| c.to_string())
    )
}

/// The commit checked out in `dir`, if `dir` is the top of a git worktree (not merely a folder
/// inside this one, where git would answer with this worktree's HEAD).
fn worktree_head(dir: &Path) -> Option<String> {
    if !dir.join(".git").exists() {
        return None;
    }
    let top = workspace::stdout_of(git(dir).args(["rev-parse", "--show-toplevel"])).ok()?;
    let same = fs::canonicalize(top.trim()).ok()? == fs::canonicalize(dir).ok()?;
    if !same {
        return None;
    }
    let head = workspace::stdout_of(git(dir).args(["rev-parse", "HEAD"])).ok()?;
    Some(head.trim().to_owned())
}

/// Fails clearly unless the workspace in `dir` has a package `accord-cli` with a binary `accord`.
fn check_has_accord(dir: &Path, label: &str) -> Result<()> {
    let manifest = dir.join("Cargo.toml");
    let no_binary = || format!("{label} has no `accord` binary to build");
    if !manifest.exists() {
        bail!("{}: it has no Cargo.toml at the top", no_binary());
    }
    let mut cmd = workspace::cargo();
    cmd.args(["metadata", "--format-version", "1", "--no-deps", "--manifest-path"]).arg(&manifest);
    let metadata = workspace::stdout_of(&mut cmd).with_context(no_binary)?;
    let metadata: Value =
        serde_json::from_str(&metadata).context("`cargo metadata` printed invalid JSON")?;
    if has_binary(&metadata, "accord-cli", "accord") {
        Ok(())
    } else {
        bail!(
            "{}: its workspace has no package `accord-cli` with a binary `accord` (pick a later commit)",
            no_binary()
        )
    }
}

/// Whether `cargo metadata` output lists package `package` with a bin target `bin`.
pub(crate) fn has_binary(metadata: &Value, package: &str, bin: &str) -> bool {
    let packages = metadata["packages"].as_array().map_or(&[][..], Vec::as_slice);
    packages
        .iter()
        .filter(|p| p["name"] == package)
        .flat_map(|p| p["targets"].as_array().map_or(&[][..], Vec::as_slice))
        .any(|t| {
            t["name"] == bin && t["kind"].as_array().is_some_and(|k| k.iter().any(|k| k == "bin"))
        })
}

/// Where the old build's output for `doc` is kept, for today's build to read back.
pub(crate) fn output_path(old: &OldBuild, doc: &Path) -> PathBuf {
    Path::new("target/roundtrip/outputs").join(sanitize(&old.rev)).join(doc)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn sanitize_keeps_safe_names_and_replaces_the_rest() {
        assert_eq!(sanitize("HEAD"), "HEAD");
        assert_eq!(sanitize("v0.1.0"), "v0.1.0");
        assert_eq!(sanitize("HEAD~1"), "HEAD_1");
        assert_eq!(sanitize("origin/main"), "origin_main");
        assert_eq!(sanitize(".."), "rev-..");
        assert_eq!(sanitize(""), "rev-");
    }

    #[test]
    fn finds_the_accord_binary_in_metadata() {
        let metadata = json!({"packages": [
            {"name": "accord-schema-model", "targets": [{"name": "accord_schema_model", "kind": ["lib"]}]},
            {"name": "accord-cli", "targets": [{"name": "accord", "kind": ["bin"]}]},
        ]});
        assert!(has_binary(&metadata, "accord-cli", "accord"));
        let without = json!({"packages": [
            {"name": "accord-schema-model", "targets": [{"name": "accord", "kind": ["lib"]}]},
        ]});
        assert!(!has_binary(&without, "accord-cli", "accord"));
        assert!(!has_binary(&json!({}), "accord-cli", "accord"));
    }
}
