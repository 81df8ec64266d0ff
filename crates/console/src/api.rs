//! The page's API under `/console/api/`: `describe` (what the plant serves, full or reduced),
//! `validate` (params checked by accord-validate as the person types), `confirm` (a token for
//! one confirmed call) and `call` (forwarded over the contract's wire, refused without the
//! token of that exact call when it is not a read, its answer checked against the contract).

use std::sync::Arc;

use accord_client::Reply;
use accord_validate::Target;
use axum::Json;
use axum::Router;
use axum::extract::State as Extract;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Map, Value, json};

use crate::confirm::confirmation_of;
use crate::known::{Found, Known, params_target, result_target};
use crate::upstream::Upstream;
use crate::{State, transcript};

pub(crate) fn routes() -> Router<Arc<State>> {
    Router::new()
        .route("/console/api/describe", get(describe))
        .route("/console/api/validate", post(validate))
        .route("/console/api/confirm", post(confirm))
        .route("/console/api/call", post(call))
}

/// An answer of the API that is not the plant's: a status and `{"error": MESSAGE}`.
pub(crate) fn problem(status: StatusCode, message: impl Into<String>) -> Response {
    (status, Json(json!({"error": message.into()}))).into_response()
}

/// A request the console answers itself instead of forwarding it (boxed: a `Response` is
/// large, and the `Result`s that carry it are many).
pub(crate) struct Refused(Box<Response>);

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        *self.0
    }
}

/// [`problem`], as a refusal.
fn refuse(status: StatusCode, message: impl Into<String>) -> Refused {
    Refused(Box::new(problem(status, message)))
}

/// The credential to send: the page's `Authorization: Bearer` (kept in its memory only), else
/// the console's own token.
fn credential(headers: &HeaderMap, state: &State) -> Option<String> {
    let page = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
        .filter(|t| !t.is_empty());
    page.map(str::to_owned).or_else(|| state.token.clone())
}

fn upstream(state: &State) -> Result<&Upstream, Refused> {
    state
        .upstream
        .get()
        .ok_or_else(|| refuse(StatusCode::SERVICE_UNAVAILABLE, "the console has no plant yet"))
}

/// The contract, for a page whose credential got the full describe answer.
fn known(state: &State, headers: &HeaderMap) -> Result<Arc<Known>, Refused> {
    if !state.admitted(&credential(headers, state)) {
        return Err(refuse(
            StatusCode::UNAUTHORIZED,
            "the plant has not given this credential its full describe answer: describe first, with the credential",
        ));
    }
    state.known().ok_or_else(|| {
        refuse(
            StatusCode::CONFLICT,
            "the console does not know the contract yet: it needs the plant's full describe answer (supply the credential)",
        )
    })
}

/// The secret of the loaded page a request comes from: confirmations are given only to one.
fn page_of<'h>(state: &State, headers: &'h HeaderMap) -> Result<&'h str, Refused> {
    match crate::page::of(headers) {
        Some(secret) if state.pages.lock().is_ok_and(|p| p.knows(secret)) => Ok(secret),
        _ => Err(refuse(
            StatusCode::FORBIDDEN,
            "confirmations are given only to the console page: load /console and confirm there (this request carries no page session, or one the console no longer knows)",
        )),
    }
}

fn find<'k>(known: &'k Known, method: &str) -> Result<Found<'k>, Refused> {
    known.method(method).ok_or_else(|| {
        refuse(StatusCode::NOT_FOUND, format!("the contract has no method `{method}`"))
    })
}

/// `{"method": "ns.m", "params": …}` read from a request body.
fn read_call(body: &Value) -> Result<(&str, Value), Refused> {
    let method = body.get("method").and_then(Value::as_str).ok_or_else(|| {
        refuse(StatusCode::BAD_REQUEST, "`method` (a string, namespace.method) is missing")
    })?;
    let params = body.get("params").cloned().unwrap_or_else(|| Value::Object(Map::new()));
    if !params.is_object() && !params.is_array() {
        return Err(refuse(StatusCode::BAD_REQUEST, "`params` must be an object or an array"));
    }
    Ok((method, params))
}

/// GET describe: the plant's describe answer for the page's credential, with the contract the
/// console holds when the answer is the full one.
async fn describe(Extract(state): Extract<Arc<State>>, headers: HeaderMap) -> Response {
    let token = credential(&headers, &state);
    if let Some(local) = &state.local
        && local.dialect.describe.is_none()
    {
        // The wire declares no describe method; the contract is the one accord was given.
        state.admit(&token, true);
        return Json(full(&state, local, None, "contract")).into_response();
    }
    let upstream = match upstream(&state) {
        Ok(upstream) => upstream,
        Err(refused) => return refused.into_response(),
    };
    // Until the contract is known, the wire is accord's own (its describe, `rpc.describe`).
    let dialect = match (&state.local, accord_default_dialect()) {
        (Some(local), _) => local.dialect.clone(),
        (None, Some(dialect)) => dialect,
        (None, None) => {
            return problem(StatusCode::INTERNAL_SERVER_ERROR, "accord's own wire did not resolve");
        }
    };
    let presented = token.is_some();
    state.admit(&token, false);
    let answer = match upstream.client(dialect, token.as_deref()) {
        Ok(client) => client.describe(None).await,
        Err(err) => return problem(StatusCode::BAD_GATEWAY, err.to_string()),
    };
    let result = match answer {
        Ok(Reply::Result(result)) => result,
        // A describe answered with an error: only the credential codes say something the page
        // can act on.
        Ok(Reply::Error(error)) => {
            return Json(match error.code {
                -32001 => credential_state(false),
                -32002 => credential_state(true),
                _ => json!({"state": "error", "error": error.to_value()}),
            })
            .into_response();
        }
        Err(accord_client::Error::Answer { status: Some(401), .. }) => {
            return Json(credential_state(presented)).into_response();
        }
        Err(err) => return problem(StatusCode::BAD_GATEWAY, err.to_string()),
    };
    if result.get("reduced").and_then(Value::as_bool) == Some(true) {
        return Json(json!({
            "state": "reduced",
            "answer": result,
            "fake": state.fake,
        }))
        .into_response();
    }
    let mut head = result.clone();
    let contract = head.as_object_mut().and_then(|o| o.remove("contract"));
    if let Some(local) = &state.local {
        state.admit(&token, true);
        return Json(full(&state, local, Some(head), "contract")).into_response();
    }
    let Some(contract) = contract else {
        return problem(
            StatusCode::BAD_GATEWAY,
            "the plant's full describe answer has no contract",
        );
    };
    let learnt = match accord_schema_model::Document::from_value(contract)
        .map_err(crate::Error::from)
        .and_then(Known::new)
    {
        Ok(known) => Arc::new(known),
        Err(err) => {
            return problem(
                StatusCode::BAD_GATEWAY,
                format!("the plant's contract cannot be used: {err}"),
            );
        }
    };
    if let Ok(mut slot) = state.learnt.write() {
        *slot = Some(learnt.clone());
    }
    state.admit(&token, true);
    Json(full(&state, &learnt, Some(head), "plant")).into_response()
}

/// The page's view of a credential refused or required.
fn credential_state(presented: bool) -> Value {
    if presented {
        json!({"state": "refused", "message": "the plant refused the credential: it is wrong, or was rotated"})
    } else {
        json!({"state": "required", "message": "the plant needs a credential to answer anything"})
    }
}

/// The full view: the contract, and what pressing each method asks first.
fn full(state: &State, known: &Known, head: Option<Value>, source: &str) -> Value {
    let mut confirmations = Map::new();
    for (ns, namespace) in known.doc.namespaces.iter().flatten() {
        for (name, method) in namespace.methods.iter().flatten() {
            let qualified = format!("{ns}.{name}");
            let semantics = method.semantics.as_ref();
            let confirmation = confirmation_of(semantics).describe(&qualified, semantics);
            confirmations.insert(qualified, confirmation);
        }
    }
    json!({
        "state": "full",
        "source": source,
        "answer": head,
        "contract": known.value,
        "confirmations": confirmations,
        "fake": state.fake,
    })
}

/// POST validate: `{"method", "params"}` checked against the method's params.
async fn validate(
    Extract(state): Extract<Arc<State>>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Result<Response, Refused> {
    let known = known(&state, &headers)?;
    let (method, params) = read_call(&body)?;
    let found = find(&known, method)?;
    let errors = known.check(&params_target(&found), &params);
    Ok(Json(json!({"valid": errors.is_empty(), "errors": errors})).into_response())
}

/// POST confirm: a token for one call, after the page's dialog; a destructive method's name
/// must come back typed (`typed`).
async fn confirm(
    Extract(state): Extract<Arc<State>>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Result<Response, Refused> {
    let known = known(&state, &headers)?;
    let (method, params) = read_call(&body)?;
    let found = find(&known, method)?;
    let semantics = found.method.semantics.as_ref();
    let confirmation = confirmation_of(semantics);
    if confirmation == crate::Confirmation::TypeName
        && body.get("typed").and_then(Value::as_str) != Some(method)
    {
        return Err(refuse(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!("{method} is destructive: its name must be typed back to confirm"),
        ));
    }
    let page = page_of(&state, &headers)?;
    let token = state.pending.lock().ok().and_then(|mut p| p.issue(page, method, params));
    let token = token.ok_or_else(|| {
        refuse(StatusCode::INTERNAL_SERVER_ERROR, "no randomness to make a token with")
    })?;
    Ok(Json(json!({"confirmation": token, "kind": confirmation.as_str()})).into_response())
}

/// POST call: forwarded over the contract's wire with the page's credential; a call that is
/// not a read needs the token `confirm` gave for exactly this call.
async fn call(
    Extract(state): Extract<Arc<State>>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Result<Response, Refused> {
    let known = known(&state, &headers)?;
    let (method, params) = read_call(&body)?;
    let found = find(&known, method)?;
    let semantics = found.method.semantics.as_ref();
    let confirmation = confirmation_of(semantics);
    if confirmation != crate::Confirmation::None {
        let token = body.get("confirmation").and_then(Value::as_str);
        let page = crate::page::of(&headers);
        let redeemed = match state.pending.lock() {
            Ok(mut pending) => pending.redeem(token, page, method, &params),
            Err(_) => Err(crate::confirm::Refusal::Unknown),
        };
        if let Err(refusal) = redeemed {
            return Err(Refused(Box::new(
                (
                    StatusCode::PRECONDITION_REQUIRED,
                    Json(json!({
                        "error": format!("refused: {}", refusal.reason()),
                        "confirmation": confirmation.describe(method, semantics),
                    })),
                )
                    .into_response(),
            )));
        }
    }
    let upstream = upstream(&state)?;
    let token = credential(&headers, &state);
    let client = upstream
        .client(known.dialect.clone(), token.as_deref())
        .map_err(|err| refuse(StatusCode::BAD_GATEWAY, err.to_string()))?;
    // accord-client numbers a new client's requests from 1 and hands back values, not bytes:
    // the transcript is written from what was sent and what came back, as conform writes it.
    let request = json!({"jsonrpc": "2.0", "id": 1, "method": found.wire_name, "params": params});
    let response = match client.call(method, Some(params)).await {
        Ok(Reply::Result(result)) => json!({"jsonrpc": "2.0", "id": 1, "result": result}),
        Ok(Reply::Error(error)) => json!({"jsonrpc": "2.0", "id": 1, "error": error.to_value()}),
        Err(accord_client::Error::Answer { reason, status, body }) => {
            let request = request.to_string();
            let transcript = transcript::http_exchange(&request, status.unwrap_or(0), &body);
            let check = json!({"valid": false, "against": "JSON-RPC 2.0", "errors": [
                {"path": "", "rule": "response", "expected": "a JSON-RPC response", "found": reason}]});
            return Ok(Json(json!({
                "status": status,
                "request": request,
                "answer": body,
                "response": null,
                "check": check,
                "transcript": transcript,
            }))
            .into_response());
        }
        Err(err) => return Err(refuse(StatusCode::BAD_GATEWAY, err.to_string())),
    };
    let (request, answer) = (request.to_string(), response.to_string());
    let transcript = transcript::http_exchange(&request, 200, &answer);
    let check = judge(&known, &found, &response);
    Ok(Json(json!({
        "status": 200,
        "request": request,
        "answer": answer,
        "response": response,
        "check": check,
        "transcript": transcript,
    }))
    .into_response())
}

/// accord's own dialect: the wire of a plant whose contract is not known yet (a document
/// without a `wire` section resolves to it).
fn accord_default_dialect() -> Option<accord_schema_model::Dialect> {
    let empty = accord_schema_model::Document::from_value(json!({"schema": 1})).ok()?;
    accord_schema_model::Dialect::of(&empty).ok()
}

/// Whether the plant's answer keeps the contract: a result valid against the result type, an
/// error declared by the method with valid `data`, or a protocol error of the wire.
fn judge(known: &Known, found: &Found<'_>, answer: &Value) -> Value {
    if let Some(result) = answer.get("result") {
        let errors = known.check(&result_target(found), result);
        return json!({"valid": errors.is_empty(), "against": "the method's result type", "errors": errors});
    }
    let Some(error) = answer.get("error") else {
        return json!({"valid": false, "against": "JSON-RPC 2.0", "errors": [{"path": "", "rule": "response", "expected": "a result or an error", "found": "neither"}]});
    };
    let Some(code) = error.get("code").and_then(Value::as_i64) else {
        return json!({"valid": false, "against": "JSON-RPC 2.0", "errors": [{"path": "/error/code", "rule": "response", "expected": "an integer code", "found": error.get("code").map_or("nothing".to_owned(), Value::to_string)}]});
    };
    let declared = found.method.errors.iter().flatten().find(|e| e.code == code);
    if let Some(declared) = declared {
        let errors = match (&declared.data, error.get("data")) {
            (Some(_), Some(data)) => {
                let target = Target::ErrorData {
                    namespace: found.namespace.to_owned(),
                    method: found.name.to_owned(),
                    code,
                };
                known.check(&target, data)
            }
            _ => Vec::new(),
        };
        let against = format!("the declared error {code} ({})", declared.message);
        return json!({"valid": errors.is_empty(), "against": against, "errors": errors});
    }
    if let Some(meaning) = known.dialect.codes.meaning(code) {
        return json!({"valid": true, "against": format!("the wire's protocol error {code} ({meaning})"), "errors": []});
    }
    json!({"valid": false, "against": "the method's declared errors", "errors": [{"path": "/error/code", "rule": "declared-error", "expected": "a code the method declares or a protocol code of the wire", "found": code.to_string()}]})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pump() -> Known {
        let text = include_str!("../../../fixtures/contracts/pump-plant.types.json");
        let doc = accord_schema_model::Document::parse(text).unwrap();
        Known::new(doc).unwrap()
    }

    fn verdict(known: &Known, method: &str, answer: Value) -> (bool, String) {
        let found = known.method(method).unwrap();
        let check = judge(known, &found, &answer);
        (check["valid"].as_bool().unwrap(), check["against"].as_str().unwrap().to_owned())
    }

    #[test]
    fn an_answer_that_breaks_the_contract_is_flagged() {
        let known = pump();
        let (valid, against) =
            verdict(&known, "pump.status", json!({"id": 1, "result": {"pump": 5}}));
        assert!(!valid);
        assert_eq!(against, "the method's result type");
        let declared = json!({"id": 1, "error": {"code": -32004, "message": "unknown pump", "data": {"pump": "P-9"}}});
        assert!(verdict(&known, "pump.status", declared).0);
        let bad_data = json!({"id": 1, "error": {"code": -32004, "message": "unknown pump", "data": {"pump": 9}}});
        assert!(!verdict(&known, "pump.status", bad_data).0);
        let protocol = json!({"id": 1, "error": {"code": -32602, "message": "Invalid params"}});
        assert_eq!(
            verdict(&known, "pump.status", protocol),
            (true, "the wire's protocol error -32602 (invalid params)".to_owned())
        );
        let undeclared = json!({"id": 1, "error": {"code": -32099, "message": "surprise"}});
        assert!(!verdict(&known, "pump.status", undeclared).0);
        assert!(!verdict(&known, "pump.status", json!({"id": 1})).0);
    }
}
