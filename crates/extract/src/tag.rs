//! The `accord:` doc tag: what Rust types cannot say, written next to the code. A line of a
//! doc comment that starts with `accord:` holds comma-separated `key = value` pairs (values
//! may be quoted) and is not part of the description.
//!
//! | on | keys |
//! | --- | --- |
//! | a trait | `namespace = "pump"` (marks a plain trait), `version = "2.3.0"` |
//! | a method | `semantics = read\|idempotent\|write\|destructive`, `params = by-name\|by-position\|either`, `name = "…"`, `skip` |
//! | a struct or enum | `inline` (no named type), `name = "…"` (the contract's name) |
//! | a type, field or param | `unit`, `min`, `max`, `exclusiveMin`, `exclusiveMax`, `multipleOf`, `minLength`, `maxLength`, `pattern`, `format`, `open` |

use accord_schema_model::{Kind, NumberRules, Refinement, StringRules, TypeKind, TypeNode};
use serde_json::Number;

use crate::{
    attrs::Docs,
    diagnostic::{Diagnostics, locate},
};

/// Whether `key` is a refinement the tag sets: a member of `integer`, `number` or `string`
/// (from the one declaration, [`Refinement`]), or an enum's `open`.
fn is_refinement(key: &str) -> bool {
    let scalar = |kind: &Kind| matches!(kind, Kind::Integer | Kind::Number | Kind::String);
    key == Refinement::Open.name() || Refinement::named(key).any(|r| r.kinds().iter().any(scalar))
}

/// Every key the tag knows; others are reported.
pub(crate) const KNOWN: &[&str] =
    &["namespace", "version", "semantics", "params", "name", "skip", "inline", "event"];

fn number(text: &str) -> Option<Number> {
    if let Ok(i) = text.parse::<i64>() {
        return Some(Number::from(i));
    }
    if let Ok(u) = text.parse::<u64>() {
        return Some(Number::from(u));
    }
    text.parse::<f64>().ok().and_then(Number::from_f64)
}

/// Applies the tag's refinements to `node` (the non-null arm of an `Option`).
pub(crate) fn refine(node: &mut TypeNode, docs: &Docs, file: &str, diags: &mut Diagnostics) {
    let at = || docs.tag_span.map(|s| locate(file, s)).unwrap_or_default();
    for (key, value) in &docs.tag {
        if !is_refinement(key) {
            if !KNOWN.contains(&key.as_str()) {
                diags.warn(
                    "unknown-tag",
                    at(),
                    format!("`accord:` key `{key}` is not one extract knows"),
                    None,
                );
            }
            continue;
        }
        let target = match &mut node.kind {
            TypeKind::Union(u) if u.variants.len() == 2 && u.variants[1].kind == TypeKind::Null => {
                &mut u.variants[0]
            }
            _ => &mut *node,
        };
        let value = value.clone().unwrap_or_default();
        let ok = match (&mut target.kind, key.as_str()) {
            (TypeKind::Integer(r) | TypeKind::Number(r), k) => {
                // Every refinement is named, so a new one does not compile until the tag can
                // set it.
                let NumberRules {
                    min,
                    max,
                    exclusive_min,
                    exclusive_max,
                    multiple_of,
                    unit,
                    #[cfg(feature = "dummy-refinement-handled")]
                        dummy: _,
                } = r;
                let n = number(&value);
                match k {
                    "unit" => {
                        *unit = Some(value.clone());
                        true
                    }
                    "min" => n.map(|n| *min = Some(n)).is_some(),
                    "max" => n.map(|n| *max = Some(n)).is_some(),
                    "exclusiveMin" => n.map(|n| *exclusive_min = Some(n)).is_some(),
                    "exclusiveMax" => n.map(|n| *exclusive_max = Some(n)).is_some(),
                    "multipleOf" => n.map(|n| *multiple_of = Some(n)).is_some(),
                    _ => false,
                }
            }
            (TypeKind::String(r), k) => {
                let StringRules { min_length, max_length, pattern, format } = r;
                match k {
                    "minLength" => value.parse().map(|n| *min_length = Some(n)).is_ok(),
                    "maxLength" => value.parse().map(|n| *max_length = Some(n)).is_ok(),
                    "pattern" => {
                        *pattern = Some(value.clone());
                        true
                    }
                    "format" => {
                        *format = Some(value.clone());
                        true
                    }
                    _ => false,
                }
            }
            (TypeKind::Enum(e), "open") => {
                e.open = Some(value != "false");
                true
            }
            _ => false,
        };
        if !ok {
            diags.warn(
                "misplaced-tag",
                at(),
                format!("`accord: {key}` does not apply to a {} here (or its value `{value}` is not one)", target.kind.kind().name()),
                None,
            );
        }
    }
}
