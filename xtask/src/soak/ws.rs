//! The least WebSocket client the soak needs (RFC 6455 over a raw socket): the upgrade, masked
//! frames out, frames in. Written by hand rather than taken from a library because the hostile
//! peers must send what no well-behaved library would (pings never followed by a read).

use std::net::SocketAddr;

use anyhow::{Context, Result, bail};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

pub(crate) const TEXT: u8 = 0x1;
pub(crate) const CLOSE: u8 = 0x8;
pub(crate) const PING: u8 = 0x9;

/// Opens a connection and upgrades it; the socket, ready for frames.
pub(crate) async fn connect(addr: SocketAddr) -> Result<TcpStream> {
    let mut stream = TcpStream::connect(addr).await.with_context(|| format!("connect {addr}"))?;
    stream.set_nodelay(true)?;
    let request = format!(
        "GET / HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: c29hay1zb2FrLXNvYWstIQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await?;
    // Byte by byte up to the blank line, so no frame that follows is read into the head.
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let byte = stream.read_u8().await.context("the upgrade's answer")?;
        head.push(byte);
        if head.len() > 16 * 1024 {
            bail!("an upgrade answer past 16 KiB");
        }
    }
    let head = String::from_utf8_lossy(&head);
    if !head.starts_with("HTTP/1.1 101") {
        bail!("upgrade refused: {}", head.lines().next().unwrap_or(""));
    }
    Ok(stream)
}

/// One client frame (masked, as a client must), FIN set.
pub(crate) fn frame(opcode: u8, payload: &[u8]) -> Vec<u8> {
    let mask = [0x5a, 0x17, 0xc3, 0x81];
    let mut out = Vec::with_capacity(payload.len() + 14);
    out.push(0x80 | opcode);
    match payload.len() {
        n if n < 126 => out.push(0x80 | n as u8),
        n if n <= usize::from(u16::MAX) => {
            out.push(0x80 | 126);
            out.extend_from_slice(&(n as u16).to_be_bytes());
        }
        n => {
            out.push(0x80 | 127);
            out.extend_from_slice(&(n as u64).to_be_bytes());
        }
    }
    out.extend_from_slice(&mask);
    out.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    out
}

/// Reads one server frame: its opcode and payload (server frames are not masked).
pub(crate) async fn read_frame(stream: &mut TcpStream) -> Result<(u8, Vec<u8>)> {
    let first = stream.read_u8().await?;
    let second = stream.read_u8().await?;
    let length = match second & 0x7f {
        126 => u64::from(stream.read_u16().await?),
        127 => stream.read_u64().await?,
        n => u64::from(n),
    };
    if length > 64 << 20 {
        bail!("a server frame of {length} bytes");
    }
    let mut payload = vec![0; length as usize];
    stream.read_exact(&mut payload).await?;
    Ok((first & 0x0f, payload))
}

/// Reads frames until a text frame: its text (pings from the server are not expected).
pub(crate) async fn read_text(stream: &mut TcpStream) -> Result<String> {
    loop {
        let (opcode, payload) = read_frame(stream).await?;
        match opcode {
            TEXT => return Ok(String::from_utf8_lossy(&payload).into_owned()),
            CLOSE => bail!("closed by the server: {}", close_reason(&payload)),
            _ => {}
        }
    }
}

/// A close frame's code and reason, as text.
pub(crate) fn close_reason(payload: &[u8]) -> String {
    if payload.len() < 2 {
        return "no code".to_owned();
    }
    let code = u16::from_be_bytes([payload[0], payload[1]]);
    format!("{code} {}", String::from_utf8_lossy(&payload[2..]))
}
