//! The kinds of failure, each with a stable id: reports group by them and scripts match on them.

/// What a failed check found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum FailureKind {
    /// The connection failed, or the transport reported another failure.
    Transport,
    /// No answer came within the timeout (`--timeout`); the message says how long was waited.
    Timeout,
    /// The body is not a JSON-RPC response (not JSON, no `jsonrpc`, neither `result` nor `error`).
    MalformedResponse,
    /// The response answers another id.
    WrongId,
    /// The HTTP status is not the one docs/wire.md §1 gives for the answer.
    HttpStatus,
    /// A request expected an answer and got none.
    NoAnswer,
    /// A notification, which must never be answered, was answered.
    AnsweredNotification,
    /// A malformed or invalid request, an unknown method or a batch answered other than
    /// JSON-RPC 2.0 says.
    Envelope,
    /// A method of the contract is not served (one of the plant's method-not-found codes,
    /// `-32601`): reported once per method, its other checks skipped.
    MethodMissing,
    /// None of a method's positive calls returned a result: a plant that answers every call
    /// with an error (declared or not) does not keep its contract.
    NoResult,
    /// An example whose documented answer is a result got an error.
    ExampleRefused,
    /// A declared error code with a `message` other than the contract's.
    WrongErrorMessage,
    /// A result that does not validate against the method's result type.
    ResultInvalid,
    /// A declared error whose `data` does not validate against its type.
    ErrorDataInvalid,
    /// An error the method does not declare, for valid params.
    UndeclaredError,
    /// Valid params refused with `-32602`.
    ValidParamsRefused,
    /// Invalid params answered with a result.
    AcceptedInvalidParams,
    /// Invalid params refused, but not with the expected code.
    WrongErrorCode,
    /// `rpc.describe` answered something that is not a describe answer.
    DescribeInvalid,
    /// The described contract differs from the given one.
    DescribeDiffers,
    /// Without a credential the plant gave more than the reduced describe and `-32001`.
    CredentialNotRequired,
    /// The right credential was refused.
    RightCredentialRefused,
    /// The plant wants a credential and none was given (no `--token-file`).
    CredentialMissing,
    /// A wrong credential was answered as if no credential had been sent.
    WrongCredentialDowngraded,
    /// A wrong credential was answered as if it were right.
    WrongCredentialAccepted,
    /// A refusal of a wrong credential without the status, header or body of docs/wire.md §8.
    RefusalShape,
    /// A subscription that could not be made or ended.
    Subscription,
    /// A notification that is not shaped as docs/wire.md §7 says, or names another event or
    /// subscription.
    EventInvalid,
    /// An event payload that does not validate against the event's payload type.
    EventPayloadInvalid,
    /// Events the plant said it emitted never arrived.
    EventMissing,
    /// A step of a flow answered an error (even a declared one), or its params could not be
    /// made from the link before it.
    FlowStep,
}

impl FailureKind {
    /// What a refusal for want of a credential is: the right credential refused when one was
    /// sent, a missing credential when the run has none.
    pub(crate) fn credential_refused(has_token: bool) -> FailureKind {
        if has_token { FailureKind::RightCredentialRefused } else { FailureKind::CredentialMissing }
    }

    /// The stable id.
    pub fn as_str(self) -> &'static str {
        match self {
            FailureKind::Transport => "transport",
            FailureKind::Timeout => "timeout",
            FailureKind::MalformedResponse => "malformed-response",
            FailureKind::WrongId => "wrong-id",
            FailureKind::HttpStatus => "http-status",
            FailureKind::NoAnswer => "no-answer",
            FailureKind::AnsweredNotification => "answered-notification",
            FailureKind::Envelope => "envelope",
            FailureKind::MethodMissing => "method-missing",
            FailureKind::NoResult => "no-result",
            FailureKind::ExampleRefused => "example-refused",
            FailureKind::WrongErrorMessage => "wrong-error-message",
            FailureKind::ResultInvalid => "result-invalid",
            FailureKind::ErrorDataInvalid => "error-data-invalid",
            FailureKind::UndeclaredError => "undeclared-error",
            FailureKind::ValidParamsRefused => "valid-params-refused",
            FailureKind::AcceptedInvalidParams => "accepted-invalid-params",
            FailureKind::WrongErrorCode => "wrong-error-code",
            FailureKind::DescribeInvalid => "describe-invalid",
            FailureKind::DescribeDiffers => "describe-differs",
            FailureKind::CredentialNotRequired => "credential-not-required",
            FailureKind::RightCredentialRefused => "right-credential-refused",
            FailureKind::CredentialMissing => "credential-missing",
            FailureKind::WrongCredentialDowngraded => "wrong-credential-downgraded",
            FailureKind::WrongCredentialAccepted => "wrong-credential-accepted",
            FailureKind::RefusalShape => "refusal-shape",
            FailureKind::Subscription => "subscription",
            FailureKind::EventInvalid => "event-invalid",
            FailureKind::EventPayloadInvalid => "event-payload-invalid",
            FailureKind::EventMissing => "event-missing",
            FailureKind::FlowStep => "flow-step",
        }
    }
}

/// One thing a check found wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Problem {
    /// What kind of failure.
    pub kind: FailureKind,
    /// What exactly, in a sentence.
    pub message: String,
}

impl Problem {
    pub(crate) fn new(kind: FailureKind, message: impl Into<String>) -> Problem {
        Problem { kind, message: message.into() }
    }
}
