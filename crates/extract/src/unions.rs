//! Never write what `accord check` refuses: a union whose arms became equal once extract read
//! them (an untagged `FilterChanges { Hashes(Vec<H256>), Logs(Vec<Log>) }` whose element types
//! are not on disk is two `array` of any value) has the repeated arms merged, with warning
//! `union-arms-merged`, since check's `duplicate-union-arm` refuses the repeat. Arms compare as
//! the lint compares them (the model's `TypeNode::without_docs`).

use accord_schema_model::{Namespace, TypeKind, TypeNode};
use indexmap::IndexMap;

use crate::{
    diagnostic::{Diagnostics, Location},
    pointer_escape,
};

/// Merges the repeated arms of every union of the namespaces; a union left with one arm is
/// that arm (with the union's documentation).
pub(crate) fn merge_equal_arms(
    namespaces: &mut IndexMap<String, Namespace>,
    provenance: &[(String, Location)],
    diags: &mut Diagnostics,
) {
    for (ns_name, ns) in namespaces.iter_mut() {
        let base = format!("/namespaces/{}", pointer_escape(ns_name));
        for (name, t) in ns.types.iter_mut().flatten() {
            walk(t, &format!("{base}/types/{}", pointer_escape(name)), provenance, diags);
        }
        for (name, m) in ns.methods.iter_mut().flatten() {
            let at = format!("{base}/methods/{}", pointer_escape(name));
            for (i, p) in m.params.iter_mut().flatten().enumerate() {
                walk(&mut p.field.ty, &format!("{at}/params/{i}/type"), provenance, diags);
            }
            walk(&mut m.result, &format!("{at}/result"), provenance, diags);
        }
        for (name, e) in ns.events.iter_mut().flatten() {
            let at = format!("{base}/events/{}/payload", pointer_escape(name));
            walk(&mut e.payload, &at, provenance, diags);
        }
    }
}

/// The place of the nearest item above `pointer` that has one.
pub(crate) fn place(pointer: &str, provenance: &[(String, Location)]) -> Location {
    provenance
        .iter()
        .filter(|(p, _)| pointer == p || pointer.starts_with(&format!("{p}/")))
        .max_by_key(|(p, _)| p.len())
        .map(|(_, l)| l.clone())
        .unwrap_or_default()
}

/// Merges until nothing is left to merge: an inner union merged into one arm can leave its
/// outer union with a repeat (`Option<Option<()>>`: `(null | null) | null`), which the pass
/// that merged it had already passed by. Each pass that merges removes an arm, so it ends.
fn walk(node: &mut TypeNode, at: &str, provenance: &[(String, Location)], diags: &mut Diagnostics) {
    // The common case, no union with equal arms, is found without building a pointer per node.
    // Each pass that is due merges at least one arm; should the two tests ever disagree, a
    // pass that merges nothing ends the loop rather than repeating forever.
    while has_equal_arms(node) && walk_once(node, at, provenance, diags) {}
}

/// Whether a union at or below `node` has two arms that read as the same type.
fn has_equal_arms(node: &TypeNode) -> bool {
    let mut stack = vec![node];
    while let Some(node) = stack.pop() {
        if let TypeKind::Union(u) = &node.kind {
            for (i, a) in u.variants.iter().enumerate() {
                if u.variants[i + 1..].iter().any(|b| same_type(a, b)) {
                    return true;
                }
            }
        }
        stack.extend(node.children());
    }
    false
}

/// Whether two arms read as the same type, their documentation aside: arms of different kinds
/// never do, and are not copied to be compared.
fn same_type(a: &TypeNode, b: &TypeNode) -> bool {
    a.kind.kind() == b.kind.kind() && a.without_docs() == b.without_docs()
}

/// One pass; whether it merged anything.
fn walk_once(
    node: &mut TypeNode,
    at: &str,
    provenance: &[(String, Location)],
    diags: &mut Diagnostics,
) -> bool {
    let mut any = false;
    // Depth first with an explicit stack: a hostile source's deep nesting must not recurse.
    let mut stack = vec![(node, at.to_owned())];
    while let Some((node, at)) = stack.pop() {
        if let TypeKind::Union(u) = &mut node.kind {
            let mut kept: Vec<TypeNode> = Vec::new();
            let mut merged = Vec::new();
            let mut i = 0;
            u.variants.retain(|arm| {
                let keep = match kept.iter().position(|k| same_type(k, arm)) {
                    Some(first) => {
                        merged.push((i, first));
                        false
                    }
                    None => {
                        kept.push(arm.clone());
                        true
                    }
                };
                i += 1;
                keep
            });
            any |= !merged.is_empty();
            for (arm, first) in merged {
                diags.warn(
                    "union-arms-merged",
                    place(&at, provenance),
                    format!("arm {arm} of the union at {at} reads as the same type as arm {first} (their own types could not be told apart), so it is merged into it: `accord check` refuses a repeated arm"),
                    Some("describe the types extract read as any value (`[types.\"path\"]` in accord.toml, or make their crate's source available) to keep the arms apart".into()),
                );
            }
            if u.variants.len() == 1 {
                let mut only = u.variants.pop().expect("one arm");
                only.description = node.description.take().or(only.description);
                only.deprecated = node.deprecated.take().or(only.deprecated);
                only.examples = node.examples.take().or(only.examples);
                *node = only;
                stack.push((node, at));
                continue;
            }
        }
        let kids: Vec<(&mut TypeNode, String)> = match &mut node.kind {
            TypeKind::Array(a) => vec![(&mut *a.items, format!("{at}/items"))],
            TypeKind::Tuple(t) => t
                .elements
                .iter_mut()
                .enumerate()
                .map(|(i, e)| (e, format!("{at}/elements/{i}")))
                .collect(),
            TypeKind::Object(o) => o
                .fields
                .iter_mut()
                .flatten()
                .map(|(n, f)| (&mut f.ty, format!("{at}/fields/{}/type", pointer_escape(n))))
                .collect(),
            TypeKind::Map(m) => {
                let mut v = vec![(&mut *m.values, format!("{at}/values"))];
                if let Some(k) = m.keys.as_deref_mut() {
                    v.push((k, format!("{at}/keys")));
                }
                v
            }
            TypeKind::Union(u) => u
                .variants
                .iter_mut()
                .enumerate()
                .map(|(i, v)| (v, format!("{at}/variants/{i}")))
                .collect(),
            _ => Vec::new(),
        };
        stack.extend(kids);
    }
    any
}

/// A named type that is only a ref to itself, directly or through other refs (`struct T(Box<T>)`:
/// serde's newtype is transparent, so `T` is `T`): check refuses it (`ref-cycle`), and no value
/// has that shape, so it is any value, with warning `self-reference`.
pub(crate) fn break_ref_cycles(
    namespaces: &mut IndexMap<String, Namespace>,
    provenance: &[(String, Location)],
    diags: &mut Diagnostics,
) {
    for (ns_name, ns) in namespaces.iter_mut() {
        let Some(types) = ns.types.as_mut() else { continue };
        let mut cyclic = Vec::new();
        for name in types.keys() {
            let mut at = name;
            let mut steps = 0;
            while let Some(TypeKind::Ref(r)) = types.get(at).map(|t| &t.kind) {
                if r.namespace.as_ref().is_some_and(|n| n != ns_name) || steps > types.len() {
                    break;
                }
                if &r.name == name {
                    cyclic.push(name.clone());
                    break;
                }
                at = &r.name;
                steps += 1;
            }
        }
        for name in cyclic {
            let pointer =
                format!("/namespaces/{}/types/{}", pointer_escape(ns_name), pointer_escape(&name));
            diags.warn(
                "self-reference",
                place(&pointer, provenance),
                format!("type `{name}` is nothing but itself (a newtype or alias of itself, directly or through others): no value has that shape, so it reads as any value"),
                Some("give the type a field, or describe it in accord.toml's [types]".into()),
            );
            if let Some(t) = types.get_mut(&name) {
                t.kind = TypeKind::Any;
            }
        }
    }
}

/// A union arm of a named type that is a ref to the type itself, also inside union arms
/// (`struct T(Option<T>)`: serde's newtype is transparent and `Some(x)` is `x`, so `T` is
/// `T | null`; `Option<Option<T>>` nests the union): check refuses it (`ref-cycle`), and it adds
/// no value (a value matches `T | X` only by matching `X`), so it is dropped, with warning
/// `self-reference`; a union left with one arm is that arm. Found by the `extract` fuzz
/// target's smoke.
pub(crate) fn drop_self_arms(
    namespaces: &mut IndexMap<String, Namespace>,
    provenance: &[(String, Location)],
    diags: &mut Diagnostics,
) {
    for (ns_name, ns) in namespaces.iter_mut() {
        for (name, t) in ns.types.iter_mut().flatten() {
            drop_self_arms_of(ns_name, name, t, provenance, diags);
        }
    }
}

fn drop_self_arms_of(
    ns_name: &str,
    name: &str,
    t: &mut TypeNode,
    provenance: &[(String, Location)],
    diags: &mut Diagnostics,
) {
    if !matches!(t.kind, TypeKind::Union(_)) {
        return;
    }
    let is_self = |node: &TypeNode| {
        matches!(&node.kind, TypeKind::Ref(r)
            if r.name == name && r.namespace.as_ref().is_none_or(|n| n == ns_name))
    };
    let mut dropped = false;
    if strip_self(t, &is_self, &mut dropped) {
        // Nothing but itself: no value has that shape.
        t.kind = TypeKind::Any;
    }
    if dropped {
        let pointer =
            format!("/namespaces/{}/types/{}", pointer_escape(ns_name), pointer_escape(name));
        diags.warn(
            "self-reference",
            place(&pointer, provenance),
            format!("type `{name}` has itself as a union arm (a newtype of an `Option` of itself, say): the arm adds no value and is dropped"),
            Some("give the type a field, or describe it in accord.toml's [types]".into()),
        );
    }
}

/// Drops the arms of `node`'s unions (nested unions included) that `is_self`; a union left with
/// one arm becomes it (arms left equal are merged after, by `merge_equal_arms`). Whether `node` is left with no value at all (itself, or a union of nothing else).
fn strip_self(
    node: &mut TypeNode,
    is_self: &dyn Fn(&TypeNode) -> bool,
    dropped: &mut bool,
) -> bool {
    if is_self(node) {
        *dropped = true;
        return true;
    }
    let TypeKind::Union(u) = &mut node.kind else { return false };
    u.variants.retain_mut(|arm| !strip_self(arm, is_self, dropped));
    match u.variants.len() {
        0 => true,
        1 => {
            let arm = u.variants.pop().expect("one arm");
            node.kind = arm.kind;
            false
        }
        _ => false,
    }
}
