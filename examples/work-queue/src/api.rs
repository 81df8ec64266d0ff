//! The node's API as a jsonrpsee trait, and the types it speaks: what accord extract reads
//! into the contract (the bounds, units, errors and examples the types cannot say are written
//! in the contract by hand and kept by extract's merge).

use chrono::{DateTime, Utc};
use jsonrpsee::core::{RpcResult, SubscriptionResult};
use jsonrpsee::proc_macros::rpc;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// A job's id, assigned by enqueue (UUID v4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct JobId(pub(crate) Uuid);

/// A queue's name: lower case, digits, dot, dash and underscore.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct QueueName(pub(crate) String);

/// 0 is the lowest, 9 the highest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Priority(pub(crate) u8);

/// Opaque token of one lease.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct LeaseToken(pub(crate) String);

/// Where a job is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum JobState {
    /// Waiting, visible or delayed.
    Pending,
    /// Under a lease.
    Claimed,
    /// Acked.
    Completed,
    /// Out of attempts, or refused by a nack.
    Dead,
}

// A value or `null`, present either way: serde's `Option` reads an absent member as `None`,
// and the contract's fields of this kind are always written. (Plain comments: a doc comment
// would become the contract's description of every such field.)
/// accord: inline
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub(crate) enum Nullable<T> {
    Value(T),
    Null,
}

/// A job, as a worker receives it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Job {
    pub(crate) id: JobId,
    pub(crate) queue: QueueName,
    /// As given to enqueue.
    pub(crate) payload: serde_json::Value,
    pub(crate) priority: Priority,
    pub(crate) state: JobState,
    /// Claims so far, this one included.
    pub(crate) attempts: u32,
    pub(crate) max_attempts: u32,
    pub(crate) enqueued_at: DateTime<Utc>,
    /// The error of the last failed attempt, null if none failed.
    pub(crate) last_error: Nullable<String>,
}

/// A worker's hold on one job.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Lease {
    /// To send with ack or nack.
    pub(crate) token: LeaseToken,
    pub(crate) job: Job,
    pub(crate) worker: String,
    /// The lease length granted.
    pub(crate) duration: u32,
    pub(crate) expires_at: DateTime<Utc>,
}

/// The counters of one queue.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct QueueStats {
    pub(crate) queue: QueueName,
    /// Jobs waiting, visible or delayed.
    pub(crate) pending: u64,
    /// Jobs under a lease.
    pub(crate) claimed: u64,
    /// Jobs out of attempts or refused, kept for inspection.
    pub(crate) dead: u64,
    /// Jobs acked since the node started.
    pub(crate) completed: u64,
    /// Age of the oldest visible pending job; null when none is pending.
    pub(crate) oldest_pending_age: Nullable<u64>,
    /// Acks per minute over the last five minutes.
    pub(crate) throughput: f64,
}

/// accord: inline
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Enqueued {
    pub(crate) id: JobId,
    /// When the job becomes claimable.
    pub(crate) visible_at: DateTime<Utc>,
}

/// accord: inline
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Completed {
    pub(crate) completed_at: DateTime<Utc>,
}

/// accord: inline
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Nacked {
    /// pending when requeued, dead otherwise.
    pub(crate) state: JobState,
    pub(crate) attempts: u32,
    /// When the job becomes claimable again; null when it is dead.
    pub(crate) visible_at: Nullable<DateTime<Utc>>,
}

/// accord: inline
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct JobEnqueued {
    pub(crate) id: JobId,
    pub(crate) queue: QueueName,
    pub(crate) priority: Priority,
    pub(crate) visible_at: DateTime<Utc>,
}

/// accord: inline
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct JobClaimed {
    pub(crate) id: JobId,
    pub(crate) queue: QueueName,
    pub(crate) worker: String,
    /// Which attempt this claim starts.
    pub(crate) attempt: u32,
    pub(crate) expires_at: DateTime<Utc>,
}

/// accord: inline
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct JobCompleted {
    pub(crate) id: JobId,
    pub(crate) queue: QueueName,
    /// From claim to ack.
    pub(crate) duration: u64,
}

/// accord: inline
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum FailReason {
    /// A worker nacked the job.
    Nack,
    /// The job's lease ran out.
    LeaseExpired,
}

/// accord: inline
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct JobFailed {
    pub(crate) id: JobId,
    pub(crate) queue: QueueName,
    pub(crate) reason: FailReason,
    /// The worker's error text, for a nack that gave one.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub(crate) error: String,
    pub(crate) attempts: u32,
    /// True when the job will not be retried.
    pub(crate) dead: bool,
}

/// One job of a batch enqueue, with enqueue's own params.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct JobSpec {
    pub(crate) queue: QueueName,
    /// As enqueue's payload.
    pub(crate) payload: serde_json::Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) priority: Option<Priority>,
    /// As enqueue's delay.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) delay: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) max_attempts: Option<u32>,
}

/// One job of a batch ack: its id and lease token.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct AckItem {
    pub(crate) id: JobId,
    pub(crate) token: LeaseToken,
}

/// Why one job of a batch ack was not acked: the code and message ack would have answered.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct AckRefusal {
    pub(crate) code: i32,
    pub(crate) message: String,
}

/// The outcome of one job of a batch ack.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AckOutcome {
    pub(crate) id: JobId,
    /// When the job was completed; null when it was not acked.
    pub(crate) completed_at: Nullable<DateTime<Utc>>,
    /// Why the job was not acked; null when it was.
    pub(crate) error: Nullable<AckRefusal>,
}

/// Enqueueing, claiming and settling jobs, and the counters of each queue.
///
/// accord: version = "1.5.0"
#[rpc(server, namespace = "queue", namespace_separator = ".")]
pub(crate) trait QueueApi {
    /// Adds a job to a queue. Every call adds a new job, even with a payload identical to an
    /// earlier one.
    ///
    /// accord: semantics = write
    #[method(name = "enqueue")]
    async fn enqueue(
        &self,
        queue: QueueName,
        payload: serde_json::Value,
        priority: Option<Priority>,
        delay: Option<u64>,
        #[argument(rename = "maxAttempts")] max_attempts: Option<u32>,
    ) -> RpcResult<Enqueued>;

    /// Claims up to `max` visible jobs of a queue for one worker, highest priority first. Each
    /// claimed job is leased to the worker: it must be acked or nacked before the lease
    /// expires, or it becomes claimable again and counts an attempt.
    ///
    /// accord: semantics = write
    #[method(name = "claim")]
    async fn claim(
        &self,
        queue: QueueName,
        worker: String,
        lease: Option<u32>,
        max: Option<u32>,
    ) -> RpcResult<Vec<Lease>>;

    /// Adds several jobs in one commit, all or none: their ids in the order given. A refusal
    /// (a full queue, a payload too large) refuses the whole batch and adds nothing.
    ///
    /// accord: semantics = write
    #[method(name = "enqueueMany")]
    async fn enqueue_many(&self, jobs: Vec<JobSpec>) -> RpcResult<Vec<Enqueued>>;

    /// Marks a claimed job completed and ends its lease. Acking an already completed job with
    /// the same lease token succeeds again and changes nothing.
    ///
    /// accord: semantics = idempotent
    #[method(name = "ack")]
    async fn ack(&self, id: JobId, token: LeaseToken) -> RpcResult<Completed>;

    /// Acks several claimed jobs in one commit; each is answered on its own, in the order
    /// given, with its completion time or the error ack would have answered for it alone.
    /// Repeating it changes nothing, as ack.
    ///
    /// accord: semantics = idempotent
    #[method(name = "ackMany")]
    async fn ack_many(&self, acks: Vec<AckItem>) -> RpcResult<Vec<AckOutcome>>;

    /// Gives a claimed job back: the worker failed it. The job is requeued (after an optional
    /// delay) unless requeue is false or it has used all its attempts, in which case it goes to
    /// the dead state. A repeated nack under the same token changes nothing.
    ///
    /// accord: semantics = idempotent
    #[method(name = "nack")]
    async fn nack(
        &self,
        id: JobId,
        token: LeaseToken,
        requeue: Option<bool>,
        delay: Option<u64>,
        error: Option<String>,
    ) -> RpcResult<Nacked>;

    /// The counters of one queue, or of every queue when none is named.
    ///
    /// accord: semantics = read
    #[method(name = "stats")]
    async fn stats(&self, queue: Option<QueueName>) -> RpcResult<Vec<QueueStats>>;

    /// A job was added to a queue.
    #[subscription(name = "subscribeJobEnqueued" => "jobEnqueued", unsubscribe = "unsubscribeJobEnqueued", item = JobEnqueued)]
    async fn subscribe_job_enqueued(&self) -> SubscriptionResult;

    /// A worker claimed a job.
    #[subscription(name = "subscribeJobClaimed" => "jobClaimed", unsubscribe = "unsubscribeJobClaimed", item = JobClaimed)]
    async fn subscribe_job_claimed(&self) -> SubscriptionResult;

    /// A job was acked.
    #[subscription(name = "subscribeJobCompleted" => "jobCompleted", unsubscribe = "unsubscribeJobCompleted", item = JobCompleted)]
    async fn subscribe_job_completed(&self) -> SubscriptionResult;

    /// A job was nacked, or its lease expired. `dead` tells whether it will be retried.
    #[subscription(name = "subscribeJobFailed" => "jobFailed", unsubscribe = "unsubscribeJobFailed", item = JobFailed)]
    async fn subscribe_job_failed(&self) -> SubscriptionResult;
}
