//! `ref-cycle`: named types that are aliases or unions of themselves.

use accord_schema_model::{Pointer, TypeKind, TypeNode};

use crate::Error;
use crate::lint::walk::Walk;
use crate::lint::{LintContext, graph};

declare_rule! {
    /// ## What it does
    /// Flags named types that reach themselves through refs and union arms alone, without an
    /// object, array, tuple or map in between: `A = B`, `B = A`, or `T = T | null`.
    ///
    /// ## Why is this bad?
    /// Checking a value against such a type goes round the cycle without ever looking inside
    /// the value, so it would never end; the contract does not compile (format.md, section
    /// 10.6). Code generators fail on it the same way. Even `T = T | null`, which seems to
    /// admit `null`, says nothing that `null` alone does not.
    ///
    /// ## Example
    /// ```json
    /// "types": {
    ///   "Reading": { "kind": "union", "variants": [{ "kind": "ref", "name": "Sample" }, { "kind": "null" }] },
    ///   "Sample": { "kind": "ref", "name": "Reading" }
    /// }
    /// ```
    ///
    /// ## Fix
    /// Say what the values are: replace one of the refs in the cycle by the type it was meant
    /// to stand for, or move the recursion inside an object field, an array or a map, where
    /// each step consumes part of the value.
    pub(crate) struct RefCycle;
}

/// A named type, as `(namespace, name)`.
type Named = (String, String);

/// One cycle: its members in document order, and one path round it from the first.
#[derive(Debug)]
pub(crate) struct Cycle {
    pub(crate) members: Vec<Named>,
    /// The members' ids ([`Walk::named_id`]), in the same order.
    pub(crate) ids: Vec<usize>,
    pub(crate) path: Vec<Named>,
}

/// The ids of the named types a node stands for directly: through refs, and into union arms.
fn alias_targets(walk: &Walk<'_>, namespace: &str, node: &TypeNode) -> Vec<usize> {
    let mut out = Vec::new();
    let mut stack = vec![node];
    while let Some(node) = stack.pop() {
        match &node.kind {
            TypeKind::Ref(r) => {
                let ns = r.namespace_in(namespace);
                out.extend(walk.named_id(ns, &r.name));
            }
            TypeKind::Union(u) => stack.extend(u.variants.iter().rev()),
            _ => {}
        }
    }
    out
}

/// The cycles of the ref graph; [`Walk::cycles`] keeps them, so that they are found once.
pub(crate) fn find(walk: &Walk<'_>) -> Vec<Cycle> {
    let edges: Vec<Vec<usize>> =
        walk.named.list.iter().map(|&(ns, _, node)| alias_targets(walk, ns, node)).collect();
    let named = |id: usize| {
        let (ns, name, _) = walk.named.list[id];
        (ns.to_owned(), name.to_owned())
    };
    graph::cycles(&edges)
        .into_iter()
        .map(|ids| Cycle {
            path: graph::shortest_cycle(ids[0], &ids, &edges).into_iter().map(named).collect(),
            members: ids.iter().map(|&m| named(m)).collect(),
            ids,
        })
        .collect()
}

pub(crate) fn check(cx: &mut LintContext<'_>) {
    const HELP: &str = "replace a ref of the cycle by the type it stands for, or move the recursion into an object field, array or map";
    let cycles = &cx.found.cycles;
    let mut found: Vec<(Pointer, String)> = Vec::new();
    for cycle in cycles {
        let (ns, name) = &cycle.members[0];
        let show = |(n, t): &Named| if n == ns { t.clone() } else { format!("{n}.{t}") };
        let path: Vec<String> = cycle.path.iter().map(show).collect();
        let how = if cycle.path.len() == 2 {
            "is a union arm or alias of itself".to_owned()
        } else {
            format!(
                "refers back to itself through refs and union arms alone ({})",
                path.join(" → ")
            )
        };
        found.push((
            Walk::named_pointer(ns, name),
            format!("type `{name}` {how}: checking a value against it would never end"),
        ));
    }
    let missed = cx
        .repaired
        .errors
        .iter()
        .filter_map(|e| match e {
            Error::RefCycle { at, name } => Some((at.clone(), name.clone())),
            _ => None,
        })
        .filter(|(at, _)| {
            !cycles.iter().flat_map(|c| &c.members).any(|(ns, n)| Walk::named_pointer(ns, n) == *at)
        })
        .map(|(at, name)| {
            (at, format!("type `{name}` refers back to itself through refs and union arms alone: checking a value against it would never end"))
        });
    found.extend(missed);
    for (at, message) in found {
        cx.report(at, message, HELP);
    }
}
