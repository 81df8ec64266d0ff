//! `link-param-unknown`: a link gives a param the linked method does not have.

use crate::lint::{LintContext, and_list, did_you_mean};

declare_rule! {
    /// ## What it does
    /// Flags a member of a link's `params` (format.md section 5.11) that names no param of the
    /// linked method.
    ///
    /// ## Why is this bad?
    /// The link's params are what the next call sends, by name. A name the linked method does
    /// not have is a value sent nowhere: the call the link describes is missing the param that
    /// was meant (usually misspelt), and a plant that refuses unknown params refuses the call.
    ///
    /// ## Example
    /// ```json
    /// "claim": {
    ///   "result": { "kind": "array", "items": { "kind": "ref", "name": "Lease" } },
    ///   "links": { "ack": { "method": "ack", "params": { "jobId": "$result.0.job.id" } } }
    /// }
    /// ```
    /// with `ack` taking `id` and `token`.
    ///
    /// ## Fix
    /// Use the linked method's param name, or remove the member.
    pub(crate) struct LinkParamUnknown;
}

pub(crate) fn check(cx: &mut LintContext<'_>) {
    let mut found = Vec::new();
    for (m, name, link, at) in cx.walk.links() {
        let (ns, method) = link.target(m.namespace);
        // A target that does not exist is `link-method-unknown`'s.
        let Some(target) = cx.walk.method(ns, method) else { continue };
        let params: Vec<&str> = target.params.iter().flatten().map(|p| p.name.as_str()).collect();
        for key in link.params.iter().flat_map(|all| all.keys()) {
            if params.contains(&key.as_str()) {
                continue;
            }
            let help = match did_you_mean(key, params.iter().copied()) {
                Some(near) => format!("did you mean `{near}`?"),
                None if params.is_empty() => format!("`{method}` takes no params: remove it"),
                None => {
                    let names: Vec<String> = params.iter().map(|p| format!("`{p}`")).collect();
                    format!("`{method}` takes {}", and_list(&names))
                }
            };
            let message = format!(
                "link `{name}` of method `{}` gives param `{key}`, which method `{method}` does not have",
                m.name
            );
            found.push((at.key("params").key(key), message, help));
        }
    }
    for (at, message, help) in found {
        cx.report(at, message, help);
    }
}
