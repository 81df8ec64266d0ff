//! The comparison engine: one walk over old and new, parameterised by polarity. It emits
//! [`Change`]s naming registry rules; levels come from the registry, never from here.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use accord_schema_model::{
    Document, Field, Method, Namespace, ObjectType, ParamStructure, Pointer, Reserved, TypeKind,
    TypeNode,
};
use indexmap::IndexMap;
use serde_json::Value;

use crate::rules::{Polarity, Rule, rule};

/// The kind of place a change stands in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Position {
    /// A method's params.
    Params,
    /// A method's result.
    Result,
    /// An event's payload.
    Event,
    /// A declared error's data.
    ErrorData,
    /// Namespaces, methods, events and errors themselves.
    Surface,
}

impl Position {
    /// As written in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Position::Params => "params",
            Position::Result => "result",
            Position::Event => "event",
            Position::ErrorData => "error-data",
            Position::Surface => "surface",
        }
    }

    pub(crate) fn polarity(self) -> Polarity {
        match self {
            Position::Params | Position::Surface => Polarity::Input,
            _ => Polarity::Output,
        }
    }
}

/// What a witness is sought from.
#[derive(Debug, Clone)]
pub(crate) enum WitnessPlan {
    /// Two type nodes, each in its namespace of its document.
    Types { old_ns: String, old: Box<TypeNode>, new_ns: String, new: Box<TypeNode> },
    /// A method's params in both documents.
    Params { old_ns: String, new_ns: String, method: String },
}

/// One change: a rule, where, and why.
#[derive(Debug, Clone)]
pub(crate) struct Change {
    pub(crate) rule: &'static Rule,
    pub(crate) polarity: Polarity,
    pub(crate) position: Position,
    pub(crate) namespace: String,
    pub(crate) path: String,
    pub(crate) message: String,
    /// Where it stands: in the old document (removals) or the new one.
    pub(crate) on_old: bool,
    pub(crate) pointer: Pointer,
    pub(crate) witness: Option<WitnessPlan>,
}

/// Where the walk stands.
#[derive(Debug, Clone)]
struct At {
    path: String,
    old: Pointer,
    new: Pointer,
    polarity: Polarity,
    position: Position,
    old_ns: String,
    new_ns: String,
    /// Appended to every message (which positions reach a named type).
    note: Option<String>,
}

impl At {
    fn down(&self, path: &str, old: &[&str], new: &[&str]) -> At {
        let mut at = self.clone();
        at.path.push_str(path);
        for k in old {
            at.old.push_key(k);
        }
        for k in new {
            at.new.push_key(k);
        }
        at
    }
}

/// How an optional member moved between old and new.
enum Move<'v, T> {
    /// Present on both sides with different values (old, new).
    Changed(&'v T, &'v T),
    /// Absent before, present now.
    Set(&'v T),
    /// Present before, absent now.
    Unset(&'v T),
}

pub(crate) struct Cx<'a> {
    old: &'a Document,
    new: &'a Document,
    pub(crate) changes: Vec<Change>,
    visited: HashSet<(String, String, String, String, Polarity)>,
}

fn ptr(parts: &[&str]) -> Pointer {
    let mut p = Pointer::root();
    for k in parts {
        p.push_key(k);
    }
    p
}

fn reserved_has(reserved: &Option<Vec<Reserved>>, name: &str) -> bool {
    reserved.iter().flatten().any(|r| r.name == name)
}

fn deprecated(d: &Option<accord_schema_model::Deprecated>) -> bool {
    d.as_ref().is_some_and(|d| d.is_deprecated())
}

/// The shape of a node without its documentation, for rename hints.
fn shape(node: &TypeNode) -> TypeNode {
    let mut n = node.clone();
    n.description = None;
    n.examples = None;
    n.deprecated = None;
    n.unknown.clear();
    n
}

/// Whether a field or param may be absent in the direction being compared: params and what
/// callers write read `inputOptional`, what the plant writes reads `outputOptional`; both fall
/// back to `optional` (docs/format.md, section 14).
fn present_optional(f: &Field, polarity: Polarity) -> bool {
    match polarity {
        Polarity::Input => f.is_optional_in(),
        Polarity::Output => f.is_optional_out(),
    }
}

fn same_field_shape(a: &Field, b: &Field) -> bool {
    a.is_optional_in() == b.is_optional_in()
        && a.is_optional_out() == b.is_optional_out()
        && shape(&a.ty) == shape(&b.ty)
}

impl<'a> Cx<'a> {
    pub(crate) fn new(old: &'a Document, new: &'a Document) -> Self {
        Cx { old, new, changes: Vec::new(), visited: HashSet::new() }
    }

    /// Names the old side reserved and the new side no longer does: nothing stops their reuse.
    fn reserved_dropped(
        &mut self,
        at: &At,
        old: &Option<Vec<Reserved>>,
        new: &Option<Vec<Reserved>>,
        what: &str,
    ) {
        for r in old.iter().flatten().filter(|r| !reserved_has(new, &r.name)) {
            let h = at.down("", &["reserved"], &[]);
            self.emit(
                &h,
                "reserved-name-removed",
                true,
                format!("`{}` is no longer reserved in {what} `{}`", r.name, at.path),
            );
        }
    }

    fn emit(&mut self, at: &At, id: &str, on_old: bool, message: String) {
        self.emit_with(at, id, on_old, message, None);
    }

    fn emit_with(
        &mut self,
        at: &At,
        id: &str,
        on_old: bool,
        message: String,
        witness: Option<WitnessPlan>,
    ) {
        let Some(rule) = rule(id) else {
            debug_assert!(false, "rule {id} is not in the registry");
            return;
        };
        let message = match &at.note {
            Some(note) => format!("{message} ({note})"),
            None => message,
        };
        let witness = if rule.witness { witness } else { None };
        self.changes.push(Change {
            rule,
            polarity: at.polarity,
            position: at.position,
            namespace: at.new_ns.clone(),
            path: at.path.clone(),
            message,
            on_old,
            pointer: if on_old { at.old.clone() } else { at.new.clone() },
            witness,
        });
    }

    fn types_witness(at: &At, o: &TypeNode, n: &TypeNode) -> Option<WitnessPlan> {
        Some(WitnessPlan::Types {
            old_ns: at.old_ns.clone(),
            old: Box::new(o.clone()),
            new_ns: at.new_ns.clone(),
            new: Box::new(n.clone()),
        })
    }

    // ----- documents and namespaces -----

    pub(crate) fn documents(&mut self) {
        let empty = IndexMap::new();
        let olds = self.old.namespaces.as_ref().unwrap_or(&empty);
        let news = self.new.namespaces.as_ref().unwrap_or(&empty);
        for (name, o) in olds {
            let at = At {
                path: name.clone(),
                old: ptr(&["namespaces", name]),
                new: ptr(&["namespaces", name]),
                polarity: Polarity::Input,
                position: Position::Surface,
                old_ns: name.clone(),
                new_ns: name.clone(),
                note: None,
            };
            match news.get(name) {
                Some(n) => self.namespace(&at, o, n),
                None => {
                    self.emit(&at, "namespace-removed", true, format!("namespace `{name}` removed"))
                }
            }
        }
        for name in news.keys().filter(|k| !olds.contains_key(*k)) {
            let at = At {
                path: name.clone(),
                old: ptr(&["namespaces", name]),
                new: ptr(&["namespaces", name]),
                polarity: Polarity::Input,
                position: Position::Surface,
                old_ns: name.clone(),
                new_ns: name.clone(),
                note: None,
            };
            self.emit(&at, "namespace-added", false, format!("namespace `{name}` added"));
        }
        self.named_types();
    }

    fn namespace(&mut self, at: &At, o: &Namespace, n: &Namespace) {
        self.attr_deprecated(at, &o.deprecated, &n.deprecated, &format!("namespace `{}`", at.path));
        self.reserved_dropped(at, &o.reserved, &n.reserved, "namespace");
        let empty = IndexMap::new();
        let (om, nm) = (o.methods.as_ref().unwrap_or(&empty), n.methods.as_ref().unwrap_or(&empty));
        let mut removed = Vec::new();
        for (name, m) in om {
            let nmeth = nm.get(name);
            if nmeth == Some(m) {
                // An identical method yields no finding: refs inside it are compared as named
                // types, and it is neither added nor removed. Skipping it keeps a diff's cost in
                // what changed rather than in the size of the contract.
                continue;
            }
            let here = at.down(&format!(".{name}"), &["methods", name], &["methods", name]);
            match nmeth {
                Some(nmeth) => self.method(&here, name, m, nmeth),
                None => {
                    let reserved = reserved_has(&n.reserved, name);
                    self.surface_removed(&here, "method", deprecated(&m.deprecated), reserved);
                    removed.push(name);
                }
            }
        }
        for (name, m) in nm.iter().filter(|(k, _)| !om.contains_key(*k)) {
            let here = at.down(&format!(".{name}"), &["methods", name], &["methods", name]);
            let reserved = reserved_has(&o.reserved, name) || reserved_has(&n.reserved, name);
            self.surface_added(&here, "method", reserved);
            for old_name in &removed {
                let om = &om[old_name.as_str()];
                if om.params == m.params && shape(&om.result) == shape(&m.result) {
                    self.emit(&here, "probable-rename", false, format!("method `{}.{old_name}` was removed and `{}` added with the same params and result: probably a rename", at.path, here.path));
                }
            }
        }
        // Events: output (the plant writes payloads).
        let empty_e = IndexMap::new();
        let (oe, ne) =
            (o.events.as_ref().unwrap_or(&empty_e), n.events.as_ref().unwrap_or(&empty_e));
        let mut ev_at = at.clone();
        ev_at.polarity = Polarity::Output;
        let mut removed_e = Vec::new();
        for (name, e) in oe {
            let nev = ne.get(name);
            if nev == Some(e) {
                continue; // as for methods: nothing to report on an identical event
            }
            let here = ev_at.down(&format!(".{name}"), &["events", name], &["events", name]);
            match nev {
                Some(nev) => {
                    self.attr_deprecated(
                        &here,
                        &e.deprecated,
                        &nev.deprecated,
                        &format!("event `{}`", here.path),
                    );
                    let mut p = here.down(".payload", &["payload"], &["payload"]);
                    p.position = Position::Event;
                    self.types(&p, &e.payload, &nev.payload);
                }
                None => {
                    let reserved = reserved_has(&n.reserved, name);
                    self.surface_removed(&here, "event", deprecated(&e.deprecated), reserved);
                    removed_e.push(name);
                }
            }
        }
        for (name, e) in ne.iter().filter(|(k, _)| !oe.contains_key(*k)) {
            let here = ev_at.down(&format!(".{name}"), &["events", name], &["events", name]);
            let reserved = reserved_has(&o.reserved, name) || reserved_has(&n.reserved, name);
            self.surface_added(&here, "event", reserved);
            for old_name in &removed_e {
                if shape(&oe[old_name.as_str()].payload) == shape(&e.payload) {
                    self.emit(&here, "probable-rename", false, format!("event `{}.{old_name}` was removed and `{}` added with the same payload: probably a rename", at.path, here.path));
                }
            }
        }
        // Named types removed or added (their content is compared in `named_types`).
        let empty_t = IndexMap::new();
        let (ot, nt) = (o.types.as_ref().unwrap_or(&empty_t), n.types.as_ref().unwrap_or(&empty_t));
        for (name, t) in ot.iter().filter(|(k, _)| !nt.contains_key(*k)) {
            let here = at.down(&format!(".types.{name}"), &["types", name], &["types", name]);
            self.removal_lifecycle(
                &here,
                "type",
                deprecated(&t.deprecated),
                reserved_has(&n.reserved, name),
            );
        }
        for name in nt.keys().filter(|k| !ot.contains_key(*k)) {
            if reserved_has(&o.reserved, name) || reserved_has(&n.reserved, name) {
                let here = at.down(&format!(".types.{name}"), &["types", name], &["types", name]);
                self.emit(
                    &here,
                    "reserved-name-reused",
                    false,
                    format!("type `{}` uses a reserved name", here.path),
                );
            }
        }
    }

    /// A method or event (`what`) is gone: the removal and what its lifecycle lacked.
    fn surface_removed(&mut self, at: &At, what: &str, was_deprecated: bool, reserved: bool) {
        self.emit(at, &format!("{what}-removed"), true, format!("{what} `{}` removed", at.path));
        self.removal_lifecycle(at, what, was_deprecated, reserved);
    }

    /// A method or event (`what`) is new; under a reserved name it reuses what was retired.
    fn surface_added(&mut self, at: &At, what: &str, reserved: bool) {
        self.emit(at, &format!("{what}-added"), false, format!("{what} `{}` added", at.path));
        if reserved {
            self.emit(
                at,
                "reserved-name-reused",
                false,
                format!("{what} `{}` uses a reserved name", at.path),
            );
        }
    }

    fn removal_lifecycle(&mut self, at: &At, what: &str, was_deprecated: bool, reserved: bool) {
        if !was_deprecated {
            self.emit(
                at,
                "removed-without-deprecation",
                true,
                format!("{what} `{}` removed without being deprecated first", at.path),
            );
        }
        if !reserved {
            self.emit(
                at,
                "removed-without-reserving",
                true,
                format!("{what} `{}` removed and its name not reserved", at.path),
            );
        }
    }

    fn attr_deprecated(
        &mut self,
        at: &At,
        o: &Option<accord_schema_model::Deprecated>,
        n: &Option<accord_schema_model::Deprecated>,
        what: &str,
    ) {
        match (deprecated(o), deprecated(n)) {
            (false, true) => {
                self.emit(at, "deprecated-added", false, format!("{what} is now deprecated"))
            }
            (true, false) => self.emit(
                at,
                "deprecated-removed",
                false,
                format!("{what} is no longer deprecated"),
            ),
            _ => {}
        }
    }

    // ----- methods and params -----

    fn method(&mut self, at: &At, name: &str, o: &Method, n: &Method) {
        self.attr_deprecated(at, &o.deprecated, &n.deprecated, &format!("method `{}`", at.path));
        if o.semantics != n.semantics {
            let show = |s: &Option<accord_schema_model::Semantics>| {
                s.as_ref().map_or("undeclared".to_owned(), |s| format!("`{}`", s.as_str()))
            };
            let mut here = at.down("", &[], &["semantics"]);
            if n.semantics.is_none() {
                here.new = at.new.clone();
            }
            self.emit(
                &here,
                "semantics-changed",
                false,
                format!(
                    "semantics of `{}` changed from {} to {}",
                    at.path,
                    show(&o.semantics),
                    show(&n.semantics)
                ),
            );
        }
        self.params(at, name, o, n);
        let mut r = at.down(".result", &["result"], &["result"]);
        r.position = Position::Result;
        r.polarity = Polarity::Output;
        self.types(&r, &o.result, &n.result);
        // Errors: output.
        let mut e_at = at.clone();
        e_at.polarity = Polarity::Output;
        let oerr = o.errors.as_deref().unwrap_or(&[]);
        let nerr = n.errors.as_deref().unwrap_or(&[]);
        for (i, oe) in oerr.iter().enumerate() {
            let code = oe.code.to_string();
            match nerr.iter().enumerate().find(|(_, ne)| ne.code == oe.code) {
                Some((j, ne)) => {
                    let (is, js) = (i.to_string(), j.to_string());
                    let mut d = e_at.down(
                        &format!(".errors.{code}.data"),
                        &["errors", &is, "data"],
                        &["errors", &js, "data"],
                    );
                    d.position = Position::ErrorData;
                    match (&oe.data, &ne.data) {
                        (Some(od), Some(nd)) => self.types(&d, od, nd),
                        (None, Some(nd)) => self.types(&d, &TypeNode::new(TypeKind::Null), nd),
                        (Some(od), None) => self.types(&d, od, &TypeNode::new(TypeKind::Null)),
                        (None, None) => {}
                    }
                }
                None => {
                    let is = i.to_string();
                    let here = e_at.down(&format!(".errors.{code}"), &["errors", &is], &[]);
                    self.emit(
                        &here,
                        "error-code-removed",
                        true,
                        format!("`{}` no longer declares error {code}", at.path),
                    );
                }
            }
        }
        for (j, ne) in nerr.iter().enumerate() {
            if !oerr.iter().any(|oe| oe.code == ne.code) {
                let js = j.to_string();
                let here = e_at.down(&format!(".errors.{}", ne.code), &[], &["errors", &js]);
                self.emit(
                    &here,
                    "error-code-added",
                    false,
                    format!("`{}` declares a new error {} ({})", at.path, ne.code, ne.message),
                );
            }
        }
    }

    fn params(&mut self, at: &At, method: &str, o: &Method, n: &Method) {
        let mut p_at = at.down(".params", &[], &[]);
        p_at.position = Position::Params;
        p_at.polarity = Polarity::Input;
        let os = o.param_structure.unwrap_or(ParamStructure::Either);
        let ns = n.param_structure.unwrap_or(ParamStructure::Either);
        if os != ns {
            let id = match (os, ns) {
                (_, ParamStructure::Either) => "param-structure-widened",
                (ParamStructure::Either, _) => "param-structure-narrowed",
                _ => "param-structure-changed",
            };
            let mut here = p_at.clone();
            here.new.push_key("paramStructure");
            if n.param_structure.is_none() {
                here.new = at.new.clone();
            }
            self.emit(
                &here,
                id,
                false,
                format!(
                    "paramStructure of `{}` changed from `{}` to `{}`",
                    at.path,
                    os.as_str(),
                    ns.as_str()
                ),
            );
        }
        let op = o.params.as_deref().unwrap_or(&[]);
        let np = n.params.as_deref().unwrap_or(&[]);
        let params_witness = Some(WitnessPlan::Params {
            old_ns: at.old_ns.clone(),
            new_ns: at.new_ns.clone(),
            method: method.to_owned(),
        });
        let positional = os != ParamStructure::ByName || ns != ParamStructure::ByName;
        let mut reordered = false;
        let mut removed = Vec::new();
        for (i, opar) in op.iter().enumerate() {
            let is = i.to_string();
            match np.iter().enumerate().find(|(_, p)| p.name == opar.name) {
                Some((j, npar)) => {
                    let js = j.to_string();
                    let here =
                        p_at.down(&format!(".{}", opar.name), &["params", &is], &["params", &js]);
                    if i != j && positional && !reordered {
                        reordered = true;
                        self.emit(
                            &here,
                            "params-reordered",
                            false,
                            format!("param `{}` moved from position {i} to {j}", opar.name),
                        );
                    }
                    match (
                        present_optional(&opar.field, here.polarity),
                        present_optional(&npar.field, here.polarity),
                    ) {
                        (true, false) => self.emit_with(
                            &here,
                            "param-became-required",
                            false,
                            format!("param `{}` became required", here.path),
                            params_witness.clone(),
                        ),
                        (false, true) => self.emit(
                            &here,
                            "param-became-optional",
                            false,
                            format!("param `{}` became optional", here.path),
                        ),
                        _ => {}
                    }
                    self.attr_deprecated(
                        &here,
                        &opar.field.deprecated,
                        &npar.field.deprecated,
                        &format!("param `{}`", here.path),
                    );
                    let t = here.down("", &["type"], &["type"]);
                    self.types(&t, &opar.field.ty, &npar.field.ty);
                }
                None => {
                    let here = p_at.down(&format!(".{}", opar.name), &["params", &is], &[]);
                    self.emit(
                        &here,
                        "param-removed",
                        true,
                        format!("param `{}` removed", here.path),
                    );
                    self.removal_lifecycle(
                        &here,
                        "param",
                        deprecated(&opar.field.deprecated),
                        true,
                    );
                    removed.push(opar);
                }
            }
        }
        let result_gains = self.result_gains_field(at, o, n);
        for (j, npar) in np.iter().enumerate() {
            if op.iter().any(|p| p.name == npar.name) {
                continue;
            }
            let js = j.to_string();
            let here = p_at.down(&format!(".{}", npar.name), &[], &["params", &js]);
            if present_optional(&npar.field, here.polarity) {
                self.emit(
                    &here,
                    "param-added-optional",
                    false,
                    format!("optional param `{}` added", here.path),
                );
                if !result_gains {
                    self.emit(&here, "request-option-without-ack", false, format!("optional param `{}` added, but the result gains no field that only a plant implementing it produces", here.path));
                }
            } else {
                self.emit_with(
                    &here,
                    "param-added-required",
                    false,
                    format!("required param `{}` added", here.path),
                    params_witness.clone(),
                );
            }
            if positional && j < op.len() && !reordered {
                reordered = true;
                self.emit(&here, "params-reordered", false, format!("param `{}` inserted at position {j}, before params old callers send by position", npar.name));
            }
            for old in &removed {
                if same_field_shape(&old.field, &npar.field) {
                    self.emit(&here, "probable-rename", false, format!("param `{}` was removed and `{}` added with the same type: probably a rename", old.name, npar.name));
                }
            }
        }
    }

    /// Whether the new result (an object, possibly behind refs) has a field the old one lacks.
    fn result_gains_field(&self, at: &At, o: &Method, n: &Method) -> bool {
        let of = self.object_fields(self.old, &at.old_ns, &o.result);
        let nf = self.object_fields(self.new, &at.new_ns, &n.result);
        nf.iter().any(|f| !of.contains(f))
    }

    fn object_fields(&self, doc: &Document, ns: &str, node: &TypeNode) -> BTreeSet<String> {
        let mut node = node;
        let mut ns = ns.to_owned();
        for _ in 0..16 {
            match &node.kind {
                TypeKind::Ref(r) => match resolve(doc, &ns, r) {
                    Some((tns, _, t)) => {
                        ns = tns;
                        node = t;
                    }
                    None => return BTreeSet::new(),
                },
                TypeKind::Object(obj) => {
                    return obj.fields.iter().flat_map(|f| f.keys().cloned()).collect();
                }
                _ => return BTreeSet::new(),
            }
        }
        BTreeSet::new()
    }

    // ----- named types -----

    fn named_types(&mut self) {
        let empty = IndexMap::new();
        let olds = self.old.namespaces.as_ref().unwrap_or(&empty);
        let news = self.new.namespaces.as_ref().unwrap_or(&empty);
        // The named types that differ, found first: reach is only computed towards them, so an
        // unchanged type costs one comparison however many methods use it.
        let mut changed: Vec<(&String, &String, &TypeNode, &TypeNode)> = Vec::new();
        for (ns, o) in olds {
            let Some(n) = news.get(ns) else { continue };
            let (Some(ot), Some(nt)) = (&o.types, &n.types) else { continue };
            for (name, otype) in ot {
                match nt.get(name) {
                    Some(ntype) if ntype != otype => changed.push((ns, name, otype, ntype)),
                    _ => {}
                }
            }
        }
        if changed.is_empty() {
            return;
        }
        let targets: HashSet<(&str, &str)> =
            changed.iter().map(|(ns, name, _, _)| (ns.as_str(), name.as_str())).collect();
        let mut reach = reach_towards(self.old, &targets);
        for (k, v) in reach_towards(self.new, &targets) {
            let entry = reach.entry(k).or_default();
            for (pos, origins) in v {
                let set = entry.entry(pos).or_default();
                set.extend(origins);
                keep_first(set);
            }
        }
        for (ns, name, otype, ntype) in changed {
            let reached = reach.get(&(ns.clone(), name.clone())).cloned().unwrap_or_default();
            let mut by_polarity: BTreeMap<Polarity, Position> = BTreeMap::new();
            for pos in reached.keys() {
                by_polarity.entry(pos.polarity()).or_insert(*pos);
            }
            let origins: Vec<String> = reached
                .iter()
                .flat_map(|(pos, o)| {
                    o.iter().take(3).map(move |o| format!("{o} ({})", pos.as_str()))
                })
                .collect();
            let note = if by_polarity.is_empty() {
                by_polarity.insert(Polarity::Input, Position::Params);
                by_polarity.insert(Polarity::Output, Position::Result);
                format!(
                    "`{name}` is reached from no method or event, so it is checked in both directions"
                )
            } else if by_polarity.len() == 2 {
                format!("`{name}` is used in both directions, reached from {}", origins.join(", "))
            } else {
                format!("`{name}` is reached from {}", origins.join(", "))
            };
            for (polarity, position) in by_polarity {
                let at = At {
                    path: format!("{ns}.types.{name}"),
                    old: ptr(&["namespaces", ns, "types", name]),
                    new: ptr(&["namespaces", ns, "types", name]),
                    polarity,
                    position,
                    old_ns: ns.clone(),
                    new_ns: ns.clone(),
                    note: Some(note.clone()),
                };
                self.types(&at, otype, ntype);
            }
        }
    }

    // ----- types -----

    /// Compares two type nodes under `at.polarity`.
    fn types(&mut self, at: &At, o: &TypeNode, n: &TypeNode) {
        if o == n && at.old_ns == at.new_ns {
            // Same node; refs inside are compared as named types.
            return;
        }
        self.defaults(at, o, n);
        match (&o.kind, &n.kind) {
            (TypeKind::Ref(or), TypeKind::Ref(nr)) => {
                let ons = or.namespace.clone().unwrap_or_else(|| at.old_ns.clone());
                let nns = nr.namespace.clone().unwrap_or_else(|| at.new_ns.clone());
                if ons == nns && or.name == nr.name {
                    return; // compared once in `named_types`
                }
                self.through_refs(at, o, n);
            }
            (TypeKind::Ref(_), _) | (_, TypeKind::Ref(_)) => self.through_refs(at, o, n),
            (TypeKind::Any, TypeKind::Any) => {}
            (_, TypeKind::Any) => self.emit_with(
                at,
                "to-any",
                false,
                format!("`{}` became any", at.path),
                Self::types_witness(at, o, n),
            ),
            (TypeKind::Any, _) => self.emit_with(
                at,
                "from-any",
                false,
                format!("`{}` was any and is now {}", at.path, n.kind.kind().name()),
                Self::types_witness(at, o, n),
            ),
            (TypeKind::Union(_), _) | (_, TypeKind::Union(_)) => self.unions(at, o, n),
            (TypeKind::Null, TypeKind::Null) | (TypeKind::Boolean, TypeKind::Boolean) => {}
            (TypeKind::Integer(a), TypeKind::Integer(b))
            | (TypeKind::Number(a), TypeKind::Number(b)) => {
                self.numbers(at, o, n, a, b);
            }
            (TypeKind::Integer(a), TypeKind::Number(b)) => {
                self.emit_with(
                    at,
                    "type-widened",
                    false,
                    format!("`{}` changed from integer to number", at.path),
                    Self::types_witness(at, o, n),
                );
                self.numbers(at, o, n, a, b);
            }
            (TypeKind::Number(a), TypeKind::Integer(b)) => {
                self.emit_with(
                    at,
                    "type-narrowed",
                    false,
                    format!("`{}` changed from number to integer", at.path),
                    Self::types_witness(at, o, n),
                );
                self.numbers(at, o, n, a, b);
            }
            (TypeKind::String(a), TypeKind::String(b)) => self.strings(at, o, n, a, b),
            (TypeKind::Literal { value: a }, TypeKind::Literal { value: b }) => {
                if a != b {
                    self.emit_with(
                        at,
                        "literal-changed",
                        false,
                        format!("`{}` changed from literal {a} to literal {b}", at.path),
                        Self::types_witness(at, o, n),
                    );
                }
            }
            (TypeKind::Literal { value }, other) if admits_base(other, value) => {
                self.emit_with(
                    at,
                    "type-widened",
                    false,
                    format!(
                        "`{}` changed from literal {value} to {}",
                        at.path,
                        other.kind().name()
                    ),
                    Self::types_witness(at, o, n),
                );
            }
            (other, TypeKind::Literal { value }) if admits_base(other, value) => {
                self.emit_with(
                    at,
                    "type-narrowed",
                    false,
                    format!(
                        "`{}` changed from {} to literal {value}",
                        at.path,
                        other.kind().name()
                    ),
                    Self::types_witness(at, o, n),
                );
            }
            (TypeKind::String(_), TypeKind::Enum(_)) => {
                self.emit_with(
                    at,
                    "became-enumerated",
                    false,
                    format!("`{}` changed from a free string to an enum", at.path),
                    Self::types_witness(at, o, n),
                );
            }
            (TypeKind::Enum(_), TypeKind::String(_)) => {
                self.emit_with(
                    at,
                    "type-widened",
                    false,
                    format!("`{}` changed from an enum to a free string", at.path),
                    Self::types_witness(at, o, n),
                );
            }
            (TypeKind::Enum(a), TypeKind::Enum(b)) => self.enums(at, o, n, a, b),
            (TypeKind::Array(a), TypeKind::Array(b)) => {
                let w = Self::types_witness(at, o, n);
                self.bound_u(at, "minItems", a.min_items, b.min_items, true, &w);
                self.bound_u(at, "maxItems", a.max_items, b.max_items, false, &w);
                match (a.unique_items.unwrap_or(false), b.unique_items.unwrap_or(false)) {
                    (false, true) => self.emit_with(
                        at,
                        "bound-added",
                        false,
                        format!("`{}` now requires unique items", at.path),
                        w.clone(),
                    ),
                    (true, false) => self.emit_with(
                        at,
                        "bound-removed",
                        false,
                        format!("`{}` no longer requires unique items", at.path),
                        w.clone(),
                    ),
                    _ => {}
                }
                let items = at.down("[]", &["items"], &["items"]);
                self.types(&items, &a.items, &b.items);
            }
            (TypeKind::Tuple(a), TypeKind::Tuple(b)) => {
                if a.elements.len() != b.elements.len() {
                    self.emit_with(
                        at,
                        "tuple-length-changed",
                        false,
                        format!(
                            "`{}` changed from {} to {} elements",
                            at.path,
                            a.elements.len(),
                            b.elements.len()
                        ),
                        Self::types_witness(at, o, n),
                    );
                } else {
                    for (i, (x, y)) in a.elements.iter().zip(&b.elements).enumerate() {
                        let is = i.to_string();
                        let e = at.down(&format!("[{i}]"), &["elements", &is], &["elements", &is]);
                        self.types(&e, x, y);
                    }
                }
            }
            (TypeKind::Array(a), TypeKind::Tuple(b)) => {
                self.array_and_tuple(at, o, n, a, &b.elements, true)
            }
            (TypeKind::Tuple(a), TypeKind::Array(b)) => {
                self.array_and_tuple(at, o, n, b, &a.elements, false)
            }
            (TypeKind::Object(a), TypeKind::Object(b)) => self.objects(at, o, n, a, b),
            (TypeKind::Map(a), TypeKind::Map(b)) => {
                let any_string = TypeNode::new(TypeKind::String(Default::default()));
                let ok = a.keys.as_deref().unwrap_or(&any_string);
                let nk = b.keys.as_deref().unwrap_or(&any_string);
                let mut keys = at.down("{keys}", &["keys"], &["keys"]);
                if a.keys.is_none() {
                    keys.old = at.old.clone();
                }
                if b.keys.is_none() {
                    keys.new = at.new.clone();
                }
                self.types(&keys, ok, nk);
                let values = at.down("{}", &["values"], &["values"]);
                self.types(&values, &a.values, &b.values);
            }
            (TypeKind::Object(_), TypeKind::Map(_)) => self.emit(
                at,
                "object-to-map",
                false,
                format!("`{}` changed from an object to a map", at.path),
            ),
            (TypeKind::Map(_), TypeKind::Object(_)) => self.emit(
                at,
                "map-to-object",
                false,
                format!("`{}` changed from a map to an object", at.path),
            ),
            (a, b) => self.emit_with(
                at,
                "type-changed",
                false,
                format!("`{}` changed from {} to {}", at.path, a.kind().name(), b.kind().name()),
                Self::types_witness(at, o, n),
            ),
        }
    }

    /// An array became a tuple (`to_tuple`) or a tuple an array. The same JSON when the array's
    /// length is fixed at the tuple's; otherwise the kind change is graded by direction, a
    /// tuple length the array's bounds exclude is reported apart, and each element is compared
    /// with the array's items.
    fn array_and_tuple(
        &mut self,
        at: &At,
        o: &TypeNode,
        n: &TypeNode,
        array: &accord_schema_model::ArrayType,
        elements: &[TypeNode],
        to_tuple: bool,
    ) {
        let len = elements.len() as u64;
        let min = array.min_items.unwrap_or(0);
        let fixed = min == len && array.max_items == Some(len);
        let witness = Self::types_witness(at, o, n);
        if !fixed {
            let tuple = format!("a tuple of {len}");
            let (id, from, to) = if to_tuple {
                ("array-to-tuple", "an array", tuple.as_str())
            } else {
                ("tuple-to-array", tuple.as_str(), "an array")
            };
            self.emit_with(
                at,
                id,
                false,
                format!("`{}` changed from {from} to {to}", at.path),
                witness.clone(),
            );
        }
        if len < min || array.max_items.is_some_and(|max| len > max) {
            let bounds = match array.max_items {
                Some(max) => format!("{min} to {max}"),
                None => format!("at least {min}"),
            };
            self.emit_with(
                at,
                "tuple-length-changed",
                false,
                format!(
                    "`{}`: a tuple of {len} elements, where the array admits {bounds} items",
                    at.path
                ),
                witness,
            );
        }
        for (i, element) in elements.iter().enumerate() {
            let is = i.to_string();
            let (element_ptr, items_ptr) = (["elements", is.as_str()], ["items"]);
            if to_tuple {
                let e = at.down(&format!("[{i}]"), &items_ptr, &element_ptr);
                self.types(&e, &array.items, element);
            } else {
                let e = at.down(&format!("[{i}]"), &element_ptr, &items_ptr);
                self.types(&e, element, &array.items);
            }
        }
    }

    fn defaults(&mut self, at: &At, o: &TypeNode, n: &TypeNode) {
        self.member_moved(
            at,
            "default",
            o.default.as_ref(),
            n.default.as_ref(),
            ["default-changed", "default-added", "default-removed"],
            |m| match m {
                Move::Changed(x, y) => format!("default of `{}` changed from {x} to {y}", at.path),
                Move::Set(y) => format!("`{}` gained the default {y}", at.path),
                Move::Unset(x) => format!("`{}` lost its default {x}", at.path),
            },
            None,
        );
    }

    /// An optional member of a node changed, was set or was unset: one of three rules
    /// (`ids`: changed, set, unset), located at the member on the side that has it.
    #[allow(clippy::too_many_arguments)]
    fn member_moved<T: PartialEq>(
        &mut self,
        at: &At,
        member: &str,
        old: Option<&T>,
        new: Option<&T>,
        ids: [&str; 3],
        message: impl Fn(Move<'_, T>) -> String,
        witness: Option<WitnessPlan>,
    ) {
        let [changed, set, unset] = ids;
        let (id, here, on_old, text) = match (old, new) {
            (Some(x), Some(y)) if x != y => {
                (changed, at.down("", &[member], &[member]), false, message(Move::Changed(x, y)))
            }
            (None, Some(y)) => (set, at.down("", &[], &[member]), false, message(Move::Set(y))),
            (Some(x), None) => (unset, at.down("", &[member], &[]), true, message(Move::Unset(x))),
            _ => return,
        };
        self.emit_with(&here, id, on_old, text, witness);
    }

    fn through_refs(&mut self, at: &At, o: &TypeNode, n: &TypeNode) {
        let (ons, oname, otarget) = match &o.kind {
            TypeKind::Ref(r) => match resolve(self.old, &at.old_ns, r) {
                Some((ns, name, t)) => (ns, name, t),
                None => return,
            },
            _ => (at.old_ns.clone(), String::new(), o),
        };
        let (nns, nname, ntarget) = match &n.kind {
            TypeKind::Ref(r) => match resolve(self.new, &at.new_ns, r) {
                Some((ns, name, t)) => (ns, name, t),
                None => return,
            },
            _ => (at.new_ns.clone(), String::new(), n),
        };
        let key = (ons.clone(), oname.clone(), nns.clone(), nname.clone(), at.polarity);
        if !self.visited.insert(key) {
            return;
        }
        let mut inner = at.clone();
        inner.old_ns = ons.clone();
        inner.new_ns = nns.clone();
        if !oname.is_empty() {
            inner.old = ptr(&["namespaces", &ons, "types", &oname]);
        }
        if !nname.is_empty() {
            inner.new = ptr(&["namespaces", &nns, "types", &nname]);
        }
        // Compare the targets; refs inside with one name on both sides are named-type work.
        let (ot, nt) = (otarget.clone(), ntarget.clone());
        if matches!(ot.kind, TypeKind::Ref(_)) || matches!(nt.kind, TypeKind::Ref(_)) {
            self.through_refs(&inner, &ot, &nt);
        } else {
            self.types(&inner, &ot, &nt);
        }
    }

    fn unions(&mut self, at: &At, o: &TypeNode, n: &TypeNode) {
        let single = |t: &TypeNode| vec![t.clone()];
        let (ov, od) = match &o.kind {
            TypeKind::Union(u) => (u.variants.clone(), u.discriminator.clone()),
            _ => (single(o), None),
        };
        let (nv, nd) = match &n.kind {
            TypeKind::Union(u) => (u.variants.clone(), u.discriminator.clone()),
            _ => (single(n), None),
        };
        let o_union = matches!(o.kind, TypeKind::Union(_));
        let n_union = matches!(n.kind, TypeKind::Union(_));
        if o_union && n_union && od != nd {
            self.emit_with(
                at,
                "union-discriminator-changed",
                false,
                format!(
                    "discriminator of `{}` changed from {} to {}",
                    at.path,
                    od.as_deref().map_or("none".to_owned(), |d| format!("`{d}`")),
                    nd.as_deref().map_or("none".to_owned(), |d| format!("`{d}`"))
                ),
                Self::types_witness(at, o, n),
            );
            return;
        }
        let okeys: Vec<String> = ov.iter().map(|v| variant_key(v, od.as_deref())).collect();
        let nkeys: Vec<String> = nv.iter().map(|v| variant_key(v, nd.as_deref())).collect();
        let matched_any = okeys.iter().any(|k| nkeys.contains(k));
        if !matched_any {
            self.emit_with(
                at,
                "type-changed",
                false,
                format!("`{}` changed from {} to {}", at.path, describe(o), describe(n)),
                Self::types_witness(at, o, n),
            );
            return;
        }
        // Variants are matched one to one, in order, by key.
        let mut used = vec![false; nv.len()];
        for (i, (v, k)) in ov.iter().zip(&okeys).enumerate() {
            let is = i.to_string();
            let found = (0..nkeys.len()).find(|&j| !used[j] && nkeys[j] == *k);
            match found {
                Some(j) => {
                    used[j] = true;
                    let js = j.to_string();
                    let ov_ptr = ["variants", is.as_str()];
                    let nv_ptr = ["variants", js.as_str()];
                    let mut inner = at.down(
                        &format!("|{k}"),
                        if o_union { &ov_ptr[..] } else { &[] },
                        if n_union { &nv_ptr[..] } else { &[] },
                    );
                    if !o_union && !n_union {
                        inner = at.clone();
                    }
                    self.types(&inner, v, &nv[j]);
                }
                None => {
                    let here = at.down(&format!("|{k}"), &["variants", &is], &[]);
                    let id = if matches!(v.kind, TypeKind::Null) {
                        "nullable-removed"
                    } else {
                        "union-variant-removed"
                    };
                    self.emit_with(
                        &here,
                        id,
                        false,
                        format!("`{}` no longer admits the variant {k}", at.path),
                        Self::types_witness(at, o, n),
                    );
                }
            }
        }
        for (j, (v, k)) in nv.iter().zip(&nkeys).enumerate() {
            if used[j] {
                continue;
            }
            let js = j.to_string();
            let here = at.down(&format!("|{k}"), &[], &["variants", &js]);
            let id = if matches!(v.kind, TypeKind::Null) {
                "nullable-added"
            } else {
                "union-variant-added"
            };
            self.emit_with(
                &here,
                id,
                false,
                format!("`{}` now admits the variant {k}", at.path),
                Self::types_witness(at, o, n),
            );
        }
    }

    fn numbers(
        &mut self,
        at: &At,
        o: &TypeNode,
        n: &TypeNode,
        a: &accord_schema_model::NumberRules,
        b: &accord_schema_model::NumberRules,
    ) {
        let w = Self::types_witness(at, o, n);
        let f = |x: &Option<serde_json::Number>| x.as_ref().and_then(serde_json::Number::as_f64);
        let lower = [
            ("min", f(&a.min), f(&b.min)),
            ("exclusiveMin", f(&a.exclusive_min), f(&b.exclusive_min)),
        ];
        let upper = [
            ("max", f(&a.max), f(&b.max)),
            ("exclusiveMax", f(&a.exclusive_max), f(&b.exclusive_max)),
        ];
        for (side, is_min) in [(lower, true), (upper, false)] {
            if !self.exclusivity(at, side, is_min, &w) {
                for (name, old, new) in side {
                    self.bound_f(at, name, old, new, is_min, &w);
                }
            }
        }
        let (om, nm) = (f(&a.multiple_of), f(&b.multiple_of));
        let divides = |big: f64, small: f64| {
            let q = big / small;
            (q - q.round()).abs() < 1e-9 * q.abs().max(1.0)
        };
        let changed = match (om, nm) {
            (Some(x), Some(y)) if divides(x, y) => "bound-loosened",
            (Some(x), Some(y)) if divides(y, x) => "bound-tightened",
            _ => "multiple-of-changed",
        };
        self.member_moved(
            at,
            "multipleOf",
            om.as_ref(),
            nm.as_ref(),
            [changed, "bound-added", "bound-removed"],
            |m| match m {
                Move::Changed(x, y) => {
                    let how = match changed {
                        "bound-loosened" => "finer",
                        "bound-tightened" => "coarser",
                        _ => "unrelated",
                    };
                    format!("multipleOf of `{}` changed from {x} to {y} ({how})", at.path)
                }
                Move::Set(y) => format!("`{}` must now be a multiple of {y}", at.path),
                Move::Unset(x) => format!("`{}` no longer must be a multiple of {x}", at.path),
            },
            w.clone(),
        );
        self.member_moved(
            at,
            "unit",
            a.unit.as_ref(),
            b.unit.as_ref(),
            ["unit-changed", "unit-added", "unit-removed"],
            |m| match m {
                Move::Changed(x, y) => format!("unit of `{}` changed from `{x}` to `{y}`: the same numbers now mean something else", at.path),
                Move::Set(y) => format!("`{}` gained the unit `{y}`", at.path),
                Move::Unset(x) => format!("`{}` lost the unit `{x}`", at.path),
            },
            None,
        );
    }

    /// One side's bound moved between its inclusive and exclusive member (`min: 0` became
    /// `exclusiveMin: 0`): one graded finding, not a bound removed plus a bound added (which
    /// would read as breaking both ways). `side` is `[(inclusive name, old, new), (exclusive
    /// name, old, new)]`; returns whether it reported the side.
    fn exclusivity(
        &mut self,
        at: &At,
        side: [(&str, Option<f64>, Option<f64>); 2],
        is_min: bool,
        w: &Option<WitnessPlan>,
    ) -> bool {
        let [(incl, oi, ni), (excl, oe, ne)] = side;
        let (from, to, old_value, new_value, to_exclusive) = match (oi, oe, ni, ne) {
            (Some(x), None, None, Some(y)) => (incl, excl, x, y, true),
            (None, Some(x), Some(y), None) => (excl, incl, x, y, false),
            _ => return false,
        };
        // An exclusive bound at the same value admits one value less than the inclusive one.
        let tighter = match (is_min, to_exclusive) {
            (true, true) => new_value >= old_value,
            (true, false) => new_value > old_value,
            (false, true) => new_value <= old_value,
            (false, false) => new_value < old_value,
        };
        let id = if tighter { "bound-tightened" } else { "bound-loosened" };
        let h = at.down("", &[from], &[to]);
        self.emit_with(
            &h,
            id,
            false,
            format!(
                "`{}` bound changed from {from} {} to {to} {}",
                at.path,
                num(old_value),
                num(new_value)
            ),
            w.clone(),
        );
        true
    }

    /// A lower (`is_min`) or upper bound: raised minimum or lowered maximum tightens.
    fn bound_f(
        &mut self,
        at: &At,
        name: &str,
        a: Option<f64>,
        b: Option<f64>,
        is_min: bool,
        w: &Option<WitnessPlan>,
    ) {
        match (a, b) {
            (Some(x), Some(y)) if x != y => {
                let tighter = if is_min { y > x } else { y < x };
                let id = if tighter { "bound-tightened" } else { "bound-loosened" };
                let h = at.down("", &[name], &[name]);
                self.emit_with(
                    &h,
                    id,
                    false,
                    format!("{name} of `{}` changed from {} to {}", at.path, num(x), num(y)),
                    w.clone(),
                );
            }
            (None, Some(y)) => {
                let h = at.down("", &[], &[name]);
                self.emit_with(
                    &h,
                    "bound-added",
                    false,
                    format!("`{}` gained {name} {}", at.path, num(y)),
                    w.clone(),
                );
            }
            (Some(x), None) => {
                let h = at.down("", &[name], &[]);
                self.emit_with(
                    &h,
                    "bound-removed",
                    true,
                    format!("`{}` lost {name} {}", at.path, num(x)),
                    w.clone(),
                );
            }
            _ => {}
        }
    }

    fn bound_u(
        &mut self,
        at: &At,
        name: &str,
        a: Option<u64>,
        b: Option<u64>,
        is_min: bool,
        w: &Option<WitnessPlan>,
    ) {
        // A minimum of 0 is no bound.
        let norm = |v: Option<u64>| if is_min { v.filter(|&v| v > 0) } else { v };
        #[allow(clippy::cast_precision_loss)]
        self.bound_f(at, name, norm(a).map(|v| v as f64), norm(b).map(|v| v as f64), is_min, w);
    }

    fn strings(
        &mut self,
        at: &At,
        o: &TypeNode,
        n: &TypeNode,
        a: &accord_schema_model::StringRules,
        b: &accord_schema_model::StringRules,
    ) {
        let w = Self::types_witness(at, o, n);
        self.bound_u(at, "minLength", a.min_length, b.min_length, true, &w);
        self.bound_u(at, "maxLength", a.max_length, b.max_length, false, &w);
        self.member_moved(
            at,
            "pattern",
            a.pattern.as_ref(),
            b.pattern.as_ref(),
            ["pattern-changed", "pattern-added", "pattern-removed"],
            |m| match m {
                Move::Changed(x, y) => {
                    format!("pattern of `{}` changed from `{x}` to `{y}`", at.path)
                }
                Move::Set(y) => format!("`{}` must now match `{y}`", at.path),
                Move::Unset(x) => format!("`{}` no longer must match `{x}`", at.path),
            },
            w.clone(),
        );
        self.member_moved(
            at,
            "format",
            a.format.as_ref(),
            b.format.as_ref(),
            ["format-changed", "format-added", "format-removed"],
            |m| match m {
                Move::Changed(x, y) => {
                    format!("format of `{}` changed from `{x}` to `{y}`", at.path)
                }
                Move::Set(y) => format!("`{}` gained the format `{y}`", at.path),
                Move::Unset(x) => format!("`{}` lost the format `{x}`", at.path),
            },
            w,
        );
    }

    fn enums(
        &mut self,
        at: &At,
        o: &TypeNode,
        n: &TypeNode,
        a: &accord_schema_model::EnumType,
        b: &accord_schema_model::EnumType,
    ) {
        self.reserved_dropped(at, &a.reserved, &b.reserved, "enum");
        // The reader's declaration decides whether an unknown value is handled.
        let reader_open = match at.polarity {
            Polarity::Input => b.open.unwrap_or(false),
            Polarity::Output => a.open.unwrap_or(false),
        };
        let w = Self::types_witness(at, o, n);
        for v in a.values.iter().filter(|v| !b.values.contains(v)) {
            let id = if reader_open { "open-enum-value-removed" } else { "enum-value-removed" };
            let h = at.down("", &["values"], &[]);
            self.emit_with(&h, id, true, format!("`{}` no longer admits {v}", at.path), w.clone());
            if !reserved_has(&b.reserved, &value_name(v)) {
                self.emit(
                    &h,
                    "removed-without-reserving",
                    true,
                    format!("enum value {v} of `{}` removed and not reserved", at.path),
                );
            }
        }
        for v in b.values.iter().filter(|v| !a.values.contains(v)) {
            let id = if reader_open { "open-enum-value-added" } else { "enum-value-added" };
            let h = at.down("", &[], &["values"]);
            self.emit_with(&h, id, false, format!("`{}` now admits {v}", at.path), w.clone());
            let name = value_name(v);
            if reserved_has(&a.reserved, &name) || reserved_has(&b.reserved, &name) {
                self.emit(
                    &h,
                    "reserved-name-reused",
                    false,
                    format!("enum value {v} of `{}` is reserved", at.path),
                );
            }
        }
    }

    fn objects(&mut self, at: &At, o: &TypeNode, n: &TypeNode, a: &ObjectType, b: &ObjectType) {
        self.reserved_dropped(at, &a.reserved, &b.reserved, "object");
        let w = Self::types_witness(at, o, n);
        let (oc, nc) = (a.closed.unwrap_or(false), b.closed.unwrap_or(false));
        match (oc, nc) {
            (false, true) => self.emit_with(
                at,
                "object-closed",
                false,
                format!("`{}` is now closed: members it does not declare are refused", at.path),
                w.clone(),
            ),
            (true, false) => self.emit_with(
                at,
                "object-opened",
                false,
                format!("`{}` is no longer closed", at.path),
                w.clone(),
            ),
            _ => {}
        }
        let empty = IndexMap::new();
        let (of, nf) = (a.fields.as_ref().unwrap_or(&empty), b.fields.as_ref().unwrap_or(&empty));
        let mut removed = Vec::new();
        for (name, ofield) in of {
            match nf.get(name) {
                Some(nfield) => {
                    let here = at.down(&format!(".{name}"), &["fields", name], &["fields", name]);
                    match (
                        present_optional(ofield, here.polarity),
                        present_optional(nfield, here.polarity),
                    ) {
                        (true, false) => self.emit_with(
                            &here,
                            "field-became-required",
                            false,
                            format!("field `{}` became required", here.path),
                            w.clone(),
                        ),
                        (false, true) => self.emit_with(
                            &here,
                            "field-became-optional",
                            false,
                            format!("field `{}` became optional", here.path),
                            w.clone(),
                        ),
                        _ => {}
                    }
                    self.attr_deprecated(
                        &here,
                        &ofield.deprecated,
                        &nfield.deprecated,
                        &format!("field `{}`", here.path),
                    );
                    let t = here.down("", &["type"], &["type"]);
                    self.types(&t, &ofield.ty, &nfield.ty);
                }
                None => {
                    let here = at.down(&format!(".{name}"), &["fields", name], &[]);
                    let id = if present_optional(ofield, here.polarity) {
                        "optional-field-removed"
                    } else {
                        "required-field-removed"
                    };
                    self.emit_with(
                        &here,
                        id,
                        true,
                        format!(
                            "{} field `{}` removed",
                            if present_optional(ofield, here.polarity) {
                                "optional"
                            } else {
                                "required"
                            },
                            here.path
                        ),
                        w.clone(),
                    );
                    if nc {
                        self.emit_with(
                            &here,
                            "field-removed-from-closed-object",
                            true,
                            format!("field `{}` removed from a closed object", here.path),
                            w.clone(),
                        );
                    }
                    self.removal_lifecycle(
                        &here,
                        "field",
                        deprecated(&ofield.deprecated),
                        reserved_has(&b.reserved, name),
                    );
                    removed.push((name, ofield));
                }
            }
        }
        for (name, nfield) in nf.iter().filter(|(k, _)| !of.contains_key(*k)) {
            let here = at.down(&format!(".{name}"), &[], &["fields", name]);
            let id = if present_optional(nfield, here.polarity) {
                "optional-field-added"
            } else {
                "required-field-added"
            };
            self.emit_with(
                &here,
                id,
                false,
                format!(
                    "{} field `{}` added",
                    if present_optional(nfield, here.polarity) { "optional" } else { "required" },
                    here.path
                ),
                w.clone(),
            );
            if oc {
                self.emit_with(
                    &here,
                    "field-added-to-closed-object",
                    false,
                    format!("field `{}` added to an object that was closed", here.path),
                    w.clone(),
                );
            }
            if reserved_has(&a.reserved, name) || reserved_has(&b.reserved, name) {
                self.emit(
                    &here,
                    "reserved-name-reused",
                    false,
                    format!("field `{}` uses a reserved name", here.path),
                );
            }
            for (old_name, ofield) in &removed {
                if same_field_shape(ofield, nfield) {
                    self.emit(&here, "probable-rename", false, format!("field `{old_name}` was removed and `{name}` added with the same type: probably a rename"));
                }
            }
        }
    }
}

fn num(x: f64) -> String {
    let v = serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number);
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        #[allow(clippy::cast_possible_truncation)]
        return format!("{}", x as i64);
    }
    v.to_string()
}

fn value_name(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Whether `kind` is the base kind of a literal `value` (literal "a" → string).
fn admits_base(kind: &TypeKind, value: &Value) -> bool {
    match (kind, value) {
        (TypeKind::String(r), Value::String(_)) => *r == Default::default(),
        (TypeKind::Integer(r), Value::Number(n)) => {
            n.is_i64() || n.is_u64() && *r == Default::default()
        }
        (TypeKind::Number(r), Value::Number(_)) => *r == Default::default(),
        (TypeKind::Boolean, Value::Bool(_)) => true,
        (TypeKind::Null, Value::Null) => true,
        (TypeKind::Enum(e), v) => e.values.contains(v),
        _ => false,
    }
}

/// What identifies a union variant across versions.
fn variant_key(v: &TypeNode, discriminator: Option<&str>) -> String {
    if let (Some(d), TypeKind::Object(o)) = (discriminator, &v.kind)
        && let Some(f) = o.fields.as_ref().and_then(|f| f.get(d))
        && let TypeKind::Literal { value } = &f.ty.kind
    {
        return format!("{d}={value}");
    }
    match &v.kind {
        TypeKind::Ref(r) => match &r.namespace {
            Some(ns) => format!("{ns}.{}", r.name),
            None => r.name.clone(),
        },
        TypeKind::Literal { value } => value.to_string(),
        // integer and number are one family, so integer | null → number | null is a widening.
        TypeKind::Integer(_) => "number".to_owned(),
        other => other.kind().name().to_owned(),
    }
}

fn describe(t: &TypeNode) -> String {
    match &t.kind {
        TypeKind::Union(u) => {
            let parts: Vec<String> = u.variants.iter().map(|v| variant_key(v, None)).collect();
            parts.join(" | ")
        }
        other => other.kind().name().to_owned(),
    }
}

/// Resolves a ref to (namespace, name, node).
pub(crate) fn resolve<'d>(
    doc: &'d Document,
    ns: &str,
    r: &accord_schema_model::RefType,
) -> Option<(String, String, &'d TypeNode)> {
    resolve_in(doc, ns, r).map(|(tns, name, node)| (tns.to_owned(), name.to_owned(), node))
}

/// For named types of interest: the positions that reach them, each with its first origins.
type Reach = BTreeMap<(String, String), BTreeMap<Position, BTreeSet<String>>>;

/// How many origins a finding names per position: enough to find the uses, few enough to read.
const ORIGINS_SHOWN: usize = 3;

/// Keeps the first [`ORIGINS_SHOWN`] origins (in order) of a set.
fn keep_first(set: &mut BTreeSet<String>) {
    while set.len() > ORIGINS_SHOWN {
        set.pop_last();
    }
}

/// Resolves a ref to its named type, borrowing the names from `doc`.
pub(crate) fn resolve_in<'d>(
    doc: &'d Document,
    ns: &str,
    r: &accord_schema_model::RefType,
) -> Option<(&'d str, &'d str, &'d TypeNode)> {
    let tns = r.namespace.as_deref().unwrap_or(ns);
    let (tns, n) = doc.namespaces.as_ref()?.get_key_value(tns)?;
    let (name, node) = n.types.as_ref()?.get_key_value(&r.name)?;
    Some((tns, name, node))
}

/// Calls `each` with every ref in `node` that is not behind another ref.
pub(crate) fn direct_refs<'d>(
    node: &'d TypeNode,
    mut each: impl FnMut(&'d accord_schema_model::RefType),
) {
    let mut stack: Vec<&TypeNode> = vec![node];
    while let Some(node) = stack.pop() {
        match &node.kind {
            TypeKind::Ref(r) => each(r),
            TypeKind::Array(a) => stack.push(&a.items),
            TypeKind::Tuple(t) => stack.extend(t.elements.iter()),
            TypeKind::Object(o) => stack.extend(o.fields.iter().flatten().map(|(_, f)| &f.ty)),
            TypeKind::Map(m) => {
                stack.push(&m.values);
                stack.extend(m.keys.as_deref());
            }
            TypeKind::Union(u) => stack.extend(u.variants.iter()),
            _ => {}
        }
    }
}

/// For every target named type, the positions of `doc` that reach it and from where.
///
/// Linear in the document: one pass over the named types finds those that lead to a target
/// (through refs, in reverse), then each method and event is walked once, descending only into
/// named types that lead to a target. Origins are written out only for the targets they reach.
fn reach_towards(doc: &Document, targets: &HashSet<(&str, &str)>) -> Reach {
    let Some(nss) = &doc.namespaces else { return Reach::new() };
    // Reverse edges of the ref graph between named types, then the types that lead to a target.
    let mut used_by: HashMap<(&str, &str), Vec<(&str, &str)>> = HashMap::new();
    for (ns, n) in nss {
        for (name, t) in n.types.iter().flatten() {
            direct_refs(t, |r| {
                if let Some((tns, tname, _)) = resolve_in(doc, ns, r) {
                    used_by.entry((tns, tname)).or_default().push((ns, name));
                }
            });
        }
    }
    let mut leads: HashSet<(&str, &str)> = HashSet::new();
    let mut queue: Vec<(&str, &str)> = Vec::new();
    for (ns, name) in targets {
        if let Some((tns, n)) = nss.get_key_value(*ns)
            && let Some((tname, _)) = n.types.as_ref().and_then(|t| t.get_key_value(*name))
        {
            queue.push((tns, tname));
        }
    }
    while let Some(key) = queue.pop() {
        if leads.insert(key) {
            queue.extend(used_by.get(&key).into_iter().flatten().copied());
        }
    }
    if leads.is_empty() {
        return Reach::new();
    }
    let mut towards = Towards { doc, targets, leads, out: Reach::new() };
    for (ns, n) in nss {
        for (mname, m) in n.methods.iter().flatten() {
            for p in m.params.iter().flatten() {
                let origin = || format!("{ns}.{mname}.params.{}", p.name);
                towards.walk(ns, &p.field.ty, Position::Params, origin);
            }
            towards.walk(ns, &m.result, Position::Result, || format!("{ns}.{mname}.result"));
            for e in m.errors.iter().flatten() {
                if let Some(d) = &e.data {
                    let origin = || format!("{ns}.{mname}.errors.{}.data", e.code);
                    towards.walk(ns, d, Position::ErrorData, origin);
                }
            }
        }
        for (ename, e) in n.events.iter().flatten() {
            towards.walk(ns, &e.payload, Position::Event, || format!("{ns}.{ename}.payload"));
        }
    }
    towards.out
}

/// One document's walk towards the changed named types (`targets`), descending only into the
/// named types that lead to one (`leads`), recording origins in `out`.
struct Towards<'d, 't> {
    doc: &'d Document,
    targets: &'t HashSet<(&'t str, &'t str)>,
    leads: HashSet<(&'d str, &'d str)>,
    out: Reach,
}

impl<'d> Towards<'d, '_> {
    /// Walks one origin's type, recording it for every target it reaches.
    fn walk(
        &mut self,
        ns: &'d str,
        node: &'d TypeNode,
        pos: Position,
        origin: impl Fn() -> String,
    ) {
        let mut stack: Vec<(&str, &TypeNode)> = vec![(ns, node)];
        let mut seen: Vec<(&str, &str)> = Vec::new();
        let mut text: Option<String> = None;
        while let Some((ns, node)) = stack.pop() {
            direct_refs(node, |r| {
                let Some((tns, name, t)) = resolve_in(self.doc, ns, r) else { return };
                let key = (tns, name);
                if !self.leads.contains(&key) || seen.contains(&key) {
                    return;
                }
                seen.push(key);
                if self.targets.contains(&key) {
                    let origin = text.get_or_insert_with(&origin).clone();
                    let set = self
                        .out
                        .entry((tns.to_owned(), name.to_owned()))
                        .or_default()
                        .entry(pos)
                        .or_default();
                    set.insert(origin);
                    keep_first(set);
                }
                stack.push((tns, t));
            });
        }
    }
}

/// Compares two type nodes alone (no document around them), for the duality property.
pub fn compare_types(old: &TypeNode, new: &TypeNode, polarity: Polarity) -> Vec<&'static Rule> {
    let doc = Document::default();
    let mut cx = Cx::new(&doc, &doc);
    let at = At {
        path: "t".to_owned(),
        old: Pointer::root(),
        new: Pointer::root(),
        polarity,
        position: if polarity == Polarity::Input { Position::Params } else { Position::Result },
        old_ns: "t".to_owned(),
        new_ns: "t".to_owned(),
        note: None,
    };
    cx.types(&at, old, new);
    cx.changes.into_iter().map(|c| c.rule).collect()
}
