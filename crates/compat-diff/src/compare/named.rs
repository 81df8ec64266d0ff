//! Named types: each changed named type compared once per polarity that reaches it, and the
//! walk that finds which positions reach it.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use accord_schema_model::{Document, TypeKind, TypeNode};
use indexmap::IndexMap;

use super::{At, Comparison, PositionKind, ptr};
use crate::rules::Polarity;

impl Comparison<'_> {
    pub(super) fn named_types(&mut self) {
        let empty = IndexMap::new();
        let olds = self.old.namespaces.as_ref().unwrap_or(&empty);
        let news = self.new.namespaces.as_ref().unwrap_or(&empty);
        // The named types that differ, found first: reach is only computed towards them, so an
        // unchanged type costs one comparison however many methods use it.
        let mut changed: Vec<(&String, &String, &TypeNode, &TypeNode)> = Vec::new();
        for (ns, o) in olds {
            let Some(n) = news.get(ns) else { continue };
            let (Some(ot), Some(nt)) = (&o.types, &n.types) else { continue };
            for (name, otype) in ot {
                match nt.get(name) {
                    Some(ntype) if ntype != otype => changed.push((ns, name, otype, ntype)),
                    _ => {}
                }
            }
        }
        if changed.is_empty() {
            return;
        }
        let targets: HashSet<(&str, &str)> =
            changed.iter().map(|(ns, name, _, _)| (ns.as_str(), name.as_str())).collect();
        let mut reach = reach_towards(self.old, &targets);
        for (k, v) in reach_towards(self.new, &targets) {
            let entry = reach.entry(k).or_default();
            for (pos, origins) in v {
                let set = entry.entry(pos).or_default();
                set.extend(origins);
                keep_first(set);
            }
        }
        for (ns, name, otype, ntype) in changed {
            let reached = reach.get(&(ns.clone(), name.clone())).cloned().unwrap_or_default();
            let mut by_polarity: BTreeMap<Polarity, PositionKind> = BTreeMap::new();
            for pos in reached.keys() {
                by_polarity.entry(pos.polarity()).or_insert(*pos);
            }
            let origins: Vec<String> = reached
                .iter()
                .flat_map(|(pos, o)| {
                    o.iter().take(3).map(move |o| format!("{o} ({})", pos.as_str()))
                })
                .collect();
            let note = if by_polarity.is_empty() {
                by_polarity.insert(Polarity::Input, PositionKind::Params);
                by_polarity.insert(Polarity::Output, PositionKind::Result);
                format!(
                    "`{name}` is reached from no method or event, so it is checked in both directions"
                )
            } else if by_polarity.len() == 2 {
                format!("`{name}` is used in both directions, reached from {}", origins.join(", "))
            } else {
                format!("`{name}` is reached from {}", origins.join(", "))
            };
            for (polarity, position) in by_polarity {
                let at = At {
                    path: format!("{ns}.types.{name}"),
                    old: ptr(&["namespaces", ns, "types", name]),
                    new: ptr(&["namespaces", ns, "types", name]),
                    polarity,
                    position,
                    old_ns: ns.clone(),
                    new_ns: ns.clone(),
                    note: Some(note.clone()),
                    ack: position != PositionKind::Params,
                };
                self.types(&at, otype, ntype);
            }
        }
    }
}
/// For named types of interest: the positions that reach them, each with its first origins.
pub(super) type Reach = BTreeMap<(String, String), BTreeMap<PositionKind, BTreeSet<String>>>;

/// How many origins a finding names per position: enough to find the uses, few enough to read.
const ORIGINS_SHOWN: usize = 3;

/// Keeps the first [`ORIGINS_SHOWN`] origins (in order) of a set.
pub(super) fn keep_first(set: &mut BTreeSet<String>) {
    while set.len() > ORIGINS_SHOWN {
        set.pop_last();
    }
}

/// Calls `each` with every ref in `node` that is not behind another ref.
pub(crate) fn direct_refs<'d>(
    node: &'d TypeNode,
    mut each: impl FnMut(&'d accord_schema_model::RefType),
) {
    let mut stack: Vec<&TypeNode> = vec![node];
    while let Some(node) = stack.pop() {
        match &node.kind {
            TypeKind::Ref(r) => each(r),
            _ => stack.extend(node.children()),
        }
    }
}

/// For every target named type, the positions of `doc` that reach it and from where.
///
/// Linear in the document: one pass over the named types finds those that lead to a target
/// (through refs, in reverse), then each method and event is walked once, descending only into
/// named types that lead to a target. Origins are written out only for the targets they reach.
pub(super) fn reach_towards(doc: &Document, targets: &HashSet<(&str, &str)>) -> Reach {
    let Some(nss) = &doc.namespaces else { return Reach::new() };
    // Reverse edges of the ref graph between named types, then the types that lead to a target.
    let mut used_by: HashMap<(&str, &str), Vec<(&str, &str)>> = HashMap::new();
    for (ns, n) in nss {
        for (name, t) in n.types.iter().flatten() {
            direct_refs(t, |r| {
                if let Some((tns, tname, _)) = doc.named(ns, r) {
                    used_by.entry((tns, tname)).or_default().push((ns, name));
                }
            });
        }
    }
    let mut leads: HashSet<(&str, &str)> = HashSet::new();
    let mut queue: Vec<(&str, &str)> = Vec::new();
    for (ns, name) in targets {
        if let Some((tns, n)) = nss.get_key_value(*ns)
            && let Some((tname, _)) = n.types.as_ref().and_then(|t| t.get_key_value(*name))
        {
            queue.push((tns, tname));
        }
    }
    while let Some(key) = queue.pop() {
        if leads.insert(key) {
            queue.extend(used_by.get(&key).into_iter().flatten().copied());
        }
    }
    if leads.is_empty() {
        return Reach::new();
    }
    let mut towards = Towards { doc, targets, leads, out: Reach::new() };
    for (ns, n) in nss {
        for (mname, m) in n.methods.iter().flatten() {
            for p in m.params.iter().flatten() {
                let origin = || format!("{ns}.{mname}.params.{}", p.name);
                towards.walk(ns, &p.field.ty, PositionKind::Params, origin);
            }
            towards.walk(ns, &m.result, PositionKind::Result, || format!("{ns}.{mname}.result"));
            for e in m.errors.iter().flatten() {
                if let Some(d) = &e.data {
                    let origin = || format!("{ns}.{mname}.errors.{}.data", e.code);
                    towards.walk(ns, d, PositionKind::ErrorData, origin);
                }
            }
        }
        for (ename, e) in n.events.iter().flatten() {
            towards.walk(ns, &e.payload, PositionKind::Event, || format!("{ns}.{ename}.payload"));
        }
    }
    towards.out
}

/// One document's walk towards the changed named types (`targets`), descending only into the
/// named types that lead to one (`leads`), recording origins in `out`.
struct Towards<'d, 't> {
    doc: &'d Document,
    targets: &'t HashSet<(&'t str, &'t str)>,
    leads: HashSet<(&'d str, &'d str)>,
    out: Reach,
}

impl<'d> Towards<'d, '_> {
    /// Walks one origin's type, recording it for every target it reaches.
    fn walk(
        &mut self,
        ns: &'d str,
        node: &'d TypeNode,
        pos: PositionKind,
        origin: impl Fn() -> String,
    ) {
        let mut stack: Vec<(&str, &TypeNode)> = vec![(ns, node)];
        let mut seen: Vec<(&str, &str)> = Vec::new();
        let mut text: Option<String> = None;
        while let Some((ns, node)) = stack.pop() {
            direct_refs(node, |r| {
                let Some((tns, name, t)) = self.doc.named(ns, r) else { return };
                let key = (tns, name);
                if !self.leads.contains(&key) || seen.contains(&key) {
                    return;
                }
                seen.push(key);
                if self.targets.contains(&key) {
                    let origin = text.get_or_insert_with(&origin).clone();
                    let set = self
                        .out
                        .entry((tns.to_owned(), name.to_owned()))
                        .or_default()
                        .entry(pos)
                        .or_default();
                    set.insert(origin);
                    keep_first(set);
                }
                stack.push((tns, t));
            });
        }
    }
}
