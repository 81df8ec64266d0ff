//! Baselines for `accord check`: the contract as it was, read from a file or from git
//! (`git:REV[:PATH]`, `--against-tags GLOB`). Every failure is printed to stderr and ends the
//! run as an input error (exit 2).

use std::path::{Path, PathBuf};
use std::process::Command;

use accord_compat_diff::Source;
use accord_schema_model::Document;

use crate::{diagnostic, input};

/// A baseline: what it is called in reports, and the document.
pub(crate) struct Baseline {
    /// The name of the release or file (`v2.2.0`, `HEAD~1`, a path).
    pub(crate) name: String,
    /// The document, named `REV:PATH` or by its file path.
    pub(crate) source: Source,
}

/// Reads the baseline `spec` for `contract`: a file path, or `git:REV[:PATH]` where PATH
/// defaults to the contract's path relative to its repository root.
pub(crate) fn resolve(spec: &str, contract: &Path) -> Option<Baseline> {
    let Some(git) = spec.strip_prefix("git:") else {
        let loaded = input::load(Path::new(spec))?;
        let source = Source { file: spec.to_owned(), text: loaded.text, document: loaded.document };
        return Some(Baseline { name: spec.to_owned(), source });
    };
    let (rev, path) = match git.split_once(':') {
        Some((rev, path)) => (rev, Some(path)),
        None => (git, None),
    };
    if rev.is_empty() {
        eprintln!("error: `--against {spec}` names no revision (write git:REV or git:REV:PATH)");
        return None;
    }
    let repo = Repo::of(contract)?;
    let path = match path {
        Some(p) => p.to_owned(),
        None => repo.relative(contract)?,
    };
    let source = repo.show(rev, &path)?;
    Some(Baseline { name: rev.to_owned(), source })
}

/// The subject of a release commit before its name: `release: v0.2.0` (the commit
/// `cargo xtask release` makes, xtask/src/release/previous.rs).
const RELEASE_COMMIT_PREFIX: &str = "release: ";

/// Every release matching `glob`, oldest version first, each read as a baseline of `contract`.
/// Releases are tags, and release commits whose tag did not travel with the clone (shallow or
/// tagless CI clones, mirrors). Releases that do not hold the contract's path are left out with
/// a note on stderr.
pub(crate) fn tags(glob: &str, contract: &Path) -> Option<Vec<Baseline>> {
    let repo = Repo::of(contract)?;
    let path = repo.relative(contract)?;
    let matcher = match globset::Glob::new(glob) {
        Ok(g) => g.compile_matcher(),
        Err(err) => {
            eprintln!("error: `--against-tags {glob}` is not a glob: {err}");
            return None;
        }
    };
    // (name, revision, what it is): a tag is its own revision; a release commit is found by
    // its hash.
    let mut releases: Vec<(String, String, &str)> = Vec::new();
    let tags = repo.git(&["tag", "--list", glob])?;
    for tag in tags.lines().map(str::trim).filter(|t| !t.is_empty()) {
        releases.push((tag.to_owned(), tag.to_owned(), "tag"));
    }
    let grep = format!("--grep=^{RELEASE_COMMIT_PREFIX}");
    let commits = repo.git_quiet(&["log", "--format=%H %s", &grep, "HEAD"]).unwrap_or_default();
    for line in commits.lines() {
        let Some((hash, subject)) = line.split_once(' ') else { continue };
        let Some(name) = subject.strip_prefix(RELEASE_COMMIT_PREFIX).map(str::trim) else {
            continue;
        };
        if matcher.is_match(name) && !releases.iter().any(|(n, ..)| n == name) {
            releases.push((name.to_owned(), hash.to_owned(), "release commit"));
        }
    }
    releases.sort_by(|(a, ..), (b, ..)| version_order(a, b));
    let mut out = Vec::new();
    for (name, rev, kind) in releases {
        let spec = format!("{rev}:{path}");
        if repo.git_quiet(&["cat-file", "-e", &spec]).is_none() {
            eprintln!("note: {kind} {name} has no {path}; not checked against it");
            continue;
        }
        let mut source = repo.show(&rev, &path)?;
        source.file = format!("{name}:{path}");
        out.push(Baseline { name, source });
    }
    if out.is_empty() {
        eprintln!("error: no release matching `{glob}` (tag or release commit) holds {path}");
        return None;
    }
    Some(out)
}

/// Release names in version order (`v1.10.0` after `v1.9.0`); names that are not versions
/// after those that are, by name.
fn version_order(a: &str, b: &str) -> std::cmp::Ordering {
    let version = |name: &str| semver::Version::parse(name.trim_start_matches('v')).ok();
    match (version(a), version(b)) {
        (Some(x), Some(y)) => x.cmp(&y).then_with(|| a.cmp(b)),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => a.cmp(b),
    }
}

/// The git repository a contract lives in.
struct Repo {
    root: PathBuf,
}

impl Repo {
    fn of(contract: &Path) -> Option<Repo> {
        let dir = match contract.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let out = run_git(&dir, &["rev-parse", "--show-toplevel"]);
        match out {
            Ok(root) => Some(Repo { root: PathBuf::from(root.trim_end()) }),
            Err(err) => {
                eprintln!("error: {} is not in a git repository: {err}", contract.display());
                None
            }
        }
    }

    /// `contract`'s path relative to the repository root, with `/` separators.
    fn relative(&self, contract: &Path) -> Option<String> {
        let full = match contract.canonicalize() {
            Ok(p) => p,
            Err(err) => {
                diagnostic::print_io_error(contract, &err);
                return None;
            }
        };
        let root = self.root.canonicalize().unwrap_or_else(|_| self.root.clone());
        match full.strip_prefix(&root) {
            Ok(rel) => Some(
                rel.components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
                    .join("/"),
            ),
            Err(_) => {
                eprintln!(
                    "error: {} is outside the repository at {}",
                    contract.display(),
                    root.display()
                );
                None
            }
        }
    }

    /// The document at `rev:path`, named so in findings.
    fn show(&self, rev: &str, path: &str) -> Option<Source> {
        let name = format!("{rev}:{path}");
        let text = match run_git(&self.root, &["show", &name]) {
            Ok(text) => text,
            Err(err) => {
                eprintln!("error: cannot read {name} from git: {err}");
                return None;
            }
        };
        match Document::parse(&text) {
            Ok(document) => Some(Source { file: name, text, document }),
            Err(err) => {
                diagnostic::print_parse_error(Path::new(&name), text.as_bytes(), &err);
                None
            }
        }
    }

    fn git(&self, args: &[&str]) -> Option<String> {
        match run_git(&self.root, args) {
            Ok(out) => Some(out),
            Err(err) => {
                eprintln!("error: git {}: {err}", args.join(" "));
                None
            }
        }
    }

    fn git_quiet(&self, args: &[&str]) -> Option<String> {
        run_git(&self.root, args).ok()
    }
}

/// Runs `git ARGS` in `dir`: its stdout, or its stderr (or why it could not start) as the error.
fn run_git(dir: &Path, args: &[&str]) -> Result<String, String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .map_err(|err| format!("cannot run git: {err}"))?;
    if out.status.success() {
        String::from_utf8(out.stdout).map_err(|_| "git printed text that is not UTF-8".to_owned())
    } else {
        let err = String::from_utf8_lossy(&out.stderr);
        Err(err.trim().to_owned())
    }
}
