//! One message (an HTTP body or a WebSocket message) in, its answer out, as docs/wire.md says
//! and `accord serve` does: the body and depth limits, the strict envelope of accord-wire,
//! batches, notifications and the answer-bytes limit around each call's [`Route`].

use std::future::Future;
use std::pin::Pin;

use accord_wire::encode::{self, Answer};
use accord_wire::{Access, Id, Incoming, Request, RpcError, event, limits};
use serde_json::Value;

use crate::core::{Plant, Route};
use crate::events::Subscriptions;

/// The future a [`Dispatch`] answers with.
pub type DispatchFuture<'a> = Pin<Box<dyn Future<Output = Result<Value, RpcError>> + Send + 'a>>;

/// The plant's handlers: a contract method by its wire name, with params that already passed
/// the contract. Its answer is checked against the contract before it is sent.
pub trait Dispatch: Send + Sync {
    /// Answers one call.
    fn call<'a>(&'a self, method: &'a str, params: Option<Value>) -> DispatchFuture<'a>;
}

/// The transport a message came over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    /// `POST /`.
    Http,
    /// A WebSocket message.
    WebSocket,
}

impl Transport {
    /// The name docs/wire.md's `-32004` data uses.
    pub fn as_str(self) -> &'static str {
        match self {
            Transport::Http => "http",
            Transport::WebSocket => "websocket",
        }
    }
}

/// What one message is answered within.
#[derive(Debug)]
pub struct Session<'a> {
    /// Its transport.
    pub transport: Transport,
    /// What its credential gets it.
    pub access: Access,
    /// The connection's subscriptions (a WebSocket's), for `rpc.subscribe`.
    pub subscriptions: Option<&'a mut Subscriptions>,
}

impl Plant {
    /// Answers one message; `None` when nothing is to be answered (only notifications).
    pub async fn answer(
        &self,
        bytes: &[u8],
        session: &mut Session<'_>,
        dispatch: &dyn Dispatch,
    ) -> Option<Vec<u8>> {
        if bytes.len() > self.limits().body_bytes {
            return Some(self.refusal(limits::BODY_BYTES));
        }
        if limits::nests_deeper_than(bytes, self.limits().depth) {
            return Some(self.refusal(limits::DEPTH));
        }
        let incoming = match Incoming::parse_with_batch_limit(bytes, self.limits().batch_length) {
            Ok(incoming) => incoming,
            Err(error) if error.code == accord_wire::codes::LIMIT_EXCEEDED => {
                return Some(encode::refusal(self.protocol().limit(error)));
            }
            Err(error) => return Some(encode::refusal(error)),
        };
        match incoming {
            Incoming::Single(request) => {
                let (id, answer) = self.one(request, session, dispatch).await?;
                let mut out = Vec::with_capacity(256);
                self.respond(&id, &answer, &mut out);
                Some(out)
            }
            Incoming::Batch(requests) => {
                let mut out = vec![b'['];
                for request in requests {
                    if let Some((id, answer)) = self.one(request, session, dispatch).await {
                        if out.len() > 1 {
                            out.push(b',');
                        }
                        self.respond(&id, &answer, &mut out);
                    }
                }
                if out.len() == 1 {
                    return None;
                }
                out.push(b']');
                Some(out)
            }
        }
    }

    /// The `-32003` refusal of a whole message, id `null`.
    pub fn refusal(&self, limit: &str) -> Vec<u8> {
        encode::refusal(self.protocol().limit_exceeded(limit, self.limits().max_of(limit)))
    }

    /// Appends one response, or the `-32003` `answer-bytes` that replaces it when the answer
    /// would pass the limit (accord-wire's, as serve's).
    pub(crate) fn respond(&self, id: &Id, answer: &Answer, out: &mut Vec<u8>) {
        let max = self.limits().answer_bytes;
        encode::response_within(id, answer, out, max, self.protocol());
    }

    async fn one(
        &self,
        request: Result<Request, accord_wire::envelope::Rejected>,
        session: &mut Session<'_>,
        dispatch: &dyn Dispatch,
    ) -> Option<(Id, Answer)> {
        let request = match request {
            Ok(request) => request,
            Err(rejected) => return Some((rejected.id.clone(), Answer::Error(rejected.error()))),
        };
        let answer = self.call(&request, session, dispatch).await;
        request.id.map(|id| (id, answer))
    }

    /// Answers one request: routed, handled, settled.
    async fn call(
        &self,
        request: &Request,
        session: &mut Session<'_>,
        dispatch: &dyn Dispatch,
    ) -> Answer {
        let params = request.params.as_ref();
        match self.route(&request.method, params, session.access) {
            Route::Answer(answer) => answer,
            Route::Contract(call) => {
                let outcome = dispatch.call(&request.method, request.params.clone()).await;
                match self.settle(call, outcome) {
                    Ok(value) => Answer::Value(value),
                    Err(error) => Answer::Error(error),
                }
            }
            Route::Subscribe => self.subscribe(params, session),
            Route::Unsubscribe => match session.subscriptions.as_deref_mut() {
                None => self.protocol().not_on_transport(session.transport.as_str()).into(),
                Some(subs) => match event::read_unsubscribe_params(params) {
                    Ok(id) => Answer::Value(Value::Bool(subs.remove(&id))),
                    Err(error) => self.protocol().params_refusal(error).into(),
                },
            },
            // A plant served through `answer` has no pubsub handler of its own: accord's
            // router subscribes accord's way only.
            Route::Pubsub => match session.subscriptions {
                None => self.protocol().not_on_transport(session.transport.as_str()).into(),
                Some(_) => self.protocol().method_not_found(&request.method).into(),
            },
        }
    }

    fn subscribe(&self, params: Option<&Value>, session: &mut Session<'_>) -> Answer {
        let Some(subs) = session.subscriptions.as_deref_mut() else {
            return self.protocol().not_on_transport(session.transport.as_str()).into();
        };
        match event::read_subscribe_params(params) {
            Ok(_) if subs.len() >= self.limits().subscriptions => self
                .protocol()
                .limit_exceeded(limits::SUBSCRIPTIONS, self.limits().subscriptions as u64)
                .into(),
            Ok(name) if self.is_accord_event(&name) => {
                Answer::Value(Value::String(subs.add(&name)))
            }
            Ok(name) => self
                .protocol()
                .invalid_params_at(
                    if matches!(params, Some(Value::Array(_))) { "/0" } else { "/event" },
                    "an event of the contract, namespace.event",
                    &name,
                )
                .into(),
            Err(error) => self.protocol().params_refusal(error).into(),
        }
    }
}
