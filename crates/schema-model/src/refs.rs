//! What a `ref` names (docs/format.md §7.12): the named type `name` in the `types` of the ref's
//! `namespace`, or of the namespace the ref stands in when it names none. The one owner of that
//! rule: the lint walk, compat-diff, accord-plant's usage counting, the validator's compiler and
//! the JSON Schema writer resolve refs through it rather than each spelling the default.

use crate::{Document, RefType, TypeKind, TypeNode};

impl RefType {
    /// The namespace whose `types` hold the named type, for a ref standing in `enclosing`.
    pub fn namespace_in<'a>(&'a self, enclosing: &'a str) -> &'a str {
        self.namespace.as_deref().unwrap_or(enclosing)
    }
}

/// Where a chain of refs ends: the first node that is not a ref.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Resolved<'d> {
    /// The namespace the node stands in.
    pub namespace: &'d str,
    /// The named type the last ref of the chain names; `None` when there was no ref.
    pub name: Option<&'d str>,
    /// The node.
    pub node: &'d TypeNode,
}

impl Document {
    /// The named type `r` names, for a ref standing in the namespace `ns`: its namespace and
    /// name as this document spells them, and its node. `None` for a dangling ref (no such
    /// namespace, or no such type in it).
    pub fn named(&self, ns: &str, r: &RefType) -> Option<(&str, &str, &TypeNode)> {
        let (ns, namespace) = self.namespaces.as_ref()?.get_key_value(r.namespace_in(ns))?;
        let (name, node) = namespace.types.as_ref()?.get_key_value(&r.name)?;
        Some((ns, name, node))
    }

    /// Follows refs from `node`, standing in `ns`, to the first node that is not a ref (a ref
    /// may name a type that is itself a ref). `None` for a dangling ref or a cycle of refs.
    pub fn through_refs<'d>(&'d self, ns: &'d str, node: &'d TypeNode) -> Option<Resolved<'d>> {
        let mut at = Resolved { namespace: ns, name: None, node };
        // More hops than named types means a cycle; counted only when there is a ref to follow.
        let mut hops = None;
        while let TypeKind::Ref(r) = &at.node.kind {
            let left = hops.get_or_insert_with(|| self.named_type_count() + 1);
            if *left == 0 {
                return None;
            }
            *left -= 1;
            let (namespace, name, node) = self.named(at.namespace, r)?;
            at = Resolved { namespace, name: Some(name), node };
        }
        Some(at)
    }

    /// How many named types the document has, across its namespaces.
    fn named_type_count(&self) -> usize {
        let namespaces = self.namespaces.iter().flat_map(|all| all.values());
        namespaces.map(|ns| ns.types.as_ref().map_or(0, |types| types.len())).sum()
    }
}
