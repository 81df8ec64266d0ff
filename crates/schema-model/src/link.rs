//! Links between methods and the events a method causes (docs/format.md §5.11, §5.12): a
//! method's `links` name methods whose params can be taken from this method's params or
//! result (OpenRPC's Link Object), and its `causes` name the events a call may cause.
//!
//! A link's param values are kept as written (any JSON); what they mean is read here, once,
//! for every tool that follows links (lint, conform, the console): [`LinkValue::parse`] tells a
//! runtime expression (`$params.queue`, `$result.0.token`) from a constant, and
//! [`RuntimeExpr::evaluate`] takes the value from a call's params and result. The reader does
//! not refuse an expression this build cannot parse, so that a later build may add expression
//! forms without a new `schema` number; `accord check` reports it (`link-expression`).

use std::fmt;

use indexmap::IndexMap;
use serde_json::{Map, Value};

use crate::{ErrorKind, Method, Unknown};

/// One entry of a method's `links`: a method whose params can be taken from this method's call.
/// Its key in `links` is the link's name.
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    /// The linked method's name, in `namespace`.
    pub method: String,
    /// The linked method's namespace; absent: the namespace of the method that has the link.
    pub namespace: Option<String>,
    /// A short summary of the link.
    pub summary: Option<String>,
    /// What the link is for.
    pub description: Option<String>,
    /// The linked method's params, by name: a runtime expression or a constant each
    /// ([`LinkValue::parse`]), as written; absent: the link gives no params.
    pub params: Option<IndexMap<String, Value>>,
    /// Members this build has no name for.
    pub unknown: Unknown,
}

impl Link {
    /// A link to `method` in the same namespace, with nothing else said.
    pub fn new(method: impl Into<String>) -> Self {
        Link {
            method: method.into(),
            namespace: None,
            summary: None,
            description: None,
            params: None,
            unknown: Unknown::new(),
        }
    }

    /// The linked method as (namespace, method), for a link written in namespace `own`.
    pub fn target<'a>(&'a self, own: &'a str) -> (&'a str, &'a str) {
        (self.namespace.as_deref().unwrap_or(own), &self.method)
    }

    /// The params of the linked call, by name, from the source call's params (by name, see
    /// [`Method::named_params`]) and its result, in the order the link writes them.
    ///
    /// # Errors
    ///
    /// [`LinkParamError`] naming the first param whose value could not be made: an expression
    /// this build does not read, or one that finds nothing in this call (an absent member, an
    /// index past the end of an empty list).
    pub fn resolve(
        &self,
        params: &Map<String, Value>,
        result: &Value,
    ) -> Result<Map<String, Value>, LinkParamError> {
        let mut out = Map::new();
        for (name, written) in self.params.iter().flatten() {
            let value = LinkValue::parse(written)
                .map_err(|kind| LinkParamError { param: name.clone(), kind })?;
            let Some(value) = value.evaluate(params, result) else {
                return Err(LinkParamError {
                    param: name.clone(),
                    kind: ErrorKind::InvalidValue {
                        what: format!("`{written}`"),
                        reason: "finds nothing in this call's params and result".to_owned(),
                    },
                });
            };
            out.insert(name.clone(), value);
        }
        Ok(out)
    }
}

/// A link param whose value could not be made from a call ([`Link::resolve`]).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("link param `{param}`: {kind}")]
pub struct LinkParamError {
    /// The linked method's param.
    pub param: String,
    /// Why.
    pub kind: ErrorKind,
}

/// One entry of a method's `causes`: an event a call of the method may cause.
#[derive(Debug, Clone, PartialEq)]
pub struct Cause {
    /// The event's name, in `namespace`.
    pub event: String,
    /// The event's namespace; absent: the namespace of the method.
    pub namespace: Option<String>,
    /// When the call causes the event.
    pub description: Option<String>,
    /// Members this build has no name for.
    pub unknown: Unknown,
}

impl Cause {
    /// The event `event` of the method's own namespace, with nothing else said.
    pub fn new(event: impl Into<String>) -> Self {
        Cause { event: event.into(), namespace: None, description: None, unknown: Unknown::new() }
    }

    /// The event as (namespace, event), for a method of namespace `own`.
    pub fn target<'a>(&'a self, own: &'a str) -> (&'a str, &'a str) {
        (self.namespace.as_deref().unwrap_or(own), &self.event)
    }
}

/// What a link param's value means: a runtime expression or a constant.
#[derive(Debug, Clone, PartialEq)]
pub enum LinkValue {
    /// Taken from the source call when the link is followed.
    Expr(RuntimeExpr),
    /// This value, as is.
    Const(Value),
}

impl LinkValue {
    /// Reads a link param's value as written. A string that starts with `$` is a runtime
    /// expression, except one that starts with `$$`, which is the constant string with the
    /// first `$` removed (`"$$5"` is the text `$5`). Every other value, objects and arrays
    /// included (whatever strings they hold), is a constant.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Expression`] for a string starting with a single `$` that is not an
    /// expression this build reads.
    pub fn parse(value: &Value) -> Result<LinkValue, ErrorKind> {
        match value {
            Value::String(text) if text.starts_with("$$") => {
                Ok(LinkValue::Const(Value::String(text[1..].to_owned())))
            }
            Value::String(text) if text.starts_with('$') => {
                RuntimeExpr::parse(text).map(LinkValue::Expr)
            }
            other => Ok(LinkValue::Const(other.clone())),
        }
    }

    /// The value for one call: the expression evaluated, or the constant.
    pub fn evaluate(&self, params: &Map<String, Value>, result: &Value) -> Option<Value> {
        match self {
            LinkValue::Expr(expr) => expr.evaluate(params, result),
            LinkValue::Const(value) => Some(value.clone()),
        }
    }

    /// How the value is written in a document (a constant string starting with `$` escaped).
    pub fn to_value(&self) -> Value {
        match self {
            LinkValue::Expr(expr) => Value::String(expr.to_string()),
            LinkValue::Const(Value::String(text)) if text.starts_with('$') => {
                Value::String(format!("${text}"))
            }
            LinkValue::Const(value) => value.clone(),
        }
    }
}

/// A runtime expression: `$params.NAME` or `$result`, then a path of `.`-separated steps.
///
/// A step is a member name on an object, or a decimal index (`0`, `12`; no sign, no leading
/// zero) on an array. A member name that is empty or holds a `.` cannot be reached.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RuntimeExpr {
    /// What the path starts from.
    pub source: ExprSource,
    /// The steps after the source (for `$params.queue.name`, `["name"]`).
    pub path: Vec<String>,
}

/// Where a runtime expression starts.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ExprSource {
    /// `$params.NAME`: the source call's param `NAME`.
    Param(String),
    /// `$result`: the source call's result.
    Result,
}

impl RuntimeExpr {
    /// Reads `$params.NAME[.STEP…]` or `$result[.STEP…]`.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Expression`] for any other text: another source (`$method`, `$foo`), a
    /// `$params` without a param name, an empty step (`$result..id`, `$result.`).
    pub fn parse(text: &str) -> Result<RuntimeExpr, ErrorKind> {
        let refuse = |reason: &str| ErrorKind::Expression {
            expression: text.to_owned(),
            reason: reason.to_owned(),
        };
        let mut steps = text.split('.');
        let head = steps.next().unwrap_or_default();
        let mut steps: Vec<String> = steps.map(str::to_owned).collect();
        if steps.iter().any(String::is_empty) {
            return Err(refuse("a step between two `.` is empty"));
        }
        let source = match head {
            "$result" => ExprSource::Result,
            "$params" if steps.is_empty() => {
                return Err(refuse("`$params` needs a param name: `$params.NAME`"));
            }
            "$params" => ExprSource::Param(steps.remove(0)),
            _ => {
                return Err(refuse(
                    "this accord reads `$params.NAME` and `$result`, each with an optional `.`-separated path (a constant text starting with `$` is written `$$`)",
                ));
            }
        };
        Ok(RuntimeExpr { source, path: steps })
    }

    /// The value the expression finds in one call: `params` by name (a by-position call's
    /// params are named first, [`Method::named_params`]), `result` as the plant answered it.
    /// `None` when the path leads nowhere (an absent param or member, an index past the end,
    /// a step into a value that is neither object nor array).
    pub fn evaluate(&self, params: &Map<String, Value>, result: &Value) -> Option<Value> {
        let mut at = match &self.source {
            ExprSource::Param(name) => params.get(name)?,
            ExprSource::Result => result,
        };
        for step in &self.path {
            at = path_step(at, step)?;
        }
        Some(at.clone())
    }
}

/// One step of a runtime expression's path in a value: a member of an object, an index
/// ([`path_index`]) into an array; `None` when the value has nothing there.
pub fn path_step<'v>(value: &'v Value, step: &str) -> Option<&'v Value> {
    match value {
        Value::Object(members) => members.get(step),
        Value::Array(items) => items.get(path_index(step)?),
        _ => None,
    }
}

/// A path step read as an array index: decimal digits, no sign, no leading zero.
pub fn path_index(step: &str) -> Option<usize> {
    let canonical = step == "0" || (!step.starts_with('0') && !step.is_empty());
    if canonical && step.bytes().all(|b| b.is_ascii_digit()) { step.parse().ok() } else { None }
}

impl fmt::Display for RuntimeExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.source {
            ExprSource::Param(name) => write!(f, "$params.{name}")?,
            ExprSource::Result => f.write_str("$result")?,
        }
        for step in &self.path {
            write!(f, ".{step}")?;
        }
        Ok(())
    }
}

impl Method {
    /// A call's params by name: an object as it is, an array named by this method's params in
    /// position order (items past the last param are left out). `None` for any other value.
    pub fn named_params(&self, sent: &Value) -> Option<Map<String, Value>> {
        match sent {
            Value::Object(members) => Some(members.clone()),
            Value::Array(items) => Some(
                self.params
                    .iter()
                    .flatten()
                    .zip(items)
                    .map(|(param, value)| (param.name.clone(), value.clone()))
                    .collect(),
            ),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::{ExprSource, Link, LinkValue, RuntimeExpr};
    use crate::{ErrorKind, Field, Method, Param, TypeNode};

    fn expr(text: &str) -> RuntimeExpr {
        RuntimeExpr::parse(text).unwrap()
    }

    #[test]
    fn expressions_read_and_write_back() {
        for text in ["$result", "$result.id", "$result.0.job.id", "$params.queue", "$params.a.b"] {
            assert_eq!(expr(text).to_string(), text);
        }
        assert_eq!(expr("$params.queue").source, ExprSource::Param("queue".into()));
        assert_eq!(expr("$result.0.token").path, ["0", "token"]);
    }

    #[test]
    fn what_is_not_an_expression_is_refused_with_the_reason() {
        for (text, says) in [
            ("$", "reads `$params.NAME`"),
            ("$method", "reads `$params.NAME`"),
            ("$params", "needs a param name"),
            ("$result.", "empty"),
            ("$result..id", "empty"),
            ("$params..x", "empty"),
        ] {
            match RuntimeExpr::parse(text) {
                Err(ErrorKind::Expression { expression, reason }) => {
                    assert_eq!(expression, text);
                    assert!(reason.contains(says), "{text}: {reason}");
                }
                other => panic!("{text}: {other:?}"),
            }
        }
    }

    #[test]
    fn constants_and_the_dollar_escape() {
        let value = |v: Value| LinkValue::parse(&v).unwrap();
        assert_eq!(value(json!("$$5")), LinkValue::Const(json!("$5")));
        assert_eq!(value(json!("thumbnails")), LinkValue::Const(json!("thumbnails")));
        assert_eq!(value(json!(3)), LinkValue::Const(json!(3)));
        // Strings inside a constant object are not expressions.
        assert_eq!(value(json!({ "a": "$result" })), LinkValue::Const(json!({ "a": "$result" })));
        assert_eq!(value(json!("$result.id")), LinkValue::Expr(expr("$result.id")));
        for written in [json!("$$5"), json!("$result.id"), json!(null), json!("x")] {
            assert_eq!(value(written.clone()).to_value(), written);
        }
    }

    #[test]
    fn evaluation_takes_members_and_indexes_and_finds_nothing_past_them() {
        let params = json!({ "queue": "thumbnails", "jobs": [{ "queue": "mail" }] });
        let params = params.as_object().unwrap();
        let result = json!([{ "token": "lt_1", "job": { "id": "j1" } }]);
        let eval = |text: &str| expr(text).evaluate(params, &result);
        assert_eq!(eval("$params.queue"), Some(json!("thumbnails")));
        assert_eq!(eval("$params.jobs.0.queue"), Some(json!("mail")));
        assert_eq!(eval("$result.0.token"), Some(json!("lt_1")));
        assert_eq!(eval("$result.0.job.id"), Some(json!("j1")));
        assert_eq!(eval("$result"), Some(result.clone()));
        assert_eq!(eval("$result.1.token"), None, "past the end");
        assert_eq!(eval("$result.00.token"), None, "a leading zero is not an index");
        assert_eq!(eval("$result.0.token.x"), None, "into a string");
        assert_eq!(eval("$params.missing"), None);
        let empty = json!([]);
        assert_eq!(expr("$result.0.token").evaluate(params, &empty), None);
    }

    #[test]
    fn a_link_resolves_every_param_or_names_the_one_it_cannot() {
        let mut link = Link::new("ack");
        link.params = Some(
            [("id", json!("$result.0.job.id")), ("token", json!("$result.0.token"))]
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v))
                .collect(),
        );
        let params = serde_json::Map::new();
        let result = json!([{ "token": "lt_1", "job": { "id": "j1" } }]);
        let resolved = link.resolve(&params, &result).unwrap();
        assert_eq!(Value::Object(resolved), json!({ "id": "j1", "token": "lt_1" }));
        let err = link.resolve(&params, &json!([])).unwrap_err();
        assert_eq!(err.param, "id");
        assert_eq!(link.target("queue"), ("queue", "ack"));
    }

    #[test]
    fn positional_params_are_named_in_order() {
        let mut method = Method::new(TypeNode::new(crate::TypeKind::Null));
        method.params = Some(vec![
            Param { name: "queue".into(), field: Field::new(TypeNode::new(crate::TypeKind::Any)) },
            Param { name: "worker".into(), field: Field::new(TypeNode::new(crate::TypeKind::Any)) },
        ]);
        let named = method.named_params(&json!(["q", "w", "extra"])).unwrap();
        assert_eq!(Value::Object(named), json!({ "queue": "q", "worker": "w" }));
        assert_eq!(method.named_params(&json!({ "x": 1 })).unwrap().len(), 1);
        assert!(method.named_params(&json!(1)).is_none());
    }
}
