//! Contract of the Hillside boiler house: the burner management of its package steam boiler,
//! served by a plain jsonrpsee server, with jsonrpsee's own wire: `boiler_status` names, no
//! describe method, jsonrpsee's error codes and one method per subscription.

// The crate doc above is the contract's description. `cargo run -p boiler-plant` serves the
// boiler on loopback (HTTP and WebSocket on one port; `--port N`, default 0: any free port,
// printed on the first line of stdout). Its contract is extracted from this source, wire and
// all, into `fixtures/contracts/boiler-plant.types.json` (see `accord.toml`). The library is
// what the binary runs, so that tests can start the same plant in-process on 127.0.0.1:0.

mod boiler;
mod plant;

use std::net::SocketAddr;

pub use jsonrpsee::server::ServerHandle;

/// Serves the boiler on `addr` (HTTP and WebSocket on one port) until the handle is stopped;
/// returns the address bound (port 0: any free port) and the handle.
///
/// # Errors
///
/// When the address cannot be bound.
pub async fn serve(
    addr: SocketAddr,
) -> Result<(SocketAddr, ServerHandle), Box<dyn std::error::Error + Send + Sync>> {
    // No middleware: jsonrpsee as its users run it. It reads the positional params a method
    // declares and ignores any after them, which conform takes as tolerance (docs/conform.md).
    let server = jsonrpsee::server::Server::builder().build(addr).await?;
    let bound = server.local_addr()?;
    let handle = server.start(plant::module(plant::Boiler::new())?);
    Ok((bound, handle))
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
    async fn serves_underscore_names_checks_params_and_answers_declared_errors_without_middleware()
    {
        let (addr, handle) = crate::serve(([127, 0, 0, 1], 0).into()).await.unwrap();
        let replies = tokio::task::spawn_blocking(move || {
            [
                r#"{"jsonrpc":"2.0","id":1,"method":"boiler_reading","params":["drumPressure"]}"#,
                r#"{"jsonrpc":"2.0","id":2,"method":"boiler_reading","params":["flueOxygen"]}"#,
                r#"{"jsonrpc":"2.0","id":3,"method":"boiler_reading","params":["noSuchSensor"]}"#,
                r#"{"jsonrpc":"2.0","id":4,"method":"boiler_setSetpoint","params":[300]}"#,
                r#"{"jsonrpc":"2.0","id":5,"method":"boiler_fire","params":[20,true]}"#,
                r#"{"jsonrpc":"2.0","id":6,"method":"boiler.status","params":[]}"#,
                r#"{"jsonrpc":"2.0","id":7,"method":"boiler_fire","params":[60]}"#,
                r#"{"jsonrpc":"2.0","id":8,"method":"boiler_reading","params":["drumPressure",1]}"#,
                r#"{"jsonrpc":"2.0","id":9,"method":"boiler_status","params":"all"}"#,
            ]
            .map(|b| call(addr, b))
        })
        .await
        .unwrap();
        assert_eq!(replies[0]["result"]["sensor"], "drumPressure", "{}", replies[0]);
        assert_eq!(replies[1]["error"]["code"], -32020);
        assert_eq!(replies[2]["error"]["code"], -32602);
        assert_eq!(replies[3]["error"]["code"], -32602);
        assert_eq!(replies[4]["error"]["code"], -32021);
        assert_eq!(replies[5]["error"]["code"], -32601, "accord's `.` names are not served");
        assert_eq!(replies[6]["result"]["firingRate"], 60, "{}", replies[6]);
        // jsonrpsee reads the params a method declares and ignores the rest, and a method
        // without params never looks at them: tolerance, which conform passes with a note.
        assert_eq!(
            replies[7]["result"]["sensor"], "drumPressure",
            "more params than declared: {}",
            replies[7]
        );
        assert!(
            replies[8]["result"].is_object(),
            "params neither array nor object: {}",
            replies[8]
        );
        handle.stop().unwrap();
        handle.stopped().await;
    }
}
