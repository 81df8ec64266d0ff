//! Baselines for `accord check`: the contract as it was, read from a file or from git
//! (`git:REV[:PATH]`, `--against-tags GLOB`). Every failure is printed to stderr and returned
//! as an [`Unavailable`], which `check` reports as its contract's input error (exit 2), in the
//! machine formats too.

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

/// Why no baseline could be read. Its diagnostic is on stderr already; the message is for the
/// reports that must carry the failure too (JSON, SARIF, JUnit, GitHub annotations).
pub(crate) struct Unavailable(pub(crate) String);

/// Prints `message` as an error and returns it as the reason.
fn refuse(message: String) -> Unavailable {
    eprintln!("error: {message}");
    Unavailable(message)
}

/// Reads the baseline `spec` for `contract`: a file path, or `git:REV[:PATH]` where PATH
/// defaults to the contract's path relative to its repository root.
pub(crate) fn resolve(spec: &str, contract: &Path) -> Result<Baseline, Unavailable> {
    let Some(git) = spec.strip_prefix("git:") else {
        // `read` prints the file's own diagnostic.
        let loaded = input::read(Path::new(spec))
            .map_err(|why| Unavailable(format!("baseline {spec}: {}", why.message)))?;
        let source = Source { file: spec.to_owned(), text: loaded.text, document: loaded.document };
        return Ok(Baseline { name: spec.to_owned(), source });
    };
    let (rev, path) = match git.split_once(':') {
        Some((rev, path)) => (rev, Some(path)),
        None => (git, None),
    };
    if rev.is_empty() {
        return Err(refuse(format!(
            "`--against {spec}` names no revision (write git:REV or git:REV:PATH)"
        )));
    }
    let repo = Repo::of(contract)?;
    let path = match path {
        Some(p) => p.to_owned(),
        None => repo.relative(contract)?,
    };
    let source = repo.show(rev, &path)?;
    Ok(Baseline { name: rev.to_owned(), source })
}

/// The subject of a release commit before its name: `release: v0.2.0` (the commit
/// `cargo xtask release` makes, xtask/src/release/previous.rs).
const RELEASE_COMMIT_PREFIX: &str = "release: ";

/// Every release matching `glob`, oldest version first, each read as a baseline of `contract`.
/// Releases are tags, and release commits whose tag did not travel with the clone (shallow or
/// tagless CI clones, mirrors). Releases that do not hold the contract's path are left out with
/// a note on stderr.
pub(crate) fn tags(glob: &str, contract: &Path) -> Result<Vec<Baseline>, Unavailable> {
    let repo = Repo::of(contract)?;
    let path = repo.relative(contract)?;
    let matcher = match globset::Glob::new(glob) {
        Ok(g) => g.compile_matcher(),
        Err(err) => return Err(refuse(format!("`--against-tags {glob}` is not a glob: {err}"))),
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
        return Err(refuse(format!(
            "no release matching `{glob}` (tag or release commit) holds {path}"
        )));
    }
    Ok(out)
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
    fn of(contract: &Path) -> Result<Repo, Unavailable> {
        let dir = match contract.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let out = run_git(&dir, &["rev-parse", "--show-toplevel"]);
        match out {
            Ok(root) => Ok(Repo { root: PathBuf::from(root.trim_end()) }),
            Err(err) => {
                Err(refuse(format!("{} is not in a git repository: {err}", contract.display())))
            }
        }
    }

    /// `contract`'s path relative to the repository root, with `/` separators.
    fn relative(&self, contract: &Path) -> Result<String, Unavailable> {
        let full = contract.canonicalize().map_err(|err| {
            diagnostic::print_io_error(contract, &err);
            Unavailable(format!("cannot read {}: {err}", contract.display()))
        })?;
        let root = self.root.canonicalize().unwrap_or_else(|_| self.root.clone());
        match full.strip_prefix(&root) {
            Ok(rel) => Ok(rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/")),
            Err(_) => Err(refuse(format!(
                "{} is outside the repository at {}",
                contract.display(),
                root.display()
            ))),
        }
    }

    /// The document at `rev:path`, named so in findings.
    fn show(&self, rev: &str, path: &str) -> Result<Source, Unavailable> {
        let name = format!("{rev}:{path}");
        let text = run_git(&self.root, &["show", &name])
            .map_err(|err| refuse(format!("cannot read {name} from git: {err}")))?;
        match Document::parse(&text) {
            Ok(document) => Ok(Source { file: name, text, document }),
            Err(err) => {
                diagnostic::print_parse_error(Path::new(&name), text.as_bytes(), &err);
                Err(Unavailable(format!("baseline {name} cannot be read: {err}")))
            }
        }
    }

    fn git(&self, args: &[&str]) -> Result<String, Unavailable> {
        run_git(&self.root, args).map_err(|err| refuse(format!("git {}: {err}", args.join(" "))))
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
