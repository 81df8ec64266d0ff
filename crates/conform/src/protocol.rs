//! The plant's protocol as a run sees it: which method describes the plant, which method the
//! envelope probes are sent to, and which codes mean "method not found" and "invalid params".
//! Today these are accord's own wire (docs/wire.md); they are parameters of the plan, not
//! literals in the phases, so a contract that names another wire only changes how this is built.

use accord_wire::codes;

use crate::Options;

/// The protocol parameters of a plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Protocol {
    /// The method that describes the plant (`rpc.describe`); `None`: the plant has none, and the
    /// describe phase is skipped.
    pub describe: Option<String>,
    /// The method every envelope probe and the reachability probe are sent to: one that changes
    /// nothing on the plant.
    pub probe: String,
    /// The codes by which the plant says a method does not exist.
    pub method_not_found: Vec<i64>,
    /// The codes with which the plant may refuse invalid params.
    pub invalid_params: Vec<i64>,
}

impl Protocol {
    /// accord's own wire, with the invalid-params code of `options`.
    pub fn accord(options: &Options) -> Protocol {
        Protocol {
            describe: Some(accord_wire::describe::METHOD.to_owned()),
            probe: accord_wire::describe::METHOD.to_owned(),
            method_not_found: vec![codes::METHOD_NOT_FOUND],
            invalid_params: vec![options.invalid_params_code],
        }
    }

    /// Whether `code` says the method does not exist.
    pub fn method_missing(&self, code: i64) -> bool {
        method_missing(&self.method_not_found, code)
    }

    /// Whether `code` is an invalid-params refusal.
    pub fn invalid_params(&self, code: i64) -> bool {
        self.invalid_params.contains(&code)
    }

    /// The invalid-params codes as written in messages (`-32602`, `-32602 or -32000`).
    pub fn invalid_params_text(&self) -> String {
        codes_text(&self.invalid_params)
    }

    /// The method-not-found codes as written in messages.
    pub fn method_not_found_text(&self) -> String {
        codes_text(&self.method_not_found)
    }
}

/// The one place a missing method is recognised: an error whose code is one of the plant's
/// method-not-found codes.
pub(crate) fn method_missing(method_not_found: &[i64], code: i64) -> bool {
    method_not_found.contains(&code)
}

/// Codes as written in messages: `-32602`, `-32602 or -32000`.
pub(crate) fn codes_text(codes: &[i64]) -> String {
    let all: Vec<String> = codes.iter().map(i64::to_string).collect();
    all.join(" or ")
}
