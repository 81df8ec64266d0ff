//! `cargo xtask fixtures [--check]`: regenerates every generated file from its generator.
//!
//! A [`Generator`] produces `(path, contents)` pairs; a generator may own a folder, in which case
//! any file there that it did not produce is stale. Adding an artefact (say `docs/compat-rules.md`
//! from a rule registry) means adding one entry to [`GENERATORS`].

use std::{
    cell::OnceCell,
    collections::BTreeSet,
    fs,
    path::{Path, PathBuf},
};

use anyhow::{Result, bail};

use crate::{
    accord::Accord,
    ensure::{self, Drift, Mode, Problem},
    workspace::{self, DOCUMENT_SUFFIX, show},
};

/// What `--check` tells the reader to do about drift.
pub(crate) const FIX: &str = "run `cargo xtask fixtures` and commit";

/// The folder of the current goldens.
pub(crate) const GOLDEN_CURRENT: &str = "fixtures/golden/current";

/// One generated file: its path from the workspace root and its contents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Generated {
    pub(crate) path: PathBuf,
    pub(crate) contents: String,
}

/// A source of generated files.
pub(crate) struct Generator {
    /// For messages.
    pub(crate) name: &'static str,
    /// A folder (from the workspace root) this generator owns entirely: a file there that it did
    /// not produce is stale.
    pub(crate) owns: Option<&'static str>,
    pub(crate) generate: fn(&Context) -> Result<Vec<Generated>>,
}

/// Every generator `cargo xtask fixtures` runs, in order.
pub(crate) const GENERATORS: &[Generator] = &[
    Generator { name: "goldens", owns: Some(GOLDEN_CURRENT), generate: goldens },
    Generator { name: "compat-rules", owns: None, generate: compat_rules },
    Generator { name: "format-schema", owns: None, generate: crate::format_schema::generate },
];

/// docs/compat-rules.md: the compatibility rule registry as
/// `accord rules --format markdown --kind compat` prints it (xtask does not depend on accord-compat-diff; it runs today's `accord`).
fn compat_rules(cx: &Context) -> Result<Vec<Generated>> {
    let contents = cx.accord()?.rules_markdown()?;
    Ok(vec![Generated { path: "docs/compat-rules.md".into(), contents }])
}

/// What generators may use: the workspace root and, built on first use, today's `accord`.
pub(crate) struct Context {
    pub(crate) root: PathBuf,
    accord: OnceCell<Accord>,
}

impl Context {
    pub(crate) fn new(root: &Path) -> Context {
        Context { root: root.to_path_buf(), accord: OnceCell::new() }
    }

    /// Today's `accord`, built the first time a generator asks.
    pub(crate) fn accord(&self) -> Result<&Accord> {
        if let Some(accord) = self.accord.get() {
            return Ok(accord);
        }
        let accord = Accord::build_current(&self.root)?;
        Ok(self.accord.get_or_init(|| accord))
    }
}

/// The golden outputs of every document: canonical text, text inspect and JSON inspect.
fn goldens(cx: &Context) -> Result<Vec<Generated>> {
    let docs = workspace::documents(&cx.root)?;
    let mut files = Vec::new();
    if docs.is_empty() {
        return Ok(files);
    }
    let accord = cx.accord()?;
    for doc in docs {
        let name = doc.name.to_string_lossy();
        let stem = name.strip_suffix(DOCUMENT_SUFFIX).unwrap_or(&name);
        let base = Path::new(GOLDEN_CURRENT).join(doc.folder).join(stem);
        let outputs = [
            (DOCUMENT_SUFFIX, accord.canonical(&doc.path)?),
            (".inspect.txt", accord.inspect(&doc.path, None)?),
            (".inspect.json", accord.inspect(&doc.path, Some("json"))?),
        ];
        for (suffix, contents) in outputs {
            let mut path = base.clone().into_os_string();
            path.push(suffix);
            files.push(Generated { path: path.into(), contents });
        }
    }
    Ok(files)
}

/// Files in an owned folder that nothing generated: `existing` are paths inside `owned`,
/// `generated` are paths from the workspace root. Gives paths from the workspace root, sorted.
pub(crate) fn stale(
    owned: &Path,
    existing: &[PathBuf],
    generated: &BTreeSet<PathBuf>,
) -> Vec<PathBuf> {
    let mut stale: Vec<PathBuf> = existing
        .iter()
        .map(|rel| owned.join(rel))
        .filter(|path| !generated.contains(path))
        .collect();
    stale.sort();
    stale
}

/// Runs every generator. In [`Mode::Check`], writes nothing and fails listing every drift.
pub(crate) fn run(root: &Path, mode: Mode) -> Result<()> {
    let drifts = sync(root, mode)?;
    // The console's screenshots are made in a browser (`cargo xtask console-shots`), not here:
    // only their presence is checked.
    let shots = crate::console_shots::missing(root);
    if mode == Mode::Check && !shots.is_empty() {
        bail!(
            "missing screenshots of docs/console.md: {}; run `cargo xtask console-shots`",
            shots.iter().map(|p| show(p)).collect::<Vec<_>>().join(", ")
        );
    }
    match mode {
        Mode::Check if !drifts.is_empty() => bail!("{}", ensure::report(&drifts, FIX)),
        Mode::Check => println!("fixtures: every generated file is up to date"),
        Mode::Write => {
            for drift in &drifts {
                let (verb, note) = match drift.problem {
                    Problem::Drifted => ("updated", ""),
                    Problem::Missing => ("created", ""),
                    Problem::Stale => ("removed", " (nothing generates it any more)"),
                };
                println!("{verb} {}{note}", show(&drift.path));
            }
            let n = drifts.len();
            println!("fixtures: {n} file{} changed", if n == 1 { "" } else { "s" });
        }
    }
    Ok(())
}

/// Brings every generated file up to date (or, in [`Mode::Check`], only compares), giving every
/// file that was not.
pub(crate) fn sync(root: &Path, mode: Mode) -> Result<Vec<Drift>> {
    let cx = Context::new(root);
    let mut drifts = Vec::new();
    let mut generated = BTreeSet::new();
    for generator in GENERATORS {
        let files = (generator.generate)(&cx)
            .map_err(|err| err.context(format!("generator `{}` failed", generator.name)))?;
        let mut own = BTreeSet::new();
        for file in files {
            if let Some(owned) = generator.owns
                && !file.path.starts_with(owned)
            {
                bail!(
                    "generator `{}` produced {}, outside the folder it owns ({owned})",
                    generator.name,
                    show(&file.path)
                );
            }
            if !generated.insert(file.path.clone()) {
                bail!("{} is generated twice", show(&file.path));
            }
            own.insert(file.path.clone());
            if let Some(problem) =
                ensure::ensure_file_contents(root, &file.path, Some(&file.contents), mode)?
            {
                drifts.push(Drift { path: file.path, problem });
            }
        }
        if let Some(owned) = generator.owns {
            let owned = Path::new(owned);
            let existing = workspace::files_under(&root.join(owned))?;
            for path in stale(owned, &existing, &own) {
                if let Some(problem) = ensure::ensure_file_contents(root, &path, None, mode)? {
                    drifts.push(Drift { path: path.clone(), problem });
                }
                if mode == Mode::Write {
                    remove_empty_parents(root, owned, &path);
                }
            }
        }
    }
    Ok(drifts)
}

/// Removes the folders left empty by removing `path`, up to (not including) `owned`.
fn remove_empty_parents(root: &Path, owned: &Path, path: &Path) {
    let mut dir = path.parent();
    while let Some(d) = dir {
        if d == owned || !d.starts_with(owned) || fs::remove_dir(root.join(d)).is_err() {
            break;
        }
        dir = d.parent();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stale_lists_owned_files_nothing_generated() {
        let owned = Path::new(GOLDEN_CURRENT);
        let existing: Vec<PathBuf> = [
            "contracts/a.types.json",
            "contracts/a.inspect.txt",
            "contracts/gone.types.json",
            "future/old.inspect.json",
        ]
        .map(PathBuf::from)
        .to_vec();
        let generated: BTreeSet<PathBuf> = [
            "fixtures/golden/current/contracts/a.types.json",
            "fixtures/golden/current/contracts/a.inspect.txt",
            "fixtures/golden/current/contracts/new.types.json",
        ]
        .map(PathBuf::from)
        .into();
        assert_eq!(
            stale(owned, &existing, &generated),
            [
                "fixtures/golden/current/contracts/gone.types.json",
                "fixtures/golden/current/future/old.inspect.json",
            ]
            .map(PathBuf::from)
        );
    }

    #[test]
    fn generators_never_own_a_frozen_folder() {
        for generator in GENERATORS {
            if let Some(owned) = generator.owns {
                assert!(!ensure::is_frozen(Path::new(owned)), "{} owns {owned}", generator.name);
            }
        }
    }
}
