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

    /// `-32601` naming the method.
    pub fn method_not_found(method: &str) -> RpcError {
        RpcError::new(METHOD_NOT_FOUND, "Method not found", Some(json!({"method": method})))
    }

    /// `-32602` with every validation error, each as docs/wire.md §4 shapes it.
    pub fn invalid_params(errors: &[ValidationError]) -> RpcError {
        let errors: Vec<Value> = errors.iter().map(validation_error_value).collect();
        RpcError::new(INVALID_PARAMS, "Invalid params", Some(json!({"errors": errors})))
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

/// One validation error as `-32602`'s `data.errors` carries it.
pub fn validation_error_value(error: &ValidationError) -> Value {
    let mut object = Map::new();
    object.insert("path".into(), error.pointer.clone().into());
    object.insert("rule".into(), error.rule.id().into());
    object.insert("expected".into(), error.expected.clone().into());
    object.insert("found".into(), error.found.clone().into());
    if !error.nearest.is_empty() {
        let nearest: Vec<Value> = error.nearest.iter().map(validation_error_value).collect();
        object.insert("nearest".into(), nearest.into());
    }
    Value::Object(object)
}
