//! `link-expression`: a link param value that starts with `$` but is not a runtime expression
//! this build reads.

use accord_schema_model::LinkValue;

use crate::lint::LintContext;

declare_rule! {
    /// ## What it does
    /// Flags a value of a link's `params` that starts with a single `$` and is not
    /// `$params.NAME` or `$result`, each with an optional `.`-separated path (format.md section
    /// 5.11): another source (`$method`, `$reslt`), `$params` without a name, an empty step.
    ///
    /// ## Why is this bad?
    /// The reader keeps such a value (a later accord may read more expression forms), but no
    /// tool of this build can follow the link: conform cannot make the next call from it. A
    /// text meant as a constant that happens to start with `$` reads as an expression too.
    ///
    /// ## Example
    /// ```json
    /// "links": { "ack": { "method": "ack", "params": { "id": "$reslt.id", "note": "$5 off" } } }
    /// ```
    ///
    /// ## Fix
    /// Correct the expression; write a constant text that starts with `$` as `$$`
    /// (`"$$5 off"` is the text `$5 off`).
    pub(crate) struct LinkExpression;
}

pub(crate) fn check(cx: &mut LintContext<'_>) {
    let mut found = Vec::new();
    for (m, name, link, at) in cx.walk.links() {
        for (key, value) in link.params.iter().flatten() {
            if let Err(err) = LinkValue::parse(value) {
                let message = format!("link `{name}` of method `{}`, param `{key}`: {err}", m.name);
                found.push((at.key("params").key(key), message));
            }
        }
    }
    for (at, message) in found {
        cx.report(
            at,
            message,
            "write `$params.NAME` or `$result` with an optional path such as `.0.id`; a constant text starting with `$` is written `$$`",
        );
    }
}
