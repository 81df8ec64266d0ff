//! `literal-base-kind`: literal and enum values (and map key types) of a JSON type their
//! position can never hold.

use std::collections::HashSet;

use accord_schema_model::{Pointer, TypeKind, TypeNode};
use serde_json::Value;

use crate::lint::walk::{Place, Walk};
use crate::lint::{LintContext, show};

declare_rule! {
    /// ## What it does
    /// Flags a value whose JSON type its position rules out, in the two places where the
    /// format fixes the type:
    ///
    /// - **map keys**: a map's `keys` type (through refs and union arms) that is a `literal`
    ///   whose value is not a string, an `enum` value that is not a string, or a kind that
    ///   admits no string at all (`integer`, `number`, `boolean`, `null`, `array`, `tuple`,
    ///   `object`, `map`). Member names are strings, so such a value never matches a key;
    /// - **discriminator tags**: in a union with a `discriminator`, an arm whose
    ///   discriminator member is a `literal` whose value is not a string, or an `enum` with a
    ///   value that is not a string.
    ///
    /// Literals elsewhere may hold any JSON value (format.md, section 7.5), and enums may mix
    /// strings and integers (section 7.6; `mixed-enum` warns about that).
    ///
    /// ## Why is this bad?
    /// A map key type that admits no string makes the map admit only `{}`, which is never
    /// what was meant; usually integer ids were meant, and JSON writes them as strings. A tag
    /// that is not a string is matched by accord's validator, but OpenAPI discriminators,
    /// serde's internally tagged enums and most code generators take string tags only, so
    /// the plant and its callers cannot agree on it.
    ///
    /// ## Example
    /// ```json
    /// { "kind": "map", "keys": { "kind": "integer", "min": 0 }, "values": { "kind": "number" } }
    /// ```
    ///
    /// ## Fix
    /// Describe map keys as strings: `{ "kind": "string", "pattern": "^[0-9]+$" }` for
    /// numeric ids, an enum of strings for a fixed set. Write tags as strings (`"1"`, or a
    /// name).
    pub(crate) struct LiteralBaseKind;
}

pub(crate) fn check(cx: &mut LintContext<'_>) {
    let walk = &cx.walk;
    let mut found: Vec<(Pointer, String, String)> = Vec::new();
    keys(walk, &mut found);
    for node in &walk.nodes {
        let TypeKind::Union(u) = &node.node.kind else { continue };
        let Some(member) = &u.discriminator else { continue };
        for (i, arm) in u.variants.iter().enumerate() {
            let arm_at = node.pointer.key("variants").index(i);
            let Some((ns, arm, arm_at)) = walk.resolve(node.namespace, arm, &arm_at) else {
                continue;
            };
            let TypeKind::Object(o) = &arm.kind else { continue };
            let Some(field) = o.fields.as_ref().and_then(|f| f.get(member)) else { continue };
            let field_at = arm_at.key("fields").key(member).key("type");
            let Some((_, tag, tag_at)) = walk.resolve(ns, &field.ty, &field_at) else { continue };
            let help = "write the tag as a string; OpenAPI discriminators and serde's internally tagged enums take string tags only";
            for (v, at) in values(tag, &tag_at) {
                if !v.is_string() {
                    found.push((
                        at,
                        format!(
                            "the tag of discriminator `{member}` is {}, not a string",
                            described(v)
                        ),
                        help.to_owned(),
                    ));
                }
            }
        }
    }
    let mut seen: HashSet<Pointer> = HashSet::new();
    for (at, message, help) in found {
        if seen.insert(at.clone()) {
            cx.report(at, message, help);
        }
    }
}

/// The values a literal or enum node admits, with their pointers.
fn values<'n>(node: &'n TypeNode, at: &Pointer) -> Vec<(&'n Value, Pointer)> {
    match &node.kind {
        TypeKind::Literal { value } => vec![(value, at.key("value"))],
        TypeKind::Enum(e) => {
            e.values.iter().enumerate().map(|(i, v)| (v, at.key("values").index(i))).collect()
        }
        _ => Vec::new(),
    }
}

/// `the integer 7`, `the string \"a\"`, `null`.
pub(crate) fn described(v: &Value) -> String {
    let what = match v {
        Value::Null => return "null".to_owned(),
        Value::Bool(_) => "the boolean",
        Value::Number(n) if n.is_f64() => "the number",
        Value::Number(_) => "the integer",
        Value::String(_) => "the string",
        Value::Array(_) => "the array",
        Value::Object(_) => "the object",
    };
    format!("{what} {}", show(v))
}

/// Every type a map's keys are checked against: each `keys` node, followed through refs and
/// into union arms, with the namespace it stands in and its pointer. Each place once.
pub(crate) fn key_types<'d>(walk: &Walk<'d>) -> Vec<(&'d str, &'d TypeNode, Pointer)> {
    let mut out: Vec<(&'d str, &'d TypeNode, Pointer)> = Vec::new();
    let mut stack: Vec<(&'d str, &'d TypeNode, Pointer)> = walk
        .nodes
        .iter()
        .filter(|n| n.place == Place::Keys)
        .map(|n| (n.namespace, n.node, n.pointer.clone()))
        .rev()
        .collect();
    let mut seen: HashSet<Pointer> = HashSet::new();
    while let Some((ns, node, at)) = stack.pop() {
        let Some((ns, node, at)) = walk.resolve(ns, node, &at) else { continue };
        if !seen.insert(at.clone()) {
            continue;
        }
        match &node.kind {
            TypeKind::Union(u) => {
                for (i, v) in u.variants.iter().enumerate().rev() {
                    stack.push((ns, v, at.key("variants").index(i)));
                }
            }
            _ => out.push((ns, node, at)),
        }
    }
    out
}

/// Problems of the types map keys are checked against.
fn keys(walk: &Walk<'_>, found: &mut Vec<(Pointer, String, String)>) {
    for (_, node, at) in key_types(walk) {
        match &node.kind {
            TypeKind::Any | TypeKind::String(_) | TypeKind::Ref(_) | TypeKind::Union(_) => {}
            TypeKind::Literal { .. } | TypeKind::Enum(_) => {
                for (v, v_at) in values(node, &at) {
                    if !v.is_string() {
                        found.push((
                            v_at,
                            format!("map keys are strings, so {} never matches one", described(v)),
                            format!("write the key as a string ({})", show(&Value::String(plain(v)))),
                        ));
                    }
                }
            }
            other => found.push((
                at,
                format!(
                    "map keys are strings, so a key type of kind `{}` matches none: the map admits only `{{}}`",
                    other.kind().name()
                ),
                "describe the keys as strings: `{\"kind\": \"string\", \"pattern\": \"^[0-9]+$\"}` for numeric ids".to_owned(),
            )),
        }
    }
}

/// A value as text, the way it would be written as a key.
fn plain(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}
