//! Params jsonrpsee lets through and the contract refuses: the plant's own check, before a
//! method sees its params.
//!
//! jsonrpsee reads positional params one by one and ignores any left over, and a method
//! without params never looks at them, so `boiler_status` answers `"params": "all"` and
//! `boiler_reading` answers `["drumPressure", 1]`. The contract says a method's positional
//! params may not be longer than it declares (format.md §10.7, invalid params) and params are
//! an array or an object (JSON-RPC 2.0, invalid request): this layer refuses both, with
//! jsonrpsee's own codes, for calls and batch members alike.

use std::future::Future;

use jsonrpsee::server::middleware::rpc::{
    Batch, BatchEntry, BatchEntryErr, MethodResponse, Notification, RpcServiceT,
};
use jsonrpsee::types::error::{INVALID_PARAMS_CODE, INVALID_REQUEST_CODE};
use jsonrpsee::types::{ErrorObject, Request};
use serde_json::value::RawValue;

/// How many positional params each method of the trait (by wire name) takes.
fn arity(method: &str) -> Option<usize> {
    match method {
        "boiler_status" | "boiler_stop" | "boiler_subscribeTelemetry" => Some(0),
        "boiler_reading" | "boiler_setSetpoint" | "boiler_unsubscribeTelemetry" => Some(1),
        "boiler_fire" => Some(2),
        _ => None,
    }
}

/// The refusal of `params` (their JSON text) for `method`, if they are refused.
fn refused(method: &str, params: Option<&str>) -> Option<ErrorObject<'static>> {
    let raw = params?.trim_start();
    match raw.as_bytes().first() {
        Some(b'{') => None,
        Some(b'[') => {
            let given = serde_json::from_str::<Vec<&RawValue>>(raw).ok()?.len();
            let max = arity(method)?;
            (given > max).then(|| {
                ErrorObject::owned(
                    INVALID_PARAMS_CODE,
                    "Invalid params",
                    Some(format!("{given} params; {method} takes at most {max}")),
                )
            })
        }
        _ => Some(ErrorObject::owned(
            INVALID_REQUEST_CODE,
            "Invalid request",
            Some("params must be an array or an object"),
        )),
    }
}

/// The layer around the plant's RPC service.
#[derive(Clone)]
pub(crate) struct Arity<S>(pub(crate) S);

impl<S> RpcServiceT for Arity<S>
where
    S: RpcServiceT<
            MethodResponse = MethodResponse,
            BatchResponse = MethodResponse,
            NotificationResponse = MethodResponse,
        > + Clone
        + Send
        + Sync
        + 'static,
{
    type MethodResponse = MethodResponse;
    type NotificationResponse = MethodResponse;
    type BatchResponse = MethodResponse;

    fn call<'a>(&self, request: Request<'a>) -> impl Future<Output = MethodResponse> + Send + 'a {
        let service = self.0.clone();
        async move {
            match refused(request.method_name(), request.params().as_str()) {
                Some(error) => MethodResponse::error(request.id(), error),
                None => service.call(request).await,
            }
        }
    }

    fn batch<'a>(&self, mut batch: Batch<'a>) -> impl Future<Output = MethodResponse> + Send + 'a {
        for entry in batch.iter_mut() {
            if let Ok(BatchEntry::Call(request)) = entry
                && let Some(error) = refused(request.method_name(), request.params().as_str())
            {
                *entry = Err(BatchEntryErr::new(request.id().into_owned(), error));
            }
        }
        self.0.batch(batch)
    }

    fn notification<'a>(
        &self,
        notification: Notification<'a>,
    ) -> impl Future<Output = MethodResponse> + Send + 'a {
        self.0.notification(notification)
    }
}
