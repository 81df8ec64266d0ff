//! The `wire` section: how a plant is spoken to, when it is not accord's own dialect
//! (docs/format.md §15, docs/wire.md §11).
//!
//! The section is optional at the document and at each namespace; a namespace's members override
//! the document's one by one. An absent section means accord's own wire exactly, so a document
//! without one reads and writes as it did before the section existed. This module only holds
//! what was written; what it resolves to (the names a plant answers to, its protocol codes) is
//! decided by accord-wire's `Dialect`, which also refuses what cannot be resolved.

use indexmap::IndexMap;
use serde_json::Value;

use crate::Unknown;

/// How a plant is spoken to: method names, the describe method, protocol error codes, the
/// nesting limit and the subscription style. Every member is optional; absent means accord's
/// own wire for that member (or, in a namespace, the document's).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Wire {
    /// What stands between the namespace and the method name on the wire: `"."` (accord's,
    /// `pump.start`), `"_"` (jsonrpsee's default and Ethereum's, `eth_getBalance`), or `""` for
    /// unqualified names (`start`).
    pub separator: Option<String>,
    /// The method that answers with the plant's own description: `rpc.describe` (accord's),
    /// `rpc.discover` (OpenRPC's), another name, or none at all.
    pub describe: Option<DescribeMethod>,
    /// The codes of the plant's protocol errors.
    pub codes: Option<WireCodes>,
    /// The deepest JSON nesting the plant promises to read; absent: accord's 128 on accord's
    /// own wire, and no promise on a foreign one.
    pub depth_limit: Option<u64>,
    /// Subscriptions in the pubsub style (geth's and jsonrpsee's); absent: accord's
    /// `rpc.subscribe`/`rpc.event`, unless an event has an entry in [`Wire::events`].
    pub pubsub: Option<Pubsub>,
    /// Per-method wire names, for APIs whose names follow no separator: contract method name →
    /// the name the plant answers to. Only in a namespace's section.
    pub methods: Option<IndexMap<String, String>>,
    /// Per-event subscription details in the pubsub style. Only in a namespace's section.
    pub events: Option<IndexMap<String, EventWire>>,
    /// Members this build has no name for.
    pub unknown: Unknown,
}

/// Which method answers with the plant's description, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DescribeMethod {
    /// The plant answers this method (JSON: the name as a string).
    Method(String),
    /// The plant answers no describe method (JSON: `false`).
    None,
}

/// The codes a plant uses for its protocol errors. `profile` names a built-in set (`accord`,
/// `eip-1474`, `jsonrpsee`); the other members change or add to it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct WireCodes {
    /// A built-in set of codes; absent: `accord`.
    pub profile: Option<String>,
    /// The codes that mean "no such method"; the first is the one a fake sends.
    pub method_not_found: Option<Vec<i64>>,
    /// The codes that mean "invalid params"; the first is the one a fake sends.
    pub invalid_params: Option<Vec<i64>>,
    /// The code for "a limit was exceeded".
    pub limit: Option<i64>,
    /// Further codes with a protocol meaning (code as decimal text → the meaning), which a
    /// contract's declared errors must not reuse.
    pub reserved: Option<IndexMap<String, String>>,
    /// Members this build has no name for.
    pub unknown: Unknown,
}

/// The pubsub subscription style: one method subscribes (its first params say to what), one
/// notification method carries `{"subscription": ID, "result": PAYLOAD}`, one method
/// unsubscribes. Absent names are derived from the namespace: `eth_subscribe`,
/// `eth_subscription`, `eth_unsubscribe` for namespace `eth` with separator `_`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Pubsub {
    /// The subscribe method's wire name.
    pub subscribe: Option<String>,
    /// The unsubscribe method's wire name.
    pub unsubscribe: Option<String>,
    /// The notification's method name.
    pub notification: Option<String>,
    /// Members this build has no name for.
    pub unknown: Unknown,
}

/// One event's subscription in the pubsub style; absent members come from the namespace's
/// [`Pubsub`].
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EventWire {
    /// The leading params of the subscribe call that select this event (`["newHeads"]` for
    /// geth's `eth_subscribe`); absent: none (jsonrpsee's one method per subscription).
    pub params: Option<Vec<Value>>,
    /// The subscribe method's wire name.
    pub subscribe: Option<String>,
    /// The unsubscribe method's wire name.
    pub unsubscribe: Option<String>,
    /// The notification's method name.
    pub notification: Option<String>,
    /// Members this build has no name for.
    pub unknown: Unknown,
}

impl Wire {
    pub(crate) fn unknown_member_count(&self) -> usize {
        self.unknown.len()
            + self.codes.as_ref().map_or(0, |c| c.unknown.len())
            + self.pubsub.as_ref().map_or(0, |p| p.unknown.len())
            + self
                .events
                .iter()
                .flat_map(|all| all.values())
                .map(|e| e.unknown.len())
                .sum::<usize>()
    }
}
