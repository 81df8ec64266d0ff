//! `wire-unresolved`: a `wire` section that reads but does not resolve into a dialect.

use accord_schema_model::{Dialect, Document, ErrorKind};

use crate::lint::LintContext;

declare_rule! {
    /// ## What it does
    /// Flags a `wire` section (format.md §15) that the model's resolver refuses: a separator or
    /// a codes profile accord does not know, a wire name for a method or event the namespace
    /// does not have, two methods with one wire name, a method called by the name of the
    /// describe, subscribe or unsubscribe method, a plant-wide member (`describe`, `codes`,
    /// `depthLimit`) in a namespace's section, or a namespace's member (`methods`, `events`)
    /// at the document. A document without a `wire` section is accord's own wire and is not
    /// this rule's (two methods with one dotted name are `dotted-name`'s finding).
    ///
    /// ## Why is this bad?
    /// The reader keeps such a section, because it can be read; but no tool can speak to the
    /// plant through it. `accord serve`, `accord conform` and the value commands refuse the
    /// contract, and a caller cannot tell which name a method answers to or what an error
    /// code means.
    ///
    /// ## Example
    /// ```json
    /// "wire": { "separator": "-", "codes": { "profile": "eip-1474" } }
    /// ```
    ///
    /// ## Fix
    /// Use what the resolver names: a separator of `"."`, `"_"` or `""`, a profile of
    /// `accord`, `eip-1474` or `jsonrpsee`, wire names only for methods the namespace has, each
    /// name once.
    pub(crate) struct WireUnresolved;
}

pub(crate) fn check(cx: &mut LintContext<'_>) {
    // Without a `wire` section the dialect is accord's own; the one thing that can still fail
    // to resolve, two methods with one dotted wire name, is `dotted-name`'s finding.
    if !has_wire(cx.walk.doc) {
        return;
    }
    let Err(err) = Dialect::of(cx.walk.doc) else {
        return;
    };
    // The resolver stops at the first member it cannot resolve, so there is one finding.
    let message = match &*err.kind {
        ErrorKind::Wire { reason } => format!("the wire does not resolve: {reason}"),
        other => format!("the wire does not resolve: {other}"),
    };
    cx.report(
        err.pointer,
        message,
        "fix this member of the `wire` section (docs/format.md §15): tools that speak to the plant refuse the contract until it resolves",
    );
}

/// Whether `doc` has a `wire` section at the document or in any namespace.
pub(crate) fn has_wire(doc: &Document) -> bool {
    doc.wire.is_some() || doc.namespaces.iter().flatten().any(|(_, ns)| ns.wire.is_some())
}
