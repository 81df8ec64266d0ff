//! The two transports of docs/wire.md §1: HTTP `POST /` and a WebSocket on `/`, each with the
//! Bearer credential when one is given. They move text; reading it is the caller's work.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio::time::{Instant, timeout_at};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::{self, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::Error;

/// Where a plant listens: its HTTP URL and the WebSocket URL on the same address.
#[derive(Debug, Clone)]
pub(crate) struct Endpoint {
    pub(crate) http_url: String,
    pub(crate) ws_url: String,
}

impl Endpoint {
    /// The endpoint of `url` (`http://…` or `ws://…`; the other transport's URL is derived).
    pub(crate) fn parse(url: &str) -> Result<Endpoint, Error> {
        if let Some(rest) = url.strip_prefix("http://") {
            Ok(Endpoint { http_url: url.to_owned(), ws_url: format!("ws://{rest}") })
        } else if let Some(rest) = url.strip_prefix("ws://") {
            Ok(Endpoint { http_url: format!("http://{rest}"), ws_url: url.to_owned() })
        } else {
            Err(Error::Url {
                url: url.to_owned(),
                reason: "it must start with http:// or ws:// (this build has no TLS)".to_owned(),
            })
        }
    }
}

/// What a plant sent back over HTTP.
pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) body: String,
}

/// Posts one body.
pub(crate) async fn post(
    http: &reqwest::Client,
    url: &str,
    token: Option<&str>,
    body: String,
    timeout: Duration,
) -> Result<Reply, Error> {
    let mut request = http.post(url).header("content-type", "application/json").body(body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.map_err(|e| http_error(&e, timeout))?;
    let status = response.status().as_u16();
    let body = response.text().await.map_err(|e| http_error(&e, timeout))?;
    Ok(Reply { status, body })
}

fn http_error(err: &reqwest::Error, timeout: Duration) -> Error {
    if err.is_timeout() {
        Error::Timeout(timeout)
    } else if err.is_connect() {
        // The innermost source names the cause (connection refused, no route, …).
        let mut reason = err.to_string();
        let mut source = std::error::Error::source(err);
        while let Some(inner) = source {
            reason = inner.to_string();
            source = inner.source();
        }
        Error::Connect(reason)
    } else {
        Error::Transport(err.to_string())
    }
}

/// An open WebSocket.
pub(crate) struct Socket {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl Socket {
    /// Opens a WebSocket to `url` within `timeout`, with the credential when one is given.
    pub(crate) async fn open(
        url: &str,
        token: Option<&str>,
        timeout: Duration,
    ) -> Result<Socket, Error> {
        let mut request = url.into_client_request().map_err(|e| Error::Transport(e.to_string()))?;
        if let Some(token) = token {
            let value = HeaderValue::from_str(&format!("Bearer {token}"))
                .map_err(|e| Error::Transport(e.to_string()))?;
            request.headers_mut().insert("authorization", value);
        }
        let connect = tokio_tungstenite::connect_async_with_config(request, None, true);
        match timeout_at(Instant::now() + timeout, connect).await {
            Err(_) => Err(Error::Timeout(timeout)),
            Ok(Ok((ws, _))) => Ok(Socket { ws }),
            Ok(Err(tungstenite::Error::Http(response))) => {
                Err(Error::Upgrade(response.status().as_u16()))
            }
            Ok(Err(tungstenite::Error::Io(e))) => Err(Error::Connect(e.to_string())),
            Ok(Err(e)) => Err(Error::Transport(e.to_string())),
        }
    }

    /// Sends one text message.
    pub(crate) async fn send(&mut self, text: String) -> Result<(), Error> {
        self.ws.send(Message::Text(text.into())).await.map_err(|e| Error::Transport(e.to_string()))
    }

    /// The next text message before `deadline`; `None` when the deadline passed.
    pub(crate) async fn next(&mut self, deadline: Instant) -> Result<Option<String>, Error> {
        loop {
            match timeout_at(deadline, self.ws.next()).await {
                Err(_) => return Ok(None),
                Ok(None) | Ok(Some(Ok(Message::Close(_)))) => {
                    return Err(Error::Transport("the plant closed the WebSocket".to_owned()));
                }
                Ok(Some(Err(e))) => return Err(Error::Transport(e.to_string())),
                Ok(Some(Ok(Message::Text(text)))) => return Ok(Some(text.as_str().to_owned())),
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
