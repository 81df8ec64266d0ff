//! The JSON-RPC client over both transports of docs/wire.md §1: HTTP `POST /` and a WebSocket
//! on `/`, each with the credential a check asks for. It moves text only; judging what comes
//! back is [`judge`](crate::judge)'s work.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio::time::{Instant, timeout_at};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::{self, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::Error;
use crate::kind::{FailureKind, Problem};
use crate::transcript::Credential;

/// What a plant sent back for one HTTP request or one WebSocket message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Reply {
    /// The HTTP status (`None` over a WebSocket).
    pub(crate) status: Option<u16>,
    /// The body or message; `None` when there was none (HTTP 204, or no message in time).
    pub(crate) body: Option<String>,
    /// Whether a `WWW-Authenticate: Bearer` challenge came with it.
    pub(crate) challenge: bool,
}

/// A transport failure during a run (the plant was reachable before).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TransportError {
    /// The connection was refused or could not be made.
    Connect(String),
    /// No answer within the timeout (how long was waited).
    Timeout(Duration),
    /// Anything else the transport reported.
    Other(String),
}

impl TransportError {
    /// The failure as a check's problem: a timeout is its own kind, so a slow plant reads as
    /// slow, not as broken.
    pub(crate) fn problem(&self) -> Problem {
        let kind = match self {
            TransportError::Timeout(_) => FailureKind::Timeout,
            _ => FailureKind::Transport,
        };
        Problem::new(kind, self.to_string())
    }
}

impl std::fmt::Display for TransportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TransportError::Connect(r) => write!(f, "cannot connect: {r}"),
            TransportError::Timeout(waited) => {
                write!(f, "no answer within {} (--timeout)", crate::duration_text(*waited))
            }
            TransportError::Other(r) => f.write_str(r),
        }
    }
}

/// The HTTP and WebSocket URLs of the plant at `url` (`http://…` or `ws://…`; the other one is
/// derived from it), or why `url` names no plant. [`crate::plan`] checks it before anything is
/// printed or sent.
pub(crate) fn urls(url: &str) -> Result<(String, String), Error> {
    let refuse = |reason: String| Error::Url { url: url.to_owned(), reason };
    let (http_url, ws_url) = if let Some(rest) = url.strip_prefix("http://") {
        (url.to_owned(), format!("ws://{rest}"))
    } else if let Some(rest) = url.strip_prefix("ws://") {
        (format!("http://{rest}"), url.to_owned())
    } else {
        return Err(refuse("it must start with http:// or ws:// (this build has no TLS)".into()));
    };
    match reqwest::Url::parse(&http_url) {
        Ok(parsed) if parsed.host_str().is_some_and(|h| !h.is_empty()) => Ok((http_url, ws_url)),
        Ok(_) => Err(refuse("it names no host".into())),
        Err(err) => Err(refuse(err.to_string())),
    }
}

/// The client of one plant.
#[derive(Debug, Clone)]
pub(crate) struct Client {
    http: reqwest::Client,
    http_url: String,
    ws_url: String,
    token: Option<String>,
    pub(crate) timeout: Duration,
}

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

impl Client {
    /// A client of the plant at `url` (`http://…` or `ws://…`; the other transport's URL is
    /// derived from it).
    pub(crate) fn new(url: &str, token: Option<&str>, timeout: Duration) -> Result<Client, Error> {
        let refuse = |reason: &str| Error::Url { url: url.to_owned(), reason: reason.to_owned() };
        let (http_url, ws_url) = urls(url)?;
        let http = reqwest::Client::builder()
            .timeout(timeout)
            .build()
            .map_err(|e| refuse(&e.to_string()))?;
        Ok(Client { http, http_url, ws_url, token: token.map(str::to_owned), timeout })
    }

    /// Whether the plant is run with a credential (a token was given).
    pub(crate) fn has_token(&self) -> bool {
        self.token.is_some()
    }

    /// The credential a request really carries, as its transcript names it: the right one
    /// without a token is none.
    pub(crate) fn carried(&self, credential: Credential) -> Credential {
        match (credential, &self.token) {
            (Credential::Right, None) => Credential::None,
            (other, _) => other,
        }
    }

    fn authorization(&self, credential: Credential) -> Option<String> {
        match (credential, &self.token) {
            (Credential::None, _) | (Credential::Right, None) => None,
            (Credential::Right, Some(token)) => Some(format!("Bearer {token}")),
            // Another token of the same form: what a caller with a rotated secret sends.
            (Credential::Wrong, Some(token)) => Some(format!("Bearer {token}-rotated")),
            (Credential::Wrong, None) => Some("Bearer accord-conform-wrong".to_owned()),
        }
    }

    /// Posts one body.
    pub(crate) async fn post(
        &self,
        body: &str,
        credential: Credential,
    ) -> Result<Reply, TransportError> {
        let mut request = self
            .http
            .post(&self.http_url)
            .header("content-type", "application/json")
            .body(body.to_owned());
        if let Some(value) = self.authorization(credential) {
            request = request.header("authorization", value);
        }
        let response = request.send().await.map_err(|e| transport_error(&e, self.timeout))?;
        let status = response.status().as_u16();
        let challenge = response
            .headers()
            .get("www-authenticate")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim_start().to_ascii_lowercase().starts_with("bearer"));
        let text = response.text().await.map_err(|e| transport_error(&e, self.timeout))?;
        let body = if text.is_empty() { None } else { Some(text) };
        Ok(Reply { status: Some(status), body, challenge })
    }

    /// Opens a WebSocket; `Ok(Err(status))` when the plant refused the upgrade with that
    /// HTTP status.
    pub(crate) async fn socket(
        &self,
        credential: Credential,
    ) -> Result<Result<Socket, u16>, TransportError> {
        let mut request = self
            .ws_url
            .as_str()
            .into_client_request()
            .map_err(|e| TransportError::Other(e.to_string()))?;
        if let Some(value) = self.authorization(credential) {
            let value =
                HeaderValue::from_str(&value).map_err(|e| TransportError::Other(e.to_string()))?;
            request.headers_mut().insert("authorization", value);
        }
        let deadline = Instant::now() + self.timeout;
        match timeout_at(
            deadline,
            tokio_tungstenite::connect_async_with_config(request, None, true),
        )
        .await
        {
            Err(_) => Err(TransportError::Timeout(self.timeout)),
            Ok(Ok((ws, _))) => Ok(Ok(Socket { ws, timeout: self.timeout })),
            Ok(Err(tungstenite::Error::Http(response))) => Ok(Err(response.status().as_u16())),
            Ok(Err(tungstenite::Error::Io(e))) => Err(TransportError::Connect(e.to_string())),
            Ok(Err(e)) => Err(TransportError::Other(e.to_string())),
        }
    }
}

fn transport_error(err: &reqwest::Error, timeout: Duration) -> TransportError {
    if err.is_timeout() {
        TransportError::Timeout(timeout)
    } else if err.is_connect() {
        // The source chain names the cause (connection refused, no route, …).
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
pub(crate) struct Socket {
    ws: Ws,
    pub(crate) timeout: Duration,
}

impl Socket {
    /// Sends one text message.
    pub(crate) async fn send(&mut self, text: &str) -> Result<(), TransportError> {
        self.ws
            .send(Message::Text(text.to_owned().into()))
            .await
            .map_err(|e| TransportError::Other(e.to_string()))
    }

    /// The next text message before `deadline`; `None` when the deadline passed or the plant
    /// closed the socket.
    pub(crate) async fn next(
        &mut self,
        deadline: Instant,
    ) -> Result<Option<String>, TransportError> {
        loop {
            match timeout_at(deadline, self.ws.next()).await {
                Err(_) => return Ok(None),
                Ok(None) => return Ok(None),
                Ok(Some(Err(e))) => return Err(TransportError::Other(e.to_string())),
                Ok(Some(Ok(Message::Text(text)))) => return Ok(Some(text.as_str().to_owned())),
                Ok(Some(Ok(Message::Close(_)))) => return Ok(None),
                // Pings are answered by tungstenite; binary frames are not part of the wire.
                Ok(Some(Ok(_))) => {}
            }
        }
    }

    /// Closes the socket politely (errors are irrelevant at this point).
    pub(crate) async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}
