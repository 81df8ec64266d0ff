//! Lifecycle rules: removal discipline (deprecate first, reserve afterwards, never reuse) and
//! rename hints.

use super::Level::{Breaking, Policy};
use super::{Advice, Category, Story};

rules! {
    category: Category::Lifecycle;

    REMOVED_WITHOUT_DEPRECATION {
        id: "removed-without-deprecation",
        subject: "field",
        action: "remove",
        input: Policy,
        output: Policy,
        dual: "",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::Fixed("restore it deprecated for at least one release, then remove it."),
        purpose: "A method, event, param, field or type was removed without being deprecated first.",
        doc: "Policy, in both pairings: the removal itself is judged by its own rule (`param-removed`, `required-field-removed`, …); what is left is the seed's order, \"Deprecate, stop writing, reserve; deletion is step 6, not step 1\", which no reader fails on. Deprecate, stop writing, then remove in a later release.",
    }

    REMOVED_WITHOUT_RESERVING {
        id: "removed-without-reserving",
        subject: "field",
        action: "remove",
        input: Policy,
        output: Policy,
        dual: "",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::Fixed("add the name to `reserved` (with a note) so it is never reused."),
        purpose: "A name was removed but not added to `reserved`.",
        doc: "Policy, in both pairings: no reader fails on the missing reservation itself; the seed's \"Reserve what you remove … mark the identifier reserved in the schema and never reuse it\" guards against the reuse that `reserved-name-reused` reports as breaking. Old data and old callers still carry the name, and a new element wearing it would be read with the wrong meaning.",
    }

    RESERVED_NAME_REUSED {
        id: "reserved-name-reused",
        subject: "field",
        action: "reuse",
        input: Breaking,
        output: Breaking,
        dual: "",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::Fixed("needs a new name: pick one that was never used."),
        purpose: "A field, enum value, method, event or type uses a reserved name.",
        doc: "Breaking, both pairings: the seed, \"Reuse is a silent data-corruption bug: archived rows, replayed messages, and old backups still carry the old identifier, and a new field wearing the same identifier decodes that data into the wrong meaning with no error\".",
    }

    RESERVED_NAME_REMOVED {
        id: "reserved-name-removed",
        subject: "reserved",
        action: "remove",
        input: Policy,
        output: Policy,
        dual: "",
        witness: false,
        story: Story::Fixed(
            "Archived data, replayed messages and old callers may still carry the name with its old meaning; without the reservation nothing stops a later change from giving it a new one."
        ),
        advice: Advice::Fixed("keep the name in `reserved`: a reservation outlives every release that might still carry the old meaning."),
        purpose: "A name was dropped from `reserved`.",
        doc: "Policy, in both pairings: no reader fails on it. The reservation is what stops a later change from giving the name a new meaning while archived data and old callers still carry the old one (the seed: \"Keep the reservation in the schema file, next to the live fields\").",
    }

    PROBABLE_RENAME {
        id: "probable-rename",
        subject: "field",
        action: "rename",
        input: Breaking,
        output: Breaking,
        dual: "",
        witness: false,
        story: Story::ReaderWriter,
        advice: Advice::Fixed(super::NEW_NAME_ADVICE),
        purpose: "A removal and an addition of the same shape: probably a rename.",
        doc: "Breaking, both pairings: the seed's additive table, \"Rename — No: It is add plus dual-write plus backfill plus remove\"; old callers send the old name to the new plant, new callers the new name to the old plant. There is no atomic rename across deploy units: expand (add the new name), migrate (write both, switch readers), contract (remove the old name and reserve it). A param renamed at its position is no change for by-position callers: when the method takes params by position alone, nothing is reported.",
    }
}
