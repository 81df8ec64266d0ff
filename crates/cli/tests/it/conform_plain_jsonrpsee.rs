//! A jsonrpsee server as its users write it, held to a contract it did not write: the chain API
//! of `fixtures/extract/rpc-jsonrpsee` (its extracted contract, `expected.types.json`), served
//! by a plain `#[rpc(server)]` implementation with no middleware, no params check of its own
//! and no describe method, started in-process on 127.0.0.1:0. jsonrpsee ignores positional
//! params past the ones a method reads, and refuses unreadable params with -32602 rather
//! than -32600: tolerance and a refusal the JSON-RPC spec allows, so it conforms, with notes.

use std::time::Duration;

use jsonrpsee::core::{RpcResult, SubscriptionResult, async_trait};
use jsonrpsee::proc_macros::rpc;
use jsonrpsee::server::{Server, ServerHandle};
use jsonrpsee::{PendingSubscriptionSink, SubscriptionMessage};
use serde::{Deserialize, Serialize};

use crate::common::*;

const CHAIN: &str = "fixtures/extract/rpc-jsonrpsee/expected.types.json";

#[derive(Clone, Serialize, Deserialize)]
pub(crate) struct Block {
    pub(crate) number: u32,
}

#[derive(Clone, Serialize, Deserialize)]
pub(crate) struct Head {
    pub(crate) number: u32,
    pub(crate) hash: String,
}

/// The trait of the fixture, as its jsonrpsee attributes declare it.
#[rpc(server, namespace = "chain", namespace_separator = ".")]
trait ChainApi {
    #[method(name = "blockNumber", aliases = ["chain_blockNumber"])]
    async fn block_number(&self) -> RpcResult<u32>;

    #[method(name = "getBlock", param_kind = map)]
    async fn get_block(
        &self,
        #[argument(rename = "blockNumber")] number: u32,
        full: Option<bool>,
    ) -> RpcResult<Option<Block>>;

    #[subscription(name = "subscribeHeads" => "newHead", unsubscribe = "unsubscribeHeads", item = Head)]
    async fn subscribe_heads(&self) -> SubscriptionResult;
}

/// A chain of 1000 blocks.
struct Chain;

const HEAD: u32 = 1000;

#[async_trait]
impl ChainApiServer for Chain {
    async fn block_number(&self) -> RpcResult<u32> {
        Ok(HEAD)
    }

    async fn get_block(&self, number: u32, _full: Option<bool>) -> RpcResult<Option<Block>> {
        Ok((number <= HEAD).then_some(Block { number }))
    }

    async fn subscribe_heads(&self, pending: PendingSubscriptionSink) -> SubscriptionResult {
        let sink = pending.accept().await?;
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_millis(50));
            for number in HEAD.. {
                tick.tick().await;
                let head = Head { number, hash: format!("0x{number:064x}") };
                let Ok(raw) = serde_json::value::to_raw_value(&head) else { break };
                if sink.send(SubscriptionMessage::from(raw)).await.is_err() {
                    break;
                }
            }
        });
        Ok(())
    }
}

async fn serve() -> (std::net::SocketAddr, ServerHandle) {
    let server = Server::builder().build("127.0.0.1:0").await.expect("bind");
    let addr = server.local_addr().expect("address");
    (addr, server.start(Chain.into_rpc()))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plain_jsonrpsee_server_conforms_to_its_extracted_contract() {
    let (addr, handle) = serve().await;
    let report = conform_passes(CHAIN, &format!("http://{addr}/"), &[]).await;

    // Its tolerance was seen and noted, not failed: the extra positional param was answered.
    let notes: Vec<&str> =
        report["notes"].as_array().expect("notes").iter().filter_map(|n| n.as_str()).collect();
    assert!(
        notes.iter().any(|n| n.starts_with("chain.getBlock: mutant") && n.contains("tolerated")),
        "{notes:#?}"
    );
    // The params probe went to a method that reads params, and jsonrpsee's -32602 passed.
    assert_eq!(report["plan"]["protocol"]["paramsProbe"], "chain.getBlock");
    let probe = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["subject"] == "params neither object nor array")
        .expect("the params probe");
    assert_eq!(probe["outcome"], "passed", "{probe:#}");
    // The heads were subscribed the jsonrpsee way and validated.
    let heads = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["phase"] == "events" && c["subject"] == "chain.newHead")
        .expect("the heads event");
    assert_eq!(heads["outcome"], "passed", "{heads:#}");
    handle.stop().expect("stop");
    handle.stopped().await;
}
