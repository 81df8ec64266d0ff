#![doc = include_str!("../README.md")]

mod error;
mod events;
pub mod transport;

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use accord_schema_model::Dialect;
use accord_wire::{Id, Request, Response, RpcError};
use serde_json::Value;
use tokio::sync::Mutex;
use tokio::time::Instant;

pub use crate::error::Error;
pub use crate::events::Collect;
use crate::transport::{Endpoint, Socket};

/// Which transport calls take: one HTTP `POST` per call, or one WebSocket, opened on the first
/// call and kept (calls on it take turns).
pub use accord_wire::Transport;

/// A plant's reply to one call: what it sent, before anyone judges it.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// `result`.
    Result(Value),
    /// `error`: a declared error or a protocol error, as the plant sent it.
    Error(RpcError),
}

/// The caller of one plant.
pub struct Client {
    dialect: Dialect,
    endpoint: Endpoint,
    transport: Transport,
    token: Option<String>,
    timeout: Duration,
    http: reqwest::Client,
    ids: AtomicU64,
    /// The WebSocket calls take (only with [`Transport::WebSocket`]); `None` until the first
    /// call, and again after a transport failure so that the next call reconnects.
    socket: Mutex<Option<Socket>>,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The token is left out: a debug print must not leak the plant's credential.
        f.debug_struct("Client")
            .field("url", &self.url())
            .field("transport", &self.transport)
            .field("token", &self.token.as_ref().map(|_| "…"))
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

impl Client {
    /// A client of the plant at `url` speaking `dialect`: `http://…` calls over HTTP, `ws://…`
    /// over a WebSocket (events always take a WebSocket on the same address). `token` is sent
    /// as `Authorization: Bearer`; `timeout` bounds every call.
    ///
    /// # Errors
    ///
    /// [`Error::Url`] for a URL that is neither `http://` nor `ws://`.
    pub fn new(
        dialect: Dialect,
        url: &str,
        token: Option<&str>,
        timeout: Duration,
    ) -> Result<Client, Error> {
        let endpoint =
            Endpoint::parse(url).map_err(|reason| Error::Url { url: url.to_owned(), reason })?;
        let transport =
            if url.starts_with("ws://") { Transport::WebSocket } else { Transport::Http };
        let http = reqwest::Client::builder()
            .timeout(timeout)
            .build()
            .map_err(|e| Error::Url { url: url.to_owned(), reason: e.to_string() })?;
        Ok(Client {
            dialect,
            endpoint,
            transport,
            token: token.map(str::to_owned),
            timeout,
            http,
            ids: AtomicU64::new(1),
            socket: Mutex::new(None),
        })
    }

    /// The dialect the client speaks.
    pub fn dialect(&self) -> &Dialect {
        &self.dialect
    }

    /// The transport calls take.
    pub fn transport(&self) -> Transport {
        self.transport
    }

    /// The URL calls go to.
    pub fn url(&self) -> &str {
        match self.transport {
            Transport::Http => &self.endpoint.http_url,
            Transport::WebSocket => &self.endpoint.ws_url,
        }
    }

    /// Calls the contract method `method` (its contract name `namespace.method`, or its wire
    /// name) with `params` as given, by the name the wire gives it.
    ///
    /// # Errors
    ///
    /// [`Error::UnknownMethod`] for a method the contract does not have (nothing is sent);
    /// a transport error, or [`Error::Answer`] when what came back is not a response.
    pub async fn call(&self, method: &str, params: Option<Value>) -> Result<Reply, Error> {
        let route =
            self.dialect.resolve(method).ok_or_else(|| Error::UnknownMethod(method.to_owned()))?;
        let wire_name = route.wire_name.clone();
        self.request(&wire_name, params).await
    }

    /// Calls the wire's describe method with `params` (accord's `rpc.describe` takes
    /// `{"builtAgainst": …}`, docs/wire.md §5).
    ///
    /// # Errors
    ///
    /// [`Error::NoDescribe`] when the wire has none; otherwise as [`Client::call`].
    pub async fn describe(&self, params: Option<Value>) -> Result<Reply, Error> {
        let describe = self.dialect.describe.clone().ok_or(Error::NoDescribe)?;
        self.request(&describe, params).await
    }

    /// The `Authorization` header of every request: the Bearer token, when one is given.
    pub(crate) fn authorization(&self) -> Option<String> {
        self.token.as_deref().map(|token| format!("Bearer {token}"))
    }

    fn next_id(&self) -> u64 {
        self.ids.fetch_add(1, Ordering::Relaxed)
    }

    /// One request by its wire name, over the client's transport.
    async fn request(&self, wire_name: &str, params: Option<Value>) -> Result<Reply, Error> {
        let id = self.next_id();
        let text = request_text(id, wire_name, params);
        match self.transport {
            Transport::Http => {
                let authorization = self.authorization();
                let reply = transport::post(
                    &self.http,
                    &self.endpoint.http_url,
                    authorization.as_deref(),
                    text,
                    self.timeout,
                )
                .await?;
                read_answer(&reply.body, id, Some(reply.status))
            }
            Transport::WebSocket => {
                let mut slot = self.socket.lock().await;
                let socket = match slot.as_mut() {
                    Some(socket) => socket,
                    None => slot.insert(
                        Socket::open(
                            &self.endpoint.ws_url,
                            self.authorization().as_deref(),
                            self.timeout,
                        )
                        .await?,
                    ),
                };
                let answer = ws_exchange(socket, text, id, self.timeout).await;
                if matches!(answer, Err(Error::Transport(_) | Error::Timeout(_))) {
                    // The socket may hold a late answer or be dead: the next call starts afresh.
                    if let Some(socket) = slot.take() {
                        socket.close().await;
                    }
                }
                answer
            }
        }
    }
}

/// A request's text, numbered `id`.
fn request_text(id: u64, wire_name: &str, params: Option<Value>) -> String {
    let request = Request { id: Some(Id::Number(id.into())), method: wire_name.to_owned(), params };
    request.to_value().to_string()
}

/// Sends `text` on `socket` and waits for the response numbered `id`, passing over what else
/// arrives (notifications of subscriptions on the same socket).
async fn ws_exchange(
    socket: &mut Socket,
    text: String,
    id: u64,
    timeout: Duration,
) -> Result<Reply, Error> {
    socket.send(&text).await?;
    let deadline = Instant::now() + timeout;
    loop {
        let Some(message) = socket.next(deadline).await? else {
            return Err(Error::Timeout(timeout));
        };
        if is_response_to(&message, id) {
            return read_answer(&message, id, None);
        }
    }
}

/// Whether `message` is a response (it has an `id` and no `method`) numbered `id`.
fn is_response_to(message: &str, id: u64) -> bool {
    serde_json::from_str::<Value>(message)
        .is_ok_and(|v| v.get("method").is_none() && v.get("id").and_then(Value::as_u64) == Some(id))
}

/// Reads a response to the request numbered `id`.
fn read_answer(text: &str, id: u64, status: Option<u16>) -> Result<Reply, Error> {
    if text.is_empty() {
        return Err(Error::answer("an empty answer", status, text));
    }
    let value: Value = serde_json::from_str(text)
        .map_err(|e| Error::answer(format!("not JSON ({e})"), status, text))?;
    let response =
        Response::from_value(&value, "").map_err(|e| Error::answer(e.to_string(), status, text))?;
    match response {
        Response::Failure { error, .. } => Ok(Reply::Error(error)),
        Response::Success { id: Id::Number(n), result } if n.as_u64() == Some(id) => {
            Ok(Reply::Result(result))
        }
        Response::Success { id: other, .. } => Err(Error::answer(
            format!("the response answers id {other}, the request was {id}"),
            status,
            text,
        )),
    }
}
