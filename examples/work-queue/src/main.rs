//! `work-queue [--port N] [--db PATH | --postgres URL] [--metrics-path PATH]`: serves the node on 127.0.0.1 (HTTP and
//! WebSocket on one port; port 0, the default, is any free port) with its jobs in the SQLite
//! database PATH (default `work-queue.db`) or in the PostgreSQL database at URL (any number of
//! nodes may share one), and prints its URL (`http://127.0.0.1:PORT`) as the first line of stdout
//! once it listens. With `--metrics-path`, it counts what its callers use and answers the
//! counts as OpenMetrics text on `GET PATH` (docs/usage.md).
//!
//! SIGTERM (or SIGINT) stops it gracefully: no new connection is taken, every call in flight is
//! answered, then it exits 0; calls still unanswered after `DRAIN` are cut off and it exits 1.

use std::io::Write;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

use tokio::signal::unix::{SignalKind, signal};
use work_queue::Storage;

/// How long a stopping node waits for the calls in flight.
const DRAIN: Duration = Duration::from_secs(10);

const USAGE: &str =
    "usage: work-queue [--port N] [--db PATH | --postgres URL] [--metrics-path PATH]";

/// What `--help` prints.
const HELP: &str = "\
The work-queue node: a JSON-RPC queue (the contract in examples/work-queue) on 127.0.0.1.

usage: work-queue [--port N] [--db PATH | --postgres URL] [--metrics-path PATH]

  --port N          the port to listen on (0, the default: a free one); the URL is printed
  --db PATH         the SQLite database (made when missing; default ./work-queue.db)
  --postgres URL    a PostgreSQL database instead, shared by any number of nodes
  --metrics-path P  count what callers use; the counts as OpenMetrics text on GET P (/metrics)
  -h, --help        this text

SIGTERM or Ctrl-C: the calls in flight are answered, then the node exits (docs/work-queue.md).";

#[tokio::main]
async fn main() -> std::process::ExitCode {
    match run().await {
        Ok(code) => code,
        Err(error) => {
            eprintln!("work-queue: {error}");
            std::process::ExitCode::from(2)
        }
    }
}

async fn run() -> Result<std::process::ExitCode, Box<dyn std::error::Error + Send + Sync>> {
    let mut port = 0u16;
    let mut storage = None;
    let mut config = work_queue::Config::default();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--help" || arg == "-h" {
            println!("{HELP}");
            return Ok(std::process::ExitCode::SUCCESS);
        }
        match (arg.as_str(), args.next(), &storage) {
            ("--port", Some(p), _) => port = p.parse().map_err(|e| format!("--port {p}: {e}"))?,
            ("--db", Some(p), None) => storage = Some(Storage::Sqlite(PathBuf::from(p))),
            ("--postgres", Some(url), None) => storage = Some(Storage::Postgres(url)),
            ("--metrics-path", Some(path), _) => config.metrics_path = Some(path),
            ("--db" | "--postgres", Some(_), Some(_)) => {
                return Err(format!("{USAGE}; one store only: `{arg}` after another").into());
            }
            _ => return Err(format!("{USAGE}; unexpected `{arg}`").into()),
        }
    }
    let storage = storage.unwrap_or_else(|| {
        // Said, since it writes files (the database and its -wal and -shm) into the working
        // directory.
        eprintln!("work-queue: no --db or --postgres given: storing jobs in ./work-queue.db");
        Storage::Sqlite(PathBuf::from("work-queue.db"))
    });
    let mut terminate = signal(SignalKind::terminate())?;
    let mut interrupt = signal(SignalKind::interrupt())?;
    let plant = work_queue::plant(config)?;
    let (addr, handle) =
        work_queue::serve(SocketAddr::from((Ipv4Addr::LOCALHOST, port)), storage, plant).await?;
    let mut stdout = std::io::stdout();
    writeln!(stdout, "http://{addr}")?;
    stdout.flush()?;
    tokio::select! {
        () = handle.clone().stopped() => return Ok(std::process::ExitCode::SUCCESS),
        _ = terminate.recv() => {}
        _ = interrupt.recv() => {}
    }
    // Stop taking connections; the open ones finish the calls they carry (hyper's graceful
    // shutdown under jsonrpsee), and `stopped` resolves once every connection is closed.
    let _ = handle.stop();
    if tokio::time::timeout(DRAIN, handle.stopped()).await.is_err() {
        eprintln!("work-queue: calls still in flight after {}s; stopping anyway", DRAIN.as_secs());
        return Ok(std::process::ExitCode::FAILURE);
    }
    Ok(std::process::ExitCode::SUCCESS)
}
