//! The rule registry: every rule the comparison emits, as data. A rule's verdict is a level per
//! polarity; the engine never decides a level itself, it only names the rule.

use std::fmt;

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Cosmetic or not applicable.
    None,
    /// Compatible; worth a changelog line.
    Safe,
    /// May break some readers (strict or generated ones), or cannot be proven either way.
    Risky,
    /// Breaks readers or writers that keep running.
    Breaking,
}

impl Level {
    /// The level as written in reports and options.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::None => "none",
            Level::Safe => "safe",
            Level::Risky => "risky",
            Level::Breaking => "breaking",
        }
    }

    /// The level named `text`.
    pub fn from_name(text: &str) -> Option<Level> {
        [Level::None, Level::Safe, Level::Risky, Level::Breaking]
            .into_iter()
            .find(|l| l.as_str() == text)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which way values flow through a position, seen from the change.
///
/// `Input`: the old side writes and the new side reads (params: callers write, the plant
/// reads), so a change is safe when the new type admits everything the old one did.
/// `Output`: the new side writes and the old side reads (results, event payloads, error data),
/// so a change is safe when the new type admits nothing the old one did not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Polarity {
    /// Old writes, new reads.
    Input,
    /// New writes, old reads.
    Output,
}

impl Polarity {
    /// The other polarity: what the same change is to the other pairing.
    pub fn flip(self) -> Polarity {
        match self {
            Polarity::Input => Polarity::Output,
            Polarity::Output => Polarity::Input,
        }
    }
}

/// What kind of rule it is; the duality property holds for [`Category::Structural`] rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Category {
    /// Namespaces, methods, events, errors and params lists.
    Surface,
    /// Type shape, constraints and attributes: judged by set inclusion under a polarity.
    Structural,
    /// How callers reach the plant (the `wire` section): wire names, the describe method,
    /// protocol codes, subscription routes.
    Wire,
    /// Removal discipline: deprecate first, reserve afterwards, never reuse; rename hints.
    Lifecycle,
    /// The contract-version policy.
    Policy,
}

impl Category {
    fn as_str(self) -> &'static str {
        match self {
            Category::Surface => "surface",
            Category::Structural => "structural",
            Category::Wire => "wire",
            Category::Lifecycle => "lifecycle",
            Category::Policy => "policy",
        }
    }
}

/// One rule of the registry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    /// Stable id; fixtures live in `fixtures/diff/<id>/`.
    pub id: &'static str,
    /// One line: what the rule is about.
    pub purpose: &'static str,
    /// What it covers: namespace, method, event, error, param, field, type, constraint,
    /// attribute, version, wire, code.
    pub subject: &'static str,
    /// The change: add, remove, change, widen, narrow, set, unset, reuse, rename.
    pub action: &'static str,
    /// The level when the side that wrote before the change still writes (params).
    pub input: Level,
    /// The level when the side that reads before the change still reads (results, events).
    pub output: Level,
    /// The kind of rule.
    pub category: Category,
    /// The rule emitted for the same change with old and new swapped (for structural rules);
    /// the registry test holds `input == dual.output` and `output == dual.input`.
    pub dual: &'static str,
    /// Whether a witness value is sought for its findings.
    pub witness: bool,
    /// Why the levels are what they are.
    pub doc: &'static str,
}

impl Rule {
    /// The rule's level under `polarity`.
    pub fn level(&self, polarity: Polarity) -> Level {
        match polarity {
            Polarity::Input => self.input,
            Polarity::Output => self.output,
        }
    }
}

use Category::{Lifecycle, Policy, Structural, Surface, Wire};
use Level::{Breaking as B, Risky as K, Safe as S};

macro_rules! rule {
    ($id:literal, $cat:expr, $subject:literal, $action:literal, $input:expr, $output:expr, $dual:literal, $witness:literal, $purpose:literal, $doc:literal) => {
        Rule {
            id: $id,
            purpose: $purpose,
            subject: $subject,
            action: $action,
            input: $input,
            output: $output,
            category: $cat,
            dual: $dual,
            witness: $witness,
            doc: $doc,
        }
    };
}

/// Every rule, grouped as docs/compat-rules.md lists them.
pub const RULES: &[Rule] = &[
    // Surface.
    rule!(
        "namespace-removed",
        Surface,
        "namespace",
        "remove",
        B,
        S,
        "namespace-added",
        false,
        "A namespace was deleted.",
        "Old callers still call its methods; the new plant answers method-not-found."
    ),
    rule!(
        "namespace-added",
        Surface,
        "namespace",
        "add",
        S,
        B,
        "namespace-removed",
        false,
        "A namespace was added.",
        "Safe for old callers; new callers that use it against an old plant get method-not-found, so deploy the plant first."
    ),
    rule!(
        "method-removed",
        Surface,
        "method",
        "remove",
        B,
        S,
        "method-added",
        false,
        "A method was deleted.",
        "Old callers still call it. Deprecate it, wait until no caller uses it, then remove it and reserve its name."
    ),
    rule!(
        "method-added",
        Surface,
        "method",
        "add",
        S,
        B,
        "method-removed",
        false,
        "A method was added.",
        "Safe for old callers; new callers calling it on an old plant get method-not-found: deploy the plant first."
    ),
    rule!(
        "event-removed",
        Surface,
        "event",
        "remove",
        S,
        B,
        "event-added",
        false,
        "An event was deleted.",
        "Old subscribers wait for notifications that never come (event payloads are output: the plant writes)."
    ),
    rule!(
        "event-added",
        Surface,
        "event",
        "add",
        K,
        S,
        "event-removed",
        false,
        "An event was added.",
        "Old subscribers never ask for it; new subscribers of an old plant wait for it in vain."
    ),
    rule!(
        "semantics-changed",
        Surface,
        "method",
        "change",
        B,
        B,
        "semantics-changed",
        false,
        "A method's declared semantics changed (read became write, …).",
        "What calling a method does is part of its meaning: callers that treat a read as free to repeat, or ask before a destructive call, act on the declared value. A new meaning needs a new method name."
    ),
    rule!(
        "deprecated-added",
        Surface,
        "attribute",
        "set",
        S,
        S,
        "deprecated-removed",
        false,
        "An element became deprecated.",
        "Information for callers; nothing on the wire changes."
    ),
    rule!(
        "deprecated-removed",
        Surface,
        "attribute",
        "unset",
        S,
        S,
        "deprecated-added",
        false,
        "An element is no longer deprecated.",
        "Information for callers; nothing on the wire changes."
    ),
    rule!(
        "error-code-added",
        Surface,
        "error",
        "add",
        S,
        K,
        "error-code-removed",
        false,
        "A method declares a new error code.",
        "Old callers may not handle the new code (error data is output: the plant writes)."
    ),
    rule!(
        "error-code-removed",
        Surface,
        "error",
        "remove",
        K,
        S,
        "error-code-added",
        false,
        "A method no longer declares an error code.",
        "Old callers' handling of it becomes dead code; new callers of an old plant may meet it unhandled."
    ),
    rule!(
        "param-structure-narrowed",
        Surface,
        "method",
        "narrow",
        B,
        S,
        "param-structure-widened",
        false,
        "`paramStructure` became `by-name` or `by-position` where it was `either`.",
        "Old callers sending the other form are refused."
    ),
    rule!(
        "param-structure-widened",
        Surface,
        "method",
        "widen",
        S,
        B,
        "param-structure-narrowed",
        false,
        "`paramStructure` became `either`.",
        "The new plant accepts both forms; new callers using the new form against an old plant are refused."
    ),
    rule!(
        "param-structure-changed",
        Surface,
        "method",
        "change",
        B,
        B,
        "param-structure-changed",
        false,
        "`paramStructure` switched between `by-name` and `by-position`.",
        "Every caller's form is refused by the other side."
    ),
    rule!(
        "param-added-required",
        Surface,
        "param",
        "add",
        B,
        S,
        "param-removed",
        true,
        "A required param was added.",
        "Old callers never send it, so the new plant refuses every call they make. Add it optional with a defined absent case."
    ),
    rule!(
        "param-added-optional",
        Surface,
        "param",
        "add",
        S,
        K,
        "param-removed",
        false,
        "An optional param was added.",
        "Old callers do not send it; new callers sending it to an old plant are ignored (by name) or refused (by position)."
    ),
    rule!(
        "request-option-without-ack",
        Surface,
        "param",
        "add",
        K,
        K,
        "request-option-without-ack",
        false,
        "An optional param was added and the result gains no field that only a plant implementing it produces.",
        "An old plant ignores the option and answers the ordinary success: the caller cannot tell done from ignored. Add a result field derived from the outcome."
    ),
    rule!(
        "param-removed",
        Surface,
        "param",
        "remove",
        B,
        S,
        "param-added-required",
        false,
        "A param was deleted.",
        "Old callers still send it: by position their array is now too long and refused, by name the value is silently ignored."
    ),
    rule!(
        "param-became-required",
        Surface,
        "param",
        "narrow",
        B,
        S,
        "param-became-optional",
        true,
        "An optional param became required.",
        "Old callers that leave it out are refused."
    ),
    rule!(
        "param-became-optional",
        Surface,
        "param",
        "widen",
        S,
        B,
        "param-became-required",
        false,
        "A required param became optional.",
        "Old callers always send it; new callers that leave it out are refused by an old plant."
    ),
    rule!(
        "params-reordered",
        Surface,
        "param",
        "change",
        B,
        B,
        "params-reordered",
        false,
        "A param moved to another position (reordered, or inserted before others).",
        "By-position callers put their values at the old positions: each lands on the wrong param."
    ),
    // Fields.
    rule!(
        "required-field-added",
        Structural,
        "field",
        "add",
        B,
        S,
        "required-field-removed",
        true,
        "A required field was added to an object.",
        "Writers that predate it never send it; readers that require it refuse them. Safe in output: readers ignore unknown members."
    ),
    rule!(
        "required-field-removed",
        Structural,
        "field",
        "remove",
        S,
        B,
        "required-field-added",
        true,
        "A required field was removed from an object.",
        "Readers that predate the change still require it; writers that dropped it are refused. In input the new reader ignores it."
    ),
    rule!(
        "optional-field-added",
        Structural,
        "field",
        "add",
        S,
        S,
        "optional-field-removed",
        false,
        "An optional field was added to an open object.",
        "Old writers never send it and the new reader tolerates its absence; old readers ignore it."
    ),
    rule!(
        "optional-field-removed",
        Structural,
        "field",
        "remove",
        S,
        S,
        "optional-field-added",
        false,
        "An optional field was removed from an open object.",
        "Readers ignore what they do not know and tolerate what is absent. See the lifecycle rules for what removal still demands."
    ),
    rule!(
        "field-added-to-closed-object",
        Structural,
        "field",
        "add",
        S,
        B,
        "field-removed-from-closed-object",
        true,
        "A field was added to an object whose old version is closed.",
        "An old reader of a closed object refuses every member it does not declare."
    ),
    rule!(
        "field-removed-from-closed-object",
        Structural,
        "field",
        "remove",
        B,
        S,
        "field-added-to-closed-object",
        true,
        "A field was removed from an object whose new version is closed.",
        "Old writers still send it; the new closed reader refuses the unknown member."
    ),
    rule!(
        "field-became-required",
        Structural,
        "field",
        "narrow",
        B,
        S,
        "field-became-optional",
        true,
        "An optional field became required.",
        "Writers that leave it out are refused by the new reader."
    ),
    rule!(
        "field-became-optional",
        Structural,
        "field",
        "widen",
        S,
        B,
        "field-became-required",
        true,
        "A required field became optional.",
        "Old readers still require it; a new writer may leave it out."
    ),
    rule!(
        "object-closed",
        Structural,
        "type",
        "narrow",
        B,
        S,
        "object-opened",
        true,
        "An object became closed (`closed: true`).",
        "Writers that send members the object does not declare are refused."
    ),
    rule!(
        "object-opened",
        Structural,
        "type",
        "widen",
        S,
        B,
        "object-closed",
        true,
        "An object is no longer closed.",
        "Old readers of the closed object refuse members a new writer may add."
    ),
    // Kinds.
    rule!(
        "type-changed",
        Structural,
        "type",
        "change",
        B,
        B,
        "type-changed",
        true,
        "A type changed to an unrelated kind (string → integer, object → array).",
        "No value of one is a value of the other: every reader refuses every writer."
    ),
    rule!(
        "type-widened",
        Structural,
        "type",
        "widen",
        S,
        B,
        "type-narrowed",
        true,
        "A type admits more values (integer → number, literal → its kind, enum → string).",
        "The new reader accepts what old writers send; old readers refuse what a new writer may send."
    ),
    rule!(
        "type-narrowed",
        Structural,
        "type",
        "narrow",
        B,
        S,
        "type-widened",
        true,
        "A type admits fewer values (number → integer, string → literal).",
        "Old writers send values the new reader refuses."
    ),
    rule!(
        "nullable-added",
        Structural,
        "type",
        "widen",
        S,
        B,
        "nullable-removed",
        true,
        "A type now admits `null` (T → T | null).",
        "Old readers do not expect null."
    ),
    rule!(
        "nullable-removed",
        Structural,
        "type",
        "narrow",
        B,
        S,
        "nullable-added",
        true,
        "A type no longer admits `null`.",
        "Old writers that send null are refused."
    ),
    rule!(
        "union-variant-added",
        Structural,
        "type",
        "widen",
        S,
        B,
        "union-variant-removed",
        true,
        "A union gained a variant (or a type became a union).",
        "Old readers do not know the new variant."
    ),
    rule!(
        "union-variant-removed",
        Structural,
        "type",
        "narrow",
        B,
        S,
        "union-variant-added",
        true,
        "A union lost a variant.",
        "Old writers that send that variant are refused."
    ),
    rule!(
        "union-discriminator-changed",
        Structural,
        "type",
        "change",
        B,
        B,
        "union-discriminator-changed",
        true,
        "A union's discriminator member changed.",
        "Readers pick the variant by the old tag member; every tagged value is read wrongly or refused."
    ),
    rule!(
        "enum-value-added",
        Structural,
        "type",
        "widen",
        S,
        K,
        "enum-value-removed",
        true,
        "An enum gained a value, and its reader-side declaration is closed.",
        "An old reader has no branch for the value. Risky rather than breaking in output: many callers decode enums leniently; declare the enum `open` to promise a branch."
    ),
    rule!(
        "enum-value-removed",
        Structural,
        "type",
        "narrow",
        K,
        S,
        "enum-value-added",
        true,
        "An enum lost a value, and its reader-side declaration is closed.",
        "The dual of `enum-value-added` (the duality property fixes its level in input to the other's level in output): old writers may still send the value; the new reader's validator refuses it. Reserve the value."
    ),
    rule!(
        "open-enum-value-added",
        Structural,
        "type",
        "widen",
        S,
        S,
        "open-enum-value-removed",
        false,
        "An enum declared `open` on the reader side gained a value.",
        "`open: true` promises that every reader has a branch for values it does not know."
    ),
    rule!(
        "open-enum-value-removed",
        Structural,
        "type",
        "narrow",
        S,
        S,
        "open-enum-value-added",
        false,
        "An enum declared `open` on the reader side lost a value.",
        "The reader promised a branch for values it does not list."
    ),
    rule!(
        "literal-changed",
        Structural,
        "type",
        "change",
        B,
        B,
        "literal-changed",
        true,
        "A literal's value changed.",
        "The two types share no value."
    ),
    rule!(
        "became-enumerated",
        Structural,
        "type",
        "narrow",
        B,
        S,
        "type-widened",
        true,
        "A free string became an enum.",
        "Old writers send strings the enum does not list."
    ),
    rule!(
        "to-any",
        Structural,
        "type",
        "widen",
        S,
        B,
        "from-any",
        true,
        "A type became `any`.",
        "Old readers refuse what a new writer may now send."
    ),
    rule!(
        "from-any",
        Structural,
        "type",
        "narrow",
        B,
        S,
        "to-any",
        true,
        "An `any` became a specific type.",
        "Old writers may send anything."
    ),
    rule!(
        "tuple-length-changed",
        Structural,
        "type",
        "change",
        B,
        B,
        "tuple-length-changed",
        true,
        "A tuple gained or lost elements.",
        "A tuple admits exactly its length: no value of one length is valid for the other."
    ),
    rule!(
        "array-to-tuple",
        Structural,
        "type",
        "narrow",
        B,
        S,
        "tuple-to-array",
        true,
        "An array became a tuple.",
        "Old writers send arrays of any length the array admits; the new reader takes exactly the tuple's length. Old readers take a tuple as an array, so the new writer is safe when the tuple's length lies within the array's bounds (else `tuple-length-changed`) and each element is an item they admit (compared element by element). An array whose length was fixed at the tuple's is the same JSON and is not reported."
    ),
    rule!(
        "tuple-to-array",
        Structural,
        "type",
        "widen",
        S,
        B,
        "array-to-tuple",
        true,
        "A tuple became an array.",
        "The new reader takes every tuple old writers send when the tuple's length lies within the array's bounds (else `tuple-length-changed`) and each element is an item it admits (compared element by element). A new writer may send arrays of other lengths, which old readers refuse. An array whose length is fixed at the tuple's is the same JSON and is not reported."
    ),
    rule!(
        "object-to-map",
        Structural,
        "type",
        "change",
        K,
        K,
        "map-to-object",
        false,
        "An object became a map.",
        "The JSON may be the same, but generated code changes shape and the field rules are gone."
    ),
    rule!(
        "map-to-object",
        Structural,
        "type",
        "change",
        K,
        K,
        "object-to-map",
        false,
        "A map became an object.",
        "The JSON may be the same, but generated code changes shape."
    ),
    // Constraints.
    rule!(
        "bound-tightened",
        Structural,
        "constraint",
        "narrow",
        B,
        S,
        "bound-loosened",
        true,
        "A bound was tightened (min raised, max lowered, multipleOf made coarser).",
        "Old writers send values the new bound refuses."
    ),
    rule!(
        "bound-loosened",
        Structural,
        "constraint",
        "widen",
        S,
        B,
        "bound-tightened",
        true,
        "A bound was loosened (min lowered, max raised).",
        "Old readers refuse values a new writer may send past the old bound."
    ),
    rule!(
        "bound-added",
        Structural,
        "constraint",
        "set",
        B,
        S,
        "bound-removed",
        true,
        "A bound was set where there was none (min, max, lengths, item counts, uniqueItems).",
        "Old writers send values the new bound refuses."
    ),
    rule!(
        "bound-removed",
        Structural,
        "constraint",
        "unset",
        S,
        B,
        "bound-added",
        true,
        "A bound was removed.",
        "Old readers refuse values past the old bound."
    ),
    rule!(
        "multiple-of-changed",
        Structural,
        "constraint",
        "change",
        B,
        B,
        "multiple-of-changed",
        true,
        "`multipleOf` changed to a value that neither divides nor is divided by the old one.",
        "Each side admits values the other refuses."
    ),
    rule!(
        "pattern-added",
        Structural,
        "constraint",
        "set",
        B,
        S,
        "pattern-removed",
        true,
        "A `pattern` was set.",
        "Old writers send strings that do not match."
    ),
    rule!(
        "pattern-removed",
        Structural,
        "constraint",
        "unset",
        S,
        B,
        "pattern-added",
        true,
        "A `pattern` was removed.",
        "Old readers refuse strings that do not match the old pattern."
    ),
    rule!(
        "pattern-changed",
        Structural,
        "constraint",
        "change",
        K,
        K,
        "pattern-changed",
        true,
        "A `pattern` changed.",
        "Inclusion between two patterns is not proven; a witness shows a string one side refuses."
    ),
    rule!(
        "format-added",
        Structural,
        "constraint",
        "set",
        K,
        S,
        "format-removed",
        true,
        "A `format` was set.",
        "Old writers may send strings not in the format."
    ),
    rule!(
        "format-removed",
        Structural,
        "constraint",
        "unset",
        S,
        K,
        "format-added",
        false,
        "A `format` was removed.",
        "Old readers may parse the value in the old format."
    ),
    rule!(
        "format-changed",
        Structural,
        "constraint",
        "change",
        B,
        B,
        "format-changed",
        true,
        "A `format` changed (date → date-time, uuid → uri).",
        "The two formats admit different strings, and readers parse them differently."
    ),
    rule!(
        "unit-changed",
        Structural,
        "attribute",
        "change",
        B,
        B,
        "unit-changed",
        false,
        "A number's `unit` changed (ms → s).",
        "A silent semantic break: the JSON is identical and every reader misreads it. Add a new field with a new name."
    ),
    rule!(
        "unit-added",
        Structural,
        "attribute",
        "set",
        S,
        S,
        "unit-removed",
        false,
        "A number gained a `unit`.",
        "Information; the values do not change."
    ),
    rule!(
        "unit-removed",
        Structural,
        "attribute",
        "unset",
        S,
        S,
        "unit-added",
        false,
        "A number lost its `unit`.",
        "Information; the values do not change."
    ),
    rule!(
        "default-changed",
        Structural,
        "attribute",
        "change",
        B,
        B,
        "default-changed",
        false,
        "A `default` changed.",
        "A value left out now means something else: in params old callers that omit it get new behaviour; in results old callers fill in the old default."
    ),
    rule!(
        "default-added",
        Structural,
        "attribute",
        "set",
        S,
        K,
        "default-removed",
        false,
        "A `default` was set.",
        "In params it defines what absence means; in results old callers do not know what a left-out value now stands for."
    ),
    rule!(
        "default-removed",
        Structural,
        "attribute",
        "unset",
        K,
        S,
        "default-added",
        false,
        "A `default` was removed.",
        "Old callers that omit the value relied on the default."
    ),
    // Wire: how callers reach the plant (docs/format.md §15). Names are written by callers
    // and answered by the plant (input); protocol codes are written by the plant and read by
    // callers (output).
    rule!(
        "wire-name-changed",
        Wire,
        "method",
        "rename",
        B,
        B,
        "wire-name-changed",
        false,
        "A method's wire name changed (a `wire.methods` entry): a rename on the wire.",
        "Input, breaking: old callers call the old name, which the new plant does not answer (method-not-found). Output, breaking: new callers call the new name, which the old plant does not answer. The contract's name `ns.method` is unchanged, but no caller reaches the method by it."
    ),
    rule!(
        "wire-separator-changed",
        Wire,
        "namespace",
        "rename",
        B,
        B,
        "wire-separator-changed",
        false,
        "A namespace's wire separator changed: every method and subscription name derived from it is renamed. Reported once per namespace, with how many names it renames and an example.",
        "Breaking both ways, as for `wire-name-changed`: old callers call the old names on the new plant, new callers the new names on the old plant. A method whose wire name is given by name (`wire.methods`) is not renamed by the separator and is not counted."
    ),
    rule!(
        "describe-method-renamed",
        Wire,
        "wire",
        "rename",
        K,
        K,
        "describe-method-renamed",
        false,
        "The describe method is called by another name.",
        "Input, risky: old callers that ask the plant for its description (a compatibility check with `builtAgainst`, `accord conform`) get method-not-found from the new plant. Output, risky: new callers get it from the old plant. Risky, not breaking: the describe method is the protocol's, not a contract method, and a caller that does without it loses the check, not its work; a caller that refuses to start without it breaks."
    ),
    rule!(
        "describe-method-removed",
        Wire,
        "wire",
        "remove",
        K,
        S,
        "describe-method-added",
        false,
        "The plant no longer answers a describe method (`describe: false`).",
        "Input, risky: old callers that call the describe method get method-not-found from the new plant, and lose their compatibility check (see `describe-method-renamed` for why risky). Output, safe: new callers call no describe method, so the old plant's one goes unused."
    ),
    rule!(
        "describe-method-added",
        Wire,
        "wire",
        "add",
        S,
        K,
        "describe-method-removed",
        false,
        "The plant answers a describe method it did not answer before.",
        "Input, safe: old callers did not call one. Output, risky: new callers that call it get method-not-found from the old plant: deploy the plant first."
    ),
    rule!(
        "codes-profile-changed",
        Wire,
        "code",
        "change",
        B,
        B,
        "codes-profile-changed",
        false,
        "The wire's codes profile changed (`wire.codes.profile`). Reported once, naming the protocol codes whose meaning the profile change moves; codes the contract sets itself are reported by the other code rules.",
        "Protocol codes are written by the plant and read by callers. Output, breaking: old callers read the new plant's codes with the old meanings (EIP-1474's `-32000` \"invalid input\" read as jsonrpsee's \"call execution failed\"), and a missing method or refused params are no longer recognised. Input, breaking: new callers read the old plant's codes with the new meanings."
    ),
    rule!(
        "protocol-code-meaning-changed",
        Wire,
        "code",
        "change",
        B,
        B,
        "protocol-code-meaning-changed",
        false,
        "A protocol code means something else: its reserved meaning, or its role (method not found, invalid params, limit, credentials) changed.",
        "Output, breaking: old callers read the new plant's code with the old meaning (a limit taken for a missing method, a refused param for a missing resource). Input, breaking: new callers read the old plant's code with the new meaning."
    ),
    rule!(
        "protocol-code-added",
        Wire,
        "code",
        "add",
        S,
        K,
        "protocol-code-removed",
        false,
        "A code gained a protocol meaning (a reserved code, or a new method-not-found, invalid-params or limit code).",
        "Output, risky: the new plant may send it for its own reasons, and old callers that do not know it take it for an unknown error, or for a declared error that uses the same code. Input, safe: the old plant never sends it with that meaning."
    ),
    rule!(
        "protocol-code-removed",
        Wire,
        "code",
        "remove",
        K,
        S,
        "protocol-code-added",
        false,
        "A code lost its protocol meaning.",
        "Output, safe: the new plant no longer sends it for its own reasons, and old callers' handling of it goes unused. Input, risky: the old plant still sends it, and new callers no longer know what it means."
    ),
    rule!(
        "subscription-route-changed",
        Wire,
        "event",
        "change",
        B,
        B,
        "subscription-route-changed",
        false,
        "How an event is subscribed changed: the subscribe, notification or unsubscribe name, the selecting params, or accord's style ↔ pubsub.",
        "Input, breaking: old subscribers subscribe by the old route, which the new plant does not answer, or wait for notifications under a name it no longer sends. Output, breaking: new subscribers do the same against the old plant. A change explained by a separator change alone is counted in `wire-separator-changed` instead."
    ),
    // Lifecycle.
    rule!(
        "removed-without-deprecation",
        Lifecycle,
        "field",
        "remove",
        K,
        K,
        "",
        false,
        "A method, event, param, field or type was removed without being deprecated first.",
        "Deprecate, stop writing, then remove in a later release."
    ),
    rule!(
        "removed-without-reserving",
        Lifecycle,
        "field",
        "remove",
        K,
        K,
        "",
        false,
        "A name was removed but not added to `reserved`.",
        "Reserve what you remove: old data and old callers still carry the name, and a new element wearing it would be read with the wrong meaning."
    ),
    rule!(
        "reserved-name-reused",
        Lifecycle,
        "field",
        "reuse",
        B,
        B,
        "",
        false,
        "A field, enum value, method, event or type uses a reserved name.",
        "Archived data and old callers carry the name with its old meaning."
    ),
    rule!(
        "reserved-name-removed",
        Lifecycle,
        "reserved",
        "remove",
        K,
        K,
        "",
        false,
        "A name was dropped from `reserved`.",
        "The reservation is what stops a later change from giving the name a new meaning while archived data and old callers still carry the old one."
    ),
    rule!(
        "probable-rename",
        Lifecycle,
        "field",
        "rename",
        B,
        B,
        "",
        false,
        "A removal and an addition of the same shape: probably a rename.",
        "There is no atomic rename across deploy units: expand (add the new name), migrate (write both, switch readers), contract (remove the old name and reserve it)."
    ),
    // Policy.
    rule!(
        "version-not-bumped",
        Policy,
        "version",
        "change",
        B,
        B,
        "",
        false,
        "A namespace's contract version was not bumped as its changes require.",
        "A breaking change needs a major bump, an additive one a minor bump; in 0.x a breaking change needs a minor bump and an additive one a patch bump."
    ),
];

/// The rule with `id`.
pub fn rule(id: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.id == id)
}

/// The registry as markdown: the text of docs/compat-rules.md.
pub fn rules_markdown() -> String {
    let mut out = String::from(
        "# Compatibility rules\n\n\
         <!-- Generated from crates/compat-diff/src/rules.rs (`rules_markdown`); do not edit. -->\n\n\
         `accord diff OLD NEW` compares two contracts. Every position has a writer and a reader:\n\
         params are written by callers and read by the plant (**input**: safe when the new type\n\
         admits everything the old one did); results, event payloads and error data are written by\n\
         the plant and read by callers (**output**: safe when the new type admits nothing the old one\n\
         did not). Nested positions inherit the polarity; a named type reached from both is checked\n\
         under both.\n\n\
         Two pairings exist during a rollout or a rollback and are judged apart: **old callers × new\n\
         plant** (the level in the column of the position's polarity) and **new callers × old plant**\n\
         (the level in the other column). The exit code follows the first pairing; the second is\n\
         reported when it is risky or breaking, and decides the rollout advice.\n\n\
         Contract-version policy, per namespace: a breaking change needs a major bump of `version`, an\n\
         additive (safe or risky) one a minor bump. In 0.x a breaking change needs a minor bump and an\n\
         additive one a patch bump. `version-not-bumped` states the least next version. The wire's\n\
         plant-wide members (`describe`, `codes`) belong to no namespace and ask for no bump. A `schema`\n\
         (format version) difference is reported apart and is never a contract change.\n\n\
         | rule | category | subject | action | input | output | purpose |\n\
         | --- | --- | --- | --- | --- | --- | --- |\n",
    );
    for r in RULES {
        out.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | {} | {} |\n",
            r.id,
            r.category.as_str(),
            r.subject,
            r.action,
            r.input,
            r.output,
            r.purpose
        ));
    }
    out.push_str("\n## Rules\n");
    for r in RULES {
        out.push_str(&format!(
            "\n### `{}`\n\n{}\n\nInput: {}. Output: {}. {}\n\nFixture: `fixtures/diff/{}/`.\n",
            r.id, r.purpose, r.input, r.output, r.doc, r.id
        ));
    }
    out.push_str(NOT_COVERED);
    out
}

/// The reference table's rules (design/compat-rules.md) that have no id here, and why: either
/// the format has nothing they could apply to, another rule covers them, or they are not done
/// yet (and then they say so).
const NOT_COVERED: &str = "
## Reference rules without an id of their own

| reference rule | why |
| --- | --- |
| `stability-decreased`, `unstable-scope` | does not apply: schema 1 has no stability attribute (a later additive member may add one) |
| `deprecated-field-removed-before-sunset` | does not apply: schema 1 has no sunset date; `removed-without-deprecation` covers removal of what was never deprecated |
| `idempotent-removed`, `readonly-removed` | covered by `semantics-changed`, which grades every move between read, idempotent, write, destructive and undeclared |
| `method-renamed`, `event-renamed`, `field-renamed` | covered by `probable-rename` (a removal and an addition of the same shape); schema 1 has no `renamedFrom` to declare one |
| `positional-optional-appended` / `positional-required-appended` | covered by `param-added-optional` and `param-added-required` (params are positional and named at once) |
| `exclusivity-changed` | covered by `bound-tightened` / `bound-loosened`: a bound that moved between `min` and `exclusiveMin` (or `max` and `exclusiveMax`) is one graded finding (`fixtures/diff/bound-tightened.exclusive/`), not a bound removed plus a bound added |
| `unique-items-added` / `unique-items-removed` | covered by `bound-added` / `bound-removed`: `uniqueItems` is a constraint set or unset |
| `map-key-type-changed` | key types are compared with the map's polarity by the structural comparison, under the rules of their kind (bounds, patterns, formats) |
| `ref-renamed-same-shape`, `ref-retargeted` | refs are resolved and compared structurally: a renamed type with the same shape is no wire change |
| `description/title/examples-changed` | level none: not reported |
";
