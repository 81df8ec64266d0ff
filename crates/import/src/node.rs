//! Type nodes as the import builds them: the model's own [`TypeNode`]s, with the few questions
//! the conversion and the merge ask of them.
//!
//! The import builds typed nodes, so a refinement added to the model's declaration
//! (schema-model's `refinement.rs`) does not compile until the import says how to read it
//! (`schema.rs`), merge it (`merge.rs`) and whether it restricts values ([`has_assertions`]).
//! The document the nodes end up in is still read back by the model's one reader
//! (`Document::from_value`), so every node it makes is checked by the same rules as a contract
//! read from a file.

use accord_schema_model::{
    ArrayType, EnumType, MapType, NumberRules, ObjectType, RefType, StringRules, TupleType,
    TypeKind, TypeNode, UnionType,
};
use serde_json::Value;

/// A node of `kind` with nothing else said.
pub(crate) fn of(kind: TypeKind) -> TypeNode {
    TypeNode::new(kind)
}

/// The node that admits every value.
pub(crate) fn any() -> TypeNode {
    of(TypeKind::Any)
}

/// The node that admits no value: a union without arms (JSON Schema's `false`).
pub(crate) fn never() -> TypeNode {
    of(TypeKind::Union(UnionType::default()))
}

/// Whether `node` admits no value (a union without arms).
pub(crate) fn is_never(node: &TypeNode) -> bool {
    matches!(&node.kind, TypeKind::Union(u) if u.variants.is_empty())
}

/// Whether the node admits every value: kind `any`.
pub(crate) fn is_any(node: &TypeNode) -> bool {
    matches!(node.kind, TypeKind::Any)
}

/// A union of `arms`, or the one arm when there is one.
pub(crate) fn union(mut arms: Vec<TypeNode>) -> TypeNode {
    if arms.len() == 1 {
        return arms.remove(0);
    }
    of(TypeKind::Union(UnionType { variants: arms, discriminator: None }))
}

/// An array of `items`, with nothing else said.
pub(crate) fn array_of(items: TypeNode) -> TypeNode {
    of(TypeKind::Array(ArrayType {
        items: Box::new(items),
        min_items: None,
        max_items: None,
        unique_items: None,
        #[cfg(feature = "dummy-refinement-handled")]
        dummy_items: None,
    }))
}

/// An enum of `values`, closed, with nothing reserved.
pub(crate) fn enum_of(values: Vec<Value>) -> TypeNode {
    of(TypeKind::Enum(EnumType { values, open: None, reserved: None }))
}

/// A literal of `value`.
pub(crate) fn literal(value: Value) -> TypeNode {
    of(TypeKind::Literal { value })
}

/// Whether `node` has a member of its kind that restricts values (a bound, its items, its
/// fields; not a unit, a discriminator or reserved names): what a merge must keep. Every member
/// of every kind is named, so a refinement added to the model does not compile here until the
/// import says whether it restricts.
pub(crate) fn has_assertions(node: &TypeNode) -> bool {
    match &node.kind {
        TypeKind::Any | TypeKind::Null | TypeKind::Boolean => false,
        TypeKind::Integer(rules) | TypeKind::Number(rules) => {
            let NumberRules {
                min,
                max,
                exclusive_min,
                exclusive_max,
                multiple_of,
                unit: _,
                #[cfg(feature = "dummy-refinement-handled")]
                dummy,
            } = rules;
            let restricting = [
                min.is_some(),
                max.is_some(),
                exclusive_min.is_some(),
                exclusive_max.is_some(),
                multiple_of.is_some(),
                #[cfg(feature = "dummy-refinement-handled")]
                dummy.is_some(),
            ];
            restricting.contains(&true)
        }
        TypeKind::String(StringRules { min_length, max_length, pattern, format }) => {
            min_length.is_some() || max_length.is_some() || pattern.is_some() || format.is_some()
        }
        TypeKind::Literal { value: _ } => true,
        TypeKind::Enum(EnumType { values: _, open: _, reserved: _ }) => true,
        TypeKind::Array(ArrayType {
            items: _,
            min_items: _,
            max_items: _,
            unique_items: _,
            #[cfg(feature = "dummy-refinement-handled")]
                dummy_items: _,
        }) => true,
        TypeKind::Tuple(TupleType { elements: _ }) => true,
        TypeKind::Object(ObjectType { fields, closed, reserved: _ }) => {
            fields.is_some() || closed.is_some()
        }
        TypeKind::Map(MapType { keys: _, values: _ }) => true,
        TypeKind::Union(UnionType { variants: _, discriminator: _ }) => true,
        TypeKind::Ref(RefType { name: _, namespace: _ }) => true,
    }
}

/// Whether `name` is a member the format gives a place on some type node: an annotation every
/// kind takes (format.md §7.1) or a kind's refinement (what the model's reader reads, not what
/// it keeps as unknown, when it stands on that kind). `kind` itself is not one a schema may set.
pub(crate) fn is_member_name(name: &str) -> bool {
    matches!(name, "description" | "deprecated" | "default" | "examples")
        || accord_schema_model::Refinement::named(name).next().is_some()
}

/// Adds `from`'s annotations (description, deprecation, default, examples) and unknown members
/// to `to` where `to` has none of that name.
pub(crate) fn add_annotations(to: &mut TypeNode, from: &TypeNode) {
    if to.description.is_none() {
        to.description.clone_from(&from.description);
    }
    if to.deprecated.is_none() {
        to.deprecated.clone_from(&from.deprecated);
    }
    if to.default.is_none() {
        to.default.clone_from(&from.default);
    }
    if to.examples.is_none() {
        to.examples.clone_from(&from.examples);
    }
    for (k, v) in &from.unknown {
        if !to.unknown.contains_key(k) {
            to.unknown.insert(k.clone(), v.clone());
        }
    }
}

/// The JSON type class a kind's values belong to, for telling arms apart: values of two
/// different classes are never equal.
pub(crate) fn class_of(node: &TypeNode) -> Option<&'static str> {
    Some(match &node.kind {
        TypeKind::Null => "null",
        TypeKind::Boolean => "boolean",
        TypeKind::Integer(_) | TypeKind::Number(_) => "number",
        TypeKind::String(_) => "string",
        TypeKind::Array(_) | TypeKind::Tuple(_) => "array",
        TypeKind::Object(_) | TypeKind::Map(_) => "object",
        TypeKind::Literal { value } => value_class(value),
        TypeKind::Enum(e) => {
            let first = value_class(e.values.first()?);
            if e.values.iter().all(|v| value_class(v) == first) {
                first
            } else {
                return None;
            }
        }
        TypeKind::Any | TypeKind::Union(_) | TypeKind::Ref(_) => return None,
    })
}

/// The JSON type class of a value.
pub(crate) fn value_class(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The values a literal or enum node admits, when it is one.
pub(crate) fn listed_values(node: &TypeNode) -> Option<Vec<Value>> {
    match &node.kind {
        TypeKind::Literal { value } => Some(vec![value.clone()]),
        TypeKind::Enum(e) => Some(e.values.clone()),
        _ => None,
    }
}

/// A node admitting exactly `values`: a literal for one, an enum for strings and integers, a
/// union of literals (and an enum) otherwise.
pub(crate) fn values_node(mut values: Vec<Value>) -> TypeNode {
    if values.len() == 1 {
        return literal(values.remove(0));
    }
    let enumerable = |v: &Value| v.is_string() || v.is_i64() || v.is_u64();
    if values.iter().all(enumerable) {
        return enum_of(values);
    }
    let (mut listed, others): (Vec<Value>, Vec<Value>) = values.into_iter().partition(enumerable);
    let mut arms: Vec<TypeNode> = others.into_iter().map(literal).collect();
    match listed.len() {
        0 => {}
        1 => arms.push(literal(listed.remove(0))),
        _ => arms.push(enum_of(listed)),
    }
    union(arms)
}
