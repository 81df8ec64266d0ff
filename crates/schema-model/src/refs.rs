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
        let start = Resolved { namespace: ns, name: None, node };
        // A cycle is found by a second walker at half the speed (Floyd's): it meets the first
        // only on a cycle. No set and no count of the document's types, so a resolution costs
        // the chain's length, however large the document.
        let (mut fast, mut slow) = (start, start);
        let mut hops = 0u64;
        while let Some(next) = self.hop(fast) {
            fast = next?;
            hops += 1;
            if hops.is_multiple_of(2) {
                slow = self.hop(slow).flatten()?;
            }
            if std::ptr::eq(fast.node, slow.node) {
                return None;
            }
        }
        Some(fast)
    }

    /// One step along a chain of refs: `None` when `at` is no ref, `Some(None)` when it
    /// dangles.
    fn hop<'d>(&'d self, at: Resolved<'d>) -> Option<Option<Resolved<'d>>> {
        let TypeKind::Ref(r) = &at.node.kind else { return None };
        Some(self.named(at.namespace, r).map(|(namespace, name, node)| Resolved {
            namespace,
            name: Some(name),
            node,
        }))
    }
}
