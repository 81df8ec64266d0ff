//! One namespace from several traits: jsonrpsee servers commonly split a namespace (`eth`)
//! across traits. Their methods and events merge; the same name from two traits is an error
//! naming both places unless the two are identical; each method keeps its own provenance.

use accord_schema_model::{Namespace, Wire};
use indexmap::IndexMap;

use crate::{
    diagnostic::{Diagnostics, Location},
    pointer_escape,
    rpc::Found,
};

/// The namespaces of the found traits, in the order first declared, with the provenance of
/// each namespace, method and event and the names whose version was given.
pub(crate) struct Merged {
    pub(crate) namespaces: IndexMap<String, Namespace>,
    pub(crate) provenance: Vec<(String, Location)>,
    pub(crate) versions_given: Vec<String>,
}

pub(crate) fn merge_traits(found: Vec<Found>, diags: &mut Diagnostics) -> Merged {
    let mut namespaces: IndexMap<String, Namespace> = IndexMap::new();
    // Per namespace: the first trait's name and place, whether a version was given, and every
    // member's trait and place.
    let mut first: IndexMap<String, (String, Location, bool)> = IndexMap::new();
    let mut members: IndexMap<(String, &'static str, String), (String, Location)> = IndexMap::new();
    let mut provenance = Vec::new();
    for f in found {
        let base = format!("/namespaces/{}", pointer_escape(&f.name));
        let Some(ns) = namespaces.get_mut(&f.name) else {
            provenance.push((base.clone(), f.at.clone()));
            for ((section, name), at) in f.sources {
                provenance
                    .push((format!("{base}/{section}/{}", pointer_escape(&name)), at.clone()));
                members.insert((f.name.clone(), section, name), (f.trait_name.clone(), at));
            }
            first.insert(f.name.clone(), (f.trait_name, f.at, f.version_given));
            namespaces.insert(f.name, f.namespace);
            continue;
        };
        let (first_trait, first_at, version_given) =
            first.get_mut(&f.name).expect("recorded with the namespace");
        if f.version_given {
            if *version_given && ns.version != f.namespace.version {
                diags.error(
                    "namespace-version",
                    f.at.clone(),
                    format!(
                        "namespace `{}` is version {} in trait `{}` ({first_at}) and {} in trait `{}`",
                        f.name, ns.version, first_trait, f.namespace.version, f.trait_name
                    ),
                    Some("give the version once, in accord.toml's [namespaces]".into()),
                );
            } else if !*version_given {
                ns.version = f.namespace.version.clone();
                *version_given = true;
            }
        }
        if ns.description.is_none() {
            ns.description = f.namespace.description;
        }
        if ns.deprecated.is_none() {
            ns.deprecated = f.namespace.deprecated;
        }
        let mut methods = f.namespace.methods.unwrap_or_default();
        let mut events = f.namespace.events.unwrap_or_default();
        for ((section, name), at) in f.sources {
            let key = (f.name.clone(), section, name.clone());
            let (old, new) = match section {
                "methods" => (
                    ns.methods.as_ref().and_then(|m| m.get(&name)).cloned().map(Some),
                    methods.shift_remove(&name).map(Some),
                ),
                _ => (None, None),
            };
            let (old_event, new_event) = match section {
                "events" => (
                    ns.events.as_ref().and_then(|m| m.get(&name)).cloned(),
                    events.shift_remove(&name),
                ),
                _ => (None, None),
            };
            if let Some((other_trait, other_at)) = members.get(&key) {
                let identical = match section {
                    "methods" => {
                        old == new
                            && same_wire(
                                ns.wire.as_ref(),
                                f.namespace.wire.as_ref(),
                                section,
                                &name,
                            )
                    }
                    _ => {
                        old_event == new_event
                            && same_wire(
                                ns.wire.as_ref(),
                                f.namespace.wire.as_ref(),
                                section,
                                &name,
                            )
                    }
                };
                if !identical {
                    let what = if section == "methods" { "method" } else { "event" };
                    diags.error(
                        "duplicate-member",
                        at,
                        format!(
                            "{what} `{}.{name}` is declared by trait `{other_trait}` ({other_at}) and, differently, by trait `{}`",
                            f.name, f.trait_name
                        ),
                        Some(format!("rename one, or make the two declarations identical; the contract keeps the one in `{other_trait}`")),
                    );
                }
                continue;
            }
            provenance.push((format!("{base}/{section}/{}", pointer_escape(&name)), at.clone()));
            members.insert(key, (f.trait_name.clone(), at));
            if let Some(Some(m)) = new {
                ns.methods.get_or_insert_with(IndexMap::new).insert(name.clone(), m);
            }
            if let Some(e) = new_event {
                ns.events.get_or_insert_with(IndexMap::new).insert(name.clone(), e);
            }
            merge_wire(ns, f.namespace.wire.as_ref(), section, &name, diags, &f.at);
        }
    }
    let mut versions_given = Vec::new();
    for (name, (_, at, given)) in first {
        if given {
            versions_given.push(name);
        } else {
            diags.warn(
                "no-version",
                at,
                format!("namespace `{name}` has no contract version"),
                Some(format!("add `accord: version = \"1.0.0\"` to the trait's doc, or `[namespaces.{name}] version = …` to accord.toml")),
            );
        }
    }
    Merged { namespaces, provenance, versions_given }
}

/// Whether two traits give `name` the same wire name (and pubsub names for an event).
fn same_wire(a: Option<&Wire>, b: Option<&Wire>, section: &str, name: &str) -> bool {
    let entry = |w: Option<&Wire>| -> Option<String> {
        let w = w?;
        match section {
            "methods" => w.methods.as_ref()?.get(name).cloned(),
            _ => w.events.as_ref()?.get(name).map(|e| format!("{e:?}")),
        }
    };
    entry(a) == entry(b)
}

/// Adds the wire entries of a member of a later trait to the namespace's section; two traits
/// of one namespace with different separators cannot share it (jsonrpsee serves each with its
/// own), an error.
fn merge_wire(
    ns: &mut accord_schema_model::Namespace,
    from: Option<&Wire>,
    section: &str,
    name: &str,
    diags: &mut Diagnostics,
    at: &Location,
) {
    let Some(from) = from else { return };
    let wire = ns.wire.get_or_insert_with(Wire::default);
    if wire.separator.is_none() {
        wire.separator = from.separator.clone();
    } else if from.separator.is_some() && wire.separator != from.separator {
        diags.error(
            "namespace-separator",
            at.clone(),
            format!(
                "this trait serves its namespace with separator {:?}, another trait of it with {:?}",
                from.separator.as_deref().unwrap_or(""),
                wire.separator.as_deref().unwrap_or("")
            ),
            Some("use one `namespace_separator` for every trait of a namespace".into()),
        );
    }
    match section {
        "methods" => {
            if let Some(served) = from.methods.as_ref().and_then(|m| m.get(name)) {
                wire.methods
                    .get_or_insert_with(IndexMap::new)
                    .insert(name.to_owned(), served.clone());
            }
        }
        _ => {
            if let Some(e) = from.events.as_ref().and_then(|m| m.get(name)) {
                wire.events.get_or_insert_with(IndexMap::new).insert(name.to_owned(), e.clone());
            }
        }
    }
}
