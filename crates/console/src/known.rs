//! A contract the console decides by: the document, its dialect (wire names, subscription
//! routes) and its compiled validators, made once when the contract is given or learnt.

use accord_schema_model::{Dialect, Document, EventRoute, Method};
use accord_validate::{Contract, Target};
use serde_json::Value;

use crate::Error;

/// The most validation errors sent to the page for one value (the wire's `-32602` cap).
const MAX_ERRORS: usize = 32;

/// A contract, ready to route and check by.
pub(crate) struct Known {
    pub(crate) doc: Document,
    pub(crate) dialect: Dialect,
    contract: Contract,
    /// The canonical JSON of the document, as the page reads it.
    pub(crate) value: Value,
}

/// A contract method, found by its `namespace.method` name.
pub(crate) struct Found<'k> {
    pub(crate) namespace: &'k str,
    pub(crate) name: &'k str,
    pub(crate) method: &'k Method,
    pub(crate) wire_name: &'k str,
}

impl Known {
    pub(crate) fn new(doc: Document) -> Result<Known, Error> {
        let dialect = Dialect::of(&doc)?;
        let contract = Contract::compile(&doc)?;
        let value = doc.to_value();
        Ok(Known { doc, dialect, contract, value })
    }

    /// The method `namespace.method` (the first `.` splits, as the format says).
    pub(crate) fn method(&self, qualified: &str) -> Option<Found<'_>> {
        let (ns, name) = qualified.split_once('.')?;
        let (namespace, ns_record) = self.doc.namespaces.as_ref()?.get_key_value(ns)?;
        let (name, method) = ns_record.methods.as_ref()?.get_key_value(name)?;
        let wire_name = self.dialect.wire_name(namespace, name)?;
        Some(Found { namespace, name, method, wire_name })
    }

    /// The route of the event `namespace.event`.
    pub(crate) fn event(&self, qualified: &str) -> Option<&EventRoute> {
        self.dialect.event(qualified)
    }

    /// The errors of `value` against `target`, as the wire words them (at most 32); an empty
    /// list for a valid value. A target the contract lacks is one error saying so.
    pub(crate) fn check(&self, target: &Target, value: &Value) -> Vec<Value> {
        let validator = match self.contract.validator(target) {
            Ok(validator) => validator,
            Err(err) => {
                return vec![
                    serde_json::json!({"path": "", "rule": "target", "expected": err.to_string(), "found": ""}),
                ];
            }
        };
        match validator.validate(value) {
            Ok(()) => Vec::new(),
            Err(errors) => errors
                .iter()
                .take(MAX_ERRORS)
                .map(accord_wire::codes::validation_error_value)
                .collect(),
        }
    }
}

/// The validation target of a method's params.
pub(crate) fn params_target(found: &Found<'_>) -> Target {
    Target::Params { namespace: found.namespace.to_owned(), method: found.name.to_owned() }
}

/// The validation target of a method's result.
pub(crate) fn result_target(found: &Found<'_>) -> Target {
    Target::Result { namespace: found.namespace.to_owned(), method: found.name.to_owned() }
}
