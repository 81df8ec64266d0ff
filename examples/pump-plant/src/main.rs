//! Contract of the Riverside pumping station: three duty pumps (P-101 to P-103) lifting river
//! water into the header tank, their isolation and control valves, and the header and buffer
//! tanks. Served by the station PLC gateway over JSON-RPC 2.0.

// The crate doc above is the contract's description. `cargo run -p pump-plant` serves the
// station on loopback (HTTP and WebSocket on one port; `--port N`, default 0: any free port,
// printed on start). Its contract is extracted from this source into
// `fixtures/contracts/pump-plant.types.json` (see `accord.toml`).

mod pump;
mod station;
mod tank;
mod valve;

use std::net::{Ipv4Addr, SocketAddr};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut port = 0u16;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match (arg.as_str(), args.next()) {
            ("--port", Some(p)) => port = p.parse()?,
            _ => return Err(format!("usage: pump-plant [--port N]; unexpected `{arg}`").into()),
        }
    }
    let server = jsonrpsee::server::Server::builder()
        .build(SocketAddr::from((Ipv4Addr::LOCALHOST, port)))
        .await?;
    let addr = server.local_addr()?;
    let handle = server.start(station::module(station::Station::new())?);
    println!("pump-plant serving on http://{addr} (and ws://{addr})");
    handle.stopped().await;
    Ok(())
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
        let server = jsonrpsee::server::Server::builder().build("127.0.0.1:0").await.unwrap();
        let addr = server.local_addr().unwrap();
        let handle = server.start(crate::station::module(crate::station::Station::new()).unwrap());
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
