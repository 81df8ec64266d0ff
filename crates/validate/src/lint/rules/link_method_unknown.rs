//! `link-method-unknown`: a link to a method, or a namespace, that the document does not define.

use crate::lint::{LintContext, did_you_mean};

declare_rule! {
    /// ## What it does
    /// Flags a link (a method's `links`, format.md section 5.11) whose `method` is not a method
    /// of the namespace it names, or whose `namespace` is not a namespace of the document.
    ///
    /// ## Why is this bad?
    /// A link says that a call of this method gives what another method needs. With no such
    /// method there is nothing to call: conform cannot walk the flow, the console cannot offer
    /// the next step, and a reader of the contract is sent to a method that is not there. The
    /// reader does not check links (format.md, section 9), so this is the first place it shows.
    ///
    /// ## Example
    /// ```json
    /// "enqueue": {
    ///   "result": { "kind": "object", "fields": { "id": { "type": { "kind": "string" } } } },
    ///   "links": { "claim": { "method": "clam", "params": { "queue": "$params.queue" } } }
    /// }
    /// ```
    ///
    /// ## Fix
    /// Correct the name (a method's name in `methods`, not its wire name), add `namespace` when
    /// the method is in another namespace, or remove the link.
    pub(crate) struct LinkMethodUnknown;
}

pub(crate) fn check(cx: &mut LintContext<'_>) {
    let mut found = Vec::new();
    for (m, name, link, at) in cx.walk.links() {
        let (ns, method) = link.target(m.namespace);
        if !cx.walk.has_namespace(ns) {
            let names = cx.walk.doc.namespaces.iter().flatten().map(|(n, _)| n.as_str());
            let help = match did_you_mean(ns, names) {
                Some(near) => format!("did you mean namespace `{near}`?"),
                None => "name a namespace of this document, or remove the link".to_owned(),
            };
            let message = format!(
                "link `{name}` of method `{}` names namespace `{ns}`, which the document does not define",
                m.name
            );
            found.push((at.key("namespace"), message, help));
        } else if cx.walk.method(ns, method).is_none() {
            let methods = cx.walk.doc.namespaces.iter().flatten().filter(|(n, _)| *n == ns);
            let names =
                methods.flat_map(|(_, n)| n.methods.iter().flatten().map(|(k, _)| k.as_str()));
            let help = match did_you_mean(method, names) {
                Some(near) => format!("did you mean `{near}`?"),
                None => format!(
                    "name a method of namespace `{ns}` (by its name in `methods`), add `namespace` if another namespace has it, or remove the link"
                ),
            };
            let message = format!(
                "link `{name}` of method `{}` leads to method `{method}`, which namespace `{ns}` does not define",
                m.name
            );
            found.push((at.key("method"), message, help));
        }
    }
    for (at, message, help) in found {
        cx.report(at, message, help);
    }
}
