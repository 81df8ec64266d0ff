//! The describe phase: the plant's describe answer, compared with the contract (versions, then
//! compat-diff both ways).

use accord_compat_diff::{Level, Pairing, Source, diff};
use accord_schema_model::Document;
use accord_wire::describe::DescribeAnswer;

use super::*;
use crate::failure::{FailureKind, Problem};
use crate::judge::built_against;
use crate::pool::in_time;
use crate::report::{Outcome, Phase};
use crate::transcript::{Credential, Transcript, Transport};

impl Run<'_> {
    pub(crate) async fn describe(&mut self) {
        let Some(subject) = self.judge.protocol.describe.clone() else {
            self.push(
                Phase::Describe,
                "describe",
                "the plant's own description",
                Outcome::Skipped("the plant's protocol has no describe method".to_owned()),
                Transcript::default(),
            );
            return;
        };
        let subject = subject.as_str();
        let sent = self.request(subject, Some(built_against(self.judge.doc)));
        let mut transcript = Transcript::default();
        transcript.route(Transport::Http, self.client.carried(Credential::Right));
        let answer =
            in_time(self.deadline, self.post(&mut transcript, Credential::Right, &sent)).await;
        let outcome = match answer {
            None => self.not_run(),
            Some((mut problems, reply)) => {
                if problems.is_empty()
                    && let Some(answer) = reply.as_ref().and_then(describe_answer)
                {
                    problems.extend(self.compare_described(&answer));
                }
                verdict(problems)
            }
        };
        let name = if self.client.has_token() {
            "with the credential"
        } else {
            // Named for what was sent, so that a FAIL line does not read as if the missing
            // credential were the cause.
            "called without a credential (none is configured)"
        };
        self.push(Phase::Describe, subject, name, outcome, transcript);
        if self.client.has_token() {
            let sent = self.request(subject, Some(built_against(self.judge.doc)));
            self.http_check(
                Phase::Describe,
                subject,
                "without a credential (the reduced answer)",
                Credential::None,
                &sent,
            )
            .await;
        }
    }

    /// The described contract against the given one: versions and verdicts, then compat-diff.
    fn compare_described(&self, answer: &DescribeAnswer) -> Vec<Problem> {
        let doc = self.judge.doc;
        let mut problems = Vec::new();
        if answer.schema != doc.schema {
            problems.push(Problem::new(
                FailureKind::DescribeDiffers,
                format!(
                    "the plant serves schema {}, the contract is schema {}",
                    answer.schema, doc.schema
                ),
            ));
        }
        for (name, ns) in doc.namespaces.iter().flatten() {
            match answer.namespaces.iter().find(|e| &e.name == name) {
                None => problems.push(Problem::new(
                    FailureKind::DescribeDiffers,
                    format!("namespace `{name}` is not described"),
                )),
                Some(entry) => {
                    match &entry.version {
                        Some(v) if v == &ns.version => {}
                        Some(v) => problems.push(Problem::new(FailureKind::DescribeDiffers, format!("namespace `{name}`: the plant serves version {v}, the contract is {}", ns.version))),
                        None => problems.push(Problem::new(FailureKind::DescribeDiffers, format!("namespace `{name}` is not served"))),
                    }
                    if let Some(Err(reason)) = &entry.verdict {
                        problems.push(Problem::new(FailureKind::DescribeDiffers, format!("namespace `{name}`: the plant says a caller built against {} is not compatible: {reason}", ns.version)));
                    }
                }
            }
        }
        for entry in &answer.namespaces {
            if entry.version.is_some()
                && !doc.namespaces.iter().flatten().any(|(n, _)| n == &entry.name)
            {
                problems.push(Problem::new(
                    FailureKind::DescribeDiffers,
                    format!(
                        "the plant serves namespace `{}`, which the contract does not have",
                        entry.name
                    ),
                ));
            }
        }
        let Some(served) = answer.contract.clone().and_then(|c| Document::from_value(c).ok())
        else {
            return problems;
        };
        let given = Source::from_document("contract", doc.clone());
        let served = Source::from_document("described", served);
        let report = diff(&given, &served);
        for f in report
            .findings
            .iter()
            .filter(|f| f.pairing == Pairing::OldCallersNewPlant && f.level > Level::None)
        {
            problems.push(Problem::new(
                FailureKind::DescribeDiffers,
                format!(
                    "{} at {} ({} for callers built against the contract): {}",
                    f.rule,
                    f.path,
                    f.level.as_str(),
                    f.message
                ),
            ));
        }
        if let Some(s) = &report.schema {
            problems.push(Problem::new(
                FailureKind::DescribeDiffers,
                format!("the described contract is schema {}, the given one {}", s.new, s.old),
            ));
        }
        problems
    }
}
