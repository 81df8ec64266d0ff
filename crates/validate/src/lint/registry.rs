//! Every lint rule, listed once: its stable id, severity, one-line summary, the label the cli
//! puts under the text it points at, its doc, and its check. Ids never change meaning and are
//! never reused; a retired rule keeps its entry out of this list and its id out of new rules.

use crate::lint::rules::{
    bad_pattern, cause_event_unknown, costly_pattern, dangling_ref, discriminator_invalid,
    dotted_name, duplicate_enum_value, duplicate_error_code, duplicate_param, duplicate_union_arm,
    empty_type, error_code_collides_with_protocol, invalid_default, invalid_example,
    link_expression, link_method_unknown, link_param_unknown, link_path_impossible,
    literal_base_kind, min_above_max, misplaced_refinement, misspelt_member, mixed_enum,
    no_finite_value, ref_cycle, required_after_optional, reserved_name_used, undeclared_semantics,
    unknown_format, unknown_semantics, value_past_budget, wire_unresolved,
};
use crate::lint::{LintContext, Severity};

/// One lint rule: what `accord check` reports under its id.
#[derive(Debug)]
pub struct LintRule {
    pub(crate) id: &'static str,
    pub(crate) severity: Severity,
    summary: &'static str,
    label: &'static str,
    doc: &'static str,
    pub(crate) check: fn(&mut LintContext<'_>),
}

impl LintRule {
    /// Every rule, in the order the docs list them (errors first).
    pub fn all() -> &'static [LintRule] {
        RULES
    }

    /// The rule with this id.
    pub fn find(id: &str) -> Option<&'static LintRule> {
        RULES.iter().find(|r| r.id == id)
    }

    /// The stable id, kebab-case (`dangling-ref`).
    pub fn id(&self) -> &'static str {
        self.id
    }

    /// Whether a finding is an error or a warning.
    pub fn severity(&self) -> Severity {
        self.severity
    }

    /// What the rule flags, in one line.
    pub fn summary(&self) -> &'static str {
        self.summary
    }

    /// A few words to show under the text a finding points at.
    pub fn label(&self) -> &'static str {
        self.label
    }

    /// The rule's documentation (Markdown with the sections `## What it does`, `## Why is this
    /// bad?`, `## Example` and `## Fix`).
    pub fn doc(&self) -> String {
        // Doc comments keep the space after `///`; Markdown wants it gone.
        self.doc.lines().map(|l| l.strip_prefix(' ').unwrap_or(l)).collect::<Vec<_>>().join("\n")
    }
}

pub(crate) static RULES: &[LintRule] = &[
    LintRule {
        id: "dangling-ref",
        severity: Severity::Error,
        summary: "A `ref` names a type, or a namespace, that the document does not define.",
        label: "not defined",
        doc: dangling_ref::DanglingRef::DOC,
        check: dangling_ref::check,
    },
    LintRule {
        id: "ref-cycle",
        severity: Severity::Error,
        summary: "Named types refer to each other through refs and union arms alone.",
        label: "refers back to itself",
        doc: ref_cycle::RefCycle::DOC,
        check: ref_cycle::check,
    },
    LintRule {
        id: "no-finite-value",
        severity: Severity::Error,
        summary: "A recursive type every value of which must contain another value of it.",
        label: "no finite value",
        doc: no_finite_value::NoFiniteValue::DOC,
        check: no_finite_value::check,
    },
    LintRule {
        id: "empty-type",
        severity: Severity::Error,
        summary: "An enum with no values or a union with no arms: no value matches.",
        label: "admits nothing",
        doc: empty_type::EmptyType::DOC,
        check: empty_type::check,
    },
    LintRule {
        id: "min-above-max",
        severity: Severity::Error,
        summary: "Bounds that leave no value: numeric bounds, lengths, or item counts.",
        label: "no value fits",
        doc: min_above_max::MinAboveMax::DOC,
        check: min_above_max::check,
    },
    LintRule {
        id: "bad-pattern",
        severity: Severity::Error,
        summary: "A `pattern` that does not compile in the format's regex dialect.",
        label: "does not compile",
        doc: bad_pattern::BadPattern::DOC,
        check: bad_pattern::check,
    },
    LintRule {
        id: "discriminator-invalid",
        severity: Severity::Error,
        summary: "A union `discriminator` that does not pick exactly one arm per tag.",
        label: "does not pick the arms",
        doc: discriminator_invalid::DiscriminatorInvalid::DOC,
        check: discriminator_invalid::check,
    },
    LintRule {
        id: "duplicate-union-arm",
        severity: Severity::Error,
        summary: "Two arms of one union are the same type.",
        label: "same as an earlier arm",
        doc: duplicate_union_arm::DuplicateUnionArm::DOC,
        check: duplicate_union_arm::check,
    },
    LintRule {
        id: "duplicate-enum-value",
        severity: Severity::Error,
        summary: "An enum lists the same value twice.",
        label: "listed before",
        doc: duplicate_enum_value::DuplicateEnumValue::DOC,
        check: duplicate_enum_value::check,
    },
    LintRule {
        id: "literal-base-kind",
        severity: Severity::Error,
        summary: "A literal or enum value (or a map's key type) of a JSON type its position can never hold.",
        label: "wrong JSON type here",
        doc: literal_base_kind::LiteralBaseKind::DOC,
        check: literal_base_kind::check,
    },
    LintRule {
        id: "reserved-name-used",
        severity: Severity::Error,
        summary: "A method, event, type, field or enum value uses a name its scope has reserved.",
        label: "reserved name",
        doc: reserved_name_used::ReservedNameUsed::DOC,
        check: reserved_name_used::check,
    },
    LintRule {
        id: "duplicate-param",
        severity: Severity::Error,
        summary: "Two params of one method have the same name.",
        label: "name used before",
        doc: duplicate_param::DuplicateParam::DOC,
        check: duplicate_param::check,
    },
    LintRule {
        id: "duplicate-error-code",
        severity: Severity::Error,
        summary: "A method declares the same error code twice.",
        label: "code declared before",
        doc: duplicate_error_code::DuplicateErrorCode::DOC,
        check: duplicate_error_code::check,
    },
    LintRule {
        id: "wire-unresolved",
        severity: Severity::Error,
        summary: "A `wire` section that reads but does not resolve: no tool can speak to the plant through it.",
        label: "does not resolve",
        doc: wire_unresolved::WireUnresolved::DOC,
        check: wire_unresolved::check,
    },
    LintRule {
        id: "error-code-collides-with-protocol",
        severity: Severity::Error,
        summary: "A declared error code that is also a protocol code of the contract's wire.",
        label: "also a protocol code",
        doc: error_code_collides_with_protocol::ErrorCodeCollidesWithProtocol::DOC,
        check: error_code_collides_with_protocol::check,
    },
    LintRule {
        id: "invalid-default",
        severity: Severity::Error,
        summary: "A type node's `default` does not validate against that type.",
        label: "does not match its type",
        doc: invalid_default::InvalidDefault::DOC,
        check: invalid_default::check,
    },
    LintRule {
        id: "invalid-example",
        severity: Severity::Error,
        summary: "An example (of a type, a call or an event) does not validate against its type.",
        label: "does not match its type",
        doc: invalid_example::InvalidExample::DOC,
        check: invalid_example::check,
    },
    LintRule {
        id: "link-method-unknown",
        severity: Severity::Error,
        summary: "A link to a method, or a namespace, that the document does not define.",
        label: "no such method",
        doc: link_method_unknown::LinkMethodUnknown::DOC,
        check: link_method_unknown::check,
    },
    LintRule {
        id: "link-param-unknown",
        severity: Severity::Error,
        summary: "A link gives a param that the linked method does not have.",
        label: "no such param",
        doc: link_param_unknown::LinkParamUnknown::DOC,
        check: link_param_unknown::check,
    },
    LintRule {
        id: "link-expression",
        severity: Severity::Error,
        summary: "A link param value that starts with `$` but is not a runtime expression this build reads.",
        label: "not an expression",
        doc: link_expression::LinkExpression::DOC,
        check: link_expression::check,
    },
    LintRule {
        id: "link-path-impossible",
        severity: Severity::Error,
        summary: "A link's runtime expression follows a path no value of the source's params or result has.",
        label: "finds nothing",
        doc: link_path_impossible::LinkPathImpossible::DOC,
        check: link_path_impossible::check,
    },
    LintRule {
        id: "cause-event-unknown",
        severity: Severity::Error,
        summary: "A method's `causes` names an event, or a namespace, that the document does not define.",
        label: "no such event",
        doc: cause_event_unknown::CauseEventUnknown::DOC,
        check: cause_event_unknown::check,
    },
    LintRule {
        id: "required-after-optional",
        severity: Severity::Warning,
        summary: "A required param after an optional one, in a method callable by position.",
        label: "required after an optional param",
        doc: required_after_optional::RequiredAfterOptional::DOC,
        check: required_after_optional::check,
    },
    LintRule {
        id: "mixed-enum",
        severity: Severity::Warning,
        summary: "An enum mixes string and integer values.",
        label: "another JSON type than the first value",
        doc: mixed_enum::MixedEnum::DOC,
        check: mixed_enum::check,
    },
    LintRule {
        id: "dotted-name",
        severity: Severity::Warning,
        summary: "A namespace or method name containing `.`, which makes wire names ambiguous.",
        label: "contains `.`",
        doc: dotted_name::DottedName::DOC,
        check: dotted_name::check,
    },
    LintRule {
        id: "unknown-format",
        severity: Severity::Warning,
        summary: "A string `format` this build does not check: every string passes it.",
        label: "not checked",
        doc: unknown_format::UnknownFormat::DOC,
        check: unknown_format::check,
    },
    LintRule {
        id: "misplaced-refinement",
        severity: Severity::Warning,
        summary: "A known member name standing where it does not apply, so it is ignored.",
        label: "ignored here",
        doc: misplaced_refinement::MisplacedRefinement::DOC,
        check: misplaced_refinement::check,
    },
    LintRule {
        id: "misspelt-member",
        severity: Severity::Warning,
        summary: "An unknown member one slip away from a member of its record (`maxLenght`): it does nothing.",
        label: "misspelt member",
        doc: misspelt_member::MisspeltMember::DOC,
        check: misspelt_member::check,
    },
    LintRule {
        id: "unknown-semantics",
        severity: Severity::Warning,
        summary: "A `semantics` value this build does not know: it reads as undeclared.",
        label: "unknown semantics",
        doc: unknown_semantics::UnknownSemantics::DOC,
        check: unknown_semantics::check,
    },
    LintRule {
        id: "undeclared-semantics",
        severity: Severity::Warning,
        summary: "A method without `semantics`: callers will ask before pressing it.",
        label: "no semantics",
        doc: undeclared_semantics::UndeclaredSemantics::DOC,
        check: undeclared_semantics::check,
    },
    LintRule {
        id: "costly-pattern",
        severity: Severity::Warning,
        summary: "A `pattern` whose nested counted repetitions or compiled size make every match slow.",
        label: "costly to match",
        doc: costly_pattern::CostlyPattern::DOC,
        check: costly_pattern::check,
    },
    LintRule {
        id: "value-past-budget",
        severity: Severity::Warning,
        summary: "Params, a result or a payload whose smallest value passes the generation budget.",
        label: "too large to generate",
        doc: value_past_budget::ValuePastBudget::DOC,
        check: value_past_budget::check,
    },
];

/// `docs/lint-rules.md`: every rule of the registry with its doc, and how `accord check`
/// reports. The file in the repository is exactly this text.
pub fn rules_markdown() -> String {
    let mut out = String::new();
    out.push_str(
        "<!-- Generated from the lint registry (crates/validate/src/lint/registry.rs) by \
         `accord_validate::lint_rules_markdown`; do not edit by hand. -->\n\n",
    );
    out.push_str(INTRO);
    out.push_str("\n| rule | severity | what it flags |\n| --- | --- | --- |\n");
    for rule in RULES {
        out.push_str(&format!(
            "| [`{id}`](#{id}) | {} | {} |\n",
            rule.severity,
            rule.summary,
            id = rule.id
        ));
    }
    out.push_str(OUTPUT);
    for rule in RULES {
        out.push_str(&format!("\n## `{}`\n\n**{}.** {}\n\n", rule.id, rule.severity, rule.summary));
        for line in rule.doc().lines() {
            // The rule's own sections sit one level below its heading.
            if line.starts_with('#') {
                out.push('#');
            }
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

const INTRO: &str = "\
# Lint rules

`accord check CONTRACT` reads a contract and runs every rule below over it. Each finding names
its rule by a stable id, a severity, the JSON Pointer of the element it is about, and a line of
help. Errors make `accord check` exit 1; warnings are reported and the exit code stays 0. A
document that cannot be read at all is refused before any rule runs (exit 2, see
[format.md](format.md), section 13).

Lint reports every problem, not the first: a contract that does not compile (a dangling ref, a
pattern that does not compile, a ref cycle, a bad discriminator) is reported under those rules,
and the other rules still run, defaults and examples being checked against the rest of the
contract.

Each rule has a fixture that triggers it, `fixtures/lint/<id>/contract.types.json`, and where
it helps a `clean.types.json` beside it with the fixed form.
";

const OUTPUT: &str = "
## Output

`accord check CONTRACT` prints each finding, in the order of the file, as a
`file:line:col: severity[rule]: message` line followed by the text it points at, a label, and
the help; then a summary line such as `2 errors, 1 warning`. Everything goes to stdout.

`accord check CONTRACT --format json` prints one JSON array instead, one object per finding,
in the same order:

| member | JSON type | meaning |
| --- | --- | --- |
| `rule` | string | the rule's id |
| `severity` | string | `error` or `warning` |
| `message` | string | what is wrong |
| `help` | string | what to do about it |
| `pointer` | string | the JSON Pointer of the element (`\"\"` for the document) |
| `line` | integer | 1-based line of the element in the file |
| `column` | integer | 1-based column, in characters |

Exit codes: 0 no errors (warnings allowed), 1 at least one error, 2 the document could not be
read.

## Configuration

The `[lint]` table of `accord.toml` (the file named by `accord check --config`, else the one in
the current directory) sets the level of any rule, for every contract or for those matching
path globs (relative to the directory of `accord.toml`; `*` stays within a directory, `**`
crosses them). Later overrides win over earlier ones and over `[lint.rules]`:

```toml
[lint]
deny-warnings = false                 # true: as `accord check --deny warnings`

[lint.rules]
unknown-semantics = \"error\"           # a semantics typo (\"reed\") fails the run
undeclared-semantics = \"allow\"        # not reported

[[lint.overrides]]
paths = [\"legacy/**/*.types.json\"]
rules = { dotted-name = \"allow\" }
```

A level is `allow` (not reported), `warn` or `error`. An unknown key, rule id or level is
refused (exit 2) with the nearest known name, so that a typo cannot turn a rule off unnoticed.
`accord check --deny warnings` makes every warning left fail the run (exit 1).
";
