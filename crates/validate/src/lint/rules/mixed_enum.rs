//! `mixed-enum`: enums with both string and integer values.

use std::collections::HashSet;

use accord_schema_model::{Pointer, TypeKind};

use crate::lint::LintContext;
use crate::lint::rules::literal_base_kind::{described, key_types};

declare_rule! {
    /// ## What it does
    /// Flags an `enum` that has both string and integer values, at the first value whose JSON
    /// type differs from the first value's. (A map's key enum is `literal-base-kind`'s, through
    /// refs and union arms: its integer values are errors there.)
    ///
    /// ## Why is this bad?
    /// The format allows it (format.md, section 7.6) and accord validates it, but most
    /// languages map an enum to one native type: code generators fall back to an untyped
    /// value, and readers comparing against string constants miss the integers. It is often
    /// a value written without its quotes.
    ///
    /// ## Example
    /// ```json
    /// { "kind": "enum", "values": ["low", "high", 3] }
    /// ```
    ///
    /// ## Fix
    /// Use one JSON type for every value (`"3"`), or a union of two enums if both really
    /// occur.
    pub(crate) struct MixedEnum;
}

pub(crate) fn check(cx: &mut LintContext<'_>) {
    let mut found: Vec<(Pointer, String)> = Vec::new();
    let keys: HashSet<Pointer> = key_types(&cx.walk).into_iter().map(|(_, _, at)| at).collect();
    for node in &cx.walk.nodes {
        let TypeKind::Enum(e) = &node.node.kind else { continue };
        if keys.contains(&node.pointer) {
            continue;
        }
        let Some(first) = e.values.first() else { continue };
        if let Some(i) = e.values.iter().position(|v| v.is_string() != first.is_string()) {
            found.push((
                node.pointer.key("values").index(i),
                format!(
                    "enum mixes strings and integers: value {i} is {}, but value 0 is {}",
                    described(&e.values[i]),
                    described(first)
                ),
            ));
        }
    }
    for (at, message) in found {
        cx.report(
            at,
            message,
            "use one JSON type for every value, or a union of two enums if both occur",
        );
    }
}
