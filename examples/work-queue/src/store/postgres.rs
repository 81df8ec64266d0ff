//! The PostgreSQL store: any number of nodes on one database. Claims pick their jobs with
//! `FOR UPDATE SKIP LOCKED`, so nodes claiming at once never wait on each other's rows nor take
//! the same job; acks and nacks lock the job's row; the lease clock is the database's (`now()`),
//! so nodes on machines whose clocks differ agree on when a lease ran out. Events are sent with
//! `pg_notify` inside the transaction that caused them, so they leave only if it commits, and
//! every node (this one too) hears them on its `LISTEN` connection and hands them to its own
//! subscribers: a worker subscribed on one node sees a job enqueued on another.
//!
//! A call while the server is unreachable is answered with the store error (the pool waits at
//! most `WAIT` for a connection); the pool opens new connections once the server is back, and
//! the listener reconnects by itself. Events sent while a node's listener was away are not
//! replayed to its subscribers (the jobs themselves are durable; events are notices).

use std::collections::HashMap;
use std::time::Duration;

use chrono::{DateTime, Utc};
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use futures_util::StreamExt;
use jsonrpsee::core::async_trait;
use tokio_postgres::{AsyncMessage, NoTls, Row};
use uuid::Uuid;

use super::{
    Claimed, Event, NewJob, Refusal, SETTLING_COLUMNS, Settling, Sink, Store, ack_decision, at,
    lease, nack_decision, payload_text, schema, state_of,
};
use crate::api::{
    FailReason, JobCompleted, JobEnqueued, JobFailed, JobId, JobState, Lease, Nullable, Priority,
    QueueName, QueueStats,
};

/// The channel the nodes' events travel on.
const CHANNEL: &str = "work_queue_events";
/// How long a call waits for a pooled connection (or to open one) before it is answered with
/// the store error.
const WAIT: Duration = Duration::from_secs(5);
/// Connections per node.
const POOL: usize = 16;
/// The advisory lock under which a node migrates (two nodes starting at once migrate once).
const MIGRATION_LOCK: i64 = 0x0077_6771_7565_7565;
/// NOTIFY payloads must stay under 8000 bytes; events are batched up to this many.
const NOTIFY_BYTES: usize = 7000;

fn pg(error: impl std::fmt::Display) -> Refusal {
    Refusal::Store(format!("PostgreSQL: {error}"))
}

fn pg_error(error: &tokio_postgres::Error) -> String {
    match error.as_db_error() {
        Some(db) => format!("{}: {}", db.severity(), db.message()),
        None => error.to_string(),
    }
}

impl From<tokio_postgres::Error> for Refusal {
    fn from(error: tokio_postgres::Error) -> Refusal {
        pg(pg_error(&error))
    }
}

impl From<deadpool_postgres::PoolError> for Refusal {
    fn from(error: deadpool_postgres::PoolError) -> Refusal {
        match error {
            deadpool_postgres::PoolError::Backend(e) => e.into(),
            other => pg(format!("no connection to the database ({other})")),
        }
    }
}

/// The store.
pub(crate) struct PostgresStore {
    pool: Pool,
    capacity: u64,
    /// When the node started, by the database's clock (stats count completions since).
    started: i64,
    listener: tokio::task::JoinHandle<()>,
}

impl Drop for PostgresStore {
    fn drop(&mut self) {
        self.listener.abort();
    }
}

/// The database's clock in ms, read inside the transaction (`now()`: its start).
const NOW: &str = "SELECT (extract(epoch FROM now()) * 1000)::bigint";

impl PostgresStore {
    /// Connects to `url`, migrates the queue schema, and starts listening for events.
    pub(crate) async fn open(
        url: &str,
        capacity: u64,
        sink: Sink,
    ) -> Result<PostgresStore, String> {
        let config: tokio_postgres::Config =
            url.parse().map_err(|e| format!("--postgres {url}: {e}"))?;
        let manager = Manager::from_config(
            config.clone(),
            NoTls,
            ManagerConfig { recycling_method: RecyclingMethod::Fast },
        );
        let pool = Pool::builder(manager)
            .max_size(POOL)
            .wait_timeout(Some(WAIT))
            .create_timeout(Some(WAIT))
            .recycle_timeout(Some(WAIT))
            .runtime(Runtime::Tokio1)
            .build()
            .map_err(|e| e.to_string())?;
        let started = migrate(&pool).await.map_err(|e| format!("--postgres {url}: {e}"))?;
        // The first LISTEN is made before the node serves, so no event of a call it answers is
        // missed; later ones by the listener itself.
        let first =
            listen(&config, sink.clone()).await.map_err(|e| format!("--postgres {url}: {e}"))?;
        let listener = tokio::spawn(keep_listening(config, sink, first));
        Ok(PostgresStore { pool, capacity, started, listener })
    }

    async fn client(&self) -> Result<deadpool_postgres::Client, Refusal> {
        Ok(self.pool.get().await?)
    }
}

/// Applies the migrations the database has not seen, under an advisory lock; refuses a newer
/// queue schema. Answers the database's clock.
async fn migrate(pool: &Pool) -> Result<i64, String> {
    let mut client = pool.get().await.map_err(|e| format!("cannot connect: {e}"))?;
    let tx = client.transaction().await.map_err(|e| pg_error(&e))?;
    let step = async {
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK]).await?;
        tx.batch_execute("CREATE TABLE IF NOT EXISTS work_queue_schema (version INTEGER NOT NULL)")
            .await?;
        let found: Option<i32> =
            tx.query_opt("SELECT version FROM work_queue_schema", &[]).await?.map(|r| r.get(0));
        if found.is_none() {
            tx.execute("INSERT INTO work_queue_schema VALUES (0)", &[]).await?;
        }
        Ok::<_, tokio_postgres::Error>(i64::from(found.unwrap_or(0)))
    };
    let found = step.await.map_err(|e| pg_error(&e))?;
    schema::check(found, schema::POSTGRES.len())?;
    for (version, sql) in schema::POSTGRES.iter().enumerate().skip(found as usize) {
        let version = version + 1;
        let applied = async {
            tx.batch_execute(sql).await?;
            tx.execute("UPDATE work_queue_schema SET version = $1", &[&(version as i32)]).await
        };
        applied.await.map_err(|e| {
            format!(
                "migrating the queue schema from version {} to {version} failed: {}",
                version - 1,
                pg_error(&e)
            )
        })?;
    }
    let now: i64 = tx.query_one(NOW, &[]).await.map_err(|e| pg_error(&e))?.get(0);
    tx.commit().await.map_err(|e| pg_error(&e))?;
    Ok(now)
}

/// One LISTEN connection: events are handed to `sink` while it lasts (the task ends when the
/// connection does).
async fn listen(
    config: &tokio_postgres::Config,
    sink: Sink,
) -> Result<tokio::task::JoinHandle<()>, String> {
    let (client, mut connection) = config.connect(NoTls).await.map_err(|e| pg_error(&e))?;
    let mut messages = futures_util::stream::poll_fn(move |cx| connection.poll_message(cx));
    let (ready, listening) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        let mut ready = Some(ready);
        // The client lives as long as the connection is read.
        let client = client;
        let sql = format!("LISTEN {CHANNEL}");
        let listen = client.batch_execute(&sql);
        tokio::pin!(listen);
        let mut listened = false;
        loop {
            tokio::select! {
                done = &mut listen, if !listened => {
                    listened = true;
                    if done.is_err() { break; }
                    if let Some(ready) = ready.take() { let _ = ready.send(()); }
                }
                message = messages.next() => match message {
                    Some(Ok(AsyncMessage::Notification(n))) => {
                        if let Ok(events) = serde_json::from_str::<Vec<Event>>(n.payload()) {
                            events.into_iter().for_each(|e| sink(e));
                        }
                    }
                    Some(Ok(_)) => {}
                    Some(Err(_)) | None => break,
                },
            }
        }
    });
    match tokio::time::timeout(WAIT, listening).await {
        Ok(Ok(())) => Ok(task),
        _ => {
            task.abort();
            Err("LISTEN failed".into())
        }
    }
}

/// Keeps a LISTEN connection open for the store's life, reconnecting after a failure.
async fn keep_listening(
    config: tokio_postgres::Config,
    sink: Sink,
    first: tokio::task::JoinHandle<()>,
) {
    let _ = first.await;
    let mut pause = Duration::from_millis(100);
    loop {
        tokio::time::sleep(pause).await;
        match listen(&config, sink.clone()).await {
            Ok(task) => {
                pause = Duration::from_millis(100);
                let _ = task.await;
            }
            Err(_) => pause = (pause * 2).min(Duration::from_secs(2)),
        }
    }
}

/// Sends `events` on the channel inside `tx`, batched under NOTIFY's payload limit.
async fn notify(tx: &deadpool_postgres::Transaction<'_>, events: &[Event]) -> Result<(), Refusal> {
    let mut payloads = Vec::new();
    let mut chunk: Vec<&Event> = Vec::new();
    let mut size = 2;
    for event in events {
        let one = serde_json::to_string(event).unwrap_or_default().len() + 1;
        if !chunk.is_empty() && size + one > NOTIFY_BYTES {
            payloads.push(serde_json::to_string(&chunk).unwrap_or_default());
            chunk.clear();
            size = 2;
        }
        chunk.push(event);
        size += one;
    }
    if !chunk.is_empty() {
        payloads.push(serde_json::to_string(&chunk).unwrap_or_default());
    }
    if !payloads.is_empty() {
        let send =
            tx.prepare_cached("SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p").await?;
        tx.execute(&send, &[&CHANNEL, &payloads]).await?;
    }
    Ok(())
}

async fn now(tx: &deadpool_postgres::Transaction<'_>) -> Result<i64, Refusal> {
    let statement = tx.prepare_cached(NOW).await?;
    Ok(tx.query_one(&statement, &[]).await?.get(0))
}

/// Hands back the expired leases of `queue` (all queues: `None`) that no other transaction
/// holds: pending again, or dead when out of attempts.
async fn reap(
    tx: &deadpool_postgres::Transaction<'_>,
    queue: Option<&str>,
    now: i64,
    events: &mut Vec<Event>,
) -> Result<(), Refusal> {
    let statement = tx
        .prepare_cached(
            "UPDATE jobs j SET state = CASE WHEN j.attempts >= j.max_attempts THEN 'dead' ELSE 'pending' END,
                visible_at = $1, previous_token = j.token, token = NULL, worker = NULL,
                last_error = COALESCE(j.last_error, 'lease expired')
             FROM (SELECT seq FROM jobs WHERE state = 'claimed' AND expires_at <= $1
                   AND ($2::text IS NULL OR queue = $2) FOR UPDATE SKIP LOCKED) e
             WHERE j.seq = e.seq
             RETURNING j.id, j.queue, j.attempts, j.state",
        )
        .await?;
    for row in tx.query(&statement, &[&now, &queue]).await? {
        let id: &str = row.get(0);
        events.push(Event::new(
            "queue.jobFailed",
            JobFailed {
                id: JobId(Uuid::parse_str(id).unwrap_or_default()),
                queue: QueueName(row.get(1)),
                reason: FailReason::LeaseExpired,
                error: String::new(),
                attempts: (row.get::<_, i32>(2) as u32).max(1),
                dead: row.get::<_, &str>(3) == "dead",
            },
        ));
    }
    Ok(())
}

#[async_trait]
impl Store for PostgresStore {
    async fn enqueue(&self, jobs: Vec<NewJob>) -> Result<Vec<(JobId, DateTime<Utc>)>, Refusal> {
        let texts = jobs.iter().map(|j| payload_text(&j.payload)).collect::<Result<Vec<_>, _>>()?;
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let now = now(&tx).await?;
        // The capacity, per queue named: its pending jobs plus those this call adds. (Nodes
        // enqueueing at once may pass it by the jobs they add together: it is a bound on
        // growth, not a lock every enqueue waits on.)
        let mut adding: HashMap<&str, u64> = HashMap::new();
        for job in &jobs {
            *adding.entry(job.queue.0.as_str()).or_default() += 1;
        }
        let count = tx
            .prepare_cached("SELECT COUNT(*) FROM jobs WHERE queue = $1 AND state = 'pending'")
            .await?;
        for (queue, more) in &adding {
            let pending: i64 = tx.query_one(&count, &[queue]).await?.get(0);
            if pending as u64 + more > self.capacity {
                return Err(Refusal::QueueFull {
                    queue: (*queue).to_owned(),
                    capacity: self.capacity,
                });
            }
        }
        let mut ids = Vec::with_capacity(jobs.len());
        let mut queues = Vec::with_capacity(jobs.len());
        let mut priorities = Vec::with_capacity(jobs.len());
        let mut attempts = Vec::with_capacity(jobs.len());
        let mut visible = Vec::with_capacity(jobs.len());
        let mut events = Vec::with_capacity(jobs.len());
        let mut added = Vec::with_capacity(jobs.len());
        for job in &jobs {
            let id = Uuid::new_v4();
            let visible_at = now + job.delay_ms as i64;
            ids.push(id.to_string());
            queues.push(job.queue.0.as_str());
            priorities.push(i32::from(job.priority));
            attempts.push(job.max_attempts as i32);
            visible.push(visible_at);
            events.push(Event::new(
                "queue.jobEnqueued",
                JobEnqueued {
                    id: JobId(id),
                    queue: job.queue.clone(),
                    priority: Priority(job.priority),
                    visible_at: at(visible_at),
                },
            ));
            added.push((JobId(id), at(visible_at)));
        }
        // Rows in the order given (WITH ORDINALITY): the insert order is the claim order within
        // a priority.
        let insert = tx
            .prepare_cached(
                "INSERT INTO jobs (id, queue, payload, priority, state, attempts, max_attempts, enqueued_at, visible_at)
                 SELECT id, queue, payload, priority, 'pending', 0, max_attempts, $6, visible_at
                 FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::int[], $7::bigint[])
                   WITH ORDINALITY AS t(id, queue, payload, priority, max_attempts, visible_at, n)
                 ORDER BY n",
            )
            .await?;
        tx.execute(&insert, &[&ids, &queues, &texts, &priorities, &attempts, &now, &visible])
            .await?;
        notify(&tx, &events).await?;
        tx.commit().await?;
        Ok(added)
    }

    async fn claim(
        &self,
        queue: QueueName,
        worker: String,
        lease_s: u32,
        max: u32,
    ) -> Result<Vec<Lease>, Refusal> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let now = now(&tx).await?;
        let expires = now + i64::from(lease_s) * 1000;
        let mut events = Vec::new();
        reap(&tx, Some(&queue.0), now, &mut events).await?;
        let statement = tx
            .prepare_cached(
                "UPDATE jobs j SET state = 'claimed', attempts = j.attempts + 1,
                    token = 'lt_' || replace(gen_random_uuid()::text, '-', ''),
                    worker = $4, claimed_at = $2, expires_at = $5
                 FROM (SELECT seq FROM jobs WHERE queue = $1 AND state = 'pending' AND visible_at <= $2
                       ORDER BY priority DESC, seq LIMIT $3 FOR UPDATE SKIP LOCKED) p
                 WHERE j.seq = p.seq
                 RETURNING j.seq, j.id, j.payload, j.priority, j.attempts, j.max_attempts,
                    j.enqueued_at, j.last_error, j.token",
            )
            .await?;
        let mut rows =
            tx.query(&statement, &[&queue.0, &now, &i64::from(max), &worker, &expires]).await?;
        // RETURNING keeps no order: the claim order is priority, then age.
        rows.sort_by_key(|r| (std::cmp::Reverse(r.get::<_, i32>(3)), r.get::<_, i64>(0)));
        let mut leases = Vec::with_capacity(rows.len());
        for row in rows {
            let claimed = Claimed {
                id: Uuid::parse_str(row.get(1)).unwrap_or_default(),
                token: row.get(8),
                payload: row.get(2),
                priority: row.get::<_, i32>(3) as u8,
                attempts: row.get::<_, i32>(4) as u32,
                max_attempts: row.get::<_, i32>(5) as u32,
                enqueued_at: row.get(6),
                last_error: row.get(7),
            };
            let (lease, event) = lease(claimed, &queue, &worker, lease_s, at(expires));
            events.push(event);
            leases.push(lease);
        }
        notify(&tx, &events).await?;
        tx.commit().await?;
        Ok(leases)
    }

    async fn ack(
        &self,
        acks: Vec<(Uuid, String)>,
    ) -> Result<Vec<Result<DateTime<Utc>, Refusal>>, Refusal> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let now = now(&tx).await?;
        let ids: Vec<String> = acks.iter().map(|(id, _)| id.to_string()).collect();
        // Locked in one order (seq), so two acks of overlapping jobs cannot deadlock.
        let select = tx
            .prepare_cached(&format!(
                "SELECT id, {SETTLING_COLUMNS} FROM jobs WHERE id = ANY($1) ORDER BY seq FOR UPDATE"
            ))
            .await?;
        let mut jobs: HashMap<String, Settling> = HashMap::new();
        for row in tx.query(&select, &[&ids]).await? {
            let id: String = row.get(0);
            jobs.insert(id, settling_at(&row, 1));
        }
        let mut answers = Vec::with_capacity(acks.len());
        let mut done = Vec::new();
        let mut events = Vec::new();
        for (id, token) in acks {
            let Some(job) = jobs.get_mut(&id.to_string()) else {
                answers.push(Err(Refusal::NotFound(id)));
                continue;
            };
            match ack_decision(job, &token, now) {
                Ok(Some(before)) => answers.push(Ok(before)),
                Ok(None) => {
                    job.state = JobState::Completed;
                    job.completed_at = Some(now);
                    done.push(id.to_string());
                    events.push(Event::new(
                        "queue.jobCompleted",
                        JobCompleted {
                            id: JobId(id),
                            queue: QueueName(job.queue.clone()),
                            duration: (now - job.claimed_at.unwrap_or(now)).max(0) as u64,
                        },
                    ));
                    answers.push(Ok(at(now)));
                }
                Err(refusal) => answers.push(Err(refusal)),
            }
        }
        if !done.is_empty() {
            let update = tx
                .prepare_cached(
                    "UPDATE jobs SET state = 'completed', completed_at = $2 WHERE id = ANY($1)",
                )
                .await?;
            tx.execute(&update, &[&done, &now]).await?;
        }
        notify(&tx, &events).await?;
        tx.commit().await?;
        Ok(answers)
    }

    async fn nack(
        &self,
        id: Uuid,
        token: String,
        requeue: bool,
        delay_ms: u64,
        error: Option<String>,
    ) -> Result<super::Nacked, Refusal> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let now = now(&tx).await?;
        let select = tx
            .prepare_cached(&format!(
                "SELECT {SETTLING_COLUMNS} FROM jobs WHERE id = $1 FOR UPDATE"
            ))
            .await?;
        let job = match tx.query_opt(&select, &[&id.to_string()]).await? {
            Some(row) => settling_at(&row, 0),
            None => return Err(Refusal::NotFound(id)),
        };
        let dead = match nack_decision(&job, &token, requeue, now) {
            Ok(dead) => dead,
            Err(answer) => return answer,
        };
        let visible = now + delay_ms as i64;
        let update = tx
            .prepare_cached(
                "UPDATE jobs SET state = $2, visible_at = $3, nacked_token = token, previous_token = token,
                 token = NULL, worker = NULL, last_error = COALESCE($4, last_error) WHERE id = $1",
            )
            .await?;
        tx.execute(
            &update,
            &[&id.to_string(), &if dead { "dead" } else { "pending" }, &visible, &error],
        )
        .await?;
        let events = [Event::new(
            "queue.jobFailed",
            JobFailed {
                id: JobId(id),
                queue: QueueName(job.queue.clone()),
                reason: FailReason::Nack,
                error: error.unwrap_or_default(),
                attempts: job.attempts.max(1),
                dead,
            },
        )];
        notify(&tx, &events).await?;
        tx.commit().await?;
        let state = if dead { JobState::Dead } else { JobState::Pending };
        Ok((state, job.attempts.max(1), (!dead).then(|| at(visible))))
    }

    async fn stats(&self, queue: Option<QueueName>) -> Result<Vec<QueueStats>, Refusal> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let now = now(&tx).await?;
        let select = tx
            .prepare_cached(
                "SELECT queue,
                    COUNT(*) FILTER (WHERE state = 'pending'),
                    COUNT(*) FILTER (WHERE state = 'claimed'),
                    COUNT(*) FILTER (WHERE state = 'dead'),
                    COUNT(*) FILTER (WHERE state = 'completed' AND completed_at >= $2),
                    MIN(visible_at) FILTER (WHERE state = 'pending' AND visible_at <= $3),
                    COUNT(*) FILTER (WHERE state = 'completed' AND completed_at >= $3 - 300000)
                 FROM jobs WHERE ($1::text IS NULL OR queue = $1) GROUP BY queue ORDER BY queue",
            )
            .await?;
        let name = queue.as_ref().map(|q| q.0.as_str());
        let rows = tx.query(&select, &[&name, &self.started, &now]).await?;
        tx.commit().await?;
        Ok(rows
            .iter()
            .map(|r| {
                let count = |i: usize| r.get::<_, i64>(i) as u64;
                let oldest: Option<i64> = r.get(5);
                QueueStats {
                    queue: QueueName(r.get(0)),
                    pending: count(1),
                    claimed: count(2),
                    dead: count(3),
                    completed: count(4),
                    oldest_pending_age: oldest.map_or(Nullable::Null, |v| {
                        Nullable::Value(((now - v).max(0) / 1000) as u64)
                    }),
                    throughput: count(6) as f64 / 5.0,
                }
            })
            .collect())
    }

    async fn reap_all(&self) -> Result<(), Refusal> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let now = now(&tx).await?;
        let mut events = Vec::new();
        reap(&tx, None, now, &mut events).await?;
        notify(&tx, &events).await?;
        tx.commit().await?;
        Ok(())
    }
}

/// `Settling` from the columns of `row` starting at `first`.
fn settling_at(row: &Row, first: usize) -> Settling {
    let int = |i: usize| row.get::<_, i32>(first + i) as u32;
    Settling {
        queue: row.get(first),
        state: state_of(row.get(first + 1)),
        attempts: int(2),
        max_attempts: int(3),
        token: row.get(first + 4),
        previous: row.get(first + 5),
        nacked: row.get(first + 6),
        worker: row.get(first + 7),
        claimed_at: row.get(first + 8),
        expires_at: row.get(first + 9),
        completed_at: row.get(first + 10),
        visible_at: row.get(first + 11),
    }
}
