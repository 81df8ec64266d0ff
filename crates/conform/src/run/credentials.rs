//! The credentials phase: no credential, a wrong one and the right one, over HTTP and on the
//! WebSocket upgrade.

use super::*;
use crate::failure::{FailureKind, Problem};
use crate::pool::in_time;
use crate::report::{Outcome, Phase};
use crate::transcript::{Credential, Transcript, Transport};

impl Run<'_> {
    pub(crate) async fn credentials(&mut self) {
        if !self.client.has_token() {
            self.push(
                Phase::Credentials,
                "credentials",
                "none, wrong, right",
                Outcome::Skipped(
                    "no token given: the plant is taken to have no credentials".to_owned(),
                ),
                Transcript::default(),
            );
            return;
        }
        let describe = self.judge.protocol.probe.clone();
        let describe = describe.as_str();
        let first = self.called().into_iter().next();
        let call = match &first {
            Some(m) => match self.first_params(m) {
                Ok(params) => Some((m.wire.clone(), params)),
                Err(_) => None,
            },
            None => None,
        };
        // What a call without a credential must get: the wire's code, or the HTTP refusal of a
        // wire that has none (docs/wire.md §11.2).
        let no_credential = match self.judge.dialect.codes.credential_required {
            Some(code) => format!("no credential: {code}"),
            None => "no credential over HTTP: refused with 401".to_owned(),
        };
        if let Some((name, params)) = &call {
            let sent = self.request(name, Some(params.clone()));
            self.http_check(Phase::Credentials, name, &no_credential, Credential::None, &sent)
                .await;
        }
        let sent = self.request(describe, None);
        self.http_check(
            Phase::Credentials,
            describe,
            "wrong credential over HTTP: refused with 401",
            Credential::Wrong,
            &sent,
        )
        .await;
        if let Some((name, params)) = &call {
            let sent = self.request(name, Some(params.clone()));
            self.http_check(
                Phase::Credentials,
                name,
                "wrong credential over HTTP: refused with 401",
                Credential::Wrong,
                &sent,
            )
            .await;
        }
        self.upgrade(Credential::Wrong).await;
        self.upgrade(Credential::Right).await;
    }

    /// A WebSocket upgrade with `credential`: a wrong one must be refused with 401 before the
    /// upgrade; the right one must give a socket on which rpc.describe answers in full.
    async fn upgrade(&mut self, credential: Credential) {
        let describe = self.judge.protocol.probe.clone();
        let describe = describe.as_str();
        let mut transcript = Transcript::default();
        transcript.route(Transport::WebSocket, credential);
        let name = match credential {
            Credential::Wrong => {
                "wrong credential over WebSocket: upgrade refused with 401".to_owned()
            }
            _ => format!("right credential over WebSocket: {describe} in full"),
        };
        let Some(socket) = in_time(self.deadline, self.client.socket(credential)).await else {
            let outcome = self.not_run();
            self.push(Phase::Credentials, describe, &name, outcome, transcript);
            return;
        };
        let problems = match socket {
            Err(e) => {
                transcript.note(format!("transport: {e}"));
                vec![e.problem()]
            }
            Ok(Err(status)) => {
                transcript.note(format!("upgrade refused with HTTP {status}"));
                match (credential, status) {
                    (Credential::Wrong, 401) => Vec::new(),
                    (Credential::Wrong, s) => vec![Problem::new(
                        FailureKind::RefusalShape,
                        format!(
                            "a wrong credential must be refused with HTTP 401 at the upgrade, got HTTP {s}"
                        ),
                    )],
                    (_, s) => vec![Problem::new(
                        FailureKind::RightCredentialRefused,
                        format!("the upgrade with the right credential was refused with HTTP {s}"),
                    )],
                }
            }
            Ok(Ok(mut socket)) => {
                transcript.note("upgraded");
                let sent = self.request(describe, None);
                let answer =
                    in_time(self.deadline, ws_call(&mut socket, &mut transcript, &sent)).await;
                socket.close().await;
                let Some(answer) = answer else {
                    let outcome = self.not_run();
                    self.push(Phase::Credentials, describe, &name, outcome, transcript);
                    return;
                };
                match (credential, answer) {
                    (_, Err(e)) => vec![e.problem()],
                    (Credential::Wrong, Ok((reply, _))) => {
                        let reduced = describe_answer(&reply).is_some_and(|a| a.reduced);
                        vec![if reduced {
                            Problem::new(
                                FailureKind::WrongCredentialDowngraded,
                                "a WebSocket upgrade with a wrong credential must be refused with HTTP 401, and it was upgraded and given the reduced describe answer",
                            )
                        } else {
                            Problem::new(
                                FailureKind::WrongCredentialAccepted,
                                "a WebSocket upgrade with a wrong credential must be refused with HTTP 401, and it was upgraded",
                            )
                        }]
                    }
                    (_, Ok((reply, _))) => {
                        self.judge.exchange(Transport::WebSocket, credential, &sent, &reply)
                    }
                }
            }
        };
        self.push(Phase::Credentials, describe, &name, verdict(problems), transcript);
    }
}
