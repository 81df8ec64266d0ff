#![doc = include_str!("../README.md")]

mod budget;
mod bytes;
mod checks;
mod compile;
mod error;
mod format;
#[cfg(feature = "generate")]
mod generate;
#[cfg(feature = "json-schema")]
mod json_schema;
#[cfg(feature = "json-schema")]
mod json_schema_strict;
#[cfg(feature = "lint")]
mod lint;
mod number;
mod pattern;
mod program;
mod report;
mod value;

use std::collections::HashMap;

use accord_schema_model::Document;
use serde_json::Value;

pub use crate::{
    budget::{Budget, BudgetLimit, DEFAULT_MAX_BYTES, DEFAULT_MAX_NODES},
    compile::Target,
    error::Error,
    format::Format,
    pattern::MAX_PATTERN_COST,
    report::{ValidationError, ValidationRule},
};

#[cfg(feature = "generate")]
pub use crate::generate::{ArmPreference, DEFAULT_MAX_DEPTH, DEFAULT_MAX_ITEMS, Generator, Mutant};

#[cfg(feature = "json-schema")]
pub use crate::json_schema::{
    JSON_SCHEMA_DIALECT, SchemaWriter, json_schema, json_schema_of_contract,
};
#[cfg(feature = "json-schema")]
pub use crate::json_schema_strict::strict_json_schema;

#[cfg(feature = "lint")]
pub use crate::lint::{
    Diagnostic, LintReport, LintRule, Severity, did_you_mean, lint,
    rules_markdown as lint_rules_markdown,
};

use crate::program::{NodeId, Program};

/// The default nesting limit: values nested deeper are invalid (and never overflow the stack).
pub const DEFAULT_DEPTH_LIMIT: usize = 128;

/// The greatest nesting limit a validator accepts; [`Validator::with_depth_limit`] clamps to it,
/// since checking recurses once per level.
pub const MAX_DEPTH_LIMIT: usize = 1024;

/// Every type of one contract, compiled.
#[derive(Debug)]
pub struct Contract {
    program: Program,
    targets: HashMap<Target, NodeId>,
    /// Whether any string type has a `pattern` (worked out once, at compile).
    patterns: bool,
}

impl Contract {
    /// Compiles every named type, every method's params, result and error data, and every
    /// event's payload.
    ///
    /// # Errors
    ///
    /// A dangling ref, a pattern that does not compile, a type that reaches itself through
    /// refs and union arms alone, or a discriminator that does not pick arms.
    pub fn compile(doc: &Document) -> Result<Contract, Error> {
        let compiled = compile::compile(doc)?;
        Ok(Contract::of(compiled.program, compiled.targets))
    }

    /// [`Contract::compile`], with `extra` nodes compiled as further named types.
    #[cfg(feature = "lint")]
    pub(crate) fn compile_with(
        doc: &Document,
        extra: &[compile::Extra<'_>],
    ) -> Result<Contract, Error> {
        let compiled = compile::compile_with(doc, extra)?;
        Ok(Contract::of(compiled.program, compiled.targets))
    }

    fn of(program: Program, targets: HashMap<Target, NodeId>) -> Contract {
        let patterns = program
            .nodes
            .iter()
            .any(|n| matches!(n, program::Node::String(t) if t.pattern.is_some()));
        Contract { program, targets, patterns }
    }

    /// Whether any of its strings is checked against a `pattern`: only then can one
    /// validation spend up to [`MAX_PATTERN_COST`] (about 1.6 s at worst), so a server that
    /// must not stall its other connections moves such validations off its event loop.
    pub fn has_patterns(&self) -> bool {
        self.patterns
    }

    /// The validator for `target`.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`] when the contract has no such method, event, type or error data.
    pub fn validator(&self, target: &Target) -> Result<Validator<'_>, Error> {
        match self.targets.get(target) {
            Some(&root) => {
                Ok(Validator { program: &self.program, root, depth_limit: DEFAULT_DEPTH_LIMIT })
            }
            None => Err(not_found(target)),
        }
    }

    /// Every target the contract has, in a stable order.
    pub fn targets(&self) -> Vec<&Target> {
        let mut all: Vec<&Target> = self.targets.keys().collect();
        all.sort();
        all
    }
}

fn not_found(target: &Target) -> Error {
    let (what, namespace, name) = match target {
        Target::Type { namespace, name } => ("type", namespace, name.clone()),
        Target::Params { namespace, method } | Target::Result { namespace, method } => {
            ("method", namespace, method.clone())
        }
        Target::Event { namespace, event } => ("event", namespace, event.clone()),
        Target::ErrorData { namespace, method, code } => {
            ("error with data", namespace, format!("{method} (code {code})"))
        }
    };
    Error::NotFound { what, namespace: namespace.clone(), name }
}

/// Checks values against one type of a compiled [`Contract`].
#[derive(Debug, Clone, Copy)]
pub struct Validator<'c> {
    program: &'c Program,
    root: NodeId,
    depth_limit: usize,
}

impl<'c> Validator<'c> {
    /// Whether a value it checks can meet a `pattern`: only then can one validation spend up
    /// to [`MAX_PATTERN_COST`]. Per target, where [`Contract::has_patterns`] is per contract: a
    /// server moves only these validations off its event loop. The first question walks the
    /// contract's types once, for every target (linear in the contract); the others look up.
    pub fn reaches_pattern(&self) -> bool {
        self.program.reaches_pattern(self.root)
    }

    /// The same validator with another nesting limit (at most [`MAX_DEPTH_LIMIT`]).
    pub fn with_depth_limit(self, limit: usize) -> Self {
        Validator { depth_limit: limit.min(MAX_DEPTH_LIMIT), ..self }
    }

    /// The number of arms of the type when it is a union (through refs), else `None`: the
    /// indexes [`Generator::root_arm`] takes.
    pub fn union_arms(&self) -> Option<usize> {
        match self.program.node(self.program.resolve(self.root)) {
            program::Node::Union(union) => Some(union.variants.len()),
            _ => None,
        }
    }

    /// Whether `value` is valid; stops at the first problem.
    pub fn is_valid(&self, value: &Value) -> bool {
        let _run = pattern::Run::start();
        value::Quiet::new(self.program, self.depth_limit).check(self.root, value, 0)
    }

    /// Every way `value` is invalid, in document order.
    ///
    /// # Errors
    ///
    /// The list of errors, never empty, when the value is invalid.
    pub fn validate(&self, value: &Value) -> Result<(), Vec<ValidationError>> {
        let _run = pattern::Run::start();
        let mut check = value::ValueCheck::new(self.program, true, self.depth_limit);
        if check.check(self.root, value) { Ok(()) } else { Err(check.errors) }
    }

    /// Whether `bytes` are one JSON value valid for this type; stops at the first problem.
    /// Nothing is allocated for valid input.
    pub fn is_valid_bytes(&self, bytes: &[u8]) -> bool {
        let _run = pattern::Run::start();
        bytes::ByteCheck::new(self.program, bytes, false, self.depth_limit).run(self.root)
    }

    /// Every way `bytes` are invalid: syntax (the first syntax error ends the check), UTF-8,
    /// depth, and every type rule, as [`Validator::validate`] reports them.
    ///
    /// # Errors
    ///
    /// The list of errors, never empty, when the bytes are not valid.
    pub fn validate_bytes(&self, bytes: &[u8]) -> Result<(), Vec<ValidationError>> {
        let _run = pattern::Run::start();
        let mut check = bytes::ByteCheck::new(self.program, bytes, true, self.depth_limit);
        if check.run(self.root) { Ok(()) } else { Err(check.errors) }
    }
}
