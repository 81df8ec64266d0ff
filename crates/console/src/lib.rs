#![doc = include_str!("../README.md")]

mod api;
mod assets;
mod confirm;
mod error;
mod events;
mod guard;
mod known;
mod page;
mod transcript;
mod upstream;

use std::net::SocketAddr;
use std::sync::{Arc, Mutex, OnceLock, RwLock};

use accord_schema_model::Document;
use axum::Router;

pub use crate::confirm::{Confirmation, UNDECLARED_WORDS, confirmation_of};
pub use crate::error::Error;

use crate::confirm::Pending;
use crate::known::Known;
use crate::upstream::Upstream;

/// The path the page is served at.
pub const PAGE_PATH: &str = "/console";

/// How the console is set up.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Config {
    /// The contract the console holds the plant to, when it has one of its own (the contract
    /// `accord serve --console` serves, or `accord console --contract`). Without one the
    /// contract is learnt from the plant's describe answer, given a credential that gets the
    /// full answer.
    pub contract: Option<Document>,
    /// The bearer token sent to the plant for a page that presents none (`accord console
    /// --token-file`); a page's own credential always goes instead when it has one.
    pub token: Option<String>,
    /// Whether the plant is accord serve's fake: the page then offers to have one event
    /// emitted (`rpc.fake` `emit`) while watching it.
    pub fake: bool,
    /// Names served besides the loopback names and the listen address (`--allow-host`, for a
    /// console fronted by a proxy): `NAME` (any port) or `NAME:PORT`. Any other `Host`, and
    /// any `Origin` not on one of these names, is refused with 403.
    pub allow_hosts: Vec<String>,
}

/// The console: its state and the [`Router`] that serves it.
#[derive(Clone)]
pub struct Console {
    state: Arc<State>,
}

impl std::fmt::Debug for Console {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Console").field("upstream", &self.state.upstream.get()).finish()
    }
}

/// What every request of the console shares.
pub(crate) struct State {
    /// Where the plant is; set once, after the console was built (the fake's port is known
    /// only once it listens).
    upstream: OnceLock<Upstream>,
    /// The contract the console was given.
    local: Option<Arc<Known>>,
    /// The contract learnt from the plant's last full describe answer.
    learnt: RwLock<Option<Arc<Known>>>,
    /// The token sent for a page that presents none.
    token: Option<String>,
    /// Whether the plant is accord serve's fake.
    fake: bool,
    /// Calls confirmed and not yet made.
    pending: Mutex<Pending>,
    /// The secrets of the pages loaded (confirmations are bound to one).
    pages: Mutex<page::Pages>,
    /// The names the console answers on.
    allowed: guard::Allowed,
    /// The credentials (`None`: none) the plant last gave its full describe answer: only they
    /// may have params checked or calls confirmed, so that a page without the credential
    /// learns no more of the contract than the reduced answer says.
    admitted: Mutex<Vec<Option<String>>>,
}

/// The most credentials remembered as admitted.
const MAX_ADMITTED: usize = 64;

impl State {
    /// Remembers whether the plant gave `credential` its full answer.
    pub(crate) fn admit(&self, credential: &Option<String>, full: bool) {
        if let Ok(mut admitted) = self.admitted.lock() {
            admitted.retain(|c| c != credential);
            if full {
                if admitted.len() >= MAX_ADMITTED {
                    admitted.remove(0);
                }
                admitted.push(credential.clone());
            }
        }
    }

    /// Whether the plant last gave `credential` its full answer.
    pub(crate) fn admitted(&self, credential: &Option<String>) -> bool {
        self.admitted.lock().is_ok_and(|a| a.contains(credential))
    }

    /// The contract the console decides by: its own, else the one the plant last described.
    pub(crate) fn known(&self) -> Option<Arc<Known>> {
        if let Some(local) = &self.local {
            return Some(local.clone());
        }
        self.learnt.read().ok().and_then(|k| k.clone())
    }
}

impl Console {
    /// A console for `config`.
    ///
    /// # Errors
    ///
    /// The given contract's wire does not resolve or its types do not compile.
    pub fn new(config: Config) -> Result<Console, Error> {
        let local = config.contract.map(Known::new).transpose()?.map(Arc::new);
        Ok(Console {
            state: Arc::new(State {
                upstream: OnceLock::new(),
                local,
                learnt: RwLock::new(None),
                token: config.token,
                fake: config.fake,
                pending: Mutex::new(Pending::default()),
                pages: Mutex::new(page::Pages::default()),
                allowed: guard::Allowed {
                    listen: OnceLock::new(),
                    extra: config.allow_hosts.iter().map(|h| h.to_ascii_lowercase()).collect(),
                },
                admitted: Mutex::new(Vec::new()),
            }),
        })
    }

    /// Points the console at the plant at `url` (`http://` or `https://`; its WebSocket is the
    /// same URL with `ws://` or `wss://`). The API answers 503 until this is done.
    ///
    /// # Errors
    ///
    /// The URL is not an HTTP URL, or the console already has a plant.
    pub fn set_upstream(&self, url: &str) -> Result<(), Error> {
        let upstream = Upstream::new(url)?;
        self.state.upstream.set(upstream).map_err(|_| Error::UpstreamSet)
    }

    /// Tells the console the address it is served on: the loopback names are then served only
    /// with its port, and its own address is served too (unless it is 0.0.0.0 or `::`: name
    /// such a console's addresses with `allow_hosts`). Until this is done the loopback names
    /// are served on any port.
    ///
    /// # Errors
    ///
    /// [`Error::ListenSet`] when the console was already told.
    pub fn listening_on(&self, addr: SocketAddr) -> Result<(), Error> {
        self.state.allowed.listen.set(addr).map_err(|_| Error::ListenSet)
    }

    /// The router: the page at [`PAGE_PATH`], its assets and its API, every route behind the
    /// Host and Origin allow-lists.
    pub fn router(&self) -> Router {
        Router::new()
            .merge(assets::routes())
            .merge(api::routes())
            .merge(events::routes())
            .layer(axum::middleware::from_fn_with_state(self.state.clone(), guard::guard))
            .with_state(self.state.clone())
    }
}
