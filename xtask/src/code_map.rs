//! docs/ARCHITECTURE.md's Code Map held to the tree: every file or folder it names in backticks
//! exists. The map names crates and their few key files; a file renamed or removed without the
//! map following is what made it drift before (`generate/budget.rs`, `tests/common`), so the
//! test below fails naming the section and the path.
//!
//! A name is looked up where its section stands (`### \`crates/validate\`` → that crate), as a
//! path from the workspace root, or as the tail of a path in that section's tree (`walk.rs`
//! is `crates/validate/src/lint/walk.rs`).

use std::fs;
use std::path::{Path, PathBuf};

/// The file this checks.
pub(crate) const MAP_FILE: &str = "docs/ARCHITECTURE.md";

/// The extensions of the file names the map is held to (other backticked words are code).
const FILE_EXTENSIONS: &[&str] =
    &["rs", "md", "toml", "json", "yml", "yaml", "sh", "py", "ts", "js", "html", "css", "ungram"];

/// Names of files in a user's project that the map speaks of, not files of this tree.
const USER_FILES: &[&str] = &["accord.toml"];

/// Every backticked file or folder name of `text` that is not in the tree under `root`, as
/// "section: name".
pub(crate) fn missing(root: &Path, text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut section = String::new();
    let mut base = root.to_path_buf();
    let mut tree: Option<Vec<String>> = None;
    for line in text.lines() {
        if let Some(heading) = line.strip_prefix("### ").or_else(|| line.strip_prefix("## ")) {
            section = heading.to_owned();
            base = backticked(heading)
                .into_iter()
                .map(|p| root.join(p.trim_end_matches('/')))
                .find(|p| p.is_dir())
                .unwrap_or_else(|| root.to_path_buf());
            tree = None;
            continue;
        }
        for name in backticked(line).into_iter().filter(|n| names_a_file(n)) {
            if root.join(name).exists() || base.join(name).exists() {
                continue;
            }
            let files = tree.get_or_insert_with(|| paths_under(&base));
            let tail = format!("/{}", name.trim_end_matches('/'));
            if !files.iter().any(|f| f.ends_with(&tail)) {
                out.push(format!("{section}: `{name}`"));
            }
        }
    }
    out
}

/// The words between backticks on `line`.
fn backticked(line: &str) -> Vec<&str> {
    line.split('`').skip(1).step_by(2).collect()
}

/// Whether a backticked word is a file or folder name the map claims exists: a relative path
/// with a known extension, or one ending in `/`; never a pattern (`<rule>`, `*`, `{a,b}`), a
/// command or code.
fn names_a_file(word: &str) -> bool {
    if word.is_empty()
        || word.starts_with('/')
        || word.starts_with('.')
        || word.contains(|c: char| c.is_whitespace() || "<>*{}()$:=,'\"|".contains(c))
        // A placeholder (`golden/vX.Y.Z/`) stands for many folders.
        || word.contains("X.Y.Z")
        || USER_FILES.contains(&word)
    {
        return false;
    }
    if word.ends_with('/') {
        return word.len() > 1
            && word.trim_end_matches('/').contains(|c: char| c.is_ascii_lowercase());
    }
    word.rsplit_once('.')
        .is_some_and(|(stem, ext)| !stem.is_empty() && FILE_EXTENSIONS.contains(&ext))
}

/// Every file and folder under `dir` as a `/`-separated path, folders without their trailing
/// `/`, leaving out build output and installed packages.
fn paths_under(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack: Vec<PathBuf> = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = fs::read_dir(&d) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name();
            if matches!(name.to_str(), Some("target" | "node_modules" | ".git")) {
                continue;
            }
            out.push(path.to_string_lossy().replace('\\', "/"));
            if path.is_dir() {
                stack.push(path);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_the_code_map_names_exists() {
        let root =
            Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask is in the workspace");
        let text = fs::read_to_string(root.join(MAP_FILE)).expect("docs/ARCHITECTURE.md reads");
        let missing = missing(root, &text);
        assert!(
            missing.is_empty(),
            "{MAP_FILE} names files that are not in the tree (rename them in the map, or drop them):\n  {}",
            missing.join("\n  ")
        );
    }

    #[test]
    fn a_name_gone_from_the_tree_is_found() {
        let root =
            Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask is in the workspace");
        let text = "### `crates/validate` (package `accord-validate`)\n\n`walk.rs` and `generate/budget.rs`, `Document::parse`, `fixtures/lint/<rule>/`\n";
        assert_eq!(
            missing(root, text),
            ["`crates/validate` (package `accord-validate`): `generate/budget.rs`"]
        );
    }
}
