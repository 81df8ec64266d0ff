//! Witness values: a concrete value one side accepts and the other refuses, found with
//! validate's generator and checked with its validators.

use std::collections::BTreeSet;

use accord_schema_model::{Document, Method, Namespace, TypeKind, TypeNode};
use accord_validate::{Contract, Target};
use indexmap::IndexMap;
use serde_json::Value;

use crate::compare::{WitnessPlan, direct_refs};
use crate::rules::Polarity;

/// How many generated values of the wider side are tried before giving up.
pub(crate) const TRIES: u64 = 48;

const NAME: &str = "__accord_witness";

fn with_type(doc: &Document, ns: &str, node: &TypeNode) -> Document {
    let mut doc = reachable(doc, ns, &[node]);
    let nss = doc.namespaces.get_or_insert_with(IndexMap::new);
    let n = nss
        .entry(ns.to_owned())
        .or_insert_with(|| Namespace { version: "0.0.0".to_owned(), ..Namespace::default() });
    n.types.get_or_insert_with(IndexMap::new).insert(NAME.to_owned(), node.clone());
    doc
}

/// The reachable part of `doc` with method `ns.method` in it (its params are what is compared).
fn with_method(doc: &Document, ns: &str, method: &str) -> Document {
    let found = doc
        .namespaces
        .as_ref()
        .and_then(|all| all.get(ns))
        .and_then(|n| n.methods.as_ref())
        .and_then(|methods| methods.get(method));
    let Some(m) = found else { return doc.clone() };
    let roots: Vec<&TypeNode> = m.params.iter().flatten().map(|p| &p.field.ty).collect();
    let mut out = reachable(doc, ns, &roots);
    if let Some(n) = out.namespaces.as_mut().and_then(|all| all.get_mut(ns)) {
        // Only the params matter; the rest could name types this document does not keep.
        let only = Method {
            result: TypeNode::new(TypeKind::Any),
            errors: None,
            examples: None,
            links: None,
            causes: None,
            ..m.clone()
        };
        n.methods.get_or_insert_with(IndexMap::new).insert(method.to_owned(), only);
    }
    out
}

/// The smallest document in which `roots` (type nodes standing in namespace `ns`) mean what
/// they mean in `doc`: the named types they reach, transitively, and nothing else. Compiling
/// this instead of the whole contract keeps a witness's cost to the types involved, so a diff
/// with many findings stays linear in the size of the contracts.
fn reachable(doc: &Document, ns: &str, roots: &[&TypeNode]) -> Document {
    let mut keep: BTreeSet<(&str, &str)> = BTreeSet::new();
    let mut stack: Vec<(&str, &TypeNode)> = roots.iter().map(|t| (ns, *t)).collect();
    while let Some((at_ns, node)) = stack.pop() {
        direct_refs(node, |r| {
            if let Some((tns, name, target)) = doc.named(at_ns, r)
                && keep.insert((tns, name))
            {
                stack.push((tns, target));
            }
        });
    }
    let mut out = Document { schema: doc.schema, ..Document::default() };
    let namespaces = out.namespaces.get_or_insert_with(IndexMap::new);
    for (kept_ns, name) in keep {
        let Some(source) = doc.namespaces.as_ref().and_then(|all| all.get(kept_ns)) else {
            continue;
        };
        let target = namespaces.entry(kept_ns.to_owned()).or_insert_with(|| Namespace {
            version: source.version.clone(),
            ..Namespace::default()
        });
        if let Some(ty) = source.types.as_ref().and_then(|types| types.get(name)) {
            target.types.get_or_insert_with(IndexMap::new).insert(name.to_owned(), ty.clone());
        }
    }
    namespaces
        .entry(ns.to_owned())
        .or_insert_with(|| Namespace { version: "0.0.0".to_owned(), ..Namespace::default() });
    out
}

/// A value the writer side accepts and the reader side refuses: under input the old side
/// writes, under output the new side writes.
pub(crate) fn find(
    plan: &WitnessPlan,
    polarity: Polarity,
    old: &Document,
    new: &Document,
) -> Option<Value> {
    let (old_doc, old_target, new_doc, new_target) = match plan {
        WitnessPlan::Types { old_ns, old: o, new_ns, new: n } => (
            with_type(old, old_ns, o),
            Target::Type { namespace: old_ns.clone(), name: NAME.to_owned() },
            with_type(new, new_ns, n),
            Target::Type { namespace: new_ns.clone(), name: NAME.to_owned() },
        ),
        WitnessPlan::Params { old_ns, new_ns, method } => (
            with_method(old, old_ns, method),
            Target::Params { namespace: old_ns.clone(), method: method.clone() },
            with_method(new, new_ns, method),
            Target::Params { namespace: new_ns.clone(), method: method.clone() },
        ),
    };
    let old_c = Contract::compile(&old_doc).ok()?;
    let new_c = Contract::compile(&new_doc).ok()?;
    let old_v = old_c.validator(&old_target).ok()?;
    let new_v = new_c.validator(&new_target).ok()?;
    let (writer, reader) = match polarity {
        Polarity::Input => (old_v, new_v),
        Polarity::Output => (new_v, old_v),
    };
    let generator = writer.generator();
    (0..TRIES).find_map(|seed| {
        let value = generator.generate(seed).ok()?;
        (writer.is_valid(&value) && !reader.is_valid(&value)).then_some(value)
    })
}
