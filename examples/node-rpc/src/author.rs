//! `author_*`: the transaction pool and the keystore, and following one extrinsic into a block.

use jsonrpsee::PendingSubscriptionSink;
use jsonrpsee::core::RpcResult;

use crate::api::{AuthorApiServer, Hash, TransactionStatus};
use crate::node::{Node, follow, hash_of};

impl AuthorApiServer for Node {
    fn submit_extrinsic(&self, extrinsic: String) -> RpcResult<Hash> {
        let hash = hash_of(&extrinsic);
        self.lock().pool.push(extrinsic);
        Ok(hash)
    }

    fn insert_key(&self, key_type: String, _suri: String, public: String) -> RpcResult<()> {
        self.lock().keys.insert((key_type, public));
        Ok(())
    }

    fn rotate_keys(&self) -> RpcResult<String> {
        let mut chain = self.lock();
        let id = chain.next_id();
        let keys = hash_of(&("session", id));
        chain.session_keys.insert(keys.clone());
        Ok(keys)
    }

    fn has_session_keys(&self, session_keys: String) -> RpcResult<bool> {
        Ok(self.lock().session_keys.contains(&session_keys))
    }

    fn has_key(&self, public_key: String, key_type: String) -> RpcResult<bool> {
        Ok(self.lock().keys.contains(&(key_type, public_key)))
    }

    fn pending_extrinsics(&self) -> RpcResult<Vec<String>> {
        Ok(self.lock().pool.clone())
    }

    fn remove_extrinsic(&self, bytes_or_hash: Vec<String>) -> RpcResult<Vec<Hash>> {
        let mut chain = self.lock();
        let mut removed = Vec::new();
        chain.pool.retain(|x| {
            let hash = hash_of(x);
            let hit = bytes_or_hash.iter().any(|b| b == x || *b == hash);
            if hit {
                removed.push(hash);
            }
            !hit
        });
        Ok(removed)
    }

    fn watch_extrinsic(&self, pending: PendingSubscriptionSink, bytes: String) {
        let hash = hash_of(&bytes);
        self.lock().pool.push(bytes);
        // Ready at once; in a block when one includes it; finalized when finality reaches that
        // block. Then nothing more: the subscription stays until the caller unsubscribes.
        let mut in_block: Option<Hash> = None;
        follow(self, pending, vec![TransactionStatus::Ready], move |b| {
            let mut statuses = Vec::new();
            if in_block.is_none() && b.included.contains(&hash) {
                in_block = Some(b.hash.clone());
                statuses.push(TransactionStatus::InBlock(b.hash.clone()));
            }
            if let (Some(block), Some((finalized, _))) = (&in_block, &b.finalized)
                && block == finalized
            {
                statuses.push(TransactionStatus::Finalized(block.clone()));
            }
            statuses
        });
    }
}
