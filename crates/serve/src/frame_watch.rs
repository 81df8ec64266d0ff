//! The read timeout of a WebSocket (docs/wire.md §9): the upgraded connection is read through
//! [`FrameWatch`], which follows the peer's bytes frame header by frame header (RFC 6455 §5.2)
//! and so knows, after every byte, whether the peer is between frames or inside one, and whether
//! a fragmented data message is unfinished. Inside either, a read that waits longer than the
//! timeout fails with [`io::ErrorKind::TimedOut`]; between frames it waits as long as the peer
//! likes, because a subscriber legitimately sits idle for hours waiting for events.
//!
//! A data message as a whole (all its fragments, with the control frames between them) must
//! also arrive within the timeout from the read that brought its first byte: a peer trickling
//! one fragment every few seconds, or keeping a message open with pings, is closed once the
//! message has taken longer, however steadily its bytes come.
//!
//! The watch sits under tungstenite, at the byte stream, because tungstenite only yields whole
//! messages: a frame that stops half-way is invisible above it.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::{Instant, Sleep};

/// A WebSocket's connection, read with a deadline whenever the peer is inside a frame or a
/// fragmented message.
#[derive(Debug)]
pub(crate) struct FrameWatch<S> {
    inner: S,
    frames: Frames,
    timeout: Duration,
    /// Armed when a read finds no byte while the peer is inside a frame or message; re-armed
    /// (from the next such wait) whenever bytes arrive.
    deadline: Pin<Box<Sleep>>,
    armed: bool,
    /// When the last bytes arrived.
    last_read: Option<Instant>,
    /// When the data message in progress began (the read that brought its first byte).
    message_since: Option<Instant>,
}

impl<S> FrameWatch<S> {
    /// Watches `inner`; must be called inside the tokio runtime (it holds a timer).
    pub(crate) fn new(inner: S, timeout: Duration) -> FrameWatch<S> {
        FrameWatch {
            inner,
            frames: Frames::default(),
            timeout,
            deadline: Box::pin(tokio::time::sleep(timeout)),
            armed: false,
            last_read: None,
            message_since: None,
        }
    }
}

impl<S> FrameWatch<S> {
    /// What is overdue once a deadline has passed: no byte for the timeout is the plainer
    /// reason, and so named when both are due; else the message is too slow.
    fn overdue(&self) -> Stall {
        let silent = self.last_read.and_then(|at| at.checked_add(self.timeout));
        if silent.is_none_or(|due| Instant::now() >= due) { Stall::Frame } else { Stall::Message }
    }
}

/// Whether `error` is the one [`FrameWatch`] returns when a frame or message stalls (rather
/// than a timeout from the socket itself).
#[cfg(test)]
pub(crate) fn is_stalled(error: &io::Error) -> bool {
    stall_of(error).is_some()
}

/// What stalled, when `error` is the one [`FrameWatch`] returns for a stall.
pub(crate) fn stall_of(error: &io::Error) -> Option<Stall> {
    if error.kind() != io::ErrorKind::TimedOut {
        return None;
    }
    error.get_ref().and_then(|inner| inner.downcast_ref::<Stalled>()).map(|s| s.what)
}

/// What was too slow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stall {
    /// No byte came for the timeout inside a frame or an unfinished message.
    Frame,
    /// A data message, begun, was still unfinished the timeout later (bytes kept coming).
    Message,
}

/// The error inside the `TimedOut` [`io::Error`].
#[derive(Debug)]
struct Stalled {
    what: Stall,
    after: Duration,
}

impl std::fmt::Display for Stalled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ms = self.after.as_millis();
        match self.what {
            Stall::Frame => {
                write!(f, "no byte for {ms} ms inside a WebSocket frame or fragmented message")
            }
            Stall::Message => write!(f, "a WebSocket message took longer than {ms} ms to arrive"),
        }
    }
}

fn stalled(what: Stall, after: Duration) -> io::Error {
    io::Error::new(io::ErrorKind::TimedOut, Stalled { what, after })
}

impl std::error::Error for Stalled {}

impl<S: AsyncRead + Unpin> AsyncRead for FrameWatch<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        // A message begun more than the timeout ago and still unfinished: whatever its bytes
        // are doing, it has taken too long (`None` when the timeout is past any instant).
        let message_due = this.message_since.and_then(|since| since.checked_add(this.timeout));
        if message_due.is_some_and(|due| Instant::now() >= due) {
            return Poll::Ready(Err(stalled(this.overdue(), this.timeout)));
        }
        let before = buf.filled().len();
        match Pin::new(&mut this.inner).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                let begun = this.frames.begun;
                this.frames.feed(&buf.filled()[before..]);
                this.armed = false;
                let now = Instant::now();
                this.last_read = Some(now);
                if !this.frames.in_message() {
                    this.message_since = None;
                } else if this.frames.begun != begun || this.message_since.is_none() {
                    // A new message began in these bytes (perhaps after the end of another).
                    this.message_since = Some(now);
                }
                Poll::Ready(Ok(()))
            }
            Poll::Ready(Err(error)) => Poll::Ready(Err(error)),
            Poll::Pending if !this.frames.busy() => {
                this.armed = false;
                Poll::Pending
            }
            Poll::Pending => {
                if !this.armed {
                    // A timeout too far to be an instant (`Config::read_timeout` is any
                    // Duration) is no deadline at all.
                    // Timed from the last bytes (a message begun in them is due the same instant).
                    let from = this.last_read.unwrap_or_else(Instant::now);
                    let Some(at) = from.checked_add(this.timeout) else {
                        return Poll::Pending;
                    };
                    this.deadline.as_mut().reset(message_due.map_or(at, |due| due.min(at)));
                    this.armed = true;
                }
                match this.deadline.as_mut().poll(cx) {
                    Poll::Ready(()) => Poll::Ready(Err(stalled(this.overdue(), this.timeout))),
                    Poll::Pending => Poll::Pending,
                }
            }
        }
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for FrameWatch<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

/// Where the peer is in its byte stream (RFC 6455 §5.2's frame layout).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Part {
    /// Before a frame's first byte (FIN, RSV, opcode).
    #[default]
    Between,
    /// After the first byte: the mask bit and 7-bit length come next.
    Length { masked: bool },
    /// Inside the 16- or 64-bit extended length: bytes still to come, the length so far.
    Extended { left: u8, length: u64, masked: bool },
    /// Inside the 4-byte masking key: bytes still to come, then the payload's length.
    Mask { left: u8, payload: u64 },
    /// Inside the payload: bytes still to come (never 0).
    Payload { left: u64 },
}

/// The frame-header state machine: fed every byte the peer sends, in order, in any chunks.
#[derive(Debug, Clone, Default)]
pub(crate) struct Frames {
    part: Part,
    /// The current frame's FIN bit.
    fin: bool,
    /// Whether the current frame is a data frame (text, binary, continuation or a reserved
    /// non-control opcode), which alone can begin or end a fragmented message.
    data: bool,
    /// A data frame without FIN was seen and the final continuation has not been: control
    /// frames may still come between its fragments.
    unfinished: bool,
    /// How many data messages have begun (a data frame's first byte with none unfinished).
    begun: u64,
}

impl Frames {
    /// Whether the peer is inside a frame or an unfinished message: the next byte is owed.
    pub(crate) fn busy(&self) -> bool {
        self.part != Part::Between || self.unfinished
    }

    /// Whether the peer is inside a data message: in a data frame, or between the fragments of
    /// an unfinished one.
    pub(crate) fn in_message(&self) -> bool {
        self.unfinished || (self.part != Part::Between && self.data)
    }

    /// Follows `bytes`, the next ones the peer sent.
    pub(crate) fn feed(&mut self, mut bytes: &[u8]) {
        while let Some((&first, rest)) = bytes.split_first() {
            if let Part::Payload { left } = self.part {
                // The payload is skipped in one step, however long.
                let here = bytes.len() as u64;
                if left <= here {
                    bytes = &bytes[left as usize..];
                    self.frame_done();
                } else {
                    self.part = Part::Payload { left: left - here };
                    bytes = &[];
                }
                continue;
            }
            self.header_byte(first);
            bytes = rest;
        }
    }

    fn header_byte(&mut self, byte: u8) {
        match self.part {
            Part::Between => {
                self.fin = byte & 0x80 != 0;
                // Opcodes 0x8 to 0xF are control frames (close, ping, pong, reserved).
                self.data = byte & 0x08 == 0;
                if self.data && !self.unfinished {
                    self.begun += 1;
                }
                self.part = Part::Length { masked: false };
            }
            Part::Length { .. } => {
                let masked = byte & 0x80 != 0;
                match byte & 0x7F {
                    126 => self.part = Part::Extended { left: 2, length: 0, masked },
                    127 => self.part = Part::Extended { left: 8, length: 0, masked },
                    short => self.header_done(u64::from(short), masked),
                }
            }
            Part::Extended { left, length, masked } => {
                // Network byte order; eight shifts of a u64 by 8 lose nothing of 8 bytes.
                let length = (length << 8) | u64::from(byte);
                if left == 1 {
                    self.header_done(length, masked);
                } else {
                    self.part = Part::Extended { left: left - 1, length, masked };
                }
            }
            Part::Mask { left, payload } => {
                if left == 1 {
                    self.payload(payload);
                } else {
                    self.part = Part::Mask { left: left - 1, payload };
                }
            }
            // `feed` consumes payload bytes itself; one byte of it is one byte less to come.
            Part::Payload { left } => self.payload(left - 1),
        }
    }

    fn header_done(&mut self, payload: u64, masked: bool) {
        if masked {
            self.part = Part::Mask { left: 4, payload };
        } else {
            self.payload(payload);
        }
    }

    fn payload(&mut self, length: u64) {
        if length == 0 {
            self.frame_done();
        } else {
            self.part = Part::Payload { left: length };
        }
    }

    fn frame_done(&mut self) {
        if self.data {
            self.unfinished = !self.fin;
        }
        self.part = Part::Between;
    }
}

#[cfg(test)]
mod tests {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio_tungstenite::tungstenite::protocol::frame::coding::{Control, Data, OpCode};
    use tokio_tungstenite::tungstenite::protocol::frame::{Frame, FrameHeader};

    use super::*;

    /// One frame as tungstenite writes it (an encoder this code does not share).
    fn frame(opcode: OpCode, fin: bool, masked: bool, payload: &[u8]) -> Vec<u8> {
        let mask = masked.then_some([0x11, 0x22, 0x33, 0x44]);
        let header = FrameHeader { is_final: fin, opcode, mask, ..FrameHeader::default() };
        let mut out = Vec::new();
        Frame::from_payload(header, payload.to_vec().into()).format(&mut out).unwrap();
        out
    }

    fn text(fin: bool, payload: &[u8]) -> Vec<u8> {
        frame(OpCode::Data(Data::Text), fin, true, payload)
    }

    fn busy_after(bytes: &[u8]) -> bool {
        let mut frames = Frames::default();
        frames.feed(bytes);
        frames.busy()
    }

    /// Busy after every proper prefix of `bytes` fed byte by byte, idle after none and all.
    fn busy_strictly_inside(bytes: &[u8]) {
        let mut frames = Frames::default();
        assert!(!frames.busy());
        for (i, byte) in bytes.iter().enumerate() {
            frames.feed(std::slice::from_ref(byte));
            let end = i + 1 == bytes.len();
            assert_eq!(frames.busy(), !end, "after byte {} of {}", i + 1, bytes.len());
        }
    }

    #[test]
    fn every_length_encoding_masked_or_not() {
        // 7-bit lengths up to 125, 16-bit from 126 to 65535, 64-bit from 65536.
        for length in [0, 1, 125, 126, 127, 65_535, 65_536, 70_000] {
            for masked in [false, true] {
                let bytes = frame(OpCode::Data(Data::Binary), true, masked, &vec![7; length]);
                let header = bytes.len() - length;
                let expected = 2
                    + if masked { 4 } else { 0 }
                    + match length {
                        0..=125 => 0,
                        126..=65_535 => 2,
                        _ => 8,
                    };
                assert_eq!(header, expected, "tungstenite's header for {length}");
                if length <= 300 {
                    busy_strictly_inside(&bytes);
                }
                // Every cut inside the header, and inside the payload, is busy.
                for cut in (1..header).chain([header, bytes.len() - 1]) {
                    if cut < bytes.len() {
                        assert!(busy_after(&bytes[..cut]), "{length} masked {masked} cut {cut}");
                    }
                }
                assert!(!busy_after(&bytes), "{length} masked {masked}");
            }
        }
    }

    #[test]
    fn a_64_bit_length_is_read_in_full() {
        // 2^40 + 3: the high bytes matter; a parser keeping only the low ones would end early.
        let mut bytes = vec![0x82, 127];
        bytes.extend_from_slice(&((1u64 << 40) + 3).to_be_bytes());
        let mut frames = Frames::default();
        frames.feed(&bytes);
        assert_eq!(frames.part, Part::Payload { left: (1 << 40) + 3 });
        frames.feed(&[0; 3]);
        assert!(frames.busy());
    }

    #[test]
    fn coalesced_frames_in_one_read() {
        let a = text(true, b"{\"id\": 1}");
        let b = text(true, &[b'x'; 300]);
        let both = [a.clone(), b.clone()].concat();
        assert!(!busy_after(&both));
        // A whole message and the start of the next, cut anywhere in the next.
        for cut in 1..b.len() {
            let bytes = [a.as_slice(), &b[..cut]].concat();
            assert!(busy_after(&bytes), "cut {cut} into the second frame");
        }
        // The same bytes in chunks of every size end in the same state.
        for chunk in 1..=both.len() {
            let mut frames = Frames::default();
            for piece in both.chunks(chunk) {
                frames.feed(piece);
            }
            assert!(!frames.busy(), "chunks of {chunk}");
        }
    }

    #[test]
    fn fragments_with_interleaved_control_frames() {
        let pieces = [
            (text(false, b"{\"jsonrpc\""), true),
            (frame(OpCode::Control(Control::Ping), true, true, b"hi"), true),
            (frame(OpCode::Data(Data::Continue), false, true, b": \"2.0\""), true),
            (frame(OpCode::Control(Control::Pong), true, true, b""), true),
            (frame(OpCode::Data(Data::Continue), true, true, b"}"), false),
            // A control frame alone, after the message: in and out of it, nothing owed.
            (frame(OpCode::Control(Control::Ping), true, true, b""), false),
        ];
        let mut frames = Frames::default();
        let mut all = Vec::new();
        // Where the stream is between frames with no message unfinished.
        let mut idle_cuts = vec![0];
        for (bytes, unfinished) in &pieces {
            for (i, byte) in bytes.iter().enumerate() {
                frames.feed(std::slice::from_ref(byte));
                if i + 1 < bytes.len() {
                    assert!(frames.busy());
                }
            }
            assert_eq!(frames.busy(), *unfinished);
            all.extend_from_slice(bytes);
            if !unfinished {
                idle_cuts.push(all.len());
            }
        }
        assert_eq!(idle_cuts.len(), 3);
        // Fed in two reads cut at every byte, the first read ends where byte by byte did.
        for cut in 0..=all.len() {
            let mut frames = Frames::default();
            frames.feed(&all[..cut]);
            assert_eq!(frames.busy(), !idle_cuts.contains(&cut), "cut {cut}");
            frames.feed(&all[cut..]);
            assert!(!frames.busy(), "the rest after cut {cut}");
        }
    }

    #[tokio::test]
    async fn a_read_inside_a_frame_times_out_and_between_frames_does_not() {
        let timeout = Duration::from_millis(50);
        let (mut peer, ours) = tokio::io::duplex(1024);
        let mut watch = FrameWatch::new(ours, timeout);
        let mut buf = [0; 64];
        // Between frames: still waiting well past several timeouts.
        let idle = tokio::time::timeout(timeout * 6, watch.read(&mut buf)).await;
        assert!(idle.is_err(), "an idle read ended: {idle:?}");
        // A whole frame and half of the next header, then nothing.
        let whole = text(true, b"{}");
        let half = &text(true, b"{}")[..3];
        peer.write_all(&[whole.as_slice(), half].concat()).await.unwrap();
        let mut got = 0;
        let error = loop {
            let read = tokio::time::timeout(Duration::from_secs(10), watch.read(&mut buf))
                .await
                .expect("the stalled read ends within 10 s");
            match read {
                Ok(n) => got += n,
                Err(error) => break error,
            }
        };
        assert_eq!(got, whole.len() + 3, "every byte was delivered before the timeout");
        assert!(is_stalled(&error), "{error}");
        assert_eq!(
            error.to_string(),
            "no byte for 50 ms inside a WebSocket frame or fragmented message"
        );
        assert!(!is_stalled(&io::Error::new(io::ErrorKind::TimedOut, "the socket's own")));
    }

    #[tokio::test]
    async fn a_timeout_past_any_instant_is_no_deadline() {
        let (mut peer, ours) = tokio::io::duplex(1024);
        let mut watch = FrameWatch::new(ours, Duration::MAX);
        peer.write_all(&text(true, b"{}")[..3]).await.unwrap();
        let mut buf = [0; 64];
        assert_eq!(watch.read(&mut buf).await.unwrap(), 3);
        let waiting = tokio::time::timeout(Duration::from_millis(100), watch.read(&mut buf)).await;
        assert!(waiting.is_err(), "{waiting:?}");
        drop(peer);
    }

    #[tokio::test]
    async fn bytes_that_keep_coming_keep_the_frame_alive() {
        // One byte every 25 ms for 800 ms against a 400 ms timeout: re-armed on every byte, the
        // read never times out; armed once, it would. A ping, which is no data message, so the
        // whole-message deadline does not apply.
        let timeout = Duration::from_millis(400);
        let (mut peer, ours) = tokio::io::duplex(1024);
        let mut watch = FrameWatch::new(ours, timeout);
        let bytes = frame(OpCode::Control(Control::Ping), true, true, &[b'x'; 26]);
        let writer = tokio::spawn(async move {
            for byte in bytes {
                peer.write_all(&[byte]).await.unwrap();
                tokio::time::sleep(Duration::from_millis(25)).await;
            }
            peer
        });
        let mut buf = [0; 64];
        let mut got = 0;
        while got < 32 {
            got += watch.read(&mut buf).await.expect("no timeout while bytes arrive");
        }
        assert!(!watch.frames.busy());
        drop(writer.await.unwrap());
    }

    #[tokio::test]
    async fn a_message_that_keeps_coming_too_long_is_cut() {
        // A data message trickled as above: every byte in time, the whole too late.
        let timeout = Duration::from_millis(400);
        let (mut peer, ours) = tokio::io::duplex(1024);
        let mut watch = FrameWatch::new(ours, timeout);
        let bytes = text(true, &[b'x'; 26]);
        let writer = tokio::spawn(async move {
            for byte in bytes {
                if peer.write_all(&[byte]).await.is_err() {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(25)).await;
            }
        });
        let mut buf = [0; 64];
        let started = Instant::now();
        let error = loop {
            match watch.read(&mut buf).await {
                Ok(_) => continue,
                Err(error) => break error,
            }
        };
        assert_eq!(stall_of(&error), Some(Stall::Message), "{error}");
        assert_eq!(error.to_string(), "a WebSocket message took longer than 400 ms to arrive");
        assert!(started.elapsed() < Duration::from_millis(700), "{:?}", started.elapsed());
        drop(watch);
        writer.await.unwrap();
    }

    #[test]
    fn messages_begun_are_counted_and_control_frames_are_no_message() {
        let mut frames = Frames::default();
        frames.feed(&frame(OpCode::Control(Control::Ping), true, true, b"p"));
        assert_eq!((frames.begun, frames.in_message()), (0, false));
        let first = text(false, b"{");
        frames.feed(&first[..1]);
        assert_eq!((frames.begun, frames.in_message()), (1, true));
        frames.feed(&first[1..]);
        frames.feed(&frame(OpCode::Control(Control::Ping), true, true, b"p"));
        assert!(frames.in_message(), "a ping between fragments does not end the message");
        frames.feed(&frame(OpCode::Data(Data::Continue), true, true, b"}"));
        assert_eq!((frames.begun, frames.in_message()), (1, false));
        frames.feed(&text(true, b"{}"));
        assert_eq!(frames.begun, 2);
    }
}
