//! The node: the contract's methods over the store, its events emitted through accord-plant.

use std::sync::Arc;

use jsonrpsee::PendingSubscriptionSink;
use jsonrpsee::core::{RpcResult, SubscriptionResult, async_trait};
use jsonrpsee::types::ErrorObjectOwned;
use serde_json::{Value, json};

use crate::api::{
    AckItem, AckOutcome, AckRefusal, Completed, Enqueued, JobId, JobSpec, Lease, LeaseToken,
    Nacked, Nullable, Priority, QueueApiServer, QueueName, QueueStats,
};
use crate::store::{MAX_PAYLOAD, NewJob, Refusal, Store};

/// The node.
#[derive(Clone)]
pub(crate) struct Node {
    pub(crate) store: Arc<dyn Store>,
}

fn refusal(refusal: Refusal) -> ErrorObjectOwned {
    let (code, message, data) = match refusal {
        Refusal::QueueFull { queue, capacity } => {
            (-32040, "queue full", Some(json!({"queue": queue, "capacity": capacity})))
        }
        Refusal::PayloadTooLarge { size } => {
            (-32041, "payload too large", Some(json!({"size": size, "limit": MAX_PAYLOAD})))
        }
        Refusal::NotFound(id) => (-32044, "job not found", Some(json!({"id": id}))),
        Refusal::LeaseExpired { expired_at, claimed_by } => (
            -32050,
            "lease expired",
            Some(json!({"expiredAt": expired_at, "claimedBy": claimed_by})),
        ),
        Refusal::TokenMismatch => (-32051, "lease token mismatch", None),
        // The plant failed: the contract lets any method say so, and the job is not lost
        // (nothing was answered as done).
        Refusal::Store(reason) => (
            -32603,
            "Internal error",
            Some(json!({"reason": format!("the store failed: {reason}")})),
        ),
    };
    ErrorObjectOwned::owned(code, message, data)
}

#[async_trait]
impl QueueApiServer for Node {
    async fn enqueue(
        &self,
        queue: QueueName,
        payload: Value,
        priority: Option<Priority>,
        delay: Option<u64>,
        max_attempts: Option<u32>,
    ) -> RpcResult<Enqueued> {
        let job = NewJob {
            queue,
            payload,
            priority: priority.map_or(4, |p| p.0),
            delay_ms: delay.unwrap_or(0),
            max_attempts: max_attempts.unwrap_or(5),
        };
        let added = self.store.enqueue(vec![job]).await.map_err(refusal)?;
        let (id, visible_at) = added
            .into_iter()
            .next()
            .ok_or_else(|| refusal(Refusal::Store("the store added no job".into())))?;
        Ok(Enqueued { id, visible_at })
    }

    async fn claim(
        &self,
        queue: QueueName,
        worker: String,
        lease: Option<u32>,
        max: Option<u32>,
    ) -> RpcResult<Vec<Lease>> {
        self.store
            .claim(queue, worker, lease.unwrap_or(300), max.unwrap_or(1))
            .await
            .map_err(refusal)
    }

    async fn ack(&self, id: JobId, token: LeaseToken) -> RpcResult<Completed> {
        let answer = self.store.ack(vec![(id.0, token.0)]).await.map_err(refusal)?;
        let completed_at = answer
            .into_iter()
            .next()
            .unwrap_or_else(|| Err(Refusal::Store("the store answered no ack".into())))
            .map_err(refusal)?;
        Ok(Completed { completed_at })
    }

    async fn enqueue_many(&self, jobs: Vec<JobSpec>) -> RpcResult<Vec<Enqueued>> {
        let jobs = jobs
            .into_iter()
            .map(|j| NewJob {
                queue: j.queue,
                payload: j.payload,
                priority: j.priority.map_or(4, |p| p.0),
                delay_ms: j.delay.unwrap_or(0),
                max_attempts: j.max_attempts.unwrap_or(5),
            })
            .collect();
        let added = self.store.enqueue(jobs).await.map_err(refusal)?;
        Ok(added.into_iter().map(|(id, visible_at)| Enqueued { id, visible_at }).collect())
    }

    async fn ack_many(&self, acks: Vec<AckItem>) -> RpcResult<Vec<AckOutcome>> {
        let ids: Vec<JobId> = acks.iter().map(|a| a.id).collect();
        let answers = self
            .store
            .ack(acks.into_iter().map(|a| (a.id.0, a.token.0)).collect())
            .await
            .map_err(refusal)?;
        Ok(ids
            .into_iter()
            .zip(answers)
            .map(|(id, answer)| match answer {
                Ok(at) => {
                    AckOutcome { id, completed_at: Nullable::Value(at), error: Nullable::Null }
                }
                Err(no) => {
                    let error = refusal(no);
                    AckOutcome {
                        id,
                        completed_at: Nullable::Null,
                        error: Nullable::Value(AckRefusal {
                            code: error.code(),
                            message: error.message().to_owned(),
                        }),
                    }
                }
            })
            .collect())
    }

    async fn nack(
        &self,
        id: JobId,
        token: LeaseToken,
        requeue: Option<bool>,
        delay: Option<u64>,
        error: Option<String>,
    ) -> RpcResult<Nacked> {
        let (state, attempts, visible_at) = self
            .store
            .nack(id.0, token.0, requeue.unwrap_or(true), delay.unwrap_or(0), error)
            .await
            .map_err(refusal)?;
        Ok(Nacked {
            state,
            attempts,
            visible_at: visible_at.map_or(Nullable::Null, Nullable::Value),
        })
    }

    async fn stats(&self, queue: Option<QueueName>) -> RpcResult<Vec<QueueStats>> {
        self.store.stats(queue).await.map_err(refusal)
    }

    // The contract's events are subscribed with accord's `rpc.subscribe` (accord-plant's
    // register_events); jsonrpsee's own subscribe methods are not on the contract's wire.
    async fn subscribe_job_enqueued(&self, pending: PendingSubscriptionSink) -> SubscriptionResult {
        refuse(pending).await
    }

    async fn subscribe_job_claimed(&self, pending: PendingSubscriptionSink) -> SubscriptionResult {
        refuse(pending).await
    }

    async fn subscribe_job_completed(
        &self,
        pending: PendingSubscriptionSink,
    ) -> SubscriptionResult {
        refuse(pending).await
    }

    async fn subscribe_job_failed(&self, pending: PendingSubscriptionSink) -> SubscriptionResult {
        refuse(pending).await
    }
}

async fn refuse(pending: PendingSubscriptionSink) -> SubscriptionResult {
    pending
        .reject(ErrorObjectOwned::owned(-32601, "subscribe with rpc.subscribe", None::<()>))
        .await;
    Ok(())
}
