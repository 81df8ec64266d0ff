//! `state_*`: storage, runtime calls and the runtime's version. The node keeps its latest state
//! only (no archive): a query at a block is answered from the best block's state, and the
//! changes of a range are those of the latest state.

use jsonrpsee::PendingSubscriptionSink;
use jsonrpsee::core::RpcResult;

use crate::api::{
    Hash, ReadProof, RuntimeVersion, StateApiServer, StorageChangeSet, StorageData, StorageKey,
};
use crate::node::{Chain, NUMBER_KEY, Node, follow, hash_of, runtime_version};

impl StateApiServer for Node {
    fn call(&self, _name: String, _bytes: String, _hash: Option<Hash>) -> RpcResult<String> {
        // No runtime to run: the answer is the SCALE encoding of a unit result, `0x` followed
        // by nothing, whatever the function.
        Ok("0x".to_owned())
    }

    fn storage_keys(&self, prefix: StorageKey, _hash: Option<Hash>) -> RpcResult<Vec<StorageKey>> {
        Ok(keys(&self.lock(), Some(&prefix.0), None, usize::MAX))
    }

    fn storage_pairs(
        &self,
        prefix: StorageKey,
        _hash: Option<Hash>,
    ) -> RpcResult<Vec<(StorageKey, StorageData)>> {
        let chain = self.lock();
        Ok(chain
            .storage
            .iter()
            .filter(|(k, _)| k.starts_with(&prefix.0))
            .map(|(k, v)| (StorageKey(k.clone()), StorageData(v.clone())))
            .collect())
    }

    fn storage_keys_paged(
        &self,
        prefix: Option<StorageKey>,
        count: u32,
        start_key: Option<StorageKey>,
        _hash: Option<Hash>,
    ) -> RpcResult<Vec<StorageKey>> {
        let prefix = prefix.map(|p| p.0);
        let start = start_key.map(|s| s.0);
        Ok(keys(&self.lock(), prefix.as_deref(), start.as_deref(), count as usize))
    }

    fn storage(&self, key: StorageKey, _hash: Option<Hash>) -> RpcResult<Option<StorageData>> {
        Ok(self.lock().storage.get(&key.0).cloned().map(StorageData))
    }

    fn storage_hash(&self, key: StorageKey, _hash: Option<Hash>) -> RpcResult<Option<Hash>> {
        Ok(self.lock().storage.get(&key.0).map(hash_of))
    }

    fn storage_size(&self, key: StorageKey, _hash: Option<Hash>) -> RpcResult<Option<u64>> {
        // `0x`-hex: two digits a byte.
        Ok(self.lock().storage.get(&key.0).map(|v| (v.len().saturating_sub(2) / 2) as u64))
    }

    fn metadata(&self, _hash: Option<Hash>) -> RpcResult<String> {
        // "meta" and metadata version 15, the start of every runtime's metadata.
        Ok("0x6d6574610f".to_owned())
    }

    fn runtime_version(&self, _hash: Option<Hash>) -> RpcResult<RuntimeVersion> {
        Ok(runtime_version())
    }

    fn query_storage(
        &self,
        keys: Vec<StorageKey>,
        _block: Hash,
        hash: Option<Hash>,
    ) -> RpcResult<Vec<StorageChangeSet>> {
        Ok(vec![change_set(&self.lock(), &keys, hash)])
    }

    fn query_storage_at(
        &self,
        keys: Vec<StorageKey>,
        at: Option<Hash>,
    ) -> RpcResult<Vec<StorageChangeSet>> {
        Ok(vec![change_set(&self.lock(), &keys, at)])
    }

    fn read_proof(&self, keys: Vec<StorageKey>, hash: Option<Hash>) -> RpcResult<ReadProof> {
        let chain = self.lock();
        let at = hash.unwrap_or_else(|| chain.best().0);
        let proof = keys.iter().filter_map(|k| chain.storage.get(&k.0).cloned()).collect();
        Ok(ReadProof { at, proof })
    }

    fn subscribe_runtime_version(&self, pending: PendingSubscriptionSink) {
        // The version at once; the node runs one runtime, so no change ever follows.
        follow(self, pending, vec![runtime_version()], |_| Vec::new());
    }

    fn subscribe_storage(&self, pending: PendingSubscriptionSink, keys: Option<Vec<StorageKey>>) {
        let first = change_set(&self.lock(), keys.as_deref().unwrap_or_default(), None);
        // Each block writes the block number: a change for a subscriber to every key, or to it.
        let watches_number = keys.as_ref().is_none_or(|ks| ks.iter().any(|k| k.0 == NUMBER_KEY));
        let node = self.clone();
        follow(self, pending, vec![first], move |b| {
            if !watches_number {
                return Vec::new();
            }
            let number = StorageKey(NUMBER_KEY.to_owned());
            vec![change_set(&node.lock(), std::slice::from_ref(&number), Some(b.hash.clone()))]
        });
    }
}

/// Up to `count` keys with `prefix`, in order, after `start`.
fn keys(chain: &Chain, prefix: Option<&str>, start: Option<&str>, count: usize) -> Vec<StorageKey> {
    chain
        .storage
        .keys()
        .filter(|k| prefix.is_none_or(|p| k.starts_with(p)))
        .filter(|k| start.is_none_or(|s| k.as_str() > s))
        .take(count)
        .map(|k| StorageKey(k.clone()))
        .collect()
}

/// The values of `keys` in the node's state, as a change set at `at` (the best block when absent).
fn change_set(chain: &Chain, keys: &[StorageKey], at: Option<Hash>) -> StorageChangeSet {
    let block = at.unwrap_or_else(|| chain.best().0);
    let changes = keys
        .iter()
        .map(|k| (k.clone(), chain.storage.get(&k.0).cloned().map(StorageData)))
        .collect();
    StorageChangeSet { block, changes }
}
