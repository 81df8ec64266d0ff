//! The HTTP side of docs/wire.md (§1 statuses, §8 credentials, §9 body limit) and the tower
//! layer that puts a [`Plant`] in front of any JSON-RPC-over-HTTP service: an axum router
//! (`Router::layer(PlantLayer::new(plant))`) or jsonrpsee's HTTP server
//! (`set_http_middleware(ServiceBuilder::new().layer(PlantLayer::new(plant)))`).
//!
//! The layer answers `POST /` itself, as `accord serve` does (the envelope, the describe
//! method, credentials, params), and hands the inner service each contract call that passed,
//! one request at a time, marked [`Screened`]; it checks the inner service's answer against
//! the contract before it is sent. Anything else (a WebSocket upgrade) goes to the inner
//! service with the caller's [`Access`] in its extensions, after a wrong credential has been
//! refused with 401.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use accord_wire::encode;
use accord_wire::{Access, RpcError, limits};
use axum::http::{HeaderMap, HeaderValue, Method, Request, Response, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::{Value, json};

use crate::answer::{Dispatch, DispatchFuture, Session, Transport};
use crate::core::Plant;

/// The mark on a call the layer has already checked (params before, answer after), so that
/// jsonrpsee's RPC middleware behind it does not check it twice.
#[derive(Debug, Clone, Copy)]
pub struct Screened;

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
    let (parts, body) = request.into_parts();
    let access = access_of(plant, &parts.headers);
    if access == Access::Refused {
        return refused(plant);
    }
    if !declared_json(&parts.headers) {
        let error =
            RpcError::invalid_request("the body must be declared Content-Type: application/json");
        return json_response(StatusCode::UNSUPPORTED_MEDIA_TYPE, encode::refusal(error));
    }
    let max = plant.limits().body_bytes;
    let bytes = match http_body_util::Limited::new(body, max).collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(error) if error.is::<http_body_util::LengthLimitError>() => {
            let mut response =
                json_response(StatusCode::PAYLOAD_TOO_LARGE, plant.refusal(limits::BODY_BYTES));
            response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
            return response;
        }
        Err(error) => {
            let error =
                RpcError::parse_error(1, 1, &format!("the body could not be read: {error}"));
            return json_response(StatusCode::BAD_REQUEST, encode::refusal(error));
        }
    };
    let mut session = Session { transport: Transport::Http, access, subscriptions: None };
    match plant.answer(&bytes, &mut session, dispatch).await {
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
                let forward = Forward { inner: inner.clone(), bodies: std::marker::PhantomData };
                return Ok(post(&plant, request, &forward).await);
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
            request.extensions_mut().insert(Screened);
            request.extensions_mut().insert(Access::Full);
            std::future::poll_fn(|cx| inner.poll_ready(cx)).await.map_err(|e| {
                RpcError::internal(&format!("the plant is not ready: {}", e.into()))
            })?;
            let response = inner
                .call(request)
                .await
                .map_err(|e| RpcError::internal(&format!("the plant failed: {}", e.into())))?;
            let bytes = response
                .into_body()
                .collect()
                .await
                .map_err(|e| {
                    RpcError::internal(&format!(
                        "the plant's answer could not be read: {}",
                        e.into()
                    ))
                })?
                .to_bytes();
            read_response(&bytes)
        })
    }
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
