//! The typed params a pubsub subscribe call takes after its selecting params: the event wire's
//! `arguments` (docs/format.md §15; jsonrpsee's `fn follow(&self, with_runtime: bool)`), which
//! a plant refuses the subscribe without. The model keeps the member as written (no typed field
//! yet), so they are read here as a method's params are and generated valid the same way:
//! the contract with one method more, whose params they are, compiled and asked for a value.

use accord_schema_model::Document;
use accord_validate::{Contract, Target};
use serde_json::{Value, json};

/// Valid values of the `arguments` of the event `namespace`.`event`, in order, seeded with
/// `seed`; none when the event's wire declares none. `Err` says why none could be made.
pub(crate) fn subscribe_arguments(
    doc: &Document,
    namespace: &str,
    event: &str,
    seed: u64,
) -> Result<Vec<Value>, String> {
    let declared = doc
        .namespaces
        .as_ref()
        .and_then(|n| n.get(namespace))
        .and_then(|ns| ns.wire.as_ref())
        .and_then(|w| w.events.as_ref())
        .and_then(|e| e.get(event))
        .and_then(|e| e.unknown.get("arguments"));
    let Some(arguments) = declared.filter(|a| a.as_array().is_some_and(|a| !a.is_empty())) else {
        return Ok(Vec::new());
    };
    let mut value = doc.to_value();
    let methods = value
        .get_mut("namespaces")
        .and_then(|n| n.get_mut(namespace))
        .and_then(Value::as_object_mut)
        .map(|ns| ns.entry("methods").or_insert_with(|| json!({})))
        .and_then(Value::as_object_mut)
        .ok_or_else(|| format!("no namespace `{namespace}`"))?;
    // A name no method of the namespace has.
    let mut method = format!("{event}SubscribeArguments");
    while methods.contains_key(&method) {
        method.push('_');
    }
    methods.insert(
        method.clone(),
        json!({"params": arguments, "paramStructure": "by-position", "result": {"kind": "null"}}),
    );
    let with = Document::from_value(value)
        .map_err(|e| format!("the event's `arguments` do not read as params: {e}"))?;
    let contract = Contract::compile(&with).map_err(|e| e.to_string())?;
    let target = Target::Params { namespace: namespace.to_owned(), method };
    let generated = contract.validator(&target).and_then(|v| v.generate(seed));
    match generated.map_err(|e| e.to_string())? {
        Value::Array(items) => Ok(items),
        other => Err(format!("by-position params generated as {other}, not an array")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_events_arguments_are_generated_valid_in_order_and_none_are_none() {
        let doc = Document::parse(
            r#"{"schema": 1, "wire": {"separator": "_"}, "namespaces": {"chainHead": {"version": "1.0.0",
              "wire": {"events": {
                "followEvent": {"params": [], "subscribe": "chainHead_follow", "unsubscribe": "chainHead_unfollow",
                  "notification": "chainHead_followEvent",
                  "arguments": [{"name": "with_runtime", "type": {"kind": "boolean"}},
                                {"name": "depth", "type": {"kind": "ref", "name": "Depth"}}]},
                "plain": {"params": [], "subscribe": "chainHead_sub", "unsubscribe": "chainHead_unsub",
                  "notification": "chainHead_plain"}}},
              "events": {"followEvent": {"payload": {"kind": "string"}}, "plain": {"payload": {"kind": "string"}}},
              "types": {"Depth": {"kind": "integer", "min": 3, "max": 3}}}}}"#,
        )
        .unwrap();
        for seed in 0..8 {
            let args = subscribe_arguments(&doc, "chainHead", "followEvent", seed).unwrap();
            assert!(matches!(args.as_slice(), [Value::Bool(_), d] if d == 3), "{args:?}");
        }
        assert_eq!(
            subscribe_arguments(&doc, "chainHead", "plain", 0).unwrap(),
            Vec::<Value>::new()
        );
    }
}
