//! Which namespace each member of an RPC trait goes to. A trait with a namespace (`#[rpc(
//! namespace = "eth")]`, or the `accord: namespace` tag) holds all its members; a jsonrpsee
//! trait without one, and every jsonrpc-derive trait, declares full wire names
//! (`chain_getBlock`, `chainHead_v1_follow`) and each member is placed by splitting its name at
//! the wire separator, with the model's `split_wire_name` (the rule `import openrpc` places a
//! method by).

use accord_schema_model::{Event, EventWire, Method, split_wire_name};
use indexmap::IndexMap;
use syn::TraitItem;

use crate::{
    attrs,
    diagnostic::Location,
    lower::Lowerer,
    rpc::{chunks, lit},
};

/// The separators a trait's wire names are tried with, in order of preference (jsonrpsee's
/// default first).
const SEPARATORS: [&str; 2] = ["_", "."];

/// The framework whose attributes a trait is read with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Framework {
    /// jsonrpsee: `#[rpc]` on the trait, `#[method]` and `#[subscription]` on its items.
    Jsonrpsee,
    /// jsonrpc-derive (paritytech/jsonrpc): `#[rpc]` on the trait and on its methods,
    /// `#[pubsub]` on its subscription methods.
    JsonrpcDerive,
    /// A plain trait tagged `accord: namespace = "…"`.
    Tagged,
}

/// jsonrpc-derive when an item carries `#[rpc]` or `#[pubsub]` (jsonrpsee's are `#[method]`
/// and `#[subscription]`).
pub(crate) fn framework_of(has_rpc: bool, items: &[TraitItem]) -> Framework {
    if !has_rpc {
        return Framework::Tagged;
    }
    let derive = items.iter().any(|i| match i {
        TraitItem::Fn(f) => {
            attrs::flatten(&f.attrs).iter().any(|a| a.name == "rpc" || a.name == "pubsub")
        }
        _ => false,
    });
    if derive { Framework::JsonrpcDerive } else { Framework::Jsonrpsee }
}

/// How jsonrpsee names a trait's methods on the wire: its `rpc_identifier`, the `namespace`
/// key of `#[rpc]`, the separator (default `_`) and the name; no namespace, the name alone.
pub(crate) struct WireNames {
    pub(crate) namespace: Option<String>,
    pub(crate) separator: String,
}

impl WireNames {
    pub(crate) fn of(&self, name: &str) -> String {
        match &self.namespace {
            Some(ns) => format!("{ns}{}{name}", self.separator),
            None => name.to_owned(),
        }
    }
}

/// Where a trait's members go.
pub(crate) enum Placement {
    /// One namespace for every member, named as jsonrpsee qualifies them.
    Fixed { ns: String, names: WireNames },
    /// No namespace declared: each member's namespace and name come from its full wire name,
    /// split at `separator`; a name that does not split goes to `fallback` under its own name.
    FromWire { separator: String, fallback: String },
}

impl Placement {
    /// The trait's namespace, or the one most of its names share.
    pub(crate) fn primary(&self) -> &str {
        match self {
            Placement::Fixed { ns, .. } => ns,
            Placement::FromWire { fallback, .. } => fallback,
        }
    }

    /// The contract namespace and name of a member declared as `declared`, and its wire name.
    pub(crate) fn place(&self, declared: &str) -> (String, String, String) {
        match self {
            Placement::Fixed { ns, names } => (ns.clone(), declared.to_owned(), names.of(declared)),
            Placement::FromWire { separator, fallback } => {
                match split_wire_name(declared, separator) {
                    Some((ns, name)) => (ns.to_owned(), name.to_owned(), declared.to_owned()),
                    None => (fallback.clone(), declared.to_owned(), declared.to_owned()),
                }
            }
        }
    }

    /// The wire name of a method declared as `declared` (a subscribe or unsubscribe method).
    pub(crate) fn served(&self, declared: &str) -> String {
        match self {
            Placement::Fixed { names, .. } => names.of(declared),
            Placement::FromWire { .. } => declared.to_owned(),
        }
    }

    /// The separator the contract's `wire` section records.
    pub(crate) fn separator(&self) -> String {
        match self {
            Placement::Fixed { names, .. } if names.namespace.is_some() => names.separator.clone(),
            Placement::Fixed { .. } => String::new(),
            Placement::FromWire { separator, .. } => separator.clone(),
        }
    }
}

/// One namespace's members from one trait.
#[derive(Default)]
pub(crate) struct Group {
    pub(crate) methods: IndexMap<String, Method>,
    pub(crate) events: IndexMap<String, Event>,
    pub(crate) method_wires: IndexMap<String, String>,
    pub(crate) event_wires: IndexMap<String, EventWire>,
    pub(crate) sources: Vec<((&'static str, String), Location)>,
}

/// An event, placed in its namespace.
pub(crate) struct Placed {
    pub(crate) ns: String,
    pub(crate) name: String,
    pub(crate) event: Event,
    pub(crate) wire: EventWire,
}

/// A subscription's names as declared: its notification (the event), subscribe and
/// unsubscribe methods.
pub(crate) struct EventNames {
    pub(crate) declared: String,
    pub(crate) subscribe: String,
    pub(crate) unsubscribe: String,
}

/// The wire names a trait declares for its methods and notifications, before any is read.
fn declared_names(items: &[TraitItem]) -> Vec<String> {
    let mut out = Vec::new();
    for item in items {
        let TraitItem::Fn(f) = item else { continue };
        for a in attrs::flatten(&f.attrs) {
            for (key, value) in chunks(&a.args) {
                match (a.name.as_str(), key.as_str()) {
                    ("method" | "rpc", "name") => out.extend(lit(&value)),
                    // `name = "subscribe" => "notification"`: the notification names the event.
                    ("subscription", "name") => out.extend(
                        value.iter().filter_map(|t| lit(std::slice::from_ref(t))).next_back(),
                    ),
                    ("pubsub", "subscription") => out.extend(lit(&value)),
                    _ => {}
                }
            }
        }
    }
    out
}

/// A namespace named after the trait: `ChainApi` → `chain`, `AuthorRpc` → `author`.
fn from_trait_name(trait_name: &str) -> String {
    let mut base = trait_name;
    for suffix in ["Api", "Rpc", "Server"] {
        if let Some(b) = base.strip_suffix(suffix).filter(|b| !b.is_empty()) {
            base = b;
            break;
        }
    }
    let mut chars = base.chars();
    let first = chars.next().map(|c| c.to_lowercase().collect::<String>()).unwrap_or_default();
    let name = format!("{first}{}", chars.as_str());
    // `rpc` is the protocol's own namespace (docs/wire.md §2).
    if name == "rpc" { "rpcApi".to_owned() } else { name }
}

impl Lowerer<'_> {
    /// The placement of a framework trait that declares no namespace: the separator that
    /// splits most of its names, the namespace most of them share first; when none splits, a
    /// namespace named after the trait with the names served alone (warning
    /// `namespace-from-trait`).
    pub(crate) fn placement_from_wire(
        &mut self,
        items: &[TraitItem],
        trait_name: &str,
        at: &Location,
    ) -> Placement {
        let names = declared_names(items);
        let splits = |sep: &str| names.iter().filter(|n| split_wire_name(n, sep).is_some()).count();
        let best =
            SEPARATORS.iter().copied().max_by_key(|s| (splits(s), std::cmp::Reverse(*s == ".")));
        let separator = best.filter(|s| splits(s) > 0);
        let Some(separator) = separator else {
            let ns = from_trait_name(trait_name);
            self.diags.warn(
                "namespace-from-trait",
                at.clone(),
                format!(
                    "trait `{trait_name}` declares no namespace and none of its {} wire names has a separator (`_` or `.`) to take one from: its members are namespace `{ns}`, served under their own names (wire separator \"\")",
                    names.len()
                ),
                Some("give `namespace = \"…\"` in `#[rpc]` (jsonrpsee), or `accord: namespace = \"…\"` in the trait's doc, to choose another".into()),
            );
            return Placement::FromWire { separator: String::new(), fallback: ns };
        };
        let mut counts: IndexMap<&str, usize> = IndexMap::new();
        for n in &names {
            if let Some((ns, _)) = split_wire_name(n, separator) {
                *counts.entry(ns).or_default() += 1;
            }
        }
        let mut fallback = counts.keys().next().copied().unwrap_or_default();
        for (ns, c) in &counts {
            if *c > counts[fallback] {
                fallback = ns;
            }
        }
        Placement::FromWire { separator: separator.to_owned(), fallback: fallback.to_owned() }
    }

    /// Warning `wire-name-unsplit`: a member whose wire name has no separator, placed in the
    /// trait's main namespace under its own name (the wire section keeps the name).
    pub(crate) fn unsplit(
        &mut self,
        placement: &Placement,
        declared: &str,
        ns: &str,
        at: &Location,
    ) {
        if let Placement::FromWire { separator, .. } = placement
            && !separator.is_empty()
            && split_wire_name(declared, separator).is_none()
        {
            self.diags.warn(
                "wire-name-unsplit",
                at.clone(),
                format!("`{declared}` has no `{separator}` to split a namespace from: it is placed in namespace `{ns}`, the one most of the trait's names share, under its own name"),
                None,
            );
        }
    }
}
