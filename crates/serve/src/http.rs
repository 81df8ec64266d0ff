//! `POST /`: one request or batch per body (docs/wire.md §1), the credential read from each
//! request's `Authorization` header (§8), the body limit, the body budget and the read timeout
//! enforced while the body is read (§9).

use std::sync::Arc;

use accord_wire::{Access, RpcError, limits};
use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, Request, Response, StatusCode, header};
use futures_util::FutureExt;
use hyper::body::Incoming;

use crate::body_budget::{Read, Reading};
use crate::server::Shared;
use crate::slots::Conn;
use accord_plant::{Session, Transport};
use accord_wire::encode;

/// What the request's `Authorization` header gets it. On a wire without credential codes
/// (docs/wire.md §11.2) a missing credential is refused like a wrong one: the wire has no word
/// for the reduced access of accord's own.
pub(crate) fn access_of(shared: &Shared, headers: &HeaderMap) -> Access {
    let value = headers.get(header::AUTHORIZATION).map(|v| v.to_str().unwrap_or(""));
    shared.plant.core.access(value)
}

/// The 401 of a wrong credential: `WWW-Authenticate: Bearer` and the wire's credential-refused
/// code (`-32002`; the invalid-request code on a wire without one) with id `null`.
pub(crate) fn refused(shared: &Shared) -> Response<Body> {
    let error = shared.plant.core.protocol().credential_refused();
    tracing::info!(code = error.code, "credential refused");
    let mut response = json(StatusCode::UNAUTHORIZED, encode::refusal(error));
    response.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
    response
}

pub(crate) fn json(status: StatusCode, body: Vec<u8>) -> Response<Body> {
    let mut response = Response::new(Body::from(body));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

fn empty(status: StatusCode) -> Response<Body> {
    let mut response = Response::new(Body::empty());
    *response.status_mut() = status;
    response
}

fn declared_json(headers: &HeaderMap) -> bool {
    accord_wire::envelope::declares_json(
        headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()),
    )
}

/// The handler of `POST /`.
pub(crate) async fn post(
    shared: &Arc<Shared>,
    conn: &Conn,
    request: Request<Incoming>,
) -> Response<Body> {
    let (parts, mut body) = request.into_parts();
    let headers = &parts.headers;
    let access = access_of(shared, headers);
    if access == Access::Refused {
        return refused(shared);
    }
    if !declared_json(headers) {
        let error =
            RpcError::invalid_request("the body must be declared Content-Type: application/json");
        return json(StatusCode::UNSUPPORTED_MEDIA_TYPE, encode::refusal(error));
    }
    let max = shared.plant.limits.engine.body_bytes;
    let declared_length = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared_length.is_some_and(|n| n > max as u64) {
        return too_large(shared);
    }
    // Most bodies are in hand with the head: read them without arming a timer, and start the
    // read timeout only when the body is still on its way (or waits for the body budget); what
    // was read so far stays in `reading`.
    let budget = &shared.body_budget;
    let mut reading = Reading::default();
    let read = match reading.read(&mut body, max, budget).now_or_never() {
        Some(done) => Ok(done),
        None => {
            tokio::time::timeout(shared.read_timeout, reading.read(&mut body, max, budget)).await
        }
    };
    match read {
        Ok(Ok(Read::Whole)) => {}
        Ok(Ok(Read::TooLarge)) => return too_large(shared),
        Ok(Err(reason)) => {
            tracing::info!(%reason, "body could not be read");
            let error =
                RpcError::parse_error(1, 1, &format!("the body could not be read: {reason}"));
            return json(StatusCode::BAD_REQUEST, encode::refusal(error));
        }
        Err(_) if reading.waiting => {
            let mut response =
                json(StatusCode::SERVICE_UNAVAILABLE, shared.plant.limit(limits::BODY_MEMORY));
            // The rest of the body is not read; the connection cannot be reused.
            response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
            return response;
        }
        Err(_) => {
            tracing::info!(
                timeout_ms = shared.read_timeout.as_millis() as u64,
                "body read timed out; closing"
            );
            let mut response = empty(StatusCode::REQUEST_TIMEOUT);
            response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
            return response;
        }
    };
    let mut declared = accord_plant::Declared::default();
    let mut session = Session {
        transport: Transport::Http,
        access,
        subscriptions: None,
        declared: Some(&mut declared),
    };
    // Not closed to make room while it is answered (slots.rs).
    let _answering = conn.answering();
    match shared.plant.answer(&reading.bytes, &mut session, None).await {
        Some(answer) => json(StatusCode::OK, answer),
        None => empty(StatusCode::NO_CONTENT),
    }
}

fn too_large(shared: &Shared) -> Response<Body> {
    let mut response = json(StatusCode::PAYLOAD_TOO_LARGE, shared.plant.limit(limits::BODY_BYTES));
    // The rest of the body is not read; the connection cannot be reused.
    response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}
