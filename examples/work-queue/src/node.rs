//! The node: the contract's methods over the store, its events emitted through accord-plant.

use std::sync::Arc;

use jsonrpsee::PendingSubscriptionSink;
use jsonrpsee::core::{RpcResult, SubscriptionResult, async_trait};
use jsonrpsee::types::ErrorObjectOwned;
use serde_json::{Value, json};

use crate::api::{
    Completed, Enqueued, JobId, Lease, LeaseToken, Nacked, Nullable, Priority, QueueApiServer,
    QueueName, QueueStats,
};
use crate::store::{Happened, MAX_PAYLOAD, Refusal, Store};

/// The node.
#[derive(Clone)]
pub(crate) struct Node {
    pub(crate) store: Arc<Store>,
    pub(crate) plant: Arc<accord_plant::Plant>,
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

impl Node {
    /// Sends what a call changed to the subscribers, each payload checked by accord-plant.
    pub(crate) fn announce(&self, happened: Happened) {
        let emit = |event: &str, payload: Value| {
            let _ = self.plant.emit(event, payload);
        };
        for e in happened.enqueued {
            emit("queue.jobEnqueued", serde_json::to_value(e).unwrap_or_default());
        }
        for e in happened.claimed {
            emit("queue.jobClaimed", serde_json::to_value(e).unwrap_or_default());
        }
        for e in happened.completed {
            emit("queue.jobCompleted", serde_json::to_value(e).unwrap_or_default());
        }
        for e in happened.failed {
            emit("queue.jobFailed", serde_json::to_value(e).unwrap_or_default());
        }
    }

    /// Runs a store call off the async threads (SQLite blocks on fsync), then announces.
    async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Store, &mut Happened) -> Result<T, Refusal> + Send + 'static,
    ) -> RpcResult<T> {
        let store = self.store.clone();
        let (outcome, happened) = tokio::task::spawn_blocking(move || {
            let mut happened = Happened::default();
            let outcome = f(&store, &mut happened);
            (outcome, happened)
        })
        .await
        .map_err(|e| refusal(Refusal::Store(e.to_string())))?;
        self.announce(happened);
        outcome.map_err(refusal)
    }
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
        let priority = priority.map_or(4, |p| p.0);
        let (id, visible_at) = self
            .run(move |s, h| {
                s.enqueue(
                    &queue,
                    &payload,
                    priority,
                    delay.unwrap_or(0),
                    max_attempts.unwrap_or(5),
                    h,
                )
            })
            .await?;
        Ok(Enqueued { id, visible_at })
    }

    async fn claim(
        &self,
        queue: QueueName,
        worker: String,
        lease: Option<u32>,
        max: Option<u32>,
    ) -> RpcResult<Vec<Lease>> {
        self.run(move |s, h| s.claim(&queue, &worker, lease.unwrap_or(300), max.unwrap_or(1), h))
            .await
    }

    async fn ack(&self, id: JobId, token: LeaseToken) -> RpcResult<Completed> {
        let completed_at = self.run(move |s, h| s.ack(id.0, &token.0, h)).await?;
        Ok(Completed { completed_at })
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
            .run(move |s, h| {
                s.nack(
                    id.0,
                    &token.0,
                    requeue.unwrap_or(true),
                    delay.unwrap_or(0),
                    error.as_deref(),
                    h,
                )
            })
            .await?;
        Ok(Nacked {
            state,
            attempts,
            visible_at: visible_at.map_or(Nullable::Null, Nullable::Value),
        })
    }

    async fn stats(&self, queue: Option<QueueName>) -> RpcResult<Vec<QueueStats>> {
        self.run(move |s, _| s.stats(queue.as_ref())).await
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
