//! A development node's RPC in the style of substrate/polkadot-sdk's client API: `system_*`,
//! `chain_*`, `state_*`, `author_*`, `chainHead_v1_*` and a few names without a namespace,
//! served by a plain jsonrpsee server on jsonrpsee's own wire.

// The crate doc above is the contract's description. The traits are not written here: `api` is
// the extract fixture `fixtures/extract/rpc-wire-names/src/lib.rs`, the same file, its
// `cfg_attr(feature = "jsonrpsee", rpc(client, server))` attributes on (this crate's default
// feature), so what extract reads is what jsonrpsee serves. The plant is plain jsonrpsee: no
// middleware, no checks of its own on params; jsonrpsee reads and refuses them as it does for
// every node built on it. `cargo run -p node-rpc` serves on 127.0.0.1 and prints the URL; the
// library is what the binary runs, so that tests start the same plant in-process on port 0.

// The fixture documents what its contract needs to say, not every field.
#[allow(missing_docs)]
#[path = "../../../fixtures/extract/rpc-wire-names/src/lib.rs"]
pub mod api;

mod author;
mod chain;
mod chain_head;
mod legacy;
mod node;
mod state;
mod system;

use std::net::SocketAddr;

pub use jsonrpsee::server::ServerHandle;

use api::{
    AuthorApiServer, ChainApiServer, ChainHeadApiServer, LegacyApiServer, StateApiServer,
    SystemApiServer,
};

/// Serves the node on `addr` (HTTP and WebSocket on one port) until the handle is stopped,
/// producing a block every 50 ms meanwhile; returns the address bound (port 0: any free port)
/// and the handle.
///
/// # Errors
///
/// When the address cannot be bound.
pub async fn serve(
    addr: SocketAddr,
) -> Result<(SocketAddr, ServerHandle), Box<dyn std::error::Error + Send + Sync>> {
    let server = jsonrpsee::server::Server::builder().build(addr).await?;
    let bound = server.local_addr()?;
    let node = node::Node::new();
    let mut module = jsonrpsee::RpcModule::new(());
    module.merge(SystemApiServer::into_rpc(node.clone()))?;
    module.merge(ChainApiServer::into_rpc(node.clone()))?;
    module.merge(StateApiServer::into_rpc(node.clone()))?;
    module.merge(AuthorApiServer::into_rpc(node.clone()))?;
    module.merge(ChainHeadApiServer::into_rpc(node.clone()))?;
    module.merge(LegacyApiServer::into_rpc(node.clone()))?;
    let handle = server.start(module);
    node.author_blocks(handle.clone());
    Ok((bound, handle))
}
