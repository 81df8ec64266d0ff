//! `duplicate-param`: two params of one method with the same name.

use accord_schema_model::Pointer;

use crate::lint::LintContext;

declare_rule! {
    /// ## What it does
    /// Flags a param whose `name` an earlier param of the same method already has.
    ///
    /// ## Why is this bad?
    /// A by-name call is a JSON object, which holds each name once: the two params cannot both
    /// be sent, and which one a value is for is undefined (accord's validator takes the
    /// first; a plant may take the last). The reader does not refuse it (format.md, section
    /// 5.5), since params are an array.
    ///
    /// ## Example
    /// ```json
    /// "params": [
    ///   { "name": "pump", "type": { "kind": "string" } },
    ///   { "name": "pump", "type": { "kind": "integer" } }
    /// ]
    /// ```
    ///
    /// ## Fix
    /// Rename one of the params, or remove the copy.
    pub(crate) struct DuplicateParam;
}

pub(crate) fn check(cx: &mut LintContext<'_>) {
    let mut found: Vec<(Pointer, String)> = Vec::new();
    for m in &cx.walk.methods {
        let params: Vec<&str> = m.method.params.iter().flatten().map(|p| p.name.as_str()).collect();
        for (i, name) in params.iter().enumerate() {
            if let Some(first) = params[..i].iter().position(|p| p == name) {
                found.push((
                    m.pointer.key("params").index(i).key("name"),
                    format!(
                        "method `{}` has two params named `{name}` (params {first} and {i}): a by-name call can send only one",
                        m.name
                    ),
                ));
            }
        }
    }
    for (at, message) in found {
        cx.report(at, message, "rename one of the params, or remove the copy");
    }
}
