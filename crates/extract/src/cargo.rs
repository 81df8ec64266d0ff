//! Where each dependency's source is on disk: `cargo metadata` in the crate's directory
//! (`--offline` when asked; extract never fetches anything of its own). Only a directory with
//! a `Cargo.toml` is asked; without one (a bare `src/` tree) nothing is followed.

use std::{collections::HashMap, path::Path, process::Command};

use serde_json::Value;

use crate::Dependency;

/// The dependencies of the package in `dir`, every crate of its graph by the name code uses
/// for it (the nearest wins when two versions share a name); and a note when `cargo metadata`
/// could not tell.
pub(crate) fn dependencies(dir: &Path, offline: bool) -> (Vec<Dependency>, Option<String>) {
    if !dir.join("Cargo.toml").is_file() {
        return (Vec::new(), None);
    }
    let mut cmd = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    cmd.args(["metadata", "--format-version", "1"]).current_dir(dir);
    if offline {
        cmd.arg("--offline");
    }
    let out = match cmd.output() {
        Ok(o) if o.status.success() => o.stdout,
        Ok(o) => {
            let why = String::from_utf8_lossy(&o.stderr);
            let line = why.lines().find(|l| l.starts_with("error")).unwrap_or("failed");
            return (
                Vec::new(),
                Some(format!("`cargo metadata` {line}: dependencies are not followed")),
            );
        }
        Err(e) => {
            return (
                Vec::new(),
                Some(format!(
                    "`cargo metadata` could not run ({e}): dependencies are not followed"
                )),
            );
        }
    };
    let Ok(meta) = serde_json::from_slice::<Value>(&out) else {
        return (
            Vec::new(),
            Some("`cargo metadata` wrote no JSON: dependencies are not followed".into()),
        );
    };
    let mut deps = graph(&meta, dir);
    // A path dependency inside the crate's directory is named relative to it, as the crate's
    // own files are (diagnostics and provenance stay the same on every machine).
    if let Ok(base) = std::fs::canonicalize(dir) {
        for d in &mut deps {
            if let Ok(rel) = Path::new(&d.root).strip_prefix(&base) {
                d.root = rel.to_string_lossy().replace('\\', "/");
            }
        }
    }
    (deps, None)
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
