//! The storage seam: what the node asks of a store (the `Store` trait), the refusals and events
//! every store speaks alike, and the rules they share (a lease is live or not, a payload fits).
//! Two stores: SQLite, embedded, one node per file (`sqlite.rs`); PostgreSQL, any number of
//! nodes on one database (`postgres.rs`). Both keep their own tables under versioned migrations
//! (`schema.rs`). The store test suite (`suite.rs`) runs against both.
//!
//! "Durable" per store: an answer is sent only after the change is committed. SQLite: the
//! transaction is in the write-ahead log and fsynced (WAL, synchronous FULL), so a kill -9 or a
//! power cut right after the answer loses nothing. PostgreSQL: the transaction is committed with
//! the server's own settings (`synchronous_commit` on, the default: the commit record is flushed
//! to the server's WAL before the commit returns).

mod postgres;
mod schema;
mod sqlite;
#[cfg(test)]
mod suite;

use std::path::PathBuf;
use std::sync::Arc;

use chrono::{DateTime, TimeZone, Utc};
use jsonrpsee::core::async_trait;
use serde_json::Value;
use uuid::Uuid;

use crate::api::{
    Job, JobClaimed, JobId, JobState, Lease, LeaseToken, Nullable, Priority, QueueName, QueueStats,
};

pub(crate) use postgres::PostgresStore;
pub(crate) use sqlite::SqliteStore;

/// The largest payload enqueue takes, serialised (the contract's 256 KiB).
pub(crate) const MAX_PAYLOAD: usize = 256 << 10;

/// Where the node keeps its jobs.
#[derive(Debug, Clone)]
pub enum Storage {
    /// An SQLite file (created when absent): one node per file.
    Sqlite(PathBuf),
    /// A PostgreSQL URL (`postgres://user@host:port/db`): any number of nodes on one database.
    Postgres(String),
}

impl From<&std::path::Path> for Storage {
    fn from(path: &std::path::Path) -> Storage {
        Storage::Sqlite(path.to_owned())
    }
}

impl From<&PathBuf> for Storage {
    fn from(path: &PathBuf) -> Storage {
        Storage::Sqlite(path.clone())
    }
}

/// Why a call could not be done: a declared error of the contract, or the store failing.
#[derive(Debug)]
pub(crate) enum Refusal {
    QueueFull {
        queue: String,
        capacity: u64,
    },
    PayloadTooLarge {
        size: usize,
    },
    NotFound(Uuid),
    LeaseExpired {
        expired_at: DateTime<Utc>,
        claimed_by: Option<String>,
    },
    TokenMismatch,
    /// The database refused or could not be reached (read-only, full disk, corrupt, server
    /// down): an error answer, never a job lost.
    Store(String),
}

/// One event of the contract (`queue.jobEnqueued`, ...) with its payload, sent to the node's
/// subscribers once the change that caused it is committed.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Event {
    pub(crate) name: String,
    pub(crate) payload: Value,
}

impl Event {
    pub(crate) fn new(name: &str, payload: impl serde::Serialize) -> Event {
        Event { name: name.to_owned(), payload: serde_json::to_value(payload).unwrap_or_default() }
    }
}

/// Where a store sends its events: the node's subscribers (accord-plant's `emit`).
pub(crate) type Sink = Arc<dyn Fn(Event) + Send + Sync>;

/// A job to add.
#[derive(Debug, Clone)]
pub(crate) struct NewJob {
    pub(crate) queue: QueueName,
    pub(crate) payload: Value,
    pub(crate) priority: u8,
    pub(crate) delay_ms: u64,
    pub(crate) max_attempts: u32,
}

/// What a nack did: the job's state, its attempts, when it is visible again (requeued).
pub(crate) type Nacked = (JobState, u32, Option<DateTime<Utc>>);

/// What the node asks of a store. Every method that changes jobs commits before it returns
/// (see the module doc for what that means per store) and sends its events to the store's sink
/// only after the commit.
#[async_trait]
pub(crate) trait Store: Send + Sync {
    /// Adds jobs, all or none (one job: a plain enqueue); their ids and visibility times.
    async fn enqueue(&self, jobs: Vec<NewJob>) -> Result<Vec<(JobId, DateTime<Utc>)>, Refusal>;
    /// Claims up to `max` visible jobs of `queue` for `worker`, highest priority first, oldest
    /// first within a priority; expired leases of the queue come back first.
    async fn claim(
        &self,
        queue: QueueName,
        worker: String,
        lease_s: u32,
        max: u32,
    ) -> Result<Vec<Lease>, Refusal>;
    /// Acks each (job, token): its completion time, or why not; one commit for all.
    async fn ack(
        &self,
        acks: Vec<(Uuid, String)>,
    ) -> Result<Vec<Result<DateTime<Utc>, Refusal>>, Refusal>;
    /// Nacks a job: requeued after `delay_ms`, or dead (no requeue, or out of attempts).
    async fn nack(
        &self,
        id: Uuid,
        token: String,
        requeue: bool,
        delay_ms: u64,
        error: Option<String>,
    ) -> Result<Nacked, Refusal>;
    /// The counters of `queue`, or of every queue.
    async fn stats(&self, queue: Option<QueueName>) -> Result<Vec<QueueStats>, Refusal>;
    /// Hands back every expired lease (a timer calls this, so that jobs come back and their
    /// `jobFailed` events are sent even when nobody claims).
    async fn reap_all(&self) -> Result<(), Refusal>;
}

/// Opens the store `storage` names, migrating its queue schema; events go to `sink`.
pub(crate) async fn open(
    storage: &Storage,
    capacity: u64,
    sink: Sink,
) -> Result<Arc<dyn Store>, Box<dyn std::error::Error + Send + Sync>> {
    Ok(match storage {
        Storage::Sqlite(path) => {
            let path = path.clone();
            let store =
                tokio::task::spawn_blocking(move || SqliteStore::open(&path, capacity, sink))
                    .await??;
            Arc::new(store)
        }
        Storage::Postgres(url) => Arc::new(PostgresStore::open(url, capacity, sink).await?),
    })
}

pub(crate) fn ms(at: DateTime<Utc>) -> i64 {
    at.timestamp_millis()
}

pub(crate) fn at(ms: i64) -> DateTime<Utc> {
    Utc.timestamp_millis_opt(ms).single().unwrap_or_default()
}

pub(crate) fn state_of(name: &str) -> JobState {
    match name {
        "claimed" => JobState::Claimed,
        "completed" => JobState::Completed,
        "dead" => JobState::Dead,
        _ => JobState::Pending,
    }
}

/// The payload as stored, or `PayloadTooLarge`.
pub(crate) fn payload_text(payload: &Value) -> Result<String, Refusal> {
    let text = serde_json::to_string(payload).map_err(|e| Refusal::Store(e.to_string()))?;
    if text.len() > MAX_PAYLOAD {
        return Err(Refusal::PayloadTooLarge { size: text.len() });
    }
    Ok(text)
}

/// A fresh lease token.
pub(crate) fn token() -> String {
    format!("lt_{}", Uuid::new_v4().simple())
}

/// A job just claimed, as both stores read it back.
pub(crate) struct Claimed {
    pub(crate) id: Uuid,
    pub(crate) token: String,
    pub(crate) payload: String,
    pub(crate) priority: u8,
    /// This claim included.
    pub(crate) attempts: u32,
    pub(crate) max_attempts: u32,
    pub(crate) enqueued_at: i64,
    pub(crate) last_error: Option<String>,
}

/// The lease a claim answers for `job`, and its `jobClaimed` event.
pub(crate) fn lease(
    job: Claimed,
    queue: &QueueName,
    worker: &str,
    lease_s: u32,
    expires_at: DateTime<Utc>,
) -> (Lease, Event) {
    let id = JobId(job.id);
    let event = Event::new(
        "queue.jobClaimed",
        JobClaimed {
            id,
            queue: queue.clone(),
            worker: worker.to_owned(),
            attempt: job.attempts,
            expires_at,
        },
    );
    let lease = Lease {
        token: LeaseToken(job.token),
        job: Job {
            id,
            queue: queue.clone(),
            payload: serde_json::from_str(&job.payload).unwrap_or_default(),
            priority: Priority(job.priority),
            state: JobState::Claimed,
            attempts: job.attempts,
            max_attempts: job.max_attempts,
            enqueued_at: at(job.enqueued_at),
            last_error: job.last_error.map_or(Nullable::Null, Nullable::Value),
        },
        worker: worker.to_owned(),
        duration: lease_s,
        expires_at,
    };
    (lease, event)
}

/// What settling a job reads.
pub(crate) struct Settling {
    pub(crate) queue: String,
    pub(crate) state: JobState,
    pub(crate) attempts: u32,
    pub(crate) max_attempts: u32,
    pub(crate) token: Option<String>,
    pub(crate) previous: Option<String>,
    pub(crate) nacked: Option<String>,
    pub(crate) worker: Option<String>,
    pub(crate) claimed_at: Option<i64>,
    pub(crate) expires_at: Option<i64>,
    pub(crate) completed_at: Option<i64>,
    pub(crate) visible_at: i64,
}

/// The columns `Settling` reads, in its order (both stores name them alike).
pub(crate) const SETTLING_COLUMNS: &str = "queue, state, attempts, max_attempts, token, \
     previous_token, nacked_token, worker, claimed_at, expires_at, completed_at, visible_at";

/// Checks that `token` is the job's live lease: `Ok` when it is; the declared refusal when it
/// is the last lease's (expired) or neither.
pub(crate) fn live(job: &Settling, token: &str, now: i64) -> Result<(), Refusal> {
    let current = job.token.as_deref() == Some(token);
    if current && job.state == JobState::Claimed && job.expires_at.unwrap_or(0) > now {
        return Ok(());
    }
    if current || job.previous.as_deref() == Some(token) {
        let claimed_by =
            (job.state == JobState::Claimed && !current).then(|| job.worker.clone()).flatten();
        return Err(Refusal::LeaseExpired {
            expired_at: at(job.expires_at.unwrap_or(now)),
            claimed_by,
        });
    }
    Err(Refusal::TokenMismatch)
}

/// What an ack of `job` under `token` at `now` does: `Ok(Some(at))` when it was acked before
/// under this token (the same answer, nothing changes), `Ok(None)` when it is to be completed
/// now, or the refusal.
pub(crate) fn ack_decision(
    job: &Settling,
    token: &str,
    now: i64,
) -> Result<Option<DateTime<Utc>>, Refusal> {
    if job.state == JobState::Completed && job.token.as_deref() == Some(token) {
        return Ok(Some(at(job.completed_at.unwrap_or(now))));
    }
    live(job, token, now).map(|()| None)
}

/// What a nack decides before it writes: `Err(Ok(answer))` when nacked before under this
/// token (the same answer), `Err(Err(refusal))` when refused, `Ok(dead)` when it is to be done.
pub(crate) fn nack_decision(
    job: &Settling,
    token: &str,
    requeue: bool,
    now: i64,
) -> Result<bool, Result<Nacked, Refusal>> {
    if job.nacked.as_deref() == Some(token) {
        let visible = (job.state == JobState::Pending).then(|| at(job.visible_at));
        return Err(Ok((job.state, job.attempts.max(1), visible)));
    }
    live(job, token, now).map_err(Err)?;
    Ok(!requeue || job.attempts >= job.max_attempts)
}
