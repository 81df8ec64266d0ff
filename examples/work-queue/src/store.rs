//! The jobs, kept in SQLite (WAL, synchronous FULL): an enqueue is answered only after its
//! transaction is on disk, so a kill -9 right after the answer loses nothing. One connection
//! behind a mutex: SQLite has one writer anyway, and claims done one at a time can never hand
//! one job to two workers.

use std::path::Path;
use std::sync::Mutex;

use chrono::{DateTime, TimeZone, Utc};
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use serde_json::Value;
use uuid::Uuid;

use crate::api::{
    FailReason, Job, JobClaimed, JobCompleted, JobEnqueued, JobFailed, JobId, JobState, Lease,
    LeaseToken, Nullable, Priority, QueueName, QueueStats,
};

/// The largest payload enqueue takes, serialised (the contract's 256 KiB).
pub(crate) const MAX_PAYLOAD: usize = 256 << 10;

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
    /// The database refused (read-only, full disk, corrupt): an error answer, never a job lost.
    Store(String),
}

impl From<rusqlite::Error> for Refusal {
    fn from(error: rusqlite::Error) -> Refusal {
        Refusal::Store(error.to_string())
    }
}

/// What a call changed, for the events.
#[derive(Debug, Default)]
pub(crate) struct Happened {
    pub(crate) enqueued: Vec<JobEnqueued>,
    pub(crate) claimed: Vec<JobClaimed>,
    pub(crate) completed: Vec<JobCompleted>,
    pub(crate) failed: Vec<JobFailed>,
}

/// The store.
pub(crate) struct Store {
    db: Mutex<Connection>,
    /// The most pending jobs one queue holds.
    capacity: u64,
    /// When the node started (stats count completions since).
    started: i64,
}

fn ms(at: DateTime<Utc>) -> i64 {
    at.timestamp_millis()
}

fn at(ms: i64) -> DateTime<Utc> {
    Utc.timestamp_millis_opt(ms).single().unwrap_or_default()
}

fn state_of(name: &str) -> JobState {
    match name {
        "claimed" => JobState::Claimed,
        "completed" => JobState::Completed,
        "dead" => JobState::Dead,
        _ => JobState::Pending,
    }
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS jobs (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    queue TEXT NOT NULL,
    payload TEXT NOT NULL,
    priority INTEGER NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL,
    max_attempts INTEGER NOT NULL,
    enqueued_at INTEGER NOT NULL,
    visible_at INTEGER NOT NULL,
    token TEXT,
    worker TEXT,
    claimed_at INTEGER,
    expires_at INTEGER,
    previous_token TEXT,
    nacked_token TEXT,
    last_error TEXT,
    completed_at INTEGER
);
CREATE INDEX IF NOT EXISTS claimable ON jobs (queue, state, priority DESC, seq);
";

impl Store {
    /// Opens (or creates) the database at `path`.
    pub(crate) fn open(path: &Path, capacity: u64) -> Result<Store, rusqlite::Error> {
        let db = Connection::open(path)?;
        // A read-only file cannot switch to WAL: the node still starts, and every write is
        // answered with an error rather than accepted and lost.
        let _ = db.pragma_update(None, "journal_mode", "WAL");
        db.pragma_update(None, "synchronous", "FULL")?;
        db.busy_timeout(std::time::Duration::from_secs(5))?;
        if let Err(error) = db.execute_batch(SCHEMA)
            && !db.is_readonly(rusqlite::MAIN_DB).unwrap_or(false)
        {
            return Err(error);
        }
        Ok(Store { db: Mutex::new(db), capacity, started: ms(Utc::now()) })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.db.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Adds a job.
    pub(crate) fn enqueue(
        &self,
        queue: &QueueName,
        payload: &Value,
        priority: u8,
        delay_ms: u64,
        max_attempts: u32,
        happened: &mut Happened,
    ) -> Result<(JobId, DateTime<Utc>), Refusal> {
        let text = serde_json::to_string(payload).map_err(|e| Refusal::Store(e.to_string()))?;
        if text.len() > MAX_PAYLOAD {
            return Err(Refusal::PayloadTooLarge { size: text.len() });
        }
        let now = Utc::now();
        let visible = now + chrono::Duration::milliseconds(delay_ms as i64);
        let id = Uuid::new_v4();
        let mut db = self.lock();
        let tx = db.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let pending: u64 = tx.query_row(
            "SELECT COUNT(*) FROM jobs WHERE queue = ?1 AND state = 'pending'",
            params![queue.0],
            |r| r.get(0),
        )?;
        if pending >= self.capacity {
            return Err(Refusal::QueueFull { queue: queue.0.clone(), capacity: self.capacity });
        }
        tx.execute(
            "INSERT INTO jobs (id, queue, payload, priority, state, attempts, max_attempts, enqueued_at, visible_at)
             VALUES (?1, ?2, ?3, ?4, 'pending', 0, ?5, ?6, ?7)",
            params![id.to_string(), queue.0, text, priority, max_attempts, ms(now), ms(visible)],
        )?;
        tx.commit()?;
        happened.enqueued.push(JobEnqueued {
            id: JobId(id),
            queue: queue.clone(),
            priority: Priority(priority),
            visible_at: visible,
        });
        Ok((JobId(id), visible))
    }

    /// Hands back every job of `queue` (all queues: `None`) whose lease ran out: pending again,
    /// or dead when it has used its attempts.
    fn reap(
        tx: &rusqlite::Transaction<'_>,
        queue: Option<&str>,
        now: i64,
        happened: &mut Happened,
    ) -> Result<(), Refusal> {
        let mut expired = tx.prepare(
            "SELECT id, queue, attempts, max_attempts FROM jobs
             WHERE state = 'claimed' AND expires_at <= ?1 AND (?2 IS NULL OR queue = ?2)",
        )?;
        let rows: Vec<(String, String, u32, u32)> = expired
            .query_map(params![now, queue], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
            .collect::<Result<_, _>>()?;
        for (id, queue, attempts, max_attempts) in rows {
            let dead = attempts >= max_attempts;
            tx.execute(
                "UPDATE jobs SET state = ?2, visible_at = ?3, previous_token = token, token = NULL,
                 worker = NULL, last_error = COALESCE(last_error, 'lease expired') WHERE id = ?1",
                params![id, if dead { "dead" } else { "pending" }, now],
            )?;
            happened.failed.push(JobFailed {
                id: JobId(Uuid::parse_str(&id).unwrap_or_default()),
                queue: QueueName(queue),
                reason: FailReason::LeaseExpired,
                error: String::new(),
                attempts: attempts.max(1),
                dead,
            });
        }
        Ok(())
    }

    /// Claims up to `max` visible jobs of `queue` for `worker`.
    pub(crate) fn claim(
        &self,
        queue: &QueueName,
        worker: &str,
        lease_s: u32,
        max: u32,
        happened: &mut Happened,
    ) -> Result<Vec<Lease>, Refusal> {
        let now = Utc::now();
        let expires = now + chrono::Duration::seconds(i64::from(lease_s));
        let mut db = self.lock();
        let tx = db.transaction_with_behavior(TransactionBehavior::Immediate)?;
        Self::reap(&tx, Some(&queue.0), ms(now), happened)?;
        let picked: Vec<Pending> = {
            let mut select = tx.prepare(
                "SELECT id, payload, priority, attempts, max_attempts, enqueued_at, last_error FROM jobs
                 WHERE queue = ?1 AND state = 'pending' AND visible_at <= ?2
                 ORDER BY priority DESC, seq LIMIT ?3",
            )?;
            select
                .query_map(params![queue.0, ms(now), max], |r| {
                    Ok((
                        r.get(0)?,
                        r.get(1)?,
                        r.get(2)?,
                        r.get(3)?,
                        r.get(4)?,
                        r.get(5)?,
                        r.get(6)?,
                    ))
                })?
                .collect::<Result<_, _>>()?
        };
        let mut leases = Vec::with_capacity(picked.len());
        for (id, payload, priority, attempts, max_attempts, enqueued_at, last_error) in picked {
            let token = format!("lt_{}", Uuid::new_v4().simple());
            let attempts = attempts + 1;
            tx.execute(
                "UPDATE jobs SET state = 'claimed', attempts = ?2, token = ?3, worker = ?4,
                 claimed_at = ?5, expires_at = ?6 WHERE id = ?1",
                params![id, attempts, token, worker, ms(now), ms(expires)],
            )?;
            let job_id = JobId(Uuid::parse_str(&id).unwrap_or_default());
            happened.claimed.push(JobClaimed {
                id: job_id,
                queue: queue.clone(),
                worker: worker.to_owned(),
                attempt: attempts,
                expires_at: expires,
            });
            leases.push(Lease {
                token: LeaseToken(token),
                job: Job {
                    id: job_id,
                    queue: queue.clone(),
                    payload: serde_json::from_str(&payload).unwrap_or(Value::Null),
                    priority: Priority(priority),
                    state: JobState::Claimed,
                    attempts,
                    max_attempts,
                    enqueued_at: at(enqueued_at),
                    last_error: last_error.map_or(Nullable::Null, Nullable::Value),
                },
                worker: worker.to_owned(),
                duration: lease_s,
                expires_at: expires,
            });
        }
        tx.commit()?;
        Ok(leases)
    }

    /// The job's settlement columns, or `NotFound`.
    fn settling(tx: &rusqlite::Transaction<'_>, id: Uuid) -> Result<Settling, Refusal> {
        tx.query_row(
            "SELECT queue, state, attempts, max_attempts, token, previous_token, nacked_token, worker,
                    claimed_at, expires_at, completed_at, visible_at
             FROM jobs WHERE id = ?1",
            params![id.to_string()],
            |r| {
                Ok(Settling {
                    queue: r.get(0)?,
                    state: state_of(&r.get::<_, String>(1)?),
                    attempts: r.get(2)?,
                    max_attempts: r.get(3)?,
                    token: r.get(4)?,
                    previous: r.get(5)?,
                    nacked: r.get(6)?,
                    worker: r.get(7)?,
                    claimed_at: r.get(8)?,
                    expires_at: r.get(9)?,
                    completed_at: r.get(10)?,
                    visible_at: r.get(11)?,
                })
            },
        )
        .optional()?
        .ok_or(Refusal::NotFound(id))
    }

    /// Checks that `token` is the job's live lease: `Ok` when it is; the declared refusal when
    /// it is the last lease's (expired) or neither.
    fn live(job: &Settling, token: &str, now: i64) -> Result<(), Refusal> {
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

    /// Acks a job.
    pub(crate) fn ack(
        &self,
        id: Uuid,
        token: &str,
        happened: &mut Happened,
    ) -> Result<DateTime<Utc>, Refusal> {
        let now = ms(Utc::now());
        let mut db = self.lock();
        let tx = db.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let job = Self::settling(&tx, id)?;
        // Acked before under this token: the same answer, nothing changed.
        if job.state == JobState::Completed && job.token.as_deref() == Some(token) {
            return Ok(at(job.completed_at.unwrap_or(now)));
        }
        Self::live(&job, token, now)?;
        tx.execute(
            "UPDATE jobs SET state = 'completed', completed_at = ?2 WHERE id = ?1",
            params![id.to_string(), now],
        )?;
        tx.commit()?;
        happened.completed.push(JobCompleted {
            id: JobId(id),
            queue: QueueName(job.queue),
            duration: (now - job.claimed_at.unwrap_or(now)).max(0) as u64,
        });
        Ok(at(now))
    }

    /// Nacks a job: requeued after `delay_ms`, or dead (no requeue, or out of attempts).
    pub(crate) fn nack(
        &self,
        id: Uuid,
        token: &str,
        requeue: bool,
        delay_ms: u64,
        error: Option<&str>,
        happened: &mut Happened,
    ) -> Result<(JobState, u32, Option<DateTime<Utc>>), Refusal> {
        let now = ms(Utc::now());
        let mut db = self.lock();
        let tx = db.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let job = Self::settling(&tx, id)?;
        // Nacked before under this token: the same answer, nothing changed.
        if job.nacked.as_deref() == Some(token) {
            let visible = (job.state == JobState::Pending).then(|| at(job.visible_at));
            return Ok((job.state, job.attempts.max(1), visible));
        }
        Self::live(&job, token, now)?;
        let dead = !requeue || job.attempts >= job.max_attempts;
        let visible = now + delay_ms as i64;
        tx.execute(
            "UPDATE jobs SET state = ?2, visible_at = ?3, nacked_token = token, previous_token = token,
             token = NULL, worker = NULL, last_error = COALESCE(?4, last_error) WHERE id = ?1",
            params![id.to_string(), if dead { "dead" } else { "pending" }, visible, error],
        )?;
        tx.commit()?;
        happened.failed.push(JobFailed {
            id: JobId(id),
            queue: QueueName(job.queue),
            reason: FailReason::Nack,
            error: error.unwrap_or_default().to_owned(),
            attempts: job.attempts.max(1),
            dead,
        });
        let state = if dead { JobState::Dead } else { JobState::Pending };
        Ok((state, job.attempts.max(1), (!dead).then(|| at(visible))))
    }

    /// The counters of `queue`, or of every queue.
    pub(crate) fn stats(&self, queue: Option<&QueueName>) -> Result<Vec<QueueStats>, Refusal> {
        let now = ms(Utc::now());
        let db = self.lock();
        let mut select = db.prepare(
            "SELECT queue,
                SUM(state = 'pending'), SUM(state = 'claimed'), SUM(state = 'dead'),
                SUM(state = 'completed' AND completed_at >= ?2),
                MIN(CASE WHEN state = 'pending' AND visible_at <= ?3 THEN visible_at END),
                SUM(state = 'completed' AND completed_at >= ?3 - 300000)
             FROM jobs WHERE (?1 IS NULL OR queue = ?1) GROUP BY queue ORDER BY queue",
        )?;
        let rows =
            select.query_map(params![queue.map(|q| q.0.as_str()), self.started, now], |r| {
                let oldest: Option<i64> = r.get(5)?;
                let recent: u64 = r.get(6)?;
                Ok(QueueStats {
                    queue: QueueName(r.get(0)?),
                    pending: r.get(1)?,
                    claimed: r.get(2)?,
                    dead: r.get(3)?,
                    completed: r.get(4)?,
                    oldest_pending_age: oldest.map_or(Nullable::Null, |v| {
                        Nullable::Value(((now - v).max(0) / 1000) as u64)
                    }),
                    throughput: recent as f64 / 5.0,
                })
            })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Hands back every expired lease (a timer calls this, so that jobs come back and their
    /// `jobFailed` events are sent even when nobody claims).
    pub(crate) fn reap_all(&self, happened: &mut Happened) -> Result<(), Refusal> {
        let mut db = self.lock();
        let tx = db.transaction_with_behavior(TransactionBehavior::Immediate)?;
        Self::reap(&tx, None, ms(Utc::now()), happened)?;
        tx.commit()?;
        Ok(())
    }
}

/// A pending job as claim reads it: id, payload, priority, attempts, max attempts, enqueued
/// at, last error.
type Pending = (String, String, u8, u32, u32, i64, Option<String>);

/// What settling a job reads.
struct Settling {
    queue: String,
    state: JobState,
    attempts: u32,
    max_attempts: u32,
    token: Option<String>,
    previous: Option<String>,
    nacked: Option<String>,
    worker: Option<String>,
    claimed_at: Option<i64>,
    expires_at: Option<i64>,
    completed_at: Option<i64>,
    visible_at: i64,
}
