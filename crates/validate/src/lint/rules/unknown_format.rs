//! `unknown-format`: string formats this build does not check.

use accord_schema_model::{Pointer, TypeKind};

use crate::Format;
use crate::lint::{LintContext, did_you_mean};

declare_rule! {
    /// ## What it does
    /// Flags a string `format` that this build of accord does not check. The formats checked
    /// are `date-time`, `date`, `time`, `uuid`, `uri`, `ipv4`, `ipv6` and `hex` (format.md,
    /// section 10.3).
    ///
    /// ## Why is this bad?
    /// A format the validator does not know is accepted, as the format requires: any string
    /// passes it. That is the right reading for a designation from a newer accord, but a
    /// misspelt one (`date_time`, `UUID`) silently checks nothing, and a format from another
    /// vocabulary (`email`, `int32`) promises a check that never happens. It is a warning:
    /// the contract is valid.
    ///
    /// ## Example
    /// ```json
    /// { "kind": "string", "format": "datetime" }
    /// ```
    ///
    /// ## Fix
    /// Use one of the checked formats, or a `pattern` that states the rule; keep the format if
    /// it is documentation meant for people and other tools.
    pub(crate) struct UnknownFormat;
}

pub(crate) fn check(cx: &mut LintContext<'_>) {
    let mut found: Vec<(Pointer, String, String)> = Vec::new();
    let known: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
    for node in &cx.walk.nodes {
        let TypeKind::String(rules) = &node.node.kind else { continue };
        let Some(format) = &rules.format else { continue };
        if Format::from_name(format).is_some() {
            continue;
        }
        let help = match did_you_mean(format, known.iter().copied()) {
            Some(near) => format!("did you mean `{near}`?"),
            None => format!(
                "checked formats are {}; use a `pattern` to have the rule checked",
                known.join(", ")
            ),
        };
        found.push((
            node.pointer.key("format"),
            format!("format `{format}` is not one this accord checks: every string passes it"),
            help,
        ));
    }
    for (at, message, help) in found {
        cx.report(at, message, help);
    }
}
