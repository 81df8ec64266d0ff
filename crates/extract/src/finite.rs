//! Never write what `accord check` refuses, part two: a Rust type whose every value contains
//! another of itself (`struct T { next: Box<T> }`: no `Option`, no `Vec`) lowers to a type with
//! no finite value, which check's `no-finite-value` refuses. Such a type can never be built, so
//! no plant sends or reads one; it reads as any value, with warning `no-finite-value` (an error
//! under `--strict`). The analysis is the model's own (`accord_schema_model::inhabited`), the
//! one check runs.

use accord_schema_model::inhabited::NamedTypes;
use accord_schema_model::{Document, Namespace, TypeKind};
use indexmap::IndexMap;

use crate::diagnostic::{Diagnostics, Location};
use crate::pointer_escape;
use crate::unions::place;

/// Widens to any value one type of each cycle of types without a finite value (the first in
/// document order), until every type has one: the rest of a cycle, and the types that only lead
/// into it, have a value once one member is widened.
pub(crate) fn widen_types_without_value(
    namespaces: &mut IndexMap<String, Namespace>,
    provenance: &[(String, Location)],
    diags: &mut Diagnostics,
) {
    // Each round widens one type, so the rounds are at most the types.
    while let Some((ns, name)) = first_on_empty_cycle(namespaces) {
        let pointer =
            format!("/namespaces/{}/types/{}", pointer_escape(&ns), pointer_escape(&name));
        diags.undescribed(
            "no-finite-value",
            place(&pointer, provenance),
            format!(
                "type `{name}` has no finite value: every value of it must contain another one (through required fields, tuples or non-empty arrays), so no plant can send or read it"
            ),
            Some("end the recursion in the Rust type: `Option<Box<…>>` or a `Vec<…>` for the recursive field".into()),
        );
        let t =
            namespaces.get_mut(&ns).and_then(|n| n.types.as_mut()).and_then(|t| t.get_mut(&name));
        match t {
            Some(t) => t.kind = TypeKind::Any,
            None => return,
        }
    }
}

/// The first type (in document order) on a cycle of types without a finite value.
fn first_on_empty_cycle(namespaces: &mut IndexMap<String, Namespace>) -> Option<(String, String)> {
    let doc = Document { namespaces: Some(std::mem::take(namespaces)), ..Document::default() };
    let mut widen: Vec<(String, String)> = Vec::new();
    {
        let named = NamedTypes::of(&doc);
        let inhabited = named.inhabited(Vec::new());
        let empty = |id: usize| !inhabited[id];
        for (id, &(ns, name, node)) in named.list.iter().enumerate() {
            if !empty(id) {
                continue;
            }
            // On a cycle of empty types: it reaches itself through empty types.
            let mut seen = vec![false; named.list.len()];
            let mut stack: Vec<usize> =
                named.refs_in(ns, node).into_iter().filter(|&j| empty(j)).collect();
            let mut on_cycle = false;
            while let Some(j) = stack.pop() {
                if j == id {
                    on_cycle = true;
                    break;
                }
                if std::mem::replace(&mut seen[j], true) {
                    continue;
                }
                let (jns, _, jnode) = named.list[j];
                stack.extend(named.refs_in(jns, jnode).into_iter().filter(|&k| empty(k)));
            }
            if on_cycle {
                widen.push((ns.to_owned(), name.to_owned()));
                break;
            }
        }
    }
    *namespaces = doc.namespaces.unwrap_or_default();
    widen.pop()
}
