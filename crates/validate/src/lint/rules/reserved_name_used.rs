//! `reserved-name-used`: names reused after they were retired.

use accord_schema_model::{Pointer, Reserved, TypeKind};

use crate::lint::LintContext;

declare_rule! {
    /// ## What it does
    /// Flags a name that is in use and also in the `reserved` list of its scope:
    ///
    /// - a method, event or type whose name is in its namespace's `reserved`;
    /// - a field whose name is in its object's `reserved`;
    /// - an enum value (a string) that is in its enum's `reserved`.
    ///
    /// ## Why is this bad?
    /// A reserved name is one that was removed and may never be reused (format.md, section
    /// 5.10): old callers, stored messages and logs still use it with its old meaning. Giving
    /// it a new one makes an old client call the new method, read the new field, or take the
    /// new enum value for the old one, with nothing to warn either side.
    ///
    /// ## Example
    /// ```json
    /// "methods": { "boost": { "semantics": "write", "result": { "kind": "null" } } },
    /// "reserved": [{ "name": "boost", "note": "removed in 1.3.0; it overdrove the seals" }]
    /// ```
    ///
    /// ## Fix
    /// Choose another name. If the old element is back with its old meaning, remove the name
    /// from `reserved` instead, knowing that clients built in between never had it.
    pub(crate) struct ReservedNameUsed;
}

fn entry<'r>(reserved: &'r Option<Vec<Reserved>>, name: &str) -> Option<&'r Reserved> {
    reserved.iter().flatten().find(|r| r.name == name)
}

fn help(r: &Reserved) -> String {
    match &r.note {
        Some(note) => format!("choose another name; it was reserved because: {note}"),
        None => {
            "choose another name: a reserved name keeps its old meaning for old clients".to_owned()
        }
    }
}

pub(crate) fn check(cx: &mut LintContext<'_>) {
    let mut found: Vec<(Pointer, String, String)> = Vec::new();
    for (ns_name, ns, ns_at) in cx.walk.namespaces() {
        let groups = [
            ("method", "methods", ns.methods.iter().flatten().map(|(n, _)| n).collect::<Vec<_>>()),
            ("event", "events", ns.events.iter().flatten().map(|(n, _)| n).collect()),
            ("type", "types", ns.types.iter().flatten().map(|(n, _)| n).collect()),
        ];
        for (what, member, names) in groups {
            for name in names {
                if let Some(r) = entry(&ns.reserved, name) {
                    found.push((
                        ns_at.key(member).key(name),
                        format!("{what} `{name}` uses a name namespace `{ns_name}` has reserved"),
                        help(r),
                    ));
                }
            }
        }
    }
    for node in &cx.walk.nodes {
        match &node.node.kind {
            TypeKind::Object(o) => {
                for name in o.fields.iter().flatten().map(|(n, _)| n) {
                    if let Some(r) = entry(&o.reserved, name) {
                        found.push((
                            node.pointer.key("fields").key(name),
                            format!("field `{name}` uses a name its object has reserved"),
                            help(r),
                        ));
                    }
                }
            }
            TypeKind::Enum(e) => {
                for (i, v) in e.values.iter().enumerate() {
                    if let Some(r) = v.as_str().and_then(|name| entry(&e.reserved, name)) {
                        found.push((
                            node.pointer.key("values").index(i),
                            format!("enum value `{}` is reserved by its enum", r.name),
                            help(r),
                        ));
                    }
                }
            }
            _ => {}
        }
    }
    for (at, message, help) in found {
        cx.report(at, message, help);
    }
}
