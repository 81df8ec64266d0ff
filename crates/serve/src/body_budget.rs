//! The memory all request bodies may hold at once (docs/wire.md §9, `body-memory`): bytes of a
//! body being read are reserved from one budget as they arrive and held until its answer is
//! sent, so that many connections sending large bodies slowly cannot together hold more than
//! the budget. The first [`FREE_BYTES`] of each body are not counted: a normal call, a few
//! hundred bytes, never waits for bodies that stall elsewhere. A body that finds the budget
//! spent waits for it (reading nothing more meanwhile, so its bytes stay in the kernel), within
//! the read timeout; past that it is refused with 503 and `-32003` naming `body-memory`.

use http_body_util::BodyExt;
use hyper::body::{Bytes, Incoming};
use tokio::sync::{Semaphore, SemaphorePermit};

/// The bytes of each body read without a reservation.
pub(crate) const FREE_BYTES: usize = 8 * 1024;

/// The budget of body bytes.
pub(crate) struct BodyBudget {
    semaphore: Semaphore,
}

impl BodyBudget {
    /// A budget of `bytes`, and at least `body_bytes` (one body of the largest size must
    /// fit), at most what a semaphore can count.
    pub(crate) fn new(bytes: usize, body_bytes: usize) -> BodyBudget {
        let bytes = bytes.max(body_bytes).min(Semaphore::MAX_PERMITS);
        BodyBudget { semaphore: Semaphore::new(bytes) }
    }

    /// Ends every wait for the budget: the plant is shutting down.
    pub(crate) fn close(&self) {
        self.semaphore.close();
    }
}

/// A body being read: what has arrived, what it holds of the budget, and a frame taken from the
/// body but not yet paid for. Kept outside the reading future so that dropping it (a timeout, a
/// first try without waiting) loses nothing.
#[derive(Default)]
pub(crate) struct Reading<'a> {
    pub(crate) bytes: Vec<u8>,
    held: Option<SemaphorePermit<'a>>,
    unpaid: Option<Bytes>,
    /// Whether the read is waiting for the budget (rather than for the peer).
    pub(crate) waiting: bool,
}

/// How a body read ended.
pub(crate) enum Read {
    Whole,
    TooLarge,
}

impl<'a> Reading<'a> {
    /// Reads the rest of the body: [`Read::TooLarge`] once it passes `max` bytes.
    pub(crate) async fn read(
        &mut self,
        body: &mut Incoming,
        max: usize,
        budget: &'a BodyBudget,
    ) -> Result<Read, String> {
        loop {
            let mut chunk = match self.unpaid.take() {
                Some(chunk) => chunk,
                None => match body.frame().await {
                    None => return Ok(Read::Whole),
                    // Trailers (the only other kind of frame) carry no part of the request.
                    Some(frame) => match frame.map_err(|e| e.to_string())?.into_data() {
                        Ok(chunk) => chunk,
                        Err(_) => continue,
                    },
                },
            };
            let needed = self.bytes.len() + chunk.len();
            if needed > max {
                return Ok(Read::TooLarge);
            }
            // What the buffer will hold is its capacity, not its length: grow it by doubling
            // (up to `max`), exactly, and count the capacity.
            let capacity = if needed > self.bytes.capacity() {
                needed.max(self.bytes.capacity() * 2).min(max).max(needed)
            } else {
                self.bytes.capacity()
            };
            let counted = capacity.saturating_sub(FREE_BYTES);
            let held = self.held.as_ref().map_or(0, SemaphorePermit::num_permits);
            if counted > held {
                let more = u32::try_from(counted - held).unwrap_or(u32::MAX);
                self.unpaid = Some(chunk);
                self.waiting = true;
                let Ok(permit) = budget.semaphore.acquire_many(more).await else {
                    return Err("the plant is shutting down".to_owned());
                };
                self.waiting = false;
                match &mut self.held {
                    Some(held) => held.merge(permit),
                    None => self.held = Some(permit),
                }
                let Some(taken) = self.unpaid.take() else { continue };
                chunk = taken;
            }
            self.bytes.reserve_exact(capacity - self.bytes.len());
            self.bytes.extend_from_slice(&chunk);
        }
    }
}
