#![doc = include_str!("../README.md")]

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
