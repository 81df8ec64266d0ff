//! `system_*`: what the node is and whom it talks to.

use std::collections::BTreeMap;

use jsonrpsee::core::RpcResult;

use crate::api::{ChainType, Health, NodeRole, PeerInfo, SyncState, SystemApiServer};
use crate::node::Node;

/// The node's own peer id (a libp2p Ed25519 id; the node never dials anyone).
const PEER_ID: &str = "12D3KooWEyoppNCUx8Yx66oV9fJnriXwCcXwDDUA2kj6vnc6iDEp";

impl SystemApiServer for Node {
    fn system_name(&self) -> RpcResult<String> {
        Ok("node-rpc".to_owned())
    }

    fn system_version(&self) -> RpcResult<String> {
        Ok(env!("CARGO_PKG_VERSION").to_owned())
    }

    fn system_chain(&self) -> RpcResult<String> {
        Ok("Development".to_owned())
    }

    fn system_type(&self) -> RpcResult<ChainType> {
        Ok(ChainType::Development)
    }

    fn system_properties(&self) -> RpcResult<BTreeMap<String, String>> {
        Ok(BTreeMap::from([
            ("ss58Format".to_owned(), "42".to_owned()),
            ("tokenDecimals".to_owned(), "12".to_owned()),
            ("tokenSymbol".to_owned(), "UNIT".to_owned()),
        ]))
    }

    fn system_health(&self) -> RpcResult<Health> {
        let peers = self.lock().reserved_peers.len() as u32;
        Ok(Health { peers, is_syncing: false, should_have_peers: false })
    }

    fn system_local_peer_id(&self) -> RpcResult<String> {
        Ok(PEER_ID.to_owned())
    }

    fn system_local_listen_addresses(&self) -> RpcResult<Vec<String>> {
        Ok(vec![format!("/ip4/127.0.0.1/tcp/30333/p2p/{PEER_ID}")])
    }

    fn system_peers(&self) -> RpcResult<Vec<PeerInfo>> {
        // Reserved peers are known, never connected: the node authors alone.
        Ok(Vec::new())
    }

    fn system_node_roles(&self) -> RpcResult<Vec<NodeRole>> {
        Ok(vec![NodeRole::Authority])
    }

    fn system_sync_state(&self) -> RpcResult<SyncState> {
        let best = self.lock().best().1.number;
        Ok(SyncState { starting_block: 0, current_block: best, highest_block: best })
    }

    fn system_add_reserved_peer(&self, peer: String) -> RpcResult<()> {
        let mut chain = self.lock();
        if !chain.reserved_peers.contains(&peer) {
            chain.reserved_peers.push(peer);
        }
        Ok(())
    }

    fn system_remove_reserved_peer(&self, peer_id: String) -> RpcResult<()> {
        self.lock().reserved_peers.retain(|p| !p.ends_with(&peer_id));
        Ok(())
    }

    fn system_reserved_peers(&self) -> RpcResult<Vec<String>> {
        Ok(self.lock().reserved_peers.clone())
    }

    fn nonce(&self, account: String) -> RpcResult<u32> {
        Ok(self.lock().nonces.get(&account).copied().unwrap_or(0))
    }

    fn uptime(&self) -> RpcResult<u64> {
        Ok(self.started.elapsed().as_secs())
    }
}
