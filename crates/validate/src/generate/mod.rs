//! Value generation: deterministic, seeded values that satisfy a type, and invalid mutants of a
//! valid value, each re-checked before it is returned.
//!
//! [`Validator::generate`] and [`Validator::mutants`] are the short forms; a [`Generator`]
//! ([`Validator::generator`]) does the same work with options (nesting cut-off, collection
//! size) and keeps what it worked out about the type (which types have a finite value, the
//! least nesting each needs, a sampler per `pattern`) for the values that follow.
//!
//! Values look like what a plant sends: strings from patterns and formats, integers near the
//! bounds and inside them, optional members present and absent, both arms of unions, and now
//! and then an unknown member in an open object (`"x-extra": 1`), which readers must tolerate.
//! The same seed gives the same value on every run and machine (ChaCha8, a portable generator).

mod dice;
mod fixed;
mod mutate;
mod number;
mod plan;
mod text;
mod value;

use serde_json::Value;

use crate::program::{Node, NodeId};
use crate::{Error, ValidationRule, Validator};

use self::dice::{Dice, derive};
use self::plan::{NO_VALUE, Plan};
use crate::budget::{Budget, BudgetLimit, Size};

/// The nesting a generated value may use before the generator takes only finite options
/// (optional members left out, empty arrays, the non-recursive arm of a union).
pub const DEFAULT_MAX_DEPTH: usize = 6;

/// How many items past `minItems` an array, and how many members a map, gets at most.
pub const DEFAULT_MAX_ITEMS: usize = 4;

/// How many times a value is generated afresh (from seeds derived from the caller's) before
/// the generator gives up and names the reason.
const ATTEMPTS: u64 = 8;

/// Generates values of one validator's type, and invalid mutants of valid ones.
///
/// ```
/// use accord_schema_model::Document;
/// use accord_validate::{Contract, Target};
///
/// let doc = Document::parse(r#"{"schema": 1, "namespaces": {"pump": {"version": "1.0.0",
///   "types": {"Rpm": {"kind": "integer", "min": 0, "max": 3000}}}}}"#)?;
/// let contract = Contract::compile(&doc)?;
/// let rpm = contract.validator(&Target::Type { namespace: "pump".into(), name: "Rpm".into() })?;
/// let value = rpm.generate(7)?;
/// assert!(rpm.is_valid(&value));
/// assert_eq!(rpm.generate(7)?, value, "one seed, one value");
/// for mutant in rpm.mutants(&value, 7) {
///     assert!(!rpm.is_valid(&mutant.value), "{}", mutant.description);
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Generator<'c> {
    validator: Validator<'c>,
    max_depth: usize,
    max_items: usize,
    budget: Budget,
    plan: Plan,
    prefer: ArmPreference,
    one_case_hex: bool,
    static_values: bool,
    root_arm: Option<usize>,
}

/// Which arms of a union the generator tries first. By default (both `false`) the arms are
/// tried in a seeded random order, so values of every arm appear; a preference moves the arms
/// it names to the front (still in that random order among themselves), and the others are
/// tried only when none of those gives a value. A fake plant that real clients use prefers
/// non-null arms: a client asking for the latest block does not expect `null` half the time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct ArmPreference {
    /// Arms that are not `null` (a `null` kind or a `null` literal, through refs) first.
    pub non_null: bool,
    /// Object arms (objects and maps, through refs) first.
    pub objects: bool,
    /// The richest arm first: an arm counts as an object when it is one or holds them (an
    /// array of objects, a union of objects), and among those, the one with more members
    /// first (`eth_getLogs` answers with log objects, not the array of hashes beside them);
    /// and every object with all its optional members, as far as the nesting and the
    /// generator's size budget allow.
    pub richest: bool,
}

impl ArmPreference {
    /// No preference: every arm in a seeded random order.
    pub const NONE: ArmPreference =
        ArmPreference { non_null: false, objects: false, richest: false };

    /// What a typical client can consume: non-null arms, then the richest object arm.
    pub const TYPICAL: ArmPreference =
        ArmPreference { non_null: true, objects: true, richest: true };

    /// The same preference, with non-null arms first.
    pub fn non_null(self) -> Self {
        ArmPreference { non_null: true, ..self }
    }

    /// The same preference, with object arms first.
    pub fn objects(self) -> Self {
        ArmPreference { objects: true, ..self }
    }

    /// The same preference, with the richest arm first (see [`ArmPreference::richest`]).
    pub fn richest(self) -> Self {
        ArmPreference { richest: true, ..self }
    }

    fn is_none(self) -> bool {
        self == ArmPreference::NONE
    }
}

/// An invalid value made from a valid one by one change.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Mutant {
    /// The whole value, with the change made.
    pub value: Value,
    /// The JSON Pointer of what was changed: the value replaced, or the member or item added
    /// or removed.
    pub pointer: String,
    /// The rule the change breaks (a change inside a union without a discriminator may surface
    /// as [`ValidationRule::Union`] instead).
    pub rule: ValidationRule,
    /// What was changed, in a sentence.
    pub description: String,
}

impl<'c> Validator<'c> {
    /// A generator of values of this validator's type, with the default options.
    pub fn generator(&self) -> Generator<'c> {
        Generator::new(*self)
    }

    /// A value this validator accepts, the same one for the same seed; the short form of
    /// [`Generator::generate`] with the default options.
    ///
    /// # Errors
    ///
    /// [`Error::Generate`], naming the reason, when the type has no value the generator can
    /// find.
    pub fn generate(&self, seed: u64) -> Result<Value, Error> {
        self.generator().generate(seed)
    }

    /// Invalid variants of `valid`, each one change away from it; the short form of
    /// [`Generator::mutants`].
    pub fn mutants(&self, valid: &Value, seed: u64) -> Vec<Mutant> {
        self.generator().mutants(valid, seed)
    }
}

impl<'c> Generator<'c> {
    /// A generator for `validator`'s type, with [`DEFAULT_MAX_DEPTH`] and
    /// [`DEFAULT_MAX_ITEMS`].
    pub fn new(validator: Validator<'c>) -> Self {
        let plan = Plan::new(validator.program, validator.root);
        Generator {
            validator,
            max_depth: DEFAULT_MAX_DEPTH,
            max_items: DEFAULT_MAX_ITEMS,
            budget: Budget::default(),
            plan,
            prefer: ArmPreference::NONE,
            one_case_hex: false,
            static_values: false,
            root_arm: None,
        }
    }

    /// The same generator with another budget: how many values and bytes one generated value
    /// may hold ([`Budget::default`]: [`crate::DEFAULT_MAX_NODES`] and [`crate::DEFAULT_MAX_BYTES`]).
    pub fn budget(self, budget: Budget) -> Self {
        Generator { budget, ..self }
    }

    /// The least size a value of this type has, as the budget counts it: (values, bytes of
    /// compact JSON); `None` when the type has no finite value.
    pub fn least_size(&self) -> Option<(u64, u64)> {
        let size = self.plan.least_size(self.validator.root);
        (size != Size::NONE).then_some((size.nodes, size.bytes))
    }

    /// The same generator with union arms tried in the order `prefer` says.
    pub fn prefer(self, prefer: ArmPreference) -> Self {
        Generator { prefer, ..self }
    }

    /// The same generator, writing hex text as most plants do when the pattern allows it:
    /// lower case (a pattern that takes either case would otherwise get mixed case, which
    /// EIP-55-checking clients such as ethers refuse as a bad checksum), and an even number of
    /// digits (whole bytes: `0x` and one digit is no byte string a client decodes). A string
    /// whose pattern refuses the typical form keeps the form it was sampled in.
    pub fn one_case_hex(self, on: bool) -> Self {
        Generator { one_case_hex: on, ..self }
    }

    /// The same generator, giving values their static form, the same whatever the seed (as
    /// Prism's static mode does): a type's first example, else its `default` (when the type
    /// accepts it), else, for a scalar, its static value: a number is zero where its rules
    /// allow it, else the round value nearest zero at a bound; a string the shortest text its
    /// pattern matches, each character the least digit or letter its class holds (`0x0` for
    /// `^0x(0|[1-9a-f][0-9a-f]*)$`, forty `0`s for an address), else a fixed value of its
    /// format (the epoch, the nil UUID), else `a` repeated to its `minLength`; a boolean
    /// `false`; an enum its first value. Values of one type then agree wherever they appear,
    /// which members tied by a rule the contract cannot state (a signature's `v` and
    /// `yParity`) need. The seed still picks the shapes: array lengths, the arms a preference
    /// leaves tied, optional members (unless [`ArmPreference::richest`]) and unknown members.
    /// A scalar whose static value breaks one of its rules is drawn from a fixed seed (still
    /// the same for every seed); a map's keys (one key would make every map one member long)
    /// and the items of an array whose items must be unique, once the static one is taken,
    /// are drawn from the seed as before.
    pub fn static_values(self, on: bool) -> Self {
        Generator { static_values: on, ..self }
    }

    /// The same generator, making values of one arm of the type: the arm at `index` when the
    /// type (through refs) is a union with that many arms (see [`Validator::union_arms`]);
    /// otherwise this option changes nothing.
    pub fn root_arm(self, index: usize) -> Self {
        Generator { root_arm: Some(index), ..self }
    }

    /// Where a value starts: the root, or the arm [`Generator::root_arm`] chose.
    fn start(&self) -> NodeId {
        let program = self.validator.program;
        match (self.root_arm, program.node(program.resolve(self.validator.root))) {
            (Some(index), Node::Union(union)) if index < union.variants.len() => {
                union.variants[index]
            }
            _ => self.validator.root,
        }
    }

    /// The same generator with another nesting cut-off: past `depth` levels only finite
    /// options are taken. A type that needs more levels than that still gets them (up to the
    /// validator's depth limit).
    pub fn max_depth(self, depth: usize) -> Self {
        Generator { max_depth: depth, ..self }
    }

    /// The same generator with another collection size: arrays get at most `items` items past
    /// their `minItems`, maps at most `items` members.
    pub fn max_items(self, items: usize) -> Self {
        Generator { max_items: items, ..self }
    }

    /// A value the validator accepts, the same one for the same seed. The value is checked
    /// before it is returned; a value that fails is made again from a derived seed, a bounded
    /// number of times.
    ///
    /// # Errors
    ///
    /// [`Error::Generate`], with the place in the value and the reason, when the type has no
    /// finite value (an object that requires itself), needs more nesting than the validator
    /// allows, or has rules no value the generator tried satisfies (a pattern no string within
    /// `maxLength` matches, bounds with no number between them).
    pub fn generate(&self, seed: u64) -> Result<Value, Error> {
        let root = self.start();
        let least = self.plan.least(root);
        if least == NO_VALUE {
            let (pointer, reason) = self.plan.why_no_value(self.validator.program, root);
            return Err(Error::Generate { pointer, reason });
        }
        let limit = self.validator.depth_limit;
        if least as usize > limit {
            return Err(Error::Generate {
                pointer: String::new(),
                reason: format!(
                    "every value of the type nests at least {least} levels deep, and the validator allows {limit}"
                ),
            });
        }
        // A type with no value the generator can make (an empty enum, a string past the
        // longest it writes) has no least size; the walk below names its reason.
        let size = self.plan.least_size(root);
        if let Some((limit, least)) = size.passes(self.budget).filter(|_| size != Size::NONE) {
            let max = self.max_of(limit);
            return Err(Error::Budget {
                pointer: String::new(),
                limit,
                max,
                reason: format!(
                    "every value of the type holds at least {least} {}, past the generation budget of {max}",
                    limit.unit()
                ),
            });
        }
        let room = self.max_depth.max(least as usize).min(limit) as u32;
        let mut last = None;
        for attempt in 0..ATTEMPTS {
            let dice = Dice::new(derive(seed, attempt));
            let mut g = value::Gen::new(self, dice);
            match g.value(root, room) {
                Ok(v) => match self.validator.validate(&v) {
                    Ok(()) => return Ok(v),
                    Err(errors) => {
                        let first = &errors[0];
                        last = Some(value::Fail {
                            pointer: first.pointer.clone(),
                            reason: format!("a generated value was refused ({first})"),
                            budget: None,
                        });
                    }
                },
                // Another seed would only spend the budget again.
                Err(value::Fail { pointer, reason, budget: Some(limit) }) => {
                    return Err(Error::Budget { pointer, limit, max: self.max_of(limit), reason });
                }
                Err(fail) => last = Some(fail),
            }
        }
        let fail = last.unwrap_or_else(|| value::Fail {
            pointer: String::new(),
            reason: "no attempt was made".to_owned(),
            budget: None,
        });
        Err(Error::Generate { pointer: fail.pointer, reason: fail.reason })
    }

    /// Invalid variants of `valid`, one change each, deterministic for a seed: the wrong JSON
    /// type at a node; a number just past each bound, equal to an exclusive bound, not a
    /// multiple, or a fraction where an integer is expected (never a whole float such as `3.0`);
    /// a string one character too short or too long, not matching the pattern, not in the
    /// format; a value outside an enum or other than a literal; a required member or param
    /// left out; an unknown member in a closed object; a tuple or positional params one too
    /// short or too long; an array past its item counts or with a duplicate where items must
    /// be unique; an unknown or missing discriminator tag; a map key the key type refuses;
    /// nesting past the validator's depth limit where any value goes.
    ///
    /// Every mutant is checked with the validator and dropped if it is still valid; a large
    /// value gets a bounded, seed-chosen selection.
    pub fn mutants(&self, valid: &Value, seed: u64) -> Vec<Mutant> {
        mutate::mutants(self, valid, seed)
    }

    /// The configured maximum of one bound of the budget.
    fn max_of(&self, limit: BudgetLimit) -> u64 {
        match limit {
            BudgetLimit::Nodes => self.budget.nodes as u64,
            BudgetLimit::Bytes => self.budget.bytes as u64,
        }
    }

    /// Whether `value` checks against node `id` on its own (at the validator's depth limit).
    fn accepts(&self, id: NodeId, value: &Value) -> bool {
        Validator { root: id, ..self.validator }.is_valid(value)
    }
}
