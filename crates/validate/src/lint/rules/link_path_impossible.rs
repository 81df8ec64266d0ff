//! `link-path-impossible`: a link's runtime expression follows a path that no value of the
//! source method's params or result can have.

use std::collections::HashSet;

use accord_schema_model::{
    ExprSource, LinkValue, Pointer, TypeKind, TypeNode, path_index, path_step,
};

use crate::lint::LintContext;
use crate::lint::walk::Walk;

declare_rule! {
    /// ## What it does
    /// Flags a link param whose runtime expression (format.md section 5.11) cannot find a value
    /// in any call the contract allows: `$params.NAME` where the method has no param `NAME`, or
    /// a path step that the type at that point cannot have (a member an object type does not
    /// declare, an index into something that is not an array or tuple, an index past a tuple's
    /// length or an array's `maxItems`, a step into a string or a number).
    ///
    /// ## Why is this bad?
    /// The link promises that a call gives what the next call needs, and the types say it never
    /// does: every attempt to follow the link finds nothing. Usually a member was renamed or the
    /// path skips a level (`$result.id` where the result is a list of leases).
    ///
    /// ## Example
    /// ```json
    /// "claim": {
    ///   "result": { "kind": "array", "items": { "kind": "object", "fields": { "token": { "type": { "kind": "string" } } } } },
    ///   "links": { "ack": { "method": "ack", "params": { "token": "$result.token" } } }
    /// }
    /// ```
    ///
    /// ## Fix
    /// Follow the types: `$result.0.token` for the first lease's token. A member an open object
    /// may carry but does not declare counts as impossible: declare it in `fields`.
    pub(crate) struct LinkPathImpossible;
}

pub(crate) fn check(cx: &mut LintContext<'_>) {
    let mut found = Vec::new();
    for (m, name, link, at) in cx.walk.links() {
        for (key, value) in link.params.iter().flatten() {
            // Constants, and expressions this build does not read (`link-expression`'s).
            let Ok(LinkValue::Expr(expr)) = LinkValue::parse(value) else { continue };
            let (root, what) = match &expr.source {
                ExprSource::Result => (&m.method.result, "its result".to_owned()),
                ExprSource::Param(param) => {
                    match m.method.params.iter().flatten().find(|p| p.name == *param) {
                        Some(p) => (&p.field.ty, format!("its param `{param}`")),
                        None => {
                            found.push((
                                at.key("params").key(key),
                                format!(
                                    "link `{name}` of method `{}`, param `{key}`: `{expr}` names param `{param}`, which method `{}` does not have",
                                    m.name, m.name
                                ),
                            ));
                            continue;
                        }
                    }
                }
            };
            let mut seen = HashSet::new();
            if let Some(why) = impossible(&cx.walk, m.namespace, root, &expr.path, &mut seen) {
                found.push((
                    at.key("params").key(key),
                    format!(
                        "link `{name}` of method `{}`, param `{key}`: `{expr}` finds nothing in any value of {what}: {why}",
                        m.name
                    ),
                ));
            }
        }
    }
    for (at, message) in found {
        cx.report(
            at,
            message,
            "follow the types of the method's params and result (arrays and tuples step by index: `$result.0.id`)",
        );
    }
}

/// Why no value of `node` (standing in `ns`) has `path`, or `None` when some value may have it.
/// `seen` guards against unions that reach themselves through refs without taking a step.
fn impossible<'d>(
    walk: &Walk<'d>,
    ns: &'d str,
    node: &'d TypeNode,
    path: &[String],
    seen: &mut HashSet<(*const TypeNode, usize)>,
) -> Option<String> {
    // An empty path finds the value itself.
    let (step, rest) = path.split_first()?;
    // A dangling ref or a cycle of refs is another rule's; nothing is claimed about it here.
    let (ns, node, _) = walk.resolve(ns, node, &Pointer::root())?;
    if !seen.insert((node as *const TypeNode, path.len())) {
        return None;
    }
    match &node.kind {
        TypeKind::Any => None,
        TypeKind::Object(o) => match o.fields.as_ref().and_then(|f| f.get(step)) {
            Some(field) => impossible(walk, ns, &field.ty, rest, seen),
            None => {
                let names: Vec<String> =
                    o.fields.iter().flatten().map(|(n, _)| format!("`{n}`")).collect();
                Some(if names.is_empty() {
                    format!("`{step}` is not a member of an object type that declares none")
                } else {
                    format!(
                        "`{step}` is not a member of the object type (it has {})",
                        names.join(", ")
                    )
                })
            }
        },
        TypeKind::Map(m) => impossible(walk, ns, &m.values, rest, seen),
        TypeKind::Array(a) => match path_index(step) {
            None => Some(format!("`{step}` is not an index, and the value there is an array")),
            Some(i) if a.max_items.is_some_and(|max| i as u64 >= max) => Some(format!(
                "index {i} is past the array's maxItems ({})",
                a.max_items.unwrap_or_default()
            )),
            Some(_) => impossible(walk, ns, &a.items, rest, seen),
        },
        TypeKind::Tuple(t) => match path_index(step) {
            None => Some(format!("`{step}` is not an index, and the value there is a tuple")),
            Some(i) => match t.elements.get(i) {
                Some(element) => impossible(walk, ns, element, rest, seen),
                None => {
                    Some(format!("index {i} is past the tuple's {} elements", t.elements.len()))
                }
            },
        },
        TypeKind::Union(u) => {
            let mut first = None;
            for variant in &u.variants {
                match impossible(walk, ns, variant, path, seen) {
                    None => return None,
                    Some(why) => {
                        first.get_or_insert(why);
                    }
                }
            }
            first.map(|why| format!("no arm of the union has it ({why})"))
        }
        TypeKind::Literal { value } => {
            let mut at = value;
            for step in path {
                match path_step(at, step) {
                    Some(next) => at = next,
                    None => return Some(format!("the literal {value} has no `{step}`")),
                }
            }
            None
        }
        other => Some(format!(
            "`{step}` steps into a value of kind {}, which has no members",
            other.kind().name()
        )),
    }
}
