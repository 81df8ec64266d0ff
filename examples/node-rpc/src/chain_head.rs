//! `chainHead_v1_*`: following the chain's head and operating on the blocks it reports. An
//! operation answers `started` with its id; its outcome would go to the follower as an event,
//! and the node, which keeps no bodies or runtime to run, reports none.

use jsonrpsee::PendingSubscriptionSink;
use jsonrpsee::core::RpcResult;

use crate::api::{ChainHeadApiServer, FollowEvent, Hash, MethodResponse, StorageQuery};
use crate::node::{Node, follow};

impl ChainHeadApiServer for Node {
    fn follow(&self, pending: PendingSubscriptionSink, _with_runtime: bool) {
        let finalized = self.lock().finalized().0;
        let first = vec![FollowEvent::Initialized { finalized_block_hashes: vec![finalized] }];
        follow(self, pending, first, |b| {
            let mut events = vec![
                FollowEvent::NewBlock {
                    block_hash: b.hash.clone(),
                    parent_block_hash: b.header.parent_hash.clone(),
                },
                FollowEvent::BestBlockChanged { best_block_hash: b.hash.clone() },
            ];
            if let Some((hash, _)) = &b.finalized {
                events.push(FollowEvent::Finalized {
                    finalized_block_hashes: vec![hash.clone()],
                    pruned_block_hashes: Vec::new(),
                });
            }
            events
        });
    }

    fn header(&self, _follow_subscription: String, hash: Hash) -> RpcResult<Option<String>> {
        // The header SCALE-encoded; here its JSON, hex-encoded, for a block the node has.
        let chain = self.lock();
        Ok(chain.block(Some(&hash)).map(|(_, b)| {
            let json = serde_json::to_string(&b.block.header).unwrap_or_default();
            format!("0x{}", json.bytes().map(|c| format!("{c:02x}")).collect::<String>())
        }))
    }

    fn body(&self, _follow_subscription: String, _hash: Hash) -> RpcResult<MethodResponse> {
        Ok(self.started())
    }

    fn call(
        &self,
        _follow_subscription: String,
        _hash: Hash,
        _function: String,
        _call_parameters: String,
    ) -> RpcResult<MethodResponse> {
        Ok(self.started())
    }

    fn storage(
        &self,
        _follow_subscription: String,
        _hash: Hash,
        _items: Vec<StorageQuery>,
        _child_trie: Option<String>,
    ) -> RpcResult<MethodResponse> {
        Ok(self.started())
    }

    fn unpin(&self, _follow_subscription: String, _hash_or_hashes: Vec<Hash>) -> RpcResult<()> {
        // Nothing is pinned: the node keeps every block.
        Ok(())
    }

    fn continue_op(&self, _follow_subscription: String, _operation_id: String) -> RpcResult<()> {
        Ok(())
    }

    fn stop_operation(&self, _follow_subscription: String, _operation_id: String) -> RpcResult<()> {
        Ok(())
    }
}

impl Node {
    /// A new operation, started.
    fn started(&self) -> MethodResponse {
        MethodResponse::Started { operation_id: self.lock().next_id().to_string() }
    }
}
