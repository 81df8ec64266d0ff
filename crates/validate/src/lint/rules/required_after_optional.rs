//! `required-after-optional`: positional params that cannot be left out.

use accord_schema_model::{ParamStructure, Pointer};

use crate::lint::LintContext;

declare_rule! {
    /// ## What it does
    /// Flags a required param that comes after an optional one, in a method that may be
    /// called by position (`paramStructure` `by-position`, or `either`, the default).
    ///
    /// ## Why is this bad?
    /// By position, params are left out from the end only; there is no placeholder
    /// (format.md, section 10.7). A caller that must send the required param at position 2
    /// has to send something at position 1 too, so the optional param before it is not
    /// optional for any positional caller. The contract says one thing and the wire another.
    ///
    /// ## Example
    /// ```json
    /// "params": [
    ///   { "name": "pump", "type": { "kind": "string" } },
    ///   { "name": "ramp", "type": { "kind": "integer" }, "optional": true },
    ///   { "name": "rpm", "type": { "kind": "integer" } }
    /// ]
    /// ```
    ///
    /// ## Fix
    /// Move the optional params after every required one, or make the method
    /// `"paramStructure": "by-name"`, where order does not matter.
    pub(crate) struct RequiredAfterOptional;
}

pub(crate) fn check(cx: &mut LintContext<'_>) {
    let mut found: Vec<(Pointer, String)> = Vec::new();
    for m in &cx.walk.methods {
        if m.method.param_structure == Some(ParamStructure::ByName) {
            continue;
        }
        let params: Vec<_> = m.method.params.iter().flatten().collect();
        let Some(first_optional) = params.iter().position(|p| p.field.is_optional()) else {
            continue;
        };
        for (i, p) in params.iter().enumerate().skip(first_optional + 1) {
            if !p.field.is_optional() {
                found.push((
                    m.pointer.key("params").index(i),
                    format!(
                        "required param `{}` (position {i}) comes after optional param `{}` (position {first_optional}): a call by position cannot leave `{}` out",
                        p.name, params[first_optional].name, params[first_optional].name
                    ),
                ));
            }
        }
    }
    for (at, message) in found {
        cx.report(
            at,
            message,
            "move the optional params after the required ones, or make the method `\"paramStructure\": \"by-name\"`",
        );
    }
}
