//! The crate as a module tree: files found along `mod` declarations (`x.rs`, `x/mod.rs`,
//! `#[path]`), the items each module declares, its `use` declarations, and the types that have a
//! hand-written `impl Serialize` or `impl Deserialize`.

use std::collections::HashMap;

use proc_macro2::Span;
use syn::{Item, UseTree};

use crate::{
    attrs,
    diagnostic::{Diagnostics, Location, locate},
};

/// Reads the files of a crate by path (`src/lib.rs`, `src/pump/mod.rs`). The core takes any
/// loader; [`FsLoader`](crate::FsLoader) reads a directory, a map serves in-memory sources.
pub trait SourceLoader {
    /// The text of `path`, or `None` when there is no such file.
    fn read(&mut self, path: &str) -> Option<String>;

    /// What names the file at `path` whatever the spelling (`../krate/src/lib.rs` and
    /// `src/lib.rs` can be one file), for finding a module that contains itself; `None` when
    /// the path is its own name (in-memory sources: there is no other spelling).
    fn identity(&mut self, _path: &str) -> Option<String> {
        None
    }
}

impl<S: std::hash::BuildHasher> SourceLoader for HashMap<String, String, S> {
    fn read(&mut self, path: &str) -> Option<String> {
        self.get(path).cloned()
    }
}

impl SourceLoader for std::collections::BTreeMap<String, String> {
    fn read(&mut self, path: &str) -> Option<String> {
        self.get(path).cloned()
    }
}

pub(crate) type ModId = usize;
pub(crate) type ItemId = usize;

#[derive(Debug)]
pub(crate) struct Module {
    /// `["crate", "a", "b"]`; in a dependency, its crate name first (`["alloy_eips", "eip1898"]`).
    pub(crate) path: Vec<String>,
    /// The root module of the crate this module belongs to (what `crate::` names).
    pub(crate) root: ModId,
    pub(crate) parent: Option<ModId>,
    pub(crate) children: HashMap<String, ModId>,
    pub(crate) items: HashMap<String, ItemId>,
    pub(crate) uses: Vec<UseDecl>,
}

#[derive(Debug, Clone)]
pub(crate) struct UseDecl {
    /// The name the `use` binds (`None` for a glob).
    pub(crate) name: Option<String>,
    pub(crate) path: Vec<String>,
}

#[derive(Debug)]
pub(crate) enum ItemKind {
    Struct(syn::ItemStruct),
    Enum(syn::ItemEnum),
    Alias(syn::ItemType),
    Trait(syn::ItemTrait),
}

#[derive(Debug)]
pub(crate) struct ItemDef {
    pub(crate) name: String,
    pub(crate) module: ModId,
    pub(crate) file: String,
    pub(crate) kind: ItemKind,
}

impl ItemDef {
    pub(crate) fn attrs(&self) -> &[syn::Attribute] {
        match &self.kind {
            ItemKind::Struct(s) => &s.attrs,
            ItemKind::Enum(e) => &e.attrs,
            ItemKind::Alias(a) => &a.attrs,
            ItemKind::Trait(t) => &t.attrs,
        }
    }

    pub(crate) fn span(&self) -> Span {
        match &self.kind {
            ItemKind::Struct(s) => s.ident.span(),
            ItemKind::Enum(e) => e.ident.span(),
            ItemKind::Alias(a) => a.ident.span(),
            ItemKind::Trait(t) => t.ident.span(),
        }
    }

    pub(crate) fn location(&self) -> Location {
        locate(&self.file, self.span())
    }
}

/// A hand-written `impl Serialize for T` or `impl Deserialize for T`.
#[derive(Debug)]
pub(crate) struct ManualImpl {
    pub(crate) module: ModId,
    pub(crate) self_ty: syn::Type,
    pub(crate) trait_name: String,
    pub(crate) at: Location,
}

/// An `impl Trait<A, B> for X` of the crate: the type arguments that bind a generic trait.
#[derive(Debug)]
pub(crate) struct TraitImpl {
    pub(crate) module: ModId,
    pub(crate) file: String,
    /// The trait's last segment (`EthApiServer`).
    pub(crate) trait_name: String,
    pub(crate) args: Vec<syn::Type>,
}

/// An `impl Trait for X { type A = T; … }` (the crate's or a dependency's): the associated
/// types it fixes, read in its module.
#[derive(Debug)]
pub(crate) struct AssocImpl {
    pub(crate) module: ModId,
    pub(crate) file: String,
    pub(crate) self_ty: syn::Type,
    /// The trait's last segment (`EngineTypes`).
    pub(crate) trait_name: String,
    pub(crate) types: Vec<(String, syn::Type)>,
}

#[derive(Debug, Default)]
pub(crate) struct Crate {
    /// Trait impls that fix associated types.
    pub(crate) assoc_impls: Vec<AssocImpl>,
    /// The crate's own generic trait impls (`impl Api<Block> for Node`).
    pub(crate) trait_impls: Vec<TraitImpl>,
    pub(crate) modules: Vec<Module>,
    pub(crate) items: Vec<ItemDef>,
    pub(crate) manual: Vec<ManualImpl>,
    /// The crate-level doc (`//!` of the root file).
    pub(crate) doc: Option<String>,
    /// Lines of source read (dependencies' included), for the benchmark's rate.
    pub(crate) lines: usize,
    /// Bytes of source read (dependencies' included), held under `MAX_SOURCE_BYTES`.
    pub(crate) bytes: usize,
    /// Dependencies the code names whose source was read, and whose was not on disk.
    pub(crate) read: Vec<String>,
    pub(crate) not_read: Vec<String>,
    /// Dependencies read, by the name the code uses (`alloy_eips`): their root modules.
    pub(crate) externs: HashMap<String, ModId>,
    /// `[types]` keys: an external path one names is not followed into its crate.
    pub(crate) overrides: Vec<String>,
    /// Identifiers followed by `::` in the files read: the dependencies worth reading.
    pub(crate) mentioned: std::collections::HashSet<String>,
}

pub(crate) const ROOT: ModId = 0;

/// Reads the crate from `root` (`src/lib.rs` or `src/main.rs`).
pub(crate) fn load(loader: &mut dyn SourceLoader, root: &str, diags: &mut Diagnostics) -> Crate {
    let mut krate = Crate::default();
    krate.modules.push(Module {
        path: vec!["crate".into()],
        root: ROOT,
        parent: None,
        children: HashMap::new(),
        items: HashMap::new(),
        uses: Vec::new(),
    });
    let Some(text) = loader.read(root) else {
        diags.error(
            "missing-file",
            Location { file: root.into(), line: 1, column: 1 },
            format!("`{root}` could not be read"),
            None,
        );
        return krate;
    };
    let dir = parent_dir(root);
    if !krate.take_bytes(root, text.len(), diags) {
        return krate;
    }
    if let Some(file) = parse(root, &text, diags) {
        krate.lines += text.lines().count();
        mentions(&text, &mut krate.mentioned);
        let all = attrs::flatten(&file.attrs);
        krate.doc = attrs::docs(&all).description;
        let open = vec![opened(loader, root)];
        let mut walker = Walker { loader, diags, krate: &mut krate, open };
        walker.items(ROOT, root, &dir, true, file.items);
    }
    krate
}

/// A dependency that may be followed: the name the code uses and its root file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dependency {
    /// The name code uses for it (`alloy_eips`: dashes as underscores, renames applied).
    pub name: String,
    /// Its `src/lib.rs` (any path the loader reads; an absolute one for a registry crate).
    pub root: String,
}

/// Crates that hold no wire type to follow, or whose types the built-in table knows: never
/// read, which keeps a run from parsing serde, tokio or jsonrpsee themselves.
const NOT_FOLLOWED: &[&str] = &[
    "serde",
    "serde_json",
    "serde_derive",
    "serde_with",
    "jsonrpsee",
    "jsonrpsee_core",
    "jsonrpsee_types",
    "jsonrpsee_server",
    "jsonrpsee_proc_macros",
    "tokio",
    "futures",
    "async_trait",
    "thiserror",
    "anyhow",
    "tracing",
    "log",
    "chrono",
    "uuid",
    "url",
    "bytes",
    "time",
    "rust_decimal",
    "smallvec",
    "indexmap",
];

impl Crate {
    /// Reads the dependencies the loaded code names (`name::` anywhere in a file read),
    /// again for what those name, until nothing new is named. Each crate is read once per
    /// run. A dependency's unreadable files are skipped silently: only the types reached
    /// through them are reported, where they are used.
    pub(crate) fn follow_dependencies(
        &mut self,
        loader: &mut dyn SourceLoader,
        deps: &[Dependency],
        diags: &mut Diagnostics,
    ) {
        let mut quiet = Diagnostics::default();
        let mut tried = std::collections::HashSet::new();
        loop {
            let next = deps.iter().find(|d| {
                !tried.contains(&d.name)
                    && !NOT_FOLLOWED.contains(&d.name.as_str())
                    && self.mentioned.contains(&d.name)
            });
            let Some(dep) = next else { break };
            tried.insert(dep.name.clone());
            // Not on disk (a registry crate never downloaded): its types stay unresolved.
            let Some(text) = loader.read(&dep.root) else {
                self.not_read.push(dep.name.clone());
                continue;
            };
            self.read.push(dep.name.clone());
            if !self.take_bytes(&dep.root, text.len(), diags) {
                break;
            }
            let root = self.modules.len();
            self.externs.insert(dep.name.clone(), root);
            self.modules.push(Module {
                path: vec![dep.name.clone()],
                root,
                parent: None,
                children: HashMap::new(),
                items: HashMap::new(),
                uses: Vec::new(),
            });
            let Some(file) = parse(&dep.root, &text, &mut quiet) else { continue };
            self.lines += text.lines().count();
            mentions(&text, &mut self.mentioned);
            let dir = parent_dir(&dep.root);
            let open = vec![opened(loader, &dep.root)];
            let mut walker = Walker { loader, diags: &mut quiet, krate: self, open };
            walker.items(root, &dep.root, &dir, true, file.items);
            // A dependency's limits are the run's: a hostile dependency stops it too.
            for d in quiet.all.iter().filter(|d| crate::limits::LIMIT_CODES.contains(&d.code)) {
                diags.push(
                    d.severity,
                    d.code,
                    d.location.clone(),
                    d.message.clone(),
                    d.help.clone(),
                );
            }
        }
    }

    /// Counts `len` more bytes of source read from `file`; past `MAX_SOURCE_BYTES`, error
    /// `source-too-large` and `false` (nothing more is read).
    pub(crate) fn take_bytes(&mut self, file: &str, len: usize, diags: &mut Diagnostics) -> bool {
        self.bytes = self.bytes.saturating_add(len);
        if self.bytes <= crate::limits::MAX_SOURCE_BYTES {
            return true;
        }
        diags.error(
            "source-too-large",
            Location { file: file.to_owned(), line: 1, column: 1 },
            format!(
                "reading `{file}` takes the source read past {} MiB, the most extract reads for one crate (its dependencies included)",
                crate::limits::MAX_SOURCE_BYTES >> 20
            ),
            Some("point --source at the crate that declares the RPC traits".into()),
        );
        false
    }
}

/// Every identifier followed by `::` in `text`: the crates a file may name.
fn mentions(text: &str, out: &mut std::collections::HashSet<String>) {
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(at) = text[i..].find("::") {
        let end = i + at;
        let mut start = end;
        while start > 0 && (bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'_') {
            start -= 1;
        }
        if start < end && (start == 0 || bytes[start - 1] != b':') {
            let ident = &text[start..end];
            if !out.contains(ident) {
                out.insert(ident.to_owned());
            }
        }
        i = end + 2;
    }
}

fn parse(path: &str, text: &str, diags: &mut Diagnostics) -> Option<syn::File> {
    // syn recurses once per level of nesting: a file past the limit is refused unparsed.
    if let Some(at) = crate::limits::too_deep(path, text) {
        diags.error(
            "nesting-too-deep",
            at,
            format!(
                "the source nests brackets and generics more than {} deep here; extract does not read past that depth",
                crate::limits::MAX_NESTING
            ),
            None,
        );
        return None;
    }
    match syn::parse_file(text) {
        Ok(f) => Some(f),
        Err(e) => {
            diags.error("syntax", locate(path, e.span()), format!("not valid Rust: {e}"), None);
            None
        }
    }
}

struct Walker<'a> {
    loader: &'a mut dyn SourceLoader,
    diags: &'a mut Diagnostics,
    krate: &'a mut Crate,
    /// The files of the modules being read, outermost first, as named and as the loader
    /// identifies them: a module whose file is one of them is its own ancestor.
    open: Vec<(String, String)>,
}

/// A file being read: its name and its identity (the loader's, else the name).
fn opened(loader: &mut dyn SourceLoader, path: &str) -> (String, String) {
    (path.to_owned(), loader.identity(path).unwrap_or_else(|| path.to_owned()))
}

impl Walker<'_> {
    /// `dir` is where the children of this module live; `owns_dir` says whether the file is a
    /// `mod.rs`/crate root (children in `dir`) or not.
    fn items(&mut self, module: ModId, file: &str, dir: &str, owns_dir: bool, items: Vec<Item>) {
        for item in items {
            let item_attrs = match &item {
                Item::Struct(i) => &i.attrs,
                Item::Enum(i) => &i.attrs,
                Item::Type(i) => &i.attrs,
                Item::Trait(i) => &i.attrs,
                Item::Mod(i) => &i.attrs,
                Item::Use(i) => &i.attrs,
                Item::Impl(i) => &i.attrs,
                _ => continue,
            };
            if attrs::is_cfg_test(item_attrs) {
                continue;
            }
            match item {
                Item::Struct(s) => {
                    self.add(module, file, s.ident.to_string(), ItemKind::Struct(s.clone()))
                }
                Item::Enum(e) => {
                    self.add(module, file, e.ident.to_string(), ItemKind::Enum(e.clone()))
                }
                Item::Type(t) => {
                    self.add(module, file, t.ident.to_string(), ItemKind::Alias(t.clone()))
                }
                Item::Trait(t) => {
                    self.add(module, file, t.ident.to_string(), ItemKind::Trait(t.clone()))
                }
                Item::Use(u) => {
                    let mut out = Vec::new();
                    use_tree(&u.tree, Vec::new(), &mut out);
                    self.krate.modules[module].uses.extend(out);
                }
                Item::Impl(i) => {
                    if let Some((_, path, _)) = &i.trait_
                        && let Some(last) = path.segments.last()
                        && let syn::PathArguments::AngleBracketed(a) = &last.arguments
                        && self.krate.modules[module].path[0] == "crate"
                    {
                        let args = a
                            .args
                            .iter()
                            .filter_map(|g| match g {
                                syn::GenericArgument::Type(t) => Some(t.clone()),
                                _ => None,
                            })
                            .collect();
                        self.krate.trait_impls.push(TraitImpl {
                            module,
                            file: file.to_owned(),
                            trait_name: last.ident.to_string(),
                            args,
                        });
                    }
                    if let Some((_, path, _)) = &i.trait_
                        && let Some(last) = path.segments.last()
                    {
                        let types: Vec<(String, syn::Type)> = i
                            .items
                            .iter()
                            .filter_map(|it| match it {
                                syn::ImplItem::Type(t) => Some((t.ident.to_string(), t.ty.clone())),
                                _ => None,
                            })
                            .collect();
                        if !types.is_empty() {
                            self.krate.assoc_impls.push(AssocImpl {
                                module,
                                file: file.to_owned(),
                                self_ty: (*i.self_ty).clone(),
                                trait_name: last.ident.to_string(),
                                types,
                            });
                        }
                    }
                    if let Some((_, path, _)) = &i.trait_ {
                        let name = path.segments.last().map(|s| s.ident.to_string());
                        if let Some(name @ ("Serialize" | "Deserialize")) = name.as_deref() {
                            self.krate.manual.push(ManualImpl {
                                module,
                                self_ty: *i.self_ty,
                                trait_name: name.to_owned(),
                                at: locate(file, i.impl_token.span),
                            });
                        }
                    }
                }
                Item::Mod(m) => self.module(module, file, dir, owns_dir, m),
                _ => {}
            }
        }
    }

    fn add(&mut self, module: ModId, file: &str, name: String, kind: ItemKind) {
        let id = self.krate.items.len();
        // With `#[cfg]` alternatives the first declaration wins (extract reads the union).
        self.krate.modules[module].items.entry(name.clone()).or_insert(id);
        self.krate.items.push(ItemDef { name, module, file: file.to_owned(), kind });
    }

    fn module(&mut self, parent: ModId, file: &str, dir: &str, owns_dir: bool, m: syn::ItemMod) {
        let name = m.ident.to_string();
        let mut path = self.krate.modules[parent].path.clone();
        path.push(name.clone());
        let id = self.krate.modules.len();
        let root = self.krate.modules[parent].root;
        self.krate.modules.push(Module {
            path,
            root,
            parent: Some(parent),
            children: HashMap::new(),
            items: HashMap::new(),
            uses: Vec::new(),
        });
        self.krate.modules[parent].children.insert(name.clone(), id);
        // Where this module's own children live, for a file that is not a mod.rs: `a.rs`'s
        // children are in `a/`.
        let base = if owns_dir { dir.to_owned() } else { join(dir, &file_stem(file)) };
        let explicit = attrs::path_attr(&m.attrs);
        if let Some((_, content)) = m.content {
            let child_dir = match &explicit {
                Some(p) => join(&base, p),
                None => join(&base, &name),
            };
            self.items(id, file, &child_dir, true, content);
            return;
        }
        let candidates = match &explicit {
            // `#[path]` outside inline modules is relative to the declaring file's directory.
            Some(p) => vec![normalize(&join(&parent_dir(file), p))],
            None => {
                vec![join(&base, &format!("{name}.rs")), join(&base, &format!("{name}/mod.rs"))]
            }
        };
        for candidate in &candidates {
            let this = opened(self.loader, candidate);
            if self.open.iter().any(|(_, identity)| *identity == this.1) {
                self.diags.error(
                    "module-cycle",
                    locate(file, m.ident.span()),
                    format!(
                        "module `{name}` is `{candidate}`, which is already being read ({}): a module cannot contain itself",
                        self.open.iter().map(|(name, _)| name.as_str()).collect::<Vec<_>>().join(" → ")
                    ),
                    Some("point its `#[path]` at another file".into()),
                );
                return;
            }
            if let Some(text) = self.loader.read(candidate) {
                if !self.krate.take_bytes(candidate, text.len(), self.diags) {
                    return;
                }
                let Some(parsed) = parse(candidate, &text, self.diags) else { return };
                self.krate.lines += text.lines().count();
                mentions(&text, &mut self.krate.mentioned);
                let is_mod_rs = explicit.is_some() || candidate.ends_with("/mod.rs");
                let child_dir = if is_mod_rs { parent_dir(candidate) } else { base.clone() };
                self.open.push(this);
                self.items(id, candidate, &child_dir, is_mod_rs, parsed.items);
                self.open.pop();
                return;
            }
        }
        self.diags.error(
            "missing-module",
            locate(file, m.ident.span()),
            format!("module `{name}` has no file: looked for {}", candidates.join(" and ")),
            None,
        );
    }
}

fn use_tree(tree: &UseTree, prefix: Vec<String>, out: &mut Vec<UseDecl>) {
    match tree {
        UseTree::Path(p) => {
            let mut next = prefix;
            next.push(p.ident.to_string());
            use_tree(&p.tree, next, out);
        }
        UseTree::Name(n) => {
            let name = n.ident.to_string();
            let mut path = prefix;
            if name == "self" {
                let bound = path.last().cloned();
                out.push(UseDecl { name: bound, path });
            } else {
                path.push(name.clone());
                out.push(UseDecl { name: Some(name), path });
            }
        }
        UseTree::Rename(r) => {
            let mut path = prefix;
            if r.ident != "self" {
                path.push(r.ident.to_string());
            }
            out.push(UseDecl { name: Some(r.rename.to_string()), path });
        }
        UseTree::Glob(_) => out.push(UseDecl { name: None, path: prefix }),
        UseTree::Group(g) => {
            for t in &g.items {
                use_tree(t, prefix.clone(), out);
            }
        }
    }
}

fn parent_dir(path: &str) -> String {
    match path.rfind('/') {
        Some(i) => path[..i].to_owned(),
        None => String::new(),
    }
}

fn file_stem(path: &str) -> String {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.strip_suffix(".rs").unwrap_or(name).to_owned()
}

fn join(dir: &str, rest: &str) -> String {
    if dir.is_empty() { rest.to_owned() } else { format!("{dir}/{rest}") }
}

/// `src/a/../b.rs` → `src/b.rs`; `src/../../x.rs` → `../x.rs`.
fn normalize(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "." | "" => {}
            // A `..` past the crate's directory stays: `#[path]` may name a file outside it,
            // as rustc allows (an example serving a fixture's traits).
            ".." if parts.last().is_none_or(|p| *p == "..") => parts.push(".."),
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    parts.join("/")
}
