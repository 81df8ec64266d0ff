//! Witness values: a concrete value one side accepts and the other refuses, found with
//! validate's generator and checked with its validators.

use accord_schema_model::{Document, Namespace, TypeNode};
use accord_validate::{Contract, Target};
use indexmap::IndexMap;
use serde_json::Value;

use crate::compare::WitnessPlan;
use crate::rules::Polarity;

/// How many generated values of the wider side are tried before giving up.
pub(crate) const TRIES: u64 = 48;

const NAME: &str = "__accord_witness";

fn with_type(doc: &Document, ns: &str, node: &TypeNode) -> Document {
    let mut doc = doc.clone();
    let nss = doc.namespaces.get_or_insert_with(IndexMap::new);
    let n = nss
        .entry(ns.to_owned())
        .or_insert_with(|| Namespace { version: "0.0.0".to_owned(), ..Namespace::default() });
    n.types.get_or_insert_with(IndexMap::new).insert(NAME.to_owned(), node.clone());
    doc
}

/// A value the writer side accepts and the reader side refuses: under input the old side
/// writes, under output the new side writes.
pub(crate) fn find(
    plan: &WitnessPlan,
    polarity: Polarity,
    old: &Document,
    new: &Document,
) -> Option<Value> {
    let (old_doc, old_target, new_doc, new_target) = match plan {
        WitnessPlan::Types { old_ns, old: o, new_ns, new: n } => (
            with_type(old, old_ns, o),
            Target::Type { namespace: old_ns.clone(), name: NAME.to_owned() },
            with_type(new, new_ns, n),
            Target::Type { namespace: new_ns.clone(), name: NAME.to_owned() },
        ),
        WitnessPlan::Params { old_ns, new_ns, method } => (
            old.clone(),
            Target::Params { namespace: old_ns.clone(), method: method.clone() },
            new.clone(),
            Target::Params { namespace: new_ns.clone(), method: method.clone() },
        ),
    };
    let old_c = Contract::compile(&old_doc).ok()?;
    let new_c = Contract::compile(&new_doc).ok()?;
    let old_v = old_c.validator(&old_target).ok()?;
    let new_v = new_c.validator(&new_target).ok()?;
    let (writer, reader) = match polarity {
        Polarity::Input => (old_v, new_v),
        Polarity::Output => (new_v, old_v),
    };
    let generator = writer.generator();
    (0..TRIES).find_map(|seed| {
        let value = generator.generate(seed).ok()?;
        (writer.is_valid(&value) && !reader.is_valid(&value)).then_some(value)
    })
}
