//! The one declaration of what each kind of type node holds (its refinements, format.md §7),
//! as rust-analyzer declares its syntax once in a grammar: one row per member, giving its
//! name in the format, the kinds it applies to, the JSON Schema keywords that hold it, and its
//! Rust field and type. From the rows come the structs of the kinds ([`NumberRules`],
//! [`StringRules`], [`EnumType`], …), the [`Refinement`] enum, the names the reader takes
//! ([`crate::members::refinements`]) and the tables tools ask (the lint's misplaced members,
//! extract's doc tags, import's keyword tables, the format's JSON Schema).
//!
//! A new refinement is a new row. Every consumer that must handle it either names every field
//! of its struct (a destructuring or a struct literal without `..`) or matches [`Refinement`]
//! without a wildcard, so it does not compile until it handles the new row; CONTRIBUTING.md's
//! recipe lists those sites, and a test (`xtask`'s `refinement_sites`) adds two dummy rows, on
//! numbers and on arrays (the `dummy-refinement` feature), and checks that the compiler names
//! exactly those sites.

use indexmap::IndexMap;
use serde_json::{Number, Value};

use crate::{Field, Kind, Reserved, TypeNode};

/// Declares the kinds' members. Each block is a struct (generated, with its rows as fields) or
/// a `variant` (a member held directly by a [`crate::TypeKind`] variant, only listed here).
/// Each row: `Variant field: Type = "name" ["JSON Schema keyword", …]`, its docs, and an
/// optional `#[cfg(…)]` (the dummy row of the compile-fail test).
macro_rules! kinds {
    ($(
        $(#[$sattr:meta])*
        $form:ident $Struct:ident for $kinds:tt {
            $(
                $(#[doc = $doc:literal])*
                $(#[cfg($cfg:meta)])?
                $Var:ident $field:ident : $ty:ty = $name:literal [$($kw:literal),*]
            ),* $(,)?
        }
    )*) => {
        $(
            kinds!(@struct $form $(#[$sattr])* $Struct {
                $( $(#[doc = $doc])* $(#[cfg($cfg)])? $field : $ty ),*
            });
        )*

        /// One kind-specific member of type nodes (one row of the declaration).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Refinement {
            $($(
                $(#[doc = $doc])*
                $(#[cfg($cfg)])?
                $Var,
            )*)*
        }

        impl Refinement {
            /// Every row, in the order of the declaration (the order format.md lists them).
            pub const ALL: &'static [Refinement] = &[$($( $(#[cfg($cfg)])? Refinement::$Var, )*)*];

            /// Its name in the format (`multipleOf`).
            pub const fn name(self) -> &'static str {
                match self {
                    $($( $(#[cfg($cfg)])? Refinement::$Var => $name, )*)*
                }
            }

            /// The kinds it applies to.
            pub const fn kinds(self) -> &'static [Kind] {
                match self {
                    $($( $(#[cfg($cfg)])? Refinement::$Var => kinds!(@list $kinds), )*)*
                }
            }

            /// The JSON Schema keywords (drafts 2020-12 and 07) that hold what it says; empty
            /// for a member JSON Schema has no keyword for (accord's own export holds those in
            /// `x-accord-` members).
            pub const fn json_schema(self) -> &'static [&'static str] {
                match self {
                    $($( $(#[cfg($cfg)])? Refinement::$Var => &[$($kw),*], )*)*
                }
            }

            /// The Rust field that holds it (in the kind's struct, or the variant's field).
            pub const fn field(self) -> &'static str {
                match self {
                    $($( $(#[cfg($cfg)])? Refinement::$Var => stringify!($field), )*)*
                }
            }

            /// The members of type nodes of `kind` alone, in the order of the declaration.
            pub const fn of(kind: Kind) -> &'static [Refinement] {
                match kind {
                    Kind::Any | Kind::Null | Kind::Boolean => &[],
                    $( kinds!(@pattern $kinds) => &[$( $(#[cfg($cfg)])? Refinement::$Var ),*], )*
                }
            }

            /// The names of the members of type nodes of `kind` alone.
            pub(crate) const fn names(kind: Kind) -> &'static [&'static str] {
                match kind {
                    Kind::Any | Kind::Null | Kind::Boolean => &[],
                    $( kinds!(@pattern $kinds) => &[$( $(#[cfg($cfg)])? $name ),*], )*
                }
            }
        }
    };
    (@struct struct $(#[$sattr:meta])* $Struct:ident {
        $( $(#[doc = $doc:literal])* $(#[cfg($cfg:meta)])? $field:ident : $ty:ty ),*
    }) => {
        $(#[$sattr])*
        pub struct $Struct {
            $( $(#[doc = $doc])* $(#[cfg($cfg)])? pub $field: $ty, )*
        }
    };
    (@struct variant $(#[$sattr:meta])* $Struct:ident { $($rest:tt)* }) => {};
    (@list [$($kind:ident),+]) => { &[$(Kind::$kind),+] };
    (@pattern [$($kind:ident),+]) => { $(Kind::$kind)|+ };
}

kinds! {
    /// Refinements of `integer` and `number`. Absent: unbounded, no unit.
    #[derive(Debug, Clone, PartialEq, Default)]
    struct NumberRules for [Integer, Number] {
        /// Inclusive lower bound.
        Min min: Option<Number> = "min" ["minimum"],
        /// Inclusive upper bound.
        Max max: Option<Number> = "max" ["maximum"],
        /// Exclusive lower bound.
        ExclusiveMin exclusive_min: Option<Number> = "exclusiveMin" ["exclusiveMinimum"],
        /// Exclusive upper bound.
        ExclusiveMax exclusive_max: Option<Number> = "exclusiveMax" ["exclusiveMaximum"],
        /// Values are whole multiples of this (greater than zero).
        MultipleOf multiple_of: Option<Number> = "multipleOf" ["multipleOf"],
        /// The unit of the quantity (`s`, `ms`, `rpm`, `bar`, …): part of the meaning.
        Unit unit: Option<String> = "unit" [],
        /// A refinement that exists only to prove the compile-fail test (never enable).
        #[cfg(feature = "dummy-refinement")]
        Dummy dummy: Option<u64> = "dummy" [],
    }

    /// Refinements of `string`. Absent: any length, any text, no format.
    #[derive(Debug, Clone, PartialEq, Default)]
    struct StringRules for [String] {
        /// Least length, in Unicode scalar values.
        MinLength min_length: Option<u64> = "minLength" ["minLength"],
        /// Greatest length, in Unicode scalar values.
        MaxLength max_length: Option<u64> = "maxLength" ["maxLength"],
        /// A regular expression a match of which the string must contain (unanchored; see
        /// docs/format.md).
        Pattern pattern: Option<String> = "pattern" ["pattern"],
        /// A designation such as `date-time` or `uuid`.
        Format format: Option<String> = "format" ["format"],
    }

    /// `literal`'s one member, held by `TypeKind::Literal` itself.
    variant Literal for [Literal] {
        /// The one value.
        Value value: Value = "value" ["const"],
    }

    /// Members of `enum`.
    #[derive(Debug, Clone, PartialEq, Default)]
    struct EnumType for [Enum] {
        /// The values: strings or integers.
        EnumValues values: Vec<Value> = "values" ["enum"],
        /// Whether readers promise a branch for values not listed; absent: `false` (closed).
        Open open: Option<bool> = "open" [],
        /// Values that were removed and may never be reused.
        EnumReserved reserved: Option<Vec<Reserved>> = "reserved" [],
    }

    /// Members of `array`.
    #[derive(Debug, Clone, PartialEq)]
    struct ArrayType for [Array] {
        /// The type of every item.
        Items items: Box<TypeNode> = "items" ["items"],
        /// Least number of items.
        MinItems min_items: Option<u64> = "minItems" ["minItems"],
        /// Greatest number of items.
        MaxItems max_items: Option<u64> = "maxItems" ["maxItems"],
        /// Whether items must be pairwise distinct; absent: `false`.
        UniqueItems unique_items: Option<bool> = "uniqueItems" ["uniqueItems"],
        /// A refinement that exists only to prove the compile-fail test on a kind whose nodes
        /// nest (never enable).
        #[cfg(feature = "dummy-refinement")]
        DummyItems dummy_items: Option<u64> = "dummyItems" [],
    }

    /// Members of `tuple`.
    #[derive(Debug, Clone, PartialEq, Default)]
    struct TupleType for [Tuple] {
        /// One type per position; the array has exactly this many items.
        Elements elements: Vec<TypeNode> = "elements" ["prefixItems", "additionalItems"],
    }

    /// Members of `object`.
    #[derive(Debug, Clone, Default)]
    struct ObjectType for [Object] {
        /// The fields, by name; absent: no declared fields.
        Fields fields: Option<IndexMap<String, Field>> = "fields" ["properties", "required"],
        /// Whether members not in `fields` are refused; absent: `false` (open, as reader rules
        /// require).
        Closed closed: Option<bool> = "closed" ["additionalProperties"],
        /// Field names that were removed and may never be reused.
        ObjectReserved reserved: Option<Vec<Reserved>> = "reserved" [],
    }

    /// Members of `map`.
    #[derive(Debug, Clone, PartialEq)]
    struct MapType for [Map] {
        /// The type of the keys (a `string` node with refinements, an `enum`, …); absent: any
        /// string.
        Keys keys: Option<Box<TypeNode>> = "keys" ["propertyNames", "patternProperties"],
        /// The type of every value.
        MapValues values: Box<TypeNode> = "values" ["additionalProperties"],
    }

    /// Members of `union`.
    #[derive(Debug, Clone, PartialEq, Default)]
    struct UnionType for [Union] {
        /// The arms; a value matches the union when it matches any arm.
        Variants variants: Vec<TypeNode> = "variants" ["anyOf", "oneOf"],
        /// The member of the (object) arms whose literal value picks the arm.
        Discriminator discriminator: Option<String> = "discriminator" [],
    }

    /// Members of `ref`.
    #[derive(Debug, Clone, PartialEq, Default)]
    struct RefType for [Ref] {
        /// The named type.
        Name name: String = "name" ["$ref"],
        /// The namespace whose `types` hold it; absent: the namespace the ref stands in.
        Namespace namespace: Option<String> = "namespace" [],
    }
}

impl Refinement {
    /// The rows named `name` (one, or one per kind for a name several kinds use: `values`,
    /// `reserved`).
    pub fn named(name: &str) -> impl Iterator<Item = Refinement> + '_ {
        Refinement::ALL.iter().copied().filter(move |r| r.name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::Refinement;
    use crate::Kind;

    #[test]
    fn every_row_of_a_kind_has_a_distinct_name_and_field() {
        for kind in Kind::ALL {
            let rows = Refinement::of(kind);
            for (i, a) in rows.iter().enumerate() {
                assert!(a.kinds().contains(&kind), "{a:?} listed for {kind:?}");
                for b in &rows[i + 1..] {
                    assert_ne!(a.name(), b.name(), "two rows of {kind:?}");
                    assert_ne!(a.field(), b.field(), "two rows of {kind:?}");
                }
            }
            let names: Vec<&str> = rows.iter().map(|r| r.name()).collect();
            assert_eq!(names, Refinement::names(kind), "{kind:?}");
        }
        for r in Refinement::ALL {
            for kind in r.kinds() {
                assert!(Refinement::of(*kind).contains(r), "{r:?} missing from {kind:?}");
            }
        }
        assert_eq!(Refinement::named("multipleOf").next(), Some(Refinement::MultipleOf));
        assert_eq!(Refinement::named("values").count(), 2, "enum's and map's");
    }
}
