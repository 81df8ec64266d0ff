//! `/console/api/events`: a WebSocket between the page and the console on which the page
//! watches one declared event. The console opens its own WebSocket to the plant (with the
//! page's credential, which the page sends in its first message rather than in the URL),
//! subscribes in the event's style (accord's `rpc.subscribe` or the wire's pubsub methods),
//! and passes each payload on with the verdict of accord-validate against the event's type.
//!
//! Page to console: `{"subscribe": "ns.event", "credential": TOKEN?}` first, then
//! `{"emit": true}` to have accord serve's fake send one (`rpc.fake` `emit`).
//! Console to page: `{"type": "subscribed"}`, `{"type": "event", "payload", "check"}`,
//! `{"type": "emitted", "answer"}`, `{"type": "error", "error"}`.

use std::sync::Arc;

use accord_schema_model::EventRoute;
use accord_validate::Target;
use accord_wire::RoutedEvent;
use axum::Router;
use axum::extract::State as Extract;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use axum::routing::get;
use futures_util::{SinkExt as _, StreamExt as _};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message as UpMessage;

use crate::State;
use crate::known::Known;

pub(crate) fn routes() -> Router<Arc<State>> {
    Router::new().route("/console/api/events", get(upgrade))
}

async fn upgrade(Extract(state): Extract<Arc<State>>, ws: WebSocketUpgrade) -> Response {
    // Browsers let any page open a WebSocket anywhere (no CORS), and send its Origin: the
    // guard in front of every route (src/guard.rs) refuses an Origin not the console's own.
    ws.on_upgrade(move |socket| watch(state, socket))
}

/// Sends the page one message; `false` when the page is gone.
async fn tell(page: &mut WebSocket, message: Value) -> bool {
    page.send(Message::Text(message.to_string().into())).await.is_ok()
}

async fn fail(page: &mut WebSocket, error: impl Into<String>) {
    let _ = tell(page, json!({"type": "error", "error": error.into()})).await;
}

/// The first message: which event, with which credential.
fn read_subscribe(text: &str) -> Option<(String, Option<String>)> {
    let value: Value = serde_json::from_str(text).ok()?;
    let event = value.get("subscribe")?.as_str()?.to_owned();
    let credential = value
        .get("credential")
        .and_then(Value::as_str)
        .filter(|t| !t.is_empty())
        .map(str::to_owned);
    Some((event, credential))
}

async fn watch(state: Arc<State>, mut page: WebSocket) {
    let Some(Ok(Message::Text(first))) = page.recv().await else { return };
    let Some((event, credential)) = read_subscribe(first.as_str()) else {
        return fail(&mut page, "the first message must be {\"subscribe\": \"namespace.event\"}")
            .await;
    };
    let token = credential.or_else(|| state.token.clone());
    if !state.admitted(&token) {
        return fail(&mut page, "the plant has not given this credential its full describe answer")
            .await;
    }
    let Some(known) = state.known() else {
        return fail(&mut page, "the console does not know the contract yet").await;
    };
    let Some(route) = known.event(&event).cloned() else {
        return fail(&mut page, format!("the contract has no event `{event}`")).await;
    };
    let Some(upstream) = state.upstream.get() else {
        return fail(&mut page, "the console has no plant yet").await;
    };
    let mut plant = match upstream.socket(token.as_deref()).await {
        Ok(Ok(socket)) => socket,
        Ok(Err(status)) => {
            return fail(&mut page, format!("the plant refused the WebSocket: HTTP {status}"))
                .await;
        }
        Err(err) => return fail(&mut page, err.to_string()).await,
    };
    let (method, params) = RoutedEvent { event: &event, route: &route }.subscribe();
    let subscribe = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    if plant.send(UpMessage::Text(subscribe.to_string().into())).await.is_err() {
        return fail(&mut page, "the plant closed the WebSocket").await;
    }
    let mut subscription: Option<Value> = None;
    let mut next_id = 2u64;
    loop {
        tokio::select! {
            from_page = page.recv() => match from_page {
                Some(Ok(Message::Text(text))) => {
                    let wants_emit = serde_json::from_str::<Value>(text.as_str())
                        .ok()
                        .and_then(|v| v.get("emit").and_then(Value::as_bool))
                        == Some(true);
                    if wants_emit && state.fake {
                        let emit = json!({"jsonrpc": "2.0", "id": next_id, "method": accord_wire::fake::METHOD, "params": {"emit": event}});
                        next_id += 1;
                        if plant.send(UpMessage::Text(emit.to_string().into())).await.is_err() {
                            break;
                        }
                    }
                }
                Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                Some(Ok(_)) => {}
            },
            from_plant = plant.next() => match from_plant {
                Some(Ok(UpMessage::Text(text))) => {
                    let Ok(message) = serde_json::from_str::<Value>(text.as_str()) else { continue };
                    let told = match pass_on(&known, &event, &route, &mut subscription, &message) {
                        Some(out) => tell(&mut page, out).await,
                        None => true,
                    };
                    if !told {
                        break;
                    }
                }
                Some(Ok(UpMessage::Close(_)) | Err(_)) | None => {
                    fail(&mut page, "the plant closed the WebSocket").await;
                    break;
                }
                Some(Ok(_)) => {}
            },
        }
    }
    let _ = plant.close(None).await;
}

/// What one message of the plant tells the page, if anything: the subscribe answer, an emit's
/// answer, or a notification of this subscription with its payload checked.
fn pass_on(
    known: &Known,
    event: &str,
    route: &EventRoute,
    subscription: &mut Option<Value>,
    message: &Value,
) -> Option<Value> {
    if let Some(id) = message.get("id").and_then(Value::as_u64) {
        if let Some(error) = message.get("error") {
            return Some(json!({"type": "error", "error": format!("the plant answered {error}")}));
        }
        let result = message.get("result")?;
        if id == 1 {
            *subscription = Some(result.clone());
            return Some(json!({"type": "subscribed", "subscription": result}));
        }
        return Some(json!({"type": "emitted", "answer": result}));
    }
    let payload = RoutedEvent { event, route }.read_for(subscription.as_ref()?, message).ok()?;
    let (namespace, name) = event.split_once('.')?;
    let target = Target::Event { namespace: namespace.to_owned(), event: name.to_owned() };
    let errors = known.check(&target, &payload);
    Some(json!({
        "type": "event",
        "payload": payload,
        "check": {"valid": errors.is_empty(), "errors": errors},
    }))
}
