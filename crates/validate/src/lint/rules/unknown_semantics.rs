//! `unknown-semantics`: semantics values this build does not know.

use accord_schema_model::{Pointer, Semantics};

use crate::lint::{LintContext, did_you_mean};

declare_rule! {
    /// ## What it does
    /// Flags a method whose `semantics` is a string other than `read`, `idempotent`, `write`
    /// and `destructive`.
    ///
    /// ## Why is this bad?
    /// A value this build does not know is kept and read as undeclared (format.md, section
    /// 6.1): callers that act for a person will ask before pressing the method, as if nothing
    /// had been said. That is the safe reading of a value from a newer accord, but a misspelt
    /// value (`reads`, `Idempotent`) loses what the author declared. It is a warning: the
    /// contract is valid.
    ///
    /// ## Example
    /// ```json
    /// "status": { "semantics": "readonly", "result": { "kind": "string" } }
    /// ```
    ///
    /// ## Fix
    /// Use one of the four values; keep the new value only if the contract is meant for a
    /// newer accord that knows it.
    pub(crate) struct UnknownSemantics;
}

pub(crate) fn check(cx: &mut LintContext<'_>) {
    let mut found: Vec<(Pointer, String, String)> = Vec::new();
    for m in &cx.walk.methods {
        let Some(Semantics::Unknown(text)) = &m.method.semantics else { continue };
        let known = Semantics::KNOWN.iter().map(Semantics::as_str);
        let help = match did_you_mean(text, known) {
            Some(near) => format!("did you mean `{near}`?"),
            None => "use read, idempotent, write or destructive".to_owned(),
        };
        found.push((
            m.pointer.key("semantics"),
            format!(
                "semantics `{text}` of method `{}` is not one this accord knows: it reads as undeclared — callers will ask before pressing",
                m.name
            ),
            help,
        ));
    }
    for (at, message, help) in found {
        cx.report(at, message, help);
    }
}
