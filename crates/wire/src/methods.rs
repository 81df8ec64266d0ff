//! accord's protocol methods, as one typed list: the names its own wire reserves beside a
//! contract's methods (docs/wire.md §5–§7). serve answers them and conform calls them by these
//! names, so neither can spell one its own way.
//!
//! A contract's `wire` section may rename the describe method or route events in the pubsub
//! style; what a given contract speaks is its `Dialect`'s. These are accord's own names.

use accord_schema_model::dialect::{
    ACCORD_DESCRIBE, ACCORD_NOTIFICATION, ACCORD_SUBSCRIBE, ACCORD_UNSUBSCRIBE,
};

/// One of accord's protocol methods.
///
/// Not `#[non_exhaustive]`, on purpose: accord-plant's router matches it exhaustively, so a
/// protocol method added here is a compile error there until it is routed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProtocolMethod {
    /// `rpc.describe`: what the plant serves (docs/wire.md §5).
    Describe,
    /// `rpc.fake`: the steering `accord serve` takes for one call (docs/wire.md §6).
    Fake,
    /// `rpc.subscribe`: a subscription to an event (docs/wire.md §7).
    Subscribe,
    /// `rpc.unsubscribe`: the end of a subscription.
    Unsubscribe,
    /// `rpc.event`: the notification every event is sent in.
    Notification,
}

impl ProtocolMethod {
    /// Every protocol method, in the order docs/wire.md introduces them.
    pub const ALL: [ProtocolMethod; 5] = [
        ProtocolMethod::Describe,
        ProtocolMethod::Fake,
        ProtocolMethod::Subscribe,
        ProtocolMethod::Unsubscribe,
        ProtocolMethod::Notification,
    ];

    /// The method's name on accord's wire.
    pub const fn name(self) -> &'static str {
        match self {
            ProtocolMethod::Describe => ACCORD_DESCRIBE,
            ProtocolMethod::Fake => "rpc.fake",
            ProtocolMethod::Subscribe => ACCORD_SUBSCRIBE,
            ProtocolMethod::Unsubscribe => ACCORD_UNSUBSCRIBE,
            ProtocolMethod::Notification => ACCORD_NOTIFICATION,
        }
    }

    /// The protocol method called `name` on accord's wire.
    pub fn from_name(name: &str) -> Option<ProtocolMethod> {
        ProtocolMethod::ALL.into_iter().find(|m| m.name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::ProtocolMethod;

    #[test]
    fn names_are_distinct_reserved_and_read_back() {
        for m in ProtocolMethod::ALL {
            assert!(
                m.name().starts_with("rpc."),
                "{m:?}: JSON-RPC reserves `rpc.` for the protocol"
            );
            assert_eq!(ProtocolMethod::from_name(m.name()), Some(m));
        }
        assert_eq!(ProtocolMethod::from_name("rpc.describe "), None);
        assert_eq!(ProtocolMethod::from_name("pump.start"), None);
    }
}
