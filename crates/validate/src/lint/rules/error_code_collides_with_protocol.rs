//! `error-code-collides-with-protocol`: a declared error reusing a protocol code of the wire.

use accord_schema_model::{Dialect, Profile};

use crate::lint::LintContext;
use crate::lint::rules::wire_unresolved::has_wire;

declare_rule! {
    /// ## What it does
    /// Flags a declared error whose `code` is a protocol code of the contract's wire: a code
    /// the plant may send for its own reasons in answer to any method (docs/wire.md §4,
    /// §11.2). The protocol codes come from the wire's `codes` (its profile, changed or added
    /// to by the contract); without a `wire` section they are accord's own: `-32700`,
    /// `-32600` to `-32603`, and `-32001` to `-32003`. accord's `-32004` is not among them:
    /// it only ever answers `rpc.subscribe` and `rpc.unsubscribe`, so a contract method may
    /// declare it. A wire that does not resolve is `wire-unresolved`'s finding, not this one.
    ///
    /// ## Why is this bad?
    /// A caller that receives the code cannot tell the declared error from the protocol
    /// error: on an EIP-1474 wire, `-32000` from `eth_sendTransaction` may be the contract's
    /// "insufficient funds" or the node's "invalid input". It handles the one as the other,
    /// and `accord conform` cannot tell a refusal of the params from the declared error.
    ///
    /// ## Example
    /// ```json
    /// "wire": { "separator": "_", "codes": { "profile": "eip-1474" } },
    /// ...
    /// "errors": [ { "code": -32000, "message": "insufficient funds" } ]
    /// ```
    ///
    /// ## Fix
    /// Give the error a code the wire leaves free: another code of `-32000..-32099` that the
    /// wire does not reserve, or one outside `-32768..-32000`. Changing a published code is a
    /// breaking change (compat-diff says so): give the contract a new major version.
    pub(crate) struct ErrorCodeCollidesWithProtocol;
}

pub(crate) fn check(cx: &mut LintContext<'_>) {
    let codes = match Dialect::of(cx.walk.doc) {
        Ok(dialect) => dialect.codes,
        // Without a `wire` section the codes are accord's whatever else fails to resolve (a
        // dotted name); a section that does not resolve is `wire-unresolved`'s finding.
        Err(_) if !has_wire(cx.walk.doc) => Profile::Accord.codes(),
        Err(_) => return,
    };
    let codes = &codes;
    let profile = codes.profile.codes();
    let mut found = Vec::new();
    for m in &cx.walk.methods {
        for (i, error) in m.method.errors.iter().flatten().enumerate() {
            let Some(meaning) = codes.meaning(error.code) else {
                continue;
            };
            // Say where the meaning comes from: the profile's table, or the contract's own
            // change to it (`wire.codes`).
            let source = if profile.meaning(error.code) == Some(meaning) {
                profile_name(codes.profile)
            } else {
                "this contract's `wire.codes`"
            };
            found.push((
                m.pointer.key("errors").index(i).key("code"),
                format!(
                    "error {code} `{message}` of `{ns}.{method}` is also the wire's protocol code {code} ({meaning}, {source}): a caller cannot tell them apart",
                    code = error.code,
                    message = error.message,
                    ns = m.namespace,
                    method = m.name,
                ),
            ));
        }
    }
    for (at, message) in found {
        cx.report(
            at,
            message,
            "give the error a code the wire does not reserve (in a new major version if the contract is published)",
        );
    }
}

/// How a message names the set a protocol code comes from.
fn profile_name(profile: Profile) -> &'static str {
    match profile {
        Profile::Accord => "accord's wire",
        Profile::Eip1474 => "EIP-1474",
        Profile::Jsonrpsee => "jsonrpsee",
        // A profile added later is named by its id until it gets a label here.
        _ => profile.as_str(),
    }
}
