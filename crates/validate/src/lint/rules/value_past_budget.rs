//! `value-past-budget`: method params, results and event payloads whose smallest value is
//! larger than value generation makes.

use accord_schema_model::Pointer;

use crate::budget::{Budget, Size, least_sizes};
use crate::lint::LintContext;
use crate::{BudgetLimit, Target};

declare_rule! {
    /// ## What it does
    /// Works out the smallest value a method's params, a method's result and an event's
    /// payload can have (every required member present, every array at its `minItems`, every
    /// string at its `minLength`, the smallest arm of each union) and flags those whose
    /// smallest value holds more than 100,000 values or takes more than 8 MiB of JSON: the
    /// default budget of value generation (`accord_validate::Budget`).
    ///
    /// ## Why is this bad?
    /// `accord serve` cannot answer such a method with a generated value, `accord sample`
    /// cannot make one and `accord conform` cannot make its params: each refuses with the
    /// budget named (`-32003` with `generation-nodes` or `generation-bytes` from serve) instead
    /// of allocating gigabytes. Usually a bound was written one order of magnitude too high,
    /// or a `minItems` was meant as a `maxItems`; a plant that really sends values this large
    /// is a plant whose callers will struggle too.
    ///
    /// ## Example
    /// ```json
    /// "result": { "kind": "array", "minItems": 10000,
    ///   "items": { "kind": "array", "minItems": 10000, "items": { "kind": "integer" } } }
    /// ```
    ///
    /// ## Fix
    /// Lower the `minItems` or `minLength` that makes the value large (or turn it into a
    /// `maxItems`/`maxLength`); if the values really are that large, raise the budget of the
    /// tools that generate them (`accord serve --max-generated-values`/`--max-generated-bytes`).
    pub(crate) struct ValuePastBudget;
}

pub(crate) fn check(cx: &mut LintContext<'_>) {
    let mut found: Vec<(Pointer, String, String)> = Vec::new();
    let budget = Budget::default();
    // Every target shares one program: its least sizes are worked out once, not per target
    // (a generator per target did it again for each, quadratic in the contract's size).
    let mut sizes: Option<Vec<Size>> = None;
    let mut look = |target: Target, at: Pointer, what: String| {
        let Some(validator) = cx.repaired.validator(&target) else { return };
        let sizes = sizes.get_or_insert_with(|| least_sizes(validator.program));
        let size = sizes[validator.root as usize];
        if size == Size::NONE {
            return;
        }
        let Size { nodes, bytes } = size;
        let (limit, least, max) = if nodes > budget.nodes as u64 {
            (BudgetLimit::Nodes, nodes, budget.nodes)
        } else if bytes > budget.bytes as u64 {
            (BudgetLimit::Bytes, bytes, budget.bytes)
        } else {
            return;
        };
        found.push((
            at,
            format!(
                "the smallest {what} holds {least} {}, past the generation budget of {max} ({})",
                limit.unit(),
                limit.name()
            ),
            "lower the minItems or minLength that makes it large, or raise the budget of the tools that generate it".to_owned(),
        ));
    };
    for m in &cx.walk.methods {
        let (namespace, method) = (m.namespace.to_owned(), m.name.to_owned());
        let name = format!("{namespace}.{method}");
        look(
            Target::Params { namespace: namespace.clone(), method: method.clone() },
            m.pointer.key("params"),
            format!("params of `{name}`"),
        );
        look(
            Target::Result { namespace, method },
            m.pointer.key("result"),
            format!("result of `{name}`"),
        );
    }
    for e in &cx.walk.events {
        look(
            Target::Event { namespace: e.namespace.to_owned(), event: e.name.to_owned() },
            e.pointer.key("payload"),
            format!("payload of `{}.{}`", e.namespace, e.name),
        );
    }
    for (at, message, help) in found {
        cx.report(at, message, help);
    }
}
