//! The subscriptions of one WebSocket (docs/wire.md §7, and §11.3's pubsub ones beside them):
//! ids unique on the connection, the event each follows and how many notifications it has
//! had; they end with the connection. accord-plant's router and accord serve keep theirs here.

/// One subscription.
#[derive(Debug)]
#[non_exhaustive]
pub struct Subscription {
    /// Its id, unique on the connection.
    pub id: String,
    /// The event it follows, `namespace.event`.
    pub event: String,
    /// Notifications sent so far (accord serve: the index of the next payload).
    pub sent: u64,
}

/// The subscriptions of one WebSocket, in the order they were made.
#[derive(Debug, Default)]
pub struct Subscriptions {
    list: Vec<Subscription>,
    next: u64,
}

impl Subscriptions {
    /// None yet.
    pub fn new() -> Subscriptions {
        Subscriptions::default()
    }

    /// How many are open.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether none is open.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// A new subscription to `event`; its id, unique on the connection.
    pub fn add(&mut self, event: &str) -> String {
        self.next += 1;
        let id = format!("sub-{}", self.next);
        self.list.push(Subscription { id: id.clone(), event: event.to_owned(), sent: 0 });
        id
    }

    /// Ends a subscription; whether it was open.
    pub fn remove(&mut self, id: &str) -> bool {
        let before = self.list.len();
        self.list.retain(|s| s.id != id);
        self.list.len() != before
    }

    /// The subscription `id`, when it is open.
    pub fn get(&self, id: &str) -> Option<&Subscription> {
        self.list.iter().find(|s| s.id == id)
    }

    /// The ids subscribed to `event`.
    pub fn to(&self, event: &str) -> impl Iterator<Item = &str> {
        self.list.iter().filter(move |s| s.event == event).map(|s| s.id.as_str())
    }

    /// Every open subscription, oldest first.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut Subscription> {
        self.list.iter_mut()
    }
}
