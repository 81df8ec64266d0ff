//! `work-queue [--port N] [--db PATH]`: serves the node on 127.0.0.1 (HTTP and WebSocket on one
//! port; port 0, the default, is any free port) with its jobs in the SQLite database PATH
//! (default `work-queue.db`), and prints its URL (`http://127.0.0.1:PORT`) as the first line of
//! stdout once it listens.

use std::io::Write;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let mut port = 0u16;
    let mut db = PathBuf::from("work-queue.db");
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match (arg.as_str(), args.next()) {
            ("--port", Some(p)) => port = p.parse()?,
            ("--db", Some(p)) => db = PathBuf::from(p),
            _ => {
                return Err(format!(
                    "usage: work-queue [--port N] [--db PATH]; unexpected `{arg}`"
                )
                .into());
            }
        }
    }
    let plant = work_queue::plant(work_queue::Config::default())?;
    let (addr, handle) =
        work_queue::serve(SocketAddr::from((Ipv4Addr::LOCALHOST, port)), &db, plant).await?;
    let mut stdout = std::io::stdout();
    writeln!(stdout, "http://{addr}")?;
    stdout.flush()?;
    handle.stopped().await;
    Ok(())
}
