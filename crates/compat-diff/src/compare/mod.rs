//! The comparison engine: one walk over old and new, parameterised by polarity. It emits
//! [`Change`]s naming registry rules (`rules::BOUND_TIGHTENED`); levels come from the registry,
//! never from here.
//!
//! One [`Comparison`], its walk split by section: `surface.rs` (documents, namespaces, methods
//! and events appearing and disappearing), `methods.rs` (semantics, params, results, errors),
//! `named.rs` (named types, and which positions reach them), `types.rs` (kinds, refs, unions,
//! arrays, tuples, enums, objects) and `constraints.rs` (bounds and the attributes compared
//! by one table: defaults, `multipleOf`, units, patterns, formats).

mod constraints;
mod methods;
mod named;
mod surface;
mod types;

pub(crate) use self::named::direct_refs;

use std::collections::HashSet;

use accord_schema_model::{Document, Field, Pointer, Reserved, TypeNode};

use crate::rules::{self, CompatRule, Polarity};

/// The kind of place a change stands in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PositionKind {
    /// A method's params.
    Params,
    /// A method's result.
    Result,
    /// An event's payload.
    Event,
    /// A declared error's data.
    ErrorData,
    /// Namespaces, methods, events and errors themselves.
    Surface,
}

impl PositionKind {
    /// As written in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            PositionKind::Params => "params",
            PositionKind::Result => "result",
            PositionKind::Event => "event",
            PositionKind::ErrorData => "error-data",
            PositionKind::Surface => "surface",
        }
    }

    pub(crate) fn polarity(self) -> Polarity {
        match self {
            PositionKind::Params | PositionKind::Surface => Polarity::Input,
            _ => Polarity::Output,
        }
    }
}

/// What a witness is sought from.
#[derive(Debug, Clone)]
pub(crate) enum WitnessPlan {
    /// Two type nodes, each in its namespace of its document.
    Types { old_ns: String, old: Box<TypeNode>, new_ns: String, new: Box<TypeNode> },
    /// A method's params in both documents.
    Params { old_ns: String, new_ns: String, method: String },
}

/// One change: a rule, where, and why.
#[derive(Debug, Clone)]
pub(crate) struct Change {
    pub(crate) rule: &'static CompatRule,
    pub(crate) polarity: Polarity,
    pub(crate) position: PositionKind,
    pub(crate) namespace: String,
    pub(crate) path: String,
    pub(crate) message: String,
    /// Where it stands: in the old document (removals) or the new one.
    pub(crate) on_old: bool,
    pub(crate) pointer: Pointer,
    pub(crate) witness: Option<WitnessPlan>,
}

/// Where the walk stands.
#[derive(Debug, Clone)]
struct At {
    path: String,
    old: Pointer,
    new: Pointer,
    polarity: Polarity,
    position: PositionKind,
    old_ns: String,
    new_ns: String,
    /// Appended to every message (which positions reach a named type).
    note: Option<String>,
    /// Whether an optional addition in params has an acknowledgment: the result gains a field
    /// only a plant implementing it produces. False in params of a method whose result gains
    /// none, and in named types reached from params (no one method's result speaks for them).
    ack: bool,
}

impl At {
    fn down(&self, path: &str, old: &[&str], new: &[&str]) -> At {
        let mut at = self.clone();
        at.path.push_str(path);
        for k in old {
            at.old.push_key(k);
        }
        for k in new {
            at.new.push_key(k);
        }
        at
    }
}

/// One comparison of two documents: the engine's state while it walks them (both documents,
/// the changes found so far, and the pairs of named types already compared under a polarity,
/// so that recursive types end). Its methods are spread over this module's files by section.
pub(crate) struct Comparison<'a> {
    old: &'a Document,
    new: &'a Document,
    pub(crate) changes: Vec<Change>,
    visited: HashSet<(String, String, String, String, Polarity)>,
}

fn ptr(parts: &[&str]) -> Pointer {
    let mut p = Pointer::root();
    for k in parts {
        p.push_key(k);
    }
    p
}

fn reserved_has(reserved: &Option<Vec<Reserved>>, name: &str) -> bool {
    reserved.iter().flatten().any(|r| r.name == name)
}

fn deprecated(d: &Option<accord_schema_model::Deprecated>) -> bool {
    d.as_ref().is_some_and(|d| d.is_deprecated())
}

/// The shape of a node without its documentation, for rename hints.
fn shape(node: &TypeNode) -> TypeNode {
    let mut n = node.clone();
    n.description = None;
    n.examples = None;
    n.deprecated = None;
    n.unknown.clear();
    n
}

/// Whether a field or param may be absent in the direction being compared: params and what
/// callers write read `inputOptional`, what the plant writes reads `outputOptional`; both fall
/// back to `optional` (docs/format.md, section 14).
fn present_optional(f: &Field, polarity: Polarity) -> bool {
    match polarity {
        Polarity::Input => f.is_optional_in(),
        Polarity::Output => f.is_optional_out(),
    }
}

fn same_field_shape(a: &Field, b: &Field) -> bool {
    a.is_optional_in() == b.is_optional_in()
        && a.is_optional_out() == b.is_optional_out()
        && shape(&a.ty) == shape(&b.ty)
}

impl<'a> Comparison<'a> {
    pub(crate) fn new(old: &'a Document, new: &'a Document) -> Self {
        Comparison { old, new, changes: Vec::new(), visited: HashSet::new() }
    }

    /// Names the old side reserved and the new side no longer does: nothing stops their reuse.
    fn reserved_dropped(
        &mut self,
        at: &At,
        old: &Option<Vec<Reserved>>,
        new: &Option<Vec<Reserved>>,
        what: &str,
    ) {
        for r in old.iter().flatten().filter(|r| !reserved_has(new, &r.name)) {
            let h = at.down("", &["reserved"], &[]);
            self.emit(
                &h,
                &rules::RESERVED_NAME_REMOVED,
                true,
                format!("`{}` is no longer reserved in {what} `{}`", r.name, at.path),
            );
        }
    }

    /// Records `rule` at `at`, located in the old document (`on_old`, for what was removed) or
    /// the new one.
    fn emit(&mut self, at: &At, rule: &'static CompatRule, on_old: bool, message: String) {
        self.emit_with(at, rule, on_old, message, None);
    }

    /// As [`Self::emit`], with what a witness value is sought from (kept only for rules that
    /// carry a witness).
    fn emit_with(
        &mut self,
        at: &At,
        rule: &'static CompatRule,
        on_old: bool,
        message: String,
        witness: Option<WitnessPlan>,
    ) {
        let message = match &at.note {
            Some(note) => format!("{message} ({note})"),
            None => message,
        };
        let witness = if rule.witness { witness } else { None };
        self.changes.push(Change {
            rule,
            polarity: at.polarity,
            position: at.position,
            namespace: at.new_ns.clone(),
            path: at.path.clone(),
            message,
            on_old,
            pointer: if on_old { at.old.clone() } else { at.new.clone() },
            witness,
        });
    }

    fn types_witness(at: &At, o: &TypeNode, n: &TypeNode) -> Option<WitnessPlan> {
        Some(WitnessPlan::Types {
            old_ns: at.old_ns.clone(),
            old: Box::new(o.clone()),
            new_ns: at.new_ns.clone(),
            new: Box::new(n.clone()),
        })
    }
}
/// Compares two type nodes alone (no document around them), for the duality property.
pub fn compare_types(
    old: &TypeNode,
    new: &TypeNode,
    polarity: Polarity,
) -> Vec<&'static CompatRule> {
    let doc = Document::default();
    let mut cx = Comparison::new(&doc, &doc);
    let at = At {
        path: "t".to_owned(),
        old: Pointer::root(),
        new: Pointer::root(),
        polarity,
        position: if polarity == Polarity::Input {
            PositionKind::Params
        } else {
            PositionKind::Result
        },
        old_ns: "t".to_owned(),
        new_ns: "t".to_owned(),
        note: None,
        ack: true,
    };
    cx.types(&at, old, new);
    cx.changes.into_iter().map(|c| c.rule).collect()
}
