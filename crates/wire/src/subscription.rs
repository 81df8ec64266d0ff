//! Subscribing to one event by its route (docs/wire.md §7, and §11.3's pubsub style): the
//! subscribe and unsubscribe calls a caller sends, the subscription id it reads from the
//! answer, the notification a plant sends and how a caller reads one. Every caller (accord's
//! client, the console, conform) and every plant side (accord serve's fake, accord-plant) takes
//! the route's method names and shapes from here, so that the two styles are written once.
//! Pure functions over the route: the IO is each consumer's own.

use std::fmt;

use accord_schema_model::dialect::{Dialect, EventRoute, PubsubRoute};
use serde_json::{Map, Value, json};

use crate::JSONRPC;
use crate::event::{NOTIFICATION, Notification, SUBSCRIBE, UNSUBSCRIBE};

/// One event (`namespace.event`) with the route its wire subscribes it by.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RoutedEvent<'a> {
    /// The event's contract name, `namespace.event`.
    pub event: &'a str,
    /// How it is subscribed.
    pub route: &'a EventRoute,
}

/// One notification read for a subscription: its subscription id and its payload.
#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    /// The subscription the notification names, as sent (accord's ids are strings; pubsub ids
    /// may be hex strings or integers, compared as JSON).
    pub subscription: Value,
    /// The payload (`params.payload` on accord's route, `params.result` on a pubsub one).
    pub payload: Value,
}

/// Why a message is not a notification of the subscription being read.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Unread {
    /// Some other message: not the route's notification method (a response, say).
    OtherMethod {
        /// The route's notification method.
        expected: String,
    },
    /// The route's notification method, without the members the route's shape needs.
    Malformed(String),
    /// A notification of another subscription.
    OtherSubscription {
        /// The id it names, as JSON text.
        found: String,
        /// The id read from the subscribe answer, as JSON text.
        expected: String,
    },
    /// An accord notification of another event on this subscription.
    OtherEvent {
        /// The event it names.
        found: String,
        /// The event subscribed to.
        expected: String,
    },
}

impl fmt::Display for Unread {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unread::OtherMethod { expected } => write!(
                f,
                "a message that is neither a response awaited nor a `{expected}` notification"
            ),
            Unread::Malformed(reason) => write!(f, "a malformed notification: {reason}"),
            Unread::OtherSubscription { found, expected } => {
                write!(f, "a notification for subscription {found}, not {expected}")
            }
            Unread::OtherEvent { found, expected } => {
                write!(f, "a notification of `{found}` on a subscription to `{expected}`")
            }
        }
    }
}

impl<'a> RoutedEvent<'a> {
    /// The event `event` with the route `dialect` gives it; `None` for an event the contract
    /// does not have.
    pub fn of(dialect: &'a Dialect, event: &'a str) -> Option<RoutedEvent<'a>> {
        dialect.event(event).map(|route| RoutedEvent { event, route })
    }

    /// The subscribe call: its method's wire name and its params (accord's
    /// `{"event": "namespace.event"}`, or the pubsub route's selecting params by position).
    pub fn subscribe(&self) -> (&'a str, Value) {
        match self.route {
            EventRoute::Accord => (SUBSCRIBE, json!({"event": self.event})),
            EventRoute::Pubsub(p) => (p.subscribe.as_str(), Value::Array(p.params.clone())),
        }
    }

    /// The unsubscribe call of the subscription `id`: its method's wire name and its params
    /// (accord's `{"subscription": ID}`, a pubsub route's `[ID]`).
    pub fn unsubscribe(&self, id: &Value) -> (&'a str, Value) {
        let params = match self.route {
            EventRoute::Accord => json!({"subscription": id}),
            EventRoute::Pubsub(_) => json!([id]),
        };
        (self.unsubscribe_method(), params)
    }

    /// The unsubscribe method's wire name: the one call that ends this event's subscriptions
    /// (a plant ends a subscription only by its own route's method).
    pub fn unsubscribe_method(&self) -> &'a str {
        match self.route {
            EventRoute::Accord => UNSUBSCRIBE,
            EventRoute::Pubsub(p) => p.unsubscribe.as_str(),
        }
    }

    /// The subscription id a subscribe call's result gives, when it is one the route allows:
    /// a string on accord's route, a string or an integer on a pubsub one (geth's ids are hex
    /// strings, jsonrpsee's strings or integers).
    pub fn subscription_id(&self, result: &Value) -> Option<Value> {
        match (self.route, result) {
            (_, Value::String(_)) | (EventRoute::Pubsub(_), Value::Number(_)) => {
                Some(result.clone())
            }
            _ => None,
        }
    }

    /// The notification method's wire name.
    pub fn notification_method(&self) -> &'a str {
        match self.route {
            EventRoute::Accord => NOTIFICATION,
            EventRoute::Pubsub(p) => p.notification.as_str(),
        }
    }

    /// The notification a plant sends on the subscription `id` with `payload` (accord's
    /// `{"subscription", "event", "payload"}`, a pubsub route's `{"subscription", "result"}`).
    pub fn notification(&self, id: &str, payload: Value) -> Value {
        match self.route {
            EventRoute::Accord => {
                Notification { subscription: id.to_owned(), event: self.event.to_owned(), payload }
                    .to_value()
            }
            EventRoute::Pubsub(PubsubRoute { notification, .. }) => json!({
                "jsonrpc": JSONRPC,
                "method": notification,
                "params": {"subscription": id, "result": payload},
            }),
        }
    }

    /// Reads `message` as a notification of this event's route, whichever subscription it
    /// names: `Err` says why it is not one.
    pub fn read(&self, message: &Value) -> Result<Notice, Unread> {
        let expected = self.notification_method();
        if message.get("method").and_then(Value::as_str) != Some(expected) {
            return Err(Unread::OtherMethod { expected: expected.to_owned() });
        }
        match self.route {
            EventRoute::Accord => match Notification::from_value(message) {
                Ok(Some(note)) if note.event != self.event => {
                    Err(Unread::OtherEvent { found: note.event, expected: self.event.to_owned() })
                }
                Ok(Some(note)) => Ok(Notice {
                    subscription: Value::String(note.subscription),
                    payload: note.payload,
                }),
                // The method was checked above: from_value reads it as a notification.
                Ok(None) => Err(Unread::OtherMethod { expected: expected.to_owned() }),
                Err(e) => Err(Unread::Malformed(e.to_string())),
            },
            EventRoute::Pubsub(_) => read_pubsub(message),
        }
    }

    /// Reads `message` as a notification of the subscription `id`: its payload, or why it is
    /// not one.
    pub fn read_for(&self, id: &Value, message: &Value) -> Result<Value, Unread> {
        let notice = self.read(message)?;
        if notice.subscription != *id {
            return Err(Unread::OtherSubscription {
                found: notice.subscription.to_string(),
                expected: id.to_string(),
            });
        }
        Ok(notice.payload)
    }
}

/// A pubsub notification's `{"subscription": ID, "result": PAYLOAD}`, its method already
/// checked.
fn read_pubsub(message: &Value) -> Result<Notice, Unread> {
    let malformed = |reason: &str| Unread::Malformed(reason.to_owned());
    if message.get("jsonrpc").and_then(Value::as_str) != Some(JSONRPC) {
        return Err(malformed("`jsonrpc` must be \"2.0\""));
    }
    let params: &Map<String, Value> = message
        .get("params")
        .and_then(Value::as_object)
        .ok_or_else(|| malformed("params must be {\"subscription\", \"result\"}"))?;
    let subscription =
        params.get("subscription").ok_or_else(|| malformed("`params.subscription` is missing"))?;
    let payload = params.get("result").ok_or_else(|| malformed("`params.result` is missing"))?;
    Ok(Notice { subscription: subscription.clone(), payload: payload.clone() })
}
