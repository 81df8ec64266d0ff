#![doc = include_str!("../README.md")]

mod attrs;
mod builtin;
mod cargo;
mod case;
mod config;
mod diagnostic;
mod error;
mod finite;
mod jsonrpc_derive;
mod limits;
mod lower;
mod merge;
mod modules;
mod namespaces;
mod placement;
mod resolve;
mod rpc;
mod tag;
mod unions;

use std::path::{Path, PathBuf};

use accord_schema_model::Document;
use indexmap::IndexMap;

pub use crate::{
    config::{Config, NamespaceConfig, WireFrom},
    diagnostic::{Diagnostic, Location, Severity},
    error::Error,
    limits::{LIMIT_CODES, MAX_LOWERED_NODES, MAX_LOWERING, MAX_NESTING, MAX_SOURCE_BYTES},
    merge::merge,
    modules::{Dependency, SourceLoader},
};

/// What one extraction produced.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Extraction {
    /// The contract the code implies.
    pub document: Document,
    /// Every problem found, in the order found.
    pub diagnostics: Vec<Diagnostic>,
    /// Where each namespace, method, event and named type comes from: JSON Pointer to place.
    pub provenance: Vec<(String, Location)>,
    /// Namespaces whose version the source or accord.toml gave (else a merge keeps the
    /// committed version).
    pub versions_given: Vec<String>,
    /// Lines of Rust read.
    pub lines: usize,
}

impl Extraction {
    /// Whether the source has no namespace trait at all (warning `no-rpc-traits`): the
    /// contract would be empty.
    pub fn found_nothing(&self) -> bool {
        self.document.namespaces.is_none()
    }

    /// Whether any diagnostic is an error: the contract is then incomplete.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(|d| d.severity == Severity::Error)
    }
}

/// Extracts the contract of the crate whose root file is `root` (`src/lib.rs`), on the
/// caller's thread: source nested near [`MAX_NESTING`] needs a larger stack than a test
/// thread's in a debug build ([`extract_dir`] gives it one).
pub fn extract(loader: &mut dyn SourceLoader, root: &str, config: &Config) -> Extraction {
    extract_with_dependencies(loader, root, config, &[])
}

/// [`extract`], following types into `deps` (each read once, when the code names it).
pub fn extract_with_dependencies(
    loader: &mut dyn SourceLoader,
    root: &str,
    config: &Config,
    deps: &[Dependency],
) -> Extraction {
    let part = lower_crate(loader, root, config, deps);
    assemble(vec![part], config, root)
}

/// One crate's traits and types, before the namespaces of every crate are merged.
struct Part {
    found: Vec<rpc::Found>,
    types: IndexMap<String, IndexMap<String, accord_schema_model::TypeNode>>,
    type_sources: Vec<((String, String), Location)>,
    field_sources: Vec<(String, Location)>,
    diagnostics: Vec<Diagnostic>,
    lines: usize,
    doc: Option<String>,
}

impl Part {
    /// Names every file of the part under `dir` (a workspace member's directory).
    fn prefix(&mut self, dir: &str) {
        if dir.is_empty() || dir == "." {
            return;
        }
        let fix = |l: &mut Location| {
            if !Path::new(&l.file).is_absolute() {
                l.file = format!("{}/{}", dir.trim_end_matches('/'), l.file);
            }
        };
        self.diagnostics.iter_mut().for_each(|d| fix(&mut d.location));
        for f in &mut self.found {
            fix(&mut f.at);
            f.sources.iter_mut().for_each(|(_, l)| fix(l));
        }
        self.type_sources.iter_mut().for_each(|(_, l)| fix(l));
        self.field_sources.iter_mut().for_each(|(_, l)| fix(l));
    }
}

fn lower_crate(
    loader: &mut dyn SourceLoader,
    root: &str,
    config: &Config,
    deps: &[Dependency],
) -> Part {
    let mut diags = diagnostic::Diagnostics::default();
    diags.strict = config.strict;
    let mut krate = modules::load(loader, root, &mut diags);
    krate.overrides = config.types.keys().cloned().collect();
    krate.follow_dependencies(loader, deps, &mut diags);
    if !krate.not_read.is_empty() {
        diags.warn(
            "dependencies-not-read",
            Location { file: root.to_owned(), line: 1, column: 1 },
            format!(
                "dependencies the code names whose source is not on disk, so their types are not read: {}; read: {}",
                krate.not_read.join(", "),
                if krate.read.is_empty() { "none".to_owned() } else { krate.read.join(", ") }
            ),
            Some("`cargo fetch` in the crate (or drop --offline) puts their source on disk".into()),
        );
    }
    let mut lowerer = lower::Lowerer::new(&krate, config, &mut diags);
    let found = lowerer.namespaces();
    lowerer.finish();
    let types = std::mem::take(&mut lowerer.types);
    let type_sources = std::mem::take(&mut lowerer.type_sources);
    let field_sources = std::mem::take(&mut lowerer.field_sources);
    drop(lowerer);
    let lines = krate.lines;
    let doc = krate.doc.clone();
    Part { found, types, type_sources, field_sources, diagnostics: diags.all, lines, doc }
}

/// The contract of several crates' parts: their traits merged by namespace, their types by
/// name (the first crate's type of a name counts; a different one: warning `name-collision`).
fn assemble(parts: Vec<Part>, config: &Config, root: &str) -> Extraction {
    let mut diags = diagnostic::Diagnostics::default();
    diags.strict = config.strict;
    let mut found = Vec::new();
    let mut types: IndexMap<String, IndexMap<String, accord_schema_model::TypeNode>> =
        IndexMap::new();
    let mut type_sources = Vec::new();
    let mut field_sources = Vec::new();
    let mut lines = 0;
    let mut doc = None;
    let single = parts.len() == 1;
    for part in parts {
        if single {
            // One crate: its diagnostics are already deduplicated; moved, not pushed again.
            diags.all = part.diagnostics;
        } else {
            for d in part.diagnostics {
                diags.push(d.severity, d.code, d.location, d.message, d.help);
            }
        }
        if doc.is_none() && !part.found.is_empty() {
            doc = part.doc;
        }
        found.extend(part.found);
        for (ns, named) in part.types {
            let into = types.entry(ns.clone()).or_default();
            for (name, t) in named {
                match into.get(&name) {
                    Some(old) if *old != t => {
                        let at = part
                            .type_sources
                            .iter()
                            .find(|((n, m), _)| *n == ns && *m == name)
                            .map(|(_, l)| l.clone())
                            .unwrap_or_default();
                        diags.warn(
                            "name-collision",
                            at,
                            format!("two crates give namespace `{ns}` a different type `{name}`; the first crate's is kept"),
                            Some("rename one of them (`accord: name = \"…\"` on the type)".into()),
                        );
                    }
                    Some(_) => {}
                    None => {
                        into.insert(name, t);
                    }
                }
            }
        }
        type_sources.extend(part.type_sources);
        field_sources.extend(part.field_sources);
        lines += part.lines;
    }
    // After an error (a trait refused, a file not read) "no RPC trait" would contradict it,
    // or say less than it does.
    let nothing = found.is_empty() && !diags.all.iter().any(|d| d.severity == Severity::Error);
    if nothing {
        diags.warn(
            "no-rpc-traits",
            Location { file: root.to_owned(), line: 1, column: 1 },
            "no RPC trait found: no `#[rpc]` trait and no trait tagged `accord: namespace = \"…\"`"
                .into(),
            Some("point --source at the crate (or workspace) that declares the RPC traits".into()),
        );
    }

    // A jsonrpsee plant answers no describe method and sends jsonrpsee's codes: the whole
    // plant's members of the wire, recorded once any of its traits is jsonrpsee's.
    // jsonrpc-derive's plant answers no describe method either; its codes are JSON-RPC's own,
    // which accord's profile already names.
    let jsonrpsee = found.iter().any(|f| f.jsonrpsee_wire && f.jsonrpsee);
    let wire = found.iter().any(|f| f.jsonrpsee_wire).then(|| accord_schema_model::Wire {
        describe: Some(accord_schema_model::DescribeMethod::None),
        codes: jsonrpsee.then(|| accord_schema_model::WireCodes {
            profile: Some(accord_schema_model::Profile::Jsonrpsee.as_str().to_owned()),
            ..Default::default()
        }),
        ..Default::default()
    });
    let namespaces::Merged { mut namespaces, mut provenance, versions_given } =
        namespaces::merge_traits(found, &mut diags);
    for (name, ns) in namespaces.iter_mut() {
        ns.types = types.shift_remove(name).filter(|t| !t.is_empty());
    }
    drop_unreached(&mut namespaces);
    // The fields' places by their type's pointer (one pass, not one scan per type: a plant of
    // thousands of types would otherwise spend seconds here).
    let mut fields_of: std::collections::HashMap<&str, Vec<&(String, Location)>> =
        std::collections::HashMap::new();
    for f in &field_sources {
        if let Some(at) = f.0.rfind("/fields/") {
            fields_of.entry(&f.0[..at]).or_default().push(f);
        }
    }
    for ((ns, name), at) in type_sources {
        let kept = namespaces
            .get(&ns)
            .and_then(|n| n.types.as_ref())
            .is_some_and(|t| t.contains_key(&name));
        if !kept {
            continue;
        }
        let base = format!("/namespaces/{}/types/{}", pointer_escape(&ns), pointer_escape(&name));
        provenance.push((base.clone(), at));
        let fields = fields_of.get(base.as_str()).into_iter().flatten();
        provenance.extend(fields.map(|f| (*f).clone()));
    }
    // Self arms first: dropping one may leave arms equal (`Option<Option<T>>`: null twice).
    unions::drop_self_arms(&mut namespaces, &provenance, &mut diags);
    unions::merge_equal_arms(&mut namespaces, &provenance, &mut diags);
    unions::break_ref_cycles(&mut namespaces, &provenance, &mut diags);
    finite::widen_types_without_value(&mut namespaces, &provenance, &mut diags);
    let document = Document {
        name: config.name.clone(),
        description: config.description.clone().or(doc),
        namespaces: (!namespaces.is_empty()).then_some(namespaces),
        wire,
        ..Document::default()
    };
    deeper_than_the_reader(&document, &provenance, &mut diags);
    Extraction { document, diagnostics: diags.all, provenance, versions_given, lines }
}

/// Drops named types nothing refers to: types whose fields were merged into another object
/// (`flatten`, internally tagged newtype variants) were lowered on the way but are not part of
/// the contract.
fn drop_unreached(namespaces: &mut IndexMap<String, accord_schema_model::Namespace>) {
    use accord_schema_model::{TypeKind, TypeNode};
    fn refs(n: &TypeNode, here: &str, out: &mut Vec<(String, String)>) {
        match &n.kind {
            TypeKind::Ref(r) => {
                out.push((r.namespace.clone().unwrap_or_else(|| here.to_owned()), r.name.clone()))
            }
            _ => n.children().for_each(|c| refs(c, here, out)),
        }
    }
    let mut todo = Vec::new();
    for (name, ns) in namespaces.iter() {
        for m in ns.methods.iter().flatten().map(|(_, m)| m) {
            m.params.iter().flatten().for_each(|p| refs(&p.field.ty, name, &mut todo));
            refs(&m.result, name, &mut todo);
        }
        for e in ns.events.iter().flatten().map(|(_, e)| e) {
            refs(&e.payload, name, &mut todo);
        }
    }
    let mut reached = std::collections::HashSet::new();
    while let Some(key) = todo.pop() {
        if !reached.insert(key.clone()) {
            continue;
        }
        if let Some(t) =
            namespaces.get(&key.0).and_then(|n| n.types.as_ref()).and_then(|t| t.get(&key.1))
        {
            refs(t, &key.0, &mut todo);
        }
    }
    for (name, ns) in namespaces.iter_mut() {
        if let Some(types) = &mut ns.types {
            types.retain(|t, _| reached.contains(&(name.clone(), t.clone())));
            if types.is_empty() {
                ns.types = None;
            }
        }
    }
}

/// Never write what the reader refuses as too deep (docs/format.md §2.5: 127 levels, the records
/// around a type node included): source inside [`MAX_NESTING`] can still nest a type past it
/// (`Vec<…>` 128 deep under a method's result; each `Option` is two levels, a union and its
/// arms), found by the `extract` fuzz target's smoke. An error at the deepest place, `nesting-too-deep`.
fn deeper_than_the_reader(
    document: &Document,
    provenance: &[(String, Location)],
    diags: &mut diagnostic::Diagnostics,
) {
    // Only the depth is asked: the document is not read back (that cost a fifth of a large
    // crate's extraction).
    let Some(pointer) = document.too_deep_to_read() else { return };
    diags.error(
        "nesting-too-deep",
        unions::place(pointer.as_str(), provenance),
        format!(
            "this type would nest the contract more than {} levels deep at {}, deeper than the format is read (docs/format.md §2.5); extract does not write it",
            accord_schema_model::DEPTH_LIMIT,
            pointer
        ),
        Some("name an inner part of the type (a struct), or describe it in accord.toml's [types]".into()),
    );
}

pub(crate) fn pointer_escape(s: &str) -> String {
    s.replace('~', "~0").replace('/', "~1")
}

/// Reads a crate's files from a directory; paths are relative to it (`src/lib.rs`).
#[derive(Debug, Clone)]
pub struct FsLoader {
    root: PathBuf,
}

impl FsLoader {
    /// A loader for the crate in `root`.
    pub fn new(root: impl Into<PathBuf>) -> FsLoader {
        FsLoader { root: root.into() }
    }
}

impl SourceLoader for FsLoader {
    fn read(&mut self, path: &str) -> Option<String> {
        std::fs::read_to_string(self.root.join(path)).ok()
    }

    fn identity(&mut self, path: &str) -> Option<String> {
        let canonical = std::fs::canonicalize(self.root.join(path)).ok()?;
        Some(canonical.to_string_lossy().into_owned())
    }
}

/// Extracts the crate in `dir`, from `src/lib.rs` or else `src/main.rs`; or, when `dir` is a
/// workspace root (a `Cargo.toml` and no crate root of its own), every member with an RPC trait
/// into one contract, files named relative to `dir` (`crates/api/src/lib.rs`).
///
/// # Errors
///
/// [`Error::NoCrateRoot`] when the directory has neither file nor a workspace manifest,
/// [`Error::NoDirectory`] when it is not a directory, [`Error::Limit`] when the source is past
/// a bound on hostile input.
pub fn extract_dir(dir: &Path, config: &Config) -> Result<Extraction, Error> {
    on_own_stack(|| {
        let (parts, root) = parts_of(dir, config)?;
        within_limits(assemble(parts, config, &root), Some(dir))
    })
}

/// Runs an extraction on a thread of its own with a stack of [`limits::STACK_BYTES`]: the
/// parser recurses once per level of nesting, and a debug build of it needs about 32 KiB a
/// level, so the caller's thread (2 MiB for a test, 8 MiB for `main`) could not parse source at
/// [`MAX_NESTING`]. The stack is reserved, not touched, unless the source nests.
fn on_own_stack<T: Send>(f: impl FnOnce() -> Result<T, Error> + Send) -> Result<T, Error> {
    std::thread::scope(|s| {
        let thread = std::thread::Builder::new()
            .name("accord-extract".into())
            .stack_size(limits::STACK_BYTES)
            .spawn_scoped(s, f)
            .map_err(|error| Error::Io { path: "(extract's thread)".into(), error })?;
        thread.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// An extraction that hit a bound on hostile input is an input error, not a contract; its
/// place is named under `dir` (the files of an extraction are relative to it).
fn within_limits(x: Extraction, dir: Option<&Path>) -> Result<Extraction, Error> {
    match x.diagnostics.iter().find(|d| limits::LIMIT_CODES.contains(&d.code)) {
        Some(d) => Err(Error::Limit {
            at: match dir {
                Some(dir) if !Path::new(&d.location.file).is_absolute() => {
                    format!("{}/{}", dir.display(), d.location)
                }
                _ => d.location.to_string(),
            },
            code: d.code,
            message: d.message.clone(),
        }),
        None => Ok(x),
    }
}

/// Extracts several crate or workspace directories into one contract (`--source a --source
/// b`): each directory's files are named under it as given (`a/src/lib.rs`).
///
/// # Errors
///
/// As [`extract_dir`], for the first directory that fails.
pub fn extract_dirs(dirs: &[PathBuf], config: &Config) -> Result<Extraction, Error> {
    if let [one] = dirs {
        return extract_dir(one, config);
    }
    on_own_stack(|| extract_several(dirs, config))
}

fn extract_several(dirs: &[PathBuf], config: &Config) -> Result<Extraction, Error> {
    let mut all = Vec::new();
    for dir in dirs {
        let (parts, _) = parts_of(dir, config)?;
        for mut part in parts {
            part.prefix(&dir.display().to_string());
            all.push(part);
        }
    }
    let root = dirs.first().map(|d| d.display().to_string()).unwrap_or_default();
    within_limits(assemble(all, config, &root), None)
}

fn crate_root(dir: &Path) -> Option<&'static str> {
    ["src/lib.rs", "src/main.rs"].into_iter().find(|r| dir.join(r).is_file())
}

/// Every member of the workspace rooted at `dir` with a crate root, read with one loader (paths
/// relative to the root).
fn members_parts(dir: &Path, members: cargo::Members, config: &Config) -> Vec<Part> {
    let mut loader = FsLoader::new(dir);
    let mut parts = Vec::new();
    for (member, deps) in members {
        let Some(r) = crate_root(&dir.join(&member)) else { continue };
        let file = if member.is_empty() { r.to_owned() } else { format!("{member}/{r}") };
        parts.push(lower_crate(&mut loader, &file, config, &deps));
    }
    parts
}

/// The parts of a crate or workspace directory, and the file a `no-rpc-traits` warning names.
fn parts_of(dir: &Path, config: &Config) -> Result<(Vec<Part>, String), Error> {
    if !dir.is_dir() {
        return Err(Error::NoDirectory { dir: dir.display().to_string() });
    }
    let Some(root) = crate_root(dir) else {
        if !dir.join("Cargo.toml").is_file() {
            return Err(Error::NoCrateRoot { dir: dir.display().to_string() });
        }
        // A workspace root: its members, read from it (one loader, paths relative to it).
        let members = match cargo::workspace(dir, config.offline) {
            Ok(m) => m,
            Err(note) => {
                return Err(Error::Config {
                    file: dir.join("Cargo.toml").display().to_string(),
                    message: format!(
                        "not a crate directory, and its workspace members are unknown: {note}"
                    ),
                });
            }
        };
        return Ok((members_parts(dir, members, config), "Cargo.toml".into()));
    };
    let (deps, note) = match cargo::crate_dir(dir, config.offline) {
        // A root package beside other members: the whole workspace, as for a virtual root.
        cargo::CrateDir::WorkspaceRoot(members) => {
            return Ok((members_parts(dir, members, config), "Cargo.toml".into()));
        }
        cargo::CrateDir::Alone(deps, note) => (deps, note),
    };
    let mut loader = FsLoader::new(dir);
    let mut part = lower_crate(&mut loader, root, config, &deps);
    if let Some(note) = note {
        part.diagnostics.push(Diagnostic {
            severity: Severity::Warning,
            code: "dependencies",
            message: note,
            location: Location { file: "Cargo.toml".into(), line: 1, column: 1 },
            help: Some("types of other crates read as any value unless the built-in table or [types] describes them".into()),
        });
    }
    Ok((vec![part], root.to_owned()))
}
