//! Where each dependency's source is on disk: `cargo metadata` in the crate's directory
//! (`--offline` when asked; extract never fetches anything of its own). Only a directory with
//! a `Cargo.toml` is asked; without one (a bare `src/` tree) nothing is followed.

use std::{collections::HashMap, path::Path, process::Command};

use serde_json::Value;

use crate::Dependency;

/// What `cargo metadata` says of a crate directory.
pub(crate) enum CrateDir {
    /// A crate read alone: its dependencies, every crate of its graph by the name code uses for
    /// it (the nearest wins when two versions share a name); and a note when `cargo metadata`
    /// could not tell.
    Alone(Vec<Dependency>, Option<String>),
    /// A crate that is also the root of a workspace with other members (a root `[package]`
    /// beside `[workspace] members`): every member, as [`workspace`] gives them.
    WorkspaceRoot(Members),
}

/// Workspace members: each one's directory relative to the root (`""` for the root package),
/// sorted, with its dependencies.
pub(crate) type Members = Vec<(String, Vec<Dependency>)>;

/// The crate in `dir` (one `cargo metadata`): alone, or the root of a workspace.
pub(crate) fn crate_dir(dir: &Path, offline: bool) -> CrateDir {
    if !dir.join("Cargo.toml").is_file() {
        return CrateDir::Alone(Vec::new(), None);
    }
    let meta = match metadata(dir, offline) {
        Ok(m) => m,
        Err(note) => return CrateDir::Alone(Vec::new(), Some(note)),
    };
    let is_root = meta["workspace_root"].as_str().and_then(|r| std::fs::canonicalize(r).ok())
        == std::fs::canonicalize(dir).ok();
    if is_root
        && meta["workspace_members"].as_array().is_some_and(|m| m.len() > 1)
        && let Ok(members) = members(&meta, dir)
    {
        return CrateDir::WorkspaceRoot(members);
    }
    let mut deps = graph(&meta, dir);
    relative(&mut deps, dir);
    CrateDir::Alone(deps, None)
}

/// The members of the workspace whose root is `dir` (one `cargo metadata` for all).
pub(crate) fn workspace(dir: &Path, offline: bool) -> Result<Members, String> {
    members(&metadata(dir, offline)?, dir)
}

/// The workspace members `meta` lists, relative to the root `dir`.
fn members(meta: &Value, dir: &Path) -> Result<Members, String> {
    let base = std::fs::canonicalize(dir).map_err(|e| e.to_string())?;
    let empty = Vec::new();
    let members: Vec<&str> = meta["workspace_members"]
        .as_array()
        .unwrap_or(&empty)
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let mut out = Vec::new();
    for p in meta["packages"].as_array().unwrap_or(&empty) {
        if !p["id"].as_str().is_some_and(|id| members.contains(&id)) {
            continue;
        }
        let Some(manifest) = p["manifest_path"].as_str() else { continue };
        let Some(member) = Path::new(manifest).parent() else { continue };
        let rel = std::fs::canonicalize(member)
            .ok()
            .and_then(|m| m.strip_prefix(&base).ok().map(Path::to_path_buf))
            .map(|r| r.to_string_lossy().replace('\\', "/"))
            .unwrap_or_else(|| member.to_string_lossy().into_owned());
        let mut deps = graph(meta, member);
        relative(&mut deps, dir);
        out.push((rel, deps));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

/// The root of the workspace `dir`'s crate belongs to, found as cargo finds it: the manifest's
/// own `package.workspace` path when it gives one, else the nearest directory at or above
/// `dir` whose `Cargo.toml` has a `[workspace]` table.
pub(crate) fn enclosing_workspace(dir: &Path) -> Option<std::path::PathBuf> {
    let read = |d: &Path| -> Option<toml::Table> {
        std::fs::read_to_string(d.join("Cargo.toml")).ok()?.parse::<toml::Table>().ok()
    };
    let dir = std::fs::canonicalize(dir).ok()?;
    if let Some(path) = read(&dir)
        .as_ref()
        .and_then(|t| t.get("package")?.get("workspace")?.as_str().map(str::to_owned))
    {
        return std::fs::canonicalize(dir.join(path)).ok();
    }
    dir.ancestors()
        .find(|d| read(d).is_some_and(|t| t.contains_key("workspace")))
        .map(Path::to_path_buf)
}

/// Whether the manifest in `dir` inherits a key from its workspace (`version.workspace = true`).
fn inherits(dir: &Path) -> bool {
    std::fs::read_to_string(dir.join("Cargo.toml")).is_ok_and(|t| {
        t.lines().any(|l| {
            let l: String = l.chars().filter(|c| !c.is_whitespace()).collect();
            l.contains("workspace=true") || l.contains(".workspace=true")
        })
    })
}

/// `cargo metadata` for the crate in `dir`, asked in the root of its enclosing workspace
/// (`--manifest-path` naming the crate), or the note saying why it could not tell: which
/// workspace was used, or that none encloses a manifest that inherits from one.
fn metadata(dir: &Path, offline: bool) -> Result<Value, String> {
    let root = enclosing_workspace(dir);
    metadata_in(dir, root.as_deref(), offline).map_err(|note| match &root {
        Some(r) => format!("{note} (the crate's workspace root: {})", r.display()),
        None if inherits(dir) => format!(
            "{note}: its Cargo.toml inherits from a workspace (`workspace = true`), and no directory above it has a `[workspace]` Cargo.toml"
        ),
        None => note,
    })
}

fn metadata_in(dir: &Path, root: Option<&Path>, offline: bool) -> Result<Value, String> {
    let mut cmd = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    cmd.args(["metadata", "--format-version", "1"]);
    match (root, std::fs::canonicalize(dir.join("Cargo.toml"))) {
        (Some(root), Ok(manifest)) => {
            cmd.arg("--manifest-path").arg(manifest).current_dir(root);
        }
        _ => {
            cmd.current_dir(dir);
        }
    }
    if offline {
        cmd.arg("--offline");
    }
    let out = match cmd.output() {
        Ok(o) if o.status.success() => o.stdout,
        Ok(o) => {
            let why = String::from_utf8_lossy(&o.stderr);
            let line = why.lines().find(|l| l.starts_with("error")).unwrap_or("failed");
            return Err(format!("`cargo metadata` {line}: dependencies are not followed"));
        }
        Err(e) => {
            return Err(format!(
                "`cargo metadata` could not run ({e}): dependencies are not followed"
            ));
        }
    };
    serde_json::from_slice::<Value>(&out)
        .map_err(|_| "`cargo metadata` wrote no JSON: dependencies are not followed".to_owned())
}

/// A path dependency inside `dir` is named relative to it, as the crate's own files are
/// (diagnostics and provenance stay the same on every machine).
fn relative(deps: &mut [Dependency], dir: &Path) {
    if let Ok(base) = std::fs::canonicalize(dir) {
        for d in deps {
            if let Ok(rel) = Path::new(&d.root).strip_prefix(&base) {
                d.root = rel.to_string_lossy().replace('\\', "/");
            }
        }
    }
}

/// Breadth first from the package whose manifest is in `dir`, so a direct dependency's name
/// wins over a deeper crate's of the same name.
fn graph(meta: &Value, dir: &Path) -> Vec<Dependency> {
    let empty = Vec::new();
    let packages = meta["packages"].as_array().unwrap_or(&empty);
    let lib_of: HashMap<&str, &str> = packages
        .iter()
        .filter_map(|p| {
            let lib = p["targets"].as_array()?.iter().find(|t| {
                t["kind"].as_array().is_some_and(|k| {
                    k.iter().any(|k| matches!(k.as_str(), Some("lib" | "rlib" | "proc-macro")))
                })
            })?;
            Some((p["id"].as_str()?, lib["src_path"].as_str()?))
        })
        .collect();
    let manifest = dir.join("Cargo.toml");
    let canonical = std::fs::canonicalize(&manifest).unwrap_or(manifest);
    let start = packages.iter().find(|p| {
        p["manifest_path"]
            .as_str()
            .is_some_and(|m| std::fs::canonicalize(m).ok().as_deref() == Some(&canonical))
    });
    let Some(start) = start.and_then(|p| p["id"].as_str()) else { return Vec::new() };
    let nodes: HashMap<&str, &Vec<Value>> = meta["resolve"]["nodes"]
        .as_array()
        .unwrap_or(&empty)
        .iter()
        .filter_map(|n| Some((n["id"].as_str()?, n["deps"].as_array()?)))
        .collect();
    let mut out: Vec<Dependency> = Vec::new();
    let mut seen = std::collections::HashSet::from([start]);
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(id) = queue.pop_front() {
        for d in nodes.get(id).copied().unwrap_or(&empty) {
            let (Some(name), Some(pkg)) = (d["name"].as_str(), d["pkg"].as_str()) else { continue };
            if let Some(root) = lib_of.get(pkg)
                && !out.iter().any(|o| o.name == name)
            {
                out.push(Dependency { name: name.to_owned(), root: (*root).to_owned() });
            }
            if seen.insert(pkg) {
                queue.push_back(pkg);
            }
        }
    }
    out
}
