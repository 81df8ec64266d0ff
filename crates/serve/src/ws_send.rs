//! What a WebSocket sends, bounded (docs/wire.md §9): the protocol's own output (pongs, the close
//! reply) may queue at most [`OUTPUT_CAP`] bytes for a peer that does not read, the plant's
//! messages are written in fragments of at most [`FRAGMENT`] bytes, each flushed before the next
//! is made, and notifications are sent one by one as they are made rather than gathered first.
//!
//! tungstenite answers every ping by queueing a pong in its write buffer; with the buffer
//! unbounded, a peer that floods pings and never reads grows it by a pong per ping. With
//! `max_write_buffer_size` set, a pong that does not fit waits in tungstenite's one-frame slot,
//! where the next ping's pong replaces it (RFC 6455 §5.5.3 allows answering only the latest
//! ping), so the queue stops growing; the write timeout then closes the connection.

use futures_util::SinkExt;
use futures_util::stream::SplitSink;
use hyper_util::rt::TokioIo;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::protocol::frame::Frame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::{Data, OpCode};
use tokio_tungstenite::tungstenite::{Bytes, Error as WsError, Message};

use crate::frame_watch::FrameWatch;

/// An upgraded connection, read through the frame watch.
pub(crate) type Socket = WebSocketStream<FrameWatch<TokioIo<hyper::upgrade::Upgraded>>>;

/// The largest frame the plant writes: a longer message goes out as a fragmented message.
pub(crate) const FRAGMENT: usize = 64 * 1024;
/// Bytes written at once (tungstenite buffers smaller writes until a flush).
const WRITE_BUFFER: usize = 64 * 1024;
/// The most bytes a connection queues for its peer: one fragment and the write buffer, with
/// room for the pongs and close frames the protocol adds. A message that does not fit in it is
/// refused with [`WsError::WriteBufferFull`]: the peer has stopped reading.
pub(crate) const OUTPUT_CAP: usize = WRITE_BUFFER + FRAGMENT + 64 * 1024;

/// The WebSocket configuration of a plant whose messages are refused past `hard_cap` bytes.
pub(crate) fn config(hard_cap: usize) -> WebSocketConfig {
    WebSocketConfig::default()
        .max_message_size(Some(hard_cap))
        .max_frame_size(Some(hard_cap))
        .write_buffer_size(WRITE_BUFFER)
        .max_write_buffer_size(OUTPUT_CAP)
}

/// A connection's sending half, and the first error that stopped it.
pub(crate) struct Outbox {
    sink: SplitSink<Socket, Message>,
    failed: Option<WsError>,
    /// Messages sent since this task last yielded.
    unyielded: usize,
}

/// Messages sent in a row before the sending task yields, so that a large emit never holds a
/// worker thread that other connections are waiting for.
const YIELD_EVERY: usize = 32;

impl Outbox {
    pub(crate) fn new(sink: SplitSink<Socket, Message>) -> Outbox {
        Outbox { sink, failed: None, unyielded: 0 }
    }

    /// Sends one text message (JSON written by serde_json, so UTF-8); `false` once a send has
    /// failed (this one or an earlier one: see [`Outbox::failure`]).
    pub(crate) async fn send(&mut self, bytes: Vec<u8>) -> bool {
        if self.failed.is_some() {
            return false;
        }
        if let Err(error) = send_text(&mut self.sink, bytes).await {
            self.failed = Some(error);
            return false;
        }
        self.unyielded += 1;
        if self.unyielded >= YIELD_EVERY {
            self.unyielded = 0;
            tokio::task::yield_now().await;
        }
        true
    }

    /// The error that stopped sending, if one did.
    pub(crate) fn failure(&mut self) -> Option<WsError> {
        self.failed.take()
    }

    /// Writes what tungstenite has queued (the reply to a peer's Close frame).
    pub(crate) async fn flush(&mut self) -> Result<(), WsError> {
        self.sink.flush().await
    }

    /// Sends `message` (a close frame) as it is.
    pub(crate) async fn send_raw(&mut self, message: Message) -> Result<(), WsError> {
        self.sink.send(message).await
    }
}

/// One text message, in fragments of at most [`FRAGMENT`] bytes, each flushed before the next.
async fn send_text(sink: &mut SplitSink<Socket, Message>, bytes: Vec<u8>) -> Result<(), WsError> {
    if bytes.len() <= FRAGMENT {
        // serde_json writes UTF-8 only; a lossy copy would only ever hide a bug.
        let text = String::from_utf8(bytes)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        return sink.send(Message::Text(text.into())).await;
    }
    // Fragments of a text message may split a character: only the whole must be UTF-8.
    let bytes = Bytes::from(bytes);
    let count = bytes.len().div_ceil(FRAGMENT);
    for i in 0..count {
        let piece = bytes.slice(i * FRAGMENT..((i + 1) * FRAGMENT).min(bytes.len()));
        let opcode = if i == 0 { OpCode::Data(Data::Text) } else { OpCode::Data(Data::Continue) };
        sink.send(Message::Frame(Frame::message(piece, opcode, i + 1 == count))).await?;
    }
    Ok(())
}
