//! The plant side of accord: a contract enforced inside a Rust JSON-RPC plant.
//!
//! accord checks, fakes and tests plants; this layer is what a plant is built with, so that
//! every plant team does not write the wire of docs/wire.md by hand and each get it differently
//! wrong. One core ([`Plant`]) holds the committed contract (embedded with `include_str!`,
//! parsed and compiled once at start) and decides, per call, what docs/wire.md says a plant
//! must: params checked against the contract before the handler runs (`-32602` with the wire's
//! error data, the same answer `accord serve` gives), the `rpc.describe` answer in its three
//! credential states, results and error answers checked against the contract (an error the
//! caller sees, or a counted and logged warning: never a silent pass), event payloads checked
//! before they are sent, and the limits of docs/wire.md §9. Two adapters put it in front of a
//! plant: [`jsonrpsee`] (an RPC middleware for `RpcServiceBuilder`, with the HTTP layer for
//! what only HTTP carries) and [`http`] (a tower layer in front of any JSON-RPC-over-HTTP
//! service, axum's or jsonrpsee's) with [`router()`] (an axum router for a plant written as a
//! [`Dispatch`], HTTP and WebSocket with accord's `rpc.subscribe` events).
//!
//! Every wire name and protocol code comes from the model's `Dialect` (through accord-wire),
//! and every shape of the wire (envelopes, error data, describe answers, credentials,
//! notifications) from accord-wire, so a plant built with this answers as `accord serve` does.
//!
//! It sits above accord-wire and accord-validate and must never depend on serve, conform or
//! the cli: a plant ships this crate, not accord's tools.

mod answer;
mod config;
mod core;
mod credential;
mod error;
mod events;
pub mod http;
pub mod jsonrpsee;
pub mod router;

pub use accord_wire::encode::Answer;
pub use accord_wire::{Access, Dialect, RpcError};
pub use answer::{Dispatch, DispatchFuture, Session, Transport};
pub use config::{Config, Limits, OnViolation};
pub use core::{ContractCall, Plant, Route, Violation};
pub use credential::Credential;
pub use error::Error;
pub use events::Subscriptions;
pub use router::router;
