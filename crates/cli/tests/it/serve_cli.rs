//! `accord serve` end to end: the banner's URL and curl example work as printed, SIGTERM stops
//! the plant with exit 0, the JSON log is JSON lines, and bad input exits 2 with its place.

use crate::common::*;

/// POSTs `body` with a raw HTTP/1.1 request; the response's status line and body.
fn post(url: &str, body: &str) -> (String, String) {
    post_with(url, "", body)
}

#[test]
fn the_banner_s_curl_example_works_and_sigterm_stops_the_plant() {
    let mut child = spawn_serve(&[PUMP, "--addr", "127.0.0.1:0", "--seed", "4"]);
    let (first, url, body) = banner(&mut child);
    assert!(first.starts_with("accord serve: riverside-pumping-station (3 namespaces, 13 methods) on http://127.0.0.1:"), "{first}");
    let (status, answer) = post(&url, &body);
    assert_eq!(status, "HTTP/1.1 200 OK");
    let answer: serde_json::Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(answer["result"][0]["pump"], "P-101", "{answer}");
    let (code, log) = terminate(&mut child);
    assert_eq!(code, 0, "{log}");
    assert!(log.contains("method=pump.list"), "{log}");
    assert!(log.contains("stopped"), "{log}");
}

#[test]
fn the_json_log_is_one_object_per_line() {
    let mut child = spawn_serve(&[PUMP, "--addr", "127.0.0.1:0", "--log-format", "json"]);
    let (_, url, _) = banner(&mut child);
    post(
        &url,
        r#"{"jsonrpc": "2.0", "id": 1, "method": "pump.runSelfTest", "params": {"pump": "P-101"}}"#,
    );
    let (code, log) = terminate(&mut child);
    assert_eq!(code, 0);
    let lines: Vec<serde_json::Value> =
        log.lines().map(|l| serde_json::from_str(l).expect(l)).collect();
    let call = lines.iter().find(|l| l["method"] == "pump.runSelfTest").expect(&log);
    assert_eq!(call["semantics"], "undeclared");
}

#[test]
fn a_bad_scenario_or_token_file_exits_2_naming_the_place() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("serve-bad-input");
    std::fs::create_dir_all(&dir).unwrap();
    let scenario = dir.join("bad.scenario.json");
    std::fs::write(
        &scenario,
        "{\"scenario\": 1, \"answers\": [\n  {\"method\": \"pump.fly\", \"result\": 1}\n]}",
    )
    .unwrap();
    let out =
        accord(&["serve", PUMP, "--addr", "127.0.0.1:0", "--scenario", scenario.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("bad.scenario.json:2:4: the contract has no method `pump.fly`"),
        "{}",
        stderr(&out)
    );
    let out = accord(&["serve", PUMP, "--token-file", dir.join("missing").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let out = accord(&["serve", "fixtures/contracts/none.types.json"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn limits_are_set_from_the_command_line() {
    let mut child = spawn_serve(&[PUMP, "--addr", "127.0.0.1:0", "--max-batch", "1"]);
    let (_, url, body) = banner(&mut child);
    let (status, answer) = post(&url, &format!("[{body}, {body}]"));
    assert_eq!(status, "HTTP/1.1 200 OK");
    let answer: serde_json::Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(answer["error"]["code"], -32003, "{answer}");
    assert_eq!(answer["error"]["data"], serde_json::json!({"limit": "batch-length", "max": 1}));
    let (status, _) = post(&url, &format!("[{body}]"));
    assert_eq!(status, "HTTP/1.1 200 OK");
    let (code, log) = terminate(&mut child);
    assert_eq!(code, 0, "{log}");
}

#[test]
fn a_timeout_of_zero_is_a_usage_error() {
    for flag in ["--read-timeout", "--write-timeout"] {
        let out = accord(&["serve", PUMP, flag, "0"]);
        assert_eq!(out.status.code(), Some(2), "{flag}");
        assert!(stderr(&out).contains(flag), "{flag}: {}", stderr(&out));
    }
}

#[test]
fn a_foreign_wire_is_served_under_its_names_and_one_that_does_not_resolve_exits_2() {
    let boiler = "fixtures/serve/boiler/boiler.types.json";
    let mut child =
        spawn_serve(&[boiler, "--addr", "127.0.0.1:0", "--prefer", "non-null,examples"]);
    let (_, url, body) = banner(&mut child);
    // The banner's example is called by its wire name.
    assert!(body.contains(r#""method":"boiler_temperature""#), "{body}");
    let (status, answer) = post(&url, &body);
    assert_eq!(status, "HTTP/1.1 200 OK");
    let answer: serde_json::Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(answer["result"]["celsius"], 71.5, "{answer}");
    let (code, _) = terminate(&mut child);
    assert_eq!(code, 0);

    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("serve-bad-wire");
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(root().join(boiler))
        .unwrap()
        .replace(r#""jsonrpsee""#, r#""grpc""#);
    let bad = dir.join("bad-wire.types.json");
    std::fs::write(&bad, text).unwrap();
    let out = accord(&["serve", bad.to_str().unwrap(), "--addr", "127.0.0.1:0"]);
    assert_eq!(out.status.code(), Some(2));
    let said = stderr(&out);
    assert!(said.contains("`grpc` is not a profile accord knows"), "{said}");
    assert!(said.contains("(at /wire/codes/profile)"), "{said}");

    let out = accord(&["serve", boiler, "--prefer", "never-null"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("`never-null` is not a preference"), "{}", stderr(&out));
}

#[test]
fn a_host_name_is_taken_as_the_address_like_conform_takes_it() {
    let mut child = spawn_serve(&[PUMP, "--addr", "localhost:0"]);
    let (first, url, body) = banner(&mut child);
    assert!(first.contains(" on http://"), "{first}");
    assert_eq!(post(&url, &body).0, "HTTP/1.1 200 OK");
    let (code, log) = terminate(&mut child);
    assert_eq!(code, 0, "{log}");
    let out = accord(&["serve", PUMP, "--addr", "no-port-here"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("is not HOST:PORT"), "{}", stderr(&out));
}

#[test]
fn errors_not_about_the_contract_do_not_name_it() {
    // A port already taken: the message is about the port, not the contract.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let out = accord(&["serve", PUMP, "--addr", &addr]);
    assert_eq!(out.status.code(), Some(2));
    let message = stderr(&out);
    assert!(message.starts_with(&format!("error: cannot listen on {addr}")), "{message}");
    assert!(!message.contains("pump-plant.types.json"), "{message}");

    // A URL that names no plant is refused before the plan is printed, without the contract.
    for url in ["ftp://127.0.0.1:1/", "http://"] {
        let out = accord(&["conform", PUMP, "--url", url]);
        assert_eq!(out.status.code(), Some(2), "{url}");
        assert!(out.stdout.is_empty(), "{url}: no plan before the refusal: {}", stdout(&out));
        let message = stderr(&out);
        assert!(message.starts_with(&format!("error: `{url}` is not a plant URL")), "{message}");
    }
}

#[test]
fn the_banner_counts_in_words_that_agree() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("serve-one");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("one.types.json");
    std::fs::write(
        &file,
        r#"{"schema": 1, "name": "one", "namespaces": {"pump": {"version": "1.0.0", "methods": {
            "status": {"semantics": "read", "result": {"kind": "string"}}}}}}"#,
    )
    .unwrap();
    let mut child = spawn_serve(&[file.to_str().unwrap(), "--addr", "127.0.0.1:0"]);
    let (first, _, _) = banner(&mut child);
    assert!(first.starts_with("accord serve: one (1 namespace, 1 method) on "), "{first}");
    let (code, log) = terminate(&mut child);
    assert_eq!(code, 0, "{log}");
}
