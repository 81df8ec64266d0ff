//! The reader's JSON tree ([`Node`]) to the model: the reader's rules, applied with a JSON Pointer in hand.
//!
//! The order of checks is the policy's: the `schema` number first (a document under a number
//! this build does not read is refused before anything in it is interpreted), then the records.
//! Members this build has no name for are kept, in order, in each record's `unknown`.
//!
//! A refusal does not stop the reading of its neighbours: each entry of a map or array, and each
//! member of a namespace, method, event or field, is read even when another failed, so that one
//! run reports every mistake it can find (as a compiler does). Only a refused `schema` number
//! stops everything, since nothing else may be interpreted under a number this build does not
//! read.

use indexmap::IndexMap;
use serde_json::{Number, Value};

use crate::members;
use crate::node::{Node, into_map};
use crate::{
    ArrayType, Cause, Component, Deprecated, DescribeMethod, Document, EnumType, ErrorDecl,
    ErrorKind, Event, Field, Kind, Link, MapType, Method, MethodExample, Namespace, NumberRules,
    ObjectType, Param, ParamStructure, Pointer, READABLE_SCHEMAS, RefType, Reserved, Semantics,
    StringRules, TupleType, TypeKind, TypeNode, UnionType, Unknown, Wire, WireCodes, reads_schema,
};
use crate::{EventWire, Pubsub};

/// An error before it is located in the text.
#[derive(Debug)]
pub(crate) struct Unlocated {
    pub(crate) kind: ErrorKind,
    pub(crate) pointer: Pointer,
}

/// Every refusal found while reading a value, in document order; never empty.
#[derive(Debug)]
pub(crate) struct Refused(pub(crate) Vec<Unlocated>);

type R<T> = Result<T, Refused>;

fn fail<T>(kind: ErrorKind, pointer: &At<'_>) -> R<T> {
    Err(Refused(vec![Unlocated { kind, pointer: pointer.pointer() }]))
}

/// A record refused with no refusal gathered: cannot happen, since [`Gather::keep`] gives
/// `None` only after keeping a refusal; said rather than assumed, so that no input can panic.
fn unexplained(at: &At<'_>) -> Refused {
    Refused(vec![Unlocated {
        kind: ErrorKind::InvalidValue {
            what: "a record".to_owned(),
            reason: "refused without a reason: a bug in accord's reader, please report it"
                .to_owned(),
        },
        pointer: at.pointer(),
    }])
}

/// The refusals of a record's members, gathered so that a refused member does not hide the
/// mistakes in the members after it.
#[derive(Default)]
struct Gather(Vec<Unlocated>);

impl Gather {
    /// The value read, or `None` with its refusals kept.
    fn keep<T>(&mut self, read: R<T>) -> Option<T> {
        match read {
            Ok(value) => Some(value),
            Err(Refused(refusals)) => {
                self.0.extend(refusals);
                None
            }
        }
    }

    /// What was gathered, as the record's refusal, when anything was.
    fn refused(self) -> Option<Refused> {
        (!self.0.is_empty()).then_some(Refused(self.0))
    }
}

fn wrong_type<T>(what: &str, expected: &'static str, found: &Node, at: &At<'_>) -> R<T> {
    fail(ErrorKind::WrongType { what: what.to_owned(), expected, found: found.json_type() }, at)
}

fn invalid<T>(what: &str, reason: String, at: &At<'_>) -> R<T> {
    fail(ErrorKind::InvalidValue { what: what.to_owned(), reason }, at)
}

/// The members of one JSON object being read; what is not taken is unknown.
struct Record<'a> {
    /// The members in document order; a member taken is removed, so that what is left is the
    /// unknown members in their order.
    members: Vec<(String, Node)>,
    at: &'a At<'a>,
    /// How messages name the record, e.g. "method `start`".
    name: RecordName<'a>,
    /// The record's member names in [`members`](crate::members), which every name taken must be
    /// one of: the reader reads only names that list has.
    known: [&'static [&'static str]; 2],
}

impl<'a> Record<'a> {
    fn new(
        value: Node,
        at: &'a At<'a>,
        name: impl Into<RecordName<'a>>,
        known: &'static [&'static str],
    ) -> R<Record<'a>> {
        let name = name.into();
        match value {
            Node::Object(members) => Ok(Record { members, at, name, known: [known, &[]] }),
            other => wrong_type(&name.to_string(), "an object", &other, at),
        }
    }

    /// The record knows these names too (a type node's kind's refinements, a param's name).
    fn also(&mut self, known: &'static [&'static str]) {
        self.known[1] = known;
    }

    fn take(&mut self, key: &'static str) -> Option<(Node, At<'a>)> {
        debug_assert!(
            self.known.iter().any(|list| list.contains(&key)),
            "`{key}` of {} is not in crate::members",
            self.name
        );
        // Records have a handful of members: a linear search beats hashing, and removing one
        // moves a few entries.
        let at = self.members.iter().position(|(k, _)| k == key)?;
        Some((self.members.remove(at).1, At::Key(self.at, key)))
    }

    fn require(&mut self, key: &'static str) -> R<(Node, At<'a>)> {
        match self.take(key) {
            Some(found) => Ok(found),
            None => {
                fail(ErrorKind::MissingField { record: self.name.to_string(), field: key }, self.at)
            }
        }
    }

    fn optional<T>(
        &mut self,
        key: &'static str,
        read: impl FnOnce(Node, &At<'_>) -> R<T>,
    ) -> R<Option<T>> {
        self.take(key).map(|(v, at)| read(v, &at)).transpose()
    }

    fn string(&mut self, key: &'static str) -> R<Option<String>> {
        self.optional(key, |v, at| string(v, at, key))
    }

    fn boolean(&mut self, key: &'static str) -> R<Option<bool>> {
        self.optional(key, |v, at| match v {
            Node::Bool(b) => Ok(b),
            other => wrong_type(&format!("`{key}`"), "a boolean", &other, at),
        })
    }

    fn number(&mut self, key: &'static str) -> R<Option<Number>> {
        self.optional(key, |v, at| match v {
            Node::Number(n) => Ok(n),
            other => wrong_type(&format!("`{key}`"), "a number", &other, at),
        })
    }

    fn count(&mut self, key: &'static str) -> R<Option<u64>> {
        self.optional(key, |v, at| match &v {
            Node::Number(n) => match n.as_u64() {
                Some(count) => Ok(count),
                None => invalid(
                    &format!("`{key}`"),
                    format!("must be a whole number 0 or greater, found {n}"),
                    at,
                ),
            },
            other => wrong_type(&format!("`{key}`"), "a whole number", other, at),
        })
    }

    fn deprecated(&mut self) -> R<Option<Deprecated>> {
        self.optional("deprecated", |v, at| match v {
            Node::Bool(b) => Ok(Deprecated::Flag(b)),
            Node::String(note) => Ok(Deprecated::Note(note)),
            other => wrong_type("`deprecated`", "a boolean or a note (string)", &other, at),
        })
    }

    fn examples(&mut self) -> R<Option<Vec<Value>>> {
        self.optional("examples", |v, at| match v {
            Node::Array(items) => Ok(items.into_iter().map(Node::into_value).collect()),
            other => wrong_type("`examples`", "an array", &other, at),
        })
    }

    fn reserved(&mut self) -> R<Option<Vec<Reserved>>> {
        self.optional("reserved", |v, at| array(v, at, "`reserved`", reserved))
    }

    fn unknown(self) -> Unknown {
        into_map(self.members)
    }
}

fn string(value: Node, at: &At<'_>, key: &str) -> R<String> {
    match value {
        Node::String(s) => Ok(s),
        other => wrong_type(&format!("`{key}`"), "a string", &other, at),
    }
}

fn array<T>(
    value: Node,
    at: &At<'_>,
    what: &str,
    mut item: impl FnMut(Node, &At<'_>) -> R<T>,
) -> R<Vec<T>> {
    match value {
        Node::Array(items) => {
            let mut out = Vec::with_capacity(items.len());
            let mut gather = Gather::default();
            for (i, v) in items.into_iter().enumerate() {
                out.extend(gather.keep(item(v, &At::Index(at, i))));
            }
            gather.refused().map_or(Ok(out), Err)
        }
        other => wrong_type(what, "an array", &other, at),
    }
}

fn by_name<T>(
    value: Node,
    at: &At<'_>,
    what: &str,
    mut entry: impl FnMut(&str, Node, &At<'_>) -> R<T>,
) -> R<IndexMap<String, T>> {
    match value {
        Node::Object(members) => {
            let mut out = IndexMap::with_capacity(members.len());
            let mut gather = Gather::default();
            for (name, v) in members {
                if let Some(item) = gather.keep(entry(&name, v, &At::Key(at, &name))) {
                    out.insert(name, item);
                }
            }
            gather.refused().map_or(Ok(out), Err)
        }
        other => wrong_type(what, "an object keyed by name", &other, at),
    }
}

/// Reads a whole document.
pub(crate) fn document(value: Node) -> R<Document> {
    let root = At::Root;
    let mut doc = Record::new(value, &root, "the document", members::DOCUMENT)?;
    let schema = match doc.take("schema") {
        None => {
            return fail(ErrorKind::MissingSchema { readable: READABLE_SCHEMAS }, &root);
        }
        Some((Node::Number(n), at)) => match n.as_u64() {
            Some(number) if reads_schema(number) => number,
            _ if n.is_f64() => {
                return fail(ErrorKind::SchemaNotInteger { found: n.to_string() }, &at);
            }
            _ => {
                return fail(
                    ErrorKind::UnsupportedSchema {
                        found: n.to_string(),
                        readable: READABLE_SCHEMAS,
                    },
                    &at,
                );
            }
        },
        Some((other, at)) => {
            let found = other.into_value().to_string();
            return fail(ErrorKind::SchemaNotInteger { found }, &at);
        }
    };
    let mut gather = Gather::default();
    let name = gather.keep(doc.string("name"));
    let description = gather.keep(doc.string("description"));
    let wire = gather.keep(doc.optional("wire", wire));
    let namespaces =
        gather.keep(doc.optional("namespaces", |v, at| by_name(v, at, "`namespaces`", namespace)));
    match (name, description, wire, namespaces, gather.refused()) {
        (Some(name), Some(description), Some(wire), Some(namespaces), None) => {
            Ok(Document { schema, name, description, wire, namespaces, unknown: doc.unknown() })
        }
        (.., refused) => Err(refused.unwrap_or_else(|| unexplained(&root))),
    }
}

fn namespace(name: &str, value: Node, at: &At<'_>) -> R<Namespace> {
    let mut ns = Record::new(value, at, ("namespace", name), members::NAMESPACE)?;
    let mut gather = Gather::default();
    let version = gather.keep(ns.require("version").and_then(|(v, at)| contract_version(v, &at)));
    let description = gather.keep(ns.string("description"));
    let deprecated = gather.keep(ns.deprecated());
    let component = gather.keep(ns.optional("component", component));
    let wire = gather.keep(ns.optional("wire", wire));
    let methods = gather.keep(ns.optional("methods", |v, at| by_name(v, at, "`methods`", method)));
    let events = gather.keep(ns.optional("events", |v, at| by_name(v, at, "`events`", event)));
    let types = gather
        .keep(ns.optional("types", |v, at| by_name(v, at, "`types`", |_, v, at| type_node(v, at))));
    let reserved = gather.keep(ns.reserved());
    match (
        (version, description, deprecated, component),
        (wire, methods, events, types, reserved),
        gather.refused(),
    ) {
        (
            (Some(version), Some(description), Some(deprecated), Some(component)),
            (Some(wire), Some(methods), Some(events), Some(types), Some(reserved)),
            None,
        ) => Ok(Namespace {
            version,
            description,
            deprecated,
            component,
            wire,
            methods,
            events,
            types,
            reserved,
            unknown: ns.unknown(),
        }),
        (.., refused) => Err(refused.unwrap_or_else(|| unexplained(at))),
    }
}

/// A namespace's `version`: semver text.
fn contract_version(value: Node, at: &At<'_>) -> R<String> {
    let version = string(value, at, "version")?;
    if let Err(err) = semver::Version::parse(&version) {
        // semver's own words for `1.0` ("while parsing minor version number") point at the
        // wrong number; a short version is the usual mistake, so it is named as such.
        let numbers: Vec<&str> = version.split('.').collect();
        let short = numbers.len() < 3
            && numbers.iter().all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        let reason = if short {
            format!(
                "`{version}` has {} number{}; a contract version has three, MAJOR.MINOR.PATCH, such as {}",
                numbers.len(),
                if numbers.len() == 1 { "" } else { "s" },
                [numbers.as_slice(), &["0", "0"]].concat()[..3].join(".")
            )
        } else {
            format!("`{version}` is not semver text such as 1.4.0 ({err})")
        };
        return invalid("`version` (the namespace's contract version)", reason, at);
    }
    Ok(version)
}

fn wire(value: Node, at: &At<'_>) -> R<Wire> {
    let mut w = Record::new(value, at, "`wire`", members::WIRE)?;
    Ok(Wire {
        separator: w.string("separator")?,
        describe: w.optional("describe", |v, at| match v {
            Node::String(name) => Ok(DescribeMethod::Method(name)),
            Node::Bool(false) => Ok(DescribeMethod::None),
            other => wrong_type("`describe`", "a method name or false", &other, at),
        })?,
        codes: w.optional("codes", wire_codes)?,
        depth_limit: w.count("depthLimit")?,
        pubsub: w.optional("pubsub", |v, at| {
            let mut p = Record::new(v, at, "`pubsub`", members::PUBSUB)?;
            Ok(Pubsub {
                subscribe: p.string("subscribe")?,
                unsubscribe: p.string("unsubscribe")?,
                notification: p.string("notification")?,
                unknown: p.unknown(),
            })
        })?,
        methods: w.optional("methods", |v, at| {
            by_name(v, at, "`methods`", |name, v, at| string(v, at, name))
        })?,
        events: w.optional("events", |v, at| by_name(v, at, "`events`", event_wire))?,
        unknown: w.unknown(),
    })
}

fn wire_codes(value: Node, at: &At<'_>) -> R<WireCodes> {
    let mut c = Record::new(value, at, "`codes`", members::WIRE_CODES)?;
    Ok(WireCodes {
        profile: c.string("profile")?,
        method_not_found: c.optional("methodNotFound", |v, at| codes(v, at, "methodNotFound"))?,
        invalid_params: c.optional("invalidParams", |v, at| codes(v, at, "invalidParams"))?,
        limit: c.optional("limit", |v, at| code(v, at, "limit"))?,
        reserved: c.optional("reserved", |v, at| {
            by_name(v, at, "`reserved`", |name, v, at| {
                if name.parse::<i64>().is_err() {
                    return invalid(
                        "a key of `reserved`",
                        format!("`{name}` is not an error code (a whole number such as -32000)"),
                        at,
                    );
                }
                string(v, at, name)
            })
        })?,
        unknown: c.unknown(),
    })
}

fn code(value: Node, at: &At<'_>, key: &str) -> R<i64> {
    match &value {
        Node::Number(n) => match n.as_i64() {
            Some(code) => Ok(code),
            None => invalid(&format!("`{key}`"), format!("{n} is not a whole number"), at),
        },
        other => wrong_type(&format!("`{key}`"), "an error code (a whole number)", other, at),
    }
}

fn codes(value: Node, at: &At<'_>, key: &str) -> R<Vec<i64>> {
    array(value, at, &format!("`{key}`"), |v, at| code(v, at, key))
}

fn event_wire(name: &str, value: Node, at: &At<'_>) -> R<EventWire> {
    let mut e = Record::new(value, at, ("the wire of event", name), members::EVENT_WIRE)?;
    Ok(EventWire {
        params: e
            .optional("params", |v, at| array(v, at, "`params`", |v, _| Ok(v.into_value())))?,
        subscribe: e.string("subscribe")?,
        unsubscribe: e.string("unsubscribe")?,
        notification: e.string("notification")?,
        unknown: e.unknown(),
    })
}

fn component(value: Node, at: &At<'_>) -> R<Component> {
    let mut c = Record::new(value, at, "`component`", members::COMPONENT)?;
    let (name, name_at) = c.require("name")?;
    Ok(Component {
        name: string(name, &name_at, "name")?,
        description: c.string("description")?,
        unknown: c.unknown(),
    })
}

fn method(name: &str, value: Node, at: &At<'_>) -> R<Method> {
    let mut m = Record::new(value, at, ("method", name), members::METHOD)?;
    let semantics = m.optional("semantics", |v, at| string(v, at, "semantics"))?;
    let param_structure = m.optional("paramStructure", |v, at| {
        let text = string(v, at, "paramStructure")?;
        match ParamStructure::ALL.into_iter().find(|p| p.as_str() == text) {
            Some(p) => Ok(p),
            None => invalid(
                "`paramStructure`",
                format!("`{text}` is not one of by-name, by-position, either"),
                at,
            ),
        }
    })?;
    let mut gather = Gather::default();
    let result = gather.keep(m.require("result").and_then(|(v, at)| type_node(v, &at)));
    let description = gather.keep(m.string("description"));
    let deprecated = gather.keep(m.deprecated());
    let params = gather.keep(m.optional("params", |v, at| array(v, at, "`params`", param)));
    let errors = gather.keep(m.optional("errors", |v, at| array(v, at, "`errors`", error_decl)));
    let examples =
        gather.keep(m.optional("examples", |v, at| array(v, at, "`examples`", method_example)));
    let links = gather.keep(m.optional("links", |v, at| by_name(v, at, "`links`", link)));
    let causes = gather.keep(m.optional("causes", |v, at| array(v, at, "`causes`", cause)));
    match (
        (result, description, deprecated, params),
        (errors, examples, links, causes),
        gather.refused(),
    ) {
        (
            (Some(result), Some(description), Some(deprecated), Some(params)),
            (Some(errors), Some(examples), Some(links), Some(causes)),
            None,
        ) => Ok(Method {
            semantics: semantics.as_deref().map(Semantics::from_text),
            description,
            deprecated,
            param_structure,
            params,
            result,
            errors,
            examples,
            links,
            causes,
            unknown: m.unknown(),
        }),
        (.., refused) => Err(refused.unwrap_or_else(|| unexplained(at))),
    }
}

fn param(value: Node, at: &At<'_>) -> R<Param> {
    let mut p = Record::new(value, at, "a param", members::FIELD)?;
    p.also(members::PARAM);
    let (name, name_at) = p.require("name")?;
    let name = string(name, &name_at, "name")?;
    p.name = RecordName::Owned(format!("param `{name}`"));
    Ok(Param { name, field: field_members(p)? })
}

/// A field read on its own (not in a document), its pointers relative to it.
pub(crate) fn lone_field(value: Node) -> R<Field> {
    field_members(Record::new(value, &At::Root, "a field", members::FIELD)?)
}

/// A type node read on its own (not in a document), its pointers relative to it.
pub(crate) fn lone_type_node(value: Node) -> R<TypeNode> {
    type_node(value, &At::Root)
}

fn field(name: &str, value: Node, at: &At<'_>) -> R<Field> {
    field_members(Record::new(value, at, ("field", name), members::FIELD)?)
}

fn field_members(mut f: Record<'_>) -> R<Field> {
    let mut gather = Gather::default();
    let ty = gather.keep(f.require("type").and_then(|(v, at)| type_node(v, &at)));
    let optional = gather.keep(f.boolean("optional"));
    let input_optional = gather.keep(f.boolean("inputOptional"));
    let output_optional = gather.keep(f.boolean("outputOptional"));
    let description = gather.keep(f.string("description"));
    let deprecated = gather.keep(f.deprecated());
    match (
        (ty, optional, input_optional, output_optional),
        (description, deprecated),
        gather.refused(),
    ) {
        (
            (Some(ty), Some(optional), Some(input_optional), Some(output_optional)),
            (Some(description), Some(deprecated)),
            None,
        ) => Ok(Field {
            ty,
            optional,
            input_optional,
            output_optional,
            description,
            deprecated,
            unknown: f.unknown(),
        }),
        (.., refused) => Err(refused.unwrap_or_else(|| unexplained(f.at))),
    }
}

fn event(name: &str, value: Node, at: &At<'_>) -> R<Event> {
    let mut e = Record::new(value, at, ("event", name), members::EVENT)?;
    let mut gather = Gather::default();
    let payload = gather.keep(e.require("payload").and_then(|(v, at)| type_node(v, &at)));
    let description = gather.keep(e.string("description"));
    let deprecated = gather.keep(e.deprecated());
    let examples = gather.keep(e.examples());
    match (payload, description, deprecated, examples, gather.refused()) {
        (Some(payload), Some(description), Some(deprecated), Some(examples), None) => {
            Ok(Event { payload, description, deprecated, examples, unknown: e.unknown() })
        }
        (.., refused) => Err(refused.unwrap_or_else(|| unexplained(at))),
    }
}

fn error_decl(value: Node, at: &At<'_>) -> R<ErrorDecl> {
    let mut e = Record::new(value, at, "a declared error", members::ERROR)?;
    let (code, code_at) = e.require("code")?;
    let code = match &code {
        Node::Number(n) => match n.as_i64() {
            Some(code) => code,
            None => {
                return invalid("`code`", format!("must be a whole number, found {n}"), &code_at);
            }
        },
        other => return wrong_type("`code`", "an integer", other, &code_at),
    };
    let (message, message_at) = e.require("message")?;
    Ok(ErrorDecl {
        code,
        message: string(message, &message_at, "message")?,
        description: e.string("description")?,
        data: e.optional("data", type_node)?,
        unknown: e.unknown(),
    })
}

fn method_example(value: Node, at: &At<'_>) -> R<MethodExample> {
    let mut x = Record::new(value, at, "an example", members::EXAMPLE)?;
    let (params, params_at) = x.require("params")?;
    if !matches!(params, Node::Array(_) | Node::Object(_)) {
        return wrong_type("`params` of an example", "an array or an object", &params, &params_at);
    }
    let params = params.into_value();
    Ok(MethodExample {
        name: x.string("name")?,
        description: x.string("description")?,
        params,
        result: x.take("result").map(|(v, _)| v.into_value()),
        unknown: x.unknown(),
    })
}

/// A link: its params are kept as written (any JSON); what an expression means is read by the
/// tools that follow links (`crate::LinkValue`), so that new expression forms stay additive.
fn link(name: &str, value: Node, at: &At<'_>) -> R<Link> {
    let mut l = Record::new(value, at, ("link", name), members::LINK)?;
    let mut gather = Gather::default();
    let method = gather.keep(l.require("method").and_then(|(v, at)| string(v, &at, "method")));
    let namespace = gather.keep(l.string("namespace"));
    let summary = gather.keep(l.string("summary"));
    let description = gather.keep(l.string("description"));
    let params = gather.keep(l.optional("params", |v, at| {
        by_name(v, at, "`params` of a link", |_, v, _| Ok(v.into_value()))
    }));
    match ((method, namespace, summary), (description, params), gather.refused()) {
        (
            (Some(method), Some(namespace), Some(summary)),
            (Some(description), Some(params)),
            None,
        ) => Ok(Link { method, namespace, summary, description, params, unknown: l.unknown() }),
        (.., refused) => Err(refused.unwrap_or_else(|| unexplained(at))),
    }
}

fn cause(value: Node, at: &At<'_>) -> R<Cause> {
    let mut c = Record::new(value, at, "a cause", members::CAUSE)?;
    let mut gather = Gather::default();
    let event = gather.keep(c.require("event").and_then(|(v, at)| string(v, &at, "event")));
    let namespace = gather.keep(c.string("namespace"));
    let description = gather.keep(c.string("description"));
    match (event, namespace, description, gather.refused()) {
        (Some(event), Some(namespace), Some(description), None) => {
            Ok(Cause { event, namespace, description, unknown: c.unknown() })
        }
        (.., refused) => Err(refused.unwrap_or_else(|| unexplained(at))),
    }
}

fn reserved(value: Node, at: &At<'_>) -> R<Reserved> {
    let mut r = Record::new(value, at, "a reserved entry", members::RESERVED)?;
    let (name, name_at) = r.require("name")?;
    Ok(Reserved {
        name: string(name, &name_at, "name")?,
        note: r.string("note")?,
        unknown: r.unknown(),
    })
}

/// Reads a type node. Nesting is bounded by the JSON reader's depth limit, so this recursion is too.
fn type_node(value: Node, at: &At<'_>) -> R<TypeNode> {
    let mut t = Record::new(value, at, "a type node", members::TYPE_NODE)?;
    let (kind, kind_at) = t.require("kind")?;
    let kind = string(kind, &kind_at, "kind")?;
    let Some(kind) = Kind::from_name(&kind) else {
        return fail(ErrorKind::UnknownKind { kind }, &kind_at);
    };
    t.also(members::refinements(kind));
    let kind = match kind {
        Kind::Any => TypeKind::Any,
        Kind::Null => TypeKind::Null,
        Kind::Boolean => TypeKind::Boolean,
        Kind::Integer => TypeKind::Integer(number_rules(&mut t)?),
        Kind::Number => TypeKind::Number(number_rules(&mut t)?),
        Kind::String => TypeKind::String(StringRules {
            min_length: t.count("minLength")?,
            max_length: t.count("maxLength")?,
            pattern: t.string("pattern")?,
            format: t.string("format")?,
        }),
        Kind::Literal => TypeKind::Literal { value: t.require("value")?.0.into_value() },
        Kind::Enum => {
            let (values, values_at) = t.require("values")?;
            let values = array(values, &values_at, "`values`", |v, at| match v {
                Node::String(_) => Ok(v.into_value()),
                Node::Number(ref n) if !n.is_f64() => Ok(v.into_value()),
                other => wrong_type("an enum value", "a string or an integer", &other, at),
            })?;
            TypeKind::Enum(EnumType { values, open: t.boolean("open")?, reserved: t.reserved()? })
        }
        Kind::Array => {
            let (items, items_at) = t.require("items")?;
            TypeKind::Array(ArrayType {
                items: Box::new(type_node(items, &items_at)?),
                min_items: t.count("minItems")?,
                max_items: t.count("maxItems")?,
                unique_items: t.boolean("uniqueItems")?,
                #[cfg(feature = "dummy-refinement-handled")]
                dummy_items: t.count("dummyItems")?,
            })
        }
        Kind::Tuple => {
            let (elements, elements_at) = t.require("elements")?;
            TypeKind::Tuple(TupleType {
                elements: array(elements, &elements_at, "`elements`", type_node)?,
            })
        }
        Kind::Object => TypeKind::Object(ObjectType {
            fields: t.optional("fields", |v, at| by_name(v, at, "`fields`", field))?,
            closed: t.boolean("closed")?,
            reserved: t.reserved()?,
        }),
        Kind::Map => {
            let (values, values_at) = t.require("values")?;
            TypeKind::Map(MapType {
                keys: t.optional("keys", type_node)?.map(Box::new),
                values: Box::new(type_node(values, &values_at)?),
            })
        }
        Kind::Union => {
            let (variants, variants_at) = t.require("variants")?;
            TypeKind::Union(UnionType {
                variants: array(variants, &variants_at, "`variants`", type_node)?,
                discriminator: t.string("discriminator")?,
            })
        }
        Kind::Ref => {
            let (name, name_at) = t.require("name")?;
            TypeKind::Ref(RefType {
                name: string(name, &name_at, "name")?,
                namespace: t.string("namespace")?,
            })
        }
    };
    Ok(TypeNode {
        kind,
        description: t.string("description")?,
        deprecated: t.deprecated()?,
        default: t.take("default").map(|(v, _)| v.into_value()),
        examples: t.examples()?,
        unknown: t.unknown(),
    })
}

fn number_rules(t: &mut Record<'_>) -> R<NumberRules> {
    let rules = NumberRules {
        min: t.number("min")?,
        max: t.number("max")?,
        exclusive_min: t.number("exclusiveMin")?,
        exclusive_max: t.number("exclusiveMax")?,
        multiple_of: t.number("multipleOf")?,
        unit: t.string("unit")?,
        #[cfg(feature = "dummy-refinement-handled")]
        dummy: t.count("dummy")?,
    };
    if let Some(m) = &rules.multiple_of
        && m.as_f64().is_none_or(|m| m <= 0.0)
    {
        return invalid(
            "`multipleOf`",
            format!("must be greater than zero, found {m}"),
            &At::Key(t.at, "multipleOf"),
        );
    }
    Ok(rules)
}

/// How messages name a record ("a type node", "method `start`"), made into text only when a
/// message needs it: formatting the name of every record read was a cost of every read.
enum RecordName<'a> {
    Plain(&'static str),
    /// What the record is, and its name in the map that holds it: "{what} `{name}`".
    Named(&'static str, &'a str),
    Owned(String),
}

impl<'a> From<&'static str> for RecordName<'a> {
    fn from(what: &'static str) -> Self {
        RecordName::Plain(what)
    }
}

impl<'a> From<(&'static str, &'a str)> for RecordName<'a> {
    fn from((what, name): (&'static str, &'a str)) -> Self {
        RecordName::Named(what, name)
    }
}

impl std::fmt::Display for RecordName<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RecordName::Plain(what) => f.write_str(what),
            RecordName::Named(what, name) => write!(f, "{what} `{name}`"),
            RecordName::Owned(text) => f.write_str(text),
        }
    }
}

/// Where the reader stands: the parts of a JSON Pointer, joined into a [`Pointer`] only when an
/// error names the place. Reading every member with a pointer of its own allocated and escaped
/// each one, a large part of reading a large document.
#[derive(Clone, Copy)]
enum At<'a> {
    /// The document.
    Root,
    /// A member of the place above.
    Key(&'a At<'a>, &'a str),
    /// An item of the place above.
    Index(&'a At<'a>, usize),
}

impl At<'_> {
    /// The pointer of this place.
    fn pointer(&self) -> Pointer {
        match *self {
            At::Root => Pointer::root(),
            At::Key(above, key) => above.pointer().key(key),
            At::Index(above, index) => above.pointer().index(index),
        }
    }
}
