//! Contract of the Riverside pumping station: three duty pumps (P-101 to P-103) lifting river
//! water into the header tank, their isolation and control valves, and the header and buffer
//! tanks. Served by the station PLC gateway over JSON-RPC 2.0.

// The crate doc above is the contract's description. `cargo run -p pump-plant` serves the
// station on loopback (HTTP and WebSocket on one port; `--port N`, default 0: any free port,
// printed on the first line of stdout). Its contract is extracted from this source into
// `fixtures/contracts/pump-plant.types.json` (see `accord.toml`), and that committed contract is
// what accord-plant holds every call to: params checked before a handler runs, `rpc.describe`
// answered from it, results, errors and event payloads checked before they leave. The library
// is what the binary runs, so that tests can start the same plant in-process on 127.0.0.1:0.

mod pump;
mod station;
mod tank;
mod valve;

use std::net::SocketAddr;
use std::sync::Arc;

use accord_plant::http::PlantLayer;
use accord_plant::jsonrpsee::PlantRpcLayer;
pub use accord_plant::{Config, Plant};
pub use jsonrpsee::server::ServerHandle;
use jsonrpsee::server::middleware::rpc::RpcServiceBuilder;

/// The committed contract, embedded at compile time.
const CONTRACT: &str = include_str!("../../../fixtures/contracts/pump-plant.types.json");

/// The station's contract as accord-plant holds it, configured by `config`.
///
/// # Errors
///
/// A contract that does not read (named), or a configuration accord-plant refuses.
pub fn plant(config: Config) -> Result<Arc<Plant>, accord_plant::Error> {
    Plant::from_contract("pump-plant.types.json", CONTRACT, config).map(Arc::new)
}

/// Serves the station on `addr` (HTTP and WebSocket on one port) behind `plant` until the
/// handle is stopped; returns the address bound (port 0: any free port) and the handle.
///
/// # Errors
///
/// When the address cannot be bound.
pub async fn serve(
    addr: SocketAddr,
    plant: Arc<Plant>,
) -> Result<(SocketAddr, ServerHandle), Box<dyn std::error::Error + Send + Sync>> {
    let server = jsonrpsee::server::Server::builder()
        .set_http_middleware(tower::ServiceBuilder::new().layer(PlantLayer::new(plant.clone())))
        .set_rpc_middleware(RpcServiceBuilder::new().layer(PlantRpcLayer::new(plant.clone())))
        .build(addr)
        .await?;
    let bound = server.local_addr()?;
    let mut methods: jsonrpsee::Methods =
        station::module(station::Station::new(plant.clone()))?.into();
    accord_plant::jsonrpsee::register_events(&mut methods, plant)?;
    Ok((bound, server.start(methods)))
}

#[cfg(test)]
mod tests {
    use std::io::{Read, Write};
    use std::net::TcpStream;

    /// One JSON-RPC call over HTTP/1.1 with a plain socket (no client crate for a test).
    fn call(addr: std::net::SocketAddr, body: &str) -> serde_json::Value {
        let mut s = TcpStream::connect(addr).unwrap();
        write!(s, "POST / HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}", body.len()).unwrap();
        let mut reply = String::new();
        s.read_to_string(&mut reply).unwrap();
        let json = reply.split("\r\n\r\n").nth(1).unwrap();
        serde_json::from_str(json).unwrap()
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn serves_params_by_position_and_by_name_on_loopback() {
        let plant = crate::plant(crate::Config::default()).unwrap();
        let (addr, handle) = crate::serve(([127, 0, 0, 1], 0).into(), plant).await.unwrap();
        let replies = tokio::task::spawn_blocking(move || {
            [
                r#"{"jsonrpc":"2.0","id":1,"method":"pump.status","params":["P-101"]}"#,
                r#"{"jsonrpc":"2.0","id":2,"method":"pump.status","params":{"pump":"P-103"}}"#,
                r#"{"jsonrpc":"2.0","id":3,"method":"pump.status","params":["P-999"]}"#,
                r#"{"jsonrpc":"2.0","id":4,"method":"pump.start","params":{"pump":"P-103","mode":{"kind":"manual","rpm":1200},"rampTime":90}}"#,
            ]
            .map(|b| call(addr, b))
        })
        .await
        .unwrap();
        assert_eq!(replies[0]["result"]["state"], "running");
        assert_eq!(replies[1]["result"]["pump"], "P-103");
        assert_eq!(replies[2]["error"]["code"], -32004);
        assert_eq!(replies[2]["error"]["data"]["pump"], "P-999");
        assert!(replies[3]["result"]["runId"].is_string(), "{}", replies[3]);
        handle.stop().unwrap();
        handle.stopped().await;
    }
}
