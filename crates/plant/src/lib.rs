#![doc = include_str!("../README.md")]

mod answer;
mod config;
mod core;
mod credential;
mod error;
mod events;
pub mod http;
#[cfg(feature = "jsonrpsee")]
pub mod jsonrpsee;
pub mod router;
pub mod usage;

pub use accord_wire::encode::Answer;
pub use accord_wire::{Access, RpcError};
pub use answer::{Dispatch, DispatchFuture, Handler, Routed, Session, Transport};
pub use config::{Config, Limits, OnViolation};
pub use core::{ContractCall, ContractMethod, DeclaredError, Plant, Route, Violation};
pub use credential::Credential;
pub use error::Error;
pub use events::{Subscription, Subscriptions};
pub use router::router;
pub use usage::Declared;
