//! `no-finite-value`: recursive types that admit no value, since every value would have to
//! contain another.

use std::collections::{HashMap, VecDeque};

use accord_schema_model::{TypeKind, TypeNode};

use crate::lint::rules::ref_cycle;
use crate::lint::walk::Walk;
use crate::lint::{LintContext, graph};

declare_rule! {
    /// ## What it does
    /// Flags a named type whose every value would have to contain another value of the same
    /// type (directly or through other types): a recursion with no way out. `Node = { next:
    /// Node }` with `next` required is the smallest case; a tuple, a required field, or an
    /// array with `minItems` of at least 1 all keep the recursion going, while an optional
    /// field, an array that may be empty, a map, or a union arm that does not recurse end it.
    ///
    /// ## Why is this bad?
    /// Every JSON value is finite, so no value matches such a type: a method taking it can
    /// never be called, and one answering it can never answer. It usually means an `optional:
    /// true` or a `null` arm was forgotten. Ref cycles through unions alone are `ref-cycle`;
    /// empty enums and unions are `empty-type`, and bounds that leave no value
    /// `min-above-max`: this rule counts those as admitting values, so that one mistake is
    /// reported once.
    ///
    /// ## Example
    /// ```json
    /// "types": {
    ///   "Step": {
    ///     "kind": "object",
    ///     "fields": { "action": { "type": { "kind": "string" } }, "then": { "type": { "kind": "ref", "name": "Step" } } }
    ///   }
    /// }
    /// ```
    ///
    /// ## Fix
    /// Give the recursion an end: make the recursive field `optional: true`, put the ref in a
    /// union with `{ "kind": "null" }`, or hold the next values in an array that may be empty.
    pub(crate) struct NoFiniteValue;
}

type Named = (String, String);

pub(crate) fn check(cx: &mut LintContext<'_>) {
    let walk = &cx.walk;
    let named: Vec<(&str, &str, &TypeNode)> = walk
        .namespaces()
        .flat_map(|(ns, n, _)| {
            n.types.iter().flatten().map(move |(t, node)| (ns, t.as_str(), node))
        })
        .collect();
    let mut inhabited: HashMap<Named, bool> =
        named.iter().map(|(ns, t, _)| (((*ns).to_owned(), (*t).to_owned()), false)).collect();
    // Types in a ref cycle are `ref-cycle`'s to report.
    for cycle in ref_cycle::find(walk) {
        for member in cycle.members {
            inhabited.insert(member, true);
        }
    }
    // The least fixed point: a type has a value once some value can be built from types
    // already known to have one. A type is looked at again only when a type it refers to
    // gains a value (a pass over every type until nothing changes took one pass per link of a
    // chain of required refs: quadratic).
    let position: HashMap<Named, usize> = named
        .iter()
        .enumerate()
        .map(|(i, (ns, t, _))| (((*ns).to_owned(), (*t).to_owned()), i))
        .collect();
    let mut users: Vec<Vec<usize>> = vec![Vec::new(); named.len()];
    for (i, (ns, _, node)) in named.iter().enumerate() {
        for target in refs_in(ns, node) {
            if let Some(&j) = position.get(&target) {
                users[j].push(i);
            }
        }
    }
    let mut queue: VecDeque<usize> = (0..named.len()).collect();
    while let Some(i) = queue.pop_front() {
        let (ns, t, node) = named[i];
        let key = (ns.to_owned(), t.to_owned());
        if !inhabited[&key] && has_value(ns, node, &inhabited) {
            inhabited.insert(key, true);
            queue.extend(&users[i]);
        }
    }
    let empty: Vec<Named> = named
        .iter()
        .map(|(ns, t, _)| ((*ns).to_owned(), (*t).to_owned()))
        .filter(|k| !inhabited[k])
        .collect();
    if empty.is_empty() {
        return;
    }
    let index: HashMap<&Named, usize> = empty.iter().enumerate().map(|(i, n)| (n, i)).collect();
    let edges: Vec<Vec<usize>> = empty
        .iter()
        .map(|(ns, t)| {
            let node = walk.named(ns, t).expect("listed from the document");
            refs_in(ns, node).iter().filter_map(|r| index.get(r).copied()).collect()
        })
        .collect();
    let mut found = Vec::new();
    for members in graph::cycles(&edges) {
        let first = members[0];
        let (ns, name) = &empty[first];
        let show = |i: &usize| {
            let (n, t) = &empty[*i];
            if n == ns { format!("`{t}`") } else { format!("`{n}.{t}`") }
        };
        let path = graph::shortest_cycle(first, &members, &edges);
        let how = if path.len() == 2 {
            format!("every value of it must contain another value of `{name}`")
        } else {
            let steps: Vec<String> = path[1..path.len() - 1].iter().map(show).collect();
            format!(
                "every value of it must contain a {}, which leads back to `{name}`",
                steps.join(", then a ")
            )
        };
        found.push((
            Walk::named_pointer(ns, name),
            format!("type `{name}` has no finite value: {how}"),
        ));
    }
    for (at, message) in found {
        cx.report(
            at,
            message,
            "end the recursion: make the recursive field optional, add a `null` arm, or let the array be empty",
        );
    }
}

/// Whether some finite value of `node` exists, given which named types are known to have one.
/// Leaves always have values here (empty enums and impossible bounds are other rules').
fn has_value(ns: &str, node: &TypeNode, known: &HashMap<Named, bool>) -> bool {
    match &node.kind {
        TypeKind::Any
        | TypeKind::Null
        | TypeKind::Boolean
        | TypeKind::Integer(_)
        | TypeKind::Number(_)
        | TypeKind::String(_)
        | TypeKind::Literal { .. }
        | TypeKind::Enum(_)
        | TypeKind::Map(_) => true,
        TypeKind::Array(a) => a.min_items.unwrap_or(0) == 0 || has_value(ns, &a.items, known),
        TypeKind::Tuple(t) => t.elements.iter().all(|e| has_value(ns, e, known)),
        TypeKind::Object(o) => {
            o.fields.iter().flatten().all(|(_, f)| f.is_optional() || has_value(ns, &f.ty, known))
        }
        TypeKind::Union(u) => {
            u.variants.is_empty() || u.variants.iter().any(|v| has_value(ns, v, known))
        }
        TypeKind::Ref(r) => {
            let target_ns = r.namespace.as_deref().unwrap_or(ns);
            // A dangling ref is `dangling-ref`'s.
            known.get(&(target_ns.to_owned(), r.name.clone())).copied().unwrap_or(true)
        }
    }
}

/// Every named type a node refers to, anywhere below it.
fn refs_in(ns: &str, node: &TypeNode) -> Vec<Named> {
    let mut out = Vec::new();
    let mut stack = vec![node];
    while let Some(node) = stack.pop() {
        match &node.kind {
            TypeKind::Ref(r) => {
                out.push((r.namespace.as_deref().unwrap_or(ns).to_owned(), r.name.clone()));
            }
            TypeKind::Array(a) => stack.push(&a.items),
            TypeKind::Tuple(t) => stack.extend(&t.elements),
            TypeKind::Object(o) => stack.extend(o.fields.iter().flatten().map(|(_, f)| &f.ty)),
            TypeKind::Map(m) => {
                stack.extend(m.keys.as_deref());
                stack.push(&m.values);
            }
            TypeKind::Union(u) => stack.extend(&u.variants),
            _ => {}
        }
    }
    out
}
