//! How a WebSocket ends when reading or sending fails, with the close code RFC 6455 §7.4.1
//! gives the reason (docs/wire.md §9): 1007 for a text message that is not UTF-8, 1002 for a
//! broken frame (unmasked, a reserved opcode or bit, a control frame over 125 bytes or
//! fragmented, a continuation out of place), 1009 for a message past the hard cap, 1008 for a
//! frame or message that stalled or took too long; no close frame when the peer is gone or has
//! stopped reading. Each ending is logged once, saying why.

use std::time::Duration;

use accord_wire::limits;
use tokio_tungstenite::tungstenite::error::ProtocolError;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};

use crate::frame_watch::{self, Stall};
use crate::server::Shared;
use crate::ws_send::{OUTPUT_CAP, Outbox};

/// How long a close frame may take to write.
const CLOSE_WRITE: Duration = Duration::from_secs(1);

/// The close frame to send, if any, once an error has ended the connection.
pub(crate) struct Ending(Option<(CloseCode, String)>);

impl Ending {
    /// The ending of a connection whose read failed with `error`; logged here.
    pub(crate) fn of_read(error: &WsError, shared: &Shared) -> Ending {
        let read_ms = shared.read_timeout.as_millis() as u64;
        let (code, reason) = match error {
            WsError::Io(io) => match frame_watch::stall_of(io) {
                Some(Stall::Frame) => {
                    tracing::info!(
                        transport = "websocket",
                        timeout_ms = read_ms,
                        "frame stalled; closing"
                    );
                    (CloseCode::Policy, format!("read timeout: a frame stalled for {read_ms} ms"))
                }
                Some(Stall::Message) => {
                    tracing::info!(
                        transport = "websocket",
                        timeout_ms = read_ms,
                        "message too slow; closing"
                    );
                    let reason = format!("read timeout: a message took longer than {read_ms} ms");
                    (CloseCode::Policy, reason)
                }
                // The read flushes pongs first: the write timeout can end it too.
                None => return Ending::of_send(error, shared),
            },
            WsError::Utf8(_) => {
                tracing::info!(transport = "websocket", %error, "invalid UTF-8; closing");
                (CloseCode::Invalid, "invalid UTF-8 in a text message".to_owned())
            }
            WsError::Capacity(_) => {
                tracing::info!(transport = "websocket", %error, "message too big; closing");
                let max = shared.plant.limits.engine.body_bytes;
                (CloseCode::Size, format!("limit {}: max {max} bytes", limits::BODY_BYTES))
            }
            WsError::Protocol(
                ProtocolError::ResetWithoutClosingHandshake | ProtocolError::ReceivedAfterClosing,
            ) => return Ending::lost(),
            WsError::Protocol(violation) => {
                tracing::info!(transport = "websocket", %error, "protocol violation; closing");
                (CloseCode::Protocol, violation.to_string())
            }
            _ => return Ending::lost(),
        };
        Ending(Some((code, reason)))
    }

    /// The ending of a connection whose send failed with `error`; logged here.
    pub(crate) fn of_send(error: &WsError, shared: &Shared) -> Ending {
        match error {
            // The socket's write timeout (server.rs): the peer has stopped reading, and there is
            // no room left to say so.
            WsError::Io(io) if io.kind() == std::io::ErrorKind::TimedOut => {
                let timeout_ms = shared.write_timeout.as_millis() as u64;
                tracing::info!(transport = "websocket", timeout_ms, "write stalled; closing");
                Ending(None)
            }
            WsError::WriteBufferFull(_) => {
                tracing::info!(
                    transport = "websocket",
                    cap_bytes = OUTPUT_CAP,
                    "output queue full (the peer does not read); closing"
                );
                Ending(Some((
                    CloseCode::Policy,
                    format!("the peer does not read: {OUTPUT_CAP} bytes queued"),
                )))
            }
            _ => Ending::lost(),
        }
    }

    fn lost() -> Ending {
        tracing::info!(transport = "websocket", "connection lost");
        Ending(None)
    }

    /// Sends the close frame, if there is one and it can be written within a second.
    pub(crate) async fn close(self, outbox: &mut Outbox) {
        if let Some((code, reason)) = self.0 {
            let closing = outbox.send_raw(close(code, &reason));
            let _ = tokio::time::timeout(CLOSE_WRITE, closing).await;
        }
    }
}

/// Writes the reply tungstenite queued to the peer's Close frame, within a second (a peer that
/// closed and stopped reading does not hold the connection).
pub(crate) async fn reply_to_close(outbox: &mut Outbox) {
    let _ = tokio::time::timeout(CLOSE_WRITE, outbox.flush()).await;
    tracing::info!(transport = "websocket", "closed by the peer; close frame answered");
}

/// A close frame; its reason cut to the 123 bytes a close frame has room for.
pub(crate) fn close(code: CloseCode, reason: &str) -> Message {
    let mut end = reason.len().min(123);
    while !reason.is_char_boundary(end) {
        end -= 1;
    }
    Message::Close(Some(CloseFrame { code, reason: reason[..end].into() }))
}
