//! A plant's protocol errors in the codes of the contract's wire (docs/wire.md §4, §11.2).
//!
//! [`RpcError`] builds each error with accord's code, message and data; on a foreign wire the
//! code becomes the one the wire's [`ProtocolCodes`] gives (the first of a list: what a fake
//! sends), and the message and data stay. On accord's wire every code is the one it was, so the
//! answers are byte-identical to a plant without a `wire` section. Nothing here names a code
//! of its own: the codes come from the model's `Dialect`.

use crate::RpcError;
use accord_schema_model::{Profile, ProtocolCodes};
use accord_validate::ValidationError;
use serde_json::json;

/// The protocol errors of one contract's wire.
#[derive(Debug, Clone)]
pub struct ProtocolErrors {
    codes: ProtocolCodes,
    /// The describe method, named by `-32001`'s data on accord's wire.
    describe: Option<String>,
}

impl ProtocolErrors {
    /// The protocol errors of a wire with these codes and this describe method.
    pub fn new(codes: ProtocolCodes, describe: Option<String>) -> ProtocolErrors {
        ProtocolErrors { codes, describe }
    }

    /// Whether the wire has codes for a missing and a wrong credential (accord's `-32001` and
    /// `-32002`); without them a credential problem is refused at the HTTP level.
    pub fn has_credential_codes(&self) -> bool {
        self.codes.credential_required.is_some() && self.codes.credential_refused.is_some()
    }

    /// A method the plant does not have, in the wire's first method-not-found code.
    pub fn method_not_found(&self, method: &str) -> RpcError {
        recode(RpcError::method_not_found(method), self.codes.method_not_found[0])
    }

    /// Params that fail their validator, in the wire's first invalid-params code.
    pub fn invalid_params(&self, errors: &[ValidationError]) -> RpcError {
        recode(RpcError::invalid_params(errors), self.codes.invalid_params[0])
    }

    /// Params wrong in a way no type says, one error at `path`, in the wire's invalid-params code.
    pub fn invalid_params_at(&self, path: &str, expected: &str, found: &str) -> RpcError {
        recode(RpcError::invalid_params_at(path, expected, found), self.codes.invalid_params[0])
    }

    /// A refusal of a protocol method's params by accord-wire's readers (accord's `-32602`) in
    /// the wire's invalid-params code; any other error as it is.
    pub fn params_refusal(&self, error: RpcError) -> RpcError {
        if error.code == crate::codes::INVALID_PARAMS {
            recode(error, self.codes.invalid_params[0])
        } else {
            error
        }
    }

    /// A limit of docs/wire.md §9, in the wire's limit code.
    pub fn limit_exceeded(&self, limit: &str, max: u64) -> RpcError {
        self.limit(RpcError::limit_exceeded(limit, max))
    }

    /// A limit error accord-wire built (accord's `-32003`, with its data) in the wire's limit
    /// code.
    pub fn limit(&self, error: RpcError) -> RpcError {
        recode(error, self.codes.limit)
    }

    /// A call without a credential; on a wire without credential codes (where the transport
    /// refuses such calls before they are read) the invalid-request code.
    pub fn credential_required(&self) -> RpcError {
        match self.codes.credential_required {
            Some(code) => {
                let mut error = recode(RpcError::credential_required(), code);
                // The data names the method that is open without a credential, if any.
                error.data = self.describe.as_ref().map(|name| json!({ "describe": name }));
                error
            }
            None => RpcError::invalid_request("a credential is required"),
        }
    }

    /// A wrong credential (or, on a wire without credential codes, any credential problem): the
    /// body of the transport's 401.
    pub fn credential_refused(&self) -> RpcError {
        match self.codes.credential_refused {
            Some(code) => recode(RpcError::credential_refused(), code),
            None => RpcError::invalid_request(
                "a credential is required: send Authorization: Bearer <token>",
            ),
        }
    }

    /// A subscription call over HTTP: accord's `-32004` on accord's codes; on another profile
    /// the method is not there on this transport, its method-not-found code (what geth and
    /// jsonrpsee answer a subscribe over HTTP).
    pub fn not_on_transport(&self, transport: &str) -> RpcError {
        let error = RpcError::not_on_transport(transport);
        match self.codes.profile {
            Profile::Accord => error,
            _ => recode(error, self.codes.method_not_found[0]),
        }
    }
}

fn recode(error: RpcError, code: i64) -> RpcError {
    RpcError { code, ..error }
}
