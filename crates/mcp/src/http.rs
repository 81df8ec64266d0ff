//! The Streamable HTTP transport: rmcp's service mounted at `/mcp` on an axum router.

use std::net::SocketAddr;
use std::sync::Arc;

use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::task::JoinHandle;

use crate::sessions::Sessions;
use crate::{Error, Mcp};

/// The path the MCP endpoint answers on.
pub const PATH: &str = "/mcp";

/// A running Streamable HTTP server.
#[derive(Debug)]
pub struct HttpServer {
    addr: SocketAddr,
    task: JoinHandle<std::io::Result<()>>,
}

impl HttpServer {
    /// The address it listens on (the port chosen when 0 was asked).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The MCP endpoint's URL, `http://ADDR/mcp`.
    pub fn url(&self) -> String {
        format!("http://{}{PATH}", self.addr)
    }

    /// Waits until the server stops (it runs until the process ends or [`HttpServer::stop`]).
    ///
    /// # Errors
    ///
    /// [`Error::Http`] when serving failed.
    pub async fn stopped(self) -> Result<(), Error> {
        let addr = self.addr.to_string();
        match self.task.await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(Error::Http { addr, reason: e.to_string() }),
            Err(e) => Err(Error::Http { addr, reason: e.to_string() }),
        }
    }

    /// Stops serving: open sessions end with it.
    pub fn stop(&self) {
        self.task.abort();
    }
}

impl Mcp {
    /// Serves MCP over Streamable HTTP at `http://ADDR/mcp`. Only the loopback names with the
    /// bound port, the bound address and [`Options::allow_hosts`](crate::Options) are served:
    /// any other `Host`, and any `Origin` not on one of them, gets 403 (rmcp's guards against
    /// DNS rebinding and foreign pages, given this list). At most
    /// [`Options::max_sessions`](crate::Options) sessions are open at once.
    ///
    /// # Errors
    ///
    /// [`Error::Http`] when the address cannot be bound.
    pub async fn serve_http(self, addr: SocketAddr) -> Result<HttpServer, Error> {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| Error::Http { addr: addr.to_string(), reason: e.to_string() })?;
        let bound = listener
            .local_addr()
            .map_err(|e| Error::Http { addr: addr.to_string(), reason: e.to_string() })?;
        let limits = &self.inner.http;
        let (hosts, origins) = allowed(bound, &limits.allow_hosts);
        let config = StreamableHttpServerConfig::default()
            .with_allowed_hosts(hosts)
            .with_allowed_origins(origins)
            .enforce_origin_validation();
        let sessions = Arc::new(Sessions::new(limits.max_sessions, limits.session_idle));
        let service = StreamableHttpService::new(move || Ok(self.clone()), sessions, config);
        let router = axum::Router::new().route_service(PATH, service);
        let task = tokio::spawn(async move { axum::serve(listener, router).await });
        Ok(HttpServer { addr: bound, task })
    }
}

/// The `Host` authorities and `Origin`s served, in rmcp's forms: the loopback names with the
/// bound port, the bound address unless it is 0.0.0.0 or `::`, and each `extra` name (`NAME`
/// for any port, `NAME:PORT` for one).
fn allowed(bound: SocketAddr, extra: &[String]) -> (Vec<String>, Vec<String>) {
    let port = bound.port();
    let mut hosts: Vec<String> =
        ["localhost", "127.0.0.1", "[::1]"].iter().map(|h| format!("{h}:{port}")).collect();
    if !bound.ip().is_unspecified() {
        hosts.push(bound.to_string());
    }
    let mut origins: Vec<String> = hosts.iter().map(|h| format!("http://{h}")).collect();
    for name in extra {
        let name = name.to_ascii_lowercase();
        hosts.push(name.clone());
        // A name without a port: any port (rmcp's `:*`).
        let any = if name.rsplit_once(':').is_some_and(|(_, p)| p.parse::<u16>().is_ok()) {
            name.clone()
        } else {
            format!("{name}:*")
        };
        origins.push(format!("http://{any}"));
        origins.push(format!("https://{any}"));
    }
    (hosts, origins)
}
