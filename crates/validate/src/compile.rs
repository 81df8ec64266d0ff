//! Contract → [`Program`]: every named type compiled once, refs linked by index (so recursive
//! types are fine), patterns compiled, discriminators tabulated.

use std::collections::HashMap;

use crate::pattern::Pattern;
use accord_schema_model::{
    ArrayType, Document, EnumType, MapType, Method, NumberRules, ObjectType, ParamStructure,
    Pointer, RefType, StringRules, TupleType, TypeKind, TypeNode, UnionType,
};

use crate::number::Num;
use crate::program::{
    Choices, Dict, Discriminator, List, Member, Members, Node, NodeId, Numeric, Params, Program,
    Record, Text, Union,
};
use crate::{Error, Format};

/// Where in a contract a value goes: what a validator is compiled for.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Target {
    /// A named type.
    Type {
        /// The namespace.
        namespace: String,
        /// The type's name.
        name: String,
    },
    /// A method's params, as a caller sends them.
    Params {
        /// The namespace.
        namespace: String,
        /// The method's name.
        method: String,
    },
    /// A method's result.
    Result {
        /// The namespace.
        namespace: String,
        /// The method's name.
        method: String,
    },
    /// An event's payload.
    Event {
        /// The namespace.
        namespace: String,
        /// The event's name.
        event: String,
    },
    /// The `data` of a method's declared error.
    ErrorData {
        /// The namespace.
        namespace: String,
        /// The method's name.
        method: String,
        /// The error code.
        code: i64,
    },
}

pub(crate) struct Compiled {
    pub(crate) program: Program,
    pub(crate) targets: HashMap<Target, NodeId>,
}

/// How a field's presence is read while a target is compiled (docs/format.md §14): params are
/// read as input, results, event payloads and error data as output, a named type on its own by
/// `optional` alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Reading {
    /// `optional`.
    Plain,
    /// `inputOptional`, else `optional`.
    Input,
    /// `outputOptional`, else `optional`.
    Output,
}

impl Reading {
    pub(crate) fn required(self, field: &accord_schema_model::Field) -> bool {
        !match self {
            Reading::Plain => field.is_optional(),
            Reading::Input => field.is_optional_in(),
            Reading::Output => field.is_optional_out(),
        }
    }
}

/// Whether any field or param of `doc` says its presence per direction; when none does, every
/// reading is the plain one and each named type is compiled once.
pub(crate) fn reads_by_direction(doc: &Document) -> bool {
    fn field(f: &accord_schema_model::Field) -> bool {
        f.input_optional.is_some() || f.output_optional.is_some() || node(&f.ty)
    }
    fn node(t: &TypeNode) -> bool {
        match &t.kind {
            // A field says its presence; other nodes only hold nodes.
            TypeKind::Object(o) => o.fields.iter().flatten().any(|(_, f)| field(f)),
            _ => t.children().any(node),
        }
    }
    doc.namespaces.iter().flatten().any(|(_, ns)| {
        ns.types.iter().flatten().any(|(_, t)| node(t))
            || ns.events.iter().flatten().any(|(_, e)| node(&e.payload))
            || ns.methods.iter().flatten().any(|(_, m)| {
                m.params.iter().flatten().any(|p| field(&p.field))
                    || node(&m.result)
                    || m.errors.iter().flatten().any(|e| e.data.as_ref().is_some_and(node))
            })
    })
}

/// A type node compiled as one more named type of a document, `namespace.name`, where the
/// document has no type of that name: lint's copies of anonymous nodes, which need validators
/// of their own (`lint/repair.rs`).
pub(crate) struct Extra<'d> {
    pub(crate) namespace: &'d str,
    pub(crate) name: String,
    pub(crate) node: &'d TypeNode,
}

struct Compiler<'d> {
    doc: &'d Document,
    /// The extra named types, by namespace and name (empty for a document alone).
    extra: HashMap<(&'d str, &'d str), &'d TypeNode>,
    program: Program,
    /// How presence is read for the target being compiled.
    reading: Reading,
    /// Whether the document reads presence by direction at all (else always [`Reading::Plain`]).
    directional: bool,
    /// Named types compiled so far, keyed by the document's own strings (no key is allocated).
    named: HashMap<(&'d str, &'d str, Reading), NodeId>,
    /// Named types by node, for messages about cycles.
    names: HashMap<NodeId, (&'d str, &'d str)>,
    /// The patterns compiled so far.
    regexes: HashMap<&'d str, Pattern>,
    /// Unions with a discriminator, tabulated once every node exists.
    discriminated: Vec<(NodeId, String, Pointer)>,
}

pub(crate) fn compile(doc: &Document) -> Result<Compiled, Error> {
    compile_with(doc, &[])
}

/// Compiles `doc` and, after its own targets, each of `extra` as a named type (read as a named
/// type on its own is: [`Reading::Plain`]), as if the document listed it.
pub(crate) fn compile_with<'d>(
    doc: &'d Document,
    extra: &'d [Extra<'d>],
) -> Result<Compiled, Error> {
    let mut c = Compiler {
        doc,
        extra: extra.iter().map(|e| ((e.namespace, e.name.as_str()), e.node)).collect(),
        program: Program::default(),
        reading: Reading::Plain,
        directional: reads_by_direction(doc),
        named: HashMap::new(),
        names: HashMap::new(),
        regexes: HashMap::new(),
        discriminated: Vec::new(),
    };
    let mut targets = HashMap::new();
    let ns_root = Pointer::root().key("namespaces");
    for (ns_name, ns) in doc.namespaces.iter().flatten() {
        let ns_at = ns_root.key(ns_name);
        for name in ns.types.iter().flatten().map(|(n, _)| n) {
            c.read_as(Reading::Plain);
            let id = c.named(ns_name, name, &At::Pointer(&ns_at))?;
            targets.insert(Target::Type { namespace: ns_name.clone(), name: name.clone() }, id);
        }
        for (m_name, method) in ns.methods.iter().flatten() {
            let at = ns_at.key("methods").key(m_name);
            c.read_as(Reading::Input);
            let at = At::Pointer(&at);
            let params = c.params(ns_name, method, &at)?;
            targets.insert(
                Target::Params { namespace: ns_name.clone(), method: m_name.clone() },
                params,
            );
            c.read_as(Reading::Output);
            let result = c.node(ns_name, &method.result, &at.key("result"))?;
            targets.insert(
                Target::Result { namespace: ns_name.clone(), method: m_name.clone() },
                result,
            );
            for (i, err) in method.errors.iter().flatten().enumerate() {
                if let Some(data) = &err.data {
                    let id = c.node(ns_name, data, &at.key("errors").index(i).key("data"))?;
                    let target = Target::ErrorData {
                        namespace: ns_name.clone(),
                        method: m_name.clone(),
                        code: err.code,
                    };
                    targets.insert(target, id);
                }
            }
        }
        c.read_as(Reading::Output);
        for (e_name, event) in ns.events.iter().flatten() {
            let at = ns_at.key("events").key(e_name).key("payload");
            let id = c.node(ns_name, &event.payload, &At::Pointer(&at))?;
            targets.insert(Target::Event { namespace: ns_name.clone(), event: e_name.clone() }, id);
        }
    }
    for e in extra {
        c.read_as(Reading::Plain);
        let id = c.named(e.namespace, &e.name, &At::Pointer(&ns_root.key(e.namespace)))?;
        targets
            .insert(Target::Type { namespace: e.namespace.to_owned(), name: e.name.clone() }, id);
    }
    c.refuse_ref_cycles()?;
    c.tabulate_discriminators()?;
    c.program.finish();
    Ok(Compiled { program: c.program, targets })
}

impl<'d> Compiler<'d> {
    /// Reads presence as `reading` from here on (as plain when the document never says more).
    fn read_as(&mut self, reading: Reading) {
        self.reading = if self.directional { reading } else { Reading::Plain };
    }

    fn push(&mut self, node: Node) -> NodeId {
        self.program.nodes.push(node);
        (self.program.nodes.len() - 1) as NodeId
    }

    /// The node of named type `namespace.name`, compiling it on first use.
    fn named(&mut self, namespace: &'d str, name: &'d str, from: &At<'_>) -> Result<NodeId, Error> {
        let key = (namespace, name, self.reading);
        if let Some(&id) = self.named.get(&key) {
            return Ok(id);
        }
        let doc = self.doc;
        let ty = doc
            .namespaces
            .as_ref()
            .and_then(|all| all.get(namespace))
            .and_then(|ns| ns.types.as_ref())
            .and_then(|types| types.get(name))
            .or_else(|| self.extra.get(&(namespace, name)).copied())
            .ok_or_else(|| Error::DanglingRef {
                at: from.pointer(),
                namespace: namespace.to_owned(),
                name: name.to_owned(),
            })?;
        let at = At::Named(namespace, name);
        // Reserve the slot first, so that recursive references find it.
        let id = self.push(Node::Any);
        self.named.insert(key, id);
        self.names.insert(id, (namespace, name));
        let node = match &ty.kind {
            TypeKind::Ref(r) => {
                let target_ns = r.namespace_in(namespace);
                Node::Ref(self.named(target_ns, &r.name, &at)?)
            }
            _ => self.build(namespace, ty, &at)?,
        };
        self.program.nodes[id as usize] = node;
        self.note_typical(id, ty);
        self.note_discriminator(id, ty, &at);
        Ok(id)
    }

    /// The node of an anonymous type node (a ref links to its named type, no new node).
    fn node(&mut self, namespace: &'d str, t: &'d TypeNode, at: &At<'_>) -> Result<NodeId, Error> {
        if let TypeKind::Ref(r) = &t.kind {
            let target_ns = r.namespace_in(namespace);
            return self.named(target_ns, &r.name, at);
        }
        let node = self.build(namespace, t, at)?;
        let id = self.push(node);
        self.note_typical(id, t);
        self.note_discriminator(id, t, at);
        Ok(id)
    }

    /// The type's first example, else its default, as its node's typical value. A ref's own
    /// examples are not kept: its node is the named type's, shared by every ref to it.
    fn note_typical(&mut self, id: NodeId, t: &TypeNode) {
        let example = t.examples.as_ref().and_then(|all| all.first());
        if let Some(value) = example.or(t.default.as_ref()) {
            self.program.typical.insert(id, value.clone());
        }
    }

    /// Unions with a discriminator are tabulated once every node exists (arms may be refs to
    /// types not built yet).
    fn note_discriminator(&mut self, id: NodeId, t: &TypeNode, at: &At<'_>) {
        if let TypeKind::Union(u) = &t.kind
            && let Some(member) = &u.discriminator
        {
            self.discriminated.push((id, member.clone(), at.pointer()));
        }
    }

    fn build(&mut self, ns: &'d str, t: &'d TypeNode, at: &At<'_>) -> Result<Node, Error> {
        Ok(match &t.kind {
            TypeKind::Any => Node::Any,
            TypeKind::Null => Node::Null,
            TypeKind::Boolean => Node::Boolean,
            TypeKind::Integer(rules) => Node::Integer(numeric(rules)),
            TypeKind::Number(rules) => Node::Number(numeric(rules)),
            TypeKind::String(rules) => {
                // Every refinement is named, so a new one does not compile until it is
                // compiled.
                let StringRules { min_length, max_length, pattern, format } = rules;
                Node::String(Text {
                    min_length: *min_length,
                    max_length: *max_length,
                    pattern: match pattern {
                        Some(p) => Some(self.regex(p, at)?),
                        None => None,
                    },
                    format: format.as_deref().and_then(Format::from_name),
                })
            }
            TypeKind::Literal { value } => Node::Literal(value.clone()),
            // Each kind's members are named in full (`_` for what constrains no value), so a
            // new one does not compile until it is compiled.
            TypeKind::Enum(EnumType { values, open: _, reserved: _ }) => Node::Enum(Choices {
                values: values.clone(),
                strings: values.iter().filter_map(|v| v.as_str().map(Box::from)).collect(),
                integers: values.iter().filter_map(|v| v.as_number().map(Num::of)).collect(),
            }),
            TypeKind::Array(ArrayType {
                items,
                min_items,
                max_items,
                unique_items,
                #[cfg(feature = "dummy-refinement-handled")]
                    dummy_items: _,
            }) => Node::Array(List {
                items: self.node(ns, items, &at.key("items"))?,
                min_items: *min_items,
                max_items: *max_items,
                unique_items: unique_items.unwrap_or(false),
                resolved: 0,
                plain: None,
            }),
            TypeKind::Tuple(TupleType { elements: tuple }) => {
                let mut elements = Vec::with_capacity(tuple.len());
                for (i, e) in tuple.iter().enumerate() {
                    elements.push(self.node(ns, e, &at.key("elements").index(i))?);
                }
                Node::Tuple(elements)
            }
            TypeKind::Object(ObjectType { fields, closed, reserved: _ }) => {
                let mut list = Vec::new();
                for (name, field) in fields.iter().flatten() {
                    let node = self.node(ns, &field.ty, &at.key("fields").key(name).key("type"))?;
                    list.push(Member {
                        name: name.as_str().into(),
                        node,
                        required: self.reading.required(field),
                    });
                }
                Node::Object(Record {
                    members: Members::new(list),
                    closed: closed.unwrap_or(false),
                })
            }
            TypeKind::Map(MapType { keys, values }) => Node::Map(Dict {
                keys: match keys {
                    Some(k) => Some(self.node(ns, k, &at.key("keys"))?),
                    None => None,
                },
                values: self.node(ns, values, &at.key("values"))?,
                plain: None,
            }),
            // The discriminator is tabulated once every node exists (`note_discriminator`).
            TypeKind::Union(UnionType { variants: arms, discriminator: _ }) => {
                let mut variants = Vec::with_capacity(arms.len());
                for (i, v) in arms.iter().enumerate() {
                    variants.push(self.node(ns, v, &at.key("variants").index(i))?);
                }
                Node::Union(Union { variants, discriminator: None, implied: None })
            }
            TypeKind::Ref(r @ RefType { name, namespace: _ }) => {
                let target_ns = r.namespace_in(ns);
                Node::Ref(self.named(target_ns, name, at)?)
            }
        })
    }

    /// The regex of `pattern`, compiled once per distinct pattern (a `Regex` clone shares
    /// the compiled program): contracts repeat their patterns, and compiling one costs more
    /// than the rest of its node.
    fn regex(&mut self, pattern: &'d str, at: &At<'_>) -> Result<Pattern, Error> {
        if let Some(regex) = self.regexes.get(pattern) {
            return Ok(regex.clone());
        }
        let regex = Pattern::new(pattern).map_err(|reason| Error::BadPattern {
            at: at.pointer().key("pattern"),
            pattern: pattern.to_owned(),
            reason,
        })?;
        self.regexes.insert(pattern, regex.clone());
        Ok(regex)
    }

    fn params(&mut self, ns: &'d str, method: &'d Method, at: &At<'_>) -> Result<NodeId, Error> {
        let mut list = Vec::new();
        for (i, p) in method.params.iter().flatten().enumerate() {
            let node = self.node(ns, &p.field.ty, &at.key("params").index(i).key("type"))?;
            list.push(Member {
                name: p.name.as_str().into(),
                node,
                required: self.reading.required(&p.field),
            });
        }
        let structure = method.param_structure.unwrap_or(ParamStructure::Either);
        Ok(self.push(Node::Params(Params {
            members: Members::new(list),
            by_name: structure != ParamStructure::ByPosition,
            by_position: structure != ParamStructure::ByName,
        })))
    }

    /// Refuses named types that reach themselves through `Ref` and union edges alone.
    fn refuse_ref_cycles(&self) -> Result<(), Error> {
        let program = &self.program;
        // 0 = unvisited, 1 = on the current path, 2 = done.
        let mut state = vec![0u8; program.nodes.len()];
        for start in 0..program.nodes.len() as NodeId {
            if state[start as usize] != 0 {
                continue;
            }
            // Iterative DFS: (node, next child index).
            let mut stack = vec![(start, 0usize)];
            state[start as usize] = 1;
            while let Some(&mut (id, ref mut next)) = stack.last_mut() {
                let children: &[NodeId] = match program.node(id) {
                    Node::Ref(target) => std::slice::from_ref(target),
                    Node::Union(u) => &u.variants,
                    _ => &[],
                };
                if let Some(&child) = children.get(*next) {
                    *next += 1;
                    match state[child as usize] {
                        0 => {
                            state[child as usize] = 1;
                            stack.push((child, 0));
                        }
                        1 => {
                            // The cycle is the part of the path from `child` on: name a type
                            // in it, not one that merely leads to it.
                            let from = stack.iter().position(|(id, _)| *id == child).unwrap_or(0);
                            let named = stack[from..].iter().map(|(id, _)| *id);

                            let (ns, name) = named
                                .filter_map(|id| self.names.get(&id))
                                .next()
                                .copied()
                                .unwrap_or_default();
                            return Err(Error::RefCycle {
                                at: Pointer::root()
                                    .key("namespaces")
                                    .key(ns)
                                    .key("types")
                                    .key(name),
                                name: name.to_owned(),
                            });
                        }
                        _ => {}
                    }
                } else {
                    state[id as usize] = 2;
                    stack.pop();
                }
            }
        }
        Ok(())
    }

    fn tabulate_discriminators(&mut self) -> Result<(), Error> {
        for (id, member, at) in std::mem::take(&mut self.discriminated) {
            let Node::Union(union) = self.program.node(id) else {
                unreachable!("discriminated nodes are unions");
            };
            let fail = |reason: String| Error::BadDiscriminator {
                at: at.clone(),
                member: member.clone(),
                reason,
            };
            let mut arms = Vec::new();
            for (arm, &variant) in union.variants.iter().enumerate() {
                let Node::Object(record) = self.program.node(self.program.resolve(variant)) else {
                    return Err(fail(format!("arm {arm} is not an object")));
                };
                let Some(at_member) = record.members.find(&member) else {
                    return Err(fail(format!("arm {arm} has no member `{member}`")));
                };
                let m = &record.members.list[at_member];
                if !m.required {
                    return Err(fail(format!("arm {arm} has `{member}` as an optional member")));
                }
                let tags: Vec<serde_json::Value> =
                    match self.program.node(self.program.resolve(m.node)) {
                        Node::Literal(v) => vec![v.clone()],
                        Node::Enum(c) => c.values.clone(),
                        _ => {
                            return Err(fail(format!(
                                "arm {arm} has `{member}` that is not a literal or an enum"
                            )));
                        }
                    };
                for tag in tags {
                    if arms.iter().any(|(t, _)| crate::number::json_equal(t, &tag)) {
                        return Err(fail(format!("the tag {tag} picks more than one arm")));
                    }
                    arms.push((tag, variant));
                }
            }
            if let Node::Union(union) = &mut self.program.nodes[id as usize] {
                union.discriminator = Some(Discriminator { member: member.into_boxed_str(), arms });
            }
        }
        Ok(())
    }
}

/// Where a node stands while it is compiled: the parts of its JSON Pointer, joined into a
/// [`Pointer`] only when an error or a discriminator names the place. Compiling every node
/// with a pointer of its own allocated and escaped each one (a large part of the cost of
/// compiling a large contract, which `accord check` does on every run).
#[derive(Clone, Copy)]
enum At<'a> {
    /// A pointer already made.
    Pointer(&'a Pointer),
    /// The named type `/namespaces/NS/types/NAME`.
    Named(&'a str, &'a str),
    /// A member of the place above.
    Key(&'a At<'a>, &'a str),
    /// An item of the place above.
    Index(&'a At<'a>, usize),
}

impl<'a> At<'a> {
    fn key(&'a self, key: &'a str) -> At<'a> {
        At::Key(self, key)
    }

    fn index(&'a self, index: usize) -> At<'a> {
        At::Index(self, index)
    }

    /// The pointer of this place.
    fn pointer(&self) -> Pointer {
        match *self {
            At::Pointer(p) => p.clone(),
            At::Named(ns, name) => Pointer::root().key("namespaces").key(ns).key("types").key(name),
            At::Key(above, key) => above.pointer().key(key),
            At::Index(above, index) => above.pointer().index(index),
        }
    }
}

fn numeric(rules: &NumberRules) -> Numeric {
    // Every refinement is named, so a new one does not compile until it is compiled (or said
    // to be meaning only, as `unit` is: it constrains no value).
    let NumberRules {
        min,
        max,
        exclusive_min,
        exclusive_max,
        multiple_of,
        unit: _,
        #[cfg(feature = "dummy-refinement-handled")]
            dummy: _,
    } = rules;
    Numeric {
        min: min.as_ref().map(Num::of),
        max: max.as_ref().map(Num::of),
        exclusive_min: exclusive_min.as_ref().map(Num::of),
        exclusive_max: exclusive_max.as_ref().map(Num::of),
        multiple_of: multiple_of.as_ref().map(Num::of),
    }
}
