//! The caller side of the two transports of docs/wire.md §1, for every tool that calls a plant
//! (accord-client's `Client`, accord-conform): HTTP `POST /` and a WebSocket on `/`, each with
//! the `Authorization` header the caller chose. They move text and report what the transport
//! saw (the HTTP status, a `WWW-Authenticate: Bearer` challenge, a refused upgrade's status);
//! reading and judging the text is the caller's work.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio::time::{Instant, timeout_at};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::{self, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// Where a plant listens: its HTTP URL and the WebSocket URL on the same address.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Endpoint {
    /// `http://host:port/…`.
    pub http_url: String,
    /// `ws://host:port/…`.
    pub ws_url: String,
}

impl Endpoint {
    /// The endpoint of `url` (`http://…` or `ws://…`; the other transport's URL is derived).
    ///
    /// # Errors
    ///
    /// Why `url` names no plant (another scheme, no host, not a URL), for the caller's error.
    pub fn parse(url: &str) -> Result<Endpoint, String> {
        let endpoint = if let Some(rest) = url.strip_prefix("http://") {
            Endpoint { http_url: url.to_owned(), ws_url: format!("ws://{rest}") }
        } else if let Some(rest) = url.strip_prefix("ws://") {
            Endpoint { http_url: format!("http://{rest}"), ws_url: url.to_owned() }
        } else {
            return Err("it must start with http:// or ws:// (this build has no TLS)".to_owned());
        };
        match reqwest::Url::parse(&endpoint.http_url) {
            Ok(parsed) if parsed.host_str().is_some_and(|h| !h.is_empty()) => Ok(endpoint),
            Ok(_) => Err("it names no host".to_owned()),
            Err(err) => Err(err.to_string()),
        }
    }
}

/// Why a transport gave no text back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TransportError {
    /// The connection was refused or could not be made (the innermost cause).
    #[error("cannot connect: {0}")]
    Connect(String),
    /// Nothing within the timeout (how long was waited).
    #[error("no answer within {} ms", .0.as_millis())]
    Timeout(Duration),
    /// The plant refused the WebSocket upgrade with this HTTP status.
    #[error("the plant refused the WebSocket with HTTP {0}")]
    Upgrade(u16),
    /// The plant closed the WebSocket.
    #[error("the plant closed the WebSocket")]
    Closed,
    /// Anything else the transport reported (a reset, a failed write).
    #[error("{0}")]
    Other(String),
}

/// What a plant sent back over HTTP.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct HttpReply {
    /// The status.
    pub status: u16,
    /// The body (empty for none, as with 204).
    pub body: String,
    /// Whether a `WWW-Authenticate: Bearer` challenge came with it.
    pub challenge: bool,
}

/// Posts one body, with `authorization` as the `Authorization` header when given.
///
/// # Errors
///
/// The transport's failure; any status is a reply, not an error.
pub async fn post(
    http: &reqwest::Client,
    url: &str,
    authorization: Option<&str>,
    body: String,
    timeout: Duration,
) -> Result<HttpReply, TransportError> {
    let mut request = http.post(url).header("content-type", "application/json").body(body);
    if let Some(value) = authorization {
        request = request.header("authorization", value);
    }
    let response = request.send().await.map_err(|e| http_error(&e, timeout))?;
    let status = response.status().as_u16();
    let challenge = response
        .headers()
        .get("www-authenticate")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim_start().to_ascii_lowercase().starts_with("bearer"));
    let body = response.text().await.map_err(|e| http_error(&e, timeout))?;
    Ok(HttpReply { status, body, challenge })
}

fn http_error(err: &reqwest::Error, timeout: Duration) -> TransportError {
    if err.is_timeout() {
        TransportError::Timeout(timeout)
    } else if err.is_connect() {
        // The innermost source names the cause (connection refused, no route, …).
        let mut reason = err.to_string();
        let mut source = std::error::Error::source(err);
        while let Some(inner) = source {
            reason = inner.to_string();
            source = inner.source();
        }
        TransportError::Connect(reason)
    } else {
        TransportError::Other(err.to_string())
    }
}

/// An open WebSocket.
pub struct Socket {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl std::fmt::Debug for Socket {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Socket")
    }
}

impl Socket {
    /// Opens a WebSocket to `url` within `timeout`, with `authorization` as the
    /// `Authorization` header when given.
    ///
    /// # Errors
    ///
    /// [`TransportError::Upgrade`] when the plant refused the upgrade with an HTTP status;
    /// otherwise the transport's failure.
    pub async fn open(
        url: &str,
        authorization: Option<&str>,
        timeout: Duration,
    ) -> Result<Socket, TransportError> {
        let mut request =
            url.into_client_request().map_err(|e| TransportError::Other(e.to_string()))?;
        if let Some(value) = authorization {
            let value =
                HeaderValue::from_str(value).map_err(|e| TransportError::Other(e.to_string()))?;
            request.headers_mut().insert("authorization", value);
        }
        let connect = tokio_tungstenite::connect_async_with_config(request, None, true);
        match timeout_at(Instant::now() + timeout, connect).await {
            Err(_) => Err(TransportError::Timeout(timeout)),
            Ok(Ok((ws, _))) => Ok(Socket { ws }),
            Ok(Err(tungstenite::Error::Http(response))) => {
                Err(TransportError::Upgrade(response.status().as_u16()))
            }
            Ok(Err(tungstenite::Error::Io(e))) => Err(TransportError::Connect(e.to_string())),
            Ok(Err(e)) => Err(TransportError::Other(e.to_string())),
        }
    }

    /// Sends one text message.
    ///
    /// # Errors
    ///
    /// The transport's failure.
    pub async fn send(&mut self, text: &str) -> Result<(), TransportError> {
        self.ws
            .send(Message::Text(text.to_owned().into()))
            .await
            .map_err(|e| TransportError::Other(e.to_string()))
    }

    /// The next text message before `deadline`; `None` when the deadline passed.
    ///
    /// # Errors
    ///
    /// [`TransportError::Closed`] when the plant closed the socket; the transport's failure.
    pub async fn next(&mut self, deadline: Instant) -> Result<Option<String>, TransportError> {
        loop {
            match timeout_at(deadline, self.ws.next()).await {
                Err(_) => return Ok(None),
                Ok(None) | Ok(Some(Ok(Message::Close(_)))) => {
                    return Err(TransportError::Closed);
                }
                Ok(Some(Err(e))) => return Err(TransportError::Other(e.to_string())),
                Ok(Some(Ok(Message::Text(text)))) => return Ok(Some(text.as_str().to_owned())),
                // Pings are answered by tungstenite; binary frames are not part of the wire.
                Ok(Some(Ok(_))) => {}
            }
        }
    }

    /// Closes the socket politely (errors are irrelevant at this point).
    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}
