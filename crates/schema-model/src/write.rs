//! The model to canonical JSON: known members in the order docs/format.md documents, then the
//! record's unknown members in the order they were read. Absent members stay absent.

use indexmap::IndexMap;
use serde_json::{Map, Value};

use crate::{
    ArrayType, Cause, Component, Deprecated, DescribeMethod, Document, EnumType, ErrorDecl, Event,
    EventWire, Field, Link, MapType, Method, MethodExample, Namespace, NumberRules, ObjectType,
    Param, Pubsub, RefType, Reserved, StringRules, TupleType, TypeKind, TypeNode, UnionType,
    Unknown, Wire, WireCodes,
};

/// Builds one JSON object member by member.
struct Out(Map<String, Value>);

impl Out {
    fn new() -> Self {
        Out(Map::new())
    }

    fn put(&mut self, key: &str, value: impl Into<Value>) -> &mut Self {
        self.0.insert(key.to_owned(), value.into());
        self
    }

    fn opt<T: Into<Value>>(&mut self, key: &str, value: Option<T>) -> &mut Self {
        if let Some(value) = value {
            self.put(key, value);
        }
        self
    }

    fn deprecated(&mut self, value: &Option<Deprecated>) -> &mut Self {
        self.opt(
            "deprecated",
            value.as_ref().map(|d| match d {
                Deprecated::Flag(b) => Value::Bool(*b),
                Deprecated::Note(note) => Value::String(note.clone()),
            }),
        )
    }

    fn reserved(&mut self, value: &Option<Vec<Reserved>>) -> &mut Self {
        self.opt(
            "reserved",
            value.as_ref().map(|all| Value::Array(all.iter().map(reserved).collect())),
        )
    }

    fn finish(mut self, unknown: &Unknown) -> Value {
        for (key, value) in unknown {
            // A known key cannot be in `unknown` when it came from the reader; a hand-built
            // model that puts one there does not get to overwrite the known member.
            if !self.0.contains_key(key) {
                self.0.insert(key.clone(), value.clone());
            }
        }
        Value::Object(self.0)
    }
}

fn by_name<T>(all: &IndexMap<String, T>, write: impl Fn(&T) -> Value) -> Value {
    Value::Object(all.iter().map(|(name, item)| (name.clone(), write(item))).collect())
}

fn list<T>(all: &[T], write: impl Fn(&T) -> Value) -> Value {
    Value::Array(all.iter().map(write).collect())
}

/// The document as canonical JSON.
pub(crate) fn document(doc: &Document) -> Value {
    let mut out = document_head(doc);
    out.opt("namespaces", doc.namespaces.as_ref().map(|all| by_name(all, namespace)));
    out.finish(&doc.unknown)
}

/// The document's members before `namespaces`, the one that grows with the contract.
fn document_head(doc: &Document) -> Out {
    let mut out = Out::new();
    out.put("schema", doc.schema)
        .opt("name", doc.name.clone())
        .opt("description", doc.description.clone())
        .opt("wire", doc.wire.as_ref().map(wire));
    out
}

fn namespace(ns: &Namespace) -> Value {
    let parts = NamespaceParts::of(ns);
    let mut out = parts.head;
    out.opt("methods", ns.methods.as_ref().map(|all| by_name(all, method)))
        .opt("events", ns.events.as_ref().map(|all| by_name(all, event)))
        .opt("types", ns.types.as_ref().map(|all| by_name(all, type_node)));
    for (key, value) in parts.tail.0 {
        out.0.insert(key, value);
    }
    out.finish(&ns.unknown)
}

/// A namespace's members in canonical order, around the three maps that grow with the contract
/// (`methods`, `events`, `types`, in that order between `head` and `tail`), so that
/// [`document_compact`] can write those one entry at a time.
struct NamespaceParts {
    head: Out,
    tail: Out,
}

impl NamespaceParts {
    fn of(ns: &Namespace) -> NamespaceParts {
        let mut head = Out::new();
        head.put("version", ns.version.clone())
            .opt("description", ns.description.clone())
            .deprecated(&ns.deprecated)
            .opt("component", ns.component.as_ref().map(component))
            .opt("wire", ns.wire.as_ref().map(wire));
        let mut tail = Out::new();
        tail.reserved(&ns.reserved);
        NamespaceParts { head, tail }
    }
}

/// The document as compact JSON, the same bytes as `serde_json::to_vec(&document(doc))`,
/// written one method, event and type at a time: a contract of a million methods never stands
/// as one `Value` tree (which costs several times its text).
pub(crate) fn document_compact(doc: &Document, w: &mut Vec<u8>) {
    let head = document_head(doc);
    let mut written: Vec<&str> = Vec::new();
    w.push(b'{');
    let mut first = true;
    members(w, &head.0, &mut first, &mut written);
    if let Some(all) = &doc.namespaces {
        member_key(w, "namespaces", &mut first);
        written.push("namespaces");
        w.push(b'{');
        for (i, (name, ns)) in all.iter().enumerate() {
            if i > 0 {
                w.push(b',');
            }
            json_key(w, name);
            namespace_compact(ns, w);
        }
        w.push(b'}');
    }
    unknown_members(w, &doc.unknown, &mut first, &written);
    w.push(b'}');
}

fn namespace_compact(ns: &Namespace, w: &mut Vec<u8>) {
    let parts = NamespaceParts::of(ns);
    let mut written: Vec<&str> = Vec::new();
    let mut first = true;
    w.push(b'{');
    members(w, &parts.head.0, &mut first, &mut written);
    streamed(w, "methods", ns.methods.as_ref(), method, &mut first, &mut written);
    streamed(w, "events", ns.events.as_ref(), event, &mut first, &mut written);
    streamed(w, "types", ns.types.as_ref(), type_node, &mut first, &mut written);
    members(w, &parts.tail.0, &mut first, &mut written);
    unknown_members(w, &ns.unknown, &mut first, &written);
    w.push(b'}');
}

/// `key: {name: write(item), …}`, one item's `Value` at a time.
fn streamed<'k, T>(
    w: &mut Vec<u8>,
    key: &'k str,
    all: Option<&IndexMap<String, T>>,
    write: impl Fn(&T) -> Value,
    first: &mut bool,
    written: &mut Vec<&'k str>,
) {
    let Some(all) = all else { return };
    member_key(w, key, first);
    written.push(key);
    w.push(b'{');
    for (i, (name, item)) in all.iter().enumerate() {
        if i > 0 {
            w.push(b',');
        }
        json_key(w, name);
        // Cannot fail: a Value into memory.
        let _ = serde_json::to_writer(&mut *w, &write(item));
    }
    w.push(b'}');
}

fn members<'k>(
    w: &mut Vec<u8>,
    all: &'k Map<String, Value>,
    first: &mut bool,
    written: &mut Vec<&'k str>,
) {
    for (key, value) in all {
        member_key(w, key, first);
        written.push(key);
        let _ = serde_json::to_writer(&mut *w, value);
    }
}

/// Unknown members after the known ones, except a key a known member took (as [`Out::finish`]).
fn unknown_members(w: &mut Vec<u8>, unknown: &Unknown, first: &mut bool, written: &[&str]) {
    for (key, value) in unknown {
        if !written.contains(&key.as_str()) {
            member_key(w, key, first);
            let _ = serde_json::to_writer(&mut *w, value);
        }
    }
}

fn member_key(w: &mut Vec<u8>, key: &str, first: &mut bool) {
    if !std::mem::take(first) {
        w.push(b',');
    }
    json_key(w, key);
}

fn json_key(w: &mut Vec<u8>, key: &str) {
    let _ = serde_json::to_writer(&mut *w, key);
    w.push(b':');
}

fn wire(w: &Wire) -> Value {
    let mut out = Out::new();
    out.opt("separator", w.separator.clone())
        .opt(
            "describe",
            w.describe.as_ref().map(|d| match d {
                DescribeMethod::Method(name) => Value::String(name.clone()),
                DescribeMethod::None => Value::Bool(false),
            }),
        )
        .opt("codes", w.codes.as_ref().map(wire_codes))
        .opt("depthLimit", w.depth_limit)
        .opt("pubsub", w.pubsub.as_ref().map(pubsub))
        .opt("methods", w.methods.as_ref().map(|all| by_name(all, |n| Value::String(n.clone()))))
        .opt("events", w.events.as_ref().map(|all| by_name(all, event_wire)));
    out.finish(&w.unknown)
}

fn wire_codes(c: &WireCodes) -> Value {
    let mut out = Out::new();
    out.opt("profile", c.profile.clone())
        .opt("methodNotFound", c.method_not_found.clone())
        .opt("invalidParams", c.invalid_params.clone())
        .opt("limit", c.limit)
        .opt("reserved", c.reserved.as_ref().map(|all| by_name(all, |m| Value::String(m.clone()))));
    out.finish(&c.unknown)
}

fn pubsub(p: &Pubsub) -> Value {
    let mut out = Out::new();
    out.opt("subscribe", p.subscribe.clone())
        .opt("unsubscribe", p.unsubscribe.clone())
        .opt("notification", p.notification.clone());
    out.finish(&p.unknown)
}

fn event_wire(e: &EventWire) -> Value {
    let mut out = Out::new();
    out.opt("params", e.params.clone())
        .opt("subscribe", e.subscribe.clone())
        .opt("unsubscribe", e.unsubscribe.clone())
        .opt("notification", e.notification.clone());
    out.finish(&e.unknown)
}

fn component(c: &Component) -> Value {
    let mut out = Out::new();
    out.put("name", c.name.clone()).opt("description", c.description.clone());
    out.finish(&c.unknown)
}

fn method(m: &Method) -> Value {
    let mut out = Out::new();
    out.opt("semantics", m.semantics.as_ref().map(|s| s.as_str().to_owned()))
        .opt("description", m.description.clone())
        .deprecated(&m.deprecated)
        .opt("paramStructure", m.param_structure.map(|p| p.as_str()))
        .opt("params", m.params.as_ref().map(|all| list(all, param)))
        .put("result", type_node(&m.result))
        .opt("errors", m.errors.as_ref().map(|all| list(all, error_decl)))
        .opt("examples", m.examples.as_ref().map(|all| list(all, method_example)))
        .opt("links", m.links.as_ref().map(|all| by_name(all, link)))
        .opt("causes", m.causes.as_ref().map(|all| list(all, cause)));
    out.finish(&m.unknown)
}

fn link(l: &Link) -> Value {
    let mut out = Out::new();
    out.put("method", l.method.clone())
        .opt("namespace", l.namespace.clone())
        .opt("summary", l.summary.clone())
        .opt("description", l.description.clone())
        .opt("params", l.params.as_ref().map(|all| by_name(all, Value::clone)));
    out.finish(&l.unknown)
}

fn cause(c: &Cause) -> Value {
    let mut out = Out::new();
    out.put("event", c.event.clone())
        .opt("namespace", c.namespace.clone())
        .opt("description", c.description.clone());
    out.finish(&c.unknown)
}

fn param(p: &Param) -> Value {
    let mut out = Out::new();
    out.put("name", p.name.clone());
    field_members(out, &p.field)
}

pub(crate) fn field(f: &Field) -> Value {
    field_members(Out::new(), f)
}

fn field_members(mut out: Out, f: &Field) -> Value {
    out.put("type", type_node(&f.ty))
        .opt("optional", f.optional)
        .opt("inputOptional", f.input_optional)
        .opt("outputOptional", f.output_optional)
        .opt("description", f.description.clone())
        .deprecated(&f.deprecated);
    out.finish(&f.unknown)
}

fn event(e: &Event) -> Value {
    let mut out = Out::new();
    out.opt("description", e.description.clone())
        .deprecated(&e.deprecated)
        .put("payload", type_node(&e.payload))
        .opt("examples", e.examples.clone());
    out.finish(&e.unknown)
}

fn error_decl(e: &ErrorDecl) -> Value {
    let mut out = Out::new();
    out.put("code", e.code)
        .put("message", e.message.clone())
        .opt("description", e.description.clone())
        .opt("data", e.data.as_ref().map(type_node));
    out.finish(&e.unknown)
}

fn method_example(x: &MethodExample) -> Value {
    let mut out = Out::new();
    out.opt("name", x.name.clone())
        .opt("description", x.description.clone())
        .put("params", x.params.clone())
        .opt("result", x.result.clone());
    out.finish(&x.unknown)
}

fn reserved(r: &Reserved) -> Value {
    let mut out = Out::new();
    out.put("name", r.name.clone()).opt("note", r.note.clone());
    out.finish(&r.unknown)
}

/// A type node as canonical JSON.
pub(crate) fn type_node(t: &TypeNode) -> Value {
    let mut out = Out::new();
    out.put("kind", t.kind.kind().name());
    match &t.kind {
        TypeKind::Any | TypeKind::Null | TypeKind::Boolean => {}
        TypeKind::Integer(rules) | TypeKind::Number(rules) => number_rules(&mut out, rules),
        TypeKind::String(s) => {
            // Every refinement is named, so a new one does not compile until it is written.
            let StringRules { min_length, max_length, pattern, format } = s;
            out.opt("minLength", *min_length)
                .opt("maxLength", *max_length)
                .opt("pattern", pattern.clone())
                .opt("format", format.clone());
        }
        TypeKind::Literal { value } => {
            out.put("value", value.clone());
        }
        // Each kind's members are named in full, so a new one does not compile until it is
        // written.
        TypeKind::Enum(EnumType { values, open, reserved }) => {
            out.put("values", values.clone()).opt("open", *open).reserved(reserved);
        }
        TypeKind::Array(ArrayType {
            items,
            min_items,
            max_items,
            unique_items,
            #[cfg(feature = "dummy-refinement-handled")]
                dummy_items: _,
        }) => {
            out.put("items", type_node(items))
                .opt("minItems", *min_items)
                .opt("maxItems", *max_items)
                .opt("uniqueItems", *unique_items);
        }
        TypeKind::Tuple(TupleType { elements }) => {
            out.put("elements", list(elements, type_node));
        }
        TypeKind::Object(ObjectType { fields, closed, reserved }) => {
            out.opt("fields", fields.as_ref().map(|all| by_name(all, field)))
                .opt("closed", *closed)
                .reserved(reserved);
        }
        TypeKind::Map(MapType { keys, values }) => {
            out.opt("keys", keys.as_deref().map(type_node)).put("values", type_node(values));
        }
        TypeKind::Union(UnionType { variants, discriminator }) => {
            out.put("variants", list(variants, type_node))
                .opt("discriminator", discriminator.clone());
        }
        TypeKind::Ref(RefType { name, namespace }) => {
            out.put("name", name.clone()).opt("namespace", namespace.clone());
        }
    }
    out.opt("description", t.description.clone())
        .deprecated(&t.deprecated)
        .opt("default", t.default.clone())
        .opt("examples", t.examples.clone());
    out.finish(&t.unknown)
}

fn number_rules(out: &mut Out, rules: &NumberRules) {
    // Every refinement is named, so a new one does not compile until it is written.
    let NumberRules {
        min,
        max,
        exclusive_min,
        exclusive_max,
        multiple_of,
        unit,
        #[cfg(feature = "dummy-refinement-handled")]
            dummy: _,
    } = rules;
    out.opt("min", min.clone())
        .opt("max", max.clone())
        .opt("exclusiveMin", exclusive_min.clone())
        .opt("exclusiveMax", exclusive_max.clone())
        .opt("multipleOf", multiple_of.clone())
        .opt("unit", unit.clone());
}
