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
    let (status, _, body) = request_with(addr, method, path, body, &format!("Host: {addr}"));
    (status, body)
}

/// [`request`] with these header lines (`Host` among them), also giving the response's head.
fn request_with(
    addr: &str,
    method: &str,
    path: &str,
    body: Option<&Value>,
    headers: &str,
) -> (u16, String, Value) {
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    let body = body.map(Value::to_string).unwrap_or_default();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\n{headers}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, head.to_owned(), serde_json::from_str(body).unwrap_or(Value::Null))
}

/// Loads the page as a browser does: the `Cookie` header line of its page session.
fn load_page(addr: &str) -> String {
    let (status, head, _) = request_with(addr, "GET", "/console", None, &format!("Host: {addr}"));
    assert_eq!(status, 200);
    let cookie = head
        .lines()
        .find_map(|l| l.strip_prefix("set-cookie: ").or_else(|| l.strip_prefix("Set-Cookie: ")))
        .expect("the page sets its session cookie");
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), "{cookie}");
    format!("Cookie: {}", cookie.split(';').next().unwrap())
}

#[test]
fn a_call_that_is_not_a_read_needs_the_confirmation_of_that_exact_call() {
    let (mut child, addr) = serve();
    let page = load_page(&addr);
    let post = |path: &str, body: Value| {
        let (status, _, body) =
            request_with(&addr, "POST", path, Some(&body), &format!("Host: {addr}\r\n{page}"));
        (status, body)
    };
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

    // A confirmation is given only to a loaded page, and spent only by it: a request that did
    // not load the page gets none, and cannot use the page's (it is spent by the attempt).
    let bare = |path: &str, body: Value| {
        let (status, _, body) =
            request_with(&addr, "POST", path, Some(&body), &format!("Host: {addr}"));
        (status, body)
    };
    let (status, refused) = bare("/console/api/confirm", typed("pump.resetRuntimeCounters"));
    assert_eq!(status, 403, "{refused}");
    assert!(refused["error"].as_str().unwrap().contains("load /console"), "{refused}");
    let other_page = load_page(&addr);
    for stranger in [None, Some(other_page.as_str())] {
        let (_, confirmed) = post("/console/api/confirm", typed("pump.resetRuntimeCounters"));
        let mut stolen = call.clone();
        stolen["confirmation"] = confirmed["confirmation"].clone();
        let (status, refused) = match stranger {
            None => bare("/console/api/call", stolen.clone()),
            Some(cookie) => {
                let headers = format!("Host: {addr}\r\n{cookie}");
                let (status, _, body) =
                    request_with(&addr, "POST", "/console/api/call", Some(&stolen), &headers);
                (status, body)
            }
        };
        assert_eq!(status, 428, "{refused}");
        assert!(refused["error"].as_str().unwrap().contains("another page"), "{refused}");
        assert_eq!(post("/console/api/call", stolen).0, 428, "spent by the attempt");
    }

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
    upgrade_as(addr, addr, origin)
}

/// [`upgrade_from`], naming `host` as the `Host`.
fn upgrade_as(addr: &str, host: &str, origin: &str) -> String {
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(std::time::Duration::from_secs(10))).unwrap();
    write!(
        stream,
        "GET /console/api/events HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nOrigin: {origin}\r\n\r\n"
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
    assert!(upgrade_from(&addr, "null").contains(" 403 "));
    // The rebinding page: its own name as Host and Origin (same origin to the browser).
    let evil = format!("rebind.evil.example:{}", addr.rsplit_once(':').unwrap().1);
    assert!(upgrade_as(&addr, &evil, &format!("http://{evil}")).contains(" 403 "));
    assert!(upgrade_from(&addr, &format!("http://{addr}")).contains(" 101 "));
    let _ = child.kill();
    let _ = child.wait();
}

/// The DNS-rebinding probe of issue 28: a page on `rebind.evil.example`, re-pointed to
/// 127.0.0.1, sends its own name as `Host` and as `Origin`; a page of another origin sends the
/// console's `Host` and its own `Origin`. Both are refused, on every route.
#[test]
fn a_foreign_host_or_origin_is_refused() {
    let (mut child, addr) = serve();
    let port = addr.rsplit_once(':').unwrap().1;
    let evil = format!("rebind.evil.example:{port}");
    let rebound = format!("Host: {evil}\r\nOrigin: http://{evil}");
    for (method, path) in [
        ("GET", "/console"),
        ("GET", "/console/api/describe"),
        ("POST", "/console/api/confirm"),
        ("POST", "/console/api/call"),
    ] {
        let body = json!({"method": "pump.resetRuntimeCounters", "params": {}});
        let (status, _, answer) = request_with(&addr, method, path, Some(&body), &rebound);
        assert_eq!(status, 403, "{method} {path}: {answer}");
        assert!(answer["error"].as_str().unwrap().contains(&evil), "{answer}");
        // The console's Host, another page's Origin: refused on what changes state.
        let foreign = format!("Host: {addr}\r\nOrigin: http://elsewhere.example");
        let (status, _, answer) = request_with(&addr, method, path, Some(&body), &foreign);
        assert_eq!(status, 403, "{method} {path}: {answer}");
        assert!(answer["error"].as_str().unwrap().contains("elsewhere.example"), "{answer}");
    }
    // The loopback names with the console's port, with the matching Origin, are served.
    for name in [format!("localhost:{port}"), addr.clone()] {
        let own = format!("Host: {name}\r\nOrigin: http://{name}");
        let (status, _, answer) = request_with(&addr, "GET", "/console/api/describe", None, &own);
        assert_eq!((status, answer["state"].as_str()), (200, Some("full")), "{name}");
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// `--allow-host NAME`: a console fronted by a proxy answers that name too, and no other.
#[test]
fn an_allowed_host_is_served() {
    let mut child = spawn_serve(&[
        PUMP,
        "--console",
        "--addr",
        "127.0.0.1:0",
        "--allow-host",
        "console.plant.lan",
    ]);
    let lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let addr = lines
        .map(Result::unwrap)
        .find_map(|l| {
            l.strip_prefix("console: http://").map(|u| u.trim_end_matches("/console").to_owned())
        })
        .unwrap();
    let named = "Host: console.plant.lan\r\nOrigin: https://console.plant.lan";
    let (status, _, answer) = request_with(&addr, "GET", "/console/api/describe", None, named);
    assert_eq!((status, answer["state"].as_str()), (200, Some("full")), "{answer}");
    let other = "Host: other.plant.lan";
    assert_eq!(request_with(&addr, "GET", "/console/api/describe", None, other).0, 403);
    let _ = child.kill();
    let _ = child.wait();
}
