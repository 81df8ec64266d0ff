//! The document as the rules see it: every namespace, method, event and type node, each with
//! its JSON Pointer, in document order.

use accord_schema_model::inhabited::NamedTypes;
use accord_schema_model::{Document, Event, Link, Method, Namespace, Pointer, TypeKind, TypeNode};

/// Where a type node stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Place {
    /// A named type (`…/types/Name`).
    Named,
    /// A param's `type`.
    Param,
    /// A method's `result`.
    Result,
    /// A declared error's `data`.
    ErrorData,
    /// An event's `payload`.
    Payload,
    /// An object field's `type`.
    Field,
    /// An array's `items`.
    Items,
    /// A tuple's element.
    Element,
    /// A map's `keys`.
    Keys,
    /// A map's `values`.
    Values,
    /// A union's arm.
    Variant,
}

/// One type node, with where it stands.
#[derive(Debug, Clone)]
pub(crate) struct NodeAt<'d> {
    /// The node's pointer.
    pub(crate) pointer: Pointer,
    /// The namespace whose record contains it (refs without `namespace` resolve there).
    pub(crate) namespace: &'d str,
    /// The node.
    pub(crate) node: &'d TypeNode,
    /// What kind of position it has.
    pub(crate) place: Place,
}

/// One method, with its place.
#[derive(Debug, Clone)]
pub(crate) struct MethodAt<'d> {
    pub(crate) pointer: Pointer,
    pub(crate) namespace: &'d str,
    pub(crate) name: &'d str,
    pub(crate) method: &'d Method,
}

/// One event, with its place.
#[derive(Debug, Clone)]
pub(crate) struct EventAt<'d> {
    pub(crate) pointer: Pointer,
    pub(crate) namespace: &'d str,
    pub(crate) name: &'d str,
    pub(crate) event: &'d Event,
}

/// The document, indexed once for every rule.
#[derive(Debug)]
pub(crate) struct Walk<'d> {
    pub(crate) doc: &'d Document,
    /// Every type node, in document order (parents before children).
    pub(crate) nodes: Vec<NodeAt<'d>>,
    pub(crate) methods: Vec<MethodAt<'d>>,
    pub(crate) events: Vec<EventAt<'d>>,
    /// Every named type as `(namespace, name, node)`, in document order: a type's place in
    /// `named.list` is its id ([`Walk::named_id`]), which the graph rules index by.
    pub(crate) named: NamedTypes<'d>,
}

impl<'d> Walk<'d> {
    pub(crate) fn new(doc: &'d Document) -> Self {
        let mut walk = Walk {
            doc,
            nodes: Vec::new(),
            methods: Vec::new(),
            events: Vec::new(),
            named: NamedTypes::of(doc),
        };
        for (ns_name, ns, ns_at) in walk.namespaces() {
            for (name, method) in ns.methods.iter().flatten() {
                let at = ns_at.key("methods").key(name);
                for (i, p) in method.params.iter().flatten().enumerate() {
                    let p_at = at.key("params").index(i).key("type");
                    walk.push_tree(ns_name, &p.field.ty, p_at, Place::Param);
                }
                walk.push_tree(ns_name, &method.result, at.key("result"), Place::Result);
                for (i, e) in method.errors.iter().flatten().enumerate() {
                    if let Some(data) = &e.data {
                        let e_at = at.key("errors").index(i).key("data");
                        walk.push_tree(ns_name, data, e_at, Place::ErrorData);
                    }
                }
                walk.methods.push(MethodAt { pointer: at, namespace: ns_name, name, method });
            }
            for (name, event) in ns.events.iter().flatten() {
                let at = ns_at.key("events").key(name);
                walk.push_tree(ns_name, &event.payload, at.key("payload"), Place::Payload);
                walk.events.push(EventAt { pointer: at, namespace: ns_name, name, event });
            }
            for (name, ty) in ns.types.iter().flatten() {
                walk.push_tree(ns_name, ty, ns_at.key("types").key(name), Place::Named);
            }
        }
        walk
    }

    /// Every namespace, with its name and pointer.
    pub(crate) fn namespaces(
        &self,
    ) -> impl Iterator<Item = (&'d str, &'d Namespace, Pointer)> + use<'d> {
        let root = Pointer::root().key("namespaces");
        let doc: &'d Document = self.doc;
        doc.namespaces.iter().flatten().map(move |(n, ns)| (n.as_str(), ns, root.key(n)))
    }

    /// Pushes `node` and every node below it, in pre-order, without recursion.
    fn push_tree(&mut self, namespace: &'d str, node: &'d TypeNode, at: Pointer, place: Place) {
        let mut stack = vec![(node, at, place)];
        while let Some((node, at, place)) = stack.pop() {
            let mut children: Vec<(&'d TypeNode, Pointer, Place)> = Vec::new();
            let below = |segments: &[&str], index: Option<usize>| at.below(segments, index);
            match &node.kind {
                TypeKind::Array(a) => {
                    children.push((&a.items, below(&["items"], None), Place::Items));
                }
                TypeKind::Tuple(t) => {
                    for (i, e) in t.elements.iter().enumerate() {
                        children.push((e, below(&["elements"], Some(i)), Place::Element));
                    }
                }
                TypeKind::Object(o) => {
                    for (name, field) in o.fields.iter().flatten() {
                        let at = below(&["fields", name, "type"], None);
                        children.push((&field.ty, at, Place::Field));
                    }
                }
                TypeKind::Map(m) => {
                    if let Some(keys) = &m.keys {
                        children.push((keys, below(&["keys"], None), Place::Keys));
                    }
                    children.push((&m.values, below(&["values"], None), Place::Values));
                }
                TypeKind::Union(u) => {
                    for (i, v) in u.variants.iter().enumerate() {
                        children.push((v, below(&["variants"], Some(i)), Place::Variant));
                    }
                }
                _ => {}
            }
            stack.extend(children.into_iter().rev());
            self.nodes.push(NodeAt { pointer: at, namespace, node, place });
        }
    }

    /// The method `namespace.name`, if the document defines it (links name their target so).
    pub(crate) fn method(&self, namespace: &str, name: &str) -> Option<&'d Method> {
        self.doc.namespaces.as_ref()?.get(namespace)?.methods.as_ref()?.get(name)
    }

    /// Whether the document has the namespace `namespace`.
    pub(crate) fn has_namespace(&self, namespace: &str) -> bool {
        self.doc.namespaces.as_ref().is_some_and(|all| all.contains_key(namespace))
    }

    /// Every link of every method: the method, the link's name, the link and its pointer.
    pub(crate) fn links(
        &self,
    ) -> impl Iterator<Item = (&MethodAt<'d>, &'d str, &'d Link, Pointer)> {
        self.methods.iter().flat_map(|m| {
            m.method
                .links
                .iter()
                .flatten()
                .map(move |(name, link)| (m, name.as_str(), link, m.pointer.key("links").key(name)))
        })
    }

    /// The named type `namespace.name`, if the document defines it.
    pub(crate) fn named(&self, namespace: &str, name: &str) -> Option<&'d TypeNode> {
        self.doc.namespaces.as_ref()?.get(namespace)?.types.as_ref()?.get(name)
    }

    /// The id of the named type `namespace.name` (its place in `named.list`), if the
    /// document defines it. No allocation: the document's own maps give both indexes.
    pub(crate) fn named_id(&self, namespace: &str, name: &str) -> Option<usize> {
        self.named.id(namespace, name)
    }

    /// The pointer of the named type `namespace.name`.
    pub(crate) fn named_pointer(namespace: &str, name: &str) -> Pointer {
        Pointer::root().key("namespaces").key(namespace).key("types").key(name)
    }

    /// Follows refs from `node` (standing in `namespace`) to the node they end at, with the
    /// namespace it stands in and, when it is a named type, its pointer. `None` for a dangling
    /// ref or a cycle of refs (the model's [`Document::through_refs`]).
    pub(crate) fn resolve(
        &self,
        namespace: &'d str,
        node: &'d TypeNode,
        at: &Pointer,
    ) -> Option<(&'d str, &'d TypeNode, Pointer)> {
        let end = self.doc.through_refs(namespace, node)?;
        let at = match end.name {
            Some(name) => Walk::named_pointer(end.namespace, name),
            None => at.clone(),
        };
        Some((end.namespace, end.node, at))
    }
}
