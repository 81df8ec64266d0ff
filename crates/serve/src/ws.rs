//! The WebSocket on `GET /` (docs/wire.md §1, §7, §9): the credential of the upgrade request
//! holds for the whole connection, the connection limit is checked before the upgrade, and each
//! text message is answered like an HTTP body; subscriptions live and end with the connection.
//!
//! The upgrade is done here (RFC 6455 §4.2) rather than by axum's extractor so that the
//! upgraded connection can be read through [`FrameWatch`]: a frame or fragmented message that
//! stalls half-way is closed after the read timeout, while an idle socket waits for ever.

use std::sync::Arc;
use std::time::Duration;

use accord_wire::{Access, limits};
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, header};
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use hyper_util::rt::TokioIo;
use tokio::sync::OwnedSemaphorePermit;
use tokio::time::{Instant, Interval};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, Role, WebSocketConfig};
use tokio_tungstenite::tungstenite::{Error as WsError, Message};

use crate::events::Subscriptions;
use crate::frame_watch::{self, FrameWatch};
use crate::http::{access_of, json, refused};
use crate::plant::{Session, Transport};
use crate::server::Shared;

type Socket = WebSocketStream<FrameWatch<TokioIo<hyper::upgrade::Upgraded>>>;

/// The handler of `GET /`.
pub(crate) async fn upgrade(State(shared): State<Arc<Shared>>, mut request: Request) -> Response {
    let access = access_of(&shared, request.headers());
    if access == Access::Refused {
        return refused(&shared);
    }
    let accept = match accept_key(request.method(), request.headers()) {
        Ok(accept) => accept,
        Err(why) => return not_an_upgrade(why),
    };
    let Ok(permit) = shared.connections.clone().try_acquire_owned() else {
        return json(StatusCode::SERVICE_UNAVAILABLE, shared.plant.limit(limits::CONNECTIONS));
    };
    // Messages up to the limit are answered; those past it, up to this hard cap, get -32003;
    // past the cap the frame is not read at all and the socket closes with 1009 (too big).
    let cap = hard_cap(shared.plant.limits.body_bytes);
    let config = WebSocketConfig::default().max_message_size(Some(cap)).max_frame_size(Some(cap));
    // Resolves once hyper has sent the 101 below and handed the connection over.
    let on_upgrade = hyper::upgrade::on(&mut request);
    tokio::spawn(async move {
        let upgraded = match on_upgrade.await {
            Ok(upgraded) => upgraded,
            Err(error) => {
                tracing::info!(transport = "websocket", %error, "upgrade failed");
                return;
            }
        };
        let io = FrameWatch::new(TokioIo::new(upgraded), shared.read_timeout);
        let socket = WebSocketStream::from_raw_socket(io, Role::Server, Some(config)).await;
        run(socket, shared, access, permit).await;
    });
    let mut response = Response::new(Body::empty());
    *response.status_mut() = StatusCode::SWITCHING_PROTOCOLS;
    let headers = response.headers_mut();
    headers.insert(header::CONNECTION, HeaderValue::from_static("upgrade"));
    headers.insert(header::UPGRADE, HeaderValue::from_static("websocket"));
    headers.insert(header::SEC_WEBSOCKET_ACCEPT, accept);
    response
}

/// The `Sec-WebSocket-Accept` answering a valid upgrade request, or what is wrong with it.
fn accept_key(method: &Method, headers: &HeaderMap) -> Result<HeaderValue, &'static str> {
    if method != Method::GET {
        return Err("the method was not GET");
    }
    if !has_token(headers, header::CONNECTION, "upgrade") {
        return Err("Connection header did not include 'upgrade'");
    }
    if !has_token(headers, header::UPGRADE, "websocket") {
        return Err("Upgrade header did not include 'websocket'");
    }
    if !has_token(headers, header::SEC_WEBSOCKET_VERSION, "13") {
        return Err("Sec-WebSocket-Version header was not 13");
    }
    let key = headers
        .get(header::SEC_WEBSOCKET_KEY)
        .filter(|key| !key.is_empty())
        .ok_or("Sec-WebSocket-Key header missing")?;
    // Base64 is always a valid header value.
    HeaderValue::try_from(derive_accept_key(key.as_bytes()))
        .map_err(|_| "Sec-WebSocket-Key header could not be answered")
}

/// Whether one of the comma-separated values of the `name` headers is `token` (any case).
fn has_token(headers: &HeaderMap, name: HeaderName, token: &str) -> bool {
    headers.get_all(name).iter().any(|value| {
        value.to_str().is_ok_and(|v| v.split(',').any(|t| t.trim().eq_ignore_ascii_case(token)))
    })
}

/// The 426 of a GET that is not an upgrade: say what GET / is for, as JSON-RPC like the rest.
fn not_an_upgrade(why: &str) -> Response {
    let reason =
        format!("GET / is the WebSocket upgrade ({why}); send JSON-RPC over HTTP with POST /");
    let mut response = json(
        StatusCode::UPGRADE_REQUIRED,
        crate::encode::refusal(accord_wire::RpcError::invalid_request(&reason)),
    );
    response.headers_mut().insert(header::UPGRADE, HeaderValue::from_static("websocket"));
    response
}

/// The largest message a WebSocket reads: four times the limit, and at least 64 KiB past it.
pub(crate) fn hard_cap(limit: usize) -> usize {
    limit.saturating_mul(4).max(limit.saturating_add(64 * 1024))
}

async fn run(socket: Socket, shared: Arc<Shared>, access: Access, _permit: OwnedSemaphorePermit) {
    let plant = &shared.plant;
    let (mut sink, mut stream) = socket.split();
    let mut subscriptions = Subscriptions::default();
    let mut ticker = plant.event_interval.map(|every| {
        let mut ticker = tokio::time::interval_at(Instant::now() + every, every);
        // A connection held up (a delayed answer) skips the ticks it missed, not bursts them.
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        ticker
    });
    let mut shutdown = shared.shutdown.clone();
    tracing::info!(transport = "websocket", ?access, "connection opened");
    loop {
        let mut outbox = Vec::new();
        let mut reply = None;
        tokio::select! {
            message = stream.next() => {
                let bytes = match message {
                    None | Some(Ok(Message::Close(_))) => break,
                    Some(Ok(Message::Text(text))) => text.as_bytes().to_vec(),
                    Some(Ok(Message::Binary(bytes))) => bytes.to_vec(),
                    // Pings are answered by tungstenite; raw frames are never read.
                    Some(Ok(Message::Ping(_) | Message::Pong(_) | Message::Frame(_))) => continue,
                    Some(Err(WsError::Io(error))) if frame_watch::is_stalled(&error) => {
                        let timeout_ms = shared.read_timeout.as_millis() as u64;
                        tracing::info!(
                            transport = "websocket", timeout_ms, "frame stalled; closing"
                        );
                        let reason = format!("read timeout: a frame stalled for {timeout_ms} ms");
                        // Written only if it can be (a peer that reads nothing gets no close).
                        let closing = sink.send(close(CloseCode::Policy, &reason));
                        let _ = tokio::time::timeout(CLOSE_WRITE, closing).await;
                        break;
                    }
                    Some(Err(error)) => {
                        tracing::info!(transport = "websocket", %error, "message refused; closing");
                        let reason = format!("limit {}: max {} bytes (or a broken frame)", limits::BODY_BYTES, plant.limits.body_bytes);
                        let _ = sink.send(close(CloseCode::Size, &reason)).await;
                        break;
                    }
                };
                let mut session = Session {
                    transport: Transport::WebSocket,
                    access,
                    subscriptions: Some(&mut subscriptions),
                    outbox: Vec::new(),
                };
                reply = plant.answer(&bytes, &mut session).await;
                outbox = session.outbox;
            }
            () = tick(&mut ticker) => {
                plant.notify(&mut subscriptions, None, &mut outbox);
            }
            _ = shutdown.changed() => {
                let _ = sink.send(close(CloseCode::Away, "the plant is shutting down")).await;
                break;
            }
        }
        for message in outbox.into_iter().chain(reply) {
            match sink.send(Message::Text(text(message).into())).await {
                Ok(()) => {}
                // The socket's write timeout (server.rs): the peer has stopped reading.
                Err(WsError::Io(error)) if error.kind() == std::io::ErrorKind::TimedOut => {
                    let timeout_ms = shared.write_timeout.as_millis() as u64;
                    tracing::info!(transport = "websocket", timeout_ms, "write stalled; closing");
                    return;
                }
                Err(_) => {
                    tracing::info!(transport = "websocket", "connection lost");
                    return;
                }
            }
        }
    }
    tracing::info!(transport = "websocket", "connection closed");
}

/// How long the close after a stalled frame may take to write.
const CLOSE_WRITE: Duration = Duration::from_secs(1);

fn close(code: CloseCode, reason: &str) -> Message {
    Message::Close(Some(CloseFrame { code, reason: reason.into() }))
}

fn text(bytes: Vec<u8>) -> String {
    // The plant writes JSON through serde_json, which writes UTF-8 only.
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

async fn tick(ticker: &mut Option<Interval>) {
    match ticker {
        Some(ticker) => {
            ticker.tick().await;
        }
        None => std::future::pending().await,
    }
}
