//! The console's API without a browser: `accord serve CONTRACT --console` on 127.0.0.1:0, and
//! raw HTTP requests to /console/api/*. The confirmation a call that is not a read needs is
//! enforced here, whatever the page does (docs/console.md).

use std::io::{BufRead, BufReader, Read, Write};
use std::process::Child;

use crate::common::*;
use serde_json::{Value, json};

/// `accord serve PUMP --console` and the address it listens on.
fn serve() -> (Child, String) {
    let mut child = spawn_serve(&[PUMP, "--console", "--addr", "127.0.0.1:0"]);
    let lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let url = lines
        .map(Result::unwrap)
        .find_map(|l| {
            l.strip_prefix("console: http://").map(|u| u.trim_end_matches("/console").to_owned())
        })
        .expect("the banner names the console");
    (child, url)
}

/// One request on a connection of its own: the status code and the body as JSON.
fn request(addr: &str, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    let body = body.map(Value::to_string).unwrap_or_default();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

#[test]
fn a_call_that_is_not_a_read_needs_the_confirmation_of_that_exact_call() {
    let (mut child, addr) = serve();
    let post = |path: &str, body: Value| request(&addr, "POST", path, Some(&body));
    // Nothing is checked or confirmed for a page the plant has not described the contract to.
    let call = json!({"method": "pump.resetRuntimeCounters", "params": {"pump": "P-101", "workOrder": "WO-1"}});
    assert_eq!(post("/console/api/confirm", call.clone()).0, 401);
    let (status, described) = request(&addr, "GET", "/console/api/describe", None);
    assert_eq!((status, described["state"].as_str()), (200, Some("full")));
    assert_eq!(described["confirmations"]["pump.resetRuntimeCounters"]["kind"], "type-name");
    assert_eq!(described["confirmations"]["pump.runSelfTest"]["kind"], "undeclared");
    assert_eq!(described["confirmations"]["pump.status"]["kind"], "none");

    // A read is called at once.
    let (status, answer) =
        post("/console/api/call", json!({"method": "pump.status", "params": {"pump": "P-101"}}));
    assert_eq!(status, 200);
    assert_eq!(answer["check"]["valid"], true, "{answer}");
    assert!(answer["transcript"].as_str().unwrap().contains(">> {"));

    // A destructive call without its token, with the name not typed back, or with the token of
    // other params, is refused and never made.
    let (status, refused) = post("/console/api/call", call.clone());
    assert_eq!(status, 428, "{refused}");
    assert_eq!(refused["confirmation"]["kind"], "type-name");
    assert_eq!(post("/console/api/confirm", call.clone()).0, 422);
    let typed = |q: &str| {
        let mut confirm = call.clone();
        confirm["typed"] = q.into();
        confirm
    };
    assert_eq!(post("/console/api/confirm", typed("resetRuntimeCounters")).0, 422);
    let (status, confirmed) = post("/console/api/confirm", typed("pump.resetRuntimeCounters"));
    assert_eq!(status, 200);
    let token = confirmed["confirmation"].as_str().unwrap().to_owned();
    let mut other = call.clone();
    other["params"]["pump"] = "P-102".into();
    other["confirmation"] = token.clone().into();
    assert_eq!(post("/console/api/call", other).0, 428);

    // With the token of exactly this call, once.
    let (_, confirmed) = post("/console/api/confirm", typed("pump.resetRuntimeCounters"));
    let mut confirmed_call = call.clone();
    confirmed_call["confirmation"] = confirmed["confirmation"].clone();
    let (status, answer) = post("/console/api/call", confirmed_call.clone());
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["check"]["valid"], true, "{answer}");
    assert_eq!(post("/console/api/call", confirmed_call).0, 428);

    // Invalid params are flagged by accord-validate before anything is sent.
    let (status, checked) = post(
        "/console/api/validate",
        json!({"method": "pump.setSpeed", "params": {"pump": "P-101", "rpm": 99999}}),
    );
    assert_eq!(status, 200);
    assert_eq!(checked["valid"], false);
    assert_eq!(checked["errors"][0]["path"], "/rpm");
    let _ = child.kill();
    let _ = child.wait();
}

/// The head of the answer to a WebSocket upgrade of /console/api/events from `origin`.
fn upgrade_from(addr: &str, origin: &str) -> String {
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(std::time::Duration::from_secs(10))).unwrap();
    write!(
        stream,
        "GET /console/api/events HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nOrigin: {origin}\r\n\r\n"
    )
    .unwrap();
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") && stream.read(&mut byte).unwrap() == 1 {
        head.push(byte[0]);
    }
    String::from_utf8(head).unwrap().lines().next().unwrap().to_owned()
}

#[test]
fn a_page_of_another_origin_cannot_open_the_events_websocket() {
    let (mut child, addr) = serve();
    assert!(upgrade_from(&addr, "http://elsewhere.example").contains(" 403 "));
    assert!(upgrade_from(&addr, &format!("http://{addr}")).contains(" 101 "));
    let _ = child.kill();
    let _ = child.wait();
}
