//! The plant: calls and describe go through accord-client (a method by its contract name over
//! the contract's wire, with the page's credential as `Authorization: Bearer`); the event
//! WebSocket is opened here, because the page watches a subscription live for as long as it
//! likes, while accord-client collects a bounded number of payloads and returns.

use std::time::Duration;

use accord_client::Client;
use accord_schema_model::Dialect;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::Error;

/// How long one forwarded call may take: a plant that does not answer within it is reported to
/// the page, never waited on forever.
const TIMEOUT: Duration = Duration::from_secs(30);

/// An open WebSocket to the plant.
pub(crate) type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// The plant's two addresses.
#[derive(Debug)]
pub(crate) struct Upstream {
    http_url: String,
    ws_url: String,
}

impl Upstream {
    pub(crate) fn new(url: &str) -> Result<Upstream, Error> {
        let Some(rest) = url.strip_prefix("http://") else {
            return Err(Error::Url { url: url.to_owned() });
        };
        Ok(Upstream { http_url: url.to_owned(), ws_url: format!("ws://{rest}") })
    }

    fn failed(&self, reason: impl std::fmt::Display) -> Error {
        Error::Upstream { url: self.http_url.clone(), reason: reason.to_string() }
    }

    /// A client of the plant speaking `dialect`, over HTTP, with the credential `token`: one
    /// per request, since each page brings its own credential.
    pub(crate) fn client(&self, dialect: Dialect, token: Option<&str>) -> Result<Client, Error> {
        Client::new(dialect, &self.http_url, token, TIMEOUT).map_err(|e| self.failed(e))
    }

    /// Opens a WebSocket with the credential `token`; `Ok(Err(status))` when the plant refused
    /// the upgrade with that HTTP status.
    pub(crate) async fn socket(&self, token: Option<&str>) -> Result<Result<Socket, u16>, Error> {
        use tokio_tungstenite::tungstenite::Error as WsError;
        let mut request = self.ws_url.as_str().into_client_request().map_err(|e| self.failed(e))?;
        if let Some(token) = token {
            let value = HeaderValue::from_str(&format!("Bearer {token}"))
                .map_err(|_| self.failed("the credential holds characters no header can carry"))?;
            request.headers_mut().insert("authorization", value);
        }
        match tokio::time::timeout(TIMEOUT, tokio_tungstenite::connect_async(request)).await {
            Err(_) => Err(self.failed("no WebSocket within 30 s")),
            Ok(Ok((socket, _))) => Ok(Ok(socket)),
            Ok(Err(WsError::Http(response))) => Ok(Err(response.status().as_u16())),
            Ok(Err(e)) => Err(self.failed(e)),
        }
    }
}
