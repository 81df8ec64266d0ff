//! `invalid-default`: defaults their own type refuses.

use accord_schema_model::Pointer;

use crate::ValidationError;
use crate::lint::{LintContext, join_pointer};

declare_rule! {
    /// ## What it does
    /// Checks every type node's `default` against that node, with the validator compiled from
    /// the contract (refs resolved, patterns and formats checked), and flags each way it does
    /// not match, at the place inside the default where it does not.
    ///
    /// ## Why is this bad?
    /// The default is the value a reader assumes when the value is absent (format.md, section
    /// 7.1). A default the type refuses means every caller that leaves the value out gets a
    /// value the contract forbids: the plant either rejects its own default or runs with a
    /// value nobody checked. It is usually a bound or a unit that changed without the default.
    ///
    /// ## Example
    /// ```json
    /// { "kind": "integer", "min": 5, "max": 600, "unit": "s", "default": 0 }
    /// ```
    ///
    /// ## Fix
    /// Change the default to a value the type admits, or widen the type if the default is
    /// right.
    pub(crate) struct InvalidDefault;
}

pub(crate) fn check(cx: &mut LintContext<'_>) {
    let mut found: Vec<(Pointer, String, String)> = Vec::new();
    for node in &cx.walk.nodes {
        let Some(default) = &node.node.default else { continue };
        let Some(validator) = cx.repaired.node_validator(node) else { continue };
        if let Err(errors) = validator.validate(default) {
            let at = node.pointer.key("default");
            found.extend(described(
                &at,
                "the default does not match its type",
                &errors,
                "a reader that assumes this default holds a value the type refuses: change the default, or the type",
            ));
        }
    }
    for (at, message, help) in found {
        cx.report(at, message, help);
    }
}

/// One finding per validation error, at the value's place in the document. `subject` says
/// what does not match what ("the default does not match its type").
pub(crate) fn described(
    base: &Pointer,
    subject: &str,
    errors: &[ValidationError],
    help: &str,
) -> Vec<(Pointer, String, String)> {
    let inside = |pointer: &str| {
        if pointer.is_empty() { String::new() } else { format!(" at `{pointer}`") }
    };
    errors
        .iter()
        .map(|e| {
            let at = join_pointer(base, &e.pointer);
            let message = format!(
                "{subject}: expected {}{}, found {}",
                e.expected,
                inside(&e.pointer),
                e.found
            );
            let help = match e.nearest.first() {
                Some(n) => format!(
                    "the nearest arm expects {}{}, found {}; {help}",
                    n.expected,
                    inside(&n.pointer),
                    n.found
                ),
                None => help.to_owned(),
            };
            (at, message, help)
        })
        .collect()
}
