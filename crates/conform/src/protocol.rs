//! The plant's protocol as a run sees it: which method describes the plant, which method the
//! envelope probes are sent to, and which codes mean "method not found" and "invalid params".
//! They come from the contract's wire (docs/format.md §15) as the model's [`Dialect`] resolves
//! it: accord's own wire (docs/wire.md) when the contract has no `wire` section. They are
//! parameters of the plan, not literals in the phases.

use accord_schema_model::Dialect;
use accord_wire::codes;

use crate::Options;

/// The protocol parameters of a plan.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Protocol {
    /// The method that describes the plant (`rpc.describe`); `None`: the plant has none, and the
    /// describe phase is skipped.
    pub describe: Option<String>,
    /// The method every envelope probe and the reachability probe are sent to: one that changes
    /// nothing on the plant.
    pub probe: String,
    /// The method the "params neither object nor array" probe is sent to: on a foreign wire a
    /// method the plan calls that takes params, a `read` one first (a method that takes none
    /// may never look at them), else [`Protocol::probe`].
    pub params_probe: String,
    /// The codes by which the plant says a method does not exist.
    pub method_not_found: Vec<i64>,
    /// The codes with which the plant may refuse invalid params.
    pub invalid_params: Vec<i64>,
    /// The code of "a limit was exceeded".
    pub limit: i64,
    /// The deepest nesting the plant promises to read; `None`: it promises none, and no
    /// params nested past the limit are sent (the depth probe).
    pub depth_limit: Option<u64>,
    /// Whether this is accord's own wire in every member (the contract has no `wire` section).
    pub accord: bool,
}

impl Protocol {
    /// The protocol of `dialect`. The probes go to the describe method when the wire names one,
    /// else to `read_probe` (a read method of the contract that the plan calls, by its wire
    /// name), else to `unknown` (a method the plant does not have, which every probe may reach
    /// without changing anything). `options.invalid_params_code` replaces the wire's
    /// invalid-params codes when it is not JSON-RPC's `-32602` (the `--invalid-params-code`
    /// of a plant that uses another code without saying so in its contract).
    pub fn of(
        dialect: &Dialect,
        read_probe: Option<String>,
        params_probe: Option<String>,
        unknown: String,
        options: &Options,
    ) -> Protocol {
        let invalid_params = if options.invalid_params_code == codes::INVALID_PARAMS {
            dialect.codes.invalid_params.clone()
        } else {
            vec![options.invalid_params_code]
        };
        let probe = dialect.describe.clone().or(read_probe).unwrap_or(unknown);
        let params_probe = match params_probe {
            Some(method) if !dialect.is_accord() => method,
            _ => probe.clone(),
        };
        Protocol {
            describe: dialect.describe.clone(),
            probe,
            params_probe,
            method_not_found: dialect.codes.method_not_found.clone(),
            invalid_params,
            limit: dialect.codes.limit,
            depth_limit: dialect.depth_limit,
            accord: dialect.is_accord(),
        }
    }

    /// Whether `code` says the method does not exist.
    pub fn method_missing(&self, code: i64) -> bool {
        method_missing(&self.method_not_found, code)
    }

    /// The codes a request whose `params` are neither an object nor an array may be refused
    /// with. accord's wire names one, `-32600` (docs/wire.md §2). JSON-RPC 2.0 calls such a
    /// request invalid (`-32600`) and such params invalid (`-32602`) without ordering the two,
    /// so on a foreign wire either is a refusal, as is the wire's own invalid-params code; and
    /// when the probe could only go to a method the plant lacks, method not found too.
    pub fn unstructured_params(&self, method_exists: bool) -> Vec<i64> {
        let mut out = vec![codes::INVALID_REQUEST];
        if !self.accord {
            out.push(codes::INVALID_PARAMS);
            out.extend(&self.invalid_params);
            if !method_exists {
                out.extend(&self.method_not_found);
            }
        }
        let mut seen = Vec::new();
        out.retain(|c| {
            let new = !seen.contains(c);
            seen.push(*c);
            new
        });
        out
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
