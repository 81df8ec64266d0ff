//! The one judge of an exchange: given what was sent (as text), how, and what came back, the
//! problems with the answer by docs/wire.md and the contract. The phases only choose what to
//! send; replay re-sends a transcript and asks the same judge, so a replayed failure is judged
//! exactly as it was found.

use accord_schema_model::{Dialect, Document, Method, ParamStructure};
use accord_validate::{Contract, Target};
use accord_wire::describe::{self, DescribeAnswer};
use accord_wire::envelope::Rejected;
use accord_wire::event::{SUBSCRIBE, UNSUBSCRIBE};
use accord_wire::{Call, Id, Request, Response, codes};
use serde_json::Value;

use crate::client::Reply;
use crate::failure::{FailureKind, Problem};
use crate::protocol::{Protocol, codes_text};
use crate::transcript::{Credential, Transport};

/// What the judge knows: the contract, whether the plant runs with a credential, and the
/// plant's protocol (its describe method and the codes of a missing method and invalid params).
pub(crate) struct Judge<'d> {
    pub(crate) doc: &'d Document,
    pub(crate) contract: Contract,
    pub(crate) has_token: bool,
    pub(crate) protocol: Protocol,
    /// The contract's wire: which contract method a wire name calls, and how events are
    /// subscribed.
    pub(crate) dialect: Dialect,
}

/// What one request must get.
enum Expect {
    /// A notification: nothing.
    Nothing,
    /// A refusal of the envelope with this code and id.
    Refusal { code: i64, id: Id, what: &'static str },
    /// A response to this request.
    Answer(Request),
    /// A body nested deeper than JSON parsers read (and than the wire's default depth limit):
    /// refused as the limit (`-32003`) or as invalid params; the id may be `null`, since such a
    /// body need not be read to refuse it.
    TooDeep,
}

/// The nesting past which a body is [`Expect::TooDeep`]: the wire's default depth limit, which
/// is also serde_json's recursion limit (a body past it cannot be read here either).
const DEPTH_LIMIT: usize = 128;

impl Judge<'_> {
    /// Every problem with `reply` as the answer to `sent`.
    pub(crate) fn exchange(
        &self,
        transport: Transport,
        credential: Credential,
        sent: &str,
        reply: &Reply,
    ) -> Vec<Problem> {
        // On a wire without credential codes a call without a credential is refused as a wrong
        // one is, at the HTTP level (docs/wire.md §11.2): there is no code to answer it with.
        let refused_outright = credential == Credential::Wrong
            || (credential == Credential::None
                && self.has_token
                && self.dialect.codes.credential_required.is_none());
        if refused_outright && transport == Transport::Http {
            return self.wrong_credential(reply);
        }
        let expects = match serde_json::from_str::<Value>(sent) {
            Err(_) if accord_wire::limits::nests_deeper_than(sent.as_bytes(), DEPTH_LIMIT) => {
                vec![Expect::TooDeep]
            }
            Err(_) => vec![Expect::Refusal {
                code: codes::PARSE_ERROR,
                id: Id::Null,
                what: "a body that is not JSON",
            }],
            Ok(Value::Array(items)) if items.is_empty() => vec![Expect::Refusal {
                code: codes::INVALID_REQUEST,
                id: Id::Null,
                what: "an empty batch",
            }],
            Ok(Value::Array(items)) => {
                let expects: Vec<Expect> = items.into_iter().map(expect).collect();
                return self.batch(transport, credential, &expects, reply);
            }
            Ok(single) => vec![expect(single)],
        };
        let expect = &expects[0];
        if let Expect::Nothing = expect {
            return self.nothing(transport, reply);
        }
        let Some(response) = read_single(reply) else {
            return read_problems(reply);
        };
        let mut problems = self.status_problems(transport, reply);
        problems.extend(self.answer(transport, credential, expect, &response));
        problems
    }

    fn wrong_credential(&self, reply: &Reply) -> Vec<Problem> {
        // The wire's refusal code; a wire without one refuses with invalid request.
        let refused = self.dialect.codes.credential_refused.unwrap_or(codes::INVALID_REQUEST);
        if reply.status == Some(200) {
            // Downgraded: answered as a caller without a credential is (the reduced describe,
            // or -32001 for a method).
            let reduced = match read_single(reply) {
                Some(Response::Success { result, .. }) => {
                    DescribeAnswer::from_value(&result).is_ok_and(|a| a.reduced)
                }
                Some(Response::Failure { error, .. }) => {
                    Some(error.code) == self.dialect.codes.credential_required
                }
                None => false,
            };
            let lead = format!("a wrong credential must be refused with HTTP 401 and {refused}");
            return vec![if reduced {
                Problem::new(
                    FailureKind::WrongCredentialDowngraded,
                    format!(
                        "{lead}, but it was answered as a caller without a credential is (the reduced describe answer or -32001)"
                    ),
                )
            } else {
                Problem::new(
                    FailureKind::WrongCredentialAccepted,
                    format!("{lead}, but it was answered with HTTP 200"),
                )
            }];
        }
        let mut problems = Vec::new();
        if reply.status != Some(401) {
            problems.push(Problem::new(
                FailureKind::RefusalShape,
                format!("a wrong credential must get HTTP 401, got {}", status_text(reply)),
            ));
        }
        if !reply.challenge {
            problems.push(Problem::new(
                FailureKind::RefusalShape,
                "the refusal lacks the `WWW-Authenticate: Bearer` header",
            ));
        }
        match read_single(reply) {
            Some(Response::Failure { id: Id::Null, error }) if error.code == refused => {}
            Some(Response::Failure { error, .. }) if error.code == refused => {
                problems.push(Problem::new(
                    FailureKind::RefusalShape,
                    format!("the {refused} refusal must have `id` null"),
                ))
            }
            Some(other) => problems.push(Problem::new(
                FailureKind::RefusalShape,
                format!("the refusal's body must be error {refused}, got {}", summary(&other)),
            )),
            None => problems.extend(read_problems(reply)),
        }
        problems
    }

    fn batch(
        &self,
        transport: Transport,
        credential: Credential,
        expects: &[Expect],
        reply: &Reply,
    ) -> Vec<Problem> {
        let answered: Vec<&Expect> =
            expects.iter().filter(|e| !matches!(e, Expect::Nothing)).collect();
        if answered.is_empty() {
            return self.nothing(transport, reply);
        }
        let Some(body) = reply.body.as_deref() else {
            return vec![Problem::new(
                FailureKind::NoAnswer,
                "a batch with requests got no answer",
            )];
        };
        let Ok(Value::Array(items)) = serde_json::from_str::<Value>(body) else {
            return vec![Problem::new(
                FailureKind::Envelope,
                "a batch must be answered with an array of responses",
            )];
        };
        let mut problems = self.status_problems(transport, reply);
        let mut responses = Vec::new();
        for (i, item) in items.iter().enumerate() {
            match Response::from_value(item, &format!("/{i}")) {
                Ok(r) => responses.push(r),
                Err(e) => {
                    problems.push(Problem::new(FailureKind::MalformedResponse, e.to_string()))
                }
            }
        }
        if responses.len() != answered.len() {
            problems.push(Problem::new(
                FailureKind::Envelope,
                format!(
                    "the batch has {} member(s) to answer (notifications get nothing), the answer has {}",
                    answered.len(),
                    items.len()
                ),
            ));
        }
        for expect in answered {
            let id = match expect {
                Expect::Refusal { id, .. } => id,
                Expect::Answer(request) => request.id.as_ref().unwrap_or(&Id::Null),
                // A batch is read whole, so no member of one is too deep on its own.
                Expect::Nothing | Expect::TooDeep => continue,
            };
            match responses.iter().position(|r| r.id() == id) {
                Some(at) => {
                    let response = responses.remove(at);
                    problems.extend(self.answer(transport, credential, expect, &response));
                }
                None => problems.push(Problem::new(
                    FailureKind::Envelope,
                    format!("no response in the batch answers id {}", id.to_value()),
                )),
            }
        }
        problems
    }

    fn answer(
        &self,
        transport: Transport,
        credential: Credential,
        expect: &Expect,
        response: &Response,
    ) -> Vec<Problem> {
        match expect {
            Expect::Nothing => Vec::new(),
            Expect::TooDeep => match response {
                Response::Failure { error, .. }
                    if error.code == self.protocol.limit
                        || self.protocol.invalid_params(error.code) =>
                {
                    Vec::new()
                }
                other => vec![Problem::new(
                    FailureKind::Envelope,
                    format!(
                        "a body nested past {DEPTH_LIMIT} levels must be refused with {} (the depth limit) or {}, got {}",
                        self.protocol.limit,
                        self.protocol.invalid_params_text(),
                        summary(other)
                    ),
                )],
            },
            Expect::Refusal { code, id, what } => {
                // A body that is JSON but not a request object (`42`): JSON-RPC 2.0 says
                // -32600; jsonrpsee answers it as unreadable (-32700), which a foreign wire
                // may do (docs/conform.md, "Foreign wires").
                let codes = if !self.protocol.accord && *what == NOT_AN_OBJECT {
                    vec![*code, codes::PARSE_ERROR]
                } else if *what == UNSTRUCTURED_PARAMS {
                    self.protocol.unstructured_params(self.params_probe_exists())
                } else {
                    vec![*code]
                };
                let mut problems = refusal(response, &codes, FailureKind::Envelope, what);
                if response.id() != id {
                    problems.push(wrong_id(id, response.id()));
                }
                problems
            }
            Expect::Answer(request) => {
                let id = request.id.as_ref().unwrap_or(&Id::Null);
                let mut problems = Vec::new();
                if response.id() != id {
                    problems.push(wrong_id(id, response.id()));
                }
                problems.extend(self.request(transport, credential, request, response));
                problems
            }
        }
    }

    fn request(
        &self,
        transport: Transport,
        credential: Credential,
        request: &Request,
        response: &Response,
    ) -> Vec<Problem> {
        let reduced = credential == Credential::None && self.has_token;
        if self.protocol.describe.as_deref() == Some(request.method.as_str()) {
            return self.describe(reduced, response);
        }
        if !reduced && let Some(route) = self.dialect.method(&request.method) {
            // A contract method by its wire name (on accord's wire, `namespace.method`).
            return match crate::contract_method(self.doc, &route.qualified()) {
                Some(declared) => self.call(
                    &route.namespace,
                    &route.method,
                    declared,
                    request.params.as_ref(),
                    response,
                ),
                None => Vec::new(),
            };
        }
        if !reduced
            && (self.dialect.is_pubsub_subscribe(&request.method)
                || self.dialect.is_pubsub_unsubscribe(&request.method))
        {
            return self.pubsub(transport, request, response);
        }
        match request.call() {
            _ if reduced => refusal(
                response,
                &[codes::CREDENTIAL_REQUIRED],
                FailureKind::CredentialNotRequired,
                "a call without a credential (only rpc.describe is open)",
            ),
            Call::Protocol(_) if request.method == SUBSCRIBE || request.method == UNSUBSCRIBE => {
                self.subscription(transport, request, response)
            }
            // rpc.fake is accord serve's steering; a real plant answers -32601. Either is fine.
            Call::Protocol("fake") => Vec::new(),
            Call::Protocol(_) | Call::Unqualified(_) => refusal(
                response,
                &self.protocol.method_not_found,
                FailureKind::Envelope,
                "a method that does not exist",
            ),
            // Not a wire name of the contract (those were answered above).
            Call::Contract { .. } => refusal(
                response,
                &self.protocol.method_not_found,
                FailureKind::Envelope,
                "a method the contract does not have",
            ),
        }
    }

    /// A pubsub subscribe or unsubscribe call (docs/wire.md §11.3), over a WebSocket: the
    /// subscribe call answers a subscription id (geth's hex string, jsonrpsee's string or
    /// integer), the unsubscribe call `true` or `false`.
    fn pubsub(&self, transport: Transport, request: &Request, response: &Response) -> Vec<Problem> {
        if transport == Transport::Http {
            // Subscriptions need a WebSocket on every wire; a foreign wire names no code for
            // the refusal over HTTP, so any error is one.
            return match response {
                Response::Failure { .. } => Vec::new(),
                Response::Success { .. } => vec![Problem::new(
                    FailureKind::Envelope,
                    format!("{} over HTTP must be refused, and it was answered", request.method),
                )],
            };
        }
        if self.dialect.is_pubsub_subscribe(&request.method) {
            return match response {
                Response::Success { result: Value::String(_) | Value::Number(_), .. } => Vec::new(),
                other => vec![Problem::new(
                    FailureKind::Subscription,
                    format!(
                        "{} must answer a subscription id (a string or an integer), got {}",
                        request.method,
                        summary(other)
                    ),
                )],
            };
        }
        match response {
            Response::Success { result: Value::Bool(_), .. } => Vec::new(),
            other => vec![Problem::new(
                FailureKind::Subscription,
                format!("{} must answer true or false, got {}", request.method, summary(other)),
            )],
        }
    }

    /// Whether the params probe goes to a method the plant has (the describe method or one of
    /// the contract's), rather than to a name made up for want of one.
    pub(crate) fn params_probe_exists(&self) -> bool {
        let target = self.protocol.params_probe.as_str();
        self.protocol.describe.as_deref() == Some(target) || self.dialect.method(target).is_some()
    }

    /// Whether `params` (absent: an empty object or array) are valid for the method.
    pub(crate) fn params_valid(
        &self,
        namespace: &str,
        method: &str,
        declared: &Method,
        params: Option<&Value>,
    ) -> bool {
        let target = Target::Params { namespace: namespace.to_owned(), method: method.to_owned() };
        let Ok(validator) = self.contract.validator(&target) else { return false };
        match params {
            Some(p) => validator.is_valid(p),
            None => {
                let by_name = declared.param_structure != Some(ParamStructure::ByPosition);
                let by_position = declared.param_structure != Some(ParamStructure::ByName);
                (by_name && validator.is_valid(&Value::Object(Default::default())))
                    || (by_position && validator.is_valid(&Value::Array(Vec::new())))
            }
        }
    }

    /// Invalid `params` that are valid once what a plant may take in its stride is made
    /// explicit, as the call the plant answers: positional params past the ones the method
    /// declares taken away (format.md §10.7 refuses them; JSON-RPC servers such as jsonrpsee
    /// read the params they know and ignore the rest), or required params whose type admits
    /// `null` left out of an object filled in with `null` (serde, under jsonrpsee's by-name
    /// params, reads a missing `Option` as `None`, the `null` the contract admits). Nothing the
    /// call means changes. `None` when the params are invalid for another reason too (a wrong
    /// type, a missing param that cannot be null, a value out of bounds): those must be refused.
    pub(crate) fn tolerated(
        &self,
        namespace: &str,
        method: &str,
        declared: &Method,
        params: Option<&Value>,
    ) -> Option<(Value, Tolerance)> {
        if let Some(Value::Object(given)) = params {
            return self.missing_nullable(namespace, method, declared, given);
        }
        let Some(Value::Array(items)) = params else { return None };
        if declared.param_structure == Some(ParamStructure::ByName) {
            return None;
        }
        let count = declared.params.as_ref().map_or(0, Vec::len);
        if items.len() <= count {
            return None;
        }
        // The extras, and the nulls that pad the optional params before them (a positional
        // reader takes a null there as the param left out).
        let mut kept = items[..count].to_vec();
        loop {
            let trimmed = Value::Array(kept.clone());
            if self.params_valid(namespace, method, declared, Some(&trimmed)) {
                return Some((trimmed, Tolerance::ExtraPositional));
            }
            if kept.last() != Some(&Value::Null) {
                return None;
            }
            kept.pop();
        }
    }

    /// Params by name whose only fault is required params left out that may be `null`: the
    /// params with each filled in with `null`.
    fn missing_nullable(
        &self,
        namespace: &str,
        method: &str,
        declared: &Method,
        given: &serde_json::Map<String, Value>,
    ) -> Option<(Value, Tolerance)> {
        if declared.param_structure == Some(ParamStructure::ByPosition) {
            return None;
        }
        let mut filled = given.clone();
        for p in declared.params.iter().flatten() {
            if !p.field.is_optional() && !given.contains_key(&p.name) {
                filled.insert(p.name.clone(), Value::Null);
            }
        }
        if filled.len() == given.len() {
            return None;
        }
        let filled = Value::Object(filled);
        self.params_valid(namespace, method, declared, Some(&filled))
            .then_some((filled, Tolerance::MissingNullable))
    }

    fn call(
        &self,
        namespace: &str,
        method: &str,
        declared: &Method,
        params: Option<&Value>,
        response: &Response,
    ) -> Vec<Problem> {
        // A method the plant says it does not have is missing whatever its params were (an
        // invalid example or a mutant may be the first call to meet it): one cause, folded into
        // one failure per method by the run.
        if let Response::Failure { error, .. } = response
            && self.protocol.method_missing(error.code)
            && !declared.errors.iter().flatten().any(|e| e.code == error.code)
        {
            return vec![Problem::new(
                FailureKind::MethodMissing,
                format!(
                    "the contract's method is not served: error {} ({})",
                    error.code, error.message
                ),
            )];
        }
        if !self.params_valid(namespace, method, declared, params) {
            if let Some((trimmed, _)) = self.tolerated(namespace, method, declared, params) {
                // Params the plant may ignore (docs/conform.md, "Tolerance"): refusing them
                // is right, and so is answering the call the rest of the params make.
                let declared_code =
                    |code: i64| declared.errors.iter().flatten().any(|e| e.code == code);
                match response {
                    Response::Failure { error, .. } if self.protocol.invalid_params(error.code) => {
                        return Vec::new();
                    }
                    Response::Success { .. } => {
                        return self.call(namespace, method, declared, Some(&trimmed), response);
                    }
                    Response::Failure { error, .. } if declared_code(error.code) => {
                        return self.call(namespace, method, declared, Some(&trimmed), response);
                    }
                    // Any other error: refused, and judged as invalid params are below.
                    Response::Failure { .. } => {}
                }
            }
            return match response {
                Response::Success { .. } => vec![Problem::new(
                    FailureKind::AcceptedInvalidParams,
                    format!(
                        "invalid params were answered with a result instead of error {}",
                        self.protocol.invalid_params_text()
                    ),
                )],
                Response::Failure { error, .. } if self.protocol.invalid_params(error.code) => {
                    Vec::new()
                }
                Response::Failure { error, .. } => vec![Problem::new(
                    FailureKind::WrongErrorCode,
                    format!(
                        "invalid params were refused with {} ({}) instead of {}",
                        error.code,
                        error.message,
                        self.protocol.invalid_params_text()
                    ),
                )],
            };
        }
        match response {
            Response::Success { result, .. } => {
                let target =
                    Target::Result { namespace: namespace.to_owned(), method: method.to_owned() };
                validation_problems(
                    &self.contract,
                    &target,
                    result,
                    FailureKind::ResultInvalid,
                    "the result",
                )
            }
            Response::Failure { error, .. } => {
                if let Some(decl) = declared.errors.iter().flatten().find(|e| e.code == error.code)
                {
                    // The code alone is not the error: a plant that answers a declared code
                    // with any text would pass as keeping the contract.
                    let mut problems = Vec::new();
                    if error.message != decl.message {
                        problems.push(Problem::new(
                            FailureKind::WrongErrorMessage,
                            format!(
                                "declared error {} must have the contract's message {:?}, got {:?}",
                                error.code, decl.message, error.message
                            ),
                        ));
                    }
                    match (&error.data, &decl.data) {
                        (None, Some(_)) => problems.push(Problem::new(
                            FailureKind::ErrorDataInvalid,
                            format!(
                                "declared error {} has a data type, but the answer has no `data`",
                                error.code
                            ),
                        )),
                        (Some(data), Some(_)) => {
                            let target = Target::ErrorData {
                                namespace: namespace.to_owned(),
                                method: method.to_owned(),
                                code: error.code,
                            };
                            problems.extend(validation_problems(
                                &self.contract,
                                &target,
                                data,
                                FailureKind::ErrorDataInvalid,
                                &format!("the data of error {}", error.code),
                            ));
                        }
                        (_, None) => {}
                    }
                    return problems;
                }
                let (kind, what) = match error.code {
                    code if self.protocol.method_missing(code) => {
                        (FailureKind::MethodMissing, "the contract's method is not served")
                    }
                    code if self.protocol.invalid_params(code) => {
                        (FailureKind::ValidParamsRefused, "valid params were refused")
                    }
                    codes::CREDENTIAL_REQUIRED | codes::CREDENTIAL_REFUSED if self.has_token => {
                        (FailureKind::RightCredentialRefused, "the credential was refused")
                    }
                    codes::CREDENTIAL_REQUIRED | codes::CREDENTIAL_REFUSED => (
                        FailureKind::CredentialMissing,
                        "the plant wants a credential and none was given (--token-file)",
                    ),
                    _ => (
                        FailureKind::UndeclaredError,
                        "valid params got an error the method does not declare",
                    ),
                };
                vec![Problem::new(
                    kind,
                    format!("{what}: error {} ({})", error.code, error.message),
                )]
            }
        }
    }

    fn describe(&self, reduced: bool, response: &Response) -> Vec<Problem> {
        let result = match response {
            Response::Success { result, .. } => result,
            Response::Failure { error, .. } => {
                let kind =
                    if matches!(error.code, codes::CREDENTIAL_REQUIRED | codes::CREDENTIAL_REFUSED)
                    {
                        FailureKind::credential_refused(self.has_token)
                    } else {
                        FailureKind::DescribeInvalid
                    };
                let lead = if reduced {
                    "rpc.describe is open without a credential"
                } else {
                    "rpc.describe must answer"
                };
                return vec![Problem::new(
                    kind,
                    format!("{lead}, got error {} ({})", error.code, error.message),
                )];
            }
        };
        let answer = match DescribeAnswer::from_value(result) {
            Ok(answer) => answer,
            Err(e) => {
                return vec![Problem::new(
                    FailureKind::DescribeInvalid,
                    format!("not a describe answer: {e}"),
                )];
            }
        };
        let mut problems = Vec::new();
        match (reduced, answer.reduced) {
            (true, false) => problems.push(Problem::new(
                FailureKind::CredentialNotRequired,
                "without a credential rpc.describe must give the reduced answer, and it gave the full one",
            )),
            (false, true) if self.has_token => problems.push(Problem::new(
                FailureKind::RightCredentialRefused,
                "with the right credential rpc.describe gave the reduced answer",
            )),
            (false, true) => problems.push(Problem::new(
                FailureKind::CredentialMissing,
                "the plant gave the reduced describe answer, so it wants a credential: pass one (--token-file)",
            )),
            _ => {}
        }
        if answer.reduced {
            if answer.contract.is_some() {
                problems.push(Problem::new(
                    FailureKind::CredentialNotRequired,
                    "the reduced answer carries the contract",
                ));
            }
            if answer.update.is_none() {
                problems.push(Problem::new(
                    FailureKind::DescribeInvalid,
                    "the reduced answer has no `update` hint",
                ));
            }
        } else {
            match &answer.contract {
                None => problems.push(Problem::new(
                    FailureKind::DescribeInvalid,
                    "the full answer has no `contract`",
                )),
                Some(contract) => {
                    if let Err(e) = Document::from_value(contract.clone()) {
                        problems.push(Problem::new(
                            FailureKind::DescribeInvalid,
                            format!("the described contract cannot be read: {e}"),
                        ));
                    }
                }
            }
        }
        problems
    }

    fn subscription(
        &self,
        transport: Transport,
        request: &Request,
        response: &Response,
    ) -> Vec<Problem> {
        if transport == Transport::Http {
            return refusal(
                response,
                &[codes::NOT_ON_TRANSPORT],
                FailureKind::Envelope,
                "a subscription over HTTP",
            );
        }
        if request.method == SUBSCRIBE {
            let event =
                request.params.as_ref().and_then(|p| p.get("event")).and_then(Value::as_str);
            let known = event.is_some_and(|e| crate::contract_event(self.doc, e).is_some());
            if !known {
                return refusal(
                    response,
                    &[codes::INVALID_PARAMS],
                    FailureKind::Subscription,
                    "a subscription to an event the contract does not have",
                );
            }
            return match response {
                Response::Success { result: Value::String(_), .. } => Vec::new(),
                other => vec![Problem::new(
                    FailureKind::Subscription,
                    format!(
                        "rpc.subscribe must answer a subscription id (a string), got {}",
                        summary(other)
                    ),
                )],
            };
        }
        match response {
            Response::Success { result: Value::Bool(_), .. } => Vec::new(),
            other => vec![Problem::new(
                FailureKind::Subscription,
                format!("rpc.unsubscribe must answer true or false, got {}", summary(other)),
            )],
        }
    }
}

fn expect(value: Value) -> Expect {
    match Request::from_value(value) {
        Err(Rejected { id, reason, .. }) => {
            Expect::Refusal { code: codes::INVALID_REQUEST, id, what: reason }
        }
        Ok(request) if request.id.is_none() => Expect::Nothing,
        Ok(request) => Expect::Answer(request),
    }
}

/// The problems of `value` against `target`'s type, one per validation error.
pub(crate) fn validation_problems(
    contract: &Contract,
    target: &Target,
    value: &Value,
    kind: FailureKind,
    what: &str,
) -> Vec<Problem> {
    let validator = match contract.validator(target) {
        Ok(v) => v,
        Err(e) => return vec![Problem::new(kind, e.to_string())],
    };
    match validator.validate(value) {
        Ok(()) => Vec::new(),
        Err(errors) => errors
            .iter()
            .map(|e| Problem::new(kind, format!("{what} does not validate: {e}")))
            .collect(),
    }
}

/// accord-wire's reason for params that are neither an object nor an array.
const UNSTRUCTURED_PARAMS: &str = "`params` must be an object or an array";

/// accord-wire's reason for a body that is not a JSON object.
const NOT_AN_OBJECT: &str = "a request must be a JSON object";

impl Judge<'_> {
    /// The problems of an answer to notifications only. accord's HTTP binding (docs/wire.md)
    /// answers them with HTTP 204 and no body; JSON-RPC 2.0 only says no Response object, so on
    /// a foreign wire an empty body or a bare `null` (jsonrpsee's) with any 2xx status is none.
    fn nothing(&self, transport: Transport, reply: &Reply) -> Vec<Problem> {
        if self.protocol.accord {
            return nothing(transport, reply);
        }
        let mut problems = Vec::new();
        if let Some(body) = &reply.body
            && !matches!(body.trim(), "" | "null")
        {
            problems.push(Problem::new(
                FailureKind::AnsweredNotification,
                format!("notifications must get no Response object, got {} byte(s)", body.len()),
            ));
        }
        if transport == Transport::Http && !reply.status.is_some_and(|s| (200..300).contains(&s)) {
            problems.push(Problem::new(
                FailureKind::HttpStatus,
                format!("notifications only must get a 2xx status, got {}", status_text(reply)),
            ));
        }
        problems
    }

    /// The HTTP status of a JSON-RPC answer: 200 on accord's wire (docs/wire.md); a foreign
    /// wire has its own HTTP binding (jsonrpsee answers an unreadable body with 400), and only
    /// the JSON-RPC answer is judged.
    fn status_problems(&self, transport: Transport, reply: &Reply) -> Vec<Problem> {
        if self.protocol.accord { status_problems(transport, reply) } else { Vec::new() }
    }
}

fn nothing(transport: Transport, reply: &Reply) -> Vec<Problem> {
    let mut problems = Vec::new();
    if let Some(body) = &reply.body {
        problems.push(Problem::new(
            FailureKind::AnsweredNotification,
            format!("notifications must get no answer, got {} byte(s)", body.len()),
        ));
    }
    if transport == Transport::Http && reply.status != Some(204) {
        problems.push(Problem::new(
            FailureKind::HttpStatus,
            format!("notifications only must get HTTP 204, got {}", status_text(reply)),
        ));
    }
    problems
}

fn read_single(reply: &Reply) -> Option<Response> {
    let value = serde_json::from_str::<Value>(reply.body.as_deref()?).ok()?;
    Response::from_value(&value, "").ok()
}

fn read_problems(reply: &Reply) -> Vec<Problem> {
    let Some(body) = reply.body.as_deref() else {
        return vec![Problem::new(
            FailureKind::NoAnswer,
            format!("no answer ({})", status_text(reply)),
        )];
    };
    match serde_json::from_str::<Value>(body) {
        Err(e) => {
            vec![Problem::new(
                FailureKind::MalformedResponse,
                format!("the answer is not JSON: {e}"),
            )]
        }
        Ok(value) => match Response::from_value(&value, "") {
            Err(e) => {
                vec![Problem::new(
                    FailureKind::MalformedResponse,
                    format!("not a JSON-RPC response: {e}"),
                )]
            }
            Ok(_) => Vec::new(),
        },
    }
}

fn status_problems(transport: Transport, reply: &Reply) -> Vec<Problem> {
    if transport == Transport::Http && reply.status != Some(200) {
        return vec![Problem::new(
            FailureKind::HttpStatus,
            format!("a JSON-RPC response must come with HTTP 200, got {}", status_text(reply)),
        )];
    }
    Vec::new()
}

fn status_text(reply: &Reply) -> String {
    match reply.status {
        Some(s) => format!("HTTP {s}"),
        None => "no HTTP status".to_owned(),
    }
}

fn refusal(response: &Response, codes: &[i64], kind: FailureKind, what: &str) -> Vec<Problem> {
    match response {
        Response::Failure { error, .. } if codes.contains(&error.code) => Vec::new(),
        other => vec![Problem::new(
            kind,
            format!("{what} must be refused with {}, got {}", codes_text(codes), summary(other)),
        )],
    }
}

fn wrong_id(want: &Id, got: &Id) -> Problem {
    Problem::new(
        FailureKind::WrongId,
        format!("the response answers id {}, the request had {}", got.to_value(), want.to_value()),
    )
}

/// A response in a few words, for messages.
pub(crate) fn summary(response: &Response) -> String {
    match response {
        Response::Success { .. } => "a result".to_owned(),
        Response::Failure { error, .. } => format!("error {} ({})", error.code, error.message),
    }
}

/// The describe params a caller built against `doc` sends.
pub(crate) fn built_against(doc: &Document) -> Value {
    let built: describe::BuiltAgainst = doc
        .namespaces
        .iter()
        .flatten()
        .filter_map(|(name, ns)| {
            semver::Version::parse(&ns.version).ok().map(|v| (name.clone(), v))
        })
        .collect();
    describe::request_params(&built)
}

/// What a plant may take in its stride in a mutant (docs/conform.md, "Tolerance").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tolerance {
    /// Positional params past the declared ones, ignored.
    ExtraPositional,
    /// Required params that may be `null`, left out of params by name, read as `null`.
    MissingNullable,
}

impl Tolerance {
    /// What the plant did, for the transcript and the note.
    pub(crate) fn did(self) -> &'static str {
        match self {
            Tolerance::ExtraPositional => "the extra positional param(s) ignored",
            Tolerance::MissingNullable => {
                "the required param(s) left out read as null, which their type admits"
            }
        }
    }

    /// Why it passes.
    pub(crate) fn why(self) -> &'static str {
        match self {
            Tolerance::ExtraPositional => {
                "readers ignore what they do not know; only accepting what changes meaning fails"
            }
            Tolerance::MissingNullable => {
                "the call means what the same call with null means; only accepting what changes meaning fails"
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Options;

    /// `keys(prefix: string | null, count: integer)`, both required: jsonrpsee's
    /// `fn keys(&self, prefix: Option<String>, count: u32)`.
    const DOC: &str = r#"{"schema": 1, "namespaces": {"s": {"version": "1.0.0", "methods": {"keys": {
        "params": [
            {"name": "prefix", "type": {"kind": "union", "variants": [{"kind": "string"}, {"kind": "null"}]}},
            {"name": "count", "type": {"kind": "integer", "min": 0, "max": 10}}
        ],
        "result": {"kind": "null"}}}}}}"#;

    fn tolerated(doc: &Document, params: Value) -> Option<(Value, Tolerance)> {
        let dialect = Dialect::of(doc).unwrap();
        let protocol = Protocol::of(&dialect, None, None, "x".into(), &Options::default());
        let contract = Contract::compile(doc).unwrap();
        let judge = Judge { doc, contract, has_token: false, protocol, dialect };
        let declared = &doc.namespaces.as_ref().unwrap()["s"].methods.as_ref().unwrap()["keys"];
        judge.tolerated("s", "keys", declared, Some(&params))
    }

    #[test]
    fn a_nullable_param_left_out_by_name_is_read_as_null_and_nothing_else_is() {
        let doc = Document::parse(DOC).unwrap();
        let filled = serde_json::json!({"count": 1, "prefix": null});
        assert_eq!(
            tolerated(&doc, serde_json::json!({"count": 1})),
            Some((filled, Tolerance::MissingNullable))
        );
        // A required param that cannot be null, left out: refused, whatever else.
        assert_eq!(tolerated(&doc, serde_json::json!({"prefix": "a"})), None);
        assert_eq!(tolerated(&doc, serde_json::json!({})), None);
        // Another fault beside the missing nullable param: refused.
        assert_eq!(tolerated(&doc, serde_json::json!({"count": 11})), None);
        // By position the gap cannot be left: `[1]` is `prefix: 1`, a wrong type.
        assert_eq!(tolerated(&doc, serde_json::json!([1])), None);
        // Extras past the declared params, as before.
        assert_eq!(
            tolerated(&doc, serde_json::json!(["a", 1, true])),
            Some((serde_json::json!(["a", 1]), Tolerance::ExtraPositional))
        );
    }
}
