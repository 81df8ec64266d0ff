//! Which named types have a finite value. A type whose every value must contain another value
//! of itself (`Node = { next: Node }`, `next` required) has none: no JSON value matches it. One
//! owner for the analysis: `accord check`'s `no-finite-value` reports such types, and extract
//! never writes one (a Rust `struct T { f: Box<T> }` lowers to exactly that).

use std::collections::VecDeque;

use crate::{Document, TypeKind, TypeNode};

/// The document's named types, numbered in document order (namespace by namespace), with a
/// look-up that allocates nothing: the document's own ordered maps give both indexes.
#[derive(Debug, Clone)]
pub struct NamedTypes<'d> {
    doc: &'d Document,
    /// `(namespace, name, type)` by id.
    pub list: Vec<(&'d str, &'d str, &'d TypeNode)>,
    /// The id of each namespace's first type, by the namespace's index.
    first_id: Vec<usize>,
}

impl<'d> NamedTypes<'d> {
    /// The named types of `doc`.
    pub fn of(doc: &'d Document) -> NamedTypes<'d> {
        let mut first_id = Vec::new();
        let mut list = Vec::new();
        for (ns, n) in doc.namespaces.iter().flatten() {
            first_id.push(list.len());
            list.extend(n.types.iter().flatten().map(|(t, node)| (ns.as_str(), t.as_str(), node)));
        }
        NamedTypes { doc, list, first_id }
    }

    /// The id of the named type `namespace.name`, if the document defines it.
    pub fn id(&self, namespace: &str, name: &str) -> Option<usize> {
        let (ns_index, _, ns) = self.doc.namespaces.as_ref()?.get_full(namespace)?;
        Some(self.first_id[ns_index] + ns.types.as_ref()?.get_index_of(name)?)
    }

    /// The ids of every named type `node` (found in namespace `ns`) refers to, anywhere below
    /// it; dangling refs left out.
    pub fn refs_in(&self, ns: &str, node: &TypeNode) -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack = vec![node];
        while let Some(node) = stack.pop() {
            if let TypeKind::Ref(r) = &node.kind {
                out.extend(self.id(r.namespace_in(ns), &r.name));
            }
            stack.extend(node.children());
        }
        out
    }

    /// Which named types (by id) have a finite value: the least fixed point, from `assumed`
    /// (types taken to have one whatever they hold, such as those another finding already
    /// covers). Leaves always have values here: an empty enum or impossible bounds are other
    /// findings. A type is looked at again only when a type it refers to gains a value (a pass
    /// over every type until nothing changes would take one pass per link of a chain).
    pub fn inhabited(&self, mut assumed: Vec<bool>) -> Vec<bool> {
        assumed.resize(self.list.len(), false);
        let mut users: Vec<Vec<usize>> = vec![Vec::new(); self.list.len()];
        for (i, &(ns, _, node)) in self.list.iter().enumerate() {
            for j in self.refs_in(ns, node) {
                users[j].push(i);
            }
        }
        let mut known = assumed;
        let mut queue: VecDeque<usize> = (0..self.list.len()).collect();
        while let Some(i) = queue.pop_front() {
            let (ns, _, node) = self.list[i];
            if !known[i] && self.has_value(ns, node, &known) {
                known[i] = true;
                queue.extend(&users[i]);
            }
        }
        known
    }

    /// Whether some finite value of `node` exists, given which named types are `known` to have
    /// one (by id).
    pub fn has_value(&self, ns: &str, node: &TypeNode, known: &[bool]) -> bool {
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
            TypeKind::Array(a) => {
                a.min_items.unwrap_or(0) == 0 || self.has_value(ns, &a.items, known)
            }
            TypeKind::Tuple(t) => t.elements.iter().all(|e| self.has_value(ns, e, known)),
            TypeKind::Object(o) => o
                .fields
                .iter()
                .flatten()
                .all(|(_, f)| f.is_optional() || self.has_value(ns, &f.ty, known)),
            TypeKind::Union(u) => {
                u.variants.is_empty() || u.variants.iter().any(|v| self.has_value(ns, v, known))
            }
            TypeKind::Ref(r) => {
                // A dangling ref is another finding.
                self.id(r.namespace_in(ns), &r.name).is_none_or(|id| known[id])
            }
        }
    }
}
