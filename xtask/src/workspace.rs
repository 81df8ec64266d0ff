//! Where things are: the workspace root, the cargo to call, and the documents under `fixtures/`.

use std::{
    env, fs,
    path::{Path, PathBuf},
    process::{Command, Output},
};

use anyhow::{Context, Result, bail};

/// The folders under `fixtures/` whose `*.types.json` files are the documents the tasks read.
pub(crate) const DOCUMENT_FOLDERS: &[&str] = &["contracts", "future"];

/// How a document's file name ends.
pub(crate) const DOCUMENT_SUFFIX: &str = ".types.json";

/// The workspace root: the parent of the xtask crate.
pub(crate) fn root() -> PathBuf {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest_dir.parent().unwrap_or(manifest_dir).to_path_buf()
}

/// A `cargo` command: the one in `$CARGO` (the cargo running us), else `cargo` from `PATH`.
pub(crate) fn cargo() -> Command {
    Command::new(env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

/// Where cargo builds the workspace: `$CARGO_TARGET_DIR` if set (relative to the root), else
/// `<root>/target`.
pub(crate) fn target_dir(root: &Path) -> PathBuf {
    match env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if !dir.is_empty() => root.join(dir),
        _ => root.join("target"),
    }
}

/// Runs `cmd` to completion, failing only if it cannot be started.
pub(crate) fn output(cmd: &mut Command) -> Result<Output> {
    cmd.output().with_context(|| format!("could not run {}", describe(cmd)))
}

/// Runs `cmd`, failing with its stderr unless it exits with 0; gives its stdout.
pub(crate) fn stdout_of(cmd: &mut Command) -> Result<String> {
    let out = output(cmd)?;
    if !out.status.success() {
        bail!(
            "{} failed ({}):\n{}",
            describe(cmd),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim_end()
        );
    }
    String::from_utf8(out.stdout).with_context(|| format!("{} printed non-UTF-8", describe(cmd)))
}

/// `cmd` as a shell-like line, for messages.
pub(crate) fn describe(cmd: &Command) -> String {
    let mut line = cmd.get_program().to_string_lossy().into_owned();
    for arg in cmd.get_args() {
        line.push(' ');
        line.push_str(&arg.to_string_lossy());
    }
    format!("`{line}`")
}

/// A path for messages: relative paths with `/` separators.
pub(crate) fn show(path: &Path) -> String {
    let parts: Vec<_> =
        path.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    parts.join("/")
}

/// One document under `fixtures/<folder>/`.
#[derive(Debug, Clone)]
pub(crate) struct Source {
    /// `contracts` or `future`.
    pub(crate) folder: &'static str,
    /// The path inside `fixtures/<folder>/`, e.g. `pump.types.json`.
    pub(crate) name: PathBuf,
    /// The path from the workspace root, e.g. `fixtures/contracts/pump.types.json`.
    pub(crate) path: PathBuf,
}

/// Every `*.types.json` under `fixtures/contracts/` and `fixtures/future/`, folder by folder,
/// each folder sorted by path.
pub(crate) fn documents(root: &Path) -> Result<Vec<Source>> {
    let mut docs = Vec::new();
    for &folder in DOCUMENT_FOLDERS {
        let dir = Path::new("fixtures").join(folder);
        if !root.join(&dir).is_dir() {
            bail!("{} is missing: it holds the documents the tasks read", show(&dir));
        }
        for name in files_under(&root.join(&dir))? {
            if name.to_string_lossy().ends_with(DOCUMENT_SUFFIX) {
                docs.push(Source { folder, path: dir.join(&name), name });
            }
        }
    }
    Ok(docs)
}

/// Every file under `dir` (recursively), as paths relative to `dir`, sorted. A missing `dir` has
/// no files.
pub(crate) fn files_under(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    if dir.exists() {
        walk(dir, Path::new(""), &mut files)?;
    }
    files.sort();
    Ok(files)
}

fn walk(base: &Path, rel: &Path, files: &mut Vec<PathBuf>) -> Result<()> {
    let dir = base.join(rel);
    let entries =
        fs::read_dir(&dir).with_context(|| format!("could not list {}", dir.display()))?;
    for entry in entries {
        let entry = entry.with_context(|| format!("could not list {}", dir.display()))?;
        let rel = rel.join(entry.file_name());
        let kind = entry
            .file_type()
            .with_context(|| format!("could not stat {}", base.join(&rel).display()))?;
        if kind.is_dir() {
            walk(base, &rel, files)?;
        } else {
            files.push(rel);
        }
    }
    Ok(())
}

/// Reads a file as UTF-8 text, naming it on failure.
pub(crate) fn read_text(root: &Path, rel: &Path) -> Result<String> {
    fs::read_to_string(root.join(rel)).with_context(|| format!("could not read {}", show(rel)))
}

/// The workspace packages that may be published (`publish` not `false`), by name, each with
/// whether it has a library target.
pub(crate) fn publishable_packages(root: &Path) -> Result<Vec<(String, bool)>> {
    let mut cmd = cargo();
    cmd.current_dir(root).args(["metadata", "--no-deps", "--format-version", "1", "--offline"]);
    let metadata: serde_json::Value = serde_json::from_str(&stdout_of(&mut cmd)?)?;
    let mut found: Vec<(String, bool)> = metadata["packages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|p| p["publish"].as_array().is_none_or(|registries| !registries.is_empty()))
        .filter_map(|p| {
            let is_lib = p["targets"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|t| t["kind"].as_array().into_iter().flatten().any(|k| k == "lib"));
            Some((p["name"].as_str()?.to_owned(), is_lib))
        })
        .collect();
    found.sort();
    Ok(found)
}

/// `cargo package` of `packages` in `root`: each one built from its packaged files alone
/// (interdependent unpublished crates are verified together), nothing published.
pub(crate) fn package(root: &Path, target_dir: &Path, packages: &[String]) -> Result<()> {
    // cargo verifies each crate against the others' archives, put in a local registry under
    // `package/tmp-registry` and unpacked once into `$CARGO_HOME/registry/src/-HASH/NAME-VERSION`
    // (a local registry's folder starts with `-`). An unpacked copy left by an earlier run of
    // the same version is used as it is: a crate changed since would be verified against its
    // old self (seen: accord-cli against an accord-extract 0.2.0 without `extract_dirs`). Each
    // run starts without them.
    let stale = target_dir.join("package");
    if stale.exists() {
        std::fs::remove_dir_all(&stale)
            .with_context(|| format!("could not remove {}", stale.display()))?;
    }
    let cargo_home = env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")));
    if let Some(sources) = cargo_home.map(|h| h.join("registry/src"))
        && let Ok(registries) = std::fs::read_dir(&sources)
    {
        for registry in registries.flatten() {
            if !registry.file_name().to_string_lossy().starts_with('-') {
                continue;
            }
            for unpacked in std::fs::read_dir(registry.path()).into_iter().flatten().flatten() {
                let name = unpacked.file_name().to_string_lossy().into_owned();
                if packages.iter().any(|p| name.starts_with(&format!("{p}-"))) {
                    std::fs::remove_dir_all(unpacked.path()).with_context(|| {
                        format!("could not remove {}", unpacked.path().display())
                    })?;
                }
            }
        }
    }
    // The same holds for what was compiled from them: cargo takes a registry crate's build as
    // fresh by its name and version alone. `cargo clean -p` removes every build of the name.
    let mut clean = cargo();
    clean.current_dir(root).env("CARGO_TARGET_DIR", target_dir).args(["clean", "--quiet"]);
    for p in packages {
        clean.args(["--package", p]);
    }
    let status = clean.status().with_context(|| format!("could not run {}", describe(&clean)))?;
    if !status.success() {
        bail!("{} failed ({status})", describe(&clean));
    }
    let mut cmd = cargo();
    cmd.current_dir(root).env("CARGO_TARGET_DIR", target_dir);
    cmd.args(["package", "--allow-dirty", "--quiet"]);
    for p in packages {
        cmd.args(["--package", p]);
    }
    let status = cmd.status().with_context(|| format!("could not run {}", describe(&cmd)))?;
    if !status.success() {
        bail!(
            "{} failed ({status}): a crate does not build from its packaged files",
            describe(&cmd)
        );
    }
    Ok(())
}
