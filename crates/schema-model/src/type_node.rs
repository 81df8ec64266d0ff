//! Type nodes: the frozen set of kinds of schema 1 and the refinements each kind takes.

use indexmap::IndexMap;
use serde_json::Value;

use crate::{
    ArrayType, Deprecated, EnumType, Field, MapType, NumberRules, ObjectType, RefType, StringRules,
    TupleType, UnionType, Unknown,
};

/// A type: a kind with its refinements, and what every kind may carry (description,
/// deprecation, default, examples).
#[derive(Debug, Clone, PartialEq)]
pub struct TypeNode {
    /// The kind and its kind-specific members.
    pub kind: TypeKind,
    /// What values of this type mean.
    pub description: Option<String>,
    /// Whether (and why) the type is deprecated.
    pub deprecated: Option<Deprecated>,
    /// The value a reader assumes when the value is absent.
    pub default: Option<Value>,
    /// Example values.
    pub examples: Option<Vec<Value>>,
    /// Members this build has no name for — including known refinement names standing on a
    /// kind they do not apply to, which are kept and ignored like any unknown member.
    pub unknown: Unknown,
}

impl TypeNode {
    /// A node of `kind` with nothing else said.
    pub fn new(kind: TypeKind) -> Self {
        TypeNode {
            kind,
            description: None,
            deprecated: None,
            default: None,
            examples: None,
            unknown: Unknown::new(),
        }
    }
}

/// The kinds of schema 1. The set is frozen: a new kind is a new format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// Any JSON value.
    Any,
    /// `null`.
    Null,
    /// `true` or `false`.
    Boolean,
    /// An integer.
    Integer,
    /// A number.
    Number,
    /// A string.
    String,
    /// Exactly one JSON value.
    Literal,
    /// One of a set of strings or integers.
    Enum,
    /// An array of one item type.
    Array,
    /// A fixed-length array, one type per position.
    Tuple,
    /// An object with named fields.
    Object,
    /// An object used as a map from keys to values of one type.
    Map,
    /// A value of any of several types.
    Union,
    /// A named type.
    Ref,
}

impl Kind {
    /// Every kind of schema 1, in the order docs/format.md lists them.
    pub const ALL: [Kind; 14] = [
        Kind::Any,
        Kind::Null,
        Kind::Boolean,
        Kind::Integer,
        Kind::Number,
        Kind::String,
        Kind::Literal,
        Kind::Enum,
        Kind::Array,
        Kind::Tuple,
        Kind::Object,
        Kind::Map,
        Kind::Union,
        Kind::Ref,
    ];

    /// The kind's name as written in `kind`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Any => "any",
            Kind::Null => "null",
            Kind::Boolean => "boolean",
            Kind::Integer => "integer",
            Kind::Number => "number",
            Kind::String => "string",
            Kind::Literal => "literal",
            Kind::Enum => "enum",
            Kind::Array => "array",
            Kind::Tuple => "tuple",
            Kind::Object => "object",
            Kind::Map => "map",
            Kind::Union => "union",
            Kind::Ref => "ref",
        }
    }

    /// The kind named `name`, if schema 1 has it.
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The kind a writer most likely meant by an unknown `name`: one slip away from a kind's
    /// name (`strnig`), or the name another type system gives it (`float`, `enumeration`,
    /// `bool`, `struct`). `None` for a name that is neither, which is what a newer format's kind
    /// looks like.
    pub fn suggest(name: &str) -> Option<Kind> {
        if let Some(near) = crate::members::near_miss(name, Kind::ALL.iter().map(|k| k.name())) {
            return Kind::from_name(near);
        }
        let lower = name.to_ascii_lowercase();
        let kind = match lower.as_str() {
            "float" | "double" | "real" | "f32" | "f64" | "numeric" => Kind::Number,
            "int" | "long" | "short" | "uint" | "i8" | "i16" | "i32" | "i64" | "u8" | "u16"
            | "u32" | "u64" | "usize" | "isize" | "bigint" => Kind::Integer,
            "bool" => Kind::Boolean,
            "str" | "text" | "char" => Kind::String,
            "enumeration" | "enums" => Kind::Enum,
            "list" | "vec" | "sequence" | "seq" => Kind::Array,
            "struct" | "record" => Kind::Object,
            "dict" | "dictionary" | "hashmap" | "btreemap" => Kind::Map,
            "oneof" | "anyof" | "variant" | "either" => Kind::Union,
            "const" | "constant" => Kind::Literal,
            "reference" | "$ref" => Kind::Ref,
            "nil" | "none" | "void" | "unit" => Kind::Null,
            "unknown" | "value" | "json" => Kind::Any,
            _ => Kind::from_name(&lower)?,
        };
        Some(kind)
    }
}

/// A kind with its kind-specific members.
#[derive(Debug, Clone, PartialEq)]
pub enum TypeKind {
    /// Any JSON value.
    Any,
    /// `null`.
    Null,
    /// `true` or `false`.
    Boolean,
    /// An integer, with bounds.
    Integer(NumberRules),
    /// A number, with bounds.
    Number(NumberRules),
    /// A string, with lengths, pattern and format.
    String(StringRules),
    /// Exactly the value `value`.
    Literal {
        /// The one value.
        value: Value,
    },
    /// One of a set of values.
    Enum(EnumType),
    /// An array.
    Array(ArrayType),
    /// A tuple.
    Tuple(TupleType),
    /// An object.
    Object(ObjectType),
    /// A map.
    Map(MapType),
    /// A union.
    Union(UnionType),
    /// A reference to a named type.
    Ref(RefType),
}

impl TypeKind {
    /// The kind, without its members.
    pub fn kind(&self) -> Kind {
        match self {
            TypeKind::Any => Kind::Any,
            TypeKind::Null => Kind::Null,
            TypeKind::Boolean => Kind::Boolean,
            TypeKind::Integer(_) => Kind::Integer,
            TypeKind::Number(_) => Kind::Number,
            TypeKind::String(_) => Kind::String,
            TypeKind::Literal { .. } => Kind::Literal,
            TypeKind::Enum(_) => Kind::Enum,
            TypeKind::Array(_) => Kind::Array,
            TypeKind::Tuple(_) => Kind::Tuple,
            TypeKind::Object(_) => Kind::Object,
            TypeKind::Map(_) => Kind::Map,
            TypeKind::Union(_) => Kind::Union,
            TypeKind::Ref(_) => Kind::Ref,
        }
    }
}

impl PartialEq for ObjectType {
    fn eq(&self, other: &ObjectType) -> bool {
        let fields = match (&self.fields, &other.fields) {
            (Some(a), Some(b)) => same_entries(a, b),
            (None, None) => true,
            _ => false,
        };
        fields && self.closed == other.closed && self.reserved == other.reserved
    }
}

/// Map equality as `IndexMap`'s own (member order does not matter), checked in order first.
///
/// Two maps read from versions of one document almost always list their members in the same
/// order, and walking both in step compares them without hashing a key; `IndexMap`'s equality
/// looks every key up. Comparing whole contracts (compat-diff) spends most of its time here.
fn same_entries<V: PartialEq>(a: &IndexMap<String, V>, b: &IndexMap<String, V>) -> bool {
    if a.len() != b.len() {
        return false;
    }
    for ((ka, va), (kb, vb)) in a.iter().zip(b) {
        if ka != kb {
            return a == b; // another order: compare as maps
        }
        if va != vb {
            return false; // keys are unique, so the other map has no second value for `ka`
        }
    }
    true
}

/// What is below a node, by shape: up to two single nodes, a list, the fields of an object.
type Below<'a> = (
    Option<&'a TypeNode>,
    Option<&'a TypeNode>,
    &'a [TypeNode],
    Option<&'a IndexMap<String, Field>>,
);

impl TypeNode {
    /// The node with its documentation set aside (`description`, `deprecated`, `examples`, on
    /// the node and on every node and field inside it): what two nodes are compared by when
    /// the question is whether they are the same type (lint's `duplicate-union-arm`, extract's
    /// merging of arms that became equal).
    pub fn without_docs(&self) -> TypeNode {
        let mut node = self.clone();
        let mut stack = vec![&mut node];
        while let Some(node) = stack.pop() {
            node.description = None;
            node.deprecated = None;
            node.examples = None;
            match &mut node.kind {
                TypeKind::Array(a) => stack.push(&mut a.items),
                TypeKind::Tuple(t) => stack.extend(t.elements.iter_mut()),
                TypeKind::Object(o) => {
                    for field in o.fields.iter_mut().flat_map(|f| f.values_mut()) {
                        field.description = None;
                        field.deprecated = None;
                        stack.push(&mut field.ty);
                    }
                }
                TypeKind::Map(m) => {
                    stack.extend(m.keys.as_deref_mut());
                    stack.push(&mut m.values);
                }
                TypeKind::Union(u) => stack.extend(u.variants.iter_mut()),
                _ => {}
            }
        }
        node
    }
}

impl TypeNode {
    /// The type nodes directly below this one, in document order: an array's items, a
    /// tuple's elements, an object's field types, a map's keys (when given) and values, a
    /// union's variants. Refs are not followed. Every kind is named, so a new kind does not
    /// compile until it says what is below it; the walks that only descend use this.
    pub fn children(&self) -> impl DoubleEndedIterator<Item = &TypeNode> {
        let (first, second, list, fields): Below<'_> = match &self.kind {
            TypeKind::Any
            | TypeKind::Null
            | TypeKind::Boolean
            | TypeKind::Integer(_)
            | TypeKind::Number(_)
            | TypeKind::String(_)
            | TypeKind::Literal { .. }
            | TypeKind::Enum(_)
            | TypeKind::Ref(_) => (None, None, &[], None),
            TypeKind::Array(a) => (Some(&a.items), None, &[], None),
            TypeKind::Tuple(t) => (None, None, &t.elements, None),
            TypeKind::Object(o) => (None, None, &[], o.fields.as_ref()),
            TypeKind::Map(m) => (m.keys.as_deref(), Some(&m.values), &[], None),
            TypeKind::Union(u) => (None, None, &u.variants, None),
        };
        first
            .into_iter()
            .chain(second)
            .chain(list)
            .chain(fields.into_iter().flat_map(|f| f.values().map(|f| &f.ty)))
    }

    /// How many members, in this node and every node and field below it, this build has no name for.
    pub fn unknown_member_count(&self) -> usize {
        use crate::document::reserved_unknown;
        let below = match &self.kind {
            TypeKind::Any
            | TypeKind::Null
            | TypeKind::Boolean
            | TypeKind::Integer(_)
            | TypeKind::Number(_)
            | TypeKind::String(_)
            | TypeKind::Literal { .. }
            | TypeKind::Ref(_) => 0,
            TypeKind::Enum(e) => reserved_unknown(&e.reserved),
            TypeKind::Array(a) => a.items.unknown_member_count(),
            TypeKind::Tuple(t) => t.elements.iter().map(TypeNode::unknown_member_count).sum(),
            TypeKind::Object(o) => {
                let fields = o.fields.iter().flat_map(|all| all.values());
                reserved_unknown(&o.reserved)
                    + fields.map(Field::unknown_member_count).sum::<usize>()
            }
            TypeKind::Map(m) => {
                m.keys.as_ref().map_or(0, |k| k.unknown_member_count())
                    + m.values.unknown_member_count()
            }
            TypeKind::Union(u) => u.variants.iter().map(TypeNode::unknown_member_count).sum(),
        };
        self.unknown.len() + below
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Field;

    fn object(fields: &[(&str, TypeKind)]) -> ObjectType {
        let fields = fields
            .iter()
            .map(|(name, kind)| ((*name).to_owned(), Field::new(TypeNode::new(kind.clone()))))
            .collect();
        ObjectType { fields: Some(fields), ..ObjectType::default() }
    }

    #[test]
    fn object_equality_ignores_member_order_and_sees_every_difference() {
        let ab = object(&[("a", TypeKind::Boolean), ("b", TypeKind::Null)]);
        let ba = object(&[("b", TypeKind::Null), ("a", TypeKind::Boolean)]);
        assert_eq!(ab, ba, "another order, same members");
        let changed = object(&[("a", TypeKind::Boolean), ("b", TypeKind::Boolean)]);
        assert_ne!(ab, changed, "same order, a value differs");
        let swapped_and_changed = object(&[("b", TypeKind::Boolean), ("a", TypeKind::Boolean)]);
        assert_ne!(ab, swapped_and_changed, "another order, a value differs");
        let renamed = object(&[("a", TypeKind::Boolean), ("c", TypeKind::Null)]);
        assert_ne!(ab, renamed, "a key differs");
        assert_ne!(ab, object(&[("a", TypeKind::Boolean)]), "fewer members");
        assert_ne!(ab, ObjectType::default(), "fields absent");
        let closed = ObjectType { closed: Some(true), ..ab.clone() };
        assert_ne!(ab, closed, "other members still count");
    }
}
