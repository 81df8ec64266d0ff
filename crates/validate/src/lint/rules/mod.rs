//! One module per lint rule: its doc (on the marker type) and its check. The registry lists
//! them.

pub(crate) mod bad_pattern;
pub(crate) mod cause_event_unknown;
pub(crate) mod costly_pattern;
pub(crate) mod dangling_ref;
pub(crate) mod discriminator_invalid;
pub(crate) mod dotted_name;
pub(crate) mod duplicate_enum_value;
pub(crate) mod duplicate_error_code;
pub(crate) mod duplicate_param;
pub(crate) mod duplicate_union_arm;
pub(crate) mod empty_type;
pub(crate) mod error_code_collides_with_protocol;
pub(crate) mod invalid_default;
pub(crate) mod invalid_example;
pub(crate) mod link_expression;
pub(crate) mod link_method_unknown;
pub(crate) mod link_param_unknown;
pub(crate) mod link_path_impossible;
pub(crate) mod literal_base_kind;
pub(crate) mod min_above_max;
pub(crate) mod misplaced_refinement;
pub(crate) mod misspelt_member;
pub(crate) mod mixed_enum;
pub(crate) mod no_finite_value;
pub(crate) mod ref_cycle;
pub(crate) mod required_after_optional;
pub(crate) mod reserved_name_used;
pub(crate) mod undeclared_semantics;
pub(crate) mod unknown_format;
pub(crate) mod unknown_semantics;
pub(crate) mod value_past_budget;
pub(crate) mod wire_unresolved;
