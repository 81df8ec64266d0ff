//! Sending HTTP checks through a bounded pool, under the run's deadline. Requests (and their
//! ids) are made before anything is sent, in the order the report lists them, so the pool may
//! answer them in any order and the report is still the same: `--jobs` changes how long a run
//! takes, never what it says (for a plant whose answers do not depend on the order of calls).

use std::future::Future;

use accord_wire::Response;
use futures_util::StreamExt as _;
use futures_util::stream;
use tokio::time::{Instant, timeout_at};

use crate::client::Reply;
use crate::failure::{FailureKind, Problem};
use crate::judge::summary;
use crate::report::{Answered, Check, Outcome, Phase};
use crate::run::{Run, read_response, verdict};
use crate::transcript::{Credential, Transcript, Transport};

/// One HTTP check, ready to send.
pub(crate) struct Job {
    pub(crate) phase: Phase,
    pub(crate) subject: String,
    pub(crate) name: String,
    pub(crate) credential: Credential,
    pub(crate) sent: String,
    /// Set for a positive call of a contract method: its answer is counted, and an example
    /// that documents a result must get one.
    pub(crate) positive: Option<Positive>,
    /// Set for a mutant whose only fault is one a plant may take in its stride (extra
    /// positional params, a nullable param left out): its answer is recorded, so that a result
    /// can be noted as tolerance.
    pub(crate) tolerable: Option<crate::judge::Tolerance>,
}

/// What a positive call adds to its judging.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Positive {
    /// The call is an example whose documented answer is a result.
    pub(crate) documents_result: bool,
}

/// `future`, unless `deadline` passes before it or while it runs: then `None`. Nothing is
/// started once the deadline has passed.
pub(crate) async fn in_time<T>(
    deadline: Option<Instant>,
    future: impl Future<Output = T>,
) -> Option<T> {
    match deadline {
        None => Some(future.await),
        Some(at) if Instant::now() >= at => None,
        Some(at) => timeout_at(at, future).await.ok(),
    }
}

impl Run<'_> {
    /// The outcome of a check the deadline left unrun.
    pub(crate) fn not_run(&self) -> Outcome {
        let deadline = self.options.deadline.map_or_else(String::new, crate::duration_text);
        Outcome::NotRun(format!(
            "the run's deadline ({deadline}, --deadline) passed before the check was done"
        ))
    }

    /// Sends `job` and judges the answer (or reports it not run).
    pub(crate) async fn execute(&self, job: &Job) -> Check {
        let mut transcript = Transcript::default();
        transcript.route(Transport::Http, self.client.carried(job.credential));
        let sent = in_time(self.deadline, self.post(&mut transcript, job.credential, &job.sent));
        let (outcome, answered) = match sent.await {
            None => (self.not_run(), None),
            Some((mut problems, reply)) => {
                let answered = (job.positive.is_some() || job.tolerable.is_some())
                    .then(|| self.answered(&job.subject, reply.as_ref()));
                if job.positive.is_some_and(|p| p.documents_result)
                    && answered == Some(Answered::DeclaredError)
                    && let Some(response) = reply.as_ref().and_then(read_response)
                {
                    problems.push(Problem::new(
                        FailureKind::ExampleRefused,
                        format!(
                            "the contract documents a result for this example's params, and the plant answered {}",
                            summary(&response)
                        ),
                    ));
                }
                (verdict(problems), answered)
            }
        };
        self.progress.advance(&format!("{} {}", job.phase.as_str(), job.subject));
        Check {
            phase: job.phase,
            subject: job.subject.clone(),
            name: job.name.clone(),
            outcome,
            transcript,
            answered,
        }
    }

    /// Sends `jobs`, at most `--jobs` at a time; the checks come back in the jobs' order.
    pub(crate) async fn execute_all(&self, jobs: &[&Job]) -> Vec<Check> {
        stream::iter(jobs.iter().map(|job| self.execute(job)))
            .buffered(self.options.jobs.max(1))
            .collect()
            .await
    }

    /// What a positive call of `method` got back.
    fn answered(&self, method: &str, reply: Option<&Reply>) -> Answered {
        match reply.and_then(read_response) {
            Some(Response::Success { .. }) => Answered::Result,
            Some(Response::Failure { error, .. }) => {
                let declared = crate::contract_method(self.judge.doc, method)
                    .and_then(|m| m.errors.as_ref())
                    .is_some_and(|errors| errors.iter().any(|e| e.code == error.code));
                if declared { Answered::DeclaredError } else { Answered::OtherError }
            }
            None => Answered::OtherError,
        }
    }
}
