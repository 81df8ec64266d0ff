//! The Streamable HTTP transport: rmcp's service mounted at `/mcp` on an axum router.

use std::net::SocketAddr;
use std::sync::Arc;

use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::task::JoinHandle;

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
    /// Serves MCP over Streamable HTTP at `http://ADDR/mcp`. Only loopback `Host` headers are
    /// accepted (rmcp's guard against DNS rebinding).
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
        let service = StreamableHttpService::new(
            move || Ok(self.clone()),
            Arc::new(LocalSessionManager::default()),
            StreamableHttpServerConfig::default(),
        );
        let router = axum::Router::new().route_service(PATH, service);
        let task = tokio::spawn(async move { axum::serve(listener, router).await });
        Ok(HttpServer { addr: bound, task })
    }
}
