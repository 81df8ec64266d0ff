//! Merging an extraction into the committed contract. Extract owns the shape it reads from the
//! code (kinds, fields and their presence, variants, refs, enum values, params, methods and
//! events of the namespaces it produces); everything else in the committed file is kept in
//! place: unknown members, `component`, `errors`, `examples`, `links`, `causes`, `default`,
//! `reserved`, notes, types the code does not produce (hand-written error data), namespaces no
//! trait produces, and the refinements of a node whose kind did not change (`unit`, bounds,
//! lengths, `pattern`, `format`), which say what Rust types cannot. A writer that rebuilt the
//! file from the subset it knows would be a deleter.

use accord_schema_model::{
    Document, Event, Field, Method, Namespace, Param, TypeKind, TypeNode, Wire,
};
use indexmap::IndexMap;

use crate::Extraction;

/// The document to write: `extraction` merged into `existing`.
pub fn merge(extraction: &Extraction, existing: &Document) -> Document {
    let ext = &extraction.document;
    let mut out = existing.clone();
    if ext.name.is_some() {
        out.name = ext.name.clone();
    }
    if ext.description.is_some() {
        out.description = ext.description.clone();
    }
    let mut namespaces = existing.namespaces.clone().unwrap_or_default();
    for (name, ens) in ext.namespaces.iter().flatten() {
        let merged = match namespaces.get(name) {
            Some(old) => namespace(ens, old, extraction, name),
            None => ens.clone(),
        };
        namespaces.insert(name.clone(), merged);
    }
    out.namespaces = (!namespaces.is_empty()).then_some(namespaces);
    out.wire = document_wire(ext.wire.as_ref(), existing.wire.as_ref());
    out
}

/// The document's `wire`: what the code cannot know is the committed file's (a describe method
/// registered by hand, codes the plant changed or added); extract's guesses for a jsonrpsee
/// plant (no describe method, jsonrpsee's profile) only fill members that are absent.
fn document_wire(new: Option<&Wire>, old: Option<&Wire>) -> Option<Wire> {
    let Some(new) = new else { return old.cloned() };
    let mut out = old.cloned().unwrap_or_default();
    out.describe = out.describe.or_else(|| new.describe.clone());
    out.codes = out.codes.or_else(|| new.codes.clone());
    Some(out)
}

/// A namespace's `wire`: the separator and the subscriptions' names are read from the code
/// (extract owns them); hand-written members (`pubsub`, `methods` the code does not rename)
/// are kept.
fn namespace_wire(new: Option<&Wire>, old: Option<&Wire>) -> Option<Wire> {
    let Some(new) = new else { return old.cloned() };
    let mut out = old.cloned().unwrap_or_default();
    out.separator = new.separator.clone();
    if new.methods.is_some() {
        out.methods = new.methods.clone();
    }
    out.events = new.events.clone();
    Some(out)
}

fn pick<T: Clone>(new: &Option<T>, old: &Option<T>) -> Option<T> {
    new.clone().or_else(|| old.clone())
}

/// The keys of `new`, in `old`'s order where `old` has them, then the rest in `new`'s order.
fn by_name<T: Clone>(
    new: &IndexMap<String, T>,
    old: Option<&IndexMap<String, T>>,
    f: impl Fn(&T, &T) -> T,
) -> IndexMap<String, T> {
    let mut out = IndexMap::new();
    if let Some(old) = old {
        for (k, o) in old {
            if let Some(n) = new.get(k) {
                out.insert(k.clone(), f(n, o));
            }
        }
    }
    for (k, n) in new {
        if !out.contains_key(k) {
            out.insert(k.clone(), n.clone());
        }
    }
    out
}

fn namespace(new: &Namespace, old: &Namespace, x: &Extraction, name: &str) -> Namespace {
    let mut out = old.clone();
    if x.versions_given.iter().any(|n| n == name) {
        out.version = new.version.clone();
    }
    out.description = pick(&new.description, &old.description);
    out.deprecated = pick(&new.deprecated, &old.deprecated);
    out.methods = new.methods.as_ref().map(|m| by_name(m, old.methods.as_ref(), method));
    out.events = new.events.as_ref().map(|e| by_name(e, old.events.as_ref(), event));
    out.wire = namespace_wire(new.wire.as_ref(), old.wire.as_ref());
    // Types the code produces are merged; committed types it does not produce stay.
    let mut types = old.types.clone().unwrap_or_default();
    for (tname, t) in new.types.iter().flatten() {
        let merged = match types.get(tname) {
            Some(o) => node(t, o),
            None => t.clone(),
        };
        types.insert(tname.clone(), merged);
    }
    out.types = (!types.is_empty()).then_some(types);
    out
}

fn method(new: &Method, old: &Method) -> Method {
    let mut out = old.clone();
    // Extracted semantics exist only where the tag or accord.toml gave them.
    out.semantics = pick(&new.semantics, &old.semantics);
    out.description = pick(&new.description, &old.description);
    out.deprecated = pick(&new.deprecated, &old.deprecated);
    out.param_structure = new.param_structure;
    out.params = new.params.as_ref().map(|ps| {
        ps.iter()
            .map(|p| match old.params.iter().flatten().find(|o| o.name == p.name) {
                Some(o) => Param { name: p.name.clone(), field: param(&p.field, &o.field) },
                None => p.clone(),
            })
            .collect()
    });
    out.result = node(&new.result, &old.result);
    out
}

/// A param: a field, except that a file writing `T` where the code gives `T | null` (an
/// `Option` param, which serde also reads from `null`) narrows it, as a bound narrows an
/// integer: the contract may promise callers less than the plant accepts ("leave it out"), and
/// the file's `T` is kept, merged with the code's `T`.
fn param(new: &Field, old: &Field) -> Field {
    if let TypeKind::Union(u) = &new.ty.kind
        && u.variants.len() == 2
        && u.variants[1].kind == TypeKind::Null
        && !matches!(old.ty.kind, TypeKind::Union(_) | TypeKind::Null)
        && u.variants[0].kind.kind() == old.ty.kind.kind()
    {
        let mut narrowed = new.clone();
        narrowed.ty = u.variants[0].clone();
        narrowed.ty.description.clone_from(&new.ty.description);
        narrowed.ty.deprecated.clone_from(&new.ty.deprecated);
        return field(&narrowed, old);
    }
    field(new, old)
}

fn event(new: &Event, old: &Event) -> Event {
    let mut out = old.clone();
    out.description = pick(&new.description, &old.description);
    out.deprecated = pick(&new.deprecated, &old.deprecated);
    out.payload = node(&new.payload, &old.payload);
    out
}

fn field(new: &Field, old: &Field) -> Field {
    let mut out = old.clone();
    out.ty = node(&new.ty, &old.ty);
    out.optional = new.optional;
    out.input_optional = new.input_optional;
    out.output_optional = new.output_optional;
    // A committed file may keep a field's doc on its type instead; the Rust doc is the same text.
    let on_type = old.description.is_none()
        && new.description.is_some()
        && old.ty.description == new.description;
    if !on_type {
        out.description = pick(&new.description, &old.description);
    }
    out.deprecated = pick(&new.deprecated, &old.deprecated);
    out
}

/// A type node: the new shape with the old node's documentation, default, examples, unknown
/// members and, when the kind is the same, its refinements.
pub(crate) fn node(new: &TypeNode, old: &TypeNode) -> TypeNode {
    let mut out = new.clone();
    out.description = pick(&new.description, &old.description);
    out.deprecated = pick(&new.deprecated, &old.deprecated);
    out.default = old.default.clone();
    out.examples = old.examples.clone();
    out.unknown = old.unknown.clone();
    out.kind = match (&new.kind, &old.kind) {
        (TypeKind::Integer(_), TypeKind::Integer(o)) => TypeKind::Integer(o.clone()),
        (TypeKind::Number(_), TypeKind::Number(o)) => TypeKind::Number(o.clone()),
        (TypeKind::String(n), TypeKind::String(o)) => {
            let mut r = o.clone();
            r.format = pick(&o.format, &n.format);
            TypeKind::String(r)
        }
        (TypeKind::Enum(n), TypeKind::Enum(o)) => {
            let mut e = n.clone();
            e.open = pick(&n.open, &o.open);
            e.reserved = o.reserved.clone();
            TypeKind::Enum(e)
        }
        (TypeKind::Array(n), TypeKind::Array(o)) => {
            let mut a = n.clone();
            a.items = Box::new(node(&n.items, &o.items));
            if o.min_items.is_some() || o.max_items.is_some() {
                a.min_items = o.min_items;
                a.max_items = o.max_items;
            }
            TypeKind::Array(a)
        }
        (TypeKind::Tuple(n), TypeKind::Tuple(o)) if n.elements.len() == o.elements.len() => {
            let mut t = n.clone();
            t.elements = n.elements.iter().zip(&o.elements).map(|(a, b)| node(a, b)).collect();
            TypeKind::Tuple(t)
        }
        (TypeKind::Object(n), TypeKind::Object(o)) => {
            let mut obj = n.clone();
            obj.fields = n.fields.as_ref().map(|f| by_name(f, o.fields.as_ref(), field));
            obj.reserved = o.reserved.clone();
            TypeKind::Object(obj)
        }
        (TypeKind::Map(n), TypeKind::Map(o)) => {
            let mut m = n.clone();
            m.values = Box::new(node(&n.values, &o.values));
            m.keys = match (&n.keys, &o.keys) {
                (Some(nk), Some(ok)) => Some(Box::new(node(nk, ok))),
                // Keys the code leaves as any string, refined in the file.
                (None, Some(ok)) if ok.kind.kind() == accord_schema_model::Kind::String => {
                    Some(ok.clone())
                }
                (k, _) => k.clone(),
            };
            TypeKind::Map(m)
        }
        (TypeKind::Union(n), TypeKind::Union(o)) if n.variants.len() == o.variants.len() => {
            let mut u = n.clone();
            u.variants = n.variants.iter().zip(&o.variants).map(|(a, b)| node(a, b)).collect();
            TypeKind::Union(u)
        }
        (k, _) => k.clone(),
    };
    out
}
