//! Answering subscribe and unsubscribe calls in the pubsub style (docs/wire.md §11.3): geth's
//! `eth_subscribe` / `eth_unsubscribe`, selected by leading params, and jsonrpsee's one method
//! per subscription. The routes are the model's `Dialect`'s, their calls and notifications
//! accord-wire's [`RoutedEvent`]'s; a pubsub subscription lives in the connection's
//! [`accord_plant::Subscriptions`] beside accord-style ones, and its payloads are made and
//! checked the same way.

use accord_wire::{RoutedEvent, RpcError};
use serde_json::Value;

use accord_plant::Session;
use accord_wire::encode::Answer;

use crate::answers::FakePlant;

/// A subscribe or unsubscribe call's params: positional, or none.
fn positional<'p>(plant: &FakePlant, params: Option<&'p Value>) -> Result<&'p [Value], RpcError> {
    match params {
        None => Ok(&[]),
        Some(Value::Array(items)) => Ok(items),
        Some(_) => Err(plant.core.protocol().invalid_params_at(
            "",
            "params by position (an array)",
            "an object",
        )),
    }
}

impl FakePlant {
    /// A call of a pubsub subscribe method: the event its leading params select (any params
    /// after them, a log filter say, are accepted unread); answered with the subscription id.
    pub(crate) fn pubsub_subscribe(
        &self,
        method: &str,
        params: Option<&Value>,
        session: &mut Session<'_>,
    ) -> Answer {
        let Some(subs) = session.subscriptions.as_deref_mut() else {
            return self.core.protocol().not_on_transport(session.transport.as_str()).into();
        };
        let items = match positional(self, params) {
            Ok(items) => items,
            Err(error) => return error.into(),
        };
        match self.core.dialect().pubsub_event(method, items) {
            // The same per-connection limit as accord's rpc.subscribe (docs/serve.md, Limits).
            Some(_) if subs.len() >= self.core.limits().subscriptions => {
                self.core.subscriptions_full()
            }
            Some((event, _, _)) => Answer::Value(Value::String(subs.add(event))),
            None => {
                let choices: Vec<String> = self
                    .core
                    .dialect()
                    .events()
                    .filter_map(|(event, route)| {
                        let (subscribe, params) = RoutedEvent { event, route }.subscribe();
                        (subscribe == method).then(|| params.to_string())
                    })
                    .collect();
                self.core
                    .protocol()
                    .invalid_params_at(
                        "/0",
                        &format!("params that start with one of {}", choices.join(", ")),
                        &Value::Array(items.to_vec()).to_string(),
                    )
                    .into()
            }
        }
    }

    /// A call of a pubsub unsubscribe method, `[ID]`: `true` when it ended a subscription
    /// made through the matching subscribe method, else `false`.
    pub(crate) fn pubsub_unsubscribe(
        &self,
        method: &str,
        params: Option<&Value>,
        session: &mut Session<'_>,
    ) -> Answer {
        let Some(subs) = session.subscriptions.as_deref_mut() else {
            return self.core.protocol().not_on_transport(session.transport.as_str()).into();
        };
        let id = match positional(self, params) {
            Ok([Value::String(id), ..]) => id,
            Ok(items) => {
                let found = items.first().map_or("nothing".to_owned(), Value::to_string);
                return self
                    .core
                    .protocol()
                    .invalid_params_at("/0", "a subscription id (a string)", &found)
                    .into();
            }
            Err(error) => return error.into(),
        };
        Answer::Value(Value::Bool(self.core.unsubscribe(subs, method, id)))
    }
}
