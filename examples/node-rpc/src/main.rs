//! `node-rpc [--port N]`: serves the development node on 127.0.0.1 (HTTP and WebSocket on one
//! port; port 0, the default, is any free port) and prints its URL on the first line of stdout.

use std::net::{Ipv4Addr, SocketAddr};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let mut port = 0u16;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match (arg.as_str(), args.next()) {
            ("--port", Some(p)) => port = p.parse()?,
            _ => return Err(format!("usage: node-rpc [--port N]; unexpected `{arg}`").into()),
        }
    }
    let (addr, handle) = node_rpc::serve(SocketAddr::from((Ipv4Addr::LOCALHOST, port))).await?;
    println!("node-rpc serving on http://{addr} (and ws://{addr})");
    handle.stopped().await;
    Ok(())
}
