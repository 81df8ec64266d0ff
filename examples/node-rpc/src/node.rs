//! The node's state: a chain authored in memory (a block every 50 ms, finality two blocks
//! behind), its storage, the transaction pool, the keystore and the peers; and the stream of
//! new blocks the subscriptions follow.

use std::collections::{BTreeMap, BTreeSet};
use std::hash::{DefaultHasher, Hash as _, Hasher};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use jsonrpsee::server::ServerHandle;
use jsonrpsee::{PendingSubscriptionSink, SubscriptionMessage, SubscriptionSink};
use serde::Serialize;
use tokio::sync::broadcast;

use crate::api::{Block, BlockNumber, Digest, Hash, Header, RuntimeVersion, SignedBlock};

/// How often a block is authored.
const BLOCK_TIME: Duration = Duration::from_millis(50);
/// How many blocks finality lags behind the best block.
const FINALITY_LAG: usize = 2;
/// The storage key every block writes its number under (a node's `System.Number`).
pub(crate) const NUMBER_KEY: &str =
    "0x26aa394eea5630e07c48ae0c9558cef702a5c1b19ab7a04f536c519aca4983ac";

/// The node, shared by every RPC module and the block author.
#[derive(Clone)]
pub(crate) struct Node {
    inner: Arc<Mutex<Chain>>,
    blocks: broadcast::Sender<Imported>,
    pub(crate) started: Instant,
}

/// A block just authored: its header and hash, and the header finality reached with it.
#[derive(Clone)]
pub(crate) struct Imported {
    pub(crate) hash: Hash,
    pub(crate) header: Header,
    pub(crate) finalized: Option<(Hash, Header)>,
    /// The extrinsics it included, by hash.
    pub(crate) included: Vec<Hash>,
}

/// What the node holds.
pub(crate) struct Chain {
    /// Blocks by number, with their hashes.
    pub(crate) blocks: Vec<(Hash, SignedBlock)>,
    pub(crate) finalized: usize,
    pub(crate) storage: BTreeMap<String, String>,
    pub(crate) pool: Vec<String>,
    pub(crate) keys: BTreeSet<(String, String)>,
    pub(crate) session_keys: BTreeSet<String>,
    pub(crate) reserved_peers: Vec<String>,
    pub(crate) nonces: BTreeMap<String, u32>,
    pub(crate) next_id: u64,
}

impl Node {
    pub(crate) fn new() -> Node {
        let genesis = Header {
            parent_hash: hash_of(&"genesis-parent"),
            number: 0,
            state_root: hash_of(&"genesis-state"),
            extrinsics_root: hash_of(&"genesis-extrinsics"),
            digest: Digest { logs: Vec::new() },
        };
        let block = SignedBlock {
            block: Block { header: genesis.clone(), extrinsics: Vec::new() },
            justifications: None,
        };
        let storage = BTreeMap::from([
            (NUMBER_KEY.to_owned(), number_value(0)),
            (":code".to_owned(), "0x0061736d01000000".to_owned()),
            (":heappages".to_owned(), "0x2000000000000000".to_owned()),
        ]);
        let chain = Chain {
            blocks: vec![(hash_of(&("block", 0u32)), block)],
            finalized: 0,
            storage,
            pool: Vec::new(),
            keys: BTreeSet::new(),
            session_keys: BTreeSet::new(),
            reserved_peers: Vec::new(),
            nonces: BTreeMap::new(),
            next_id: 0,
        };
        let (blocks, _) = broadcast::channel(64);
        Node { inner: Arc::new(Mutex::new(chain)), blocks, started: Instant::now() }
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, Chain> {
        // A panic while the lock was held left the chain as it was; keep serving it.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The blocks authored from now on.
    pub(crate) fn imports(&self) -> broadcast::Receiver<Imported> {
        self.blocks.subscribe()
    }

    /// Authors a block every [`BLOCK_TIME`] until the server stops.
    pub(crate) fn author_blocks(&self, server: ServerHandle) {
        let node = self.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(BLOCK_TIME);
            let stopped = server.stopped();
            tokio::pin!(stopped);
            loop {
                tokio::select! {
                    () = &mut stopped => break,
                    _ = tick.tick() => {
                        let imported = node.lock().author();
                        // No subscriber is no error: the block is authored all the same.
                        let _ = node.blocks.send(imported);
                    }
                }
            }
        });
    }
}

impl Chain {
    /// The best block's hash and header.
    pub(crate) fn best(&self) -> (Hash, Header) {
        let (hash, block) = self.blocks.last().expect("the genesis block");
        (hash.clone(), block.block.header.clone())
    }

    pub(crate) fn finalized(&self) -> (Hash, Header) {
        let (hash, block) = &self.blocks[self.finalized];
        (hash.clone(), block.block.header.clone())
    }

    /// The block of `hash`, the best one when no hash is given.
    pub(crate) fn block(&self, hash: Option<&str>) -> Option<&(Hash, SignedBlock)> {
        match hash {
            None => self.blocks.last(),
            Some(h) => self.blocks.iter().find(|(bh, _)| bh == h),
        }
    }

    pub(crate) fn next_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    /// Authors the next block: the pool's extrinsics included, the number written to storage,
    /// finality moved up.
    fn author(&mut self) -> Imported {
        let (parent_hash, parent) = self.best();
        let number: BlockNumber = parent.number + 1;
        let extrinsics: Vec<String> = std::mem::take(&mut self.pool);
        self.storage.insert(NUMBER_KEY.to_owned(), number_value(number));
        let header = Header {
            parent_hash,
            number,
            state_root: hash_of(&("state", number)),
            extrinsics_root: hash_of(&extrinsics),
            digest: Digest { logs: vec![format!("0x0661757261{number:08x}")] },
        };
        let hash = hash_of(&("block", number));
        let included = extrinsics.iter().map(hash_of).collect();
        let block = SignedBlock {
            block: Block { header: header.clone(), extrinsics },
            justifications: None,
        };
        self.blocks.push((hash.clone(), block));
        let finalized = (self.blocks.len() > FINALITY_LAG).then(|| {
            self.finalized = self.blocks.len() - 1 - FINALITY_LAG;
            self.finalized()
        });
        Imported { hash, header, finalized, included }
    }
}

/// A 32-byte `0x`-hex hash of anything hashable (not a cryptographic one: the node is a fake).
pub(crate) fn hash_of(value: &impl std::hash::Hash) -> Hash {
    let mut out = String::from("0x");
    for round in 0u8..4 {
        let mut h = DefaultHasher::new();
        round.hash(&mut h);
        value.hash(&mut h);
        out.push_str(&format!("{:016x}", h.finish()));
    }
    out
}

/// A block number as storage holds it: SCALE's little-endian `u32`, `0x`-hex.
fn number_value(number: BlockNumber) -> String {
    format!("0x{}", number.to_le_bytes().iter().map(|b| format!("{b:02x}")).collect::<String>())
}

/// The runtime's version (it never changes: the node runs one runtime).
pub(crate) fn runtime_version() -> RuntimeVersion {
    RuntimeVersion {
        spec_name: "node-rpc".to_owned(),
        impl_name: "node-rpc".to_owned(),
        authoring_version: 1,
        spec_version: 100,
        impl_version: 1,
        apis: vec![("0xdf6acb689907609b".to_owned(), 5), ("0x37e397fc7c91f5e4".to_owned(), 2)],
        transaction_version: 1,
        state_version: Some(1),
    }
}

/// Accepts a subscription and sends it what `items` yields for each authored block, until the
/// subscriber goes or the node stops; `first` is sent at once. A subscription whose stream is
/// over stays open, silent, until unsubscribed, as the unsubscribe call expects it live.
pub(crate) fn follow<T, F>(
    node: &Node,
    pending: PendingSubscriptionSink,
    first: Vec<T>,
    mut items: F,
) where
    T: Serialize + Send + Sync + 'static,
    F: FnMut(&Imported) -> Vec<T> + Send + 'static,
{
    let mut imports = node.imports();
    tokio::spawn(async move {
        let Ok(sink) = pending.accept().await else { return };
        for item in first {
            if send(&sink, &item).await.is_err() {
                return;
            }
        }
        loop {
            tokio::select! {
                () = sink.closed() => return,
                imported = imports.recv() => match imported {
                    Ok(imported) => {
                        for item in items(&imported) {
                            if send(&sink, &item).await.is_err() {
                                return;
                            }
                        }
                    }
                    // A slow subscriber missed blocks: follow on from the next one.
                    Err(broadcast::error::RecvError::Lagged(_)) => {}
                    Err(broadcast::error::RecvError::Closed) => return,
                },
            }
        }
    });
}

/// Sends one item; an error means the subscriber has gone.
async fn send<T: Serialize>(sink: &SubscriptionSink, item: &T) -> Result<(), ()> {
    let raw = serde_json::value::to_raw_value(item).map_err(|_| ())?;
    sink.send(SubscriptionMessage::from(raw)).await.map_err(|_| ())
}
