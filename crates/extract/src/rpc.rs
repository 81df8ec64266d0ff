//! Namespaces from traits: jsonrpsee `#[rpc]` traits (also inside `cfg_attr`) with their
//! `#[method]` and `#[subscription]` items, read at token level; and plain traits marked with
//! the `accord: namespace = "…"` doc tag.

use accord_schema_model::{
    Event, EventWire, Field, Method, Namespace, Param, ParamStructure, Semantics, TypeKind,
    Unknown, Wire,
};
use indexmap::IndexMap;
use proc_macro2::{TokenStream, TokenTree};
use syn::{FnArg, Pat, ReturnType, TraitItem};

use crate::{
    WireFrom,
    attrs::{self, RawAttr, split_commas},
    diagnostic::{Location, locate},
    lower::{Lowerer, Presence, Scope, deprecated_of, node, unraw},
    modules::{Crate, ItemKind, ModId},
    placement::{EventNames, Framework, Group, Placed, Placement, WireNames, framework_of},
    resolve::Res,
};

/// Whether `param` stands alone somewhere in `items` (a type `E`), not only before `::` or
/// `as` (`E::PayloadAttributes`, `<E as EngineTypes>::PayloadAttributes`).
fn uses_bare(items: &[syn::TraitItem], param: &str) -> bool {
    fn walk(tokens: TokenStream, param: &str) -> bool {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        tokens.iter().enumerate().any(|(i, t)| match t {
            TokenTree::Group(g) => walk(g.stream(), param),
            TokenTree::Ident(id) if id == param => !matches!(
                tokens.get(i + 1),
                Some(TokenTree::Punct(p)) if p.as_char() == ':' && p.spacing() == proc_macro2::Spacing::Joint
            ) && !matches!(tokens.get(i + 1), Some(TokenTree::Ident(n)) if n == "as"),
            _ => false,
        })
    }
    items.iter().any(|it| walk(quote::ToTokens::to_token_stream(it), param))
}

type Bindings = std::collections::HashMap<String, (syn::Type, Option<Scope>)>;

/// The associated types of a generic trait's type parameters (`E::PayloadAttributes`), as
/// `"E::PayloadAttributes"` entries of `bound`: what a bound fixes
/// (`E: EngineTypes<PayloadAttributes = Attrs>`, also in a `where` clause), else what the impl
/// of a bound trait for the type `E` is bound to fixes, else (`E` unbound) what the crate's one
/// impl of a bound trait fixes. Two impls of the trait and nothing binding `E`: none is taken.
fn associated(krate: &Crate, generics: &syn::Generics, module: ModId, bound: &mut Bindings) {
    let resolve = |ty: &syn::Type, at: ModId| -> Option<Res> {
        let syn::Type::Path(tp) = ty else { return None };
        let segs: Vec<String> = tp.path.segments.iter().map(|s| s.ident.to_string()).collect();
        krate.resolve(at, &segs, tp.path.leading_colon.is_some())
    };
    for p in generics.type_params() {
        let param = p.ident.to_string();
        let mut traits: Vec<&syn::TraitBound> = p
            .bounds
            .iter()
            .filter_map(|b| match b {
                syn::TypeParamBound::Trait(t) => Some(t),
                _ => None,
            })
            .collect();
        for pred in generics.where_clause.iter().flat_map(|w| &w.predicates) {
            if let syn::WherePredicate::Type(pt) = pred
                && let syn::Type::Path(bp) = &pt.bounded_ty
                && bp.qself.is_none()
                && bp.path.is_ident(&p.ident)
            {
                traits.extend(pt.bounds.iter().filter_map(|b| match b {
                    syn::TypeParamBound::Trait(t) => Some(t),
                    _ => None,
                }));
            }
        }
        let mut names = Vec::new();
        for t in &traits {
            let Some(last) = t.path.segments.last() else { continue };
            names.push(last.ident.to_string());
            if let syn::PathArguments::AngleBracketed(a) = &last.arguments {
                for arg in &a.args {
                    if let syn::GenericArgument::AssocType(at) = arg {
                        bound.insert(format!("{param}::{}", at.ident), (at.ty.clone(), None));
                    }
                }
            }
        }
        let impls: Vec<&crate::modules::AssocImpl> =
            krate.assoc_impls.iter().filter(|i| names.contains(&i.trait_name)).collect();
        let chosen: Vec<&crate::modules::AssocImpl> = match bound.get(&param) {
            Some((ty, at)) => {
                let target = resolve(ty, at.as_ref().map_or(module, |s| s.module));
                impls
                    .into_iter()
                    .filter(|i| target.is_some() && resolve(&i.self_ty, i.module) == target)
                    .collect()
            }
            None => names
                .iter()
                .filter_map(|n| {
                    match impls.iter().filter(|i| &i.trait_name == n).collect::<Vec<_>>()[..] {
                        [one] => Some(*one),
                        _ => None,
                    }
                })
                .collect(),
        };
        for i in chosen {
            for (name, ty) in &i.types {
                bound
                    .entry(format!("{param}::{name}"))
                    .or_insert_with(|| (ty.clone(), Some(Scope::new(i.module, &i.file))));
            }
        }
    }
}

/// What one namespace trait gave, before the types are attached.
pub(crate) struct Found {
    pub(crate) name: String,
    /// The trait's name, for diagnostics naming where a member comes from.
    pub(crate) trait_name: String,
    pub(crate) namespace: Namespace,
    /// Whether the version came from the source or the configuration (else the merge keeps
    /// the committed one).
    pub(crate) version_given: bool,
    pub(crate) at: Location,
    /// Provenance of methods and events: (`methods`|`events`, name) → place.
    pub(crate) sources: Vec<((&'static str, String), Location)>,
    /// Whether the namespace is a framework trait whose wire is recorded (`extract.wire =
    /// "source"`): the document then says the plant answers no describe method.
    pub(crate) jsonrpsee_wire: bool,
    /// Whether the trait is jsonrpsee's (its protocol codes are then jsonrpsee's).
    pub(crate) jsonrpsee: bool,
}

/// The `key = value` chunks of an attribute's tokens, at token level.
pub(crate) fn chunks(tokens: &TokenStream) -> Vec<(String, Vec<TokenTree>)> {
    split_commas(tokens.clone())
        .into_iter()
        .map(|chunk| {
            let key = match chunk.first() {
                Some(TokenTree::Ident(i)) => i.to_string(),
                _ => String::new(),
            };
            let value: Vec<TokenTree> = match chunk.get(1) {
                Some(TokenTree::Punct(p)) if p.as_char() == '=' => chunk[2..].to_vec(),
                Some(TokenTree::Group(g)) => vec![TokenTree::Group(g.clone())],
                _ => Vec::new(),
            };
            (key, value)
        })
        .collect()
}

pub(crate) fn lit(tokens: &[TokenTree]) -> Option<String> {
    attrs::lit_str(&tokens.iter().cloned().collect())
}

/// `["a", "b"]`.
pub(crate) fn lit_list(tokens: &[TokenTree]) -> Vec<String> {
    match tokens.first() {
        Some(TokenTree::Group(g)) => {
            split_commas(g.stream()).iter().filter_map(|c| lit(c)).collect()
        }
        _ => Vec::new(),
    }
}

impl Lowerer<'_> {
    /// Every namespace trait of the crate, in source order.
    pub(crate) fn namespaces(&mut self) -> Vec<Found> {
        let krate = self.krate;
        let mut out = Vec::new();
        for def in &krate.items {
            let ItemKind::Trait(t) = &def.kind else { continue };
            // Only the crate's own traits: a dependency's are not this plant's API.
            if krate.modules[def.module].path[0] != "crate" {
                continue;
            }
            let flat = attrs::flatten(&t.attrs);
            let docs = attrs::docs(&flat);
            let rpc = flat.iter().find(|a| a.name == "rpc");
            if rpc.is_none() && !docs.has("namespace") {
                continue;
            }
            let at = locate(&def.file, t.ident.span());
            let mut ns_name = docs.get("namespace").filter(|s| !s.is_empty()).map(str::to_owned);
            let mut separator = "_".to_owned();
            let mut rpc_namespace = None;
            // jsonrpc-derive's `#[rpc(pubsub, name = "hello")]`: the subscription its
            // `#[rpc(subscribe)]` / `#[rpc(unsubscribe)]` items serve.
            let mut trait_subscription = None;
            if rpc.is_some() {
                // `#[rpc(server)]` beside `#[cfg_attr(feature = "client", rpc(client, …))]`:
                // the keys of every `rpc` attribute together.
                let all: Vec<(String, Vec<TokenTree>, proc_macro2::Span)> = flat
                    .iter()
                    .filter(|a| a.name == "rpc")
                    .flat_map(|a| chunks(&a.args).into_iter().map(move |(k, v)| (k, v, a.span)))
                    .collect();
                for (key, value, span) in all {
                    match key.as_str() {
                        "namespace" => {
                            rpc_namespace = lit(&value);
                            if ns_name.is_none() {
                                ns_name = rpc_namespace.clone();
                            }
                        }
                        "namespace_separator" => separator = lit(&value).unwrap_or(separator),
                        "server" | "client" | "client_bounds" | "server_bounds" | "pubsub" => {}
                        "name" => trait_subscription = lit(&value),
                        other => self.diags.warn(
                            "unknown-rpc-key",
                            locate(&def.file, span),
                            format!("`#[rpc]` key `{other}` is not one extract knows"),
                            None,
                        ),
                    }
                }
                // Recording the wire, any separator is spoken as it is; on accord's own wire
                // only `.` is.
                if self.config.wire == WireFrom::Accord && separator != "." {
                    self.diags.warn(
                        "namespace-separator",
                        at.clone(),
                        format!("jsonrpsee serves these methods as `namespace{separator}method`; accord's wire calls `namespace.method`"),
                        Some("add `namespace_separator = \".\"` to `#[rpc]`".into()),
                    );
                }
            }
            let trait_name = t.ident.to_string();
            let framework = framework_of(rpc.is_some(), &t.items);
            let placement = match ns_name {
                Some(ns) => Placement::Fixed {
                    ns,
                    names: WireNames {
                        namespace: rpc_namespace.clone(),
                        separator: separator.clone(),
                    },
                },
                None if rpc.is_some() => self.placement_from_wire(&t.items, &trait_name, &at),
                None => {
                    self.diags.error(
                        "no-namespace",
                        at,
                        format!("trait `{}` has no namespace", t.ident),
                        Some("add `accord: namespace = \"…\"` to its doc".into()),
                    );
                    continue;
                }
            };
            // `[generics.TRAIT]` binds type parameters to Rust types, read in the trait's
            // module; the others read as any value.
            let mut bound = std::collections::HashMap::new();
            let configured_generics = self.config.generics.get(&trait_name);
            // The crate's own `impl Api<Block> for Node` (jsonrpsee's `impl ApiServer<Block>`
            // of the generated server trait too), when there is exactly one.
            let server = format!("{trait_name}Server");
            let impls: Vec<&crate::modules::TraitImpl> = krate
                .trait_impls
                .iter()
                .filter(|i| i.trait_name == trait_name || i.trait_name == server)
                .collect();
            let by_impl = match impls.as_slice() {
                [one] => Some(*one),
                _ => None,
            };
            for (index, p) in t.generics.type_params().enumerate() {
                let param = p.ident.to_string();
                let from_impl = by_impl.and_then(|i| {
                    let ty = i.args.get(index)?.clone();
                    Some((ty, Some(Scope::new(i.module, &i.file))))
                });
                if configured_generics.and_then(|g| g.get(&param)).is_none()
                    && let Some(b) = from_impl
                {
                    bound.insert(param, b);
                    continue;
                }
                match configured_generics.and_then(|g| g.get(&param)) {
                    Some(text) => match syn::parse_str::<syn::Type>(text) {
                        Ok(ty) => {
                            bound.insert(param, (ty, None));
                        }
                        Err(e) => self.diags.error(
                            "generic-binding",
                            at.clone(),
                            format!("`[generics.{trait_name}] {param} = \"{text}\"` is not a Rust type: {e}"),
                            None,
                        ),
                    },
                    // Used only through its associated types (`E::PayloadAttributes`):
                    // those are resolved or warned about on their own.
                    None if !uses_bare(&t.items, &param) => {}
                    None => self.diags.warn(
                        "generic-trait",
                        at.clone(),
                        format!("type parameter `{param}` of trait `{trait_name}` is read as any value (`serde_json::Value`)"),
                        Some(format!("bind it in accord.toml: [generics.{trait_name}] {param} = \"path::To::Type\"")),
                    ),
                }
            }
            associated(krate, &t.generics, def.module, &mut bound);
            let scope = Scope::with_bindings(def.module, &def.file, &t.generics, bound);
            // The members by namespace, the trait's own (or main) namespace first.
            let mut groups: IndexMap<String, Group> = IndexMap::new();
            groups.insert(placement.primary().to_owned(), Group::default());
            // jsonrpc-derive: the unsubscribe method of each `subscription`, declared apart.
            let unsubscribes =
                crate::jsonrpc_derive::unsubscribes(&t.items, trait_subscription.as_deref());
            self.unnamed_params = framework == Framework::JsonrpcDerive;
            for item in &t.items {
                let TraitItem::Fn(f) = item else { continue };
                let fflat = attrs::flatten(&f.attrs);
                let fdocs = attrs::docs(&fflat);
                if fdocs.has("skip") {
                    continue;
                }
                let fat = locate(&def.file, f.sig.ident.span());
                let sub = fflat.iter().find(|a| a.name == "subscription");
                let pubsub = fflat.iter().find(|a| {
                    a.name == "pubsub"
                        || (framework == Framework::JsonrpcDerive
                            && a.name == "rpc"
                            && crate::jsonrpc_derive::is_pubsub_item(a))
                });
                if sub.is_some() || pubsub.is_some() {
                    let got = match (sub, pubsub) {
                        (Some(sub), _) => self.subscription(sub, f, &fflat, &scope, &placement),
                        (None, Some(ps)) => {
                            let default = trait_subscription.as_deref();
                            self.pubsub(ps, f, &fflat, &scope, &placement, &unsubscribes, default)
                        }
                        (None, None) => None,
                    };
                    if let Some(Placed { ns, name, event, wire }) = got {
                        let g = groups.entry(ns).or_default();
                        g.sources.push((("events", name.clone()), fat));
                        g.event_wires.insert(name.clone(), wire);
                        g.events.insert(name, event);
                    }
                    continue;
                }
                let method_attr = fflat.iter().find(|a| {
                    a.name == "method" || (framework == Framework::JsonrpcDerive && a.name == "rpc")
                });
                if rpc.is_some() && method_attr.is_none() {
                    continue;
                }
                let mut declared = unraw(&f.sig.ident);
                let mut keys = crate::jsonrpc_derive::MethodKeys::default();
                if let Some(m) = method_attr {
                    for (key, value) in chunks(&m.args) {
                        match key.as_str() {
                            "name" => declared = lit(&value).unwrap_or(declared),
                            "aliases" | "alias" => {
                                let aliases = lit_list(&value);
                                if !aliases.is_empty() {
                                    self.diags.warn("method-aliases", fat.clone(), format!("method `{declared}` is also served as {} (verbatim, not namespaced); the contract lists its main name only", aliases.join(", ")), None);
                                }
                            }
                            "param_kind" | "blocking" | "with_extensions" => {}
                            "meta" | "notification" | "params" | "returns"
                                if framework == Framework::JsonrpcDerive =>
                            {
                                keys.read(&key, &value, &fat, self.diags);
                            }
                            other => self.diags.warn(
                                "unknown-method-key",
                                fat.clone(),
                                format!("`#[{}]` key `{other}` is not one extract knows", m.name),
                                None,
                            ),
                        }
                    }
                }
                let (ns, mut name, served) = placement.place(&declared);
                self.unsplit(&placement, &declared, &ns, &fat);
                if let Some(n) = fdocs.get("name") {
                    name = n.to_owned();
                }
                let configured = self.config.namespaces.get(&ns);
                // jsonrpc-derive serves a fn without a return type as a notification.
                if framework == Framework::JsonrpcDerive
                    && matches!(f.sig.output, ReturnType::Default)
                    && !keys.notification
                {
                    keys.read("notification", &[], &fat, self.diags);
                }
                let params = self.params(&f.sig, keys.skip(), &scope, &ns, &def.file);
                let result = if keys.notification {
                    node(TypeKind::Null)
                } else if let Some(ty) = &keys.returns {
                    self.lower(ty, &scope, &ns)
                } else {
                    match &f.sig.output {
                        ReturnType::Default => node(TypeKind::Null),
                        ReturnType::Type(_, ty) => {
                            let ty = match framework {
                                Framework::JsonrpcDerive => {
                                    crate::jsonrpc_derive::future_output(ty)
                                }
                                _ => (**ty).clone(),
                            };
                            match self.result_ok(&ty, &scope) {
                                Some((ok, s)) => self.lower(&ok, &s, &ns),
                                None => self.lower(&ty, &scope, &ns),
                            }
                        }
                    }
                };
                let semantics = fdocs
                    .get("semantics")
                    .map(str::to_owned)
                    .or_else(|| configured.and_then(|c| c.semantics.get(&name).cloned()));
                if let Some(s) = &semantics
                    && !Semantics::KNOWN.iter().any(|k| k.as_str() == s)
                {
                    self.diags.warn(
                        "unknown-semantics",
                        fat.clone(),
                        format!(
                            "semantics `{s}` is not one of read, idempotent, write, destructive"
                        ),
                        None,
                    );
                }
                let param_structure = match fdocs.get("params") {
                    Some("by-name") => Some(ParamStructure::ByName),
                    Some("by-position") => Some(ParamStructure::ByPosition),
                    Some("either") => None,
                    None => keys.structure(framework == Framework::JsonrpcDerive),
                    Some(other) => {
                        self.diags.warn(
                            "misplaced-tag",
                            fat.clone(),
                            format!("`params = {other}` is not by-name, by-position or either"),
                            None,
                        );
                        None
                    }
                };
                let method = Method {
                    semantics: semantics.map(|s| Semantics::from_text(&s)),
                    description: fdocs.description.clone(),
                    deprecated: deprecated_of(&fflat),
                    param_structure,
                    params: (!params.is_empty()).then_some(params),
                    result,
                    errors: None,
                    examples: None,
                    // Rust source says nothing of which method's params come from which
                    // result, nor of which events a method sends: links and causes are
                    // written by hand and kept by the merge.
                    links: None,
                    causes: None,
                    unknown: Unknown::new(),
                };
                let g = groups.entry(ns).or_default();
                g.sources.push((("methods", name.clone()), fat));
                g.method_wires.insert(name.clone(), served);
                g.methods.insert(name, method);
            }
            let record_wire = rpc.is_some() && self.config.wire == WireFrom::Source;
            for (ns, g) in groups {
                let configured = self.config.namespaces.get(&ns);
                let version = docs
                    .get("version")
                    .map(str::to_owned)
                    .or_else(|| configured.and_then(|c| c.version.clone()));
                let mut namespace = Namespace {
                    version: version.clone().unwrap_or_else(|| "0.0.0".into()),
                    description: docs.description.clone(),
                    deprecated: deprecated_of(&flat),
                    ..Default::default()
                };
                namespace.methods = (!g.methods.is_empty()).then_some(g.methods);
                namespace.events = (!g.events.is_empty()).then_some(g.events);
                if record_wire {
                    namespace.wire = Some(namespace_wire(
                        &ns,
                        &placement.separator(),
                        g.method_wires,
                        g.event_wires,
                    ));
                }
                out.push(Found {
                    name: ns,
                    trait_name: trait_name.clone(),
                    namespace,
                    version_given: version.is_some(),
                    at: at.clone(),
                    sources: g.sources,
                    jsonrpsee_wire: record_wire,
                    jsonrpsee: framework == Framework::Jsonrpsee,
                });
            }
        }
        out
    }

    /// The params of `sig` after the receiver and the first `skip` others (jsonrpc-derive's
    /// metadata and subscriber, which are not on the wire).
    pub(crate) fn params(
        &mut self,
        sig: &syn::Signature,
        skip: usize,
        scope: &Scope,
        ns: &str,
        file: &str,
    ) -> Vec<Param> {
        let mut params = Vec::new();
        let typed: Vec<&syn::PatType> = sig
            .inputs
            .iter()
            .filter_map(|a| match a {
                FnArg::Typed(t) => Some(t),
                FnArg::Receiver(_) => None,
            })
            .skip(skip)
            .collect();
        // jsonrpsee reads missing trailing `Option` params as `None`.
        let mut trailing_optional = typed.len();
        while trailing_optional > 0 && self.is_option(&typed[trailing_optional - 1].ty, scope) {
            trailing_optional -= 1;
        }
        for (i, p) in typed.iter().enumerate() {
            let pflat = attrs::flatten(&p.attrs);
            let pdocs = attrs::docs(&pflat);
            let mut name = match &*p.pat {
                Pat::Ident(id) => unraw(&id.ident),
                // jsonrpc-derive passes params by position: a `_` has no name on the wire, so
                // the contract names it by its place.
                Pat::Wild(_) if self.unnamed_params => format!("param{}", i + 1),
                other => {
                    let span = syn::spanned::Spanned::span(other);
                    self.diags.error(
                        "param-pattern",
                        locate(file, span),
                        "a param without a plain name (`_` or a pattern) has no name on the wire"
                            .into(),
                        Some("name the param".into()),
                    );
                    continue;
                }
            };
            for a in pflat.iter().filter(|a| a.name == "argument") {
                for (key, value) in chunks(&a.args) {
                    if key == "rename" {
                        name = lit(&value).unwrap_or(name);
                    }
                }
            }
            let optional = i >= trailing_optional;
            // An `Option` param is `T | null`, as serde reads it: jsonrpsee hands the explicit
            // `null` to serde, which reads it as `None`; a trailing one may also be left out.
            let ty = self.lower(&p.ty, scope, ns);
            let mut ty = ty;
            crate::tag::refine(&mut ty, &pdocs, file, self.diags);
            let mut field = Field::new(ty);
            Presence { input: optional, output: optional }.apply(&mut field);
            field.description = pdocs.description;
            field.deprecated = deprecated_of(&pflat);
            params.push(Param { name, field });
        }
        params
    }

    fn subscription(
        &mut self,
        sub: &RawAttr,
        f: &syn::TraitItemFn,
        fflat: &[RawAttr],
        scope: &Scope,
        placement: &Placement,
    ) -> Option<Placed> {
        let at = locate(&scope.file, f.sig.ident.span());
        let mut subscribe = None;
        let mut notification = None;
        let mut unsubscribe = None;
        let mut item = None;
        for (key, value) in chunks(&sub.args) {
            match key.as_str() {
                "name" => {
                    // `name = "subscribe" => "notification"`: the part after `=>` names the
                    // notifications; without it they carry the subscribe name.
                    let strings: Vec<String> =
                        value.iter().filter_map(|t| lit(std::slice::from_ref(t))).collect();
                    subscribe = strings.first().cloned();
                    notification = strings.get(1).or(strings.first()).cloned();
                }
                "unsubscribe" => unsubscribe = lit(&value),
                "item" => {
                    let tokens: TokenStream = value.iter().cloned().collect();
                    match syn::parse2::<syn::Type>(tokens) {
                        Ok(t) => item = Some(t),
                        Err(e) => self.diags.error(
                            "subscription-item",
                            at.clone(),
                            format!("`item` is not a type: {e}"),
                            None,
                        ),
                    }
                }
                "aliases" | "unsubscribe_aliases" => {
                    let aliases = lit_list(&value);
                    if !aliases.is_empty() {
                        self.diags.warn(
                            "method-aliases",
                            at.clone(),
                            format!("the subscription's {} method is also served as {} (verbatim, not namespaced); the contract lists its main name only", if key == "aliases" { "subscribe" } else { "unsubscribe" }, aliases.join(", ")),
                            None,
                        );
                    }
                }
                "param_kind" | "with_extensions" => {}
                other => self.diags.warn(
                    "unknown-subscription-key",
                    at.clone(),
                    format!("`#[subscription]` key `{other}` is not one extract knows"),
                    None,
                ),
            }
        }
        let Some(declared) = notification else {
            self.diags.error(
                "subscription-name",
                at,
                "`#[subscription]` has no `name`".into(),
                None,
            );
            return None;
        };
        let Some(item) = item else {
            self.diags.error(
                "subscription-item",
                at,
                format!("subscription `{declared}` has no `item` type"),
                None,
            );
            return None;
        };
        let subscribe = subscribe.unwrap_or_else(|| declared.clone());
        // jsonrpsee's own rule when `unsubscribe` is not given (`build_unsubscribe_method`):
        // `subscribeX` is ended by `unsubscribeX`; any other name does not compile.
        let unsubscribe = unsubscribe
            .or_else(|| subscribe.strip_prefix("subscribe").map(|s| format!("unsubscribe{s}")))
            .unwrap_or_else(|| format!("unsubscribe{subscribe}"));
        let names = EventNames { declared, subscribe, unsubscribe };
        Some(self.event(f, fflat, scope, placement, &item, names, 0, &at))
    }

    /// One subscription: the event named by its notification (placed as a method name is),
    /// its payload, and its pubsub wire with the subscribe call's own params after `skip`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn event(
        &mut self,
        f: &syn::TraitItemFn,
        fflat: &[RawAttr],
        scope: &Scope,
        placement: &Placement,
        item: &syn::Type,
        names: EventNames,
        skip: usize,
        at: &Location,
    ) -> Placed {
        let EventNames { declared, subscribe, unsubscribe } = names;
        let (ns, name, notification) = placement.place(&declared);
        self.unsplit(placement, &declared, &ns, at);
        let payload = self.lower(item, scope, &ns);
        let docs = attrs::docs(fflat);
        // The subscribe call's own params (`fn subscribe_logs(&self, filter: Filter)`): the
        // event wire's `arguments`, param records as a method's (docs/format.md §15).
        let args = self.params(&f.sig, skip, scope, &ns, &scope.file.clone());
        let mut unknown = Unknown::new();
        if !args.is_empty() {
            if self.config.wire == WireFrom::Source {
                unknown.insert("arguments".into(), params_value(args));
            } else {
                self.diags.warn(
                    "subscription-params",
                    at.clone(),
                    format!("subscription `{name}` takes params, which accord's own wire cannot pass (`rpc.subscribe` names the event only); they are not in the contract"),
                    Some("record jsonrpsee's wire (`extract.wire = \"source\"`) to keep them".into()),
                );
            }
        }
        let wire = EventWire {
            // One method per subscription: nothing selects the event but the method.
            params: Some(Vec::new()),
            subscribe: Some(placement.served(&subscribe)),
            unsubscribe: Some(placement.served(&unsubscribe)),
            notification: Some(notification),
            unknown,
        };
        let event = Event {
            description: docs.description,
            deprecated: deprecated_of(fflat),
            payload,
            examples: None,
            unknown: Unknown::new(),
        };
        Placed { ns, name, event, wire }
    }
}

/// Param records as the canonical writer writes a method's (the model's event wire has no typed
/// member for them yet, so they travel as the written JSON).
fn params_value(params: Vec<Param>) -> serde_json::Value {
    let method = Method {
        semantics: None,
        description: None,
        deprecated: None,
        param_structure: None,
        params: Some(params),
        result: node(TypeKind::Null),
        errors: None,
        examples: None,
        links: None,
        causes: None,
        unknown: Unknown::new(),
    };
    let ns = Namespace {
        methods: Some(IndexMap::from([("m".to_owned(), method)])),
        ..Namespace::default()
    };
    let doc = accord_schema_model::Document {
        namespaces: Some(IndexMap::from([("n".to_owned(), ns)])),
        ..Default::default()
    };
    doc.to_value().pointer("/namespaces/n/methods/m/params").cloned().unwrap_or_default()
}

/// The `wire` section of a jsonrpsee or jsonrpc-derive namespace: its separator (`""` when
/// the names are served alone), the wire names of methods jsonrpsee serves
/// under another name than the separator gives (the `accord:` tags rename the contract's
/// namespace or method), and one pubsub entry per subscription.
fn namespace_wire(
    ns: &str,
    separator: &str,
    methods: IndexMap<String, String>,
    events: IndexMap<String, EventWire>,
) -> Wire {
    let separator = separator.to_owned();
    // The name the contract's separator gives, as the model's dialect resolves it.
    let qualified = |name: &str| match separator.as_str() {
        "" => name.to_owned(),
        sep => format!("{ns}{sep}{name}"),
    };
    let methods: IndexMap<String, String> =
        methods.into_iter().filter(|(name, served)| *served != qualified(name)).collect();
    Wire {
        separator: Some(separator),
        methods: (!methods.is_empty()).then_some(methods),
        events: (!events.is_empty()).then_some(events),
        ..Wire::default()
    }
}
