//! The page's three files, built into the binary: nothing is fetched at run time (plants sit on
//! closed networks), and a Content-Security-Policy says so to the browser too.

use std::sync::Arc;

use axum::Router;
use axum::extract::State as Extract;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use crate::State;

const INDEX: &str = include_str!("../assets/index.html");
const STYLE: &str = include_str!("../assets/console.css");
const SCRIPT: &str = include_str!("../assets/console.js");

/// Only the console's own origin: its files, its API and its WebSocket.
const POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

pub(crate) fn routes() -> Router<Arc<State>> {
    Router::new()
        .route("/console", get(index))
        .route("/console/", get(index))
        .route("/console/console.css", get(|| async { asset(STYLE, "text/css; charset=utf-8") }))
        .route(
            "/console/console.js",
            get(|| async { asset(SCRIPT, "text/javascript; charset=utf-8") }),
        )
}

/// The page, with a new page session (src/page.rs): the secret its confirmations are bound to.
async fn index(Extract(state): Extract<Arc<State>>) -> Response {
    let Some(secret) = state.pages.lock().ok().and_then(|mut pages| pages.open()) else {
        return crate::api::problem(
            StatusCode::INTERNAL_SERVER_ERROR,
            "no randomness to make the page's session with",
        );
    };
    let mut response = asset(INDEX, "text/html; charset=utf-8");
    if let Ok(cookie) = HeaderValue::from_str(&crate::page::set_cookie(&secret)) {
        response.headers_mut().insert(header::SET_COOKIE, cookie);
    }
    // Each load is a new session: the page must not be served from a cache.
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

fn asset(body: &'static str, content_type: &'static str) -> Response {
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(POLICY));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    response
}
