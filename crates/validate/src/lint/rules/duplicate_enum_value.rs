//! `duplicate-enum-value`: an enum listing a value twice.

use accord_schema_model::{Pointer, TypeKind};

use crate::lint::{LintContext, show};
use crate::number::json_equal;

declare_rule! {
    /// ## What it does
    /// Flags a value of an `enum` that an earlier value of the same enum already lists.
    ///
    /// ## Why is this bad?
    /// The second copy adds nothing to what the enum admits, and code generators emit two
    /// constants of one name (a compile error in most languages) or silently drop one. It is
    /// usually a value that was meant to be renamed. The reader accepts it (format.md,
    /// section 7.6).
    ///
    /// ## Example
    /// ```json
    /// { "kind": "enum", "values": ["stopped", "running", "stopped"] }
    /// ```
    ///
    /// ## Fix
    /// Remove the repeated value, or rename it to the value it was meant to be.
    pub(crate) struct DuplicateEnumValue;
}

pub(crate) fn check(cx: &mut LintContext<'_>) {
    let mut found: Vec<(Pointer, String)> = Vec::new();
    for node in &cx.walk.nodes {
        let TypeKind::Enum(e) = &node.node.kind else { continue };
        for (i, v) in e.values.iter().enumerate() {
            if let Some(first) = e.values[..i].iter().position(|earlier| json_equal(earlier, v)) {
                found.push((
                    node.pointer.key("values").index(i),
                    format!("the value {} is listed twice (values {first} and {i})", show(v)),
                ));
            }
        }
    }
    for (at, message) in found {
        cx.report(
            at,
            message,
            "remove the repeated value, or rename it to the value it was meant to be",
        );
    }
}
