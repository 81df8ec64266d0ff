//! The old names without a namespace.

use jsonrpsee::core::RpcResult;

use crate::api::LegacyApiServer;
use crate::node::Node;

impl LegacyApiServer for Node {
    fn protocol_version(&self) -> RpcResult<u32> {
        Ok(1)
    }

    fn ping(&self) -> RpcResult<String> {
        Ok("pong".to_owned())
    }
}
