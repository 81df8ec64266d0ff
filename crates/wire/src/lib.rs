#![doc = include_str!("../README.md")]

pub mod codes;
pub mod credential;
pub mod describe;
pub mod encode;
pub mod envelope;
mod error;
pub mod event;
pub mod fake;
pub mod limits;
mod members;
pub mod methods;
pub mod protocol;
pub mod subscription;
mod transport;

pub use codes::RpcError;
pub use credential::{Access, Presented};
pub use envelope::{Call, Id, Incoming, Request, Response};
pub use error::Error;
pub use methods::ProtocolMethod;
pub use subscription::RoutedEvent;
pub use transport::Transport;

/// The JSON-RPC version string every request and response carries.
pub const JSONRPC: &str = "2.0";
