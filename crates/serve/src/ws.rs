//! The WebSocket on `GET /` (docs/wire.md §1, §7, §9): the credential of the upgrade request
//! holds for the whole connection, the connection limit is checked before the upgrade, and each
//! text message is answered like an HTTP body; subscriptions live and end with the connection.
//!
//! The upgrade is done here (RFC 6455 §4.2) rather than by axum's extractor so that the
//! upgraded connection can be read through [`FrameWatch`]: a frame or fragmented message that
//! stalls half-way is closed after the read timeout, while an idle socket waits for ever.

use std::sync::Arc;

use accord_wire::{Access, limits};
use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, header};
use axum::response::Response;
use futures_util::StreamExt;
use hyper_util::rt::TokioIo;
use tokio::sync::OwnedSemaphorePermit;
use tokio::time::{Instant, Interval};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;
use tokio_tungstenite::tungstenite::protocol::Role;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

use crate::frame_watch::FrameWatch;
use crate::http::{access_of, json, refused};
use crate::server::Shared;
use crate::slots::Conn;
use crate::ws_close::{Ending, close};
use crate::ws_send::{self, Outbox, Socket};
use accord_plant::{Session, Subscriptions, Transport};

/// The handler of `GET /`.
pub(crate) async fn upgrade(shared: Arc<Shared>, conn: &Conn, mut request: Request) -> Response {
    let access = access_of(&shared, request.headers());
    if access == Access::Refused {
        return refused(&shared);
    }
    let accept = match accept_key(request.method(), request.headers()) {
        Ok(accept) => accept,
        Err(why) => return not_an_upgrade(why),
    };
    // The WebSocket keeps its connection's slot, and is never closed to make room.
    let Some(permit) = conn.take_permit() else {
        return json(StatusCode::SERVICE_UNAVAILABLE, shared.plant.limit(limits::CONNECTIONS));
    };
    shared.slots.forget(conn);
    // Messages up to the limit are answered; those past it, up to this hard cap, get -32003;
    // past the cap the frame is not read at all and the socket closes with 1009 (too big).
    let config = ws_send::config(hard_cap(shared.plant.limits.engine.body_bytes));
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
        accord_wire::encode::refusal(accord_wire::RpcError::invalid_request(&reason)),
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
    let (sink, mut stream) = socket.split();
    let mut outbox = Outbox::new(sink);
    let mut subscriptions = Subscriptions::default();
    let mut declared = accord_plant::Declared::default();
    let mut ticker = plant.event_interval.map(|every| {
        let mut ticker = tokio::time::interval_at(Instant::now() + every, every);
        // A connection held up (a delayed answer) skips the ticks it missed, not bursts them.
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        ticker
    });
    let mut shutdown = shared.shutdown.clone();
    tracing::info!(transport = "websocket", ?access, "connection opened");
    loop {
        tokio::select! {
            message = stream.next() => {
                let bytes = match message {
                    None => break,
                    // tungstenite queues the reply to a Close frame (RFC 6455 §5.5.1: the
                    // endpoint answers with a Close of its own) but writes it only on the next
                    // write or flush: flush it, or the peer sees the connection drop (1006).
                    Some(Ok(Message::Close(_))) => {
                        crate::ws_close::reply_to_close(&mut outbox).await;
                        break;
                    }
                    Some(Ok(Message::Text(text))) => text.as_bytes().to_vec(),
                    Some(Ok(Message::Binary(bytes))) => bytes.to_vec(),
                    // Pings are answered by tungstenite; raw frames are never read.
                    Some(Ok(Message::Ping(_) | Message::Pong(_) | Message::Frame(_))) => continue,
                    Some(Err(error)) => {
                        Ending::of_read(&error, &shared).close(&mut outbox).await;
                        return;
                    }
                };
                // Notifications of an emit are sent while it runs, before the answer.
                let mut session = Session {
                    transport: Transport::WebSocket,
                    access,
                    subscriptions: Some(&mut subscriptions),
                    declared: Some(&mut declared),
                };
                if let Some(reply) = plant.answer(&bytes, &mut session, Some(&mut outbox)).await {
                    outbox.send(reply).await;
                }
            }
            () = tick(&mut ticker) => {
                plant.notify(&mut subscriptions, None, &mut outbox).await;
            }
            _ = shutdown.changed() => {
                let _ = outbox.send_raw(close(CloseCode::Away, "the plant is shutting down")).await;
                break;
            }
        }
        if let Some(error) = outbox.failure() {
            Ending::of_send(&error, &shared).close(&mut outbox).await;
            return;
        }
    }
    tracing::info!(transport = "websocket", "connection closed");
}

async fn tick(ticker: &mut Option<Interval>) {
    match ticker {
        Some(ticker) => {
            ticker.tick().await;
        }
        None => std::future::pending().await,
    }
}
