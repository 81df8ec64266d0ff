//! accord's own subscriptions on one WebSocket (docs/wire.md §7): `rpc.subscribe` ids and the
//! events they follow; they end with the connection.

use std::collections::BTreeMap;

/// The subscriptions of one WebSocket.
#[derive(Debug, Default)]
pub struct Subscriptions {
    by_id: BTreeMap<String, String>,
    next: u64,
}

impl Subscriptions {
    /// None yet.
    pub fn new() -> Subscriptions {
        Subscriptions::default()
    }

    /// How many are open.
    pub fn len(&self) -> usize {
        self.by_id.len()
    }

    /// Whether none is open.
    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty()
    }

    /// A new subscription to `event`; its id, unique on the connection.
    pub fn add(&mut self, event: &str) -> String {
        self.next += 1;
        let id = format!("sub-{}", self.next);
        self.by_id.insert(id.clone(), event.to_owned());
        id
    }

    /// Ends a subscription; whether it was open.
    pub fn remove(&mut self, id: &str) -> bool {
        self.by_id.remove(id).is_some()
    }

    /// The ids subscribed to `event`.
    pub fn to(&self, event: &str) -> impl Iterator<Item = &str> {
        self.by_id.iter().filter(move |(_, e)| e.as_str() == event).map(|(id, _)| id.as_str())
    }
}
