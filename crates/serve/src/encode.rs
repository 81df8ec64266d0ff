//! Response bytes. A result that was serialized once (an example, a canned answer) is copied
//! into the envelope as bytes rather than rebuilt as a value per request; the member order is
//! that of `accord_wire::Response::to_value` (`jsonrpc`, `id`, then `result` or `error`).

use std::sync::Arc;

use accord_wire::{Id, RpcError};
use serde_json::Value;

/// What one request is answered with.
#[derive(Debug)]
pub(crate) enum Answer {
    /// A result serialized once, at startup.
    Raw(Arc<[u8]>),
    /// A result made for this request.
    Value(Value),
    /// An error.
    Error(RpcError),
}

impl From<RpcError> for Answer {
    fn from(error: RpcError) -> Answer {
        Answer::Error(error)
    }
}

impl Answer {
    /// The error code, for the log (`None` for a result).
    pub(crate) fn code(&self) -> Option<i64> {
        match self {
            Answer::Error(error) => Some(error.code),
            _ => None,
        }
    }
}

/// Appends one response.
pub(crate) fn response(id: &Id, answer: &Answer, out: &mut Vec<u8>) {
    out.extend_from_slice(br#"{"jsonrpc":"2.0","id":"#);
    // Cannot fail, as below.
    let _ = serde_json::to_writer(&mut *out, id);
    match answer {
        Answer::Raw(bytes) => {
            out.extend_from_slice(br#","result":"#);
            out.extend_from_slice(bytes);
        }
        Answer::Value(value) => {
            out.extend_from_slice(br#","result":"#);
            write_value(value, out);
        }
        Answer::Error(error) => {
            out.extend_from_slice(br#","error":"#);
            write_value(&error.to_value(), out);
        }
    }
    out.push(b'}');
}

/// One error response with id `null`: for a body that could not be read as requests.
pub(crate) fn refusal(error: RpcError) -> Vec<u8> {
    let mut out = Vec::with_capacity(128);
    response(&Id::Null, &Answer::Error(error), &mut out);
    out
}

fn write_value(value: &Value, out: &mut Vec<u8>) {
    // Writing a Value (or an Id) into a Vec cannot fail: keys are strings, the writer is memory.
    let _ = serde_json::to_writer(&mut *out, value);
}
