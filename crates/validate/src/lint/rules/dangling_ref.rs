//! `dangling-ref`: refs to types or namespaces that do not exist.

use accord_schema_model::{Pointer, TypeKind};

use crate::Error;
use crate::lint::walk::Walk;
use crate::lint::{LintContext, did_you_mean};

declare_rule! {
    /// ## What it does
    /// Flags a `ref` whose `name` is not a type in the namespace it resolves in, or whose
    /// `namespace` is not a namespace of the document.
    ///
    /// ## Why is this bad?
    /// A ref admits what the named type admits; with no named type there is nothing to admit,
    /// so the contract cannot be compiled into validators and no value of the enclosing type
    /// can be checked. Callers reading the contract cannot tell what to send either. The reader
    /// does not check refs (format.md, section 9), so this is the first place it shows.
    ///
    /// ## Example
    /// ```json
    /// "types": {
    ///   "PumpStatus": { "kind": "object", "fields": { "speed": { "type": { "kind": "ref", "name": "Sped" } } } },
    ///   "Speed": { "kind": "integer", "min": 0 }
    /// }
    /// ```
    ///
    /// ## Fix
    /// Correct the name (refs are compared exactly, case included), add the missing type to
    /// the namespace's `types`, or name the namespace that defines it with `namespace`.
    pub(crate) struct DanglingRef;
}

/// One dangling ref.
#[derive(Debug, Clone)]
pub(crate) struct Dangling {
    /// The ref node.
    pub(crate) node: Pointer,
    /// The namespace searched, and whether the document has it.
    pub(crate) namespace: String,
    pub(crate) namespace_exists: bool,
    pub(crate) name: String,
    /// Whether the ref names its namespace explicitly.
    pub(crate) explicit: bool,
}

pub(crate) fn find(walk: &Walk<'_>) -> Vec<Dangling> {
    let mut out = Vec::new();
    for node in &walk.nodes {
        let TypeKind::Ref(r) = &node.node.kind else { continue };
        let namespace = r.namespace_in(node.namespace);
        let namespace_exists =
            walk.doc.namespaces.as_ref().is_some_and(|all| all.contains_key(namespace));
        if walk.named(namespace, &r.name).is_none() {
            out.push(Dangling {
                node: node.pointer.clone(),
                namespace: namespace.to_owned(),
                namespace_exists,
                name: r.name.clone(),
                explicit: r.namespace.is_some(),
            });
        }
    }
    out
}

pub(crate) fn check(cx: &mut LintContext<'_>) {
    let found = cx.found.dangling.clone();
    for d in &found {
        let all = cx.walk.doc.namespaces.iter().flatten();
        if !d.namespace_exists {
            let names = all.map(|(n, _)| n.as_str());
            let help = match did_you_mean(&d.namespace, names) {
                Some(near) => format!("did you mean namespace `{near}`?"),
                None => "name a namespace of this document, or add it".to_owned(),
            };
            cx.report(
                d.node.key("namespace"),
                format!(
                    "refers to type `{}` in namespace `{}`, which the document does not define",
                    d.name, d.namespace
                ),
                help,
            );
            continue;
        }
        let types: Vec<&str> = all
            .filter(|(n, _)| **n == d.namespace)
            .flat_map(|(_, ns)| ns.types.iter().flatten().map(|(t, _)| t.as_str()))
            .collect();
        let help = match did_you_mean(&d.name, types.iter().copied()) {
            Some(near) => format!("did you mean `{near}`?"),
            None if d.explicit => format!(
                "define `{}` in the `types` of namespace `{}`, or fix the name",
                d.name, d.namespace
            ),
            None => format!(
                "define `{}` in the `types` of namespace `{}`, fix the name, or add `namespace` if another namespace defines it",
                d.name, d.namespace
            ),
        };
        cx.report(
            d.node.key("name"),
            format!(
                "refers to type `{}`, which namespace `{}` does not define",
                d.name, d.namespace
            ),
            help,
        );
    }
    // What compiling refused that the walk above did not see.
    let missed: Vec<(Pointer, String, String)> = cx
        .repaired
        .errors
        .iter()
        .filter_map(|e| match e {
            Error::DanglingRef { at, namespace, name } => {
                Some((at.clone(), namespace.clone(), name.clone()))
            }
            _ => None,
        })
        .filter(|(at, ..)| !found.iter().any(|d| d.node == *at))
        .collect();
    for (at, namespace, name) in missed {
        cx.report(
            at,
            format!("refers to type `{name}`, which namespace `{namespace}` does not define"),
            format!("define `{name}` in the `types` of namespace `{namespace}`, or fix the name"),
        );
    }
}
