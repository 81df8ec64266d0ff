//! `ref-cycle`: named types that are aliases or unions of themselves.

use std::collections::HashMap;

use accord_schema_model::{TypeKind, TypeNode};

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
    pub(crate) path: Vec<Named>,
}

/// The named types a node stands for directly: through refs, and into union arms.
fn alias_targets(walk: &Walk<'_>, namespace: &str, node: &TypeNode) -> Vec<Named> {
    let mut out = Vec::new();
    let mut stack = vec![node];
    while let Some(node) = stack.pop() {
        match &node.kind {
            TypeKind::Ref(r) => {
                let ns = r.namespace.as_deref().unwrap_or(namespace);
                if walk.named(ns, &r.name).is_some() {
                    out.push((ns.to_owned(), r.name.clone()));
                }
            }
            TypeKind::Union(u) => stack.extend(u.variants.iter().rev()),
            _ => {}
        }
    }
    out
}

pub(crate) fn find(walk: &Walk<'_>) -> Vec<Cycle> {
    let named: Vec<Named> = walk
        .namespaces()
        .flat_map(|(ns, n, _)| {
            n.types.iter().flatten().map(move |(t, _)| (ns.to_owned(), t.clone()))
        })
        .collect();
    let index: HashMap<&Named, usize> = named.iter().enumerate().map(|(i, n)| (n, i)).collect();
    let edges: Vec<Vec<usize>> = named
        .iter()
        .map(|(ns, name)| {
            let node = walk.named(ns, name).expect("listed from the document");
            alias_targets(walk, ns, node).iter().filter_map(|t| index.get(t).copied()).collect()
        })
        .collect();
    graph::cycles(&edges)
        .into_iter()
        .map(|members| Cycle {
            path: graph::shortest_cycle(members[0], &members, &edges)
                .into_iter()
                .map(|m| named[m].clone())
                .collect(),
            members: members.iter().map(|&m| named[m].clone()).collect(),
        })
        .collect()
}

pub(crate) fn check(cx: &mut LintContext<'_>) {
    let cycles = find(&cx.walk);
    for cycle in &cycles {
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
        cx.report(
            Walk::named_pointer(ns, name),
            format!("type `{name}` {how}: checking a value against it would never end"),
            "replace a ref of the cycle by the type it stands for, or move the recursion into an object field, array or map",
        );
    }
    let missed: Vec<(accord_schema_model::Pointer, String)> = cx
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
        .collect();
    for (at, name) in missed {
        cx.report(
            at,
            format!("type `{name}` refers back to itself through refs and union arms alone: checking a value against it would never end"),
            "replace a ref of the cycle by the type it stands for, or move the recursion into an object field, array or map",
        );
    }
}
