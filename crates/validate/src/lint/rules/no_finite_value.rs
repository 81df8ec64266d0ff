//! `no-finite-value`: recursive types that admit no value, since every value would have to
//! contain another.

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
    let named = &walk.named.list;
    // Types in a ref cycle are `ref-cycle`'s to report: taken to have a value.
    let mut assumed = vec![false; named.len()];
    for cycle in &cx.found.cycles {
        for &member in &cycle.ids {
            assumed[member] = true;
        }
    }
    let inhabited = walk.named.inhabited(assumed);
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
            walk.named
                .refs_in(ns, node)
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
