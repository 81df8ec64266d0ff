//! `misplaced-refinement`: known member names standing where they do not apply.

use accord_schema_model::{Field, Pointer, Refinement, Unknown};

use crate::lint::walk::Place;
use crate::lint::{LintContext, and_list};

declare_rule! {
    /// ## What it does
    /// Flags a member whose name accord knows, standing on a record where it does not apply,
    /// so that the reader keeps it as an unknown member and nothing uses it (format.md,
    /// section 3, rule 4):
    ///
    /// - on a type node, a refinement of another kind (`minLength` on an `integer`, `items` on
    ///   an `object`, `values` on a `string`), or `optional`, which belongs to the field or
    ///   param around the type;
    /// - on a field or a param, a member of type nodes (`kind`, `default`, `examples`, or a
    ///   refinement such as `min` or `pattern`), which belongs in its `type`.
    ///
    /// ## Why is this bad?
    /// The author meant a rule and the contract has none: `{"kind": "integer", "minLength":
    /// 1}` admits every integer, `{"type": {...}, "default": 5}` has no default, and
    /// `{"kind": "string", "optional": true}` inside a field leaves the field required. It is
    /// a warning, not an error, because a later format may give the name a meaning there, and
    /// documents written for it must still be read.
    ///
    /// ## Example
    /// ```json
    /// { "name": "ramp", "type": { "kind": "integer", "optional": true, "maxLength": 600 } }
    /// ```
    ///
    /// ## Fix
    /// Move the member to where it applies (`optional` to the field or param, `default` and
    /// refinements into `type`), use the refinement of the node's own kind (`max` for
    /// numbers), or change the kind.
    pub(crate) struct MisplacedRefinement;
}

/// Members of every type node that fields and params do not have.
const NODE_MEMBERS: &[&str] = &["kind", "default", "examples"];

/// The kinds a kind-specific member named `name` applies to (from the one declaration,
/// [`Refinement`]), or `None` for a name no kind has.
fn applies_to(name: &str) -> Option<Vec<&'static str>> {
    let kinds: Vec<&str> =
        Refinement::named(name).flat_map(|r| r.kinds()).map(|k| k.name()).collect();
    (!kinds.is_empty()).then_some(kinds)
}

/// The refinement of `kind` that says what `key` says for another kind (`maxLength` on a
/// number is `max`).
fn counterpart(key: &str, kind: &str) -> Option<&'static str> {
    const LOWER: [&str; 3] = ["min", "minLength", "minItems"];
    const UPPER: [&str; 3] = ["max", "maxLength", "maxItems"];
    let own = match kind {
        "integer" | "number" => 0,
        "string" => 1,
        "array" => 2,
        _ => return None,
    };
    if LOWER.contains(&key) {
        Some(LOWER[own])
    } else if UPPER.contains(&key) {
        Some(UPPER[own])
    } else {
        None
    }
}

fn kinds(list: &[&str]) -> String {
    and_list(&list.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>())
}

pub(crate) fn check(cx: &mut LintContext<'_>) {
    let mut found: Vec<(Pointer, String, String)> = Vec::new();
    for node in &cx.walk.nodes {
        let kind = node.node.kind.kind().name();
        for key in node.node.unknown.keys() {
            let at = node.pointer.key(key);
            if key == "optional" {
                let around = match node.place {
                    Place::Param => "param",
                    _ => "field",
                };
                let message = match node.place {
                    Place::Field | Place::Param => format!(
                        "`optional` stands in the type, where it means nothing: only the {around}'s own `optional` lets it be absent"
                    ),
                    _ => {
                        "`optional` means nothing on a type node: it belongs to a field or a param"
                            .to_owned()
                    }
                };
                found.push((
                    at,
                    message,
                    format!("move `optional` out of `type`, next to it in the {around}"),
                ));
            } else if let Some(list) = applies_to(key) {
                let help = match counterpart(key, kind) {
                    Some(own) => {
                        format!("`{key}` applies to {}; on `{kind}` write `{own}`", kinds(&list))
                    }
                    None => {
                        format!(
                            "`{key}` applies to {}; remove it, or change the kind",
                            kinds(&list)
                        )
                    }
                };
                found.push((
                    at,
                    format!(
                        "`{key}` does not apply to kind `{kind}`: it is kept as an unknown member and nothing checks it"
                    ),
                    help,
                ));
            }
        }
        if let accord_schema_model::TypeKind::Object(o) = &node.node.kind {
            for (name, field) in o.fields.iter().flatten() {
                record(&node.pointer.key("fields").key(name), "field", field, &mut found);
            }
        }
    }
    for m in &cx.walk.methods {
        for (i, p) in m.method.params.iter().flatten().enumerate() {
            record(&m.pointer.key("params").index(i), "param", &p.field, &mut found);
        }
    }
    for (at, message, help) in found {
        cx.report(at, message, help);
    }
}

/// Type-node members standing on a field or param instead of in its `type`.
fn record(at: &Pointer, what: &str, field: &Field, found: &mut Vec<(Pointer, String, String)>) {
    let unknown: &Unknown = &field.unknown;
    for key in unknown.keys() {
        if NODE_MEMBERS.contains(&key.as_str()) || applies_to(key).is_some() {
            found.push((
                at.key(key),
                format!(
                    "`{key}` belongs in the {what}'s `type`, not on the {what}: it is ignored here"
                ),
                format!("move `{key}` into `type`"),
            ));
        }
    }
}
