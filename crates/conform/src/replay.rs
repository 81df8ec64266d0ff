//! Replay: a transcript's requests re-sent as its notes route them (transport, credential) and
//! each answer re-judged by the same judge as the run that wrote it. The recorded answers are
//! not expected back; a note says when the new answer differs from the recorded one.

use serde_json::Value;

use crate::client::AsProblem as _;
use crate::client::{Reply, Socket};
use crate::failure::{FailureKind, Problem};
use crate::report::Phase;
use crate::run::{Run, verdict, ws_call};
use crate::transcript::{Credential, Line, Transcript, Transport};

impl Run<'_> {
    pub(crate) async fn replay(&mut self, transcript: &Transcript) {
        let mut transport = Transport::Http;
        let mut credential = Credential::Right;
        let mut socket: Option<Socket> = None;
        let mut recorded: Option<String> = None;
        let mut pending: Option<(String, Reply, Transcript, Vec<Problem>)> = None;
        for line in &transcript.lines {
            match line {
                Line::Note(text) => {
                    if let Some(t) = text.strip_prefix("transport: ") {
                        let next = match t.trim() {
                            "ws" => Transport::WebSocket,
                            "http" => Transport::Http,
                            _ => transport,
                        };
                        // Another route needs another socket.
                        if next != transport
                            && let Some(s) = socket.take()
                        {
                            s.close().await;
                        }
                        transport = next;
                    } else if let Some(c) = text.strip_prefix("credential: ") {
                        let next = match c.trim() {
                            "none" => Credential::None,
                            "wrong" => Credential::Wrong,
                            "right" => Credential::Right,
                            _ => credential,
                        };
                        // Another route needs another socket.
                        if next != credential
                            && let Some(s) = socket.take()
                        {
                            s.close().await;
                        }
                        credential = next;
                    }
                }
                Line::Received(text) => {
                    if recorded.is_none() {
                        recorded = Some(text.clone());
                    }
                }
                Line::Sent(sent) => {
                    self.finish(pending.take(), recorded.take());
                    let mut t = Transcript::default();
                    t.route(transport, credential);
                    let (problems, reply) = match transport {
                        Transport::Http => {
                            let (problems, reply) = self.post(&mut t, credential, sent).await;
                            (
                                problems,
                                reply.unwrap_or(Reply {
                                    status: None,
                                    body: None,
                                    challenge: false,
                                }),
                            )
                        }
                        Transport::WebSocket => {
                            self.replay_ws(&mut socket, &mut t, credential, sent).await
                        }
                    };
                    pending = Some((sent.clone(), reply, t, problems));
                }
            }
        }
        self.finish(pending.take(), recorded.take());
        if let Some(s) = socket.take() {
            s.close().await;
        }
    }

    async fn replay_ws(
        &mut self,
        socket: &mut Option<Socket>,
        t: &mut Transcript,
        credential: Credential,
        sent: &str,
    ) -> (Vec<Problem>, Reply) {
        let none = Reply { status: None, body: None, challenge: false };
        if socket.is_none() {
            match self.client.socket(credential).await {
                Ok(Ok(s)) => *socket = Some(s),
                Ok(Err(status)) => {
                    t.note(format!("upgrade refused with HTTP {status}"));
                    let problems = if credential == Credential::Wrong && status == 401 {
                        Vec::new()
                    } else {
                        vec![Problem::new(
                            FailureKind::credential_refused(self.client.has_token()),
                            format!("the upgrade was refused with HTTP {status}"),
                        )]
                    };
                    return (problems, none);
                }
                Err(e) => return (vec![e.problem()], none),
            }
        }
        let Some(s) = socket.as_mut() else { return (Vec::new(), none) };
        // A socket opened with a wrong credential is itself the failure (docs/wire.md §8).
        let mut problems = Vec::new();
        if credential == Credential::Wrong {
            problems.push(Problem::new(
                FailureKind::WrongCredentialAccepted,
                "a WebSocket upgrade with a wrong credential must be refused with HTTP 401, and it was upgraded",
            ));
        }
        let has_id = serde_json::from_str::<Value>(sent)
            .ok()
            .is_some_and(|v| v.get("id").is_some() || v.is_array());
        if !has_id {
            t.sent(sent);
            if let Err(e) = s.send(sent).await {
                problems.push(e.problem());
            }
            return (problems, none);
        }
        match ws_call(s, t, sent).await {
            Ok((reply, _)) if credential == Credential::Wrong => (problems, reply),
            Ok((reply, _)) => {
                (self.judge.exchange(Transport::WebSocket, credential, sent, &reply), reply)
            }
            Err(e) => {
                problems.push(e.problem());
                (problems, none)
            }
        }
    }

    fn finish(
        &mut self,
        pending: Option<(String, Reply, Transcript, Vec<Problem>)>,
        recorded: Option<String>,
    ) {
        let Some((sent, reply, mut t, problems)) = pending else { return };
        let now = reply.body.as_deref().map(normalise);
        let before = recorded.as_deref().map(normalise);
        if now != before {
            match &recorded {
                Some(r) => t.note(format!("recorded answer was: {r}")),
                None => t.note("the recording had no answer"),
            }
        }
        let subject = serde_json::from_str::<Value>(&sent)
            .ok()
            .and_then(|v| v.get("method").and_then(Value::as_str).map(str::to_owned))
            .unwrap_or_else(|| "request".to_owned());
        let n = self.checks.len() + 1;
        self.push(Phase::Replay, &subject, &format!("request {n}"), verdict(problems), t);
    }
}

fn normalise(text: &str) -> String {
    serde_json::from_str::<Value>(text).map_or_else(|_| text.to_owned(), |v| v.to_string())
}
