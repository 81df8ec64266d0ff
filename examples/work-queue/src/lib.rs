//! Contract of the work-queue node: durable named queues of JSON jobs, claimed by workers under
//! a time-limited lease and acknowledged when done. Delivery is at least once: a job whose
//! lease runs out is handed to another worker.

// The crate doc above is the contract's description. `cargo run -p work-queue -- --port N
// [--db PATH | --postgres URL]` serves the node on loopback (HTTP and WebSocket on one port; port 0, the default:
// any free port, whose URL is the first line of stdout). Its contract is the bundled
// `fixtures/contracts/work-queue.types.json`, which accord extract must find unchanged in this
// source (`accord.toml`); accord-plant holds every call to it. The jobs live in SQLite (WAL,
// synchronous FULL) or in PostgreSQL, behind the `Store` trait (store/mod.rs says what durable
// means for each); either way a kill -9 loses no acknowledged enqueue.

mod api;
mod node;
mod store;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use accord_plant::http::PlantLayer;
use accord_plant::jsonrpsee::PlantRpcLayer;
pub use accord_plant::{Config, Plant};
pub use jsonrpsee::server::ServerHandle;
use jsonrpsee::server::middleware::rpc::RpcServiceBuilder;

use crate::api::QueueApiServer;
pub use crate::store::Storage;

/// The committed contract, embedded at compile time.
const CONTRACT: &str = include_str!("../../../fixtures/contracts/work-queue.types.json");

/// The most pending jobs one queue holds before enqueue answers `queue full`.
pub const CAPACITY: u64 = 1_000_000;

/// The node's contract as accord-plant holds it, configured by `config`.
///
/// # Errors
///
/// A contract that does not read (named), or a configuration accord-plant refuses.
pub fn plant(config: Config) -> Result<Arc<Plant>, accord_plant::Error> {
    Plant::from_contract("work-queue.types.json", CONTRACT, config).map(Arc::new)
}

/// Serves the node on `addr` with its jobs where `storage` says (an SQLite path converts into
/// it) until the handle is stopped; returns the address bound and the handle.
///
/// # Errors
///
/// When the store cannot be opened (or holds a newer queue schema) or the address bound.
pub async fn serve(
    addr: SocketAddr,
    storage: impl Into<Storage>,
    plant: Arc<Plant>,
) -> Result<(SocketAddr, ServerHandle), Box<dyn std::error::Error + Send + Sync>> {
    let emitter = plant.clone();
    let sink: store::Sink = Arc::new(move |event: store::Event| {
        // A payload accord-plant refuses is its finding to report, not a reason to fail the
        // call that was already committed.
        let _ = emitter.emit(&event.name, event.payload);
    });
    let store = store::open(&storage.into(), CAPACITY, sink).await?;
    let node = node::Node { store };
    let server = jsonrpsee::server::Server::builder()
        .set_http_middleware(tower::ServiceBuilder::new().layer(PlantLayer::new(plant.clone())))
        .set_rpc_middleware(RpcServiceBuilder::new().layer(PlantRpcLayer::new(plant.clone())))
        .build(addr)
        .await?;
    let bound = server.local_addr()?;
    let mut methods: jsonrpsee::Methods = node.clone().into_rpc().into();
    accord_plant::jsonrpsee::register_events(&mut methods, plant)?;
    let handle = server.start(methods);
    // Leases that run out come back (and say so in `jobFailed`) even when nobody claims.
    let stopped = handle.clone();
    tokio::spawn(async move {
        loop {
            tokio::select! {
                () = stopped.clone().stopped() => break,
                () = tokio::time::sleep(Duration::from_secs(1)) => {}
            }
            let _ = node.store.reap_all().await;
        }
    });
    Ok((bound, handle))
}
