//! `allOf` (and `$ref` with sibling assertions): the conjunction of two type nodes as one node,
//! where the format can say it exactly — objects merged field by field, bounds tightened,
//! listed values filtered, and unions distributed (`A ∧ (B ∨ C)` is `(A ∧ B) ∨ (A ∧ C)`).
//! Where it cannot (two different patterns, a closed object meeting members it does not
//! name), the first part is kept and the loss reported.

use accord_schema_model::{Kind, NumberRules, Refinement, StringRules, TypeKind};
use serde_json::{Map, Number, Value, json};

use crate::node::{self, add_annotations, is_any, is_never, kind_of, never, union};
use crate::report::Accepts;
use crate::schema::Converter;

/// `a ∧ b`, losses reported at `at`. The result is untyped (node::UNTYPED) only when both
/// parts are: a typed part gives the other its type.
pub(crate) fn merge(c: &mut Converter<'_>, a: Value, b: Value, at: &str) -> Value {
    // A part without assertions (`any`) gives no type either.
    let untyped =
        |x: &Value| x.get(node::UNTYPED).is_some() || (is_any(x) && !node::has_assertions(x));
    let keep = untyped(&a) && untyped(&b);
    let mark = a.get(node::UNTYPED).or_else(|| b.get(node::UNTYPED)).cloned();
    let mut out = merge_inner(c, a, b, at);
    if let Some(o) = out.as_object_mut() {
        match (keep, mark) {
            (true, Some(mark)) => {
                o.insert(node::UNTYPED.to_owned(), mark);
            }
            _ => {
                o.remove(node::UNTYPED);
            }
        }
    }
    out
}

fn merge_inner(c: &mut Converter<'_>, a: Value, b: Value, at: &str) -> Value {
    if is_never(&a) || is_never(&b) {
        return never();
    }
    if !node::has_assertions(&b) && is_any(&b) {
        let mut a = a;
        add_annotations(&mut a, &b);
        return a;
    }
    if !node::has_assertions(&a) && is_any(&a) {
        let mut b = b;
        add_annotations(&mut b, &a);
        return b;
    }
    for (u, other, u_first) in [(&a, &b, true), (&b, &a, false)] {
        if kind_of(u) == "union" {
            let arms = u["variants"].as_array().cloned().unwrap_or_default();
            let merged: Vec<Value> = arms
                .into_iter()
                .map(|arm| {
                    if u_first {
                        merge(c, arm, other.clone(), at)
                    } else {
                        merge(c, other.clone(), arm, at)
                    }
                })
                .filter(|n| !is_never(n))
                .collect();
            let mut out = if merged.is_empty() { never() } else { union(merged) };
            if out.get("discriminator").is_none()
                && u.get("discriminator").is_some()
                && let Some(o) = out.as_object_mut()
            {
                o.insert("discriminator".to_owned(), u["discriminator"].clone());
            }
            return out;
        }
    }
    // Refs: the named node, inlined, when the other side restricts it.
    for first in [true, false] {
        let r = if first { &a } else { &b };
        if kind_of(r) == "ref" {
            let r = r.clone();
            c.merged_away(&r);
            let Some(mut target) = c.deref(&r) else {
                let detail = "a part names a type still being built (recursion through `allOf`); only the other part is checked".into();
                c.loss(at, "all-of-merge", Accepts::Wider, detail);
                return if first { b } else { a };
            };
            // The ref's own annotations stand over the named type's.
            annotations_over(&mut target, &r);
            return if first { merge(c, target, b, at) } else { merge(c, a, target, at) };
        }
    }
    let (ka, kb) = (kind_of(&a).to_owned(), kind_of(&b).to_owned());
    let mut out = match (ka.as_str(), kb.as_str()) {
        ("literal" | "enum", _) | (_, "literal" | "enum") => listed(c, &a, &b, at),
        (x, y) if x == y => same_kind(c, &a, &b, at),
        ("integer", "number") | ("number", "integer") => {
            let mut out = numbers(c, &a, &b, at);
            out["kind"] = json!("integer");
            out
        }
        ("tuple", "array") | ("array", "tuple") => {
            let (t, arr) = if ka == "tuple" { (&a, &b) } else { (&b, &a) };
            let mut out = t.clone();
            let items = arr["items"].clone();
            let elements: Vec<Value> = t["elements"]
                .as_array()
                .cloned()
                .unwrap_or_default()
                .into_iter()
                .map(|e| merge(c, e, items.clone(), at))
                .collect();
            // The array's refinements besides its items (from the model's declaration).
            let mut counts =
                Refinement::of(Kind::Array).iter().filter(|r| **r != Refinement::Items);
            if counts.any(|r| arr.get(r.name()).is_some()) {
                let detail = "item counts beside fixed positions are not merged; the tuple's own count is kept".into();
                c.loss(at, "all-of-merge", Accepts::Wider, detail);
            }
            out["elements"] = Value::Array(elements);
            out
        }
        // Values of different JSON types: none is both.
        _ if node::class_of(&a).is_some()
            && node::class_of(&b).is_some()
            && node::class_of(&a) != node::class_of(&b) =>
        {
            return never();
        }
        _ => {
            let detail = format!(
                "a `{ka}` and a `{kb}` cannot be merged into one type; only the first is checked"
            );
            c.loss(at, "all-of-merge", Accepts::Wider, detail);
            a.clone()
        }
    };
    add_annotations(&mut out, &a);
    add_annotations(&mut out, &b);
    out
}

/// The ref's annotations (and unknown members) over the target's.
fn annotations_over(target: &mut Value, r: &Value) {
    let (Some(t), Some(r)) = (target.as_object_mut(), r.as_object()) else { return };
    for (k, v) in r {
        if !matches!(k.as_str(), "kind" | "name" | "namespace") {
            t.insert(k.clone(), v.clone());
        }
    }
}

fn same_kind(c: &mut Converter<'_>, a: &Value, b: &Value, at: &str) -> Value {
    match kind_of(a) {
        "integer" | "number" => numbers(c, a, b, at),
        "string" => strings(c, a, b, at),
        "array" => {
            let mut out = a.clone();
            let items = merge(c, a["items"].clone(), b["items"].clone(), at);
            out["items"] = items;
            tighten(&mut out, b, "minItems", true);
            tighten(&mut out, b, "maxItems", false);
            if b.get("uniqueItems") == Some(&json!(true)) {
                out["uniqueItems"] = json!(true);
            }
            out
        }
        "tuple" => {
            let (ea, eb) = (
                a["elements"].as_array().cloned().unwrap_or_default(),
                b["elements"].as_array().cloned().unwrap_or_default(),
            );
            if ea.len() != eb.len() {
                return never();
            }
            let elements: Vec<Value> =
                ea.into_iter().zip(eb).map(|(x, y)| merge(c, x, y, at)).collect();
            json!({"kind": "tuple", "elements": elements})
        }
        "object" => objects(c, a, b, at),
        "map" => {
            let mut out = a.clone();
            out["values"] = merge(c, a["values"].clone(), b["values"].clone(), at);
            match (a.get("keys"), b.get("keys")) {
                (None, Some(k)) => out["keys"] = k.clone(),
                (Some(x), Some(y)) if x != y => {
                    let detail = "two key types are not merged; the first is checked".into();
                    c.loss(at, "all-of-merge", Accepts::Wider, detail);
                }
                _ => {}
            }
            out
        }
        _ => a.clone(),
    }
}

/// Keeps the tighter of two bounds: the larger lower bound or the smaller upper one.
fn tighten(out: &mut Value, other: &Value, key: &str, lower: bool) {
    let Some(theirs) = other.get(key).filter(|v| v.is_number()) else { return };
    let keep_theirs = match out.get(key).and_then(Value::as_f64) {
        None => true,
        Some(ours) => {
            let t = theirs.as_f64().unwrap_or(ours);
            if lower { t > ours } else { t < ours }
        }
    };
    if keep_theirs {
        out[key] = theirs.clone();
    }
}

fn numbers(c: &mut Converter<'_>, a: &Value, b: &Value, at: &str) -> Value {
    let mut out = node::number_rules(a);
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
    } = node::number_rules(b);
    tighter(&mut out.min, min, true);
    tighter(&mut out.exclusive_min, exclusive_min, true);
    tighter(&mut out.max, max, false);
    tighter(&mut out.exclusive_max, exclusive_max, false);
    same_or_loss(c, &mut out.multiple_of, multiple_of, Refinement::MultipleOf, at);
    same_or_loss(c, &mut out.unit, unit, Refinement::Unit, at);
    let kind = if kind_of(a) == "integer" { TypeKind::Integer(out) } else { TypeKind::Number(out) };
    node::with_rules(a.clone(), kind)
}

fn strings(c: &mut Converter<'_>, a: &Value, b: &Value, at: &str) -> Value {
    let mut out = node::string_rules(a);
    // Every refinement is named, so a new one does not compile until it is merged.
    let StringRules { min_length, max_length, pattern, format } = node::string_rules(b);
    tighter(&mut out.min_length, min_length, true);
    tighter(&mut out.max_length, max_length, false);
    same_or_loss(c, &mut out.pattern, pattern, Refinement::Pattern, at);
    same_or_loss(c, &mut out.format, format, Refinement::Format, at);
    node::with_rules(a.clone(), TypeKind::String(out))
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

fn objects(c: &mut Converter<'_>, a: &Value, b: &Value, at: &str) -> Value {
    let fa = a["fields"].as_object().cloned();
    let fb = b["fields"].as_object().cloned();
    let mut fields: Map<String, Value> = fa.clone().unwrap_or_default();
    for (name, theirs) in fb.clone().unwrap_or_default() {
        match fields.get(&name).cloned() {
            None => {
                fields.insert(name, theirs);
            }
            Some(ours) => {
                let ty = merge(c, ours["type"].clone(), theirs["type"].clone(), at);
                let mut field = ours.clone();
                field["type"] = ty;
                // Required when either part requires it.
                if theirs.get("optional") != Some(&json!(true))
                    && let Some(f) = field.as_object_mut()
                {
                    f.remove("optional");
                }
                if field.get("description").is_none()
                    && let Some(d) = theirs.get("description")
                {
                    field["description"] = d.clone();
                }
                fields.insert(name, field);
            }
        }
    }
    let closed_a = a.get("closed") == Some(&json!(true));
    let closed_b = b.get("closed") == Some(&json!(true));
    let mut out = json!({"kind": "object"});
    if fa.is_some() || fb.is_some() {
        out["fields"] = Value::Object(fields);
    }
    if closed_a || closed_b {
        // A closed part refuses the other part's members it does not name.
        let names = |f: &Option<Map<String, Value>>| -> Vec<String> {
            f.iter().flat_map(|m| m.keys().cloned()).collect()
        };
        let (closed_names, other_names) =
            if closed_a { (names(&fa), names(&fb)) } else { (names(&fb), names(&fa)) };
        let extra: Vec<&String> =
            other_names.iter().filter(|n| !closed_names.contains(n)).collect();
        if extra.is_empty() || (closed_a && closed_b) {
            out["closed"] = json!(true);
        } else {
            let detail = format!(
                "a closed part meets members it does not name ({}); the merged object is left open",
                extra.iter().map(|s| format!("`{s}`")).collect::<Vec<_>>().join(", ")
            );
            c.loss(at, "all-of-merge", Accepts::Wider, detail);
        }
    }
    out
}

/// A literal or enum against another node: the listed values the other admits.
fn listed(c: &mut Converter<'_>, a: &Value, b: &Value, at: &str) -> Value {
    let (va, vb) = (node::listed_values(a), node::listed_values(b));
    let values: Vec<Value> = match (va, vb) {
        (Some(x), Some(y)) => x.into_iter().filter(|v| y.contains(v)).collect(),
        (Some(x), None) | (None, Some(x)) => {
            let other = if node::listed_values(a).is_some() { b } else { a };
            let class = node::class_of(other);
            let kept: Vec<Value> = x
                .into_iter()
                .filter(|v| {
                    class.is_none_or(|cl| node::value_class(v) == cl)
                        && (kind_of(other) != "integer" || v.is_i64() || v.is_u64())
                })
                .collect();
            if node::has_assertions(other) && !is_any(other) {
                let detail = "listed values meet a type with refinements; the values are kept without checking them against it".into();
                c.loss(at, "all-of-merge", Accepts::Wider, detail);
            }
            kept
        }
        (None, None) => Vec::new(),
    };
    if values.is_empty() { never() } else { node::values_node(values) }
}
