//! The WebSocket on `GET /` (docs/wire.md §1, §7): the credential of the upgrade request holds
//! for the whole connection, the connection limit is checked before the upgrade, and each text
//! message is answered like an HTTP body; subscriptions live and end with the connection.

use std::sync::Arc;

use accord_wire::{Access, limits};
use axum::extract::State;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade, close_code};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use tokio::sync::OwnedSemaphorePermit;
use tokio::time::{Instant, Interval};

use crate::events::Subscriptions;
use crate::http::{access_of, json, refused};
use crate::plant::{Session, Transport};
use crate::server::Shared;

/// The handler of `GET /`.
pub(crate) async fn upgrade(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Response {
    let access = access_of(&shared, &headers);
    if access == Access::Refused {
        return refused();
    }
    let upgrade = match upgrade {
        Ok(upgrade) => upgrade,
        Err(rejection) => {
            // A GET that is not an upgrade: say what GET / is for, as JSON-RPC like the rest.
            let reason = format!(
                "GET / is the WebSocket upgrade ({}); send JSON-RPC over HTTP with POST /",
                rejection.body_text()
            );
            let mut response = json(
                StatusCode::UPGRADE_REQUIRED,
                crate::encode::refusal(accord_wire::RpcError::invalid_request(&reason)),
            );
            response.headers_mut().insert(
                axum::http::header::UPGRADE,
                axum::http::HeaderValue::from_static("websocket"),
            );
            return response;
        }
    };
    let Ok(permit) = shared.connections.clone().try_acquire_owned() else {
        return json(StatusCode::SERVICE_UNAVAILABLE, shared.plant.limit(limits::CONNECTIONS));
    };
    // Messages up to the limit are answered; those past it, up to this hard cap, get -32003;
    // past the cap the frame is not read at all and the socket closes with 1009 (too big).
    let cap = hard_cap(shared.plant.limits.body_bytes);
    upgrade
        .max_message_size(cap)
        .max_frame_size(cap)
        .on_upgrade(move |socket| run(socket, shared, access, permit))
}

/// The largest message a WebSocket reads: four times the limit, and at least 64 KiB past it.
pub(crate) fn hard_cap(limit: usize) -> usize {
    limit.saturating_mul(4).max(limit.saturating_add(64 * 1024))
}

async fn run(
    socket: WebSocket,
    shared: Arc<Shared>,
    access: Access,
    _permit: OwnedSemaphorePermit,
) {
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
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Err(error)) => {
                        tracing::info!(transport = "websocket", %error, "message refused; closing");
                        let reason = format!("limit {}: max {} bytes (or a broken frame)", limits::BODY_BYTES, plant.limits.body_bytes);
                        let _ = sink.send(close(close_code::SIZE, &reason)).await;
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
                let _ = sink.send(close(close_code::AWAY, "the plant is shutting down")).await;
                break;
            }
        }
        for message in outbox.into_iter().chain(reply) {
            if sink.send(Message::Text(text(message).into())).await.is_err() {
                tracing::info!(transport = "websocket", "connection lost");
                return;
            }
        }
    }
    tracing::info!(transport = "websocket", "connection closed");
}

fn close(code: u16, reason: &str) -> Message {
    Message::Close(Some(CloseFrame { code, reason: reason.to_owned().into() }))
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
