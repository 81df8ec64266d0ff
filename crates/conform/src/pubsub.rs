//! The events phase for an event the contract's wire subscribes in the pubsub style
//! (docs/wire.md §11.3): geth's one method for all (`eth_subscribe("newHeads")`) or jsonrpsee's
//! one method per subscription (`boiler_subscribeTelemetry`). Subscribe with the route's
//! selecting params, collect the notifications named by the route, validate each payload
//! (`params.result`) against the event's type, then unsubscribe with the id.

use accord_schema_model::PubsubRoute;
use accord_validate::Target;
use serde_json::{Value, json};

use crate::arguments::subscribe_arguments;
use crate::client::Socket;
use crate::failure::{FailureKind, Problem};
use crate::judge::validation_problems;
use crate::report::Outcome;
use crate::run::{Opened, Run, missing_events};
use crate::transcript::Transcript;

impl Run<'_> {
    /// One pubsub subscription of the event `name` (`namespace.event`) by `route`.
    pub(crate) async fn subscribe_pubsub(
        &mut self,
        socket: &mut Socket,
        transcript: &mut Transcript,
        route: &PubsubRoute,
        name: &str,
        namespace: &str,
        event: &str,
    ) -> Outcome {
        // The selecting params, then the subscription's own arguments, generated valid.
        let seed = crate::run::seed_for(self.options.seed, name, 0);
        let arguments = match subscribe_arguments(self.judge.doc, namespace, event, seed) {
            Ok(arguments) => arguments,
            Err(reason) => {
                return Outcome::Skipped(format!("no valid subscribe arguments: {reason}"));
            }
        };
        let params = route.params.iter().cloned().chain(arguments).collect();
        let sent = self.request(&route.subscribe, Some(Value::Array(params)));
        // geth's ids are hex strings, jsonrpsee's strings or integers: kept as sent, compared
        // as JSON values.
        let any_id =
            |result| matches!(result, Value::String(_) | Value::Number(_)).then_some(result);
        let opened = self.open_subscription(socket, transcript, &sent, name, any_id).await;
        let Opened { id: subscription, notes, emitted, mut problems } = match opened {
            Ok(opened) => opened,
            Err(outcome) => return outcome,
        };
        let target = Target::Event { namespace: namespace.to_owned(), event: event.to_owned() };
        let mut validated = 0;
        for text in &notes {
            match notification(text, route, &subscription) {
                Ok(payload) => {
                    validated += 1;
                    problems.extend(validation_problems(
                        &self.judge.contract,
                        &target,
                        &payload,
                        FailureKind::EventPayloadInvalid,
                        "the payload",
                    ));
                }
                Err(problem) => problems.push(problem),
            }
        }
        problems.extend(missing_events(emitted, notes.len()));
        self.notes.push(format!(
            "{name}: {validated} `{}` notification(s) validated, subscribed with {}",
            route.notification, route.subscribe
        ));
        let params = json!([subscription]);
        self.close_subscription(socket, transcript, &route.unsubscribe, params, &mut problems)
            .await;
        self.subscription_outcome(problems, &notes)
    }
}

/// The payload of one pubsub notification of `route` on `subscription`, or what is wrong with
/// the message.
fn notification(text: &str, route: &PubsubRoute, subscription: &Value) -> Result<Value, Problem> {
    let invalid = |message: String| Problem::new(FailureKind::EventInvalid, message);
    let value: Value = serde_json::from_str(text)
        .map_err(|e| invalid(format!("a message that is not JSON: {e}")))?;
    let method = value.get("method").and_then(Value::as_str);
    if method != Some(route.notification.as_str()) {
        return Err(invalid(format!(
            "a message that is neither a response awaited nor a `{}` notification",
            route.notification
        )));
    }
    if value.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err(invalid("a notification without `\"jsonrpc\": \"2.0\"`".to_owned()));
    }
    let params = value.get("params").and_then(Value::as_object).ok_or_else(|| {
        invalid("a notification whose params are not {\"subscription\", \"result\"}".to_owned())
    })?;
    match params.get("subscription") {
        Some(id) if id == subscription => {}
        Some(id) => {
            return Err(invalid(format!(
                "a notification for subscription {id}, not {subscription}"
            )));
        }
        None => return Err(invalid("a notification without `params.subscription`".to_owned())),
    }
    params
        .get("result")
        .cloned()
        .ok_or_else(|| invalid("a notification without `params.result`".to_owned()))
}
