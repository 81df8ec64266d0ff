//! The crate's one error: why a call got no JSON-RPC answer.

use std::time::Duration;

use accord_wire::RpcError;

/// Why a call or a subscription got no JSON-RPC answer. An answer that is a JSON-RPC error is
/// not an `Error`: it is [`Reply::Error`](crate::Reply::Error).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The plant's URL cannot be used.
    #[error("`{url}` is not a plant URL: {reason}")]
    Url {
        /// The URL as given.
        url: String,
        /// Why not.
        reason: String,
    },
    /// The contract has no method of this name (by its contract name or its wire name).
    #[error("the contract has no method `{0}`")]
    UnknownMethod(String),
    /// The contract has no event of this name (`namespace.event`).
    #[error("the contract has no event `{0}`")]
    UnknownEvent(String),
    /// The contract's wire has no describe method (`"describe": false`).
    #[error("the contract's wire has no describe method")]
    NoDescribe,
    /// The connection could not be made.
    #[error("cannot connect to the plant: {0}")]
    Connect(String),
    /// No answer within the timeout.
    #[error("no answer from the plant within {} ms", .0.as_millis())]
    Timeout(Duration),
    /// The plant refused the WebSocket upgrade with this HTTP status.
    #[error("the plant refused the WebSocket with HTTP {0}")]
    Upgrade(u16),
    /// Anything else the transport reported (a reset, a closed socket, a failed write).
    #[error("transport: {0}")]
    Transport(String),
    /// The plant answered something that is not a JSON-RPC response to the call.
    #[error("the plant's answer is not a JSON-RPC response: {reason} (HTTP {status:?}): {body}")]
    Answer {
        /// What is wrong with it.
        reason: String,
        /// The HTTP status, over HTTP.
        status: Option<u16>,
        /// The answer, cut to 200 bytes.
        body: String,
    },
    /// The plant refused a subscription with this error.
    #[error("the plant refused the subscription to `{event}`: {} {}", .error.code, .error.message)]
    Subscribe {
        /// The event, `namespace.event`.
        event: String,
        /// The plant's error (boxed: it is the largest variant by far).
        error: Box<RpcError>,
    },
}

impl From<crate::transport::TransportError> for Error {
    fn from(error: crate::transport::TransportError) -> Error {
        use crate::transport::TransportError as T;
        match error {
            T::Connect(reason) => Error::Connect(reason),
            T::Timeout(waited) => Error::Timeout(waited),
            T::Upgrade(status) => Error::Upgrade(status),
            other => Error::Transport(other.to_string()),
        }
    }
}

impl Error {
    /// An [`Error::Answer`] with the body cut to a readable length.
    pub(crate) fn answer(reason: impl Into<String>, status: Option<u16>, body: &str) -> Error {
        let mut end = body.len().min(200);
        while !body.is_char_boundary(end) {
            end -= 1;
        }
        Error::Answer { reason: reason.into(), status, body: body[..end].to_owned() }
    }
}
