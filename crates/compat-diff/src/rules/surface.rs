//! Surface rules: namespaces, methods, events, errors, params lists, links and causes appearing
//! and disappearing.

use super::Level::{Breaking, None, Risky, Safe};
use super::{Advice, Category, Story};

rules! {
    category: Category::Surface;

    NAMESPACE_REMOVED {
        id: "namespace-removed",
        subject: "namespace",
        action: "remove",
        input: Breaking,
        output: Safe,
        dual: "namespace-added",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A namespace was deleted.",
        doc: "Old callers still call its methods; the new plant answers method-not-found.",
    }

    NAMESPACE_ADDED {
        id: "namespace-added",
        subject: "namespace",
        action: "add",
        input: Safe,
        output: Breaking,
        dual: "namespace-removed",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A namespace was added.",
        doc: "Safe for old callers; new callers that use it against an old plant get method-not-found, so deploy the plant first.",
    }

    METHOD_REMOVED {
        id: "method-removed",
        subject: "method",
        action: "remove",
        input: Breaking,
        output: Safe,
        dual: "method-added",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A method was deleted.",
        doc: "Old callers still call it. Deprecate it, wait until no caller uses it, then remove it and reserve its name.",
    }

    METHOD_ADDED {
        id: "method-added",
        subject: "method",
        action: "add",
        input: Safe,
        output: Breaking,
        dual: "method-removed",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A method was added.",
        doc: "Safe for old callers; new callers calling it on an old plant get method-not-found: deploy the plant first.",
    }

    EVENT_REMOVED {
        id: "event-removed",
        subject: "event",
        action: "remove",
        input: Safe,
        output: Breaking,
        dual: "event-added",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "An event was deleted.",
        doc: "Old subscribers wait for notifications that never come (event payloads are output: the plant writes).",
    }

    EVENT_ADDED {
        id: "event-added",
        subject: "event",
        action: "add",
        input: Risky,
        output: Safe,
        dual: "event-removed",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "An event was added.",
        doc: "Old subscribers never ask for it; new subscribers of an old plant wait for it in vain.",
    }

    SEMANTICS_CHANGED {
        id: "semantics-changed",
        subject: "method",
        action: "change",
        input: Breaking,
        output: Breaking,
        dual: "semantics-changed",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::Fixed(super::NEW_NAME_ADVICE),
        purpose: "A method's declared semantics changed (read became write, …).",
        doc: "What calling a method does is part of its meaning: callers that treat a read as free to repeat, or ask before a destructive call, act on the declared value. A new meaning needs a new method name.",
    }

    DEPRECATED_ADDED {
        id: "deprecated-added",
        subject: "attribute",
        action: "set",
        input: Safe,
        output: Safe,
        dual: "deprecated-removed",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "An element became deprecated.",
        doc: "Information for callers; nothing on the wire changes.",
    }

    DEPRECATED_REMOVED {
        id: "deprecated-removed",
        subject: "attribute",
        action: "unset",
        input: Safe,
        output: Safe,
        dual: "deprecated-added",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "An element is no longer deprecated.",
        doc: "Information for callers; nothing on the wire changes.",
    }

    ERROR_CODE_ADDED {
        id: "error-code-added",
        subject: "error",
        action: "add",
        input: Safe,
        output: Risky,
        dual: "error-code-removed",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A method declares a new error code.",
        doc: "Old callers may not handle the new code (error data is output: the plant writes).",
    }

    ERROR_CODE_REMOVED {
        id: "error-code-removed",
        subject: "error",
        action: "remove",
        input: Risky,
        output: Safe,
        dual: "error-code-added",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A method no longer declares an error code.",
        doc: "Old callers' handling of it becomes dead code; new callers of an old plant may meet it unhandled.",
    }

    PARAM_STRUCTURE_NARROWED {
        id: "param-structure-narrowed",
        subject: "method",
        action: "narrow",
        input: Breaking,
        output: Safe,
        dual: "param-structure-widened",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "`paramStructure` became `by-name` or `by-position` where it was `either`.",
        doc: "Old callers sending the other form are refused.",
    }

    PARAM_STRUCTURE_WIDENED {
        id: "param-structure-widened",
        subject: "method",
        action: "widen",
        input: Safe,
        output: Breaking,
        dual: "param-structure-narrowed",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "`paramStructure` became `either`.",
        doc: "The new plant accepts both forms; new callers using the new form against an old plant are refused.",
    }

    PARAM_STRUCTURE_CHANGED {
        id: "param-structure-changed",
        subject: "method",
        action: "change",
        input: Breaking,
        output: Breaking,
        dual: "param-structure-changed",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "`paramStructure` switched between `by-name` and `by-position`.",
        doc: "Every caller's form is refused by the other side.",
    }

    PARAM_ADDED_REQUIRED {
        id: "param-added-required",
        subject: "param",
        action: "add",
        input: Breaking,
        output: Safe,
        dual: "param-removed",
        witness: true,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A required param was added.",
        doc: "Old callers never send it, so the new plant refuses every call they make. Add it optional with a defined absent case.",
    }

    PARAM_ADDED_OPTIONAL {
        id: "param-added-optional",
        subject: "param",
        action: "add",
        input: Safe,
        output: Risky,
        dual: "param-removed",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "An optional param was added.",
        doc: "Old callers do not send it; new callers sending it to an old plant are ignored (by name) or refused (by position).",
    }

    REQUEST_OPTION_WITHOUT_ACK {
        id: "request-option-without-ack",
        subject: "param",
        action: "add",
        input: None,
        output: Risky,
        dual: "request-option-without-ack",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::Fixed("add a result field only a plant implementing the option produces (derived from the outcome, not echoed from the request), so callers can tell done from ignored; until then deploy the plant first, and have callers report success without it as \"accepted, extra not applied\"."),
        purpose: "An optional param, or an optional field of an object in params, was added and the result gains nothing that only a plant implementing it produces: no field and no union arm, anywhere in it.",
        doc: "Output (new callers × old plant), risky: the seed, \"An addition that asks the other side to do something is only safe for the side that receives it … The receiver is safe. The sender is not, because its success path cannot tell 'done' from 'ignored'\": an old plant ignores the option and answers the ordinary success. Input (old callers × new plant), none: old callers never send the option, so the pair the seed tells you to test is \"the new sender against the old receiver\" alone. An option nested in an object param is the same request (\"a new flag in a request body\"). The contract cannot tell an option that asks for behaviour from one that does not, so every optional addition to params without a new result field is flagged. The acknowledgement may stand deep in the result (a list's items gain a field, fixture `request-option-without-ack.deep-ack`) or be a new arm (the result may now be a richer object): either tells done from ignored.",
    }

    PARAM_REMOVED {
        id: "param-removed",
        subject: "param",
        action: "remove",
        input: Breaking,
        output: Breaking,
        dual: "param-added-required",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A required param was deleted.",
        doc: "Input, breaking: old callers still send it: by position their array is now too long and refused, by name the value is silently ignored. Output, breaking: new callers no longer send it and the old plant still requires it (the seed's \"Remove a field — No: deprecate, stop writing, reserve; deletion is step 6, not step 1\"): make it optional first, and remove it once no plant requires it.",
    }

    OPTIONAL_PARAM_REMOVED {
        id: "optional-param-removed",
        subject: "param",
        action: "remove",
        input: Breaking,
        output: Safe,
        dual: "param-added-optional",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "An optional param was deleted.",
        doc: "Input, breaking: old callers may still send it: by position their array is now too long and refused, by name the value is silently ignored. Output, safe: new callers no longer send it, and the old plant did not require it.",
    }

    PARAM_BECAME_REQUIRED {
        id: "param-became-required",
        subject: "param",
        action: "narrow",
        input: Breaking,
        output: Safe,
        dual: "param-became-optional",
        witness: true,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "An optional param became required.",
        doc: "Old callers that leave it out are refused.",
    }

    PARAM_BECAME_OPTIONAL {
        id: "param-became-optional",
        subject: "param",
        action: "widen",
        input: Safe,
        output: Breaking,
        dual: "param-became-required",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A required param became optional.",
        doc: "Old callers always send it; new callers that leave it out are refused by an old plant.",
    }

    PARAMS_REORDERED {
        id: "params-reordered",
        subject: "param",
        action: "change",
        input: Breaking,
        output: Breaking,
        dual: "params-reordered",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A param moved to another position (reordered, or inserted before others).",
        doc: "By-position callers put their values at the old positions: each lands on the wrong param.",
    }

    LINK_REMOVED {
        id: "link-removed",
        subject: "link",
        action: "remove",
        input: Safe,
        output: Breaking,
        dual: "link-added",
        witness: false,
        story: Story::Fixed(LINK_STORY),
        advice: Advice::DeployOrder,
        purpose: "A method's link (format.md §5.11) was deleted.",
        doc: "Old callers still follow it: they take this call's result to the linked method, and nothing in the contract says that still works. The wire need not change at all, so no other rule sees it (the seed's silent removal): stop following the link in every caller first.",
    }

    LINK_ADDED {
        id: "link-added",
        subject: "link",
        action: "add",
        input: Risky,
        output: Safe,
        dual: "link-removed",
        witness: false,
        story: Story::Fixed(LINK_STORY),
        advice: Advice::DeployOrder,
        purpose: "A method gained a link.",
        doc: "Old callers do not know it; new callers that follow it against an old plant rely on a flow the old plant never promised.",
    }

    LINK_RETARGETED {
        id: "link-retargeted",
        subject: "link",
        action: "change",
        input: Breaking,
        output: Breaking,
        dual: "link-retargeted",
        witness: false,
        story: Story::Fixed(LINK_STORY),
        advice: Advice::Fixed(super::NEW_NAME_ADVICE),
        purpose: "A link now leads to another method (its `method` or `namespace` changed).",
        doc: "The link keeps its name and changes its meaning: callers of either version send this call's values to a method the other version does not mean. The seed: never redefine a name in place.",
    }

    LINK_PARAMS_CHANGED {
        id: "link-params-changed",
        subject: "link",
        action: "change",
        input: Risky,
        output: Risky,
        dual: "link-params-changed",
        witness: false,
        story: Story::Fixed(LINK_STORY),
        advice: Advice::Fixed(super::NEW_NAME_ADVICE),
        purpose: "A link gives its method other params: one added, removed, or taken from elsewhere.",
        doc: "Callers following the link send the linked method other values than before; whether the plant answers them as before cannot be proven from the contract. A change of the result or params the expression reads is reported on its own.",
    }

    CAUSE_REMOVED {
        id: "cause-removed",
        subject: "cause",
        action: "remove",
        input: Safe,
        output: Breaking,
        dual: "cause-added",
        witness: false,
        story: Story::Fixed(CAUSE_STORY),
        advice: Advice::DeployOrder,
        purpose: "A method no longer says it causes an event (format.md §5.12).",
        doc: "Old subscribers wait for the event after the call, as for a removed event; nothing on the wire need change for it, so no other rule sees it.",
    }

    CAUSE_ADDED {
        id: "cause-added",
        subject: "cause",
        action: "add",
        input: Risky,
        output: Safe,
        dual: "cause-removed",
        witness: false,
        story: Story::Fixed(CAUSE_STORY),
        advice: Advice::DeployOrder,
        purpose: "A method says it causes an event it did not name before.",
        doc: "Old subscribers do not wait for it; new subscribers of an old plant may wait for it in vain.",
    }
}

/// Who reads a link: callers that chain calls (conform's flows, the console, client code).
const LINK_STORY: &str = "A link is the plant's promise that this call's params or result are what the linked method takes; callers that chain calls (client code, conform's flows, the console) act on it, so they are its readers and the plant its writer.";

/// Who reads a cause: subscribers that wait for the event after the call.
const CAUSE_STORY: &str = "A cause is the plant's promise that this call may send the event; subscribers that wait for it after the call (client code, conform's flows) are its readers and the plant its writer.";
