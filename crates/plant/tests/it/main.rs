//! Integration tests of accord-plant: one test binary, one module per concern (each was its own binary).

mod core;
mod pass_through;
mod transports;
mod usage;

/// A jsonrpsee server on a free loopback port behind `plant`: its HTTP layer in front and its
/// RPC middleware inside, serving `methods`.
async fn jsonrpsee_behind(
    plant: &std::sync::Arc<accord_plant::Plant>,
    methods: impl Into<jsonrpsee::Methods>,
) -> (std::net::SocketAddr, jsonrpsee::server::ServerHandle) {
    let server = jsonrpsee::server::Server::builder()
        .set_http_middleware(
            tower::ServiceBuilder::new().layer(accord_plant::http::PlantLayer::new(plant.clone())),
        )
        .set_rpc_middleware(
            jsonrpsee::server::middleware::rpc::RpcServiceBuilder::new()
                .layer(accord_plant::jsonrpsee::PlantRpcLayer::new(plant.clone())),
        )
        .build("127.0.0.1:0")
        .await
        .unwrap();
    let addr = server.local_addr().unwrap();
    (addr, server.start(methods))
}
