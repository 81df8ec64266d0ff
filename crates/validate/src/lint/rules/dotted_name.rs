//! `dotted-name`: namespace and method names with a `.`.

use std::collections::HashMap;

use accord_schema_model::Pointer;

use crate::lint::LintContext;

declare_rule! {
    /// ## What it does
    /// Flags a namespace name or a method name that contains `.`. When two methods end up
    /// with the same wire name, the message says so.
    ///
    /// ## Why is this bad?
    /// On the wire a method is called as `namespace.method` (format.md, section 8). With a
    /// `.` inside either name the wire name no longer says where the namespace ends:
    /// `pump.v2` + `start` and `pump` + `v2.start` are both `pump.v2.start`. Routers that
    /// split at the first or the last `.` send the call to different places.
    ///
    /// ## Example
    /// ```json
    /// "namespaces": { "pump.v2": { "version": "2.0.0", "methods": { "start": { "semantics": "write", "result": { "kind": "null" } } } } }
    /// ```
    ///
    /// ## Fix
    /// Use another separator inside names (`pumpV2`, `pump-v2`, `set_speed`), and keep `.`
    /// for the one between namespace and method.
    pub(crate) struct DottedName;
}

pub(crate) fn check(cx: &mut LintContext<'_>) {
    // The contract's own names, `namespace.method` (what reports, `--allow` and links name a
    // method by; `MethodRoute::qualified`), which accord's own wire also calls them by. A
    // `wire` section may give other wire names, but the contract's own names stay ambiguous,
    // so the rule judges these and never derives a wire name itself (that is `Dialect`'s).
    let mut qualified: HashMap<String, Vec<(String, String)>> = HashMap::new();
    for m in &cx.walk.methods {
        qualified
            .entry(format!("{}.{}", m.namespace, m.name))
            .or_default()
            .push((m.namespace.to_owned(), m.name.to_owned()));
    }
    let collision = |ns: &str, method: &str| -> String {
        let others: Vec<String> = qualified
            .get(&format!("{ns}.{method}"))
            .into_iter()
            .flatten()
            .filter(|(n, m)| n != ns || m != method)
            .map(|(n, m)| format!("method `{m}` of namespace `{n}`"))
            .collect();
        if others.is_empty() {
            String::new()
        } else {
            format!(", and {} has that wire name too", others.join(" and "))
        }
    };
    let help = "use another separator inside names (`pumpV2`, `set-speed`); keep `.` for the one between namespace and method";
    let mut found: Vec<(Pointer, String)> = Vec::new();
    for (ns_name, ns, ns_at) in cx.walk.namespaces() {
        if ns_name.contains('.') {
            found.push((
                ns_at.clone(),
                format!("namespace `{ns_name}` contains `.`: the wire names of its methods do not say where the namespace ends"),
            ));
        }
        for name in ns.methods.iter().flatten().map(|(n, _)| n) {
            if name.contains('.') {
                found.push((
                    ns_at.key("methods").key(name),
                    format!(
                        "method `{name}` contains `.`: its wire name `{ns_name}.{name}` does not say where the namespace ends{}",
                        collision(ns_name, name)
                    ),
                ));
            }
        }
    }
    for (at, message) in found {
        cx.report(at, message, help);
    }
}
