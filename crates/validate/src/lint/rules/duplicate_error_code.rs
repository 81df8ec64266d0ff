//! `duplicate-error-code`: one error code declared twice by a method.

use accord_schema_model::Pointer;

use crate::lint::LintContext;

declare_rule! {
    /// ## What it does
    /// Flags a declared error whose `code` an earlier error of the same method already has.
    ///
    /// ## Why is this bad?
    /// A JSON-RPC error is identified by its code: a caller that receives it cannot tell which
    /// of the two declarations it is, which `message` to expect, or which type its `data` has
    /// (accord checks `data` against one of them only). Two meanings under one code are
    /// usually one error described twice, or a copy whose code was not changed.
    ///
    /// ## Example
    /// ```json
    /// "errors": [
    ///   { "code": -32010, "message": "pump interlocked" },
    ///   { "code": -32010, "message": "pump already running" }
    /// ]
    /// ```
    ///
    /// ## Fix
    /// Give each error its own code, or merge the two declarations into one.
    pub(crate) struct DuplicateErrorCode;
}

pub(crate) fn check(cx: &mut LintContext<'_>) {
    let mut found: Vec<(Pointer, String)> = Vec::new();
    for m in &cx.walk.methods {
        let codes: Vec<i64> = m.method.errors.iter().flatten().map(|e| e.code).collect();
        for (i, code) in codes.iter().enumerate() {
            if let Some(first) = codes[..i].iter().position(|c| c == code) {
                found.push((
                    m.pointer.key("errors").index(i).key("code"),
                    format!(
                        "method `{}` declares the error code {code} twice (errors {first} and {i}): a caller cannot tell them apart",
                        m.name
                    ),
                ));
            }
        }
    }
    for (at, message) in found {
        cx.report(at, message, "give each error its own code, or merge the two declarations");
    }
}
