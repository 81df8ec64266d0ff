//! Wire rules: how callers reach the plant (the `wire` section): wire names, the describe
//! method, protocol codes, subscription routes.

use super::Level::{Breaking, Risky, Safe};
use super::{Advice, Category, Story};

rules! {
    category: Category::Wire;

    WIRE_NAME_CHANGED {
        id: "wire-name-changed",
        subject: "method",
        action: "rename",
        input: Breaking,
        output: Breaking,
        dual: "wire-name-changed",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::Fixed(super::WIRE_RENAME_ADVICE),
        purpose: "A method's wire name changed (a `wire.methods` entry): a rename on the wire.",
        doc: "Input, breaking: old callers call the old name, which the new plant does not answer (method-not-found). Output, breaking: new callers call the new name, which the old plant does not answer. The contract's name `ns.method` is unchanged, but no caller reaches the method by it.",
    }

    WIRE_SEPARATOR_CHANGED {
        id: "wire-separator-changed",
        subject: "namespace",
        action: "rename",
        input: Breaking,
        output: Breaking,
        dual: "wire-separator-changed",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::Fixed(super::WIRE_RENAME_ADVICE),
        purpose: "A namespace's wire separator changed: every method and subscription name derived from it is renamed. Reported once per namespace, with how many names it renames and an example.",
        doc: "Breaking both ways, as for `wire-name-changed`: old callers call the old names on the new plant, new callers the new names on the old plant. A method whose wire name is given by name (`wire.methods`) is not renamed by the separator and is not counted.",
    }

    DESCRIBE_METHOD_RENAMED {
        id: "describe-method-renamed",
        subject: "wire",
        action: "rename",
        input: Risky,
        output: Risky,
        dual: "describe-method-renamed",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::Fixed(super::WIRE_RENAME_ADVICE),
        purpose: "The describe method is called by another name.",
        doc: "Input, risky: old callers that ask the plant for its description (a compatibility check with `builtAgainst`, `accord conform`) get method-not-found from the new plant. Output, risky: new callers get it from the old plant. Risky, not breaking: the describe method is the protocol's, not a contract method, and a caller that does without it loses the check, not its work; a caller that refuses to start without it breaks.",
    }

    DESCRIBE_METHOD_REMOVED {
        id: "describe-method-removed",
        subject: "wire",
        action: "remove",
        input: Risky,
        output: Safe,
        dual: "describe-method-added",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "The plant no longer answers a describe method (`describe: false`).",
        doc: "Input, risky: old callers that call the describe method get method-not-found from the new plant, and lose their compatibility check (see `describe-method-renamed` for why risky). Output, safe: new callers call no describe method, so the old plant's one goes unused.",
    }

    DESCRIBE_METHOD_ADDED {
        id: "describe-method-added",
        subject: "wire",
        action: "add",
        input: Safe,
        output: Risky,
        dual: "describe-method-removed",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "The plant answers a describe method it did not answer before.",
        doc: "Input, safe: old callers did not call one. Output, risky: new callers that call it get method-not-found from the old plant: deploy the plant first.",
    }

    CODES_PROFILE_CHANGED {
        id: "codes-profile-changed",
        subject: "code",
        action: "change",
        input: Breaking,
        output: Breaking,
        dual: "codes-profile-changed",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::Fixed(super::CODE_MEANING_ADVICE),
        purpose: "The wire's codes profile changed (`wire.codes.profile`). Reported once, naming the protocol codes whose meaning the profile change moves; codes the contract sets itself are reported by the other code rules.",
        doc: "Protocol codes are written by the plant and read by callers. Output, breaking: old callers read the new plant's codes with the old meanings (EIP-1474's `-32000` \"invalid input\" read as jsonrpsee's \"call execution failed\"), and a missing method or refused params are no longer recognised. Input, breaking: new callers read the old plant's codes with the new meanings.",
    }

    PROTOCOL_CODE_MEANING_CHANGED {
        id: "protocol-code-meaning-changed",
        subject: "code",
        action: "change",
        input: Breaking,
        output: Breaking,
        dual: "protocol-code-meaning-changed",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::Fixed(super::CODE_MEANING_ADVICE),
        purpose: "A protocol code means something else: its reserved meaning, or its role (method not found, invalid params, limit, credentials) changed.",
        doc: "Output, breaking: old callers read the new plant's code with the old meaning (a limit taken for a missing method, a refused param for a missing resource). Input, breaking: new callers read the old plant's code with the new meaning.",
    }

    PROTOCOL_CODE_ADDED {
        id: "protocol-code-added",
        subject: "code",
        action: "add",
        input: Safe,
        output: Risky,
        dual: "protocol-code-removed",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A code gained a protocol meaning (a reserved code, or a new method-not-found, invalid-params or limit code).",
        doc: "Output, risky: the new plant may send it for its own reasons, and old callers that do not know it take it for an unknown error, or for a declared error that uses the same code. Input, safe: the old plant never sends it with that meaning.",
    }

    PROTOCOL_CODE_REMOVED {
        id: "protocol-code-removed",
        subject: "code",
        action: "remove",
        input: Risky,
        output: Safe,
        dual: "protocol-code-added",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A code lost its protocol meaning.",
        doc: "Output, safe: the new plant no longer sends it for its own reasons, and old callers' handling of it goes unused. Input, risky: the old plant still sends it, and new callers no longer know what it means.",
    }

    SUBSCRIPTION_ROUTE_CHANGED {
        id: "subscription-route-changed",
        subject: "event",
        action: "change",
        input: Breaking,
        output: Breaking,
        dual: "subscription-route-changed",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::Fixed(super::WIRE_RENAME_ADVICE),
        purpose: "How an event is subscribed changed: the subscribe, notification or unsubscribe name, the selecting params, or accord's style ↔ pubsub.",
        doc: "Input, breaking: old subscribers subscribe by the old route, which the new plant does not answer, or wait for notifications under a name it no longer sends. Output, breaking: new subscribers do the same against the old plant. A change explained by a separator change alone is counted in `wire-separator-changed` instead.",
    }
}
