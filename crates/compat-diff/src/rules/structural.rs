//! Structural rules: type shape, constraints and attributes, judged by set inclusion under a
//! polarity. Each has a dual (the rule for the same change with old and new swapped).

use super::Level::{Breaking, Risky, Safe};
use super::{Advice, Category, Story};

rules! {
    category: Category::Structural;

    REQUIRED_FIELD_ADDED {
        id: "required-field-added",
        subject: "field",
        action: "add",
        input: Breaking,
        output: Safe,
        dual: "required-field-removed",
        witness: true,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A required field was added to an object.",
        doc: "Writers that predate it never send it; readers that require it refuse them. Safe in output: readers ignore unknown members.",
    }

    REQUIRED_FIELD_REMOVED {
        id: "required-field-removed",
        subject: "field",
        action: "remove",
        input: Safe,
        output: Breaking,
        dual: "required-field-added",
        witness: true,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A required field was removed from an object.",
        doc: "Readers that predate the change still require it; writers that dropped it are refused. In input the new reader ignores it.",
    }

    OPTIONAL_FIELD_ADDED {
        id: "optional-field-added",
        subject: "field",
        action: "add",
        input: Safe,
        output: Safe,
        dual: "optional-field-removed",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "An optional field was added to an open object.",
        doc: "Old writers never send it and the new reader tolerates its absence; old readers ignore it.",
    }

    OPTIONAL_FIELD_REMOVED {
        id: "optional-field-removed",
        subject: "field",
        action: "remove",
        input: Safe,
        output: Safe,
        dual: "optional-field-added",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "An optional field was removed from an open object.",
        doc: "Readers ignore what they do not know and tolerate what is absent. See the lifecycle rules for what removal still demands.",
    }

    FIELD_ADDED_TO_CLOSED_OBJECT {
        id: "field-added-to-closed-object",
        subject: "field",
        action: "add",
        input: Safe,
        output: Breaking,
        dual: "field-removed-from-closed-object",
        witness: true,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A field was added to an object whose old version is closed.",
        doc: "An old reader of a closed object refuses every member it does not declare.",
    }

    FIELD_REMOVED_FROM_CLOSED_OBJECT {
        id: "field-removed-from-closed-object",
        subject: "field",
        action: "remove",
        input: Breaking,
        output: Safe,
        dual: "field-added-to-closed-object",
        witness: true,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A field was removed from an object whose new version is closed.",
        doc: "Old writers still send it; the new closed reader refuses the unknown member.",
    }

    FIELD_BECAME_REQUIRED {
        id: "field-became-required",
        subject: "field",
        action: "narrow",
        input: Breaking,
        output: Safe,
        dual: "field-became-optional",
        witness: true,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "An optional field became required.",
        doc: "Writers that leave it out are refused by the new reader.",
    }

    FIELD_BECAME_OPTIONAL {
        id: "field-became-optional",
        subject: "field",
        action: "widen",
        input: Safe,
        output: Breaking,
        dual: "field-became-required",
        witness: true,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A required field became optional.",
        doc: "Old readers still require it; a new writer may leave it out.",
    }

    OBJECT_CLOSED {
        id: "object-closed",
        subject: "type",
        action: "narrow",
        input: Breaking,
        output: Safe,
        dual: "object-opened",
        witness: true,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "An object became closed (`closed: true`).",
        doc: "Writers that send members the object does not declare are refused.",
    }

    OBJECT_OPENED {
        id: "object-opened",
        subject: "type",
        action: "widen",
        input: Safe,
        output: Breaking,
        dual: "object-closed",
        witness: true,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "An object is no longer closed.",
        doc: "Old readers of the closed object refuse members a new writer may add.",
    }

    TYPE_CHANGED {
        id: "type-changed",
        subject: "type",
        action: "change",
        input: Breaking,
        output: Breaking,
        dual: "type-changed",
        witness: true,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A type changed to an unrelated kind (string → integer, object → array).",
        doc: "No value of one is a value of the other: every reader refuses every writer.",
    }

    TYPE_WIDENED {
        id: "type-widened",
        subject: "type",
        action: "widen",
        input: Safe,
        output: Breaking,
        dual: "type-narrowed",
        witness: true,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A type admits more values (integer → number, literal → its kind, enum → string).",
        doc: "The new reader accepts what old writers send; old readers refuse what a new writer may send.",
    }

    TYPE_NARROWED {
        id: "type-narrowed",
        subject: "type",
        action: "narrow",
        input: Breaking,
        output: Safe,
        dual: "type-widened",
        witness: true,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A type admits fewer values (number → integer, string → literal).",
        doc: "Old writers send values the new reader refuses.",
    }

    NULLABLE_ADDED {
        id: "nullable-added",
        subject: "type",
        action: "widen",
        input: Safe,
        output: Breaking,
        dual: "nullable-removed",
        witness: true,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A type now admits `null` (T → T | null).",
        doc: "Old readers do not expect null.",
    }

    NULLABLE_REMOVED {
        id: "nullable-removed",
        subject: "type",
        action: "narrow",
        input: Breaking,
        output: Safe,
        dual: "nullable-added",
        witness: true,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A type no longer admits `null`.",
        doc: "Old writers that send null are refused.",
    }

    UNION_VARIANT_ADDED {
        id: "union-variant-added",
        subject: "type",
        action: "widen",
        input: Safe,
        output: Breaking,
        dual: "union-variant-removed",
        witness: true,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A union gained a variant (or a type became a union). A named type wrapped in a union that names it (`FELT` becoming a union of `FELT` and `STORAGE_RESULT`) keeps its variant: only the new variants are findings, never a changed type.",
        doc: "Old readers do not know the new variant.",
    }

    UNION_VARIANT_REMOVED {
        id: "union-variant-removed",
        subject: "type",
        action: "narrow",
        input: Breaking,
        output: Safe,
        dual: "union-variant-added",
        witness: true,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A union lost a variant.",
        doc: "Old writers that send that variant are refused.",
    }

    UNION_DISCRIMINATOR_CHANGED {
        id: "union-discriminator-changed",
        subject: "type",
        action: "change",
        input: Breaking,
        output: Breaking,
        dual: "union-discriminator-changed",
        witness: true,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A union's discriminator member changed.",
        doc: "Readers pick the variant by the old tag member; every tagged value is read wrongly or refused.",
    }

    ENUM_VALUE_ADDED {
        id: "enum-value-added",
        subject: "type",
        action: "widen",
        input: Safe,
        output: Breaking,
        dual: "enum-value-removed",
        witness: true,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "An enum gained a value, and its reader-side declaration is closed.",
        doc: "Output, breaking: the seed's additive table, \"Add an enum value — Only if every reader had an explicit unknown branch before you shipped it\"; a closed enum declares that its readers have none, so old readers meet a value they cannot handle (\"An enum value causes a crash in a downstream service\"). Declare the enum `open` to promise a branch (`open-enum-value-added`). Input, safe: the new reader admits every value old writers send.",
    }

    ENUM_VALUE_REMOVED {
        id: "enum-value-removed",
        subject: "type",
        action: "narrow",
        input: Breaking,
        output: Safe,
        dual: "enum-value-added",
        witness: true,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "An enum lost a value, and its reader-side declaration is closed.",
        doc: "Input, breaking: the seed's additive table, \"Narrow a type, tighten a constraint — No: existing data violates the new rule by definition\"; old writers (callers, in params) still send the value and the new reader refuses it. The dual of `enum-value-added`. Output, safe: the new writer sends only values old readers know. Reserve the value.",
    }

    OPEN_ENUM_VALUE_ADDED {
        id: "open-enum-value-added",
        subject: "type",
        action: "widen",
        input: Safe,
        output: Safe,
        dual: "open-enum-value-removed",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "An enum declared `open` on the reader side gained a value.",
        doc: "`open: true` promises that every reader has a branch for values it does not know.",
    }

    OPEN_ENUM_VALUE_REMOVED {
        id: "open-enum-value-removed",
        subject: "type",
        action: "narrow",
        input: Safe,
        output: Safe,
        dual: "open-enum-value-added",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "An enum declared `open` on the reader side lost a value.",
        doc: "The reader promised a branch for values it does not list.",
    }

    LITERAL_CHANGED {
        id: "literal-changed",
        subject: "type",
        action: "change",
        input: Breaking,
        output: Breaking,
        dual: "literal-changed",
        witness: true,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A literal's value changed.",
        doc: "The two types share no value.",
    }

    BECAME_ENUMERATED {
        id: "became-enumerated",
        subject: "type",
        action: "narrow",
        input: Breaking,
        output: Safe,
        dual: "type-widened",
        witness: true,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A free string became an enum.",
        doc: "Old writers send strings the enum does not list.",
    }

    TO_ANY {
        id: "to-any",
        subject: "type",
        action: "widen",
        input: Safe,
        output: Breaking,
        dual: "from-any",
        witness: true,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A type became `any`.",
        doc: "Old readers refuse what a new writer may now send.",
    }

    FROM_ANY {
        id: "from-any",
        subject: "type",
        action: "narrow",
        input: Breaking,
        output: Safe,
        dual: "to-any",
        witness: true,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "An `any` became a specific type.",
        doc: "Old writers may send anything.",
    }

    TUPLE_LENGTH_CHANGED {
        id: "tuple-length-changed",
        subject: "type",
        action: "change",
        input: Breaking,
        output: Breaking,
        dual: "tuple-length-changed",
        witness: true,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A tuple gained or lost elements.",
        doc: "A tuple admits exactly its length: no value of one length is valid for the other.",
    }

    ARRAY_TO_TUPLE {
        id: "array-to-tuple",
        subject: "type",
        action: "narrow",
        input: Breaking,
        output: Safe,
        dual: "tuple-to-array",
        witness: true,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "An array became a tuple.",
        doc: "Old writers send arrays of any length the array admits; the new reader takes exactly the tuple's length. Old readers take a tuple as an array, so the new writer is safe when the tuple's length lies within the array's bounds (else `tuple-length-changed`) and each element is an item they admit (compared element by element). An array whose length was fixed at the tuple's is the same JSON and is not reported.",
    }

    TUPLE_TO_ARRAY {
        id: "tuple-to-array",
        subject: "type",
        action: "widen",
        input: Safe,
        output: Breaking,
        dual: "array-to-tuple",
        witness: true,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A tuple became an array.",
        doc: "The new reader takes every tuple old writers send when the tuple's length lies within the array's bounds (else `tuple-length-changed`) and each element is an item it admits (compared element by element). A new writer may send arrays of other lengths, which old readers refuse. An array whose length is fixed at the tuple's is the same JSON and is not reported.",
    }

    OBJECT_TO_MAP {
        id: "object-to-map",
        subject: "type",
        action: "change",
        input: Risky,
        output: Risky,
        dual: "map-to-object",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "An object became a map.",
        doc: "The JSON may be the same, but generated code changes shape and the field rules are gone.",
    }

    MAP_TO_OBJECT {
        id: "map-to-object",
        subject: "type",
        action: "change",
        input: Risky,
        output: Risky,
        dual: "object-to-map",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A map became an object.",
        doc: "The JSON may be the same, but generated code changes shape.",
    }

    BOUND_TIGHTENED {
        id: "bound-tightened",
        subject: "constraint",
        action: "narrow",
        input: Breaking,
        output: Safe,
        dual: "bound-loosened",
        witness: true,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A bound was tightened (min raised, max lowered, multipleOf made coarser).",
        doc: "Old writers send values the new bound refuses.",
    }

    BOUND_LOOSENED {
        id: "bound-loosened",
        subject: "constraint",
        action: "widen",
        input: Safe,
        output: Breaking,
        dual: "bound-tightened",
        witness: true,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A bound was loosened (min lowered, max raised).",
        doc: "Old readers refuse values a new writer may send past the old bound.",
    }

    BOUND_ADDED {
        id: "bound-added",
        subject: "constraint",
        action: "set",
        input: Breaking,
        output: Safe,
        dual: "bound-removed",
        witness: true,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A bound was set where there was none (min, max, lengths, item counts, uniqueItems).",
        doc: "Old writers send values the new bound refuses.",
    }

    BOUND_REMOVED {
        id: "bound-removed",
        subject: "constraint",
        action: "unset",
        input: Safe,
        output: Breaking,
        dual: "bound-added",
        witness: true,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A bound was removed.",
        doc: "Old readers refuse values past the old bound.",
    }

    MULTIPLE_OF_CHANGED {
        id: "multiple-of-changed",
        subject: "constraint",
        action: "change",
        input: Breaking,
        output: Breaking,
        dual: "multiple-of-changed",
        witness: true,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "`multipleOf` changed to a value that neither divides nor is divided by the old one.",
        doc: "Each side admits values the other refuses.",
    }

    PATTERN_ADDED {
        id: "pattern-added",
        subject: "constraint",
        action: "set",
        input: Breaking,
        output: Safe,
        dual: "pattern-removed",
        witness: true,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A `pattern` was set.",
        doc: "Old writers send strings that do not match.",
    }

    PATTERN_REMOVED {
        id: "pattern-removed",
        subject: "constraint",
        action: "unset",
        input: Safe,
        output: Breaking,
        dual: "pattern-added",
        witness: true,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A `pattern` was removed.",
        doc: "Old readers refuse strings that do not match the old pattern.",
    }

    PATTERN_CHANGED {
        id: "pattern-changed",
        subject: "constraint",
        action: "change",
        input: Risky,
        output: Risky,
        dual: "pattern-changed",
        witness: true,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A `pattern` changed.",
        doc: "Inclusion between two patterns is not proven; a witness shows a string one side refuses.",
    }

    FORMAT_ADDED {
        id: "format-added",
        subject: "constraint",
        action: "set",
        input: Risky,
        output: Safe,
        dual: "format-removed",
        witness: true,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A `format` was set.",
        doc: "Old writers may send strings not in the format.",
    }

    FORMAT_REMOVED {
        id: "format-removed",
        subject: "constraint",
        action: "unset",
        input: Safe,
        output: Risky,
        dual: "format-added",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A `format` was removed.",
        doc: "Old readers may parse the value in the old format.",
    }

    FORMAT_CHANGED {
        id: "format-changed",
        subject: "constraint",
        action: "change",
        input: Breaking,
        output: Breaking,
        dual: "format-changed",
        witness: true,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A `format` changed (date → date-time, uuid → uri).",
        doc: "The two formats admit different strings, and readers parse them differently.",
    }

    UNIT_CHANGED {
        id: "unit-changed",
        subject: "attribute",
        action: "change",
        input: Breaking,
        output: Breaking,
        dual: "unit-changed",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::Fixed(super::NEW_NAME_ADVICE),
        purpose: "A number's `unit` changed (ms → s).",
        doc: "A silent semantic break: the JSON is identical and every reader misreads it. Add a new field with a new name.",
    }

    UNIT_ADDED {
        id: "unit-added",
        subject: "attribute",
        action: "set",
        input: Safe,
        output: Safe,
        dual: "unit-removed",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A number gained a `unit`.",
        doc: "Information; the values do not change.",
    }

    UNIT_REMOVED {
        id: "unit-removed",
        subject: "attribute",
        action: "unset",
        input: Safe,
        output: Safe,
        dual: "unit-added",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A number lost its `unit`.",
        doc: "Information; the values do not change.",
    }

    DEFAULT_CHANGED {
        id: "default-changed",
        subject: "attribute",
        action: "change",
        input: Breaking,
        output: Breaking,
        dual: "default-changed",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A `default` changed.",
        doc: "A value left out now means something else: in params old callers that omit it get new behaviour; in results old callers fill in the old default.",
    }

    DEFAULT_ADDED {
        id: "default-added",
        subject: "attribute",
        action: "set",
        input: Risky,
        output: Risky,
        dual: "default-removed",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A `default` was set.",
        doc: "Input, risky: the new reader fills the default in wherever an old writer left the value out (new callers reading an old plant's result or event, the new plant reading old callers' params), and the seed says \"A reader-side default hides the difference between old data and a real value\": a defaulted value is correct \"Only when the default is correct for all historical data\", which the contract cannot show; its red flag is \"A version field that inherits a whole-record default instead of being absent when it was never written\". Keep the field optional and its absence meaningful. Output, risky: old readers do not know what a left-out value now stands for.",
    }

    DEFAULT_REMOVED {
        id: "default-removed",
        subject: "attribute",
        action: "unset",
        input: Risky,
        output: Risky,
        dual: "default-added",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::DeployOrder,
        purpose: "A `default` was removed.",
        doc: "Input, risky: old writers that omit the value relied on the default. Output, risky (the dual of `default-added`'s input): old readers fill the old default in where the new writer leaves the value out, the seed's \"A reader-side default hides the difference between old data and a real value\".",
    }
}
