//! The SQLite store (WAL, synchronous FULL): one node per file. Every call runs on one writer
//! thread that owns the connection; the calls that wait while a commit is on its way to disk are
//! run together in the next transaction, each under its own savepoint (a refused call undoes only
//! itself), and answered after that one commit (group commit: one fsync for many calls, none
//! answered before its change is on disk). Calls run one at a time on one connection, so a claim
//! can never hand one job to two workers.
//!
//! A read-only database whose queue schema is current still starts: reads (stats) are answered,
//! and every write is answered with an error rather than accepted and lost. One that would need
//! a migration is refused at start, naming the versions.

use std::path::Path;
use std::sync::mpsc;

use chrono::{DateTime, Utc};
use jsonrpsee::core::async_trait;
use rusqlite::{Connection, OptionalExtension, params};
use uuid::Uuid;

use super::{
    Claimed, Event, NewJob, Refusal, SETTLING_COLUMNS, Settling, Sink, Store, ack_decision, at,
    lease, ms, nack_decision, payload_text, schema, state_of, token,
};
use crate::api::{
    FailReason, JobCompleted, JobEnqueued, JobFailed, JobId, JobState, Lease, Nullable, Priority,
    QueueName, QueueStats,
};

impl From<rusqlite::Error> for Refusal {
    fn from(error: rusqlite::Error) -> Refusal {
        Refusal::Store(error.to_string())
    }
}

/// What a call does once its batch's commit is known: answers, and on success sends events.
type Finish = Box<dyn FnOnce(Result<(), String>) + Send>;
/// A call as the writer runs it: inside the batch's transaction (or the reason there is none),
/// whether it succeeded (its savepoint is kept) and how to finish it.
type Op = Box<dyn FnOnce(Result<&Connection, String>) -> (bool, Finish) + Send>;

/// The most calls one transaction holds.
const BATCH: usize = 256;

/// The store.
pub(crate) struct SqliteStore {
    ops: mpsc::Sender<Op>,
    /// The most pending jobs one queue holds.
    capacity: u64,
    /// When the node started (stats count completions since).
    started: i64,
    sink: Sink,
}

impl SqliteStore {
    /// Opens (or creates) the database at `path`, migrates its queue schema, and starts the
    /// writer thread.
    pub(crate) fn open(path: &Path, capacity: u64, sink: Sink) -> Result<SqliteStore, String> {
        let db = Connection::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        // A read-only file cannot switch to WAL; it is still served (module doc).
        let _ = db.pragma_update(None, "journal_mode", "WAL");
        db.pragma_update(None, "synchronous", "FULL").map_err(|e| e.to_string())?;
        db.busy_timeout(std::time::Duration::from_secs(5)).map_err(|e| e.to_string())?;
        migrate(&db).map_err(|e| format!("{}: {e}", path.display()))?;
        let (ops, queue) = mpsc::channel::<Op>();
        std::thread::Builder::new()
            .name("work-queue-sqlite".into())
            .spawn(move || writer(&db, &queue))
            .map_err(|e| e.to_string())?;
        Ok(SqliteStore { ops, capacity, started: ms(Utc::now()), sink })
    }

    /// Runs `f` in the writer's next transaction; its answer once that transaction committed.
    async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection, &mut Vec<Event>) -> Result<T, Refusal> + Send + 'static,
    ) -> Result<T, Refusal> {
        let (answer, answered) = tokio::sync::oneshot::channel();
        let sink = self.sink.clone();
        let op: Op = Box::new(move |conn| {
            let mut events = Vec::new();
            let outcome = conn.map_err(Refusal::Store).and_then(|c| f(c, &mut events));
            let ok = outcome.is_ok();
            let finish: Finish = Box::new(move |commit| {
                let outcome = match (outcome, commit) {
                    (Ok(value), Ok(())) => {
                        events.into_iter().for_each(|e| sink(e));
                        Ok(value)
                    }
                    (Ok(_), Err(reason)) => Err(Refusal::Store(reason)),
                    (Err(refusal), _) => Err(refusal),
                };
                let _ = answer.send(outcome);
            });
            (ok, finish)
        });
        self.ops.send(op).map_err(|_| Refusal::Store("the writer stopped".into()))?;
        answered.await.map_err(|_| Refusal::Store("the writer stopped".into()))?
    }
}

/// Applies the migrations the database has not seen; refuses a newer queue schema.
fn migrate(db: &Connection) -> Result<(), String> {
    let found: i64 =
        db.pragma_query_value(None, "user_version", |r| r.get(0)).map_err(|e| e.to_string())?;
    schema::check(found, schema::SQLITE.len())?;
    for (version, step) in schema::SQLITE.iter().enumerate().skip(found as usize) {
        let version = version + 1;
        let applied = db.execute_batch(&format!(
            "BEGIN IMMEDIATE; {step}; PRAGMA user_version = {version}; COMMIT;"
        ));
        if let Err(error) = applied {
            let _ = db.execute_batch("ROLLBACK");
            return Err(format!(
                "migrating the queue schema from version {} to {version} failed: {error}",
                version - 1
            ));
        }
    }
    Ok(())
}

/// The writer: takes every call waiting, runs them in one transaction, commits once, answers.
fn writer(db: &Connection, queue: &mpsc::Receiver<Op>) {
    while let Ok(first) = queue.recv() {
        let mut batch = vec![first];
        while batch.len() < BATCH {
            match queue.try_recv() {
                Ok(op) => batch.push(op),
                Err(_) => break,
            }
        }
        // IMMEDIATE takes the write lock at once; a read-only database refuses it, and its
        // calls then run in a plain transaction (reads answer, writes fail one by one).
        let began = db
            .execute_batch("BEGIN IMMEDIATE")
            .or_else(|_| db.execute_batch("BEGIN"))
            .map_err(|e| e.to_string());
        let mut finishes = Vec::with_capacity(batch.len());
        for op in batch {
            match &began {
                Ok(()) => {
                    let saved = db.execute_batch("SAVEPOINT call").map_err(|e| e.to_string());
                    let (ok, finish) = op(saved.clone().map(|()| db));
                    if saved.is_ok() {
                        let _ = db.execute_batch(if ok {
                            "RELEASE call"
                        } else {
                            "ROLLBACK TO call; RELEASE call"
                        });
                    }
                    finishes.push(finish);
                }
                Err(reason) => finishes.push(op(Err(reason.clone())).1),
            }
        }
        let commit = match &began {
            Ok(()) => db.execute_batch("COMMIT").map_err(|e| e.to_string()),
            Err(reason) => Err(reason.clone()),
        };
        if commit.is_err() && began.is_ok() {
            let _ = db.execute_batch("ROLLBACK");
        }
        for finish in finishes {
            finish(commit.clone());
        }
    }
}

/// Hands back every job of `queue` (all queues: `None`) whose lease ran out: pending again, or
/// dead when it has used its attempts.
fn reap(
    db: &Connection,
    queue: Option<&str>,
    now: i64,
    events: &mut Vec<Event>,
) -> Result<(), Refusal> {
    let mut expired = db.prepare_cached(
        "SELECT id, queue, attempts, max_attempts FROM jobs
         WHERE state = 'claimed' AND expires_at <= ?1 AND (?2 IS NULL OR queue = ?2)",
    )?;
    let rows: Vec<(String, String, u32, u32)> = expired
        .query_map(params![now, queue], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
        .collect::<Result<_, _>>()?;
    for (id, queue, attempts, max_attempts) in rows {
        let dead = attempts >= max_attempts;
        db.prepare_cached(
            "UPDATE jobs SET state = ?2, visible_at = ?3, previous_token = token, token = NULL,
             worker = NULL, last_error = COALESCE(last_error, 'lease expired') WHERE id = ?1",
        )?
        .execute(params![id, if dead { "dead" } else { "pending" }, now])?;
        events.push(Event::new(
            "queue.jobFailed",
            JobFailed {
                id: JobId(Uuid::parse_str(&id).unwrap_or_default()),
                queue: QueueName(queue),
                reason: FailReason::LeaseExpired,
                error: String::new(),
                attempts: attempts.max(1),
                dead,
            },
        ));
    }
    Ok(())
}

/// The job's settlement columns, or `NotFound`.
fn settling(db: &Connection, id: Uuid) -> Result<Settling, Refusal> {
    db.prepare_cached(&format!("SELECT {SETTLING_COLUMNS} FROM jobs WHERE id = ?1"))?
        .query_row(params![id.to_string()], |r| {
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
        })
        .optional()?
        .ok_or(Refusal::NotFound(id))
}

/// A pending job as claim reads it: id, payload, priority, attempts, max attempts, enqueued
/// at, last error.
type Pending = (String, String, u8, u32, u32, i64, Option<String>);

#[async_trait]
impl Store for SqliteStore {
    async fn enqueue(&self, jobs: Vec<NewJob>) -> Result<Vec<(JobId, DateTime<Utc>)>, Refusal> {
        let capacity = self.capacity;
        self.run(move |db, events| {
            let now = Utc::now();
            let mut added = Vec::with_capacity(jobs.len());
            for job in jobs {
                let text = payload_text(&job.payload)?;
                let visible = now + chrono::Duration::milliseconds(job.delay_ms as i64);
                let id = Uuid::new_v4();
                let pending: u64 = db
                    .prepare_cached(
                        "SELECT COUNT(*) FROM jobs WHERE queue = ?1 AND state = 'pending'",
                    )?
                    .query_row(params![job.queue.0], |r| r.get(0))?;
                if pending >= capacity {
                    return Err(Refusal::QueueFull { queue: job.queue.0.clone(), capacity });
                }
                db.prepare_cached(
                    "INSERT INTO jobs (id, queue, payload, priority, state, attempts, max_attempts, enqueued_at, visible_at)
                     VALUES (?1, ?2, ?3, ?4, 'pending', 0, ?5, ?6, ?7)",
                )?
                .execute(params![
                    id.to_string(),
                    job.queue.0,
                    text,
                    job.priority,
                    job.max_attempts,
                    ms(now),
                    ms(visible)
                ])?;
                events.push(Event::new(
                    "queue.jobEnqueued",
                    JobEnqueued {
                        id: JobId(id),
                        queue: job.queue,
                        priority: Priority(job.priority),
                        visible_at: visible,
                    },
                ));
                added.push((JobId(id), visible));
            }
            Ok(added)
        })
        .await
    }

    async fn claim(
        &self,
        queue: QueueName,
        worker: String,
        lease_s: u32,
        max: u32,
    ) -> Result<Vec<Lease>, Refusal> {
        self.run(move |db, events| {
            let now = Utc::now();
            let expires = now + chrono::Duration::seconds(i64::from(lease_s));
            reap(db, Some(&queue.0), ms(now), events)?;
            let picked: Vec<Pending> = db
                .prepare_cached(
                    "SELECT id, payload, priority, attempts, max_attempts, enqueued_at, last_error FROM jobs
                     WHERE queue = ?1 AND state = 'pending' AND visible_at <= ?2
                     ORDER BY priority DESC, seq LIMIT ?3",
                )?
                .query_map(params![queue.0, ms(now), max], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?))
                })?
                .collect::<Result<_, _>>()?;
            let mut leases = Vec::with_capacity(picked.len());
            for (id, payload, priority, attempts, max_attempts, enqueued_at, last_error) in picked {
                let token = token();
                let attempts = attempts + 1;
                db.prepare_cached(
                    "UPDATE jobs SET state = 'claimed', attempts = ?2, token = ?3, worker = ?4,
                     claimed_at = ?5, expires_at = ?6 WHERE id = ?1",
                )?
                .execute(params![id, attempts, token, worker, ms(now), ms(expires)])?;
                let claimed = Claimed {
                    id: Uuid::parse_str(&id).unwrap_or_default(),
                    token,
                    payload,
                    priority,
                    attempts,
                    max_attempts,
                    enqueued_at,
                    last_error,
                };
                let (lease, event) = lease(claimed, &queue, &worker, lease_s, expires);
                events.push(event);
                leases.push(lease);
            }
            Ok(leases)
        })
        .await
    }

    async fn ack(
        &self,
        acks: Vec<(Uuid, String)>,
    ) -> Result<Vec<Result<DateTime<Utc>, Refusal>>, Refusal> {
        self.run(move |db, events| {
            let now = ms(Utc::now());
            let mut answers = Vec::with_capacity(acks.len());
            for (id, token) in acks {
                let job = match settling(db, id) {
                    Ok(job) => job,
                    Err(Refusal::Store(reason)) => return Err(Refusal::Store(reason)),
                    Err(refusal) => {
                        answers.push(Err(refusal));
                        continue;
                    }
                };
                match ack_decision(&job, &token, now) {
                    Ok(Some(before)) => answers.push(Ok(before)),
                    Ok(None) => {
                        db.prepare_cached(
                            "UPDATE jobs SET state = 'completed', completed_at = ?2 WHERE id = ?1",
                        )?
                        .execute(params![id.to_string(), now])?;
                        events.push(Event::new(
                            "queue.jobCompleted",
                            JobCompleted {
                                id: JobId(id),
                                queue: QueueName(job.queue),
                                duration: (now - job.claimed_at.unwrap_or(now)).max(0) as u64,
                            },
                        ));
                        answers.push(Ok(at(now)));
                    }
                    Err(refusal) => answers.push(Err(refusal)),
                }
            }
            Ok(answers)
        })
        .await
    }

    async fn nack(
        &self,
        id: Uuid,
        token: String,
        requeue: bool,
        delay_ms: u64,
        error: Option<String>,
    ) -> Result<super::Nacked, Refusal> {
        self.run(move |db, events| {
            let now = ms(Utc::now());
            let job = settling(db, id)?;
            let dead = match nack_decision(&job, &token, requeue, now) {
                Ok(dead) => dead,
                Err(answer) => return answer,
            };
            let visible = now + delay_ms as i64;
            db.prepare_cached(
                "UPDATE jobs SET state = ?2, visible_at = ?3, nacked_token = token, previous_token = token,
                 token = NULL, worker = NULL, last_error = COALESCE(?4, last_error) WHERE id = ?1",
            )?
            .execute(params![id.to_string(), if dead { "dead" } else { "pending" }, visible, error])?;
            events.push(Event::new(
                "queue.jobFailed",
                JobFailed {
                    id: JobId(id),
                    queue: QueueName(job.queue),
                    reason: FailReason::Nack,
                    error: error.unwrap_or_default(),
                    attempts: job.attempts.max(1),
                    dead,
                },
            ));
            let state = if dead { JobState::Dead } else { JobState::Pending };
            Ok((state, job.attempts.max(1), (!dead).then(|| at(visible))))
        })
        .await
    }

    async fn stats(&self, queue: Option<QueueName>) -> Result<Vec<QueueStats>, Refusal> {
        let started = self.started;
        self.run(move |db, _| {
            let now = ms(Utc::now());
            let mut select = db.prepare_cached(
                "SELECT queue,
                    SUM(state = 'pending'), SUM(state = 'claimed'), SUM(state = 'dead'),
                    SUM(state = 'completed' AND completed_at >= ?2),
                    MIN(CASE WHEN state = 'pending' AND visible_at <= ?3 THEN visible_at END),
                    SUM(state = 'completed' AND completed_at >= ?3 - 300000)
                 FROM jobs WHERE (?1 IS NULL OR queue = ?1) GROUP BY queue ORDER BY queue",
            )?;
            let rows = select.query_map(
                params![queue.as_ref().map(|q| q.0.as_str()), started, now],
                |r| {
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
                },
            )?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    async fn reap_all(&self) -> Result<(), Refusal> {
        self.run(|db, events| reap(db, None, ms(Utc::now()), events)).await
    }
}
