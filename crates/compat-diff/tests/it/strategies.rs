//! Strategies shared by the property tests: random type nodes of every kind the comparison
//! has rules for.

use accord_schema_model::{
    ArrayType, EnumType, Field, NumberRules, ObjectType, StringRules, TupleType, TypeKind,
    TypeNode, UnionType,
};
use indexmap::IndexMap;
use proptest::prelude::*;
use serde_json::json;

/// A node without children.
fn leaf() -> impl Strategy<Value = TypeNode> {
    let bound = proptest::option::of(0i64..5);
    prop_oneof![
        Just(TypeKind::Null),
        Just(TypeKind::Boolean),
        Just(TypeKind::Any),
        (
            bound.clone(),
            bound.clone(),
            proptest::option::of(prop_oneof![Just("ms"), Just("s")]),
            any::<bool>()
        )
            .prop_map(|(min, max, unit, exclusive)| TypeKind::Integer(NumberRules {
                min: min.filter(|_| !exclusive).map(Into::into),
                exclusive_min: min.filter(|_| exclusive).map(Into::into),
                max: max.map(|m| (m + 3).into()),
                unit: unit.map(str::to_owned),
                ..NumberRules::default()
            })),
        (bound.clone()).prop_map(|max| TypeKind::Number(NumberRules {
            max: max.map(Into::into),
            ..NumberRules::default()
        })),
        (
            proptest::option::of(1u64..4),
            proptest::option::of(Just("^a")),
            proptest::option::of(Just("uuid"))
        )
            .prop_map(|(max, pattern, format)| TypeKind::String(StringRules {
                max_length: max,
                pattern: pattern.map(str::to_owned),
                format: format.map(str::to_owned),
                ..StringRules::default()
            })),
        (proptest::sample::subsequence(vec!["a", "b", "c"], 1..=3), any::<bool>()).prop_map(
            |(values, open)| TypeKind::Enum(EnumType {
                values: values.into_iter().map(|v| json!(v)).collect(),
                open: open.then_some(true),
                reserved: None,
            })
        ),
        (0i64..3).prop_map(|v| TypeKind::Literal { value: json!(v) }),
    ]
    .prop_map(TypeNode::new)
}

/// A node up to three levels deep.
pub(crate) fn node() -> impl Strategy<Value = TypeNode> {
    leaf().prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            (inner.clone(), proptest::option::of(0u64..3)).prop_map(|(items, max)| TypeNode::new(
                TypeKind::Array(ArrayType {
                    items: Box::new(items),
                    min_items: None,
                    max_items: max,
                    unique_items: None,
                    #[cfg(feature = "dummy-refinement-handled")]
                    dummy_items: None,
                })
            )),
            (
                proptest::collection::vec(
                    (prop_oneof![Just("x"), Just("y"), Just("z")], inner.clone(), any::<bool>()),
                    0..3
                ),
                any::<bool>()
            )
                .prop_map(|(fields, closed)| {
                    let mut map = IndexMap::new();
                    for (name, ty, optional) in fields {
                        let mut f = Field::new(ty);
                        f.optional = optional.then_some(true);
                        map.insert(name.to_owned(), f);
                    }
                    TypeNode::new(TypeKind::Object(ObjectType {
                        fields: Some(map),
                        closed: closed.then_some(true),
                        reserved: None,
                    }))
                }),
            proptest::collection::vec(inner.clone(), 1..3)
                .prop_map(|elements| TypeNode::new(TypeKind::Tuple(TupleType { elements }))),
            proptest::collection::vec(inner, 1..3).prop_map(|variants| TypeNode::new(
                TypeKind::Union(UnionType { variants, discriminator: None })
            )),
        ]
    })
}
