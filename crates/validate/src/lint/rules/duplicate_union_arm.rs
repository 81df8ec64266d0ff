//! `duplicate-union-arm`: a union listing the same type twice.

use accord_schema_model::{Pointer, TypeKind, TypeNode};

use crate::lint::LintContext;

declare_rule! {
    /// ## What it does
    /// Flags an arm of a `union` that is the same type as an earlier arm of the same union:
    /// their canonical JSON is equal once the documentation members (`description`,
    /// `deprecated`, `examples`, on the arm and on every node and field inside it) are set
    /// aside. Refs are compared by name, not by what they resolve to.
    ///
    /// ## Why is this bad?
    /// A union admits what any arm admits, so the second copy adds nothing; it is usually a
    /// copy-paste that was meant to be edited (another literal, another field). In a
    /// discriminated union the two arms carry the same tag, and code generators emit two
    /// variants that cannot be told apart.
    ///
    /// ## Example
    /// ```json
    /// { "kind": "union", "variants": [{ "kind": "string" }, { "kind": "null" }, { "kind": "string", "description": "text" }] }
    /// ```
    ///
    /// ## Fix
    /// Remove the repeated arm, or change it into the arm it was meant to be.
    pub(crate) struct DuplicateUnionArm;
}

pub(crate) fn check(cx: &mut LintContext<'_>) {
    let mut found: Vec<(Pointer, String)> = Vec::new();
    for node in &cx.walk.nodes {
        let TypeKind::Union(u) = &node.node.kind else { continue };
        let shapes: Vec<serde_json::Value> = u.variants.iter().map(shape).collect();
        for (i, s) in shapes.iter().enumerate() {
            if let Some(first) = shapes[..i].iter().position(|earlier| earlier == s) {
                found.push((
                    node.pointer.key("variants").index(i),
                    format!("arm {i} is the same type as arm {first}: it admits nothing the union does not already admit"),
                ));
            }
        }
    }
    for (at, message) in found {
        cx.report(
            at,
            message,
            "remove the repeated arm, or change it into the arm it was meant to be",
        );
    }
}

/// The node's canonical JSON without its documentation.
fn shape(node: &TypeNode) -> serde_json::Value {
    node.without_docs().to_value()
}
