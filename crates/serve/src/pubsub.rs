//! Subscriptions in the pubsub style (docs/wire.md §11.3): geth's `eth_subscribe` /
//! `eth_subscription` / `eth_unsubscribe`, selected by leading params, and jsonrpsee's one
//! method per subscription. The routes (method names, selecting params) are the model's
//! `Dialect`'s; a pubsub subscription lives in the connection's [`Subscriptions`] beside
//! accord-style ones, and its payloads are made and checked the same way.

use accord_wire::{EventRoute, PubsubRoute, RpcError};
use serde_json::{Value, json};

use accord_plant::{Session, Subscriptions};
use accord_wire::encode::Answer;

use crate::answers::FakePlant;

/// One notification: `{"subscription": ID, "result": PAYLOAD}` under the route's name.
pub(crate) fn notification(route: &PubsubRoute, subscription: &str, payload: Value) -> Value {
    json!({
        "jsonrpc": accord_wire::JSONRPC,
        "method": route.notification,
        "params": {"subscription": subscription, "result": payload},
    })
}

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
                    .filter_map(|(_, route)| match route {
                        EventRoute::Pubsub(p) if p.subscribe == method => {
                            Some(Value::Array(p.params.clone()).to_string())
                        }
                        _ => None,
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
        Answer::Value(Value::Bool(self.ends(subs, method, id) && subs.remove(id)))
    }

    /// Whether `method` is the unsubscribe method of subscription `id`'s event.
    fn ends(&self, subs: &Subscriptions, method: &str, id: &str) -> bool {
        subs.get(id).is_some_and(|s| {
            matches!(self.core.dialect().event(&s.event), Some(EventRoute::Pubsub(p)) if p.unsubscribe == method)
        })
    }
}
