//! The connection limit (docs/wire.md §9): every accepted connection, HTTP or WebSocket, holds
//! one slot from accept until it closes (a WebSocket keeps the slot of the HTTP connection it
//! was upgraded from). When every slot is taken, the oldest HTTP connection that is not being
//! answered (idle between requests, or still sending a request's head or body: a slowloris
//! peer is one of these) is closed to make room, so that stalled connections can never starve
//! a normal call; only when every slot is a WebSocket or an answer in progress is the new
//! connection refused, with HTTP 503 and `-32003` naming `connections`.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};

/// How long accept waits for the slot of a connection it closed to come back.
const EVICT_WAIT: Duration = Duration::from_secs(1);

/// Every connection's slot, and the HTTP connections that may be closed to make room.
pub(crate) struct Slots {
    semaphore: Arc<Semaphore>,
    max: usize,
    /// The HTTP connections open, by accept order: the first is the oldest.
    open: Mutex<BTreeMap<u64, Arc<Conn>>>,
    next: AtomicU64,
}

/// One accepted connection.
pub(crate) struct Conn {
    id: u64,
    /// Requests of this connection being answered by the plant (a connection with one is never
    /// closed to make room).
    answering: AtomicUsize,
    /// Told when the connection is to close to make room.
    evicted: Notify,
    /// The slot; taken by the WebSocket an upgrade makes of the connection.
    permit: Mutex<Option<OwnedSemaphorePermit>>,
}

impl Slots {
    /// `max` slots (at most what a semaphore can count).
    pub(crate) fn new(max: usize) -> Slots {
        let max = max.min(Semaphore::MAX_PERMITS);
        Slots {
            semaphore: Arc::new(Semaphore::new(max)),
            max,
            open: Mutex::new(BTreeMap::new()),
            next: AtomicU64::new(0),
        }
    }

    /// A slot for a connection just accepted: a free one, or one freed by closing the oldest
    /// HTTP connection not being answered; `None` when there is none to close.
    pub(crate) async fn admit(self: &Arc<Self>) -> Option<Arc<Conn>> {
        let permit = match self.semaphore.clone().try_acquire_owned() {
            Ok(permit) => permit,
            Err(_) => {
                let evicted = self.evict_oldest()?;
                tracing::info!(
                    transport = "http",
                    "connection limit reached: closed the oldest connection not being answered"
                );
                drop(evicted);
                let waiting = self.semaphore.clone().acquire_owned();
                tokio::time::timeout(EVICT_WAIT, waiting).await.ok()?.ok()?
            }
        };
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let conn = Arc::new(Conn {
            id,
            answering: AtomicUsize::new(0),
            evicted: Notify::new(),
            permit: Mutex::new(Some(permit)),
        });
        self.lock().insert(id, conn.clone());
        Some(conn)
    }

    /// Tells the oldest connection not being answered to close, and forgets it.
    fn evict_oldest(&self) -> Option<Arc<Conn>> {
        let mut open = self.lock();
        let id = open.values().find(|c| c.answering.load(Ordering::Acquire) == 0)?.id;
        let conn = open.remove(&id)?;
        conn.evicted.notify_one();
        Some(conn)
    }

    /// Forgets a connection that closed or became a WebSocket.
    pub(crate) fn forget(&self, conn: &Conn) {
        self.lock().remove(&conn.id);
    }

    /// Waits until every slot is free again (every connection closed), up to `grace`.
    pub(crate) async fn all_free(&self, grace: Duration) {
        let all = u32::try_from(self.max).unwrap_or(u32::MAX);
        let _ = tokio::time::timeout(grace, self.semaphore.acquire_many(all)).await;
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, Arc<Conn>>> {
        // A panic while holding the map leaves it whole (inserts and removes only).
        self.open.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Conn {
    /// Resolves when the connection is to close to make room.
    pub(crate) async fn evicted(&self) {
        self.evicted.notified().await;
    }

    /// Marks a request of this connection as being answered until the guard drops.
    pub(crate) fn answering(&self) -> Answering<'_> {
        self.answering.fetch_add(1, Ordering::AcqRel);
        Answering(self)
    }

    /// The slot, for the WebSocket this connection becomes (`None` if already taken).
    pub(crate) fn take_permit(&self) -> Option<OwnedSemaphorePermit> {
        self.permit.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take()
    }
}

/// A request being answered (see [`Conn::answering`]).
pub(crate) struct Answering<'a>(&'a Conn);

impl Drop for Answering<'_> {
    fn drop(&mut self) {
        self.0.answering.fetch_sub(1, Ordering::AcqRel);
    }
}
