//! `invalid-example`: examples their own type refuses.

use accord_schema_model::Pointer;

use crate::Target;
use crate::lint::LintContext;
use crate::lint::rules::invalid_default::described;

declare_rule! {
    /// ## What it does
    /// Checks every example against its type with the validator compiled from the contract,
    /// and flags each way it does not match, at the place inside the example where it does
    /// not:
    ///
    /// - each item of a type node's `examples`, against that node;
    /// - each method example's `params`, against the method's params (by name or by position,
    ///   as `paramStructure` allows), and its `result`, when present, against the result;
    /// - each item of an event's `examples`, against the payload.
    ///
    /// ## Why is this bad?
    /// Examples are what people (and generated docs, mocks and tests) copy. An example the
    /// contract refuses teaches callers to send what the plant will reject, or says the plant
    /// answers what it may not; either the example or the type is wrong, and the contract
    /// cannot tell which.
    ///
    /// ## Example
    /// ```json
    /// "examples": [{ "params": { "pump": "P-101", "rpm": 4000 }, "result": { "accepted": true } }]
    /// ```
    /// with `rpm` typed `{ "kind": "integer", "min": 0, "max": 3600 }`.
    ///
    /// ## Fix
    /// Correct the example, or the type if the example shows what the plant really sends.
    pub(crate) struct InvalidExample;
}

const HELP: &str = "correct the example, or the type if the example shows what is really sent";

pub(crate) fn check(cx: &mut LintContext<'_>) {
    let mut found: Vec<(Pointer, String, String)> = Vec::new();
    let repaired = &cx.repaired;
    for node in &cx.walk.nodes {
        let Some(examples) = &node.node.examples else { continue };
        let Some(validator) = repaired.node_validator(node) else { continue };
        for (i, example) in examples.iter().enumerate() {
            if let Err(errors) = validator.validate(example) {
                let at = node.pointer.key("examples").index(i);
                let subject = format!("example {i} does not match its type");
                found.extend(described(&at, &subject, &errors, HELP));
            }
        }
    }
    for m in &cx.walk.methods {
        let (namespace, method) = (m.namespace.to_owned(), m.name.to_owned());
        let params = repaired
            .validator(&Target::Params { namespace: namespace.clone(), method: method.clone() });
        let result = repaired.validator(&Target::Result { namespace, method });
        for (i, example) in m.method.examples.iter().flatten().enumerate() {
            let at = m.pointer.key("examples").index(i);
            let name = match &example.name {
                Some(name) => format!("example {i} (\"{name}\")"),
                None => format!("example {i}"),
            };
            if let Some(Err(errors)) = params.map(|v| v.validate(&example.params)) {
                let subject = format!("the params of {name} do not match the method's params");
                found.extend(described(&at.key("params"), &subject, &errors, HELP));
            }
            if let (Some(value), Some(v)) = (&example.result, result)
                && let Err(errors) = v.validate(value)
            {
                let subject = format!("the result of {name} does not match the method's result");
                found.extend(described(&at.key("result"), &subject, &errors, HELP));
            }
        }
    }
    for e in &cx.walk.events {
        let target = Target::Event { namespace: e.namespace.to_owned(), event: e.name.to_owned() };
        let Some(validator) = repaired.validator(&target) else { continue };
        for (i, example) in e.event.examples.iter().flatten().enumerate() {
            if let Err(errors) = validator.validate(example) {
                let at = e.pointer.key("examples").index(i);
                let subject = format!("example {i} does not match the event's payload");
                found.extend(described(&at, &subject, &errors, HELP));
            }
        }
    }
    for (at, message, help) in found {
        cx.report(at, message, help);
    }
}
