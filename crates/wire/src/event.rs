//! Event subscriptions and notifications (docs/wire.md §7).

use serde_json::{Value, json};

use crate::{Error, JSONRPC};

/// The subscribe method.
pub const SUBSCRIBE: &str = crate::ProtocolMethod::Subscribe.name();
/// The unsubscribe method.
pub const UNSUBSCRIBE: &str = crate::ProtocolMethod::Unsubscribe.name();
/// The method name every event notification carries.
pub const NOTIFICATION: &str = crate::ProtocolMethod::Notification.name();

/// One event notification.
#[derive(Debug, Clone, PartialEq)]
pub struct Notification {
    /// The subscription it belongs to.
    pub subscription: String,
    /// The event's name, `namespace.event`.
    pub event: String,
    /// The payload.
    pub payload: Value,
}

impl Notification {
    /// The notification as JSON.
    pub fn to_value(&self) -> Value {
        json!({
            "jsonrpc": JSONRPC,
            "method": NOTIFICATION,
            "params": {"subscription": self.subscription, "event": self.event, "payload": self.payload},
        })
    }

    /// Reads a message as a notification; `Ok(None)` when it is some other message (a
    /// response).
    pub fn from_value(value: &Value) -> Result<Option<Notification>, Error> {
        if value.get("method").and_then(Value::as_str) != Some(NOTIFICATION) {
            return Ok(None);
        }
        if value.get("jsonrpc").and_then(Value::as_str) != Some(JSONRPC) {
            return Err(Error::shape("/jsonrpc", "`jsonrpc` must be \"2.0\""));
        }
        let params = value
            .get("params")
            .and_then(Value::as_object)
            .ok_or_else(|| Error::shape("/params", "a notification's params must be an object"))?;
        let text = |name: &str| {
            params.get(name).and_then(Value::as_str).map(str::to_owned).ok_or_else(|| {
                Error::shape(format!("/params/{name}"), format!("`{name}` must be a string"))
            })
        };
        let payload = params
            .get("payload")
            .cloned()
            .ok_or_else(|| Error::shape("/params/payload", "`payload` is missing"))?;
        Ok(Some(Notification {
            subscription: text("subscription")?,
            event: text("event")?,
            payload,
        }))
    }
}

/// Reads `rpc.subscribe`'s params, `{"event": "namespace.event"}` (or `["namespace.event"]`):
/// the event's name. A missing or non-string name is `-32602`.
pub fn read_subscribe_params(params: Option<&Value>) -> Result<String, crate::RpcError> {
    read_one_string(params, "event", "an event name, namespace.event")
}

/// Reads `rpc.unsubscribe`'s params, `{"subscription": "ID"}` (or `["ID"]`): the id.
pub fn read_unsubscribe_params(params: Option<&Value>) -> Result<String, crate::RpcError> {
    read_one_string(params, "subscription", "a subscription id (a string)")
}

fn read_one_string(
    params: Option<&Value>,
    name: &str,
    expected: &str,
) -> Result<String, crate::RpcError> {
    let (value, at) = match params {
        Some(Value::Object(object)) => (object.get(name), format!("/{name}")),
        Some(Value::Array(items)) => (items.first(), "/0".to_owned()),
        _ => (None, format!("/{name}")),
    };
    match value {
        Some(Value::String(text)) => Ok(text.clone()),
        Some(other) => Err(crate::RpcError::invalid_params_at(&at, expected, &other.to_string())),
        None => Err(crate::RpcError::invalid_params_at(&at, expected, "nothing")),
    }
}
