//! Collecting an event's payloads: subscribe on a WebSocket of its own by the route the
//! `Dialect` gives (accord's `rpc.subscribe`/`rpc.event`, docs/wire.md §7, or the pubsub style of
//! §11.3), gather the notifications of that subscription, unsubscribe and close.

use std::time::Duration;

use accord_schema_model::EventRoute;
use accord_wire::RoutedEvent;
use serde_json::{Value, json};
use tokio::time::Instant;

use crate::transport::Socket;
use crate::{Client, Error, Reply, is_response_to, read_answer, request_text};

/// How many payloads to collect, and for how long.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Collect {
    /// Stop after this many payloads.
    pub count: usize,
    /// Stop when this much time has passed since the subscription was answered.
    pub timeout: Duration,
    /// Ask an `accord serve` fake to emit `count` notifications (`rpc.fake` `emit`,
    /// docs/wire.md §6). Only for a fake: a real plant would be sent a method outside its
    /// contract.
    pub emit_on_fake: bool,
}

impl Collect {
    /// Up to `count` payloads within `timeout`, without asking a fake to emit any (set
    /// [`Collect::emit_on_fake`] for that).
    pub fn new(count: usize, timeout: Duration) -> Collect {
        Collect { count, timeout, emit_on_fake: false }
    }
}

impl Client {
    /// Subscribes to the event `event` (`namespace.event`) on a WebSocket of its own and
    /// returns the payloads of its notifications: `count` of them, or fewer when the timeout
    /// passed first.
    ///
    /// # Errors
    ///
    /// [`Error::UnknownEvent`] for an event the contract does not have (nothing is sent);
    /// [`Error::Subscribe`] when the plant refuses the subscription; a transport error.
    pub async fn collect_events(&self, event: &str, collect: Collect) -> Result<Vec<Value>, Error> {
        let route =
            self.dialect.event(event).ok_or_else(|| Error::UnknownEvent(event.to_owned()))?.clone();
        let mut socket =
            Socket::open(&self.endpoint.ws_url, self.authorization().as_deref(), self.timeout)
                .await?;
        let result = self.collect_on(&mut socket, event, &route, collect).await;
        socket.close().await;
        result
    }

    async fn collect_on(
        &self,
        socket: &mut Socket,
        event: &str,
        route: &EventRoute,
        collect: Collect,
    ) -> Result<Vec<Value>, Error> {
        let routed = RoutedEvent { event, route };
        let (subscribe, params) = routed.subscribe();
        let id = self.next_id();
        socket.send(&request_text(id, subscribe, Some(params))).await?;
        // Notifications may overtake the subscription's answer: kept until its id is known.
        let mut early = Vec::new();
        let deadline = Instant::now() + self.timeout;
        let subscription = loop {
            let Some(message) = socket.next(deadline).await? else {
                return Err(Error::Timeout(self.timeout));
            };
            if !is_response_to(&message, id) {
                early.push(message);
                continue;
            }
            match read_answer(&message, id, None)? {
                Reply::Result(subscription) => break subscription,
                Reply::Error(error) => {
                    return Err(Error::Subscribe {
                        event: event.to_owned(),
                        error: Box::new(error),
                    });
                }
            }
        };
        let payload = |message: &str| {
            let value: Value = serde_json::from_str(message).ok()?;
            routed.read_for(&subscription, &value).ok()
        };
        let mut payloads: Vec<Value> =
            early.iter().filter_map(|m| payload(m)).take(collect.count).collect();
        if collect.emit_on_fake {
            for _ in payloads.len()..collect.count {
                let emit = request_text(
                    self.next_id(),
                    accord_wire::fake::METHOD,
                    Some(json!({"emit": event})),
                );
                socket.send(&emit).await?;
            }
        }
        let deadline = Instant::now() + collect.timeout;
        while payloads.len() < collect.count {
            match socket.next(deadline).await? {
                None => break,
                Some(message) => payloads.extend(payload(&message)),
            }
        }
        let (unsubscribe, params) = routed.unsubscribe(&subscription);
        // The answer is not awaited: the socket closes next, which ends the subscription anyway.
        socket.send(&request_text(self.next_id(), unsubscribe, Some(params))).await?;
        Ok(payloads)
    }
}
