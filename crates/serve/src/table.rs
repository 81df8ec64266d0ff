//! What the plant serves, looked up by wire name: every method with its validators' targets,
//! its examples (results checked once, at startup, and kept serialized) and its declared errors;
//! every event with its examples.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use accord_schema_model::{Dialect, Document, ParamStructure};
use accord_validate::{Contract, Target};
use serde_json::{Map, Value};

/// One contract method.
#[derive(Debug)]
pub(crate) struct MethodInfo {
    /// `namespace.method`.
    pub(crate) name: String,
    /// Whether the contract declares what calling it does (`None` semantics are logged).
    pub(crate) semantics: Option<String>,
    /// Param names in position order, to read by-position params by name.
    pub(crate) param_names: Vec<String>,
    /// Whether an absent `params` reads as `[]` (by-position only) rather than `{}`.
    pub(crate) positional_only: bool,
    pub(crate) params: Target,
    pub(crate) result: Target,
    pub(crate) examples: Vec<Example>,
    pub(crate) errors: Vec<DeclaredError>,
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

/// A declared error.
#[derive(Debug)]
pub(crate) struct DeclaredError {
    pub(crate) code: i64,
    pub(crate) message: String,
    /// The target of its `data`, when it has one.
    pub(crate) data: Option<Target>,
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
    /// The table of `doc`, its methods under the wire names `dialect` gives them.
    pub(crate) fn new(doc: &Document, contract: &Contract, dialect: &Dialect) -> Table {
        let mut methods = HashMap::new();
        let mut events = HashMap::new();
        let mut dropped = Vec::new();
        for (ns_name, namespace) in doc.namespaces.iter().flatten() {
            for (m_name, method) in namespace.methods.iter().flatten() {
                let name = format!("{ns_name}.{m_name}");
                let params = Target::Params { namespace: ns_name.clone(), method: m_name.clone() };
                let result = Target::Result { namespace: ns_name.clone(), method: m_name.clone() };
                let param_names: Vec<String> =
                    method.params.iter().flatten().map(|p| p.name.clone()).collect();
                let mut info = MethodInfo {
                    name: name.clone(),
                    semantics: method.declared_semantics().map(|s| s.as_str().to_owned()),
                    param_names,
                    positional_only: method.param_structure == Some(ParamStructure::ByPosition),
                    params,
                    result,
                    examples: Vec::new(),
                    errors: Vec::new(),
                    sequence: AtomicU64::new(0),
                };
                let result_check = contract.validator(&info.result).ok();
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
                for error in method.errors.iter().flatten() {
                    info.errors.push(DeclaredError {
                        code: error.code,
                        message: error.message.clone(),
                        data: error.data.as_ref().map(|_| Target::ErrorData {
                            namespace: ns_name.clone(),
                            method: m_name.clone(),
                            code: error.code,
                        }),
                    });
                }
                // The Dialect resolved every method of the document it was made from.
                let wire_name = dialect.wire_name(ns_name, m_name).unwrap_or(&name).to_owned();
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

    /// What an absent `params` member stands for (docs/wire.md §3).
    pub(crate) fn absent_params(&self) -> Value {
        if self.positional_only { Value::Array(Vec::new()) } else { Value::Object(Map::new()) }
    }
}
