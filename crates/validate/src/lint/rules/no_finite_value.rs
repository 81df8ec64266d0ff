//! `no-finite-value`: recursive types that admit no value, since every value would have to
//! contain another.

use std::collections::VecDeque;

use accord_schema_model::{TypeKind, TypeNode};

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

pub(crate) fn check(cx: &mut LintContext<'_>) {
    let walk = &cx.walk;
    // Named types by id (`Walk::named_id`): no key is allocated or hashed per look-up.
    let named = &walk.named_types;
    let mut inhabited = vec![false; named.len()];
    // Types in a ref cycle are `ref-cycle`'s to report.
    for cycle in walk.cycles() {
        for &member in &cycle.ids {
            inhabited[member] = true;
        }
    }
    // The least fixed point: a type has a value once some value can be built from types
    // already known to have one. A type is looked at again only when a type it refers to
    // gains a value (a pass over every type until nothing changes took one pass per link of a
    // chain of required refs: quadratic).
    let mut users: Vec<Vec<usize>> = vec![Vec::new(); named.len()];
    for (i, &(ns, _, node)) in named.iter().enumerate() {
        for j in refs_in(walk, ns, node) {
            users[j].push(i);
        }
    }
    let mut queue: VecDeque<usize> = (0..named.len()).collect();
    while let Some(i) = queue.pop_front() {
        let (ns, _, node) = named[i];
        if !inhabited[i] && has_value(walk, ns, node, &inhabited) {
            inhabited[i] = true;
            queue.extend(&users[i]);
        }
    }
    let empty: Vec<usize> = (0..named.len()).filter(|&i| !inhabited[i]).collect();
    if empty.is_empty() {
        return;
    }
    let mut index = vec![usize::MAX; named.len()];
    for (at, &id) in empty.iter().enumerate() {
        index[id] = at;
    }
    let edges: Vec<Vec<usize>> = empty
        .iter()
        .map(|&id| {
            let (ns, _, node) = named[id];
            refs_in(walk, ns, node)
                .into_iter()
                .map(|j| index[j])
                .filter(|&j| j != usize::MAX)
                .collect()
        })
        .collect();
    let mut found = Vec::new();
    for members in graph::cycles(&edges) {
        let first = members[0];
        let (ns, name, _) = named[empty[first]];
        let show = |i: &usize| {
            let (n, t, _) = named[empty[*i]];
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

/// Whether some finite value of `node` exists, given which named types are known to have one
/// (by id). Leaves always have values here (empty enums and impossible bounds are other rules').
fn has_value(walk: &Walk<'_>, ns: &str, node: &TypeNode, known: &[bool]) -> bool {
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
        TypeKind::Array(a) => a.min_items.unwrap_or(0) == 0 || has_value(walk, ns, &a.items, known),
        TypeKind::Tuple(t) => t.elements.iter().all(|e| has_value(walk, ns, e, known)),
        TypeKind::Object(o) => o
            .fields
            .iter()
            .flatten()
            .all(|(_, f)| f.is_optional() || has_value(walk, ns, &f.ty, known)),
        TypeKind::Union(u) => {
            u.variants.is_empty() || u.variants.iter().any(|v| has_value(walk, ns, v, known))
        }
        TypeKind::Ref(r) => {
            let target_ns = r.namespace.as_deref().unwrap_or(ns);
            // A dangling ref is `dangling-ref`'s.
            walk.named_id(target_ns, &r.name).is_none_or(|id| known[id])
        }
    }
}

/// The ids of every named type a node refers to, anywhere below it (dangling refs left out).
fn refs_in(walk: &Walk<'_>, ns: &str, node: &TypeNode) -> Vec<usize> {
    let mut out = Vec::new();
    let mut stack = vec![node];
    while let Some(node) = stack.pop() {
        match &node.kind {
            TypeKind::Ref(r) => {
                out.extend(walk.named_id(r.namespace.as_deref().unwrap_or(ns), &r.name));
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
