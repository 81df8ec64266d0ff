//! `undeclared-semantics`: methods that do not say what calling them does.

use accord_schema_model::Pointer;

use crate::lint::LintContext;

declare_rule! {
    /// ## What it does
    /// Flags a method without `semantics`.
    ///
    /// ## Why is this bad?
    /// `semantics` says what calling the method does to the plant: nothing (`read`), an effect
    /// harmless to repeat (`idempotent`), an effect (`write`), or one that removes or
    /// overwrites state (`destructive`). Without it the method is undeclared, which means
    /// "ask before pressing this" (format.md, section 6.1): tools that call methods for a
    /// person must ask that person first, and retries cannot be made safe. It is a warning:
    /// sometimes the effect really is unknown, and saying nothing is then the honest choice.
    ///
    /// ## Example
    /// ```json
    /// "runSelfTest": { "result": { "kind": "object" } }
    /// ```
    ///
    /// ## Fix
    /// Declare the semantics: `"semantics": "read"`, `"idempotent"`, `"write"` or
    /// `"destructive"`. If the effect is unknown, say why in the `description` and leave it
    /// undeclared.
    pub(crate) struct UndeclaredSemantics;
}

pub(crate) fn check(cx: &mut LintContext<'_>) {
    let found: Vec<(Pointer, String)> = cx
        .walk
        .methods
        .iter()
        .filter(|m| m.method.semantics.is_none())
        .map(|m| {
            (
                m.pointer.clone(),
                format!(
                    "method `{}.{}` declares no semantics: undeclared — callers will ask before pressing",
                    m.namespace, m.name
                ),
            )
        })
        .collect();
    for (at, message) in found {
        cx.report(at, message, "declare `semantics`: read, idempotent, write or destructive");
    }
}
