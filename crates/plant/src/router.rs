//! An axum router for a plant written as a [`Dispatch`]: `POST /` and WebSocket `GET /` on one
//! path (docs/wire.md §1), accord's `rpc.subscribe` events over the WebSocket with payloads
//! checked when they are emitted ([`Plant::emit`]).

use std::sync::Arc;

use accord_wire::event::Notification;
use accord_wire::{Access, RpcError, encode};
use axum::Router;
use axum::body::Body;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{FromRequestParts, Request};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use tokio::sync::broadcast::error::RecvError;

use crate::answer::{Dispatch, Session, Transport};
use crate::core::Plant;
use crate::events::Subscriptions;
use crate::http::{access_of, metrics, post, refused};
use crate::usage::Declared;

/// The router serving `plant` with `dispatch` as its handlers on `/`, and its usage counters on
/// its metrics path when it counts usage.
pub fn router(plant: Arc<Plant>, dispatch: Arc<dyn Dispatch>) -> Router {
    let router = match plant.metrics_path() {
        Some(path) => {
            let counted = plant.clone();
            Router::new().route(
                path,
                axum::routing::get(move |request: Request| {
                    let plant = counted.clone();
                    async move {
                        metrics::<_, Body>(&plant, &request)
                            .unwrap_or_else(|| StatusCode::NOT_FOUND.into_response())
                    }
                }),
            )
        }
        None => Router::new(),
    };
    router.route(
        "/",
        axum::routing::any(move |request: Request| {
            let plant = plant.clone();
            let dispatch = dispatch.clone();
            async move { serve(plant, dispatch, request).await }
        }),
    )
}

async fn serve(plant: Arc<Plant>, dispatch: Arc<dyn Dispatch>, request: Request) -> Response {
    match *request.method() {
        axum::http::Method::POST => post::<_, Body>(&plant, request, &*dispatch).await,
        axum::http::Method::GET => {
            let access = access_of(&plant, request.headers());
            if access == Access::Refused {
                return refused::<Body>(&plant);
            }
            let (mut parts, _) = request.into_parts();
            match WebSocketUpgrade::from_request_parts(&mut parts, &()).await {
                Ok(upgrade) => {
                    let max = plant.limits().body_bytes;
                    // A message far past the limit is not read at all (docs/wire.md §9); one
                    // just past it is answered with `-32003` below.
                    upgrade
                        .max_message_size((max * 4).max(max + (64 << 10)))
                        .on_upgrade(move |socket| session(socket, plant, dispatch, access))
                }
                Err(_) => {
                    let error = RpcError::invalid_request("GET / must be a WebSocket upgrade");
                    let mut response =
                        (StatusCode::UPGRADE_REQUIRED, encode::refusal(error)).into_response();
                    response
                        .headers_mut()
                        .insert(header::UPGRADE, HeaderValue::from_static("websocket"));
                    response
                        .headers_mut()
                        .insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
                    response
                }
            }
        }
        _ => StatusCode::METHOD_NOT_ALLOWED.into_response(),
    }
}

/// One WebSocket: its messages answered in order, its subscriptions' notifications sent as
/// they are emitted.
async fn session(
    mut socket: WebSocket,
    plant: Arc<Plant>,
    dispatch: Arc<dyn Dispatch>,
    access: Access,
) {
    let mut subs = Subscriptions::new();
    let mut declared = Declared::default();
    let mut emitted = plant.emitted();
    loop {
        tokio::select! {
            message = socket.recv() => {
                let bytes = match message {
                    Some(Ok(Message::Text(text))) => text.as_str().as_bytes().to_vec(),
                    Some(Ok(Message::Binary(bytes))) => bytes.to_vec(),
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => return,
                };
                let mut session = Session {
                    transport: Transport::WebSocket,
                    access,
                    subscriptions: Some(&mut subs),
                    declared: Some(&mut declared),
                };
                if let Some(answer) = plant.answer(&bytes, &mut session, &*dispatch).await {
                    let text = String::from_utf8(answer).unwrap_or_default();
                    if socket.send(Message::Text(text.into())).await.is_err() {
                        return;
                    }
                }
            }
            event = emitted.recv() => {
                let event = match event {
                    Ok(event) => event,
                    Err(RecvError::Lagged(missed)) => {
                        tracing::warn!(missed, "a slow WebSocket missed event notifications");
                        continue;
                    }
                    Err(RecvError::Closed) => continue,
                };
                let (name, payload) = &*event;
                for id in subs.to(name) {
                    let note = Notification { subscription: id.to_owned(), event: name.clone(), payload: payload.clone() };
                    let text = serde_json::to_string(&note.to_value()).unwrap_or_default();
                    if socket.send(Message::Text(text.into())).await.is_err() {
                        return;
                    }
                }
            }
        }
    }
}
