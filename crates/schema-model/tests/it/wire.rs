//! The `wire` section: read and written without loss, and resolved into a `Dialect` (accord's
//! own when absent), with every unresolvable member refused at its pointer.

use accord_schema_model::{
    DescribeMethod, Dialect, Document, ErrorKind, EventRoute, Profile, dialect::ACCORD_DEPTH_LIMIT,
};
use serde_json::{Value, json};

fn foreign() -> Document {
    let text = include_str!("../../../../fixtures/future/foreign-wire.types.json");
    Document::parse(text).expect("the fixture reads")
}

fn doc(value: Value) -> Document {
    Document::from_value(value).expect("the document reads")
}

fn pump(wire: Option<Value>, ns_wire: Option<Value>) -> Document {
    let mut ns = json!({
        "version": "1.0.0",
        "methods": {
            "status": {"semantics": "read", "result": {"kind": "string"}},
            "start": {"semantics": "write", "result": {"kind": "null"}}
        },
        "events": {"changed": {"payload": {"kind": "string"}}}
    });
    if let Some(w) = ns_wire {
        ns["wire"] = w;
    }
    let mut d = json!({"schema": 1, "namespaces": {"pump": ns}});
    if let Some(w) = wire {
        d["wire"] = w;
    }
    doc(d)
}

fn refusal(d: &Document) -> (String, String) {
    let err = Dialect::of(d).expect_err("the wire must be refused");
    assert!(matches!(*err.kind, ErrorKind::Wire { .. }), "{err}");
    (err.pointer.to_string(), err.kind.to_string())
}

#[test]
fn the_section_is_read_and_written_without_loss() {
    let d = foreign();
    let wire = d.wire.as_ref().expect("document wire");
    assert_eq!(wire.separator.as_deref(), Some("_"));
    assert_eq!(wire.describe, Some(DescribeMethod::None));
    assert_eq!(wire.depth_limit, Some(64));
    assert_eq!(wire.unknown.keys().collect::<Vec<_>>(), ["x-transport-notes"]);
    let codes = wire.codes.as_ref().expect("codes");
    assert_eq!(codes.profile.as_deref(), Some("eip-1474"));
    assert_eq!(codes.unknown.keys().collect::<Vec<_>>(), ["x-source"]);
    let again = Document::parse(&d.to_canonical_string()).expect("the rewrite reads");
    assert_eq!(again, d);
    assert_eq!(again.to_canonical_string(), d.to_canonical_string());
}

#[test]
fn a_wrong_member_type_is_refused_by_the_reader_at_its_pointer() {
    let bad = json!({"schema": 1, "wire": {"describe": true}});
    let err = Document::from_value(bad).expect_err("describe: true is not a name or false");
    assert_eq!(err.pointer.to_string(), "/wire/describe");
    let bad = json!({"schema": 1, "wire": {"codes": {"reserved": {"minus one": "x"}}}});
    let err = Document::from_value(bad).expect_err("a reserved key must be a code");
    assert_eq!(err.pointer.to_string(), "/wire/codes/reserved/minus one");
}

#[test]
fn no_section_is_accords_own_dialect() {
    let d = pump(None, None);
    let dialect = Dialect::of(&d).expect("resolves");
    assert!(dialect.is_accord());
    assert_eq!(dialect.describe.as_deref(), Some("rpc.describe"));
    assert_eq!(dialect.codes, Profile::Accord.codes());
    assert_eq!(dialect.depth_limit, Some(ACCORD_DEPTH_LIMIT));
    assert_eq!(dialect.method("pump.status").map(|m| m.method.as_str()), Some("status"));
    assert!(dialect.method("pump_status").is_none());
    assert_eq!(dialect.event("pump.changed"), Some(&EventRoute::Accord));
    // -32004 answers only rpc.subscribe: a contract method may declare it (docs/wire.md §4).
    assert_eq!(dialect.codes.meaning(-32004), None);
    assert_eq!(dialect.codes.meaning(-32003), Some("limit exceeded"));
}

#[test]
fn the_ethereum_shaped_fixture_resolves() {
    let d = foreign();
    let dialect = Dialect::of(&d).expect("resolves");
    assert!(!dialect.is_accord());
    assert_eq!(dialect.describe, None);
    assert_eq!(dialect.depth_limit, Some(64));
    assert_eq!(dialect.codes.profile, Profile::Eip1474);
    assert!(dialect.codes.is_invalid_params(-32000));
    assert!(dialect.codes.is_method_not_found(-32004));
    assert_eq!(dialect.codes.limit, -32005);
    assert_eq!(dialect.codes.meaning(-32015), Some("VM execution error (OpenEthereum)"));
    let balance = dialect.method("eth_getBalance").expect("by wire name");
    assert_eq!(balance.qualified(), "eth.getBalance");
    assert_eq!(dialect.resolve("eth.getBalance"), Some(balance));
    assert_eq!(dialect.resolve("eth_getBalance"), Some(balance));
    assert_eq!(dialect.wire_name("net", "peers"), Some("net_peerCount"));
    assert_eq!(dialect.resolve("net_peers"), None, "an override replaces the derived name");
    let heads = [json!("newHeads")];
    let (event, route, rest) = dialect.pubsub_event("eth_subscribe", &heads).expect("newHeads");
    assert_eq!(
        (event, route.notification.as_str(), rest.len()),
        ("eth.newHeads", "eth_subscription", 0)
    );
    let logs = [json!("logs"), json!({"address": "0x00"})];
    let (event, _, rest) = dialect.pubsub_event("eth_subscribe", &logs).expect("logs");
    assert_eq!((event, rest), ("eth.logs", &logs[1..]));
    assert!(dialect.pubsub_event("eth_subscribe", &[json!("syncing")]).is_none());
    assert!(dialect.is_pubsub_unsubscribe("eth_unsubscribe"));
}

#[test]
fn pubsub_names_are_derived_from_the_namespace() {
    let d = pump(Some(json!({"separator": "_"})), Some(json!({"pubsub": {}})));
    let dialect = Dialect::of(&d).expect("resolves");
    let Some(EventRoute::Pubsub(route)) = dialect.event("pump.changed") else {
        panic!("pubsub expected");
    };
    assert_eq!(route.subscribe, "pump_subscribe");
    assert_eq!(route.unsubscribe, "pump_unsubscribe");
    assert_eq!(route.notification, "pump_subscription");
    assert_eq!(route.params, [json!("changed")]);
}

#[test]
fn jsonrpsee_style_subscriptions_have_their_own_methods() {
    let events = json!({"changed": {
        "params": [], "subscribe": "pump_subscribeChanged",
        "notification": "pump_changed", "unsubscribe": "pump_unsubscribeChanged"
    }});
    let d = pump(
        Some(json!({"separator": "_", "codes": {"profile": "jsonrpsee"}})),
        Some(json!({"events": events})),
    );
    let dialect = Dialect::of(&d).expect("resolves");
    let (event, _, _) = dialect.pubsub_event("pump_subscribeChanged", &[]).expect("selected");
    assert_eq!(event, "pump.changed");
    assert_eq!(dialect.codes.limit, -32007);
    assert_eq!(dialect.depth_limit, None, "a foreign profile promises no depth unless it says so");
}

#[test]
fn unresolvable_wires_are_refused_at_their_pointer() {
    let cases = [
        (pump(Some(json!({"separator": "::"})), None), "/wire/separator"),
        (pump(None, Some(json!({"separator": "-"}))), "/namespaces/pump/wire/separator"),
        (pump(Some(json!({"codes": {"profile": "geth"}})), None), "/wire/codes/profile"),
        (pump(Some(json!({"codes": {"invalidParams": []}})), None), "/wire/codes/invalidParams"),
        (pump(Some(json!({"describe": ""})), None), "/wire/describe"),
        (pump(Some(json!({"methods": {"status": "x"}})), None), "/wire/methods"),
        (
            pump(None, Some(json!({"codes": {"profile": "eip-1474"}}))),
            "/namespaces/pump/wire/codes",
        ),
        (
            pump(None, Some(json!({"methods": {"stop": "pump_stop"}}))),
            "/namespaces/pump/wire/methods/stop",
        ),
        (pump(None, Some(json!({"events": {"gone": {}}}))), "/namespaces/pump/wire/events/gone"),
        (
            pump(None, Some(json!({"methods": {"start": "pump.status"}}))),
            "/namespaces/pump/methods/start",
        ),
        (pump(Some(json!({"describe": "pump.status"})), None), "/namespaces/pump/methods/status"),
        (
            pump(None, Some(json!({"pubsub": {"subscribe": "pump.start"}}))),
            "/namespaces/pump/methods/start",
        ),
    ];
    for (d, pointer) in cases {
        let (at, message) = refusal(&d);
        assert_eq!(at, pointer, "{message}");
    }
}

#[test]
fn two_namespaces_with_unqualified_names_collide() {
    let method = json!({"semantics": "read", "result": {"kind": "string"}});
    let d = doc(json!({"schema": 1, "wire": {"separator": ""}, "namespaces": {
        "a": {"version": "1.0.0", "methods": {"status": method}},
        "b": {"version": "1.0.0", "methods": {"status": method}}
    }}));
    let (at, message) = refusal(&d);
    assert_eq!(at, "/namespaces/b/methods/status");
    assert!(message.contains("`a.status` and `b.status` are both called `status`"), "{message}");
}
