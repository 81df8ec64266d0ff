//! Subscribing by an event's route: the calls a caller sends and the notifications both ends
//! read and write, on accord's route and on a pubsub one (docs/wire.md §7, §11.3).

use accord_schema_model::{EventRoute, PubsubRoute};
use accord_wire::RoutedEvent;
use accord_wire::subscription::{Notice, Unread};
use serde_json::json;

fn geth_heads() -> EventRoute {
    EventRoute::Pubsub(PubsubRoute {
        subscribe: "eth_subscribe".into(),
        params: vec![json!("newHeads")],
        notification: "eth_subscription".into(),
        unsubscribe: "eth_unsubscribe".into(),
    })
}

#[test]
fn accord_route_subscribes_with_rpc_subscribe_and_reads_rpc_event() {
    let route = EventRoute::Accord;
    let status = RoutedEvent { event: "pump.status", route: &route };
    assert_eq!(status.subscribe(), ("rpc.subscribe", json!({"event": "pump.status"})));
    assert_eq!(
        status.unsubscribe(&json!("sub-1")),
        ("rpc.unsubscribe", json!({"subscription": "sub-1"}))
    );
    assert_eq!(status.subscription_id(&json!("sub-1")), Some(json!("sub-1")));
    assert_eq!(status.subscription_id(&json!(1)), None, "accord's ids are strings");

    let sent = status.notification("sub-1", json!({"rpm": 3}));
    assert_eq!(
        sent,
        json!({"jsonrpc": "2.0", "method": "rpc.event",
               "params": {"subscription": "sub-1", "event": "pump.status", "payload": {"rpm": 3}}})
    );
    assert_eq!(status.read_for(&json!("sub-1"), &sent), Ok(json!({"rpm": 3})));
    assert!(matches!(
        status.read_for(&json!("sub-2"), &sent),
        Err(Unread::OtherSubscription { .. })
    ));
    let other = RoutedEvent { event: "pump.alarm", route: &route };
    assert!(matches!(other.read(&sent), Err(Unread::OtherEvent { .. })));
    let response = json!({"jsonrpc": "2.0", "id": 1, "result": "sub-1"});
    assert!(matches!(status.read(&response), Err(Unread::OtherMethod { .. })));
    let no_payload = json!({"jsonrpc": "2.0", "method": "rpc.event",
                            "params": {"subscription": "sub-1", "event": "pump.status"}});
    let Err(Unread::Malformed(reason)) = status.read(&no_payload) else { panic!() };
    assert!(reason.contains("payload"), "{reason}");
}

#[test]
fn pubsub_route_subscribes_by_its_params_and_reads_its_notification() {
    let route = geth_heads();
    let heads = RoutedEvent { event: "eth.newHeads", route: &route };
    assert_eq!(heads.subscribe(), ("eth_subscribe", json!(["newHeads"])));
    assert_eq!(heads.unsubscribe(&json!("0x9c")), ("eth_unsubscribe", json!(["0x9c"])));
    assert_eq!(heads.subscription_id(&json!(7)), Some(json!(7)), "jsonrpsee's integer ids");
    assert_eq!(heads.subscription_id(&json!(true)), None);
    assert_eq!(heads.notification_method(), "eth_subscription");

    let sent = heads.notification("0x9c", json!({"number": "0x1"}));
    assert_eq!(
        sent,
        json!({"jsonrpc": "2.0", "method": "eth_subscription",
               "params": {"subscription": "0x9c", "result": {"number": "0x1"}}})
    );
    assert_eq!(
        heads.read(&sent),
        Ok(Notice { subscription: json!("0x9c"), payload: json!({"number": "0x1"}) })
    );
    // Ids are compared as JSON: the string "7" is not the integer 7.
    let numbered = json!({"jsonrpc": "2.0", "method": "eth_subscription",
                          "params": {"subscription": 7, "result": null}});
    assert_eq!(heads.read_for(&json!(7), &numbered), Ok(json!(null)));
    assert!(heads.read_for(&json!("7"), &numbered).is_err());
    // accord's notification is not this route's.
    let accord = json!({"jsonrpc": "2.0", "method": "rpc.event",
                        "params": {"subscription": "0x9c", "event": "eth.newHeads", "payload": 1}});
    let Err(unread) = heads.read(&accord) else { panic!() };
    assert_eq!(
        unread.to_string(),
        "a message that is neither a response awaited nor a `eth_subscription` notification"
    );
    for (message, missing) in [
        (
            json!({"method": "eth_subscription", "params": {"subscription": 1, "result": 2}}),
            "jsonrpc",
        ),
        (json!({"jsonrpc": "2.0", "method": "eth_subscription", "params": [1, 2]}), "params"),
        (
            json!({"jsonrpc": "2.0", "method": "eth_subscription", "params": {"result": 2}}),
            "subscription",
        ),
        (
            json!({"jsonrpc": "2.0", "method": "eth_subscription", "params": {"subscription": 1}}),
            "result",
        ),
    ] {
        let Err(Unread::Malformed(reason)) = heads.read(&message) else { panic!("{message}") };
        assert!(reason.contains(missing), "{reason} should name {missing}");
    }
}
