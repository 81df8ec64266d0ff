//! The error codes of the wire (docs/wire.md §4) and the error object that carries them.

use accord_validate::ValidationError;
use serde_json::{Map, Value, json};

use crate::Error;

pub use accord_schema_model::dialect::codes::{
    CREDENTIAL_REFUSED, CREDENTIAL_REQUIRED, INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST,
    LIMIT_EXCEEDED, METHOD_NOT_FOUND, NOT_ON_TRANSPORT, PARSE_ERROR,
};

/// The codes JSON-RPC reserves for the protocol; a contract's declared errors lie outside.
pub const RESERVED_CODES: std::ops::RangeInclusive<i64> = -32768..=-32000;

/// A JSON-RPC error object: `{"code", "message", "data"?}`.
#[derive(Debug, Clone, PartialEq)]
pub struct RpcError {
    /// The code.
    pub code: i64,
    /// A short description.
    pub message: String,
    /// More about the error; its shape per code is in docs/wire.md §4.
    pub data: Option<Value>,
}

impl RpcError {
    fn new(code: i64, message: &str, data: Option<Value>) -> RpcError {
        RpcError { code, message: message.to_owned(), data }
    }

    /// `-32700` with the place serde_json stopped at.
    pub fn parse_error(line: usize, column: usize, reason: &str) -> RpcError {
        let data = json!({"line": line, "column": column, "reason": reason});
        RpcError::new(PARSE_ERROR, "Parse error", Some(data))
    }

    /// `-32700` for a serde_json error.
    pub fn from_json_error(err: &serde_json::Error) -> RpcError {
        RpcError::parse_error(err.line(), err.column(), &err.to_string())
    }

    /// `-32600` with the reason the value is not a request.
    pub fn invalid_request(reason: &str) -> RpcError {
        RpcError::new(INVALID_REQUEST, "Invalid request", Some(json!({"reason": reason})))
    }

    /// `-32600` for a member named twice (or a key twice inside it), naming the member.
    pub fn duplicate_member(reason: &str, member: &str) -> RpcError {
        let data = json!({"reason": reason, "member": member});
        RpcError::new(INVALID_REQUEST, "Invalid request", Some(data))
    }

    /// `-32602` for a key named twice inside params: one error at the key's path, rule
    /// `duplicate-key`.
    pub fn duplicate_param(key: &accord_schema_model::DuplicateKey) -> RpcError {
        let error = json!({"path": key.pointer, "rule": "duplicate-key",
            "expected": "each key named once", "found": format!("`{}` named twice", key.key)});
        RpcError::new(INVALID_PARAMS, "Invalid params", Some(json!({"errors": [error]})))
    }

    /// `-32601` naming the method.
    pub fn method_not_found(method: &str) -> RpcError {
        RpcError::new(METHOD_NOT_FOUND, "Method not found", Some(json!({"method": method})))
    }

    /// `-32602` with the validation errors, each as docs/wire.md §4 shapes it: the first
    /// [`MAX_ERRORS`], and `"more": N` counting the rest (a request cannot make its answer
    /// grow with every error it contains).
    pub fn invalid_params(errors: &[ValidationError]) -> RpcError {
        let mut data = Map::new();
        data.insert("errors".into(), capped(errors));
        if errors.len() > MAX_ERRORS {
            data.insert("more".into(), (errors.len() - MAX_ERRORS).into());
        }
        RpcError::new(INVALID_PARAMS, "Invalid params", Some(Value::Object(data)))
    }

    /// `-32602` for params that are wrong in a way no type says (an unknown example name, an
    /// undeclared error code in `rpc.fake`): one error at `path`.
    pub fn invalid_params_at(path: &str, expected: &str, found: &str) -> RpcError {
        let error = json!({"path": path, "rule": "wire", "expected": expected, "found": found});
        RpcError::new(INVALID_PARAMS, "Invalid params", Some(json!({"errors": [error]})))
    }

    /// `-32603` with a reason.
    pub fn internal(reason: &str) -> RpcError {
        RpcError::new(INTERNAL_ERROR, "Internal error", Some(json!({"reason": reason})))
    }

    /// `-32001`, pointing at the one method that is open without a credential.
    pub fn credential_required() -> RpcError {
        let data = json!({"describe": crate::describe::METHOD});
        RpcError::new(CREDENTIAL_REQUIRED, "Credential required", Some(data))
    }

    /// `-32002`, with no data: a refusal says nothing more.
    pub fn credential_refused() -> RpcError {
        RpcError::new(CREDENTIAL_REFUSED, "Credential refused", None)
    }

    /// `-32003` naming the limit and its configured maximum.
    pub fn limit_exceeded(limit: &str, max: u64) -> RpcError {
        let data = json!({"limit": limit, "max": max});
        RpcError::new(LIMIT_EXCEEDED, "Limit exceeded", Some(data))
    }

    /// `-32003` naming the limit and its maximum, with what passed it (a limit the plant's own
    /// answer reached rather than the request: `answer-bytes`, `generation-nodes`,
    /// `generation-bytes`).
    pub fn limit_exceeded_because(limit: &str, max: u64, reason: &str) -> RpcError {
        let data = json!({"limit": limit, "max": max, "reason": reason});
        RpcError::new(LIMIT_EXCEEDED, "Limit exceeded", Some(data))
    }

    /// `-32004` naming the transport the call came over.
    pub fn not_on_transport(transport: &str) -> RpcError {
        let data = json!({"transport": transport});
        RpcError::new(NOT_ON_TRANSPORT, "Not on this transport", Some(data))
    }

    /// A contract's declared error.
    pub fn declared(code: i64, message: &str, data: Option<Value>) -> RpcError {
        RpcError::new(code, message, data)
    }

    /// The error object as JSON.
    pub fn to_value(&self) -> Value {
        let mut object = Map::new();
        object.insert("code".into(), self.code.into());
        object.insert("message".into(), self.message.clone().into());
        if let Some(data) = &self.data {
            object.insert("data".into(), data.clone());
        }
        Value::Object(object)
    }

    /// Reads an error object (as a caller reads one); `pointer` locates it in the response.
    pub fn from_value(value: &Value, pointer: &str) -> Result<RpcError, Error> {
        let object =
            value.as_object().ok_or_else(|| Error::shape(pointer, "an error must be an object"))?;
        let code = object
            .get("code")
            .and_then(Value::as_i64)
            .ok_or_else(|| Error::shape(format!("{pointer}/code"), "`code` must be an integer"))?;
        let message = object.get("message").and_then(Value::as_str).ok_or_else(|| {
            Error::shape(format!("{pointer}/message"), "`message` must be a string")
        })?;
        Ok(RpcError { code, message: message.to_owned(), data: object.get("data").cloned() })
    }
}

/// The most validation errors one `-32602` lists (and one `nearest` list under an error); the
/// rest are counted in `more`.
pub const MAX_ERRORS: usize = 32;

/// The first [`MAX_ERRORS`] of `errors`, as `data.errors` (or `nearest`) carries them.
fn capped(errors: &[ValidationError]) -> Value {
    errors.iter().take(MAX_ERRORS).map(validation_error_value).collect::<Vec<_>>().into()
}

/// One validation error as `-32602`'s `data.errors` carries it (its `nearest` capped like the
/// list, with `"more"` counting the rest).
pub fn validation_error_value(error: &ValidationError) -> Value {
    let mut object = Map::new();
    object.insert("path".into(), error.pointer.clone().into());
    object.insert("rule".into(), error.rule.id().into());
    object.insert("expected".into(), error.expected.clone().into());
    object.insert("found".into(), error.found.clone().into());
    if !error.nearest.is_empty() {
        object.insert("nearest".into(), capped(&error.nearest));
        if error.nearest.len() > MAX_ERRORS {
            object.insert("more".into(), (error.nearest.len() - MAX_ERRORS).into());
        }
    }
    Value::Object(object)
}
