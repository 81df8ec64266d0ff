//! Write-or-check of generated files: one helper that either brings a file up to date or says
//! how it drifted, and the listing printed when `--check` finds drift.

use std::{
    fmt, fs,
    path::{Path, PathBuf},
};

use anyhow::{Context, Result, bail};

use crate::workspace::show;

/// Whether a task rewrites generated files or only compares them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    Write,
    Check,
}

/// How a generated file differs from what its generator produces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Problem {
    /// The file exists with other contents.
    Drifted,
    /// The file should exist and does not.
    Missing,
    /// The file exists and nothing generates it any more.
    Stale,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Problem::Drifted => "drifted",
            Problem::Missing => "missing",
            Problem::Stale => "stale",
        })
    }
}

/// One generated file that is not as its generator would write it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Drift {
    /// From the workspace root.
    pub(crate) path: PathBuf,
    pub(crate) problem: Problem,
}

/// Compares what a file should hold (`None`: it should not exist) with what it holds (`None`:
/// it does not exist).
pub(crate) fn compare(expected: Option<&str>, actual: Option<&[u8]>) -> Option<Problem> {
    match (expected, actual) {
        (Some(want), Some(have)) if want.as_bytes() == have => None,
        (Some(_), Some(_)) => Some(Problem::Drifted),
        (Some(_), None) => Some(Problem::Missing),
        (None, Some(_)) => Some(Problem::Stale),
        (None, None) => None,
    }
}

/// Whether `rel` (from the workspace root) lies in a frozen golden folder,
/// `fixtures/golden/v*/`, which no task may write.
pub(crate) fn is_frozen(rel: &Path) -> bool {
    let mut parts = rel.components().map(|c| c.as_os_str().to_string_lossy());
    parts.next().as_deref() == Some("fixtures")
        && parts.next().as_deref() == Some("golden")
        && parts.next().is_some_and(|dir| dir.starts_with('v'))
}

/// Makes the file at `rel` (from `root`) hold `contents`, or, for `None`, not exist. In
/// [`Mode::Check`] nothing is written. Gives the problem found before any fix, if there was one.
pub(crate) fn ensure_file_contents(
    root: &Path,
    rel: &Path,
    contents: Option<&str>,
    mode: Mode,
) -> Result<Option<Problem>> {
    if rel.is_absolute() || rel.components().any(|c| c.as_os_str() == "..") {
        bail!("refusing to write {}: generated paths stay inside the workspace", rel.display());
    }
    if is_frozen(rel) {
        bail!(
            "refusing to write {}: fixtures/golden/v*/ holds frozen goldens, which are never rewritten",
            show(rel)
        );
    }
    let path = root.join(rel);
    let actual = match fs::read(&path) {
        Ok(bytes) => Some(bytes),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => None,
        Err(err) => return Err(err).with_context(|| format!("could not read {}", show(rel))),
    };
    let problem = compare(contents, actual.as_deref());
    if mode == Mode::Write && problem.is_some() {
        match contents {
            Some(contents) => {
                if let Some(dir) = path.parent() {
                    fs::create_dir_all(dir)
                        .with_context(|| format!("could not create {}", dir.display()))?;
                }
                fs::write(&path, contents)
                    .with_context(|| format!("could not write {}", show(rel)))?;
            }
            None => {
                fs::remove_file(&path)
                    .with_context(|| format!("could not remove {}", show(rel)))?;
            }
        }
    }
    Ok(problem)
}

/// The message `--check` fails with: every drifted, missing and stale file, then `fix`.
pub(crate) fn report(drifts: &[Drift], fix: &str) -> String {
    let mut drifts = drifts.to_vec();
    drifts.sort_by(|a, b| a.path.cmp(&b.path));
    let noun = if drifts.len() == 1 { "file is" } else { "files are" };
    let mut text = format!("{} generated {noun} out of date:\n", drifts.len());
    for drift in &drifts {
        let note = match drift.problem {
            Problem::Drifted => "",
            Problem::Missing => " (not generated yet)",
            Problem::Stale => " (nothing generates it any more)",
        };
        text.push_str(&format!("  {:<8} {}{note}\n", drift.problem.to_string(), show(&drift.path)));
    }
    text.push_str(fix);
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compare_finds_each_kind_of_drift() {
        assert_eq!(compare(Some("a\n"), Some(b"a\n")), None);
        assert_eq!(compare(Some("a\n"), Some(b"a")), Some(Problem::Drifted));
        assert_eq!(compare(Some("a\n"), None), Some(Problem::Missing));
        assert_eq!(compare(None, Some(b"a\n")), Some(Problem::Stale));
        assert_eq!(compare(None, None), None);
    }

    #[test]
    fn frozen_folders_are_recognised() {
        assert!(is_frozen(Path::new("fixtures/golden/v0.1.0/contracts/a.types.json")));
        assert!(is_frozen(Path::new("fixtures/golden/v1")));
        assert!(!is_frozen(Path::new("fixtures/golden/current/contracts/a.types.json")));
        assert!(!is_frozen(Path::new("fixtures/contracts/v1.types.json")));
        assert!(!is_frozen(Path::new("docs/golden/v1/a.md")));
    }

    #[test]
    fn report_lists_every_file_sorted_and_ends_with_the_fix() {
        let drifts = [
            Drift {
                path: "fixtures/golden/current/contracts/b.inspect.txt".into(),
                problem: Problem::Missing,
            },
            Drift {
                path: "fixtures/golden/current/contracts/a.types.json".into(),
                problem: Problem::Drifted,
            },
            Drift {
                path: "fixtures/golden/current/contracts/gone.inspect.json".into(),
                problem: Problem::Stale,
            },
        ];
        let text = report(&drifts, "run `cargo xtask fixtures` and commit");
        assert_eq!(
            text,
            "3 generated files are out of date:
  drifted  fixtures/golden/current/contracts/a.types.json
  missing  fixtures/golden/current/contracts/b.inspect.txt (not generated yet)
  stale    fixtures/golden/current/contracts/gone.inspect.json (nothing generates it any more)
run `cargo xtask fixtures` and commit"
        );
    }

    #[test]
    fn ensure_refuses_frozen_paths_before_touching_anything() {
        let root = Path::new("/nonexistent-root-for-xtask-test");
        let err = ensure_file_contents(
            root,
            Path::new("fixtures/golden/v0.1.0/contracts/a.types.json"),
            Some("{}"),
            Mode::Write,
        )
        .unwrap_err();
        assert!(err.to_string().contains("frozen goldens"), "{err}");
    }
}
