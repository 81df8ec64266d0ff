//! The one JSON-RPC answer engine: one message (an HTTP body or a WebSocket message) in, its
//! answer out, as docs/wire.md says. The body and depth limits, the strict envelope of
//! accord-wire, batches, notifications and the answer-bytes limit around each call's [`Route`];
//! what the core does not answer itself goes to a [`Handler`]: a real plant's [`Dispatch`]
//! (each answer checked by [`Plant::settle`]), or accord serve's generated answers.

use std::future::Future;
use std::pin::Pin;
use std::time::Instant;

use accord_wire::encode::{self, Answer};
use accord_wire::{Access, Id, Incoming, Request, RoutedEvent, RpcError, event, limits};
use serde_json::Value;

use crate::core::{ContractCall, Plant, Route};
use crate::events::Subscriptions;
use crate::usage::Declared;

/// The future a [`Dispatch`] answers with.
pub type DispatchFuture<'a> = Pin<Box<dyn Future<Output = Result<Value, RpcError>> + Send + 'a>>;

/// The plant's handlers: a contract method by its wire name, with params that already passed
/// the contract. Its answer is checked against the contract before it is sent.
pub trait Dispatch: Send + Sync {
    /// Answers one call.
    fn call<'a>(&'a self, method: &'a str, params: Option<Value>) -> DispatchFuture<'a>;
}

/// What answers the calls [`Plant::answer_with`] routes out of the core: the contract methods,
/// `rpc.fake` and the pubsub methods. Everything else (the limits, the envelope, batches, the
/// describe method, the credential, params, accord's own subscriptions) is the core's.
pub trait Handler: Send {
    /// A contract method whose params passed the contract.
    fn contract<'s>(&'s mut self, routed: Routed<'s>) -> impl Future<Output = Answer> + Send + 's;

    /// `rpc.fake` (docs/wire.md §6), with the wire name of the contract method it answered
    /// when it got as far as one. A real plant has no such method.
    fn fake<'s>(
        &'s mut self,
        plant: &'s Plant,
        request: &'s Request,
        session: &'s mut Session<'_>,
    ) -> impl Future<Output = (Answer, Option<String>)> + Send + 's {
        let _ = session;
        let answer = plant.protocol().method_not_found(&request.method).into();
        std::future::ready((answer, None))
    }

    /// A pubsub subscribe or unsubscribe method of the contract's wire (docs/wire.md §11.3).
    /// Without a handler of its own, a plant answers it as no method on a WebSocket.
    fn pubsub(&mut self, plant: &Plant, request: &Request, session: &mut Session<'_>) -> Answer {
        match session.subscriptions {
            None => plant.protocol().not_on_transport(session.transport.as_str()).into(),
            Some(_) => plant.protocol().method_not_found(&request.method).into(),
        }
    }

    /// Told of each answered request (for a request log): `called` is the contract method
    /// answered, directly or through `rpc.fake`; `started` when the request was routed.
    fn answered(
        &mut self,
        request: &Request,
        answer: &Answer,
        called: Option<ContractCall<'_>>,
        transport: Transport,
        started: Instant,
    ) {
        let _ = (request, answer, called, transport, started);
    }
}

/// A call routed to [`Handler::contract`]: the plant that routed it, the contract method and the
/// request, its params already checked.
#[derive(Clone, Copy)]
pub struct Routed<'s> {
    /// The plant (its contract, [`Plant::settle`]).
    pub plant: &'s Plant,
    /// The contract method called.
    pub call: ContractCall<'s>,
    /// The request as it came.
    pub request: &'s Request,
}

/// A [`Dispatch`] as a [`Handler`]: each answer settled against the contract.
struct Dispatched<'d>(&'d dyn Dispatch);

impl Handler for Dispatched<'_> {
    fn contract<'s>(&'s mut self, routed: Routed<'s>) -> impl Future<Output = Answer> + Send + 's {
        let Routed { plant, call, request } = routed;
        let dispatch = self.0;
        async move {
            let outcome = dispatch.call(&request.method, request.params.clone()).await;
            match plant.settle(call, outcome) {
                Ok(value) => Answer::Value(value),
                Err(error) => Answer::Error(error),
            }
        }
    }
}

/// The transport a message came over.
pub use accord_wire::Transport;

/// What one message is answered within.
#[derive(Debug)]
pub struct Session<'a> {
    /// Its transport.
    pub transport: Transport,
    /// What its credential gets it.
    pub access: Access,
    /// The connection's subscriptions (a WebSocket's), for `rpc.subscribe`.
    pub subscriptions: Option<&'a mut Subscriptions>,
    /// The versions the caller declared with `rpc.describe` on this connection (a
    /// WebSocket's) or in this message (an HTTP body), which its calls are counted under
    /// when the plant counts usage; `None`: not kept.
    pub declared: Option<&'a mut Declared>,
}

impl Plant {
    /// Answers one message; `None` when nothing is to be answered (only notifications).
    pub async fn answer(
        &self,
        bytes: &[u8],
        session: &mut Session<'_>,
        dispatch: &dyn Dispatch,
    ) -> Option<Vec<u8>> {
        self.answer_with(bytes, session, &mut Dispatched(dispatch)).await
    }

    /// [`Plant::answer`] with the routed calls answered by `handler`.
    pub async fn answer_with<H: Handler>(
        &self,
        bytes: &[u8],
        session: &mut Session<'_>,
        handler: &mut H,
    ) -> Option<Vec<u8>> {
        tracing::debug!(
            transport = session.transport.as_str(),
            bytes = bytes.len(),
            "message received"
        );
        if bytes.len() > self.limits().body_bytes {
            return Some(self.refusal(limits::BODY_BYTES));
        }
        if limits::nests_deeper_than(bytes, self.limits().depth) {
            return Some(self.refusal(limits::DEPTH));
        }
        let incoming = match Incoming::parse_with_batch_limit(bytes, self.limits().batch_length) {
            Ok(incoming) => incoming,
            Err(error) if error.code == accord_wire::codes::LIMIT_EXCEEDED => {
                tracing::info!(limit = limits::BATCH_LENGTH, "limit exceeded");
                return Some(encode::refusal(self.protocol().limit(error)));
            }
            Err(error) => {
                tracing::info!(
                    transport = session.transport.as_str(),
                    code = error.code,
                    "unreadable message"
                );
                return Some(encode::refusal(error));
            }
        };
        match incoming {
            Incoming::Single(request) => {
                let (id, answer) = self.one(request, session, handler).await?;
                let mut out = Vec::with_capacity(256);
                self.respond(&id, &answer, &mut out);
                Some(out)
            }
            Incoming::Batch(requests) => {
                let mut out = vec![b'['];
                for request in requests {
                    if let Some((id, answer)) = self.one(request, session, handler).await {
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
        tracing::info!(limit, "limit exceeded");
        encode::refusal(self.protocol().limit_exceeded(limit, self.limits().max_of(limit)))
    }

    /// Appends one response to `out` (the answer so far), or, when the answer would then pass
    /// `answer-bytes`, the `-32003` that says so in its place: whatever a handler answers, one
    /// message's answer stays within the limit (each refusal is small).
    pub(crate) fn respond(&self, id: &Id, answer: &Answer, out: &mut Vec<u8>) {
        let max = self.limits().answer_bytes;
        if let Some(bytes) = encode::response_within(id, answer, out, max, self.protocol()) {
            tracing::info!(limit = limits::ANSWER_BYTES, bytes, "limit exceeded");
        }
    }

    async fn one<H: Handler>(
        &self,
        request: Result<Request, accord_wire::envelope::Rejected>,
        session: &mut Session<'_>,
        handler: &mut H,
    ) -> Option<(Id, Answer)> {
        let request = match request {
            Ok(request) => request,
            Err(rejected) => {
                let error = rejected.error();
                tracing::info!(
                    transport = session.transport.as_str(),
                    code = error.code,
                    reason = rejected.reason,
                    "invalid request"
                );
                return Some((rejected.id, Answer::Error(error)));
            }
        };
        let started = Instant::now();
        let params = request.params.as_ref();
        let route = self.route_declared(
            &request.method,
            params,
            session.access,
            session.declared.as_deref_mut(),
        );
        let (answer, called) = match route {
            Route::Answer(answer) => (answer, None),
            Route::Contract(call) => {
                let routed = Routed { plant: self, call, request: &request };
                (handler.contract(routed).await, Some(call))
            }
            Route::Fake => {
                let (answer, called) = handler.fake(self, &request, session).await;
                (answer, called.and_then(|name| self.contract_call(&name)))
            }
            Route::Subscribe => (self.subscribe(params, session), None),
            Route::Unsubscribe => (self.rpc_unsubscribe(params, session), None),
            Route::Pubsub => (handler.pubsub(self, &request, session), None),
        };
        handler.answered(&request, &answer, called, session.transport, started);
        request.id.map(|id| (id, answer))
    }

    /// The answer to a subscribe call (accord's or pubsub) on a connection that already holds
    /// as many as the `subscriptions` limit allows, in the wire's limit code.
    pub fn subscriptions_full(&self) -> Answer {
        tracing::info!(limit = limits::SUBSCRIPTIONS, "limit exceeded");
        self.protocol()
            .limit_exceeded(limits::SUBSCRIPTIONS, self.limits().max_of(limits::SUBSCRIPTIONS))
            .into()
    }

    fn subscribe(&self, params: Option<&Value>, session: &mut Session<'_>) -> Answer {
        let Some(subs) = session.subscriptions.as_deref_mut() else {
            return self.protocol().not_on_transport(session.transport.as_str()).into();
        };
        match event::read_subscribe_params(params) {
            Ok(_) if subs.len() >= self.limits().subscriptions => self.subscriptions_full(),
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

    /// Ends the subscription `id` when `method` (an unsubscribe call's wire name) is the
    /// unsubscribe method of its event's route: accord's `rpc.unsubscribe` ends only a
    /// subscription made accord's way, a pubsub one is ended by its own unsubscribe method.
    /// Whether it ended one.
    pub fn unsubscribe(&self, subs: &mut Subscriptions, method: &str, id: &str) -> bool {
        let ends = subs.get(id).is_some_and(|s| {
            RoutedEvent::of(self.dialect(), &s.event)
                .is_some_and(|routed| routed.unsubscribe_method() == method)
        });
        ends && subs.remove(id)
    }

    /// `rpc.unsubscribe`, answered by [`Plant::unsubscribe`].
    fn rpc_unsubscribe(&self, params: Option<&Value>, session: &mut Session<'_>) -> Answer {
        let Some(subs) = session.subscriptions.as_deref_mut() else {
            return self.protocol().not_on_transport(session.transport.as_str()).into();
        };
        match event::read_unsubscribe_params(params) {
            Ok(id) => Answer::Value(Value::Bool(self.unsubscribe(subs, event::UNSUBSCRIBE, &id))),
            Err(error) => self.protocol().params_refusal(error).into(),
        }
    }
}
