//! The HTTP side of docs/wire.md (§1 statuses, §8 credentials, §9 body limit) and the tower
//! layer that puts a [`Plant`] in front of any JSON-RPC-over-HTTP service: an axum router
//! (`Router::layer(PlantLayer::new(plant))`) or jsonrpsee's HTTP server
//! (`set_http_middleware(ServiceBuilder::new().layer(PlantLayer::new(plant)))`).
//!
//! The layer answers `POST /` itself, as `accord serve` does (the envelope, the describe
//! method, credentials, params), and hands the inner service each contract call that passed,
//! one request at a time, marked [`Screened`]. A body that is one such call, written plainly
//! ([`Plant::pass_through`]), is handed on as it was sent, its params checked as bytes; the
//! inner service's answer is then checked by jsonrpsee's RPC middleware behind it, which marks
//! the response [`Judged`], and sent as it is; without that mark (an inner service without the
//! middleware) the layer checks it. Any other body is read strictly ([`Plant::answer`]) and
//! each call in it re-encoded for the inner service, whose answer the layer checks. Anything
//! else (a WebSocket upgrade) goes to the inner service with the caller's [`Access`] in its
//! extensions, after a wrong credential has been refused with 401.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use accord_wire::encode::{self, Answer};
use accord_wire::{Access, Id, RpcError, limits};
use axum::body::Bytes;
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Method, Request, Response, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::{Value, json};

use crate::answer::{Dispatch, DispatchFuture, Session, Transport};
use crate::core::{ContractCall, Plant};
use crate::usage::Declared;

/// The mark on a call the layer has already checked, so that jsonrpsee's RPC middleware behind
/// it does not check its params twice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Screened {
    /// Params checked; the layer checks the answer too (a call it re-encoded).
    Whole,
    /// Params checked; the body went on as it was sent, and the answer is the RPC middleware's
    /// to check, which then marks its response [`Judged`].
    Params,
}

/// The mark of jsonrpsee's RPC middleware on a response it checked against the contract, so
/// that the layer in front sends it as it is.
#[derive(Debug, Clone, Copy)]
pub struct Judged;

/// The caller's `Authorization` header as the plant reads it.
pub fn access_of(plant: &Plant, headers: &HeaderMap) -> Access {
    plant.access(headers.get(header::AUTHORIZATION).map(|v| v.to_str().unwrap_or("")))
}

/// The 401 of a wrong credential: `WWW-Authenticate: Bearer` and the wire's credential-refused
/// error with id `null`.
pub fn refused<B: From<Vec<u8>>>(plant: &Plant) -> Response<B> {
    let mut response = json_response(
        StatusCode::UNAUTHORIZED,
        encode::refusal(plant.protocol().credential_refused()),
    );
    response.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
    response
}

fn json_response<B: From<Vec<u8>>>(status: StatusCode, body: Vec<u8>) -> Response<B> {
    let mut response = Response::new(B::from(body));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

fn declared_json(headers: &HeaderMap) -> bool {
    accord_wire::envelope::declares_json(
        headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()),
    )
}

/// Answers `POST /` with `dispatch` behind the plant: the credential, the declared content
/// type, the body limit, then [`Plant::answer`].
pub async fn post<B, R>(plant: &Plant, request: Request<B>, dispatch: &dyn Dispatch) -> Response<R>
where
    B: axum::body::HttpBody,
    B::Error: Into<BoxError>,
    R: From<Vec<u8>>,
{
    match read_post(plant, request).await {
        Ok((_, bytes, access)) => answer_post(plant, &bytes, access, dispatch).await,
        Err(response) => response,
    }
}

/// The request of `POST /` (its head), its body and the caller's access, or the answer that
/// refuses it: a wrong credential, a body not declared JSON, a body past the limit.
async fn read_post<B, R>(
    plant: &Plant,
    request: Request<B>,
) -> Result<(Parts, Bytes, Access), Response<R>>
where
    B: axum::body::HttpBody,
    B::Error: Into<BoxError>,
    R: From<Vec<u8>>,
{
    let (parts, body) = request.into_parts();
    let access = access_of(plant, &parts.headers);
    if access == Access::Refused {
        return Err(refused(plant));
    }
    if !declared_json(&parts.headers) {
        let error =
            RpcError::invalid_request("the body must be declared Content-Type: application/json");
        return Err(json_response(StatusCode::UNSUPPORTED_MEDIA_TYPE, encode::refusal(error)));
    }
    let max = plant.limits().body_bytes;
    match http_body_util::Limited::new(body, max).collect().await {
        Ok(collected) => Ok((parts, collected.to_bytes(), access)),
        Err(error) if error.is::<http_body_util::LengthLimitError>() => {
            let mut response =
                json_response(StatusCode::PAYLOAD_TOO_LARGE, plant.refusal(limits::BODY_BYTES));
            response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
            Err(response)
        }
        Err(error) => {
            let error =
                RpcError::parse_error(1, 1, &format!("the body could not be read: {error}"));
            Err(json_response(StatusCode::BAD_REQUEST, encode::refusal(error)))
        }
    }
}

/// [`Plant::answer`] of a body read by [`read_post`], as an HTTP response.
async fn answer_post<R: From<Vec<u8>>>(
    plant: &Plant,
    bytes: &[u8],
    access: Access,
    dispatch: &dyn Dispatch,
) -> Response<R> {
    let mut declared = Declared::default();
    let mut session = Session {
        transport: Transport::Http,
        access,
        subscriptions: None,
        declared: Some(&mut declared),
    };
    match plant.answer(bytes, &mut session, dispatch).await {
        Some(answer) => json_response(StatusCode::OK, answer),
        None => {
            let mut response = Response::new(R::from(Vec::new()));
            *response.status_mut() = StatusCode::NO_CONTENT;
            response
        }
    }
}

/// The tower layer: a [`Plant`] in front of a JSON-RPC-over-HTTP service.
#[derive(Debug, Clone)]
pub struct PlantLayer {
    plant: Arc<Plant>,
}

impl PlantLayer {
    /// The layer of `plant`.
    pub fn new(plant: Arc<Plant>) -> PlantLayer {
        PlantLayer { plant }
    }
}

impl<S> tower::Layer<S> for PlantLayer {
    type Service = PlantService<S>;

    fn layer(&self, inner: S) -> PlantService<S> {
        PlantService { plant: self.plant.clone(), inner }
    }
}

/// The service [`PlantLayer`] makes.
#[derive(Debug, Clone)]
pub struct PlantService<S> {
    plant: Arc<Plant>,
    inner: S,
}

/// The boxed error of a body or an inner service.
type BoxError = Box<dyn std::error::Error + Send + Sync>;

impl<S, B, R> tower::Service<Request<B>> for PlantService<S>
where
    S: tower::Service<Request<B>, Response = Response<R>> + Clone + Send + Sync + 'static,
    S::Future: Send,
    S::Error: Into<BoxError> + Send,
    B: axum::body::HttpBody + From<Vec<u8>> + Send + 'static,
    B::Data: Send,
    B::Error: Into<BoxError>,
    R: axum::body::HttpBody + From<Vec<u8>> + Send + 'static,
    R::Data: Send,
    R::Error: Into<BoxError>,
{
    type Response = Response<R>;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Response<R>, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: Request<B>) -> Self::Future {
        let plant = self.plant.clone();
        // The clone that was polled ready serves this request (tower's rule).
        let clone = self.inner.clone();
        let mut inner = std::mem::replace(&mut self.inner, clone);
        Box::pin(async move {
            if request.method() == Method::POST {
                let (parts, bytes, access) = match read_post(&plant, request).await {
                    Ok(read) => read,
                    Err(response) => return Ok(response),
                };
                if let Some((call, id)) = plant.pass_through(&bytes, access) {
                    return Ok(pass(&plant, call, &id, parts, bytes, inner).await);
                }
                let forward = Forward { inner: inner.clone(), bodies: std::marker::PhantomData };
                return Ok(answer_post(&plant, &bytes, access, &forward).await);
            }
            if let Some(response) = metrics(&plant, &request) {
                return Ok(response);
            }
            match access_of(&plant, request.headers()) {
                Access::Refused => Ok(refused(&plant)),
                access => {
                    request.extensions_mut().insert(access);
                    inner.call(request).await
                }
            }
        })
    }
}

/// The answer to `GET` of the plant's metrics path, when it counts usage and this is one: the
/// counters as OpenMetrics text (docs/usage.md).
pub fn metrics<B, R: From<Vec<u8>>>(plant: &Plant, request: &Request<B>) -> Option<Response<R>> {
    let path = plant.metrics_path()?;
    if request.method() != Method::GET || request.uri().path() != path {
        return None;
    }
    let text = plant.metrics()?;
    let mut response = Response::new(R::from(text.into_bytes()));
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/openmetrics-text; version=1.0.0; charset=utf-8"),
    );
    Some(response)
}

/// The inner service as a [`Dispatch`]: each call one `POST /` of a single request.
struct Forward<S, B, R> {
    inner: S,
    bodies: std::marker::PhantomData<fn() -> (B, R)>,
}

impl<S, B, R> Dispatch for Forward<S, B, R>
where
    S: tower::Service<Request<B>, Response = Response<R>> + Clone + Send + Sync + 'static,
    S::Future: Send,
    S::Error: Into<BoxError> + Send,
    B: axum::body::HttpBody + From<Vec<u8>> + Send + 'static,
    R: axum::body::HttpBody + Send + 'static,
    R::Data: Send,
    R::Error: Into<BoxError>,
{
    fn call<'a>(&'a self, method: &'a str, params: Option<Value>) -> DispatchFuture<'a> {
        let mut inner = self.inner.clone();
        Box::pin(async move {
            let mut call = json!({"jsonrpc": "2.0", "id": 0, "method": method});
            if let Some(params) = params {
                call["params"] = params;
            }
            let body = serde_json::to_vec(&call).unwrap_or_default();
            let mut request = Request::post("/")
                .header(header::CONTENT_TYPE, "application/json")
                .body(B::from(body))
                .map_err(|e| RpcError::internal(&e.to_string()))?;
            request.extensions_mut().insert(Screened::Whole);
            request.extensions_mut().insert(Access::Full);
            let bytes = call_inner(&mut inner, request).await?;
            read_response(&bytes)
        })
    }
}

/// One request to the inner service, and the body of its response.
async fn call_inner<S, B, R>(inner: &mut S, request: Request<B>) -> Result<Bytes, RpcError>
where
    S: tower::Service<Request<B>, Response = Response<R>>,
    S::Error: Into<BoxError>,
    R: axum::body::HttpBody,
    R::Error: Into<BoxError>,
{
    std::future::poll_fn(|cx| inner.poll_ready(cx))
        .await
        .map_err(|e| RpcError::internal(&format!("the plant is not ready: {}", e.into())))?;
    let response = inner
        .call(request)
        .await
        .map_err(|e| RpcError::internal(&format!("the plant failed: {}", e.into())))?;
    let bytes = response
        .into_body()
        .collect()
        .await
        .map_err(|e| {
            RpcError::internal(&format!("the plant's answer could not be read: {}", e.into()))
        })?
        .to_bytes();
    Ok(bytes)
}

/// Hands the inner service a body [`Plant::pass_through`] passed, as it was sent (with the
/// request's own head, its content type written as jsonrpsee reads it), and sends its answer
/// as it is when jsonrpsee's RPC middleware checked it ([`Judged`]) and it is known to be
/// within `answer-bytes`; otherwise reads the answer, checks it here when nothing did, and
/// writes it as [`Plant::answer`] does.
async fn pass<S, B, R>(
    plant: &Plant,
    call: ContractCall<'_>,
    id: &Id,
    mut parts: Parts,
    body: Bytes,
    mut inner: S,
) -> Response<R>
where
    S: tower::Service<Request<B>, Response = Response<R>>,
    S::Error: Into<BoxError>,
    B: From<Vec<u8>>,
    R: axum::body::HttpBody + From<Vec<u8>>,
    R::Error: Into<BoxError>,
{
    parts.headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    parts.extensions.insert(Screened::Params);
    parts.extensions.insert(Access::Full);
    let request = Request::from_parts(parts, B::from(Vec::from(body)));
    let answered = match std::future::poll_fn(|cx| inner.poll_ready(cx)).await {
        Ok(()) => inner.call(request).await.map_err(|e| format!("the plant failed: {}", e.into())),
        Err(e) => Err(format!("the plant is not ready: {}", e.into())),
    };
    let max = plant.limits().answer_bytes;
    let outcome = match answered {
        Ok(response)
            if response.extensions().get::<Judged>().is_some()
                && response.status() == StatusCode::OK
                && response.body().size_hint().exact().is_some_and(|n| n <= max as u64) =>
        {
            let (mut parts, body) = response.into_parts();
            parts
                .headers
                .insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
            return Response::from_parts(parts, body);
        }
        Ok(response) => {
            let judged = response.extensions().get::<Judged>().is_some();
            match response.into_body().collect().await {
                // Checked already: only the limit is left to apply.
                Ok(bytes) if judged => read_response(&bytes.to_bytes()),
                Ok(bytes) => plant.settle(call, read_response(&bytes.to_bytes())),
                Err(e) => plant.settle(
                    call,
                    Err(RpcError::internal(&format!(
                        "the plant's answer could not be read: {}",
                        e.into()
                    ))),
                ),
            }
        }
        Err(reason) => plant.settle(call, Err(RpcError::internal(&reason))),
    };
    let answer = match outcome {
        Ok(value) => Answer::Value(value),
        Err(error) => Answer::Error(error),
    };
    let mut out = Vec::with_capacity(256);
    plant.respond(id, &answer, &mut out);
    json_response(StatusCode::OK, out)
}

/// The inner service's answer to one call: its result or its error.
fn read_response(bytes: &[u8]) -> Result<Value, RpcError> {
    let value: Value = serde_json::from_slice(bytes)
        .map_err(|e| RpcError::internal(&format!("the plant's answer is not JSON: {e}")))?;
    match accord_wire::Response::from_value(&value, "") {
        Ok(accord_wire::Response::Success { result, .. }) => Ok(result),
        Ok(accord_wire::Response::Failure { error, .. }) => Err(error),
        Err(error) => {
            Err(RpcError::internal(&format!("the plant's answer is not a response: {error}")))
        }
    }
}
