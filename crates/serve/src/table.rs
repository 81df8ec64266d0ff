//! What the fake adds to the engine's table, looked up by wire name: every method's examples
//! (results checked once, at startup, and kept serialized) and param names; every event with
//! its examples.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use accord_plant::{ContractMethod, DeclaredError, Plant as Engine};
use accord_validate::Target;
use serde_json::{Map, Value};

/// One contract method: accord-plant's entry (its targets and declared errors) and what the
/// fake adds to answer it (its param names, examples and sequence).
#[derive(Debug)]
pub(crate) struct MethodInfo {
    /// The engine's entry, for its targets and declared errors.
    pub(crate) method: Arc<ContractMethod>,
    /// Param names in position order, to read by-position params by name.
    pub(crate) param_names: Vec<String>,
    pub(crate) examples: Vec<Example>,
    /// The next sequence number of this method (sequence mode).
    pub(crate) sequence: AtomicU64,
}

/// A method example that has a result which passed the result validator.
#[derive(Debug)]
pub(crate) struct Example {
    pub(crate) name: Option<String>,
    /// Its index in the method's `examples` (also those without a valid result).
    pub(crate) index: usize,
    /// Its params read by name (see [`MethodInfo::by_name`]).
    pub(crate) params: Value,
    /// The result, serialized once.
    pub(crate) result: Arc<[u8]>,
}

/// One contract event.
#[derive(Debug)]
pub(crate) struct EventInfo {
    pub(crate) target: Target,
    /// Its examples that pass the payload validator.
    pub(crate) examples: Vec<Value>,
}

/// Every method by wire name and every event by `namespace.event`, and the example results that were dropped because
/// they fail the contract's own result type (logged at startup).
pub(crate) struct Table {
    pub(crate) methods: HashMap<String, MethodInfo>,
    pub(crate) events: HashMap<String, EventInfo>,
    pub(crate) dropped: Vec<String>,
}

impl Table {
    /// The table of the engine's document, its methods under the wire names `core` routes by.
    pub(crate) fn new(core: &Engine) -> Table {
        let (doc, contract, dialect) = (core.document(), core.contract(), core.dialect());
        let mut methods = HashMap::new();
        let mut events = HashMap::new();
        let mut dropped = Vec::new();
        for (ns_name, namespace) in doc.namespaces.iter().flatten() {
            for (m_name, method) in namespace.methods.iter().flatten() {
                let name = format!("{ns_name}.{m_name}");
                // The Dialect resolved every method of the document it was made from, and the
                // engine's table holds each under its wire name.
                let wire_name = dialect.wire_name(ns_name, m_name).unwrap_or(&name).to_owned();
                let Some(call) = core.contract_call(&wire_name) else { continue };
                let param_names: Vec<String> =
                    method.params.iter().flatten().map(|p| p.name.clone()).collect();
                let mut info = MethodInfo {
                    method: call.shared(),
                    param_names,
                    examples: Vec::new(),
                    sequence: AtomicU64::new(0),
                };
                // Looked up only for a method with examples: most have none, and a lookup per
                // method is a hash of its target at start-up.
                let result_check = method
                    .examples
                    .as_ref()
                    .filter(|examples| !examples.is_empty())
                    .and_then(|_| contract.validator(info.result()).ok());
                for (index, example) in method.examples.iter().flatten().enumerate() {
                    let Some(value) = &example.result else { continue };
                    if !result_check.is_some_and(|v| v.is_valid(value)) {
                        let label = example.name.clone().unwrap_or_else(|| index.to_string());
                        dropped.push(format!("{name} example `{label}`"));
                        continue;
                    }
                    let bytes = serde_json::to_vec(value).unwrap_or_default();
                    info.examples.push(Example {
                        name: example.name.clone(),
                        index,
                        params: info.by_name(Some(&example.params)).into_owned(),
                        result: bytes.into(),
                    });
                }
                methods.insert(wire_name, info);
            }
            for (e_name, event) in namespace.events.iter().flatten() {
                let target = Target::Event { namespace: ns_name.clone(), event: e_name.clone() };
                let check = contract.validator(&target).ok();
                let examples = event
                    .examples
                    .iter()
                    .flatten()
                    .filter(|v| check.is_some_and(|c| c.is_valid(v)))
                    .cloned()
                    .collect();
                events.insert(format!("{ns_name}.{e_name}"), EventInfo { target, examples });
            }
        }
        Table { methods, events, dropped }
    }
}

impl MethodInfo {
    /// Params read by name, whichever way they were sent, so that `["P-101"]` and
    /// `{"pump": "P-101"}` are the same request (for examples, scenarios and stable seeds).
    /// Absent params are `{}`. By-name params are borrowed as they are: every call reads them.
    pub(crate) fn by_name<'p>(&self, params: Option<&'p Value>) -> Cow<'p, Value> {
        match params {
            Some(Value::Array(items)) => {
                let mut object = Map::new();
                for (name, item) in self.param_names.iter().zip(items) {
                    object.insert(name.clone(), item.clone());
                }
                Cow::Owned(Value::Object(object))
            }
            Some(object @ Value::Object(_)) => Cow::Borrowed(object),
            _ => Cow::Owned(Value::Object(Map::new())),
        }
    }

    /// `namespace.method`.
    pub(crate) fn name(&self) -> &str {
        self.method.qualified()
    }

    /// The validator target of its params.
    pub(crate) fn params(&self) -> &Target {
        self.method.params()
    }

    /// The validator target of its result.
    pub(crate) fn result(&self) -> &Target {
        self.method.result()
    }

    /// The errors it declares.
    pub(crate) fn errors(&self) -> &[DeclaredError] {
        self.method.errors()
    }
}
