//! The Streamable HTTP sessions, bounded: rmcp's in-memory session manager keeps every session
//! until its idle timeout (300 s by default), about 84 KB each, so 20,000 `initialize` posts took
//! the process to 1.7 GB. [`Sessions`] wraps it with a cap: creating a session past the cap
//! first closes the idlest one (its client gets 404 and, as the MCP specification says,
//! initializes again), and every session idle longer than the idle timeout is closed then too.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use futures_util::Stream;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::ServerSseMessage;
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError, SessionConfig,
};
use rmcp::transport::streamable_http_server::{SessionId, SessionManager};

/// `accord mcp --http`'s default cap on open sessions.
pub const DEFAULT_MAX_SESSIONS: usize = 256;

/// `accord mcp --http`'s default idle timeout of a session (rmcp's own is 300 s).
pub const DEFAULT_SESSION_IDLE: Duration = Duration::from_secs(120);

/// rmcp's local session manager with a cap on open sessions and the idle timeout.
pub(crate) struct Sessions {
    inner: LocalSessionManager,
    max: usize,
    idle: Duration,
    /// When each open session was last used.
    used: Mutex<HashMap<SessionId, Instant>>,
}

impl Sessions {
    pub(crate) fn new(max: usize, idle: Duration) -> Sessions {
        let mut inner = LocalSessionManager::default();
        let mut config = SessionConfig::default();
        config.keep_alive = Some(idle);
        inner.session_config = config;
        Sessions { inner, max: max.max(1), idle, used: Mutex::new(HashMap::new()) }
    }

    fn touch(&self, id: &SessionId) {
        if let Ok(mut used) = self.used.lock()
            && let Some(at) = used.get_mut(id)
        {
            *at = Instant::now();
        }
    }

    /// The sessions to close before one more opens: those idle past the timeout, and the
    /// idlest while the cap would be passed. They are forgotten here at once.
    fn to_close(&self) -> Vec<SessionId> {
        let Ok(mut used) = self.used.lock() else { return Vec::new() };
        let now = Instant::now();
        let mut closing: Vec<SessionId> = used
            .iter()
            .filter(|(_, at)| now.duration_since(**at) >= self.idle)
            .map(|(id, _)| id.clone())
            .collect();
        for id in &closing {
            used.remove(id);
        }
        while used.len() >= self.max {
            let Some(idlest) = used.iter().min_by_key(|(_, at)| **at).map(|(id, _)| id.clone())
            else {
                break;
            };
            used.remove(&idlest);
            closing.push(idlest);
        }
        closing
    }
}

impl SessionManager for Sessions {
    type Error = LocalSessionManagerError;
    type Transport = <LocalSessionManager as SessionManager>::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        for id in self.to_close() {
            // A session that already ended is not an error here: it is gone either way.
            let _ = self.inner.close_session(&id).await;
        }
        let (id, transport) = self.inner.create_session().await?;
        if let Ok(mut used) = self.used.lock() {
            used.insert(id.clone(), Instant::now());
        }
        Ok((id, transport))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        self.touch(id);
        self.inner.initialize_session(id, message).await
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        self.inner.has_session(id).await
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        if let Ok(mut used) = self.used.lock() {
            used.remove(id);
        }
        self.inner.close_session(id).await
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id);
        self.inner.create_stream(id, message).await
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        self.touch(id);
        self.inner.accept_message(id, message).await
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id);
        self.inner.create_standalone_stream(id).await
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id);
        self.inner.resume(id, last_event_id).await
    }
}
