//! `cause-event-unknown`: a method says it causes an event the document does not define.

use crate::lint::{LintContext, did_you_mean};

declare_rule! {
    /// ## What it does
    /// Flags an item of a method's `causes` (format.md section 5.12) whose `event` is not an
    /// event of the namespace it names, or whose `namespace` is not a namespace of the
    /// document.
    ///
    /// ## Why is this bad?
    /// `causes` tells subscribers and conform which notifications a call leads to; conform
    /// subscribes to them before it calls. An event the contract does not define cannot be
    /// subscribed to, and its payload cannot be checked.
    ///
    /// ## Example
    /// ```json
    /// "enqueue": { "result": { "kind": "null" }, "causes": [{ "event": "jobQueued" }] }
    /// ```
    /// with the namespace's event named `jobEnqueued`.
    ///
    /// ## Fix
    /// Correct the name, add `namespace` when the event is in another namespace, or remove the
    /// item.
    pub(crate) struct CauseEventUnknown;
}

pub(crate) fn check(cx: &mut LintContext<'_>) {
    let mut found = Vec::new();
    let doc = cx.walk.doc;
    for m in &cx.walk.methods {
        for (i, cause) in m.method.causes.iter().flatten().enumerate() {
            let at = m.pointer.key("causes").index(i);
            let (ns, event) = cause.target(m.namespace);
            let Some(namespace) = doc.namespaces.as_ref().and_then(|all| all.get(ns)) else {
                let names = doc.namespaces.iter().flatten().map(|(n, _)| n.as_str());
                let help = match did_you_mean(ns, names) {
                    Some(near) => format!("did you mean namespace `{near}`?"),
                    None => "name a namespace of this document, or remove the item".to_owned(),
                };
                let message = format!(
                    "method `{}` causes an event of namespace `{ns}`, which the document does not define",
                    m.name
                );
                found.push((at.key("namespace"), message, help));
                continue;
            };
            let events: Vec<&str> =
                namespace.events.iter().flatten().map(|(e, _)| e.as_str()).collect();
            if events.contains(&event) {
                continue;
            }
            let help = match did_you_mean(event, events.iter().copied()) {
                Some(near) => format!("did you mean `{near}`?"),
                None => format!(
                    "name an event of namespace `{ns}`, add `namespace` if another namespace has it, or remove the item"
                ),
            };
            let message = format!(
                "method `{}` causes event `{event}`, which namespace `{ns}` does not define",
                m.name
            );
            found.push((at.key("event"), message, help));
        }
    }
    for (at, message, help) in found {
        cx.report(at, message, help);
    }
}
