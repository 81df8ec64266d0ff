//! `empty-type`: enums with no values and unions with no arms.

use accord_schema_model::TypeKind;

use crate::lint::LintContext;

declare_rule! {
    /// ## What it does
    /// Flags an `enum` whose `values` is empty and a `union` whose `variants` is empty.
    ///
    /// ## Why is this bad?
    /// An enum admits one of its values and a union a value one of its arms admits; with none,
    /// nothing matches, so a param of that type can never be sent and a result of it never
    /// answered. `open: true` does not help: it promises that readers cope with values added
    /// later, it does not widen what a validator admits today (format.md, section 10.4).
    ///
    /// ## Example
    /// ```json
    /// { "kind": "enum", "values": [], "open": true }
    /// ```
    ///
    /// ## Fix
    /// List the values (or arms) that exist today; a later contract version can add more to an
    /// open enum. If any value will do until then, use `{ "kind": "string" }` or `any`.
    pub(crate) struct EmptyType;
}

pub(crate) fn check(cx: &mut LintContext<'_>) {
    let mut found = Vec::new();
    for node in &cx.walk.nodes {
        match &node.node.kind {
            TypeKind::Enum(e) if e.values.is_empty() => found.push((
                node.pointer.key("values"),
                "enum with no values: no value matches it",
                "list the values that exist today (an open enum can gain more in a later version)",
            )),
            TypeKind::Union(u) if u.variants.is_empty() => found.push((
                node.pointer.key("variants"),
                "union with no arms: no value matches it",
                "list the arms, or use `any` if any value will do",
            )),
            _ => {}
        }
    }
    for (at, message, help) in found {
        cx.report(at, message, help);
    }
}
