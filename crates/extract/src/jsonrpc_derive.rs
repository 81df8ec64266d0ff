//! jsonrpc-derive (paritytech/jsonrpc) traits: `#[rpc(name = "…", alias(…), meta,
//! notification, params = "…", returns = "…")]` methods and `#[pubsub(subscription = "…",
//! subscribe | unsubscribe, name = "…")]` pairs. The trait has no namespace: names are placed
//! from the wire names (placement.rs), types read as a jsonrpsee trait's are.

use std::collections::HashMap;

use accord_schema_model::ParamStructure;
use proc_macro2::TokenTree;
use syn::{TraitItem, Type};

use crate::{
    attrs::{self, RawAttr},
    diagnostic::{Diagnostics, Location, locate},
    lower::{Lowerer, Scope},
    placement::{EventNames, Placed, Placement},
    rpc::{chunks, lit},
};

/// The jsonrpc-derive keys of one `#[rpc]` method.
#[derive(Default)]
pub(crate) struct MethodKeys {
    /// `meta`: the first param is the request's metadata, not on the wire.
    pub(crate) meta: bool,
    /// `notification`: no answer, so no result.
    pub(crate) notification: bool,
    /// `params = "named"` / `"positional"` / `"raw"`.
    pub(crate) params: Option<String>,
    /// `returns = "T"`: the result type when the return type does not show it.
    pub(crate) returns: Option<Type>,
}

impl MethodKeys {
    pub(crate) fn read(
        &mut self,
        key: &str,
        value: &[TokenTree],
        at: &Location,
        diags: &mut Diagnostics,
    ) {
        match key {
            "meta" => self.meta = true,
            "notification" => {
                self.notification = true;
                diags.warn(
                    "notification",
                    at.clone(),
                    "a jsonrpc-derive notification is never answered: its result is null in the contract and a call gets no answer".into(),
                    None,
                );
            }
            "params" => {
                self.params = lit(value);
                if self.params.as_deref() == Some("raw") {
                    diags.warn(
                        "raw-params",
                        at.clone(),
                        "`params = \"raw\"`: the method reads its params itself; the contract lists the one `Params` argument".into(),
                        None,
                    );
                }
            }
            "returns" => match lit(value).map(|t| syn::parse_str::<Type>(&t)) {
                Some(Ok(t)) => self.returns = Some(t),
                _ => diags.error(
                    "method-returns",
                    at.clone(),
                    "`returns` is not a string holding a Rust type".into(),
                    None,
                ),
            },
            _ => {}
        }
    }

    /// The leading params that are not on the wire.
    pub(crate) fn skip(&self) -> usize {
        usize::from(self.meta)
    }

    /// jsonrpc-derive reads positional params from an array only (a tuple), named ones from an
    /// object only; a jsonrpsee method (`derive` false) takes either.
    pub(crate) fn structure(&self, derive: bool) -> Option<ParamStructure> {
        if !derive {
            return None;
        }
        match self.params.as_deref() {
            Some("named") => Some(ParamStructure::ByName),
            Some("raw") => None,
            _ => Some(ParamStructure::ByPosition),
        }
    }
}

/// The unsubscribe method of each `subscription` (its wire name), from the
/// `#[pubsub(…, unsubscribe, name = "…")]` items.
pub(crate) fn unsubscribes(items: &[TraitItem], default: Option<&str>) -> HashMap<String, String> {
    let mut out = HashMap::new();
    for item in items {
        let TraitItem::Fn(f) = item else { continue };
        let flat = attrs::flatten(&f.attrs);
        for a in flat.iter().filter(|a| a.name == "pubsub" || is_pubsub_item(a)) {
            let keys = chunks(&a.args);
            let get = |k: &str| keys.iter().find(|(key, _)| key == k).and_then(|(_, v)| lit(v));
            let sub = get("subscription").or_else(|| default.map(str::to_owned));
            if keys.iter().any(|(k, _)| k == "unsubscribe")
                && let (Some(sub), Some(name)) = (sub, get("name"))
            {
                out.insert(sub, name);
            }
        }
    }
    out
}

/// A jsonrpc-derive item of a `#[rpc(pubsub, name = "…")]` trait: `#[rpc(subscribe, …)]` or
/// `#[rpc(unsubscribe, …)]`, its subscription the trait's `name`.
pub(crate) fn is_pubsub_item(a: &RawAttr) -> bool {
    a.name == "rpc" && chunks(&a.args).iter().any(|(k, _)| k == "subscribe" || k == "unsubscribe")
}

/// The value a jsonrpc-derive method's future resolves to: `BoxFuture<Result<T>>`,
/// `FutureResult<T, E>`, `Box<dyn Future<Item = T, Error = E>>`, `impl Future<Output = R>`
/// read as what they give; any other type as itself.
pub(crate) fn future_output(ty: &Type) -> Type {
    match ty {
        Type::Path(tp) => {
            let Some(last) = tp.path.segments.last() else { return ty.clone() };
            let name = last.ident.to_string();
            let syn::PathArguments::AngleBracketed(a) = &last.arguments else { return ty.clone() };
            let first = a.args.iter().find_map(|g| match g {
                syn::GenericArgument::Type(t) => Some(t),
                _ => None,
            });
            match (name.as_str(), first) {
                ("BoxFuture" | "Box" | "Pin", Some(inner)) => future_output(inner),
                // `FutureResult<T, E>`: a result whose `Ok` is `T`.
                ("FutureResult", Some(inner)) => inner.clone(),
                _ => ty.clone(),
            }
        }
        Type::ImplTrait(it) => future_bound(&it.bounds).unwrap_or_else(|| ty.clone()),
        Type::TraitObject(to) => future_bound(&to.bounds).unwrap_or_else(|| ty.clone()),
        _ => ty.clone(),
    }
}

/// `Future<Output = R>` (R itself) or futures 0.1's `Future<Item = T, Error = E>` (T).
fn future_bound(
    bounds: &syn::punctuated::Punctuated<syn::TypeParamBound, syn::token::Plus>,
) -> Option<Type> {
    bounds.iter().find_map(|b| {
        let syn::TypeParamBound::Trait(t) = b else { return None };
        let last = t.path.segments.last()?;
        if last.ident != "Future" {
            return None;
        }
        let syn::PathArguments::AngleBracketed(a) = &last.arguments else { return None };
        a.args.iter().find_map(|g| match g {
            syn::GenericArgument::AssocType(at) if at.ident == "Output" => Some(at.ty.clone()),
            syn::GenericArgument::AssocType(at) if at.ident == "Item" => Some(at.ty.clone()),
            _ => None,
        })
    })
}

/// The `T` of a `Subscriber<T>` (`typed::Subscriber<T>`) param and how many params come
/// before and with it (metadata, subscriber).
fn subscriber(sig: &syn::Signature) -> Option<(Type, usize)> {
    let typed = sig.inputs.iter().filter_map(|a| match a {
        syn::FnArg::Typed(t) => Some(t),
        syn::FnArg::Receiver(_) => None,
    });
    for (i, p) in typed.enumerate() {
        let Type::Path(tp) = &*p.ty else { continue };
        let Some(last) = tp.path.segments.last() else { continue };
        if last.ident != "Subscriber" {
            continue;
        }
        let syn::PathArguments::AngleBracketed(a) = &last.arguments else { continue };
        let item = a.args.iter().find_map(|g| match g {
            syn::GenericArgument::Type(t) => Some(t.clone()),
            _ => None,
        })?;
        return Some((item, i + 1));
    }
    None
}

impl Lowerer<'_> {
    /// A `#[pubsub(subscription = "…", subscribe, name = "…")]` method: the event its
    /// notifications carry, ended by the `unsubscribe` method of the same subscription. The
    /// unsubscribe item itself gives nothing more (`None`). `default` is the subscription of
    /// a `#[rpc(pubsub, name = "…")]` trait.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn pubsub(
        &mut self,
        ps: &RawAttr,
        f: &syn::TraitItemFn,
        fflat: &[RawAttr],
        scope: &Scope,
        placement: &Placement,
        unsubscribes: &HashMap<String, String>,
        default: Option<&str>,
    ) -> Option<Placed> {
        let at = locate(&scope.file, f.sig.ident.span());
        let keys = chunks(&ps.args);
        let has = |k: &str| keys.iter().any(|(key, _)| key == k);
        let get = |k: &str| keys.iter().find(|(key, _)| key == k).and_then(|(_, v)| lit(v));
        if has("unsubscribe") {
            return None;
        }
        let subscription = get("subscription").or_else(|| default.map(str::to_owned));
        let (Some(notification), Some(subscribe)) = (subscription, get("name")) else {
            self.diags.error(
                "subscription-name",
                at,
                "`#[pubsub]` needs `subscription = \"…\"` and `name = \"…\"`".into(),
                None,
            );
            return None;
        };
        if !has("subscribe") {
            self.diags.error(
                "subscription-name",
                at,
                format!("`#[pubsub]` of `{notification}` is neither `subscribe` nor `unsubscribe`"),
                None,
            );
            return None;
        }
        for (key, value) in &keys {
            match key.as_str() {
                "alias" => {
                    let aliases = crate::rpc::lit_list(value);
                    if !aliases.is_empty() {
                        self.diags.warn("method-aliases", at.clone(), format!("the subscribe method `{subscribe}` is also served as {} (verbatim); the contract lists its main name only", aliases.join(", ")), None);
                    }
                }
                "subscription" | "subscribe" | "name" => {}
                other => self.diags.warn(
                    "unknown-subscription-key",
                    at.clone(),
                    format!("`#[pubsub]` key `{other}` is not one extract knows"),
                    None,
                ),
            }
        }
        let Some(unsubscribe) = unsubscribes.get(&notification).cloned() else {
            self.diags.error(
                "subscription-unsubscribe",
                at,
                format!("subscription `{notification}` has no `#[pubsub(subscription = \"{notification}\", unsubscribe, name = \"…\")]` method"),
                Some("declare its unsubscribe method in the same trait".into()),
            );
            return None;
        };
        let Some((item, skip)) = subscriber(&f.sig) else {
            self.diags.error(
                "subscription-item",
                at,
                format!("subscription `{notification}` has no `Subscriber<T>` param to give its item type"),
                None,
            );
            return None;
        };
        let names = EventNames { declared: notification, subscribe, unsubscribe };
        Some(self.event(f, fflat, scope, placement, &item, names, skip, &at))
    }
}
