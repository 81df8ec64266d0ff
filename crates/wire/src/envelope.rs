//! Request and response envelopes (docs/wire.md §2, §4, §10).
//!
//! A plant reads [`Incoming`] from a body or a WebSocket message; a caller reads a
//! [`Response`]. Both refuse what JSON-RPC 2.0 refuses, with the reason the error carries.

use std::fmt;

use accord_schema_model::DuplicateKey;
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

use crate::members::{Members, Top, Unread};
use crate::{Error, JSONRPC, RpcError};

/// A request id: a string, a number or `null` (JSON-RPC 2.0 §4). A request without an `id`
/// member is a notification and has no `Id` at all.
#[derive(Debug, Clone, PartialEq)]
pub enum Id {
    /// A number id, kept as written.
    Number(serde_json::Number),
    /// A string id.
    String(String),
    /// `"id": null`: allowed, discouraged, answered with `null`.
    Null,
}

impl Id {
    /// The id as JSON.
    pub fn to_value(&self) -> Value {
        match self {
            Id::Number(n) => Value::Number(n.clone()),
            Id::String(s) => Value::String(s.clone()),
            Id::Null => Value::Null,
        }
    }

    fn from_value(value: &Value) -> Option<Id> {
        match value {
            Value::Number(n) => Some(Id::Number(n.clone())),
            Value::String(s) => Some(Id::String(s.clone())),
            Value::Null => Some(Id::Null),
            _ => None,
        }
    }
}

/// Written as the JSON it was sent as, without building a [`Value`] for it.
impl Serialize for Id {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Id::Number(n) => n.serialize(serializer),
            Id::String(s) => serializer.serialize_str(s),
            Id::Null => serializer.serialize_unit(),
        }
    }
}

/// The id as JSON text: `7`, `"a"`, `null` (what a response carries, and the request log shows).
impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Id::Number(n) => write!(f, "{n}"),
            Id::String(s) => f.write_str(&serde_json::to_string(s).map_err(|_| fmt::Error)?),
            Id::Null => f.write_str("null"),
        }
    }
}

/// Whether a `Content-Type` header's value (`None`: absent) declares JSON, as docs/wire.md §1
/// asks of a body: `application/json`, in any case, parameters such as `; charset=utf-8` allowed.
pub fn declares_json(content_type: Option<&str>) -> bool {
    content_type
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"))
}

/// One well-formed request.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// The id, or `None` for a notification (which is never answered).
    pub id: Option<Id>,
    /// The method name as sent.
    pub method: String,
    /// The params as sent: an object, an array, or absent.
    pub params: Option<Value>,
}

impl Request {
    /// Reads one request object; a refusal carries the id when it could be read.
    pub fn from_value(value: Value) -> Result<Request, Rejected> {
        let Value::Object(mut object) = value else {
            return Request::not_an_object();
        };
        Request::from_members(Members {
            id: object.remove("id"),
            jsonrpc: object.remove("jsonrpc"),
            method: object.remove("method"),
            params: object.remove("params"),
            // A `Value` has one member per name: whatever was named twice is gone already.
            duplicate: None,
        })
    }

    /// The refusal of a batch element or body that is not an object.
    pub(crate) fn not_an_object() -> Result<Request, Rejected> {
        Err(Rejected::new(Id::Null, "a request must be a JSON object"))
    }

    /// The one judgement of a request object, however it was read.
    pub(crate) fn from_members(members: Members) -> Result<Request, Rejected> {
        let id = match members.id {
            None => None,
            Some(raw) => match Id::from_value(&raw) {
                Some(id) => Some(id),
                None => {
                    return Err(Rejected::new(Id::Null, "`id` must be a string, a number or null"));
                }
            },
        };
        if let Some(duplicate) = members.duplicate {
            // Which of two ids to answer is the very ambiguity: neither.
            let id = match &duplicate {
                Duplicate::Member(name) if name == "id" => Id::Null,
                _ => id.unwrap_or(Id::Null),
            };
            let reason = match &duplicate {
                Duplicate::Member(_) => DUPLICATE_MEMBER,
                Duplicate::Param(_) => DUPLICATE_PARAM,
            };
            return Err(Rejected { id, reason, duplicate: Some(duplicate) });
        }
        // The id a refusal answers with, cloned only when there is a refusal.
        let refuse = |reason| Err(Rejected::new(id.clone().unwrap_or(Id::Null), reason));
        match &members.jsonrpc {
            Some(Value::String(v)) if v == JSONRPC => {}
            Some(_) => return refuse("`jsonrpc` must be \"2.0\""),
            None => return refuse("`jsonrpc` is missing; it must be \"2.0\""),
        }
        let method = match members.method {
            Some(Value::String(m)) => m,
            Some(_) => return refuse("`method` must be a string"),
            None => return refuse("`method` is missing"),
        };
        let params = match members.params {
            None => None,
            Some(p @ (Value::Object(_) | Value::Array(_))) => Some(p),
            Some(_) => return refuse("`params` must be an object or an array"),
        };
        Ok(Request { id, method, params })
    }

    /// The request as JSON, as a caller sends it.
    pub fn to_value(&self) -> Value {
        let mut object = Map::new();
        object.insert("jsonrpc".into(), JSONRPC.into());
        object.insert("method".into(), self.method.clone().into());
        if let Some(params) = &self.params {
            object.insert("params".into(), params.clone());
        }
        if let Some(id) = &self.id {
            object.insert("id".into(), id.to_value());
        }
        Value::Object(object)
    }

    /// What the method name calls.
    pub fn call(&self) -> Call<'_> {
        Call::of(&self.method)
    }
}

/// The reason of a request that names a member twice, or a key twice inside one.
pub const DUPLICATE_MEMBER: &str =
    "a member is named twice (or a key twice inside it); readers disagree on which counts";
/// The reason of a request whose params name a key twice.
pub const DUPLICATE_PARAM: &str = "a key inside `params` is named twice";

/// A name a request gave twice: ambiguous, since one reader keeps the first and another the
/// last (a gateway and a plant that disagree about what was asked: request smuggling), so the
/// request is refused (docs/wire.md §4).
#[derive(Debug, Clone, PartialEq)]
pub enum Duplicate {
    /// A member of the request object (`id`, `jsonrpc`, `method`, `params` or another) named
    /// twice, or a key named twice inside a member other than `params`: `-32600` naming it.
    Member(String),
    /// A key named twice inside `params`: `-32602` at its path.
    Param(DuplicateKey),
}

/// A value that is JSON but not a request: always answered with an error (JSON-RPC 2.0 §5: an
/// invalid request gets an error even when it carries no id), with the id when one could be
/// read: `-32600`, or `-32602` for a key named twice inside `params`.
#[derive(Debug, Clone, PartialEq)]
pub struct Rejected {
    /// The id to answer with: the request's, or `null` when it could not be read.
    pub id: Id,
    /// Why it is not a request, in one phrase (the `-32600` error's `data.reason`).
    pub reason: &'static str,
    /// The name given twice, when that is why.
    pub duplicate: Option<Duplicate>,
}

impl Rejected {
    fn new(id: Id, reason: &'static str) -> Rejected {
        Rejected { id, reason, duplicate: None }
    }

    /// The error: `-32600` (with `data.member` naming a member given twice), or `-32602` at
    /// the path of a key given twice inside `params`.
    pub fn error(&self) -> RpcError {
        match &self.duplicate {
            None => RpcError::invalid_request(self.reason),
            Some(Duplicate::Member(name)) => RpcError::duplicate_member(self.reason, name),
            Some(Duplicate::Param(key)) => RpcError::duplicate_param(key),
        }
    }

    /// The error response that answers it.
    pub fn response(&self) -> Response {
        Response::Failure { id: self.id.clone(), error: self.error() }
    }
}

/// What a method name calls (docs/wire.md §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Call<'a> {
    /// `namespace.method` of the contract.
    Contract {
        /// The namespace name (before the first `.`).
        namespace: &'a str,
        /// The method name (after it).
        method: &'a str,
    },
    /// `rpc.NAME`: the protocol's own methods (`describe`, `subscribe`, `unsubscribe`, `fake`).
    Protocol(&'a str),
    /// A name without a `.`: no contract method can have it.
    Unqualified(&'a str),
}

impl<'a> Call<'a> {
    /// Splits a method name at its first `.`.
    pub fn of(name: &'a str) -> Call<'a> {
        match name.split_once('.') {
            Some(("rpc", rest)) => Call::Protocol(rest),
            Some((namespace, method)) => Call::Contract { namespace, method },
            None => Call::Unqualified(name),
        }
    }
}

/// A body or WebSocket message, read.
#[derive(Debug, Clone, PartialEq)]
pub enum Incoming {
    /// One request (or one refusal).
    Single(Result<Request, Rejected>),
    /// A non-empty batch, in order.
    Batch(Vec<Result<Request, Rejected>>),
}

impl Incoming {
    /// Reads bytes: `Err` is the `-32700` answer (with id `null`). An empty batch reads as a
    /// single refusal, as JSON-RPC 2.0 §6 asks.
    ///
    /// Reads the bytes straight into each request's members (the same judgement as
    /// [`Incoming::from_value`] of the parsed value, without building the whole value).
    pub fn parse(bytes: &[u8]) -> Result<Incoming, RpcError> {
        Incoming::parse_with_batch_limit(bytes, usize::MAX)
    }

    /// Reads bytes as [`Incoming::parse`] does, with a limit on the length of a batch checked
    /// while it is read: a batch of more than `max_batch` requests is `Err` `-32003`
    /// `batch-length` as soon as its element `max_batch + 1` begins, without the rest being
    /// parsed or held (whatever follows, even text that is not JSON).
    pub fn parse_with_batch_limit(bytes: &[u8], max_batch: usize) -> Result<Incoming, RpcError> {
        let top = Top::parse(bytes, max_batch).map_err(|unread| match unread {
            Unread::Syntax(err) => RpcError::from_json_error(&err),
            Unread::TooLong => {
                RpcError::limit_exceeded(crate::limits::BATCH_LENGTH, max_batch as u64)
            }
        })?;
        Ok(match top {
            Top::Batch(judged) if judged.is_empty() => {
                Incoming::Single(Err(Rejected::new(Id::Null, "an empty batch")))
            }
            Top::Batch(judged) => Incoming::Batch(judged),
            Top::Single(judged) => Incoming::Single(judged),
        })
    }

    /// Reads a parsed value.
    pub fn from_value(value: Value) -> Incoming {
        match value {
            Value::Array(items) if items.is_empty() => {
                Incoming::Single(Err(Rejected::new(Id::Null, "an empty batch")))
            }
            Value::Array(items) => {
                Incoming::Batch(items.into_iter().map(Request::from_value).collect())
            }
            other => Incoming::Single(Request::from_value(other)),
        }
    }
}

/// One response.
#[derive(Debug, Clone, PartialEq)]
pub enum Response {
    /// `result`.
    Success {
        /// The request's id.
        id: Id,
        /// The result.
        result: Value,
    },
    /// `error`.
    Failure {
        /// The request's id, or `null`.
        id: Id,
        /// The error.
        error: RpcError,
    },
}

impl Response {
    /// The id answered.
    pub fn id(&self) -> &Id {
        match self {
            Response::Success { id, .. } | Response::Failure { id, .. } => id,
        }
    }

    /// The response as JSON.
    pub fn to_value(&self) -> Value {
        let mut object = Map::new();
        object.insert("jsonrpc".into(), JSONRPC.into());
        match self {
            Response::Success { id, result } => {
                object.insert("id".into(), id.to_value());
                object.insert("result".into(), result.clone());
            }
            Response::Failure { id, error } => {
                object.insert("id".into(), id.to_value());
                object.insert("error".into(), error.to_value());
            }
        }
        Value::Object(object)
    }

    /// Reads a response as a caller must: `jsonrpc` is `"2.0"`, `id` is present, exactly one
    /// of `result` and `error`. `pointer` locates the response (`""`, or `/3` in a batch).
    pub fn from_value(value: &Value, pointer: &str) -> Result<Response, Error> {
        let object = value
            .as_object()
            .ok_or_else(|| Error::shape(pointer, "a response must be an object"))?;
        if object.get("jsonrpc").and_then(Value::as_str) != Some(JSONRPC) {
            return Err(Error::shape(format!("{pointer}/jsonrpc"), "`jsonrpc` must be \"2.0\""));
        }
        let id = object.get("id").ok_or_else(|| Error::shape(pointer, "`id` is missing"))?;
        let id = Id::from_value(id).ok_or_else(|| {
            Error::shape(format!("{pointer}/id"), "`id` must be a string, a number or null")
        })?;
        match (object.get("result"), object.get("error")) {
            (Some(result), None) => Ok(Response::Success { id, result: result.clone() }),
            (None, Some(error)) => Ok(Response::Failure {
                id,
                error: RpcError::from_value(error, &format!("{pointer}/error"))?,
            }),
            (Some(_), Some(_)) => {
                Err(Error::shape(pointer, "a response has `result` or `error`, not both"))
            }
            (None, None) => Err(Error::shape(pointer, "a response needs `result` or `error`")),
        }
    }
}
