//! How a JSON-RPC message travels between a caller and a plant (docs/wire.md §1): the one
//! name for it that the plant's engine, the caller and conform's transcripts share.

/// How a message travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Transport {
    /// One HTTP `POST /` per message.
    Http,
    /// A message on a WebSocket opened on `/`.
    WebSocket,
}

impl Transport {
    /// Its name in docs/wire.md (`-32004`'s data, the plant's log): `http` or `websocket`.
    pub fn as_str(self) -> &'static str {
        match self {
            Transport::Http => "http",
            Transport::WebSocket => "websocket",
        }
    }
}
