//! `allOf` (and `$ref` with sibling assertions): the conjunction of two type nodes as one node,
//! where the format can say it exactly — objects merged field by field, bounds tightened,
//! listed values filtered, and unions distributed (`A ∧ (B ∨ C)` is `(A ∧ B) ∨ (A ∧ C)`).
//! Where it cannot (two different patterns, a closed object meeting members it does not
//! name), the first part is kept and the loss reported.
//!
//! Each kind's members are named in full where two of it meet, so a refinement added to the
//! model does not compile here until the merge says how two of it combine.

use accord_schema_model::{
    ArrayType, Field, MapType, NumberRules, ObjectType, Refinement, Reserved, StringRules,
    TupleType, TypeKind, TypeNode,
};
use indexmap::IndexMap;
use serde_json::{Number, Value};

use crate::node::{self, add_annotations, is_any, is_never, never, of, union};
use crate::report::Accepts;
use crate::schema::Converter;

/// `a ∧ b`, losses reported at `at`.
pub(crate) fn merge(c: &mut Converter<'_>, a: TypeNode, b: TypeNode, at: &str) -> TypeNode {
    if is_never(&a) || is_never(&b) {
        return never();
    }
    if is_any(&b) {
        let mut a = a;
        add_annotations(&mut a, &b);
        return a;
    }
    if is_any(&a) {
        let mut b = b;
        add_annotations(&mut b, &a);
        return b;
    }
    for (u, other, u_first) in [(&a, &b, true), (&b, &a, false)] {
        if let TypeKind::Union(u) = &u.kind {
            let merged: Vec<TypeNode> = u
                .variants
                .iter()
                .map(|arm| {
                    if u_first {
                        merge(c, arm.clone(), other.clone(), at)
                    } else {
                        merge(c, other.clone(), arm.clone(), at)
                    }
                })
                .filter(|n| !is_never(n))
                .collect();
            let mut out = if merged.is_empty() { never() } else { union(merged) };
            if let TypeKind::Union(merged) = &mut out.kind
                && merged.discriminator.is_none()
            {
                merged.discriminator.clone_from(&u.discriminator);
            }
            return out;
        }
    }
    // Refs: the named node, inlined, when the other side restricts it.
    for first in [true, false] {
        let r = if first { &a } else { &b };
        if let TypeKind::Ref(name) = &r.kind {
            c.merged_away(name);
            let Some(mut target) = c.deref(r) else {
                let detail = "a part names a type still being built (recursion through `allOf`); only the other part is checked".into();
                c.loss(at, "all-of-merge", Accepts::Wider, detail);
                return if first { b } else { a };
            };
            // The ref's own annotations stand over the named type's.
            annotations_over(&mut target, r);
            return if first { merge(c, target, b, at) } else { merge(c, a, target, at) };
        }
    }
    let mut out = match (&a.kind, &b.kind) {
        (TypeKind::Literal { .. } | TypeKind::Enum(_), _)
        | (_, TypeKind::Literal { .. } | TypeKind::Enum(_)) => listed(c, &a, &b, at),
        (TypeKind::Integer(x), TypeKind::Integer(y) | TypeKind::Number(y))
        | (TypeKind::Number(x), TypeKind::Integer(y)) => {
            of(TypeKind::Integer(numbers(c, x.clone(), y.clone(), at)))
        }
        (TypeKind::Number(x), TypeKind::Number(y)) => {
            of(TypeKind::Number(numbers(c, x.clone(), y.clone(), at)))
        }
        (TypeKind::String(x), TypeKind::String(y)) => {
            of(TypeKind::String(strings(c, x.clone(), y.clone(), at)))
        }
        (TypeKind::Array(x), TypeKind::Array(y)) => arrays(c, x, y, at),
        (TypeKind::Tuple(x), TypeKind::Tuple(y)) => tuples(c, x, y, at),
        (TypeKind::Tuple(t), TypeKind::Array(arr)) | (TypeKind::Array(arr), TypeKind::Tuple(t)) => {
            let mut out = tuple_and_array(c, t, arr, at);
            // The tuple's annotations first, as it is the shape kept.
            let tuple = if matches!(a.kind, TypeKind::Tuple(_)) { &a } else { &b };
            add_annotations(&mut out, tuple);
            out
        }
        (TypeKind::Object(x), TypeKind::Object(y)) => objects(c, x, y, at),
        (TypeKind::Map(x), TypeKind::Map(y)) => maps(c, x, y, at),
        (TypeKind::Null, TypeKind::Null) | (TypeKind::Boolean, TypeKind::Boolean) => {
            of(a.kind.clone())
        }
        // Values of different JSON types: none is both.
        _ if node::class_of(&a).is_some()
            && node::class_of(&b).is_some()
            && node::class_of(&a) != node::class_of(&b) =>
        {
            return never();
        }
        _ => {
            let (ka, kb) = (a.kind.kind().name(), b.kind.kind().name());
            let detail = format!(
                "a `{ka}` and a `{kb}` cannot be merged into one type; only the first is checked"
            );
            c.loss(at, "all-of-merge", Accepts::Wider, detail);
            of(a.kind.clone())
        }
    };
    add_annotations(&mut out, &a);
    add_annotations(&mut out, &b);
    out
}

/// The ref's annotations (and unknown members) over the target's.
fn annotations_over(target: &mut TypeNode, r: &TypeNode) {
    if r.description.is_some() {
        target.description.clone_from(&r.description);
    }
    if r.deprecated.is_some() {
        target.deprecated.clone_from(&r.deprecated);
    }
    if r.default.is_some() {
        target.default.clone_from(&r.default);
    }
    if r.examples.is_some() {
        target.examples.clone_from(&r.examples);
    }
    for (k, v) in &r.unknown {
        target.unknown.insert(k.clone(), v.clone());
    }
}

fn numbers(
    c: &mut Converter<'_>,
    mut out: NumberRules,
    theirs: NumberRules,
    at: &str,
) -> NumberRules {
    // Every refinement is named, so a new one does not compile until it is merged.
    let NumberRules {
        min,
        max,
        exclusive_min,
        exclusive_max,
        multiple_of,
        unit,
        #[cfg(feature = "dummy-refinement-handled")]
            dummy: _,
    } = theirs;
    tighter(&mut out.min, min, true);
    tighter(&mut out.exclusive_min, exclusive_min, true);
    tighter(&mut out.max, max, false);
    tighter(&mut out.exclusive_max, exclusive_max, false);
    same_or_loss(c, &mut out.multiple_of, multiple_of, Refinement::MultipleOf, at);
    same_or_loss(c, &mut out.unit, unit, Refinement::Unit, at);
    out
}

fn strings(
    c: &mut Converter<'_>,
    mut out: StringRules,
    theirs: StringRules,
    at: &str,
) -> StringRules {
    // Every refinement is named, so a new one does not compile until it is merged.
    let StringRules { min_length, max_length, pattern, format } = theirs;
    tighter(&mut out.min_length, min_length, true);
    tighter(&mut out.max_length, max_length, false);
    same_or_loss(c, &mut out.pattern, pattern, Refinement::Pattern, at);
    same_or_loss(c, &mut out.format, format, Refinement::Format, at);
    out
}

fn arrays(c: &mut Converter<'_>, a: &ArrayType, b: &ArrayType, at: &str) -> TypeNode {
    // Every refinement is named, so a new one does not compile until it is merged.
    let ArrayType {
        items,
        min_items,
        max_items,
        unique_items,
        #[cfg(feature = "dummy-refinement-handled")]
            dummy_items: _,
    } = b.clone();
    let mut out = a.clone();
    out.items = Box::new(merge(c, *a.items.clone(), *items, at));
    tighter(&mut out.min_items, min_items, true);
    tighter(&mut out.max_items, max_items, false);
    if unique_items == Some(true) {
        out.unique_items = Some(true);
    }
    of(TypeKind::Array(out))
}

fn tuples(c: &mut Converter<'_>, a: &TupleType, b: &TupleType, at: &str) -> TypeNode {
    let (TupleType { elements: ea }, TupleType { elements: eb }) = (a, b);
    if ea.len() != eb.len() {
        return never();
    }
    let elements: Vec<TypeNode> =
        ea.iter().zip(eb).map(|(x, y)| merge(c, x.clone(), y.clone(), at)).collect();
    of(TypeKind::Tuple(TupleType { elements }))
}

/// A tuple meeting an array: each position meets the array's items.
fn tuple_and_array(c: &mut Converter<'_>, t: &TupleType, arr: &ArrayType, at: &str) -> TypeNode {
    let ArrayType {
        items,
        min_items,
        max_items,
        unique_items,
        #[cfg(feature = "dummy-refinement-handled")]
            dummy_items: _,
    } = arr;
    let elements: Vec<TypeNode> =
        t.elements.iter().map(|e| merge(c, e.clone(), (**items).clone(), at)).collect();
    // The array's refinements besides its items.
    if min_items.is_some() || max_items.is_some() || unique_items.is_some() {
        let detail =
            "item counts beside fixed positions are not merged; the tuple's own count is kept"
                .into();
        c.loss(at, "all-of-merge", Accepts::Wider, detail);
    }
    of(TypeKind::Tuple(TupleType { elements }))
}

fn maps(c: &mut Converter<'_>, a: &MapType, b: &MapType, at: &str) -> TypeNode {
    // Every refinement is named, so a new one does not compile until it is merged.
    let MapType { keys, values } = b.clone();
    let mut out = a.clone();
    out.values = Box::new(merge(c, *a.values.clone(), *values, at));
    match (&a.keys, keys) {
        (None, Some(k)) => out.keys = Some(k),
        (Some(x), Some(y)) if **x != *y => {
            let detail = "two key types are not merged; the first is checked".into();
            c.loss(at, "all-of-merge", Accepts::Wider, detail);
        }
        _ => {}
    }
    of(TypeKind::Map(out))
}

/// A bound as a float, for comparing bounds.
trait Bound: Clone {
    fn value(&self) -> Option<f64>;
}

impl Bound for Number {
    fn value(&self) -> Option<f64> {
        self.as_f64()
    }
}

impl Bound for u64 {
    fn value(&self) -> Option<f64> {
        Some(*self as f64)
    }
}

/// Keeps the tighter of two bounds: the larger lower bound or the smaller upper one.
fn tighter<T: Bound>(ours: &mut Option<T>, theirs: Option<T>, lower: bool) {
    let Some(theirs) = theirs else { return };
    let keep_theirs = match ours.as_ref().and_then(Bound::value) {
        None => true,
        Some(o) => {
            let t = theirs.value().unwrap_or(o);
            if lower { t > o } else { t < o }
        }
    };
    if keep_theirs {
        *ours = Some(theirs);
    }
}

/// Takes `theirs` where `ours` is absent; two different values are a loss (the first kept).
fn same_or_loss<T: PartialEq + Clone + Into<Value>>(
    c: &mut Converter<'_>,
    ours: &mut Option<T>,
    theirs: Option<T>,
    r: Refinement,
    at: &str,
) {
    match (ours.clone(), theirs) {
        (None, Some(theirs)) => *ours = Some(theirs),
        (Some(o), Some(theirs)) if o != theirs => {
            let (key, o) = (r.name(), o.into());
            let detail = format!("two different `{key}`s cannot be one; only {o} is checked");
            c.loss(at, "all-of-merge", Accepts::Wider, detail);
        }
        _ => {}
    }
}

fn objects(c: &mut Converter<'_>, a: &ObjectType, b: &ObjectType, at: &str) -> TypeNode {
    // Every refinement is named, so a new one does not compile until it is merged.
    let ObjectType { fields: fa, closed: closed_a, reserved: reserved_a } = a;
    let ObjectType { fields: fb, closed: closed_b, reserved: reserved_b } = b;
    let mut fields: IndexMap<String, Field> = fa.clone().unwrap_or_default();
    for (name, theirs) in fb.iter().flatten() {
        match fields.get(name).cloned() {
            None => {
                fields.insert(name.clone(), theirs.clone());
            }
            Some(ours) => {
                let ty = merge(c, ours.ty.clone(), theirs.ty.clone(), at);
                let mut field = Field { ty, ..ours };
                // Required when either part requires it.
                if theirs.optional != Some(true) {
                    field.optional = None;
                }
                if field.description.is_none() {
                    field.description.clone_from(&theirs.description);
                }
                fields.insert(name.clone(), field);
            }
        }
    }
    let (closed_a, closed_b) = (*closed_a == Some(true), *closed_b == Some(true));
    let mut closed = None;
    if closed_a || closed_b {
        // A closed part refuses the other part's members it does not name.
        let names = |f: &Option<IndexMap<String, Field>>| -> Vec<String> {
            f.iter().flat_map(|m| m.keys().cloned()).collect()
        };
        let (closed_names, other_names) =
            if closed_a { (names(fa), names(fb)) } else { (names(fb), names(fa)) };
        let extra: Vec<&String> =
            other_names.iter().filter(|n| !closed_names.contains(n)).collect();
        if extra.is_empty() || (closed_a && closed_b) {
            closed = Some(true);
        } else {
            let detail = format!(
                "a closed part meets members it does not name ({}); the merged object is left open",
                extra.iter().map(|s| format!("`{s}`")).collect::<Vec<_>>().join(", ")
            );
            c.loss(at, "all-of-merge", Accepts::Wider, detail);
        }
    }
    // A name reserved in either part may not be reused in the whole.
    let reserved = match (reserved_a, reserved_b) {
        (None, None) => None,
        (x, y) => {
            let mut all: Vec<Reserved> = x.clone().unwrap_or_default();
            for r in y.iter().flatten() {
                if !all.iter().any(|kept| kept.name == r.name) {
                    all.push(r.clone());
                }
            }
            Some(all)
        }
    };
    let fields = (fa.is_some() || fb.is_some()).then_some(fields);
    of(TypeKind::Object(ObjectType { fields, closed, reserved }))
}

/// A literal or enum against another node: the listed values the other admits.
fn listed(c: &mut Converter<'_>, a: &TypeNode, b: &TypeNode, at: &str) -> TypeNode {
    let (va, vb) = (node::listed_values(a), node::listed_values(b));
    let values: Vec<Value> = match (va, vb) {
        (Some(x), Some(y)) => x.into_iter().filter(|v| y.contains(v)).collect(),
        (Some(x), None) | (None, Some(x)) => {
            let other = if node::listed_values(a).is_some() { b } else { a };
            let class = node::class_of(other);
            let integer = matches!(other.kind, TypeKind::Integer(_));
            let kept: Vec<Value> = x
                .into_iter()
                .filter(|v| {
                    class.is_none_or(|cl| node::value_class(v) == cl)
                        && (!integer || v.is_i64() || v.is_u64())
                })
                .collect();
            if node::has_assertions(other) {
                let detail = "listed values meet a type with refinements; the values are kept without checking them against it".into();
                c.loss(at, "all-of-merge", Accepts::Wider, detail);
            }
            kept
        }
        (None, None) => Vec::new(),
    };
    if values.is_empty() { never() } else { node::values_node(values) }
}
