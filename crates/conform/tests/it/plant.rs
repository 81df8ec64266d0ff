//! A plant for the tests, built from a contract: it answers as docs/wire.md says, with results
//! from the contract's examples (matching params) or from accord-validate's generator. Each
//! broken plant is this one with one deliberate [`Fault`].
#![allow(dead_code)]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use accord_schema_model::{Document, ParamStructure};
use accord_validate::{Contract, Target, ValidationRule};
use accord_wire::credential::{Access, Presented};
use accord_wire::describe;
use accord_wire::envelope::{Call, Incoming, Rejected};
use accord_wire::event::{Notification, SUBSCRIBE, UNSUBSCRIBE};
use accord_wire::{Id, Request, Response, RpcError};
use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response as HttpResponse};
use axum::routing::post;
use axum::serve::ListenerExt;
use serde_json::{Value, json};

/// The method the result and params faults are put on.
pub(crate) const FAULTY_METHOD: &str = "pump.getSpeed";
/// The event whose payloads the event fault breaks.
pub(crate) const FAULTY_EVENT: &str = "pump.stateChanged";
/// The method the describe fault leaves out of the described contract.
pub(crate) const UNDESCRIBED_METHOD: (&str, &str) = ("tank", "history");

/// One deliberate fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fault {
    /// None: the healthy plant.
    None,
    /// `FAULTY_METHOD` answers a result of the wrong JSON type.
    WrongResultType,
    /// `FAULTY_METHOD` answers a result past a bound.
    ResultOutOfBounds,
    /// `FAULTY_METHOD` answers invalid params with a result.
    AcceptsInvalidParams,
    /// `FAULTY_METHOD` is not served (-32601).
    MissingMethod,
    /// The described contract lacks `UNDESCRIBED_METHOD`.
    DescribeDiffers,
    /// A wrong credential gets the reduced answer, as if none had been sent.
    WrongCredentialDowngraded,
    /// `FAULTY_EVENT`'s payloads do not validate.
    EventPayloadInvalid,
    /// Invalid params are refused with -32603 instead of -32602.
    WrongErrorCode,
    /// `ERRING_METHOD` answers its declared error with `data` of the wrong type.
    DeclaredErrorDataInvalid,
    /// Every contract call, valid or not, is answered with one of the method's declared errors
    /// (`-32603` for a method that declares none): the plant never answers a result.
    OnlyDeclaredErrors,
    /// Valid params of a method that declares errors get its first declared error (examples
    /// included); invalid params are refused as they should be.
    DeclaredErrorsOnValidCalls,
    /// `FAULTY_METHOD` answers `null`, which its result type does not allow.
    NullResult,
    /// `ERRING_METHOD` answers generated (non-example) valid params with its declared error,
    /// whose `message` is not the contract's.
    WrongErrorMessage,
    /// `FAULTY_METHOD` answers every call, valid or not, with one undeclared error
    /// ([`SAME_ERROR`]).
    SameUndeclaredError,
    /// `queue.ack` (of the work-queue contract) answers every call with its first declared
    /// error (`-32044 job not found`), even for a job the flow has just claimed.
    AckAlwaysRefused,
    /// `queue.ack` (of the work-queue contract) is not served (-32601).
    AckMissing,
    /// Every HTTP answer waits this long first.
    Slow(Duration),
}

/// The undeclared error the same-error fault answers every call of `FAULTY_METHOD` with.
pub(crate) const SAME_ERROR: i64 = -32099;

/// The message the wrong-message fault answers.
pub(crate) const WRONG_MESSAGE: &str = "banana";

/// What a plant saw, for tests that look at how conform called it.
#[derive(Debug, Default)]
pub(crate) struct Stats {
    /// HTTP requests being answered now.
    in_flight: AtomicUsize,
    /// The most HTTP requests answered at once.
    pub(crate) max_in_flight: AtomicUsize,
}

/// The method the declared-error fault is put on, and the error it answers.
pub(crate) const ERRING_METHOD: (&str, i64) = ("pump.status", -32004);

struct Plant {
    doc: Document,
    described: Document,
    contract: Contract,
    token: Option<String>,
    fault: Fault,
    stats: Arc<Stats>,
}

/// Starts a plant for `contract` (a path under fixtures/contracts) on 127.0.0.1, port 0; it
/// runs until the test's runtime ends. Returns its URL.
pub(crate) async fn start(contract: &str, token: Option<&str>, fault: Fault) -> String {
    start_with_stats(contract, token, fault).await.0
}

/// As [`start`], also giving what the plant sees.
pub(crate) async fn start_with_stats(
    contract: &str,
    token: Option<&str>,
    fault: Fault,
) -> (String, Arc<Stats>) {
    let path = format!("{}/../../fixtures/contracts/{contract}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("contract");
    let doc = Document::parse(&text).expect("contract parses");
    let mut described = doc.clone();
    if fault == Fault::DescribeDiffers {
        let (ns, m) = UNDESCRIBED_METHOD;
        let methods = described
            .namespaces
            .as_mut()
            .and_then(|all| all.get_mut(ns))
            .and_then(|n| n.methods.as_mut());
        methods.expect("the namespace has methods").shift_remove(m);
    }
    let contract = Contract::compile(&doc).expect("contract compiles");
    let stats = Arc::new(Stats::default());
    let plant = Arc::new(Plant {
        doc,
        described,
        contract,
        token: token.map(str::to_owned),
        fault,
        stats: stats.clone(),
    });
    let app = Router::new().route("/", post(http).get(upgrade)).with_state(plant);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let url = format!("http://{}/", listener.local_addr().expect("addr"));
    // No Nagle: an answer and the notification after it are two small writes, and the
    // second would otherwise wait for the client's delayed ACK.
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    tokio::spawn(async move { axum::serve(listener, app).await.expect("serve") });
    (url, stats)
}

fn access(plant: &Plant, headers: &HeaderMap) -> Access {
    let value = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok());
    let access = Access::decide(plant.token.as_deref(), Presented::from_header(value));
    if access == Access::Refused && plant.fault == Fault::WrongCredentialDowngraded {
        return Access::Reduced;
    }
    access
}

fn refused() -> HttpResponse {
    let body = Response::Failure { id: Id::Null, error: RpcError::credential_refused() }.to_value();
    (StatusCode::UNAUTHORIZED, [(header::WWW_AUTHENTICATE, "Bearer")], body.to_string())
        .into_response()
}

async fn http(State(plant): State<Arc<Plant>>, headers: HeaderMap, body: Bytes) -> HttpResponse {
    let now = plant.stats.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
    plant.stats.max_in_flight.fetch_max(now, Ordering::SeqCst);
    if let Fault::Slow(delay) = plant.fault {
        tokio::time::sleep(delay).await;
    }
    let answer = http_answer(&plant, &headers, &body);
    plant.stats.in_flight.fetch_sub(1, Ordering::SeqCst);
    answer
}

fn http_answer(plant: &Plant, headers: &HeaderMap, body: &Bytes) -> HttpResponse {
    let access = access(plant, headers);
    if access == Access::Refused {
        return refused();
    }
    match plant.answer(body, access, None) {
        Some(text) => {
            (StatusCode::OK, [(header::CONTENT_TYPE, "application/json")], text).into_response()
        }
        None => StatusCode::NO_CONTENT.into_response(),
    }
}

async fn upgrade(
    State(plant): State<Arc<Plant>>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> HttpResponse {
    let access = access(&plant, &headers);
    if access == Access::Refused {
        return refused();
    }
    ws.on_upgrade(move |socket| connection(plant, socket, access))
}

/// One WebSocket connection's subscriptions.
#[derive(Default)]
struct Conn {
    subscriptions: Vec<(String, String)>,
    next: u64,
    outbox: Vec<String>,
}

async fn connection(plant: Arc<Plant>, mut socket: WebSocket, access: Access) {
    let mut conn = Conn::default();
    while let Some(Ok(message)) = socket.recv().await {
        let Message::Text(text) = message else { continue };
        let answer = plant.answer(text.as_bytes(), access, Some(&mut conn));
        if let Some(answer) = answer
            && socket.send(Message::Text(answer.into())).await.is_err()
        {
            return;
        }
        for note in conn.outbox.drain(..) {
            if socket.send(Message::Text(note.into())).await.is_err() {
                return;
            }
        }
    }
}

impl Plant {
    fn answer(&self, bytes: &[u8], access: Access, mut conn: Option<&mut Conn>) -> Option<String> {
        let incoming = match Incoming::parse(bytes) {
            Ok(incoming) => incoming,
            Err(error) => {
                return Some(Response::Failure { id: Id::Null, error }.to_value().to_string());
            }
        };
        match incoming {
            Incoming::Single(one) => self.one(one, access, conn).map(|r| r.to_value().to_string()),
            Incoming::Batch(all) => {
                let answers: Vec<Value> = all
                    .into_iter()
                    .filter_map(|one| self.one(one, access, conn.as_deref_mut()))
                    .map(|r| r.to_value())
                    .collect();
                if answers.is_empty() { None } else { Some(Value::Array(answers).to_string()) }
            }
        }
    }

    fn one(
        &self,
        one: Result<Request, Rejected>,
        access: Access,
        conn: Option<&mut Conn>,
    ) -> Option<Response> {
        let request = match one {
            Ok(r) => r,
            Err(rejected) => return Some(rejected.response()),
        };
        let id = request.id.clone()?;
        Some(match self.call(&request, access, conn) {
            Ok(result) => Response::Success { id, result },
            Err(error) => Response::Failure { id, error },
        })
    }

    fn call(
        &self,
        request: &Request,
        access: Access,
        conn: Option<&mut Conn>,
    ) -> Result<Value, RpcError> {
        if access == Access::Reduced && request.method != describe::METHOD {
            return Err(RpcError::credential_required());
        }
        match request.call() {
            Call::Protocol("describe") => {
                let built = describe::read_params(request.params.as_ref())?;
                Ok(describe::answer(&self.described, &built, access == Access::Reduced))
            }
            Call::Protocol(_) if request.method == SUBSCRIBE || request.method == UNSUBSCRIBE => {
                let Some(conn) = conn else { return Err(RpcError::not_on_transport("http")) };
                let params = request.params.clone().unwrap_or(Value::Null);
                if request.method == SUBSCRIBE {
                    let event = params.get("event").and_then(Value::as_str).unwrap_or("");
                    if self.event_target(event).is_none() {
                        return Err(RpcError::invalid_params_at(
                            "/event",
                            "an event of the contract",
                            event,
                        ));
                    }
                    conn.next += 1;
                    let id = format!("sub-{}", conn.next);
                    conn.subscriptions.push((id.clone(), event.to_owned()));
                    Ok(Value::String(id))
                } else {
                    let sub = params.get("subscription").and_then(Value::as_str).unwrap_or("");
                    let before = conn.subscriptions.len();
                    conn.subscriptions.retain(|(id, _)| id != sub);
                    Ok(Value::Bool(conn.subscriptions.len() < before))
                }
            }
            Call::Protocol("fake") => {
                let emit =
                    request.params.as_ref().and_then(|p| p.get("emit")).and_then(Value::as_str);
                let (Some(event), Some(conn)) = (emit, conn) else {
                    return Err(RpcError::method_not_found(&request.method));
                };
                let target = self
                    .event_target(event)
                    .ok_or_else(|| RpcError::invalid_params_at("/emit", "an event", event))?;
                let mut emitted = 0;
                for (sub, _) in conn.subscriptions.iter().filter(|(_, e)| e == event) {
                    conn.next += 1;
                    let mut payload = self.generate(&target, conn.next);
                    if self.fault == Fault::EventPayloadInvalid && event == FAULTY_EVENT {
                        payload = self.mutant(&target, &payload, |_| true);
                    }
                    let note = Notification {
                        subscription: sub.clone(),
                        event: event.to_owned(),
                        payload,
                    };
                    conn.outbox.push(note.to_value().to_string());
                    emitted += 1;
                }
                Ok(json!({"emitted": emitted}))
            }
            Call::Protocol(_) | Call::Unqualified(_) => {
                Err(RpcError::method_not_found(&request.method))
            }
            Call::Contract { namespace, method } => self.contract_call(request, namespace, method),
        }
    }

    fn contract_call(
        &self,
        request: &Request,
        namespace: &str,
        method: &str,
    ) -> Result<Value, RpcError> {
        let declared = self
            .doc
            .namespaces
            .as_ref()
            .and_then(|all| all.get(namespace))
            .and_then(|ns| ns.methods.as_ref())
            .and_then(|m| m.get(method))
            .ok_or_else(|| RpcError::method_not_found(&request.method))?;
        let faulty = request.method == FAULTY_METHOD;
        if self.fault == Fault::AckMissing && request.method == "queue.ack" {
            return Err(RpcError::method_not_found(&request.method));
        }
        if faulty && self.fault == Fault::MissingMethod {
            return Err(RpcError::method_not_found(&request.method));
        }
        if faulty && self.fault == Fault::SameUndeclaredError {
            return Err(RpcError::declared(SAME_ERROR, "database unavailable", None));
        }
        let params = request.params.clone().unwrap_or_else(|| match declared.param_structure {
            Some(ParamStructure::ByPosition) => Value::Array(Vec::new()),
            _ => Value::Object(Default::default()),
        });
        let first_declared = declared.errors.iter().flatten().next();
        if self.fault == Fault::AckAlwaysRefused
            && request.method == "queue.ack"
            && let Some(e) = first_declared
        {
            return Err(RpcError::declared(
                e.code,
                &e.message,
                self.error_data(namespace, method, e.code),
            ));
        }
        if self.fault == Fault::OnlyDeclaredErrors {
            return Err(match first_declared {
                Some(e) => RpcError::declared(
                    e.code,
                    &e.message,
                    self.error_data(namespace, method, e.code),
                ),
                None => RpcError::internal("this plant answers errors only"),
            });
        }
        let target = Target::Params { namespace: namespace.to_owned(), method: method.to_owned() };
        let validator = self.contract.validator(&target).expect("params validator");
        let valid = validator.is_valid(&params);
        if valid
            && self.fault == Fault::DeclaredErrorsOnValidCalls
            && let Some(e) = first_declared
        {
            return Err(RpcError::declared(
                e.code,
                &e.message,
                self.error_data(namespace, method, e.code),
            ));
        }
        let example = declared.examples.iter().flatten().any(|e| e.params == params);
        if valid
            && !example
            && self.fault == Fault::WrongErrorMessage
            && request.method == ERRING_METHOD.0
        {
            let code = ERRING_METHOD.1;
            return Err(RpcError::declared(
                code,
                WRONG_MESSAGE,
                self.error_data(namespace, method, code),
            ));
        }
        if let Err(errors) = validator.validate(&params)
            && !(faulty && self.fault == Fault::AcceptsInvalidParams)
        {
            return Err(if self.fault == Fault::WrongErrorCode {
                RpcError::internal("the params could not be used")
            } else {
                RpcError::invalid_params(&errors)
            });
        }
        if self.fault == Fault::DeclaredErrorDataInvalid && request.method == ERRING_METHOD.0 {
            let code = ERRING_METHOD.1;
            let decl = declared.errors.iter().flatten().find(|e| e.code == code).expect("declared");
            let target = Target::ErrorData {
                namespace: namespace.to_owned(),
                method: method.to_owned(),
                code,
            };
            let data =
                self.mutant(&target, &self.generate(&target, 1), |r| r == ValidationRule::Type);
            return Err(RpcError::declared(code, &decl.message, Some(data)));
        }
        let result_target =
            Target::Result { namespace: namespace.to_owned(), method: method.to_owned() };
        let example = declared
            .examples
            .iter()
            .flatten()
            .find(|e| e.params == params)
            .and_then(|e| e.result.clone());
        let result = example.unwrap_or_else(|| self.generate(&result_target, seed_of(&params)));
        Ok(match (faulty, self.fault) {
            (true, Fault::NullResult) => Value::Null,
            (true, Fault::WrongResultType) => {
                self.mutant(&result_target, &result, |r| r == ValidationRule::Type)
            }
            (true, Fault::ResultOutOfBounds) => self.mutant(&result_target, &result, |r| {
                matches!(
                    r,
                    ValidationRule::Maximum
                        | ValidationRule::Minimum
                        | ValidationRule::ExclusiveMaximum
                        | ValidationRule::ExclusiveMinimum
                )
            }),
            _ => result,
        })
    }

    /// Valid `data` for the declared error `code` of a method, when it has a data type.
    fn error_data(&self, namespace: &str, method: &str, code: i64) -> Option<Value> {
        let declared =
            self.doc.namespaces.as_ref()?.get(namespace)?.methods.as_ref()?.get(method)?;
        declared.errors.iter().flatten().find(|e| e.code == code)?.data.as_ref()?;
        let target =
            Target::ErrorData { namespace: namespace.to_owned(), method: method.to_owned(), code };
        Some(self.generate(&target, 1))
    }

    fn event_target(&self, name: &str) -> Option<Target> {
        let (ns, e) = name.split_once('.')?;
        self.doc.namespaces.as_ref()?.get(ns)?.events.as_ref()?.get(e)?;
        Some(Target::Event { namespace: ns.to_owned(), event: e.to_owned() })
    }

    fn generate(&self, target: &Target, seed: u64) -> Value {
        self.contract.validator(target).expect("validator").generate(seed).expect("a value")
    }

    /// The first mutant of `valid` breaking a rule `pick` accepts.
    fn mutant(
        &self,
        target: &Target,
        valid: &Value,
        pick: impl Fn(ValidationRule) -> bool,
    ) -> Value {
        let validator = self.contract.validator(target).expect("validator");
        validator
            .mutants(valid, 1)
            .into_iter()
            .find(|m| pick(m.rule))
            .expect("a mutant of that kind")
            .value
    }
}

fn seed_of(params: &Value) -> u64 {
    params.to_string().bytes().fold(7u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)))
}
