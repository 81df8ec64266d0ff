#![doc = include_str!("../README.md")]

pub mod annotations;
pub mod catalog;
mod error;
mod handler;
pub mod http;
pub mod names;
pub mod policy;
pub mod portable;
mod resources;
pub mod schema;
mod sessions;
mod stdio;

use std::sync::Arc;
use std::time::Duration;

use accord_client::Client;
use accord_schema_model::{Dialect, Document};
use accord_validate::Contract;
use rmcp::ServiceExt;

pub use crate::catalog::Catalog;
pub use crate::error::Error;
pub use crate::policy::{Class, ExposurePolicy};
use crate::resources::Resources;
pub use crate::sessions::{DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE};

/// Where calls go.
#[derive(Debug, Clone)]
pub enum Backend {
    /// `accord serve`'s engine, started in-process on 127.0.0.1 with this seed.
    Fake {
        /// The seed of every generated value (`accord serve --seed`).
        seed: u64,
    },
    /// A live plant.
    Upstream {
        /// `http://…` or `ws://…`.
        url: String,
        /// The plant's Bearer token.
        token: Option<String>,
    },
}

/// How to serve.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Options {
    /// What is exposed.
    pub policy: ExposurePolicy,
    /// Where calls go.
    pub backend: Backend,
    /// How long one call to the plant may take.
    pub timeout: Duration,
    /// Streamable HTTP: names served besides the loopback names and the listen address
    /// (`--allow-host`): `NAME` (any port) or `NAME:PORT`, for `Host` and `Origin` alike.
    pub allow_hosts: Vec<String>,
    /// Streamable HTTP: the most sessions open at once; one more closes the idlest.
    pub max_sessions: usize,
    /// Streamable HTTP: how long a session may stay unused before it is closed.
    pub session_idle: Duration,
}

impl Options {
    /// Calls go to `backend`, with the default policy (read, idempotent and write methods
    /// exposed; destructive and undeclared ones hidden) and `accord mcp`'s default timeout of
    /// 30 s; set the other fields after.
    pub fn new(backend: Backend) -> Options {
        Options {
            policy: ExposurePolicy::default(),
            backend,
            timeout: Duration::from_secs(30),
            allow_hosts: Vec::new(),
            max_sessions: DEFAULT_MAX_SESSIONS,
            session_idle: DEFAULT_SESSION_IDLE,
        }
    }
}

/// An MCP server of one contract: cheap to clone (the Streamable HTTP transport makes one per
/// session), all clones sharing one backend.
#[derive(Clone)]
pub struct Mcp {
    inner: Arc<Inner>,
}

struct Inner {
    doc: Document,
    contract: Contract,
    catalog: Catalog,
    client: Client,
    fake: bool,
    resources: Resources,
    /// What `serve_http` is bounded by.
    http: HttpLimits,
    /// The in-process fake, kept alive as long as the server.
    _plant: Option<accord_serve::Server>,
}

/// [`Options`]' Streamable HTTP part.
struct HttpLimits {
    allow_hosts: Vec<String>,
    max_sessions: usize,
    session_idle: Duration,
}

impl Mcp {
    /// Builds the tools of `doc` under `options.policy` and starts or reaches the backend.
    ///
    /// # Errors
    ///
    /// A wire that does not resolve, a contract that does not compile or export, a fake that
    /// cannot start, an upstream URL that cannot be used.
    pub async fn start(doc: Document, options: Options) -> Result<Mcp, Error> {
        let dialect = Dialect::of(&doc).map_err(|e| Error::Wire(e.to_string()))?;
        let contract = Contract::compile(&doc).map_err(|e| Error::Compile(e.to_string()))?;
        let fake = matches!(options.backend, Backend::Fake { .. });
        let catalog = Catalog::build(&doc, &dialect, &options.policy, !fake)?;
        let resources = Resources::build(&doc);
        let (client, plant) = match options.backend {
            Backend::Fake { seed } => {
                let mut config = accord_serve::Config::default();
                config.addr = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
                config.seed = seed;
                let plant = accord_serve::start(doc.clone(), config)
                    .await
                    .map_err(|e| Error::Fake(e.to_string()))?;
                let client = Client::new(dialect, &plant.url(), None, options.timeout)
                    .map_err(|e| Error::Fake(e.to_string()))?;
                (client, Some(plant))
            }
            Backend::Upstream { url, token } => {
                let client = Client::new(dialect, &url, token.as_deref(), options.timeout)
                    .map_err(|e| Error::Upstream(e.to_string()))?;
                (client, None)
            }
        };
        Ok(Mcp {
            inner: Arc::new(Inner {
                doc,
                contract,
                catalog,
                client,
                fake,
                resources,
                http: HttpLimits {
                    allow_hosts: options.allow_hosts,
                    max_sessions: options.max_sessions,
                    session_idle: options.session_idle,
                },
                _plant: plant,
            }),
        })
    }

    /// The tools and what is hidden.
    pub fn catalog(&self) -> &Catalog {
        &self.inner.catalog
    }

    /// Serves one MCP session on stdin and stdout until the client closes it. Input is not read
    /// while the host leaves answers unread (at most 64 messages wait); a line that is not
    /// JSON gets a `-32700` answer.
    ///
    /// # Errors
    ///
    /// [`Error::Mcp`] when the session cannot be initialised or fails.
    pub async fn serve_stdio(self) -> Result<(), Error> {
        let running =
            self.serve(stdio::Stdio::new()).await.map_err(|e| Error::Mcp(e.to_string()))?;
        running.waiting().await.map_err(|e| Error::Mcp(e.to_string()))?;
        Ok(())
    }
}
