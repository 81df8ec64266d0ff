//! `chain_*`: blocks and headers, and the three header subscriptions.

use jsonrpsee::PendingSubscriptionSink;
use jsonrpsee::core::RpcResult;

use crate::api::{BlockNumber, ChainApiServer, Hash, Header, SignedBlock};
use crate::node::{Node, follow};

impl ChainApiServer for Node {
    fn header(&self, hash: Option<Hash>) -> RpcResult<Option<Header>> {
        Ok(self.lock().block(hash.as_deref()).map(|(_, b)| b.block.header.clone()))
    }

    fn block(&self, hash: Option<Hash>) -> RpcResult<Option<SignedBlock>> {
        Ok(self.lock().block(hash.as_deref()).map(|(_, b)| b.clone()))
    }

    fn block_hash(&self, number: Option<BlockNumber>) -> RpcResult<Option<Hash>> {
        let chain = self.lock();
        Ok(match number {
            None => Some(chain.best().0),
            Some(n) => chain.blocks.get(n as usize).map(|(h, _)| h.clone()),
        })
    }

    fn finalized_head(&self) -> RpcResult<Hash> {
        Ok(self.lock().finalized().0)
    }

    fn subscribe_all_heads(&self, pending: PendingSubscriptionSink) {
        follow(self, pending, Vec::new(), |b| vec![b.header.clone()]);
    }

    fn subscribe_new_heads(&self, pending: PendingSubscriptionSink) {
        // The best header at once, then each new best one (every block is best here).
        let best = self.lock().best().1;
        follow(self, pending, vec![best], |b| vec![b.header.clone()]);
    }

    fn subscribe_finalized_heads(&self, pending: PendingSubscriptionSink) {
        let finalized = self.lock().finalized().1;
        follow(self, pending, vec![finalized], |b| {
            b.finalized.iter().map(|(_, h)| h.clone()).collect()
        });
    }
}
