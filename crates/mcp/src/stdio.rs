//! The stdio transport, bounded. rmcp's own spawns one task per answer to write it and keeps
//! reading input meanwhile, so a host that stops reading stdout made accord queue answers
//! without limit (474 MB in 20 s). Here the answers written but not yet taken by the host, and
//! the requests read but not yet answered, are counted together; while they reach
//! [`MAX_WAITING`] (or the answers waiting reach [`MAX_WAITING_BYTES`]) no more input is read,
//! so a host that does not read gets no further than its pipe's buffer and these few messages.
//! A line that is not JSON gets a `-32700` answer, one that is JSON but not a JSON-RPC message
//! the server takes a `-32600` one (both counted like any answer).

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use futures_util::StreamExt as _;
use rmcp::RoleServer;
use rmcp::model::JsonRpcMessage;
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::{Value, json};
use tokio::io::{AsyncWrite, AsyncWriteExt as _};
use tokio::sync::Notify;
use tokio_util::codec::{AnyDelimiterCodec, AnyDelimiterCodecError, FramedRead};

/// The most messages waiting: answers not yet written out plus requests not yet answered.
pub(crate) const MAX_WAITING: usize = 64;

/// The most bytes of answers not yet written out before input stops being read.
pub(crate) const MAX_WAITING_BYTES: usize = 8 << 20;

/// The longest line read (a longer one gets `-32700` and is skipped).
pub(crate) const MAX_LINE: usize = 16 << 20;

/// What is waiting, shared by the reader and the writes.
#[derive(Default)]
struct Load {
    /// The ids (as JSON text) of requests read and not yet answered.
    unanswered: HashSet<String>,
    /// Answers handed over and not yet written out.
    queued: usize,
    queued_bytes: usize,
}

struct Out<W> {
    writer: tokio::sync::Mutex<W>,
    load: Mutex<Load>,
    /// Woken whenever the load goes down.
    room: Notify,
}

impl<W: AsyncWrite + Unpin + Send + 'static> Out<W> {
    fn full(&self) -> bool {
        self.load.lock().map_or(true, |l| {
            l.unanswered.len() + l.queued >= MAX_WAITING || l.queued_bytes >= MAX_WAITING_BYTES
        })
    }

    /// Waits until there is room to read one more message.
    async fn room(&self) {
        loop {
            let woken = self.room.notified();
            if !self.full() {
                return;
            }
            woken.await;
        }
    }

    /// Counts one more line to write, answering the request `answers` (its id as JSON text).
    fn queue(&self, line: &[u8], answers: Option<String>) {
        if let Ok(mut load) = self.load.lock() {
            if let Some(id) = answers {
                load.unanswered.remove(&id);
            }
            load.queued += 1;
            load.queued_bytes += line.len();
        }
    }

    /// Writes one line queued by [`Out::queue`] and takes it off the load.
    async fn write(self: Arc<Self>, line: Vec<u8>) -> std::io::Result<()> {
        let written = async {
            let mut writer = self.writer.lock().await;
            writer.write_all(&line).await?;
            writer.write_all(b"\n").await?;
            writer.flush().await
        }
        .await;
        if let Ok(mut load) = self.load.lock() {
            load.queued -= 1;
            load.queued_bytes -= line.len();
        }
        self.room.notify_one();
        written
    }

    /// Answers a line the server cannot take with a JSON-RPC error, on a task of its own
    /// (counted in the load like any answer).
    fn refuse(self: &Arc<Self>, id: Value, code: i64, message: String) {
        let line = json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
            .to_string()
            .into_bytes();
        self.queue(&line, None);
        tokio::spawn(self.clone().write(line));
    }
}

/// MCP over stdin and stdout, bounded (see the module doc).
pub(crate) struct Stdio<R, W> {
    lines: FramedRead<R, AnyDelimiterCodec>,
    out: Arc<Out<W>>,
}

impl Stdio<tokio::io::Stdin, tokio::io::Stdout> {
    pub(crate) fn new() -> Self {
        Stdio::over(tokio::io::stdin(), tokio::io::stdout())
    }
}

impl<R, W> Stdio<R, W>
where
    R: tokio::io::AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    pub(crate) fn over(reader: R, writer: W) -> Self {
        let codec = AnyDelimiterCodec::new_with_max_length(b"\n".to_vec(), Vec::new(), MAX_LINE);
        Stdio {
            lines: FramedRead::new(reader, codec),
            out: Arc::new(Out {
                writer: tokio::sync::Mutex::new(writer),
                load: Mutex::new(Load::default()),
                room: Notify::new(),
            }),
        }
    }

    /// The message of one line, or `None` after answering what is wrong with it.
    fn take(&self, line: &Bytes) -> Option<RxJsonRpcMessage<RoleServer>> {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.iter().all(u8::is_ascii_whitespace) {
            return None;
        }
        let value: Value = match serde_json::from_slice(line) {
            Ok(value) => value,
            Err(err) => {
                self.out.refuse(Value::Null, -32700, format!("Parse error: {err}"));
                return None;
            }
        };
        if value.get("method").and_then(Value::as_str) == Some("notifications/cancelled")
            && let Some(id) = value.pointer("/params/requestId")
            && let Ok(mut load) = self.out.load.lock()
        {
            load.unanswered.remove(&id.to_string());
        }
        let id = value.get("id").cloned();
        match serde_json::from_value::<RxJsonRpcMessage<RoleServer>>(value) {
            Ok(message) => {
                if let (JsonRpcMessage::Request(_), Some(id)) = (&message, &id)
                    && let Ok(mut load) = self.out.load.lock()
                {
                    load.unanswered.insert(id.to_string());
                }
                Some(message)
            }
            Err(err) => {
                let id = id.unwrap_or(Value::Null);
                self.out.refuse(id, -32600, format!("Invalid Request: {err}"));
                None
            }
        }
    }
}

impl<R, W> Transport<RoleServer> for Stdio<R, W>
where
    R: tokio::io::AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let answers = match &item {
            JsonRpcMessage::Response(r) => serde_json::to_string(&r.id).ok(),
            JsonRpcMessage::Error(e) => e.id.as_ref().and_then(|id| serde_json::to_string(id).ok()),
            _ => None,
        };
        let line = serde_json::to_vec(&item);
        let out = self.out.clone();
        if let Ok(line) = &line {
            out.queue(line, answers);
        }
        async move {
            match line {
                Ok(line) => out.write(line).await,
                Err(err) => Err(std::io::Error::other(err)),
            }
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            self.out.room().await;
            match self.lines.next().await? {
                Ok(line) => {
                    if let Some(message) = self.take(&line) {
                        return Some(message);
                    }
                }
                Err(AnyDelimiterCodecError::MaxChunkLengthExceeded) => {
                    let message = format!("Parse error: a line longer than {MAX_LINE} bytes");
                    self.out.refuse(Value::Null, -32700, message);
                }
                Err(AnyDelimiterCodecError::Io(_)) => return None,
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.out.writer.lock().await.flush().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt as _;

    /// Garbage gets -32700, a JSON line that is no message -32600 with its id, and a request
    /// is handed over.
    #[tokio::test]
    async fn garbage_is_answered_and_requests_pass() {
        let input = b"not json\n{\"jsonrpc\":\"2.0\",\"id\":7,\"nonsense\":1}\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n";
        let (mut host, server_out) = tokio::io::duplex(1 << 16);
        let mut stdio = Stdio::over(&input[..], server_out);
        let message = stdio.receive().await.expect("the ping");
        assert!(matches!(message, JsonRpcMessage::Request(_)));
        drop(stdio);
        let mut written = String::new();
        host.read_to_string(&mut written).await.unwrap();
        let answers: Vec<Value> =
            written.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        let codes: Vec<(Value, i64)> = answers
            .iter()
            .map(|a| (a["id"].clone(), a["error"]["code"].as_i64().unwrap()))
            .collect();
        assert!(codes.contains(&(Value::Null, -32700)), "{written}");
        assert!(codes.contains(&(json!(7), -32600)), "{written}");
    }
}
