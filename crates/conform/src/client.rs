//! The plant as conform calls it: accord-client's transport (the one caller side of the wire)
//! with the credential each check chooses, and what a check judges of each reply (the HTTP
//! status, the body, the `WWW-Authenticate` challenge). It moves text only; judging what comes
//! back is [`judge`](crate::judge)'s work.

use std::time::Duration;

use accord_client::transport::{self, Endpoint};
use tokio::time::Instant;

use crate::Error;
use crate::failure::{FailureKind, Problem};
use crate::transcript::Credential;

pub(crate) use accord_client::transport::TransportError;

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

/// A transport failure as a check's problem: a timeout is its own kind, so a slow plant reads
/// as slow, not as broken.
pub(crate) trait AsProblem {
    /// The problem, in conform's words.
    fn problem(&self) -> Problem;
}

impl AsProblem for TransportError {
    fn problem(&self) -> Problem {
        let (kind, text) = match self {
            TransportError::Timeout(waited) => (
                FailureKind::Timeout,
                format!("no answer within {} (--timeout)", crate::duration_text(*waited)),
            ),
            other => (FailureKind::Transport, other.to_string()),
        };
        Problem::new(kind, text)
    }
}

/// The HTTP and WebSocket URLs of the plant at `url` (`http://…` or `ws://…`; the other one is
/// derived from it), or why `url` names no plant. [`crate::plan`] checks it before anything is
/// printed or sent.
pub(crate) fn urls(url: &str) -> Result<(String, String), Error> {
    let endpoint =
        Endpoint::parse(url).map_err(|reason| Error::Url { url: url.to_owned(), reason })?;
    Ok((endpoint.http_url, endpoint.ws_url))
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
        let authorization = self.authorization(credential);
        let reply = transport::post(
            &self.http,
            &self.http_url,
            authorization.as_deref(),
            body.to_owned(),
            self.timeout,
        )
        .await?;
        let body = if reply.body.is_empty() { None } else { Some(reply.body) };
        Ok(Reply { status: Some(reply.status), body, challenge: reply.challenge })
    }

    /// Opens a WebSocket; `Ok(Err(status))` when the plant refused the upgrade with that
    /// HTTP status.
    pub(crate) async fn socket(
        &self,
        credential: Credential,
    ) -> Result<Result<Socket, u16>, TransportError> {
        let authorization = self.authorization(credential);
        match transport::Socket::open(&self.ws_url, authorization.as_deref(), self.timeout).await {
            Ok(socket) => Ok(Ok(Socket { socket, timeout: self.timeout })),
            Err(TransportError::Upgrade(status)) => Ok(Err(status)),
            Err(error) => Err(error),
        }
    }
}

/// An open WebSocket, with the timeout each answer is waited for.
pub(crate) struct Socket {
    socket: transport::Socket,
    pub(crate) timeout: Duration,
}

impl Socket {
    /// Sends one text message.
    pub(crate) async fn send(&mut self, text: &str) -> Result<(), TransportError> {
        self.socket.send(text).await
    }

    /// The next text message before `deadline`; `None` when the deadline passed or the plant
    /// closed the socket (a check reads both as no answer).
    pub(crate) async fn next(
        &mut self,
        deadline: Instant,
    ) -> Result<Option<String>, TransportError> {
        match self.socket.next(deadline).await {
            Err(TransportError::Closed) => Ok(None),
            other => other,
        }
    }

    /// Closes the socket politely.
    pub(crate) async fn close(self) {
        self.socket.close().await;
    }
}
