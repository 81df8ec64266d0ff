//! `discriminator-invalid`: union discriminators that do not pick arms.

use accord_schema_model::{Pointer, TypeKind};
use serde_json::Value;

use crate::Error;
use crate::lint::LintContext;
use crate::lint::walk::Walk;
use crate::number::json_equal;

declare_rule! {
    /// ## What it does
    /// Flags a union `discriminator` that does not pick exactly one arm per tag. With a
    /// discriminator, every arm must be an object (directly or through a ref) whose
    /// discriminator member is required and typed as a `literal` or an `enum`, and no tag
    /// value may belong to two arms (format.md, section 10.6). The check is the validator's
    /// own: a contract it reports does not compile.
    ///
    /// ## Why is this bad?
    /// The discriminator is what lets a reader pick the arm from one member instead of trying
    /// each; if an arm has no such member, has it optional, or shares a tag with another arm,
    /// the choice is undefined, and the contract does not compile into validators. Code
    /// generators that turn a discriminated union into a tagged enum fail the same way.
    ///
    /// ## Example
    /// ```json
    /// {
    ///   "kind": "union",
    ///   "variants": [
    ///     { "kind": "object", "fields": { "mode": { "type": { "kind": "literal", "value": "manual" } } } },
    ///     { "kind": "object", "fields": { "target": { "type": { "kind": "number" } } } }
    ///   ],
    ///   "discriminator": "mode"
    /// }
    /// ```
    ///
    /// ## Fix
    /// Give every arm the discriminator member, required, with a literal of its own; or drop
    /// `discriminator` and let the union try its arms in order.
    pub(crate) struct DiscriminatorInvalid;
}

/// One union whose discriminator does not pick its arms.
#[derive(Debug, Clone)]
pub(crate) struct Bad {
    /// The union node.
    pub(crate) at: Pointer,
    pub(crate) member: String,
    pub(crate) reason: String,
}

/// The unions whose discriminator does not pick the arms, by the rules the compiler applies
/// (and in its words). A union whose arms or tags go through a dangling ref or a ref cycle is
/// left out: what it admits is unknown, and those rules report the cause.
pub(crate) fn find(walk: &Walk<'_>) -> Vec<Bad> {
    let mut out = Vec::new();
    for node in &walk.nodes {
        let TypeKind::Union(u) = &node.node.kind else { continue };
        let Some(member) = &u.discriminator else { continue };
        let fail =
            |reason: String| Some(Bad { at: node.pointer.clone(), member: member.clone(), reason });
        let verdict = (|| {
            let mut tags: Vec<&Value> = Vec::new();
            for (i, arm) in u.variants.iter().enumerate() {
                let arm_at = node.pointer.key("variants").index(i);
                let (ns, arm, arm_at) = walk.resolve(node.namespace, arm, &arm_at)?;
                let TypeKind::Object(o) = &arm.kind else {
                    return fail(format!("arm {i} is not an object"));
                };
                let Some(field) = o.fields.as_ref().and_then(|f| f.get(member)) else {
                    return fail(format!("arm {i} has no member `{member}`"));
                };
                if field.is_optional() {
                    return fail(format!("arm {i} has `{member}` as an optional member"));
                }
                let field_at = arm_at.key("fields").key(member).key("type");
                let (_, tag, _) = walk.resolve(ns, &field.ty, &field_at)?;
                let arm_tags: Vec<&Value> = match &tag.kind {
                    TypeKind::Literal { value } => vec![value],
                    TypeKind::Enum(e) => e.values.iter().collect(),
                    _ => {
                        return fail(format!(
                            "arm {i} has `{member}` that is not a literal or an enum"
                        ));
                    }
                };
                for tag in arm_tags {
                    if tags.iter().any(|t| json_equal(t, tag)) {
                        return fail(format!("the tag {tag} picks more than one arm"));
                    }
                    tags.push(tag);
                }
            }
            None
        })();
        out.extend(verdict);
    }
    out
}

fn help(reason: &str) -> &'static str {
    if reason.contains("is not an object") {
        "every arm of a discriminated union must be an object, directly or through a ref; drop `discriminator` otherwise"
    } else if reason.contains("has no member") {
        "give that arm the member, required, with a literal tag of its own"
    } else if reason.contains("optional member") {
        "make the member required in that arm: the tag must always be sent"
    } else if reason.contains("not a literal or an enum") {
        "type the member as a literal (`{\"kind\": \"literal\", \"value\": \"…\"}`) in every arm"
    } else if reason.contains("more than one arm") {
        "give every arm a tag of its own"
    } else {
        "give every arm the member, required, with a literal tag of its own"
    }
}

pub(crate) fn check(cx: &mut LintContext<'_>) {
    let mut found = cx.found.discriminators.clone();
    // What compiling refused that the rules above did not see.
    for e in &cx.repaired.errors {
        let Error::BadDiscriminator { at, member, reason } = e else { continue };
        if !found.iter().any(|b| b.at == *at) && !follows_from_other_findings(cx, at) {
            found.push(Bad { at: at.clone(), member: member.clone(), reason: reason.clone() });
        }
    }
    for bad in found {
        let help = help(&bad.reason);
        cx.report(
            bad.at.key("discriminator"),
            format!("discriminator `{}` does not pick the arms: {}", bad.member, bad.reason),
            help,
        );
    }
}

/// Whether the union at `at` fails only because something in or behind its arms was already
/// reported (a dangling ref, a ref cycle) and set aside.
fn follows_from_other_findings(cx: &LintContext<'_>, at: &Pointer) -> bool {
    if cx.repaired.set_aside_within(at) {
        return true;
    }
    let Some(union) = cx.walk.nodes.iter().find(|n| n.pointer == *at) else { return false };
    let TypeKind::Union(u) = &union.node.kind else { return false };
    u.variants.iter().enumerate().any(|(i, arm)| {
        let arm_at = at.key("variants").index(i);
        let mut ns = union.namespace;
        let mut node = arm;
        // Each named type the arm passes through, and the last one's fields.
        for _ in 0..64 {
            let TypeKind::Ref(r) = &node.kind else { break };
            let target_at = crate::lint::walk::Walk::named_pointer(r.namespace_in(ns), &r.name);
            if cx.repaired.set_aside_within(&target_at) {
                return true;
            }
            let Some((found_ns, _, next)) = cx.walk.doc.named(ns, r) else { return true };
            ns = found_ns;
            node = next;
        }
        cx.repaired.set_aside_within(&arm_at)
    })
}
