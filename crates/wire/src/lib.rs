//! The wire accord's tools speak to a plant: JSON-RPC 2.0 with the additions of docs/wire.md.
//!
//! This layer holds the shapes both ends must agree on, so that `accord serve` (which answers)
//! and `accord conform` (which holds a live plant to the wire) cannot drift apart: reading a
//! request envelope ([`envelope`]), the error codes and their `data` ([`codes`], [`RpcError`]),
//! accord's protocol methods as one typed list ([`ProtocolMethod`]), the `rpc.describe` answer
//! and its compatibility verdict ([`describe`]), credentials
//! ([`credential`]), event notifications and subscription params ([`event`]), the params of
//! `rpc.fake` ([`fake`]) and the limits' names with the nesting scan ([`limits`]); and how one
//! contract is spoken when its `wire` section names another dialect ([`dialect`]: method names,
//! describe method, protocol codes, pubsub subscriptions).
//!
//! It sits on `accord-schema-model` (the served document) and `accord-validate` (the validation
//! errors `-32602` carries) and must never depend on a transport (no tokio, no HTTP), on serve,
//! conform or the cli. It does no IO.

pub mod codes;
pub mod credential;
pub mod describe;
pub mod envelope;
mod error;
pub mod event;
pub mod fake;
pub mod limits;
mod members;
pub mod methods;

pub use accord_schema_model::dialect::{
    self, Dialect, EventRoute, MethodRoute, Profile, ProtocolCodes, PubsubRoute,
};
pub use codes::RpcError;
pub use credential::{Access, Presented};
pub use envelope::{Call, Id, Incoming, Request, Response};
pub use error::Error;
pub use methods::ProtocolMethod;

/// The JSON-RPC version string every request and response carries.
pub const JSONRPC: &str = "2.0";
