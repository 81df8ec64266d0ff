//! A contract for the rules that need validators, also when the document does not compile.
//!
//! What lint's own rules find that compiling would refuse (dangling refs, bad patterns, ref
//! cycles, bad discriminators) is set aside first, in a copy of the document as JSON: a
//! dangling ref or a type in a cycle becomes `any`, a bad pattern or discriminator is removed.
//! Then the copy is compiled; each error compiling still meets (anything lint's rules missed)
//! is kept for the rule it belongs to and set aside the same way, until the copy compiles. That
//! is one round per error, so lint's own rules keep it to one round in practice. Defaults and
//! examples are then checked against what is left, which is the contract the author meant
//! everywhere except at the places already reported.
//!
//! The validators of anonymous type nodes (a param's `type`, a field's) come from copies of
//! those nodes added to their namespace's `types` under names no document can use.
//!
//! A document with nothing to set aside (most of them, and every clean one) takes none of
//! this: it is compiled as it stands, its anonymous nodes with it as extra named types, once
//! and without a copy. The copy through JSON, read back and compiled twice, cost more than all
//! the rules together on a large contract (issue 18, defect 14). Only when that compile fails
//! are the rounds above run, from the start.

use std::collections::{HashMap, HashSet};

use accord_schema_model::{Document, Pointer};
use serde_json::{Value, json};

use crate::compile::Extra;
use crate::lint::found::Found;
use crate::lint::walk::{NodeAt, Place, Walk};
use crate::{Contract, Error, Target, Validator};

/// The compiled contract and what it took to get it.
#[derive(Debug)]
pub(crate) struct Repaired {
    /// The contract; `None` only if the copy could not be made to compile at all.
    pub(crate) contract: Option<Contract>,
    /// What compiling refused after lint's own findings were set aside, in the order met.
    pub(crate) errors: Vec<Error>,
    /// Every place set aside (a node replaced, or the member removed).
    pub(crate) patched: Vec<Pointer>,
    /// Targets of the copies of anonymous nodes, by the original node's pointer.
    synthetic: HashMap<Pointer, Target>,
}

impl Repaired {
    /// The validator of `target`, when the contract compiled.
    pub(crate) fn validator(&self, target: &Target) -> Option<Validator<'_>> {
        self.contract.as_ref()?.validator(target).ok()
    }

    /// The validator of the type node `node`, when there is one (not for nodes under a part
    /// that was set aside).
    pub(crate) fn node_validator(&self, node: &NodeAt<'_>) -> Option<Validator<'_>> {
        let target = match node.place {
            Place::Named => named_target(&node.pointer)?,
            _ => self.synthetic.get(&node.pointer)?.clone(),
        };
        self.validator(&target)
    }

    /// Whether a type node at `at`, or below it, was set aside (a discriminator removed does not
    /// count: it is no other rule's finding).
    pub(crate) fn set_aside_within(&self, at: &Pointer) -> bool {
        self.patched.iter().any(|p| is_under(p, at) && !p.as_str().ends_with("/discriminator"))
    }
}

/// Whether `at` is `above` or below it.
pub(crate) fn is_under(at: &Pointer, above: &Pointer) -> bool {
    let (at, above) = (at.as_str(), above.as_str());
    at == above || (at.starts_with(above) && at.as_bytes().get(above.len()) == Some(&b'/'))
}

/// `Target::Type` for a named type's pointer `/namespaces/NS/types/NAME`.
fn named_target(at: &Pointer) -> Option<Target> {
    let segments: Vec<String> =
        at.as_str().split('/').skip(1).map(|s| s.replace("~1", "/").replace("~0", "~")).collect();
    match segments.as_slice() {
        [n, namespace, t, name] if n == "namespaces" && t == "types" => {
            Some(Target::Type { namespace: namespace.clone(), name: name.clone() })
        }
        _ => None,
    }
}

/// Compiling gives up after this many errors (each one set aside makes progress, so this only
/// bounds pathological documents).
const MAX_ROUNDS: usize = 10_000;

pub(crate) fn repair(walk: &Walk<'_>, found: &Found) -> Repaired {
    let Found { dangling, patterns, cycles, discriminators } = found;
    let nothing_found = dangling.is_empty()
        && patterns.is_empty()
        && cycles.is_empty()
        && discriminators.is_empty();
    if nothing_found && let Some(repaired) = compile_in_place(walk) {
        return repaired;
    }

    let mut value = walk.doc.to_value();
    let mut patched = Vec::new();
    for d in dangling {
        replace_with_any(&mut value, &d.node, &mut patched);
    }
    for b in patterns {
        remove(&mut value, &b.pointer, &mut patched);
    }
    for cycle in cycles {
        for at in cycle.members.iter().map(|(ns, name)| Walk::named_pointer(ns, name)) {
            replace_with_any(&mut value, &at, &mut patched);
        }
    }
    for bad in discriminators {
        remove(&mut value, &bad.at.key("discriminator"), &mut patched);
    }

    let mut errors = Vec::new();
    let mut contract = None;
    for _ in 0..MAX_ROUNDS {
        let Ok(doc) = Document::from_value(value.clone()) else { break };
        match Contract::compile(&doc) {
            Ok(compiled) => {
                contract = Some(compiled);
                break;
            }
            Err(err) => {
                let progress = match &err {
                    Error::DanglingRef { at, .. } | Error::RefCycle { at, .. } => {
                        replace_with_any(&mut value, at, &mut patched)
                    }
                    Error::BadPattern { at, .. } => remove(&mut value, at, &mut patched),
                    Error::BadDiscriminator { at, .. } => {
                        remove(&mut value, &at.key("discriminator"), &mut patched)
                    }
                    _ => false,
                };
                errors.push(err);
                if !progress {
                    break;
                }
            }
        }
    }

    let mut repaired = Repaired { contract, errors, patched, synthetic: HashMap::new() };
    if repaired.contract.is_some() {
        add_synthetic(walk, value, &mut repaired);
    }
    repaired
}

/// The anonymous nodes that carry a default or examples: each needs a validator of its own.
fn wanted<'w, 'd>(walk: &'w Walk<'d>) -> impl Iterator<Item = &'w NodeAt<'d>> {
    walk.nodes.iter().filter(|n| {
        n.place != Place::Named && (n.node.default.is_some() || n.node.examples.is_some())
    })
}

/// The name of the `i`th copy of an anonymous node: no document names a type with a control
/// character and this prefix; if one does (`taken`), the number moves on.
fn synthetic_name(i: usize, taken: impl Fn(&str) -> bool) -> String {
    (i..).map(|n| format!("\u{1}lint-node-{n}")).find(|name| !taken(name)).expect("a free name")
}

/// The document compiled as it stands, with the anonymous nodes of [`wanted`] as further named
/// types of their namespaces, in one compile and without a copy of the document: what
/// [`repair`] gives a document with nothing to set aside. `None` when that does not compile
/// (then the copy is repaired round by round).
fn compile_in_place(walk: &Walk<'_>) -> Option<Repaired> {
    let mut extra: Vec<Extra<'_>> = Vec::new();
    let mut pointers = Vec::new();
    let mut taken: HashSet<(&str, String)> = HashSet::new();
    for (i, node) in wanted(walk).enumerate() {
        let ns = node.namespace;
        let name = synthetic_name(i, |name| {
            walk.named(ns, name).is_some() || taken.contains(&(ns, name.to_owned()))
        });
        taken.insert((ns, name.clone()));
        extra.push(Extra { namespace: ns, name, node: node.node });
        pointers.push(&node.pointer);
    }
    let contract = Contract::compile_with(walk.doc, &extra).ok()?;
    let synthetic = pointers
        .into_iter()
        .zip(extra)
        .map(|(at, e)| {
            (at.clone(), Target::Type { namespace: e.namespace.to_owned(), name: e.name })
        })
        .collect();
    Some(Repaired { contract: Some(contract), errors: Vec::new(), patched: Vec::new(), synthetic })
}

/// Compiles copies of the anonymous nodes that carry a default or examples, as named types, so
/// that each has a validator. If that fails, those nodes have none.
fn add_synthetic(walk: &Walk<'_>, mut value: Value, repaired: &mut Repaired) {
    let mut synthetic = HashMap::new();
    for (i, node) in wanted(walk).enumerate() {
        let Some(copy) = value.pointer(node.pointer.as_str()).cloned() else { continue };
        let Some(types) = value
            .pointer_mut(Pointer::root().key("namespaces").key(node.namespace).as_str())
            .and_then(Value::as_object_mut)
            .map(|ns| ns.entry("types").or_insert_with(|| json!({})))
            .and_then(Value::as_object_mut)
        else {
            continue;
        };
        let name = synthetic_name(i, |name| types.contains_key(name));
        types.insert(name.clone(), copy);
        synthetic.insert(
            node.pointer.clone(),
            Target::Type { namespace: node.namespace.to_owned(), name },
        );
    }
    if synthetic.is_empty() {
        return;
    }
    let Ok(doc) = Document::from_value(value) else { return };
    if let Ok(contract) = Contract::compile(&doc) {
        repaired.contract = Some(contract);
        repaired.synthetic = synthetic;
    }
}

/// Replaces the node at `at` with `{"kind": "any"}`; whether there was one.
fn replace_with_any(value: &mut Value, at: &Pointer, patched: &mut Vec<Pointer>) -> bool {
    match value.pointer_mut(at.as_str()) {
        Some(node) if *node != json!({"kind": "any"}) => {
            *node = json!({"kind": "any"});
            patched.push(at.clone());
            true
        }
        _ => false,
    }
}

/// Removes the member at `at`; whether there was one.
fn remove(value: &mut Value, at: &Pointer, patched: &mut Vec<Pointer>) -> bool {
    let mut parent = at.clone();
    parent.pop();
    let Some(key) = at.as_str().rsplit('/').next().map(|s| s.replace("~1", "/").replace("~0", "~"))
    else {
        return false;
    };
    let removed = value
        .pointer_mut(parent.as_str())
        .and_then(Value::as_object_mut)
        .and_then(|record| record.shift_remove(&key))
        .is_some();
    if removed {
        patched.push(at.clone());
    }
    removed
}
