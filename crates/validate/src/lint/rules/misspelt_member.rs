//! `misspelt-member`: an unknown member one slip away from a member of its record.

use accord_schema_model::members::{self, near_miss};
use accord_schema_model::{Kind, Pointer, Reserved, Unknown, Wire};

use crate::lint::LintContext;

declare_rule! {
    /// ## What it does
    /// Flags a member whose name accord does not know on its record but which is one slip
    /// away from a name the record has: the same letters in another case, or one letter
    /// added, left out or changed, or two neighbours swapped (`maxLenght`, `optinal`,
    /// `descripton`). The message names the member meant.
    ///
    /// A member further from every known name, or starting with `x-`, is not flagged: that is
    /// what a member written by a newer accord, or kept for another tool, looks like, and
    /// readers keep such members as they are (format.md, section 3, rule 4). Nor is a member
    /// starting with `$`, JSON Schema's keywords: `"$schema"` names the JSON Schema an editor
    /// checks the document against (docs/types.schema.json), not a slip for `schema`.
    ///
    /// ## Why is this bad?
    /// The reader keeps an unknown member and nothing uses it, so the typo does silently what
    /// the author did not mean: `"maxLenght": 10` leaves the string unbounded,
    /// `"optinal": true` leaves the field required, and `check` reports no error.
    ///
    /// ## Example
    /// ```json
    /// { "name": "tag", "optinal": true, "type": { "kind": "string", "maxLenght": 16 } }
    /// ```
    ///
    /// ## Fix
    /// Spell the member as the record has it (`optional`, `maxLength`). A member meant for
    /// another tool can start with `x-`.
    pub(crate) struct MisspeltMember;
}

pub(crate) fn check(cx: &mut LintContext<'_>) {
    let mut found: Vec<(Pointer, String, &'static str, String)> = Vec::new();
    let mut look =
        |at: &Pointer, unknown: &Unknown, record: &str, known: &[&'static [&'static str]]| {
            for key in unknown.keys().filter(|k| !k.starts_with("x-") && !k.starts_with('$')) {
                if let Some(meant) =
                    near_miss(key, known.iter().flat_map(|list| list.iter().copied()))
                {
                    found.push((at.key(key), key.clone(), meant, record.to_owned()));
                }
            }
        };
    let doc = cx.walk.doc;
    let root = Pointer::root();
    look(&root, &doc.unknown, "the document", &[members::DOCUMENT]);
    if let Some(w) = &doc.wire {
        wire(&root.key("wire"), w, &mut look);
    }
    for (name, ns) in doc.namespaces.iter().flatten() {
        let at = root.key("namespaces").key(name);
        look(&at, &ns.unknown, "a namespace", &[members::NAMESPACE]);
        if let Some(c) = &ns.component {
            look(&at.key("component"), &c.unknown, "a `component`", &[members::COMPONENT]);
        }
        if let Some(w) = &ns.wire {
            wire(&at.key("wire"), w, &mut look);
        }
        reserved(&at, ns.reserved.as_deref(), &mut look);
    }
    for m in &cx.walk.methods {
        look(&m.pointer, &m.method.unknown, "a method", &[members::METHOD]);
        for (i, p) in m.method.params.iter().flatten().enumerate() {
            let known = [members::FIELD, members::PARAM];
            look(&m.pointer.key("params").index(i), &p.field.unknown, "a param", &known);
        }
        for (i, e) in m.method.errors.iter().flatten().enumerate() {
            look(
                &m.pointer.key("errors").index(i),
                &e.unknown,
                "a declared error",
                &[members::ERROR],
            );
        }
        for (i, x) in m.method.examples.iter().flatten().enumerate() {
            look(
                &m.pointer.key("examples").index(i),
                &x.unknown,
                "an example",
                &[members::EXAMPLE],
            );
        }
        for (name, link) in m.method.links.iter().flatten() {
            look(&m.pointer.key("links").key(name), &link.unknown, "a link", &[members::LINK]);
        }
        for (i, c) in m.method.causes.iter().flatten().enumerate() {
            look(&m.pointer.key("causes").index(i), &c.unknown, "a cause", &[members::CAUSE]);
        }
    }
    for e in &cx.walk.events {
        look(&e.pointer, &e.event.unknown, "an event", &[members::EVENT]);
    }
    for node in &cx.walk.nodes {
        // Most nodes and fields have no unknown member: nothing is made for them (the lists and
        // pointers below, made for each of them, were a tenth of a large contract's lint).
        if !node.node.unknown.is_empty() {
            let kind = node.node.kind.kind();
            // The node's own kind first, then every other kind's refinements: a slip of another
            // kind's member is named too (and is then misplaced as well).
            let mut known = vec![members::TYPE_NODE, members::refinements(kind)];
            known.extend(Kind::ALL.into_iter().filter(|k| *k != kind).map(members::refinements));
            let record = format!("a type node of kind `{}`", kind.name());
            look(&node.pointer, &node.node.unknown, &record, &known);
        }
        match &node.node.kind {
            accord_schema_model::TypeKind::Object(o) => {
                for (name, field) in o.fields.iter().flatten() {
                    if !field.unknown.is_empty() {
                        let at = node.pointer.key("fields").key(name);
                        look(&at, &field.unknown, "a field", &[members::FIELD]);
                    }
                }
                reserved(&node.pointer, o.reserved.as_deref(), &mut look);
            }
            accord_schema_model::TypeKind::Enum(e) => {
                reserved(&node.pointer, e.reserved.as_deref(), &mut look);
            }
            _ => {}
        }
    }
    for (at, key, meant, record) in found {
        cx.report(
            at,
            format!(
                "`{key}` is not a member of {record}: did you mean `{meant}`? It is kept as an unknown member and nothing uses it"
            ),
            format!("rename `{key}` to `{meant}`; a member meant for another tool can start with `x-`"),
        );
    }
}

type Look<'a> = dyn FnMut(&Pointer, &Unknown, &str, &[&'static [&'static str]]) + 'a;

fn wire(at: &Pointer, w: &Wire, look: &mut Look<'_>) {
    look(at, &w.unknown, "a `wire`", &[members::WIRE]);
    if let Some(c) = &w.codes {
        look(&at.key("codes"), &c.unknown, "a wire's `codes`", &[members::WIRE_CODES]);
    }
    if let Some(p) = &w.pubsub {
        look(&at.key("pubsub"), &p.unknown, "a wire's `pubsub`", &[members::PUBSUB]);
    }
    for (name, e) in w.events.iter().flatten() {
        look(&at.key("events").key(name), &e.unknown, "an event's wire", &[members::EVENT_WIRE]);
    }
}

fn reserved(at: &Pointer, list: Option<&[Reserved]>, look: &mut Look<'_>) {
    for (i, r) in list.into_iter().flatten().enumerate() {
        look(&at.key("reserved").index(i), &r.unknown, "a reserved entry", &[members::RESERVED]);
    }
}
