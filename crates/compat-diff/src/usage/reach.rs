//! Which methods reach a named type, for the usage evidence of a finding about one of its
//! fields: the calls of the methods whose params carry it, or whose results or error data
//! callers read it from.

use std::collections::{HashMap, HashSet};

use accord_schema_model::Document;

use crate::compare::direct_refs;

/// The methods of a document that reach one named type.
#[derive(Debug, Default, Clone)]
pub(super) struct Reached {
    /// (namespace, method) whose params reach it.
    pub(super) params: Vec<(String, String)>,
    /// (namespace, method) whose result or error data reach it.
    pub(super) results: Vec<(String, String)>,
    /// Whether an event's payload reaches it.
    pub(super) events: bool,
}

/// The reverse ref graph of a document's named types, built once per report.
pub(super) struct Graph<'d> {
    doc: &'d Document,
    used_by: HashMap<(&'d str, &'d str), Vec<(&'d str, &'d str)>>,
}

impl<'d> Graph<'d> {
    pub(super) fn new(doc: &'d Document) -> Graph<'d> {
        let mut used_by: HashMap<(&str, &str), Vec<(&str, &str)>> = HashMap::new();
        for (ns, n) in doc.namespaces.iter().flatten() {
            for (name, t) in n.types.iter().flatten() {
                direct_refs(t, |r| {
                    if let Some((tns, tname, _)) = doc.named(ns, r) {
                        used_by.entry((tns, tname)).or_default().push((ns, name));
                    }
                });
            }
        }
        Graph { doc, used_by }
    }

    /// The methods that reach `namespace.types.name` (through any number of refs).
    pub(super) fn reached(&self, namespace: &str, name: &str) -> Reached {
        let mut out = Reached::default();
        let Some(nss) = &self.doc.namespaces else { return out };
        let Some(target) = nss.get_key_value(namespace).and_then(|(ns, n)| {
            n.types.as_ref()?.get_key_value(name).map(|(t, _)| (ns.as_str(), t.as_str()))
        }) else {
            return out;
        };
        // The named types that lead to the target, the target among them.
        let mut leads: HashSet<(&str, &str)> = HashSet::new();
        let mut queue = vec![target];
        while let Some(key) = queue.pop() {
            if leads.insert(key) {
                queue.extend(self.used_by.get(&key).into_iter().flatten().copied());
            }
        }
        let reaches = |ns: &str, node: &accord_schema_model::TypeNode| {
            let mut found = false;
            direct_refs(node, |r| {
                found |= self.doc.named(ns, r).is_some_and(|(t, n, _)| leads.contains(&(t, n)));
            });
            found
        };
        for (ns, n) in nss {
            for (mname, m) in n.methods.iter().flatten() {
                let key = (ns.clone(), mname.clone());
                if m.params.iter().flatten().any(|p| reaches(ns, &p.field.ty)) {
                    out.params.push(key.clone());
                }
                let in_errors = m
                    .errors
                    .iter()
                    .flatten()
                    .filter_map(|e| e.data.as_ref())
                    .any(|d| reaches(ns, d));
                if reaches(ns, &m.result) || in_errors {
                    out.results.push(key);
                }
            }
            out.events |= n.events.iter().flatten().any(|(_, e)| reaches(ns, &e.payload));
        }
        out
    }
}
