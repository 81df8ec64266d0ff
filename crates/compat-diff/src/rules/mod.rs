//! The rule registry: every rule the comparison emits, as data. A rule's verdict is a level per
//! polarity; the engine never decides a level itself, it only names the rule.
//!
//! Each rule is a named constant (`rules::BOUND_TIGHTENED`) declared in the file of its
//! category (`surface.rs`, `structural.rs`, `wire.rs`, `lifecycle.rs`, `policy.rs`) by the
//! [`rules!`] macro, which also puts it in that category's list: a rule the engine can name is
//! in [`RULES`] by construction, and the engine names rules by constant, never by id text, so
//! `grep BOUND_TIGHTENED` finds every place that emits it.

use std::fmt;

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Cosmetic or not applicable.
    None,
    /// Compatible; worth a changelog line.
    Safe,
    /// No reader or writer fails on it, but the release breaks a rule of the project's own
    /// discipline: the contract version was not bumped as its changes require, or a removed name
    /// was not reserved (the seed's "reserve what you remove"). Ranked above safe and below risky
    /// for sorting; `--fail-on` names it on its own (see [`Level::fails_at`]).
    Policy,
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
            Level::Policy => "policy",
            Level::Risky => "risky",
            Level::Breaking => "breaking",
        }
    }

    /// The level named `text`.
    pub fn from_name(text: &str) -> Option<Level> {
        [Level::None, Level::Safe, Level::Policy, Level::Risky, Level::Breaking]
            .into_iter()
            .find(|l| l.as_str() == text)
    }

    /// Whether a finding of this level fails a run whose `--fail-on` names `threshold`:
    /// `breaking` fails on breaking findings, `risky` on risky and breaking ones, `policy` on
    /// policy findings alone (so `--fail-on breaking,policy` keeps a release gate on the
    /// version policy without failing on risky findings). Policy findings fail no reader, so
    /// neither `breaking` nor `risky` fails on them.
    pub fn fails_at(self, threshold: Level) -> bool {
        match (self, threshold) {
            (_, Level::None) => false,
            (Level::Policy, t) => matches!(t, Level::Policy | Level::Safe),
            (_, Level::Policy) => false,
            (l, t) => l >= t,
        }
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
#[non_exhaustive]
pub struct CompatRule {
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
    /// The sentence a finding gives about who writes, who reads, and what the change does to
    /// them.
    pub story: Story,
    /// What a finding advises.
    pub advice: Advice,
    /// Why the levels are what they are.
    pub doc: &'static str,
}

/// A finding's story: who writes, who reads, and what the change does to them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Story {
    /// Told from the position (params, result, event, error data) and the pairing: who writes,
    /// who reads, and whether the change keeps, may break or breaks that.
    ReaderWriter,
    /// The same sentence for every finding: the rule is about something other than a reader
    /// and a writer of values (a reservation, the contract version).
    Fixed(&'static str),
}

/// A finding's advice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Advice {
    /// Derived from the levels of the two pairings: deploy in any order, the plant first,
    /// callers first, or under a new name when both break.
    DeployOrder,
    /// The same advice for every finding: no deploy order makes the change safe, or the fix is
    /// not a deploy order at all.
    Fixed(&'static str),
}

/// Advice of the wire renames: no deploy order makes them safe.
const WIRE_RENAME_ADVICE: &str = "a rename on the wire has no safe deploy order: keep the old wire name (a `wire.methods` or `wire.events` entry), or have the plant answer both names while every caller moves, then drop the old one.";

/// Advice of a code that changed meaning.
const CODE_MEANING_ADVICE: &str = "a code cannot change meaning under running callers: keep the old meaning, or move every caller to handle both meanings before the plant changes.";

/// Advice of a change that keeps the name but not the meaning.
const NEW_NAME_ADVICE: &str = "needs a new name: expand (add the new one beside the old), migrate (write both, move readers to the new one), contract (remove the old one in a later release and reserve its name).";

impl CompatRule {
    /// The rule's level under `polarity`.
    pub fn level(&self, polarity: Polarity) -> Level {
        match polarity {
            Polarity::Input => self.input,
            Polarity::Output => self.output,
        }
    }
}

/// Declares a category's rules: one `pub const` per rule, and the category's list `ALL` in the
/// order written (the order of docs/compat-rules.md). The constant and its place in the
/// registry come from the same lines, so no rule can be emitted without being listed.
macro_rules! rules {
    (
        category: $category:expr;
        $(
            $name:ident {
                id: $id:literal,
                subject: $subject:literal,
                action: $action:literal,
                input: $input:expr,
                output: $output:expr,
                dual: $dual:literal,
                witness: $witness:literal,
                story: $story:expr,
                advice: $advice:expr,
                purpose: $purpose:literal,
                doc: $doc:literal $(,)?
            }
        )*
    ) => {
        $(
            #[doc = concat!("`", $id, "`: ", $purpose)]
            pub(crate) const $name: super::CompatRule = super::CompatRule {
                id: $id,
                purpose: $purpose,
                subject: $subject,
                action: $action,
                input: $input,
                output: $output,
                category: $category,
                dual: $dual,
                witness: $witness,
                story: $story,
                advice: $advice,
                doc: $doc,
            };
        )*

        /// This category's rules, in registry order.
        pub(super) const ALL: &[super::CompatRule] = &[$($name),*];
    };
}

mod lifecycle;
mod markdown;
mod policy;
mod structural;
mod surface;
mod wire;

pub use self::markdown::rules_markdown;
pub(crate) use self::{lifecycle::*, policy::*, structural::*, surface::*, wire::*};

/// The categories' lists, in the order docs/compat-rules.md groups them.
const GROUPS: [&[CompatRule]; 5] =
    [surface::ALL, structural::ALL, wire::ALL, lifecycle::ALL, policy::ALL];

/// How many rules there are.
const COUNT: usize = surface::ALL.len()
    + structural::ALL.len()
    + wire::ALL.len()
    + lifecycle::ALL.len()
    + policy::ALL.len();

/// The groups one after another (a `const fn`, so the registry is built at compile time).
const fn concatenate(groups: [&[CompatRule]; 5]) -> [CompatRule; COUNT] {
    let mut out = [groups[0][0]; COUNT];
    let (mut g, mut k) = (0, 0);
    while g < groups.len() {
        let mut i = 0;
        while i < groups[g].len() {
            out[k] = groups[g][i];
            k += 1;
            i += 1;
        }
        g += 1;
    }
    out
}

const REGISTRY: [CompatRule; COUNT] = concatenate(GROUPS);

/// Every rule, grouped as docs/compat-rules.md lists them.
pub const RULES: &[CompatRule] = &REGISTRY;

/// The rule with `id`.
pub fn rule(id: &str) -> Option<&'static CompatRule> {
    RULES.iter().find(|r| r.id == id)
}
