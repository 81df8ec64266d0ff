//! Starting plants on 127.0.0.1:0 and talking to them with a real HTTP client (reqwest) and a
//! real WebSocket client (tokio-tungstenite).

use std::path::PathBuf;

use accord_schema_model::Document;
use accord_serve::{Config, Server};
use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

pub(crate) type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

pub(crate) fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures")
}

/// A bundled contract, `pump-plant` or `work-queue`.
pub(crate) fn contract(name: &str) -> Document {
    let path = fixtures().join(format!("contracts/{name}.types.json"));
    Document::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
}

pub(crate) fn local() -> Config {
    local_with(|_| {})
}

/// [`local`], with `set` applied to it.
pub(crate) fn local_with(set: impl FnOnce(&mut Config)) -> Config {
    let mut config = Config::default();
    config.addr = "127.0.0.1:0".parse().unwrap();
    set(&mut config);
    config
}

pub(crate) async fn pump(config: Config) -> Server {
    accord_serve::start(contract("pump-plant"), config).await.unwrap()
}

/// One HTTP response: status, the headers asked about, the body as JSON (`Null` when empty).
pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) body: Value,
    pub(crate) text: String,
    pub(crate) www_authenticate: Option<String>,
}

pub(crate) async fn post(server: &Server, body: &str) -> Reply {
    post_with(server, body, None, "application/json").await
}

pub(crate) async fn post_with(
    server: &Server,
    body: &str,
    authorization: Option<&str>,
    content_type: &str,
) -> Reply {
    let client = reqwest::Client::new();
    let mut request =
        client.post(server.url()).header("Content-Type", content_type).body(body.to_owned());
    if let Some(value) = authorization {
        request = request.header("Authorization", value);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let www_authenticate =
        response.headers().get("www-authenticate").map(|v| v.to_str().unwrap().to_owned());
    let text = response.text().await.unwrap();
    let body = if text.is_empty() { Value::Null } else { serde_json::from_str(&text).unwrap() };
    Reply { status, body, text, www_authenticate }
}

/// A call's response body over HTTP.
pub(crate) async fn call(server: &Server, method: &str, params: Value) -> Value {
    let body = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    post(server, &body.to_string()).await.body
}

/// Opens a WebSocket; `Err` carries the HTTP status and body of a refused upgrade.
pub(crate) async fn ws(server: &Server, authorization: Option<&str>) -> Result<Ws, (u16, String)> {
    let mut request = server.ws_url().into_client_request().unwrap();
    if let Some(value) = authorization {
        request.headers_mut().insert("Authorization", value.parse().unwrap());
    }
    match tokio_tungstenite::connect_async(request).await {
        Ok((stream, _)) => Ok(stream),
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            let body = response.body().as_ref().map(|b| String::from_utf8_lossy(b).into_owned());
            Err((response.status().as_u16(), body.unwrap_or_default()))
        }
        Err(other) => panic!("upgrade failed: {other}"),
    }
}

pub(crate) async fn send(ws: &mut Ws, text: &str) {
    ws.send(Message::Text(text.to_owned().into())).await.unwrap();
}

/// The next text message as JSON (pings and pongs skipped); `None` when the socket closed.
pub(crate) async fn next(ws: &mut Ws) -> Option<Value> {
    loop {
        match ws.next().await? {
            Ok(Message::Text(text)) => return Some(serde_json::from_str(&text).unwrap()),
            Ok(Message::Close(_)) | Err(_) => return None,
            Ok(_) => continue,
        }
    }
}

/// The close frame's code, reading past anything else.
pub(crate) async fn close_code(ws: &mut Ws) -> Option<u16> {
    while let Some(message) = ws.next().await {
        match message {
            Ok(Message::Close(frame)) => return frame.map(|f| u16::from(f.code)),
            Ok(_) => continue,
            Err(_) => return None,
        }
    }
    None
}

pub(crate) async fn ws_call(ws: &mut Ws, method: &str, params: Value) -> Value {
    let body = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    send(ws, &body.to_string()).await;
    next(ws).await.unwrap()
}
