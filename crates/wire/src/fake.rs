//! `rpc.fake` (docs/wire.md §6): the steering a caller asks of `accord serve` for one call.
//!
//! Only `accord serve` answers it (a real plant answers `-32601`), but its params are a shape of
//! the wire, read here so that a caller can build them and a plant read them the same way.

use serde_json::{Map, Value};

use crate::RpcError;

/// The method's name on the wire.
pub const METHOD: &str = crate::ProtocolMethod::Fake.name();

/// The greatest `delayMs`.
pub const MAX_DELAY_MS: u64 = 60_000;

/// Which method example to answer with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExampleRef {
    /// By its `name`.
    Name(String),
    /// By its index in the method's `examples`.
    Index(u64),
}

/// What `rpc.fake` asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Fake {
    /// Answer one call, steered.
    Call {
        /// The method to call, `namespace.method`.
        method: String,
        /// Its params as given (absent when the call has none).
        params: Option<Value>,
        /// Answer with this example.
        example: Option<ExampleRef>,
        /// Answer with the declared error of this code.
        error: Option<i64>,
        /// Wait this long first.
        delay_ms: u64,
    },
    /// Send one notification of this event (`namespace.event`) to every subscription of it on
    /// this connection.
    Emit {
        /// The event's name.
        event: String,
        /// Wait this long first.
        delay_ms: u64,
    },
}

/// Reads `rpc.fake`'s params (by name only); every refusal is `-32602` at the member's path.
pub fn read_params(params: Option<&Value>) -> Result<Fake, RpcError> {
    let empty = Map::new();
    let object = match params {
        None => &empty,
        Some(Value::Object(object)) => object,
        Some(_) => {
            return Err(RpcError::invalid_params_at("", "params by name (an object)", "an array"));
        }
    };
    for key in object.keys() {
        if !["call", "example", "error", "delayMs", "emit"].contains(&key.as_str()) {
            return Err(RpcError::invalid_params_at(
                &format!("/{}", key.replace('~', "~0").replace('/', "~1")),
                "one of call, example, error, delayMs, emit",
                &format!("`{key}`"),
            ));
        }
    }
    let delay_ms = match object.get("delayMs") {
        None => 0,
        Some(value) => match value.as_u64() {
            Some(ms) if ms <= MAX_DELAY_MS => ms,
            _ => {
                return Err(RpcError::invalid_params_at(
                    "/delayMs",
                    "an integer from 0 to 60000",
                    &value.to_string(),
                ));
            }
        },
    };
    match (object.get("call"), object.get("emit")) {
        (Some(_), Some(_)) | (None, None) => Err(RpcError::invalid_params_at(
            "",
            "exactly one of `call` and `emit`",
            if object.contains_key("call") { "both" } else { "neither" },
        )),
        (None, Some(emit)) => {
            if object.contains_key("example") || object.contains_key("error") {
                return Err(RpcError::invalid_params_at(
                    "/emit",
                    "`emit` without `example` or `error`",
                    "`example` or `error` beside it",
                ));
            }
            let Some(event) = emit.as_str() else {
                return Err(RpcError::invalid_params_at(
                    "/emit",
                    "an event name, namespace.event",
                    &emit.to_string(),
                ));
            };
            Ok(Fake::Emit { event: event.to_owned(), delay_ms })
        }
        (Some(call), None) => {
            let Some(call) = call.as_object() else {
                return Err(RpcError::invalid_params_at(
                    "/call",
                    "an object {\"method\", \"params\"}",
                    &call.to_string(),
                ));
            };
            let Some(method) = call.get("method").and_then(Value::as_str) else {
                return Err(RpcError::invalid_params_at(
                    "/call/method",
                    "a method name, namespace.method",
                    &call.get("method").map_or("nothing".to_owned(), Value::to_string),
                ));
            };
            let params = match call.get("params") {
                None => None,
                Some(p @ (Value::Object(_) | Value::Array(_))) => Some(p.clone()),
                Some(other) => {
                    return Err(RpcError::invalid_params_at(
                        "/call/params",
                        "an object or an array",
                        &other.to_string(),
                    ));
                }
            };
            let example = match object.get("example") {
                None => None,
                Some(Value::String(name)) => Some(ExampleRef::Name(name.clone())),
                Some(value) => match value.as_u64() {
                    Some(index) => Some(ExampleRef::Index(index)),
                    None => {
                        return Err(RpcError::invalid_params_at(
                            "/example",
                            "an example name or index",
                            &value.to_string(),
                        ));
                    }
                },
            };
            let error = match object.get("error") {
                None => None,
                Some(value) => match value.as_i64() {
                    Some(code) => Some(code),
                    None => {
                        return Err(RpcError::invalid_params_at(
                            "/error",
                            "an error code (an integer)",
                            &value.to_string(),
                        ));
                    }
                },
            };
            if example.is_some() && error.is_some() {
                return Err(RpcError::invalid_params_at(
                    "/error",
                    "`example` or `error`, not both",
                    "both",
                ));
            }
            Ok(Fake::Call { method: method.to_owned(), params, example, error, delay_ms })
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{ExampleRef, Fake, read_params};

    #[test]
    fn reads_a_steered_call_and_an_emit() {
        let call = read_params(Some(
            &json!({"call": {"method": "pump.list"}, "example": 0, "delayMs": 5}),
        ));
        assert_eq!(
            call,
            Ok(Fake::Call {
                method: "pump.list".into(),
                params: None,
                example: Some(ExampleRef::Index(0)),
                error: None,
                delay_ms: 5
            })
        );
        let emit = read_params(Some(&json!({"emit": "pump.status"})));
        assert_eq!(emit, Ok(Fake::Emit { event: "pump.status".into(), delay_ms: 0 }));
    }

    #[test]
    fn refuses_what_excludes_itself() {
        for bad in [
            json!({}),
            json!({"call": {"method": "a.b"}, "emit": "a.e"}),
            json!({"call": {"method": "a.b"}, "example": "x", "error": 1}),
            json!({"call": {"method": "a.b"}, "delayMs": 60001}),
            json!({"emit": "a.e", "error": 1}),
            json!({"call": {"method": 3}}),
            json!({"call": {"method": "a.b"}, "then": 1}),
        ] {
            let err = read_params(Some(&bad)).unwrap_err();
            assert_eq!(err.code, crate::codes::INVALID_PARAMS, "{bad}");
        }
    }
}
