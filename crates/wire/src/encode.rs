//! Response bytes, as a plant writes them. A result that was serialized once (an example, a canned answer) is copied
//! into the envelope as bytes rather than rebuilt as a value per request; the member order is
//! that of `accord_wire::Response::to_value` (`jsonrpc`, `id`, then `result` or `error`).

use std::sync::Arc;

use crate::protocol::ProtocolErrors;
use crate::{Id, RpcError, limits};
use serde_json::Value;

/// What one request is answered with.
#[derive(Debug)]
pub enum Answer {
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
    /// The error code, for a log (`None` for a result).
    pub fn code(&self) -> Option<i64> {
        match self {
            Answer::Error(error) => Some(error.code),
            _ => None,
        }
    }
}

/// Appends one response.
pub fn response(id: &Id, answer: &Answer, out: &mut Vec<u8>) {
    if let Answer::Raw(bytes) = answer {
        // Room for the envelope too (a short id assumed): a large canned answer is copied once,
        // not again at each doubling of the buffer.
        out.reserve(bytes.len() + 48);
    }
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

/// Appends one response to `out` (the answer so far), or, when the answer would then pass
/// `max` bytes, the `answer-bytes` limit error (in the wire's limit code) in its place, with
/// the same id: whatever a plant answers, one message's answer stays within the limit (each
/// refusal is small). Returns the size of the response that was replaced, if one was.
pub fn response_within(
    id: &Id,
    answer: &Answer,
    out: &mut Vec<u8>,
    max: usize,
    protocol: &ProtocolErrors,
) -> Option<usize> {
    let mark = out.len();
    response(id, answer, out);
    if out.len() <= max {
        return None;
    }
    let size = out.len() - mark;
    out.truncate(mark);
    out.shrink_to(mark.max(256));
    let reason =
        format!("the response is {size} bytes; with what precedes it the answer would pass {max}");
    let error =
        protocol.limit(RpcError::limit_exceeded_because(limits::ANSWER_BYTES, max as u64, &reason));
    response(id, &Answer::Error(error), out);
    Some(size)
}

/// One error response with id `null`: for a body that could not be read as requests.
pub fn refusal(error: RpcError) -> Vec<u8> {
    let mut out = Vec::with_capacity(128);
    response(&Id::Null, &Answer::Error(error), &mut out);
    out
}

fn write_value(value: &Value, out: &mut Vec<u8>) {
    // Writing a Value (or an Id) into a Vec cannot fail: keys are strings, the writer is memory.
    let _ = serde_json::to_writer(&mut *out, value);
}
