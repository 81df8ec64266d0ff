//! A WebSocket connection's subscriptions (docs/wire.md §7): ids unique on the connection,
//! ended with it.

/// One subscription.
#[derive(Debug)]
pub(crate) struct Subscription {
    pub(crate) id: String,
    pub(crate) event: String,
    /// Notifications sent so far: the index of the next payload.
    pub(crate) sent: u64,
}

/// The subscriptions of one connection.
#[derive(Debug, Default)]
pub(crate) struct Subscriptions {
    next: u64,
    list: Vec<Subscription>,
}

impl Subscriptions {
    /// Subscribes to `event`; returns the new id.
    pub(crate) fn add(&mut self, event: &str) -> String {
        self.next += 1;
        let id = format!("sub-{}", self.next);
        self.list.push(Subscription { id: id.clone(), event: event.to_owned(), sent: 0 });
        id
    }

    /// Ends a subscription; whether it was one.
    pub(crate) fn remove(&mut self, id: &str) -> bool {
        let before = self.list.len();
        self.list.retain(|s| s.id != id);
        self.list.len() != before
    }

    /// How many there are.
    pub(crate) fn len(&self) -> usize {
        self.list.len()
    }

    pub(crate) fn iter_mut(&mut self) -> impl Iterator<Item = &mut Subscription> {
        self.list.iter_mut()
    }
}
