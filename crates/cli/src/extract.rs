//! `accord extract`: the contract a plant's Rust source implies, written with the canonical
//! writer; merged into the output file when it exists (what extract does not produce is kept).
//! Also the staleness check behind `accord check --source`.

use std::path::{Path, PathBuf};

use accord_extract::{Config, Extraction, Severity, extract_dirs, merge};
use accord_schema_model::Document;

use crate::{Outcome, input, output};

/// Arguments of `accord extract`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The configuration (default: `accord.toml` in the current directory, when there is one).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// The crate or workspace directory (default: the configuration's `extract.source`, else
    /// `.`); repeat it to extract several into one contract.
    #[arg(long, value_name = "DIR")]
    source: Vec<PathBuf>,
    /// The contract to write, merging into it when it exists (default: the configuration's
    /// `extract.contract`, else stdout).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// A type extract cannot describe is an error and nothing is written (default: it reads as
    /// any value, with one warning per type).
    #[arg(long)]
    strict: bool,
    /// Find the dependencies' sources with `cargo metadata --offline` (extract follows types
    /// into the dependencies whose source is on disk; it never fetches).
    #[arg(long)]
    offline: bool,
}

/// The configuration, its directory, and the crate directory and contract it names.
pub(crate) struct Setup {
    pub(crate) config: Config,
    /// One or more crate or workspace directories.
    pub(crate) sources: Vec<PathBuf>,
    pub(crate) contract: Option<PathBuf>,
}

/// Reads the configuration; `None` after printing why it could not be read.
pub(crate) fn setup(config: Option<&Path>, sources: &[PathBuf]) -> Option<Setup> {
    let default = Path::new("accord.toml");
    let file = config.or(default.is_file().then_some(default));
    let (cfg, base) = match file {
        Some(f) => {
            let text = match std::fs::read_to_string(f) {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("error: cannot read {}: {e}", f.display());
                    return None;
                }
            };
            match Config::parse(&text, &f.display().to_string()) {
                Ok(c) => (c, f.parent().map(Path::to_path_buf).unwrap_or_default()),
                Err(e) => {
                    eprintln!("error: {e}");
                    return None;
                }
            }
        }
        None => (Config::default(), PathBuf::new()),
    };
    let sources =
        if !sources.is_empty() {
            sources.to_vec()
        } else if cfg.sources.is_empty() {
            vec![PathBuf::from(".")]
        } else {
            cfg.sources
                .iter()
                .map(|s| {
                    if s == "." && !base.as_os_str().is_empty() {
                        base.clone()
                    } else {
                        base.join(s)
                    }
                })
                .collect()
        };
    let contract = cfg.contract.as_ref().map(|c| base.join(c));
    Some(Setup { config: cfg, sources, contract })
}

impl Setup {
    /// The sources as the user wrote them, for messages: `a`, or `a, b`.
    fn shown(&self) -> String {
        self.sources.iter().map(|s| s.display().to_string()).collect::<Vec<_>>().join(", ")
    }
}

/// A source location as the user can open it: relative to the current directory.
fn in_source(setup: &Setup, at: &accord_extract::Location) -> String {
    // Several sources: each one's files are already named under it.
    let [one] = setup.sources.as_slice() else { return at.to_string() };
    let prefix = one.display().to_string();
    // A dependency's file is named by its absolute path.
    if prefix == "." || Path::new(&at.file).is_absolute() {
        at.to_string()
    } else {
        format!("{prefix}/{at}")
    }
}

/// Extracts and prints the diagnostics. `Err` with the exit to give when the crate could not be
/// read (2), when extraction found errors (the contract would be incomplete) or no RPC trait at
/// all (1).
pub(crate) fn run_extraction(setup: &Setup) -> Result<Extraction, Outcome> {
    let x = match extract_dirs(&setup.sources, &setup.config) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("error: {e}");
            return Err(Outcome::InputError);
        }
    };
    for d in &x.diagnostics {
        eprintln!(
            "{}: {}[{}]: {}",
            in_source(setup, &d.location),
            d.severity.as_str(),
            d.code,
            d.message
        );
        if let Some(help) = &d.help {
            eprintln!("  help: {help}");
        }
    }
    if x.has_errors() {
        let n = x.diagnostics.iter().filter(|d| d.severity == Severity::Error).count();
        let why = if setup.config.strict {
            "without --strict, undescribable types read as any value"
        } else {
            "fix the source, or describe the types above in accord.toml's [types]"
        };
        eprintln!("extract: {n} error(s); no contract written ({why})");
        return Err(Outcome::Problems);
    }
    if x.found_nothing() {
        eprintln!("extract: no contract written: {} has no RPC trait", setup.shown());
        return Err(Outcome::Problems);
    }
    Ok(x)
}

pub(crate) fn run(args: &Args) -> Outcome {
    let Some(mut setup) = setup(args.config.as_deref(), &args.source) else {
        return Outcome::InputError;
    };
    setup.config.strict |= args.strict;
    setup.config.offline |= args.offline;
    let x = match run_extraction(&setup) {
        Ok(x) => x,
        Err(outcome) => return outcome,
    };
    let out = args.out.clone().or_else(|| setup.contract.clone());
    let Some(out) = out else {
        return if output::print(&x.document.to_canonical_string()) {
            Outcome::Success
        } else {
            Outcome::InputError
        };
    };
    let document = if out.exists() {
        let Some(loaded) = input::load(&out) else { return Outcome::InputError };
        for name in loaded.document.namespaces.iter().flatten().map(|(n, _)| n) {
            if !x.document.namespaces.iter().flatten().any(|(m, _)| m == name) {
                eprintln!(
                    "note: namespace `{name}` of {} has no trait in the source; it is kept as written",
                    out.display()
                );
            }
        }
        merge(&x, &loaded.document)
    } else {
        x.document
    };
    match std::fs::write(&out, document.to_canonical_string()) {
        Ok(()) => {
            eprintln!("wrote {}", out.display());
            Outcome::Success
        }
        Err(e) => {
            eprintln!("error: cannot write {}: {e}", out.display());
            Outcome::InputError
        }
    }
}

/// What `accord check --source` (or `--config`) adds: re-extract, merge into the committed
/// contract and compare. `Some(true)` when the committed contract is up to date; the diff is
/// Whether the accord.toml at `config` names an `[extract] source`, so that `check --config`
/// holds the contract to a fresh extraction.
pub(crate) fn names_source(config: &Path) -> bool {
    std::fs::read_to_string(config)
        .ok()
        .and_then(|text| Config::parse(&text, &config.display().to_string()).ok())
        .is_some_and(|c| !c.sources.is_empty())
}

/// printed when it is not. Without `source` the configuration's `extract.source` is read.
pub(crate) fn up_to_date(
    config: Option<&Path>,
    sources: &[PathBuf],
    contract: &Path,
    committed: &Document,
) -> Result<bool, Outcome> {
    let setup = setup(config, sources).ok_or(Outcome::InputError)?;
    let x = run_extraction(&setup)?;
    let merged = merge(&x, committed);
    if &merged == committed {
        return Ok(true);
    }
    let old = committed.to_canonical_string();
    let new = merged.to_canonical_string();
    let diff = similar::TextDiff::from_lines(&old, &new);
    let mut text = format!(
        "{}: stale: the contract extracted from {} differs (- committed, + extracted):\n",
        contract.display(),
        setup.shown()
    );
    text.push_str(
        &diff.unified_diff().context_radius(2).header("committed", "extracted").to_string(),
    );
    // Where in the Rust source each changed namespace, method, event or type comes from.
    let (old_v, new_v) = (committed.to_value(), merged.to_value());
    let differs: Vec<&(String, accord_extract::Location)> =
        x.provenance.iter().filter(|(p, _)| old_v.pointer(p) != new_v.pointer(p)).collect();
    // The deepest elements only: a namespace is listed when nothing below it explains the change.
    let changed: Vec<String> = differs
        .iter()
        .filter(|(p, _)| {
            !differs.iter().any(|(q, _)| q.len() > p.len() && q.starts_with(&format!("{p}/")))
        })
        .map(|(pointer, at)| format!("  {pointer} comes from {}\n", in_source(&setup, at)))
        .collect();
    if !changed.is_empty() {
        text.push_str("changed, by their place in the source:\n");
        text.extend(changed);
    }
    text.push_str(&format!(
        "run `accord extract {} --out {}` and commit the result\n",
        setup
            .sources
            .iter()
            .map(|s| format!("--source {}", s.display()))
            .collect::<Vec<_>>()
            .join(" "),
        contract.display()
    ));
    output::print(&text);
    Ok(false)
}
