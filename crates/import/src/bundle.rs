//! Multi-file OpenRPC documents: `$ref`s into other local files (`other.json#/components/…`,
//! relative to the file that holds the ref, or to [`crate::Options::ref_base`]) are followed, the way OpenRPC's own tooling
//! resolves them, and the document is bundled into one before the import reads it. A component
//! of another file (`#/components/{schemas,errors,contentDescriptors,examples}/NAME`) becomes a
//! component of the bundle under its name (the file's stem appended when the name is taken by
//! another value), so each referenced component stays one named type; any other pointer is
//! inlined. Never a network fetch: `http(s)` refs stay as they are (the import reports them);
//! a file outside the document's folder only with [`crate::Options::allow_outside`]. A ref that
//! cannot be followed stays, and is a loss naming the path tried.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::report::{Accepts, Loss};
use crate::schema::escape;

/// The component sections a ref into another file may name.
const SECTIONS: [&str; 4] = ["schemas", "errors", "contentDescriptors", "examples"];

/// How deep inlined refs may nest (a cycle of inlined pointers stops here, as a loss).
const MAX_DEPTH: usize = 64;

struct Bundler {
    root_dir: PathBuf,
    root_file: PathBuf,
    allow_outside: bool,
    /// Where relative file refs resolve from, when not the referring file's folder.
    ref_base: Option<PathBuf>,
    files: HashMap<PathBuf, Option<Value>>,
    /// (file, component pointer) → its name in the bundle.
    placed: HashMap<(PathBuf, String), (String, String)>,
    /// The bundle's components, by section.
    components: Map<String, Value>,
    losses: Vec<Loss>,
}

/// `source`, read from the file `path`, with every local file ref followed; and the refs that
/// could not be.
pub(crate) fn bundle(source: &Value, path: &Path, options: &crate::Options) -> (Value, Vec<Loss>) {
    let dir = path.parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let root_dir = dir.canonicalize().unwrap_or(dir.clone());
    let file = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    let ref_base =
        options.ref_base.as_ref().map(|b| b.canonicalize().unwrap_or_else(|_| b.clone()));
    let mut b = Bundler {
        root_dir,
        root_file: file.clone(),
        allow_outside: options.allow_outside,
        ref_base,
        files: HashMap::new(),
        placed: HashMap::new(),
        components: Map::new(),
        losses: Vec::new(),
    };
    b.files.insert(file.clone(), Some(source.clone()));
    let mut out = source.clone();
    b.adopt_aliases(&mut out, &file);
    b.walk(&mut out, &file, "", 0, true);
    if !b.components.is_empty() {
        let root = out.as_object_mut().expect("an OpenRPC document is an object");
        let components = root.entry("components").or_insert_with(|| Value::Object(Map::new()));
        if let Some(components) = components.as_object_mut() {
            for (section, entries) in std::mem::take(&mut b.components) {
                let target = components.entry(section).or_insert_with(|| Value::Object(Map::new()));
                if let (Some(target), Value::Object(entries)) = (target.as_object_mut(), entries) {
                    for (name, v) in entries {
                        target.entry(name).or_insert(v);
                    }
                }
            }
        }
    }
    (out, b.losses)
}

impl Bundler {
    /// Rewrites the refs inside `v` (found in `file`; `at` its pointer in the bundle).
    /// `in_root`: `v` is the root document itself, whose local refs stay local.
    fn walk(&mut self, v: &mut Value, file: &Path, at: &str, depth: usize, in_root: bool) {
        match v {
            Value::Object(m) => {
                if let Some(Value::String(r)) = m.get("$ref").cloned() {
                    let external = !r.starts_with('#');
                    if (external || !in_root)
                        && let Some(new) = self.follow(&r, file, &format!("{at}/$ref"), depth)
                    {
                        match new {
                            Followed::Ref(to) => {
                                m.insert("$ref".to_owned(), Value::String(to));
                            }
                            Followed::Inline(value) => {
                                m.remove("$ref");
                                if let Value::Object(inner) = value {
                                    for (k, x) in inner {
                                        m.entry(k).or_insert(x);
                                    }
                                }
                            }
                        }
                    }
                }
                for (k, child) in m.iter_mut() {
                    if k == "$ref" {
                        continue;
                    }
                    self.walk(child, file, &format!("{at}/{}", escape(k)), depth, in_root);
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter_mut().enumerate() {
                    self.walk(item, file, &format!("{at}/{i}"), depth, in_root);
                }
            }
            _ => {}
        }
    }

    /// What the ref `r` found in `file` becomes in the bundle; `None` leaves it (a loss, or an
    /// `http(s)` ref the import reports).
    fn follow(&mut self, r: &str, file: &Path, at: &str, depth: usize) -> Option<Followed> {
        let (path_part, fragment) = r.split_once('#').unwrap_or((r, ""));
        if path_part.starts_with("http://") || path_part.starts_with("https://") {
            return None;
        }
        let target_file = if path_part.is_empty() {
            file.to_path_buf()
        } else {
            let joined = self.joined(path_part, file);
            match joined.canonicalize() {
                Ok(p) => p,
                Err(e) => {
                    let tried = self.show(&joined);
                    self.lost(at, r, &format!("{tried}: {e}"));
                    return None;
                }
            }
        };
        let inside = target_file.starts_with(&self.root_dir)
            || self.ref_base.as_ref().is_some_and(|base| target_file.starts_with(base));
        if !self.allow_outside && !inside {
            let why = format!(
                "{} is outside the document's folder (allow it with --allow-outside)",
                target_file.display()
            );
            self.lost(at, r, &why);
            return None;
        }
        let doc = self.load(&target_file, at, r)?;
        let pointer = percent_decode(fragment);
        let Some(target) = doc.pointer(&pointer).cloned() else {
            let tried = self.show(&target_file);
            self.lost(at, r, &format!("{tried} has nothing at `#{pointer}`"));
            return None;
        };
        let segments: Vec<&str> = pointer.split('/').collect();
        if let ["", "components", section, name] = segments.as_slice()
            && SECTIONS.contains(section)
        {
            let key = (target_file.clone(), pointer.clone());
            if let Some((section, name)) = self.placed.get(&key) {
                return Some(Followed::Ref(format!("#/components/{section}/{}", escape(name))));
            }
            let name = name.replace("~1", "/").replace("~0", "~");
            let name = self.free_name(section, &name, &target_file, &target);
            self.placed.insert(key, ((*section).to_owned(), name.clone()));
            // Reserve the name before walking, so that recursion finds it placed.
            self.section(section).insert(name.clone(), Value::Null);
            let mut value = target;
            let place = format!("/components/{section}/{}", escape(&name));
            self.walk(&mut value, &target_file, &place, depth + 1, false);
            self.section(section).insert(name.clone(), value);
            return Some(Followed::Ref(format!("#{place}")));
        }
        if target_file == file && depth == 0 {
            return None; // a local deep pointer of the root: the import follows it
        }
        if depth >= MAX_DEPTH {
            self.lost(at, r, "refs nest deeper than 64 files or pointers");
            return None;
        }
        let mut value = target;
        self.walk(&mut value, &target_file, at, depth + 1, false);
        Some(Followed::Inline(value))
    }

    /// A root component that is only a ref to another file's component
    /// (`"BLOCK_ID": {"$ref": "./api/main.json#/components/schemas/BLOCK_ID"}`) is that component
    /// under the root's name: it takes the target's value, and every other ref to the same target
    /// uses the root's name, so one type keeps one name (no `BLOCK_ID` beside a
    /// `BLOCK_ID_main`).
    fn adopt_aliases(&mut self, root: &mut Value, file: &Path) {
        for section in SECTIONS {
            let Some(entries) = root
                .get_mut("components")
                .and_then(|c| c.get_mut(section))
                .and_then(Value::as_object_mut)
            else {
                continue;
            };
            for (name, value) in entries.iter_mut() {
                let Some(Value::String(r)) = value.get("$ref").cloned() else { continue };
                if value.as_object().is_some_and(|m| m.len() != 1) || r.starts_with('#') {
                    continue;
                }
                let (path_part, fragment) = r.split_once('#').unwrap_or((&r, ""));
                if path_part.starts_with("http://") || path_part.starts_with("https://") {
                    continue;
                }
                let Some(target_file) = self.resolve(path_part, file) else { continue };
                let pointer = percent_decode(fragment);
                let segments: Vec<&str> = pointer.split('/').collect();
                if !matches!(segments.as_slice(), ["", "components", s, _] if *s == section) {
                    continue;
                }
                self.placed
                    .entry((target_file, pointer))
                    .or_insert_with(|| (section.to_owned(), name.clone()));
            }
        }
        // The aliases' values are filled in when the walk follows their own refs: a placed
        // component's ref is rewritten to the root's name, and the root entry is replaced by the
        // target below.
        let placed: Vec<((PathBuf, String), (String, String))> =
            self.placed.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        for ((target_file, pointer), (section, name)) in placed {
            let Some(doc) = self.load(&target_file, "", &pointer) else { continue };
            let Some(mut target) = doc.pointer(&pointer).cloned() else { continue };
            let place = format!("/components/{section}/{}", escape(&name));
            self.walk(&mut target, &target_file, &place, 1, false);
            if let Some(slot) = root
                .get_mut("components")
                .and_then(|c| c.get_mut(&section))
                .and_then(|s| s.get_mut(&name))
            {
                *slot = target;
            }
        }
    }

    /// The canonical path of the file a relative ref's path part names, if it exists.
    fn resolve(&self, path_part: &str, file: &Path) -> Option<PathBuf> {
        if path_part.is_empty() {
            return Some(file.to_path_buf());
        }
        self.joined(path_part, file).canonicalize().ok()
    }

    /// A ref's path part joined to where relative refs resolve from: the ref base, or the folder
    /// of the file that holds the ref.
    fn joined(&self, path_part: &str, file: &Path) -> PathBuf {
        let relative = path_part.strip_prefix("file://").unwrap_or(path_part);
        let base = match &self.ref_base {
            Some(base) => base.as_path(),
            None => file.parent().unwrap_or(Path::new(".")),
        };
        base.join(relative)
    }

    /// The root document's own component `section/name`, if any.
    fn root_component(&self, section: &str, name: &str) -> Option<Value> {
        let root = self.files.get(&self.root_file)?.as_ref()?;
        root.get("components")?.get(section)?.get(name).cloned()
    }

    fn section(&mut self, section: &str) -> &mut Map<String, Value> {
        let entry =
            self.components.entry(section.to_owned()).or_insert_with(|| Value::Object(Map::new()));
        if !entry.is_object() {
            *entry = Value::Object(Map::new());
        }
        entry.as_object_mut().expect("made an object above")
    }

    /// `name`, or `name_STEM` (then `_2`, …) when another value holds it in the bundle.
    fn free_name(&mut self, section: &str, name: &str, file: &Path, value: &Value) -> String {
        let taken = |b: &mut Bundler, n: &str| {
            b.section(section).get(n).is_some_and(|v| v != value)
                || b.root_component(section, n).is_some_and(|v| &v != value)
        };
        if !taken(self, name) {
            return name.to_owned();
        }
        let stem = file.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let mut candidate = format!("{name}_{stem}");
        let mut n = 2;
        while taken(self, &candidate) {
            candidate = format!("{name}_{stem}_{n}");
            n += 1;
        }
        candidate
    }

    fn load(&mut self, path: &Path, at: &str, r: &str) -> Option<Value> {
        if !self.files.contains_key(path) {
            let read = std::fs::read_to_string(path)
                .map_err(|e| e.to_string())
                .and_then(|t| accord_schema_model::parse_json(&t).map_err(|e| e.to_string()));
            match read {
                Ok(v) => {
                    self.files.insert(path.to_path_buf(), Some(v));
                }
                Err(e) => {
                    self.files.insert(path.to_path_buf(), None);
                    let tried = self.show(path);
                    self.lost(at, r, &format!("{tried}: {e}"));
                }
            }
        }
        self.files.get(path).cloned().flatten()
    }

    /// `path` as reports show it: relative to the document's folder when inside it.
    fn show(&self, path: &Path) -> String {
        path.strip_prefix(&self.root_dir).unwrap_or(path).display().to_string()
    }

    fn lost(&mut self, at: &str, r: &str, why: &str) {
        self.losses.push(Loss {
            pointer: at.to_owned(),
            kind: "unresolved-ref",
            accepts: Accepts::Wider,
            detail: format!("`{r}` is not followed: {why}"),
        });
    }
}

enum Followed {
    /// The ref, rewritten to the bundle's component.
    Ref(String),
    /// The target itself, to stand where the ref stood.
    Inline(Value),
}

fn percent_decode(s: &str) -> String {
    crate::schema::fragment_pointer(&format!("#{s}")).unwrap_or_else(|| s.to_owned())
}
