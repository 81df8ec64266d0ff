//! The jsonrpsee adapter: an RPC middleware for jsonrpsee 0.26's `RpcServiceBuilder`, which
//! holds every call (HTTP or WebSocket) to the contract, and a helper that checks an event
//! payload before a subscription sends it.
//!
//! ```ignore
//! let plant = Arc::new(Plant::from_contract("pump.types.json", include_str!("pump.types.json"), Config::default())?);
//! let server = jsonrpsee::server::Server::builder()
//!     .set_http_middleware(tower::ServiceBuilder::new().layer(PlantLayer::new(plant.clone())))
//!     .set_rpc_middleware(RpcServiceBuilder::new().layer(PlantRpcLayer::new(plant.clone())))
//!     .build("127.0.0.1:0").await?;
//! ```
//!
//! Over HTTP the [`crate::http::PlantLayer`] in front answers the envelope as docs/wire.md
//! does (jsonrpsee's own envelope answers differ) and marks the calls it checked
//! [`Screened`]: this middleware does not check their params again, and checks the answer of
//! a call the layer handed on as it was sent ([`Screened::Params`]), marking the response
//! [`Judged`]. It checks every other call whole: WebSocket messages, and HTTP when the layer
//! is not installed (then a plant with a credential sees every caller as one without, since
//! only the layer reads the header). Results are checked on accord-validate's bytes path,
//! straight from the response jsonrpsee serialized.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use accord_wire::Access;
use accord_wire::encode::Answer;
use jsonrpsee::server::middleware::rpc::{
    Batch, BatchEntry, MethodResponse, Notification, Request, RpcServiceT,
};
use jsonrpsee::server::{BatchResponseBuilder, ResponsePayload, SubscriptionMessage};
use jsonrpsee::types::{ErrorObjectOwned, Id};
use serde_json::Value;
use serde_json::value::RawValue;

use crate::RpcError;
use crate::core::{ContractCall, Plant, Route, Violation};
use crate::http::{Judged, Screened};
use crate::usage::Declared;

/// The layer to put in `RpcServiceBuilder::new().layer(...)`.
#[derive(Debug, Clone)]
pub struct PlantRpcLayer {
    plant: Arc<Plant>,
}

impl PlantRpcLayer {
    /// The middleware of `plant`.
    pub fn new(plant: Arc<Plant>) -> PlantRpcLayer {
        PlantRpcLayer { plant }
    }
}

impl<S> tower::Layer<S> for PlantRpcLayer {
    type Service = PlantRpcService<S>;

    /// jsonrpsee makes one service per WebSocket connection and one per HTTP request, so the
    /// versions a caller declares live as long as its connection (or HTTP message).
    fn layer(&self, inner: S) -> PlantRpcService<S> {
        PlantRpcService { plant: self.plant.clone(), inner, declared: Arc::default() }
    }
}

/// The RPC service [`PlantRpcLayer`] makes.
#[derive(Debug, Clone)]
pub struct PlantRpcService<S> {
    plant: Arc<Plant>,
    inner: S,
    /// The contract versions the caller declared with `rpc.describe`'s `builtAgainst`, for
    /// the usage counts of its later calls on this connection (docs/usage.md).
    declared: Arc<Mutex<Declared>>,
}

/// A response of `answer` to the call `id`.
fn respond(id: Id<'_>, answer: Answer, max: usize) -> MethodResponse {
    let id = id.into_owned();
    match answer {
        Answer::Error(error) => MethodResponse::error(id, error_object(error)),
        Answer::Value(value) => MethodResponse::response(id, ResponsePayload::success(value), max),
        Answer::Raw(bytes) => {
            match RawValue::from_string(String::from_utf8_lossy(&bytes).into_owned()) {
                Ok(raw) => MethodResponse::response(id, ResponsePayload::success(raw), max),
                Err(e) => {
                    MethodResponse::error(id, error_object(RpcError::internal(&e.to_string())))
                }
            }
        }
    }
}

fn error_object(error: RpcError) -> ErrorObjectOwned {
    let code = i32::try_from(error.code).unwrap_or(accord_wire::codes::INTERNAL_ERROR as i32);
    ErrorObjectOwned::owned(code, error.message, error.data)
}

/// What the handler's answer breaks in the contract, if anything: a result is checked as the
/// bytes jsonrpsee serialized; an error (or a `null` result) is read back first.
fn judge_response(
    plant: &Plant,
    call: ContractCall<'_>,
    response: &MethodResponse,
) -> Option<Violation> {
    /// The members of a response this reads, in place.
    #[derive(serde::Deserialize)]
    struct Members<'a> {
        #[serde(borrow, default)]
        result: Option<&'a RawValue>,
        #[serde(borrow, default)]
        error: Option<&'a RawValue>,
    }
    match serde_json::from_str::<Members<'_>>(response.as_json().get()) {
        Ok(Members { result: Some(result), error: None }) => {
            plant.judge_result_bytes(call, result.get().as_bytes())
        }
        _ => plant.judge(call, &outcome_of(response)),
    }
}

/// Calls the handler and checks its answer: unchanged when it keeps the contract; otherwise
/// counted, logged and, under `OnViolation::Fail`, replaced by `-32603`.
async fn checked<'a, S>(
    plant: &Plant,
    call: ContractCall<'_>,
    request: Request<'a>,
    inner: &S,
) -> MethodResponse
where
    S: RpcServiceT<MethodResponse = MethodResponse>,
{
    let id = request.id.clone().into_owned();
    let response = inner.call(request).await;
    let Some(violation) = judge_response(plant, call, &response) else {
        return response;
    };
    match plant.violated(violation) {
        None => response,
        Some(error) => MethodResponse::error(id, error_object(error)),
    }
}

/// The handler's answer, read back from jsonrpsee's response.
fn outcome_of(response: &MethodResponse) -> Result<Value, RpcError> {
    let value: Value = serde_json::from_str(response.as_json().get())
        .map_err(|e| RpcError::internal(&format!("the plant's answer is not JSON: {e}")))?;
    match accord_wire::Response::from_value(&value, "") {
        Ok(accord_wire::Response::Success { result, .. }) => Ok(result),
        Ok(accord_wire::Response::Failure { error, .. }) => Err(error),
        Err(e) => Err(RpcError::internal(&format!("the plant's answer is not a response: {e}"))),
    }
}

impl<S> PlantRpcService<S> {
    /// What the call's extensions say about its caller: the HTTP layer's [`Access`]; without
    /// the layer, full access for a plant without credentials and reduced otherwise.
    fn access(&self, extensions: &jsonrpsee::server::Extensions) -> Access {
        match extensions.get::<Access>() {
            Some(access) => *access,
            None => self.plant.access(None),
        }
    }
}

/// The largest response jsonrpsee builds for one call here (the answer-bytes limit).
fn max_of(plant: &Plant) -> usize {
    plant.limits().answer_bytes
}

impl<S> RpcServiceT for PlantRpcService<S>
where
    S: RpcServiceT<
            MethodResponse = MethodResponse,
            BatchResponse = MethodResponse,
            NotificationResponse = MethodResponse,
        > + Clone
        + Send
        + Sync
        + 'static,
{
    type MethodResponse = MethodResponse;
    type NotificationResponse = MethodResponse;
    type BatchResponse = MethodResponse;

    fn call<'a>(&self, request: Request<'a>) -> impl Future<Output = MethodResponse> + Send + 'a {
        let plant = self.plant.clone();
        let inner = self.inner.clone();
        let declared = self.declared.clone();
        let access = self.access(request.extensions());
        let screened = request.extensions().get::<Screened>().copied();
        async move {
            match screened {
                Some(Screened::Whole) => return inner.call(request).await,
                Some(Screened::Params) => {
                    let Some(call) = plant.contract_call(&request.method) else {
                        return inner.call(request).await;
                    };
                    let mut response = checked(&plant, call, request, &inner).await;
                    response.extensions_mut().insert(Judged);
                    return response;
                }
                None => {}
            }
            let params: Option<Value> =
                match request.params.as_ref().map(|p| serde_json::from_str(p.get())) {
                    None => None,
                    Some(Ok(params)) => Some(params),
                    Some(Err(e)) => {
                        let answer = RpcError::invalid_params_at("", "JSON params", &e.to_string());
                        return respond(
                            request.id,
                            plant.protocol().params_refusal(answer).into(),
                            max_of(&plant),
                        );
                    }
                };
            let max = max_of(&plant);
            // A poisoned lock (a panic elsewhere on this connection) only loses the statement:
            // the call is then counted as undeclared.
            let route = match declared.lock() {
                Ok(mut d) => {
                    plant.route_declared(&request.method, params.as_ref(), access, Some(&mut d))
                }
                Err(_) => plant.route(&request.method, params.as_ref(), access),
            };
            match route {
                Route::Answer(answer) => respond(request.id, answer, max),
                Route::Contract(call) => checked(&plant, call, request, &inner).await,
                Route::Pubsub => inner.call(request).await,
                // Answered by what `register_events` registered (jsonrpsee's method-not-found
                // when it is not; jsonrpsee's "not supported" over HTTP without the layer).
                Route::Subscribe | Route::Unsubscribe => inner.call(request).await,
                Route::Fake => respond(
                    request.id,
                    plant.protocol().method_not_found(&request.method).into(),
                    max,
                ),
            }
        }
    }

    fn batch<'a>(&self, batch: Batch<'a>) -> impl Future<Output = MethodResponse> + Send + 'a {
        let service = self.clone();
        async move {
            let mut responses = BatchResponseBuilder::new_with_limit(max_of(&service.plant));
            let mut notified = false;
            for entry in batch {
                let response = match entry {
                    Ok(BatchEntry::Call(request)) => service.call(request).await,
                    Ok(BatchEntry::Notification(n)) => {
                        notified = true;
                        service.notification(n).await;
                        continue;
                    }
                    Err(error) => {
                        let (error, id) = error.into_parts();
                        MethodResponse::error(id, error)
                    }
                };
                if let Err(too_large) = responses.append(response) {
                    return too_large;
                }
            }
            if responses.is_empty() && notified {
                MethodResponse::notification()
            } else {
                MethodResponse::from_batch(responses.finish())
            }
        }
    }

    fn notification<'a>(
        &self,
        n: Notification<'a>,
    ) -> impl Future<Output = MethodResponse> + Send + 'a {
        let plant = self.plant.clone();
        let inner = self.inner.clone();
        let access = self.access(n.extensions());
        let declared = self.declared.clone();
        async move {
            let params: Option<Value> =
                n.params.as_ref().and_then(|p| serde_json::from_str(p.get()).ok());
            let route = match declared.lock() {
                Ok(mut d) => plant.route_declared(&n.method, params.as_ref(), access, Some(&mut d)),
                Err(_) => plant.route(&n.method, params.as_ref(), access),
            };
            match route {
                // A notification is never answered; only a valid call reaches the handler.
                Route::Contract(_) => inner.notification(n).await,
                _ => MethodResponse::notification(),
            }
        }
    }
}

/// An event notification's payload for a jsonrpsee subscription sink, checked against the
/// contract's event type first: a payload that does not match is counted, logged and never
/// sent.
///
/// # Errors
///
/// The violation, when the payload does not match (or does not serialize).
pub fn event_message(
    plant: &Plant,
    event: &str,
    payload: &impl serde::Serialize,
) -> Result<SubscriptionMessage, Violation> {
    let value = serde_json::to_value(payload).map_err(|e| Violation {
        subject: event.to_owned(),
        reason: format!("its payload does not serialize: {e}"),
    })?;
    plant.check_event(event, &value)?;
    let raw = serde_json::value::to_raw_value(&value)
        .map_err(|e| Violation { subject: event.to_owned(), reason: e.to_string() })?;
    Ok(SubscriptionMessage::from(raw))
}

/// The open accord-style subscriptions of every connection: (connection, id) to the task
/// relaying its notifications.
type Open = Arc<std::sync::Mutex<HashMap<(usize, String), tokio::task::AbortHandle>>>;

/// Registers accord's `rpc.subscribe` and `rpc.unsubscribe` (docs/wire.md §7) on a jsonrpsee
/// module: a subscription follows the payloads [`Plant::emit`] checked and sends each as an
/// `rpc.event` notification on its WebSocket. jsonrpsee's own `#[subscription]` methods send
/// `{"subscription", "result"}` notifications, which is not accord's shape; these send it.
///
/// # Errors
///
/// jsonrpsee's, when the module already has a method of either name.
pub fn register_events(
    methods: &mut jsonrpsee::Methods,
    plant: Arc<Plant>,
) -> Result<(), jsonrpsee::core::RegisterMethodError> {
    use jsonrpsee::server::MethodCallback;
    let open: Open = Arc::default();
    let subscribe = {
        let (plant, open) = (plant.clone(), open.clone());
        MethodCallback::Subscription(Arc::new(move |id, params, sink, state, _extensions| {
            let (plant, open) = (plant.clone(), open.clone());
            let params: Option<Value> = params.as_str().and_then(|p| serde_json::from_str(p).ok());
            let id = id.into_owned();
            let conn = state.conn_id.0;
            let permit = state.subscription_permit;
            Box::pin(async move {
                let max = max_of(&plant);
                let name = match accord_wire::event::read_subscribe_params(params.as_ref()) {
                    Ok(name) => name,
                    Err(error) => {
                        return respond(id, plant.protocol().params_refusal(error).into(), max);
                    }
                };
                if !plant.is_accord_event(&name) {
                    let at = if matches!(params, Some(Value::Array(_))) { "/0" } else { "/event" };
                    let error = plant.protocol().invalid_params_at(
                        at,
                        "an event of the contract, namespace.event",
                        &name,
                    );
                    return respond(id, error.into(), max);
                }
                let mut open_now = open.lock().unwrap_or_else(|p| p.into_inner());
                if open_now.keys().filter(|(c, _)| *c == conn).count()
                    >= plant.limits().subscriptions
                {
                    let error = plant.protocol().limit_exceeded(
                        accord_wire::limits::SUBSCRIPTIONS,
                        plant.limits().subscriptions as u64,
                    );
                    return respond(id, error.into(), max);
                }
                let sub = format!(
                    "sub-{conn}-{}",
                    SUBSCRIPTION.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
                );
                let mut emitted = plant.emitted();
                let relay = {
                    let (sub, open) = (sub.clone(), open.clone());
                    tokio::spawn(async move {
                        let _permit = permit;
                        loop {
                            let event = match emitted.recv().await {
                                Ok(event) => event,
                                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                                    continue;
                                }
                                Err(tokio::sync::broadcast::error::RecvError::Closed) => break,
                            };
                            if event.0 != name {
                                continue;
                            }
                            let note = accord_wire::event::Notification {
                                subscription: sub.clone(),
                                event: name.clone(),
                                payload: event.1.clone(),
                            };
                            let Ok(raw) = serde_json::value::to_raw_value(&note.to_value()) else {
                                break;
                            };
                            if sink.send(raw).await.is_err() {
                                break;
                            }
                        }
                        open.lock().unwrap_or_else(|p| p.into_inner()).remove(&(conn, sub));
                    })
                };
                open_now.insert((conn, sub.clone()), relay.abort_handle());
                drop(open_now);
                respond(id, Answer::Value(Value::String(sub)), max)
            })
        }))
    };
    methods.verify_and_insert(accord_wire::event::SUBSCRIBE, subscribe)?;
    let unsubscribe =
        MethodCallback::Subscription(Arc::new(move |id, params, _sink, state, _extensions| {
            let (plant, open) = (plant.clone(), open.clone());
            let params: Option<Value> = params.as_str().and_then(|p| serde_json::from_str(p).ok());
            let id = id.into_owned();
            let conn = state.conn_id.0;
            Box::pin(async move {
                let max = max_of(&plant);
                match accord_wire::event::read_unsubscribe_params(params.as_ref()) {
                    Ok(sub) => {
                        let relay =
                            open.lock().unwrap_or_else(|p| p.into_inner()).remove(&(conn, sub));
                        if let Some(relay) = &relay {
                            relay.abort();
                        }
                        respond(id, Answer::Value(Value::Bool(relay.is_some())), max)
                    }
                    Err(error) => respond(id, plant.protocol().params_refusal(error).into(), max),
                }
            })
        }));
    methods.verify_and_insert(accord_wire::event::UNSUBSCRIBE, unsubscribe)?;
    Ok(())
}

/// Subscription ids, unique in the process (and so on each connection).
static SUBSCRIPTION: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
