//! accord-client against `accord serve`'s engine on 127.0.0.1:0: calls by contract name over
//! HTTP and WebSocket, the credential, a foreign wire, and events by both subscription styles.

use std::path::PathBuf;
use std::time::Duration;

use accord_client::{Client, Collect, Error, Reply, Transport};
use accord_schema_model::{Dialect, Document};
use accord_serve::{Config, Server};
use serde_json::{Value, json};

const TIMEOUT: Duration = Duration::from_secs(10);

fn contract(name: &str) -> Document {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../../fixtures/contracts/{name}.types.json"));
    Document::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
}

async fn plant(name: &str, token: Option<&str>) -> (Server, Dialect) {
    let doc = contract(name);
    let dialect = Dialect::of(&doc).unwrap();
    let mut config = Config::default();
    config.addr = "127.0.0.1:0".parse().unwrap();
    config.token = token.map(str::to_owned);
    (accord_serve::start(doc, config).await.unwrap(), dialect)
}

fn result(answer: Reply) -> Value {
    match answer {
        Reply::Result(v) => v,
        Reply::Error(e) => panic!("an error answer: {e:?}"),
    }
}

#[tokio::test]
async fn a_method_is_called_by_its_contract_name_over_http_and_websocket() {
    let (server, dialect) = plant("pump-plant", None).await;
    let http = Client::new(dialect.clone(), &server.url(), None, TIMEOUT).unwrap();
    assert_eq!(http.transport(), Transport::Http);
    // The example whose params match answers: the plant's own answer comes back untouched.
    let status = result(http.call("pump.status", Some(json!({"pump": "P-101"}))).await.unwrap());
    assert_eq!(status["pump"], "P-101");
    assert_eq!(status["state"], "running");

    let ws = Client::new(dialect, &server.ws_url(), None, TIMEOUT).unwrap();
    assert_eq!(ws.transport(), Transport::WebSocket);
    // Two calls on the one socket, each answered by its own id.
    for _ in 0..2 {
        let again = result(ws.call("pump.status", Some(json!(["P-101"]))).await.unwrap());
        assert_eq!(again, status);
    }
    server.shutdown().await;
}

#[tokio::test]
async fn error_objects_come_back_as_answers_and_unknown_names_are_refused_before_sending() {
    let (server, dialect) = plant("pump-plant", None).await;
    let client = Client::new(dialect, &server.url(), None, TIMEOUT).unwrap();
    let Reply::Error(error) = client.call("pump.status", Some(json!({"pump": 7}))).await.unwrap()
    else {
        panic!("invalid params must be answered with an error");
    };
    assert_eq!(error.code, -32602);
    assert!(error.data.is_some(), "the plant's data is kept: {error:?}");
    assert_eq!(
        client.call("pump.explode", None).await,
        Err(Error::UnknownMethod("pump.explode".to_owned()))
    );
    // The describe method comes from the dialect (accord's `rpc.describe` here).
    let describe = result(client.describe(None).await.unwrap());
    assert!(describe.get("contract").is_some(), "{describe}");
    server.shutdown().await;
}

#[tokio::test]
async fn the_token_is_sent_as_a_bearer_credential_on_both_transports() {
    let (server, dialect) = plant("pump-plant", Some("s3cret")).await;
    for url in [server.url(), server.ws_url()] {
        let without = Client::new(dialect.clone(), &url, None, TIMEOUT).unwrap();
        match without.call("pump.list", None).await {
            Ok(Reply::Error(e)) => assert_eq!(e.code, -32001, "{url}"),
            Err(Error::Upgrade(401)) => {}
            other => panic!("{url}: a call without the credential got {other:?}"),
        }
        let with = Client::new(dialect.clone(), &url, Some("s3cret"), TIMEOUT).unwrap();
        assert!(result(with.call("pump.list", None).await.unwrap()).is_array(), "{url}");
    }
    server.shutdown().await;
}

#[tokio::test]
async fn a_foreign_wire_is_spoken_by_its_dialect() {
    let (server, dialect) = plant("boiler-plant", None).await;
    assert_eq!(dialect.wire_name("boiler", "status"), Some("boiler_status"));
    let client = Client::new(dialect, &server.url(), None, TIMEOUT).unwrap();
    let by_contract_name = result(client.call("boiler.status", None).await.unwrap());
    let by_wire_name = result(client.call("boiler_status", None).await.unwrap());
    assert_eq!(by_contract_name, by_wire_name);
    // boiler-plant's wire has no describe method.
    assert_eq!(client.describe(None).await, Err(Error::NoDescribe));
    server.shutdown().await;
}

#[tokio::test]
async fn events_are_collected_by_accords_subscription_and_by_pubsub() {
    let mut collect = Collect::new(3, TIMEOUT);
    collect.emit_on_fake = true;
    for (name, event) in [("pump-plant", "pump.stateChanged"), ("boiler-plant", "boiler.telemetry")]
    {
        let (server, dialect) = plant(name, None).await;
        let client = Client::new(dialect, &server.url(), None, TIMEOUT).unwrap();
        let payloads = client.collect_events(event, collect).await.unwrap();
        assert_eq!(payloads.len(), 3, "{event}: {payloads:?}");
        assert!(payloads.iter().all(Value::is_object), "{event}: {payloads:?}");
        assert_eq!(
            client.collect_events("pump.nothing", collect).await,
            Err(Error::UnknownEvent("pump.nothing".to_owned()))
        );
        server.shutdown().await;
    }
}

#[tokio::test]
async fn without_emission_a_quiet_plant_gives_what_arrived_within_the_timeout() {
    let (server, dialect) = plant("pump-plant", None).await;
    let client = Client::new(dialect, &server.url(), None, TIMEOUT).unwrap();
    let quiet = Collect::new(2, Duration::from_millis(200));
    assert_eq!(client.collect_events("valve.moved", quiet).await, Ok(vec![]));
    server.shutdown().await;
}

#[tokio::test]
async fn a_plant_that_is_not_there_is_a_connect_error_and_a_bad_url_is_refused() {
    // A port that was free a moment ago: bound, read, released.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let dialect = Dialect::of(&contract("pump-plant")).unwrap();
    for url in [format!("http://127.0.0.1:{port}"), format!("ws://127.0.0.1:{port}")] {
        let client = Client::new(dialect.clone(), &url, None, TIMEOUT).unwrap();
        let err = client.call("pump.list", None).await.unwrap_err();
        assert!(matches!(err, Error::Connect(_)), "{url}: {err:?}");
    }
    let err = Client::new(dialect, "https://example.invalid", None, TIMEOUT).unwrap_err();
    assert!(matches!(err, Error::Url { .. }), "{err:?}");
}
