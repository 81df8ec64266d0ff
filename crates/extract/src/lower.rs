//! Rust types to type nodes, with serde's wire shapes. Named structs and enums become named
//! types of the namespace that first reaches them (refs elsewhere), generic ones once per
//! instantiation; aliases are expanded where used; well-known external types come from the
//! built-in table or `accord.toml`.

use std::{
    collections::{HashMap, HashSet},
    rc::Rc,
};

use accord_schema_model::{
    ArrayType, Deprecated, EnumType, Field, Kind, MapType, NumberRules, ObjectType, RefType,
    StringRules, TupleType, TypeKind, TypeNode, UnionType,
};
use indexmap::IndexMap;
use serde_json::{Number, Value};
use syn::{GenericArgument, PathArguments, Type};

use crate::{
    attrs::{self, RawAttr, Serde},
    builtin::{self, Generic},
    case::RenameRule,
    config::Config,
    diagnostic::{Diagnostics, Location, locate},
    modules::{Crate, ItemDef, ItemId, ItemKind, ModId},
    resolve::Res,
};

/// Where a type is written: its module and file, and the generic parameters bound there.
#[derive(Debug, Clone)]
pub(crate) struct Scope {
    pub(crate) module: ModId,
    pub(crate) file: String,
    pub(crate) generics: Rc<HashMap<String, Bound>>,
}

/// A generic parameter bound to the type written at the use site.
#[derive(Debug, Clone)]
pub(crate) struct Bound {
    ty: Type,
    scope: Scope,
}

impl Scope {
    pub(crate) fn new(module: ModId, file: &str) -> Scope {
        Scope { module, file: file.to_owned(), generics: Rc::new(HashMap::new()) }
    }

    /// A scope where each of `params` stands for the type `bound` gives it (written in the
    /// scope given with it, else in this module), else for `serde_json::Value` (a generic trait's parameters, which no use site
    /// binds).
    pub(crate) fn with_bindings(
        module: ModId,
        file: &str,
        params: &syn::Generics,
        mut bound: HashMap<String, (Type, Option<Scope>)>,
    ) -> Scope {
        let base = Scope::new(module, file);
        let any: Type = syn::parse_quote!(::serde_json::Value);
        let generics = params
            .type_params()
            .map(|p| {
                let name = p.ident.to_string();
                let (ty, scope) = bound.remove(&name).unwrap_or_else(|| (any.clone(), None));
                (name, Bound { ty, scope: scope.unwrap_or_else(|| base.clone()) })
            })
            .collect::<HashMap<_, _>>();
        let mut generics = generics;
        // Associated types of the parameters a bound or an impl fixes (`E::PayloadAttributes`).
        for (key, (ty, scope)) in bound {
            if key.contains("::") {
                generics.insert(key, Bound { ty, scope: scope.unwrap_or_else(|| base.clone()) });
            }
        }
        Scope { generics: Rc::new(generics), ..base }
    }
}

/// Lowers types for every namespace of one extraction.
pub(crate) struct Lowerer<'a> {
    pub(crate) krate: &'a Crate,
    pub(crate) config: &'a Config,
    pub(crate) diags: &'a mut Diagnostics,
    /// Named types by namespace, in the order first reached.
    pub(crate) types: IndexMap<String, IndexMap<String, TypeNode>>,
    /// Provenance: `(namespace, type name)` to where the Rust item is.
    pub(crate) type_sources: Vec<((String, String), Location)>,
    assigned: HashMap<String, (String, String)>,
    inline_stack: Vec<ItemId>,
    manual: HashMap<ItemId, Vec<(String, Location)>>,
    /// The key patterns written for integer-keyed maps, to find them again under buffered
    /// content (serde#1183).
    int_keys: HashSet<String>,
    /// Provenance of the fields of named struct types: JSON Pointer to the field's place.
    pub(crate) field_sources: Vec<(String, Location)>,
    /// The pointer of the named type whose body is being lowered, taken by its object.
    field_pointer: Option<String>,
    /// Types extract could not describe, read as any value: one warning per type at the end,
    /// by the path a `[types]` entry names it with.
    unresolved: IndexMap<String, Pending>,
    /// How deep the lowering of the current type is (aliases and named types' bodies
    /// included): held under `MAX_LOWERING`, so a chain of ten thousand aliases cannot overflow
    /// the stack.
    depth: usize,
    /// How many nodes the lowering of the current outermost type has made: held under
    /// `MAX_LOWERED_NODES`, so an alias that contains itself cannot expand exponentially.
    lowered: usize,
    /// Whether a param may be `_` (jsonrpc-derive passes params by position): it is then
    /// named by its place (`param2`).
    pub(crate) unnamed_params: bool,
}

/// An undescribable type and where it is used.
struct Pending {
    first: Location,
    uses: usize,
    message: String,
    help: String,
}

/// Whether a field may be absent in input and in output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Presence {
    pub(crate) input: bool,
    pub(crate) output: bool,
}

impl Presence {
    /// The field record for this presence: `optional` when either direction may omit it, the
    /// direction-specific member where that direction differs (docs/format.md, section 14).
    pub(crate) fn apply(self, f: &mut Field) {
        if self.input || self.output {
            f.optional = Some(true);
            if !self.input {
                f.input_optional = Some(false);
            }
            if !self.output {
                f.output_optional = Some(false);
            }
        }
    }
}

pub(crate) fn node(kind: TypeKind) -> TypeNode {
    TypeNode::new(kind)
}

pub(crate) fn nullable(inner: TypeNode) -> TypeNode {
    node(TypeKind::Union(UnionType {
        variants: vec![inner, node(TypeKind::Null)],
        discriminator: None,
    }))
}

fn literal(value: &str) -> TypeNode {
    node(TypeKind::Literal { value: Value::String(value.to_owned()) })
}

pub(crate) fn deprecated_of(attrs: &[RawAttr]) -> Option<Deprecated> {
    attrs::deprecated(attrs).map(|note| match note {
        Some(n) => Deprecated::Note(n),
        None => Deprecated::Flag(true),
    })
}

/// The name serde reads from an identifier: raw identifiers lose their `r#`.
pub(crate) fn unraw(ident: &syn::Ident) -> String {
    let s = ident.to_string();
    s.strip_prefix("r#").map(str::to_owned).unwrap_or(s)
}

fn type_args(args: &PathArguments) -> Vec<&Type> {
    match args {
        PathArguments::AngleBracketed(a) => a
            .args
            .iter()
            .filter_map(|g| match g {
                GenericArgument::Type(t) => Some(t),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

fn segments(path: &syn::Path) -> Vec<String> {
    path.segments.iter().map(|s| s.ident.to_string()).collect()
}

impl<'a> Lowerer<'a> {
    pub(crate) fn new(krate: &'a Crate, config: &'a Config, diags: &'a mut Diagnostics) -> Self {
        let mut l = Lowerer {
            krate,
            config,
            diags,
            types: IndexMap::new(),
            type_sources: Vec::new(),
            assigned: HashMap::new(),
            inline_stack: Vec::new(),
            manual: HashMap::new(),
            int_keys: HashSet::new(),
            field_sources: Vec::new(),
            field_pointer: None,
            unresolved: IndexMap::new(),
            depth: 0,
            lowered: 0,
            unnamed_params: false,
        };
        for imp in &krate.manual {
            if let Type::Path(tp) = &imp.self_ty {
                let segs = segments(&tp.path);
                if let Some(Res::Item(id)) = krate.resolve(imp.module, &segs, false) {
                    l.manual.entry(id).or_default().push((imp.trait_name.clone(), imp.at.clone()));
                }
            }
        }
        l
    }

    /// A type extract cannot describe: any value here, one warning per `key` (the path a
    /// `[types]` entry takes) counting its uses, reported by [`Self::finish`].
    fn unresolved(
        &mut self,
        key: String,
        scope: &Scope,
        span: proc_macro2::Span,
        what: String,
        help: String,
    ) -> TypeNode {
        let at = locate(&scope.file, span);
        self.unresolved.entry(key).and_modify(|p| p.uses += 1).or_insert(Pending {
            first: at,
            uses: 1,
            message: what,
            help,
        });
        node(TypeKind::Any)
    }

    /// Reports each type [`Self::unresolved`] collected, once, at its first use.
    pub(crate) fn finish(&mut self) {
        for (_, p) in std::mem::take(&mut self.unresolved) {
            let uses = match p.uses {
                1 => "1 use".to_owned(),
                n => format!("{n} uses"),
            };
            self.diags.undescribed(
                "unresolved-type",
                p.first,
                format!("{} ({uses})", p.message),
                Some(p.help),
            );
        }
    }

    /// The `[types]` help for `path`, suggesting `kind` when something is known of its shape.
    fn types_help(path: &str, kind: Option<&str>) -> String {
        match kind {
            Some(k) => format!(
                "describe it in accord.toml: [types.\"{path}\"] kind = \"{k}\" (with the rules its serde form has)"
            ),
            None => format!(
                "describe it in accord.toml: [types.\"{path}\"] with the type node of what its serde form writes (kind = \"object\", \"string\", …)"
            ),
        }
    }

    /// The node for `ty` written in `scope`, named types registered in namespace `ns`.
    pub(crate) fn lower(&mut self, ty: &Type, scope: &Scope, ns: &str) -> TypeNode {
        if self.depth == 0 {
            self.lowered = 0;
        }
        self.lowered += 1;
        if self.lowered > crate::limits::MAX_LOWERED_NODES {
            // Said once, where the budget ran out; every call after it returns at once.
            if self.lowered == crate::limits::MAX_LOWERED_NODES + 1 {
                self.diags.error(
                    "type-too-large",
                    locate(&scope.file, syn::spanned::Spanned::span(ty)),
                    format!(
                        "this type expands to more than {} type nodes once its aliases are expanded in place (each alias a pair of the next doubles them); extract does not read past that",
                        crate::limits::MAX_LOWERED_NODES
                    ),
                    None,
                );
            }
            return node(TypeKind::Any);
        }
        if self.depth >= crate::limits::MAX_LOWERING {
            // The rest of this type is not lowered: an alias that contains itself twice would
            // reach the depth at each of its 2^256 leaves.
            self.lowered = crate::limits::MAX_LOWERED_NODES + 2;
            self.diags.error(
                "nesting-too-deep",
                locate(&scope.file, syn::spanned::Spanned::span(ty)),
                format!(
                    "this type nests more than {} deep once its aliases and named types are followed; extract does not read past that depth",
                    crate::limits::MAX_LOWERING
                ),
                None,
            );
            return node(TypeKind::Any);
        }
        self.depth += 1;
        let lowered = self.lower_here(ty, scope, ns);
        self.depth -= 1;
        lowered
    }

    fn lower_here(&mut self, ty: &Type, scope: &Scope, ns: &str) -> TypeNode {
        match ty {
            Type::Reference(r) => self.lower(&r.elem, scope, ns),
            Type::Paren(p) => self.lower(&p.elem, scope, ns),
            Type::Group(g) => self.lower(&g.elem, scope, ns),
            Type::Tuple(t) if t.elems.is_empty() => node(TypeKind::Null),
            Type::Tuple(t) => {
                let elements = t.elems.iter().map(|e| self.lower(e, scope, ns)).collect();
                node(TypeKind::Tuple(TupleType { elements }))
            }
            Type::Slice(s) => self.array(&s.elem, scope, ns, None, false),
            Type::Array(a) => {
                let len = match &a.len {
                    syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(i), .. }) => {
                        i.base10_parse::<u64>().ok()
                    }
                    _ => None,
                };
                if len.is_none() {
                    self.diags.warn(
                        "array-length",
                        locate(&scope.file, a.bracket_token.span.join()),
                        "the array's length is not a literal; its item count is not bounded in the contract".into(),
                        None,
                    );
                }
                self.array(&a.elem, scope, ns, len, false)
            }
            Type::Path(tp) if tp.qself.is_none() => self.path(&tp.path, scope, ns),
            // `<E as EngineTypes>::PayloadAttributes`: as `E::PayloadAttributes`.
            Type::Path(tp) if self.qualified_param(tp, scope).is_some() => {
                let assoc = self.qualified_param(tp, scope).expect("checked");
                self.path(&assoc, scope, ns)
            }
            other => {
                let span = syn::spanned::Spanned::span(other);
                let text = quote::ToTokens::to_token_stream(other).to_string();
                if let Some(over) = self.config.type_override(&text) {
                    return over.clone();
                }
                self.unresolved(
                    text.clone(),
                    scope,
                    span,
                    format!("`{text}` has no wire shape extract can read (a trait object, a function, a macro or a qualified path)"),
                    format!("give it a concrete serde type, or {}", Self::types_help(&text, None)),
                )
            }
        }
    }

    /// `<P as Trait>::A` for a type parameter `P` in scope: the path `P::A`.
    fn qualified_param(&self, tp: &syn::TypePath, scope: &Scope) -> Option<syn::Path> {
        let q = tp.qself.as_ref()?;
        let Type::Path(qp) = &*q.ty else { return None };
        let param = qp.path.get_ident().filter(|_| qp.qself.is_none())?;
        if !scope.generics.contains_key(&param.to_string()) {
            return None;
        }
        let last = &tp.path.segments.last()?.ident;
        Some(syn::parse_quote!(#param::#last))
    }

    fn array(
        &mut self,
        item: &Type,
        scope: &Scope,
        ns: &str,
        len: Option<u64>,
        unique: bool,
    ) -> TypeNode {
        let items = Box::new(self.lower(item, scope, ns));
        node(TypeKind::Array(ArrayType {
            items,
            min_items: len,
            max_items: len,
            unique_items: unique.then_some(true),
            #[cfg(feature = "dummy-refinement-handled")]
            dummy_items: None,
        }))
    }

    fn path(&mut self, path: &syn::Path, scope: &Scope, ns: &str) -> TypeNode {
        let segs = segments(path);
        let last = path.segments.last().expect("a path has a segment");
        if segs.len() == 1
            && path.leading_colon.is_none()
            && let Some(bound) = scope.generics.get(&segs[0]).cloned()
        {
            return self.lower(&bound.ty, &bound.scope, ns);
        }
        if segs.len() == 2
            && path.leading_colon.is_none()
            && let Some(bound) = scope.generics.get(&segs.join("::")).cloned()
        {
            return self.lower(&bound.ty, &bound.scope, ns);
        }
        let span = last.ident.span();
        let Some(res) = self.krate.resolve(scope.module, &segs, path.leading_colon.is_some())
        else {
            return self.unresolvable_path(&segs, scope, span);
        };
        let args = type_args(&last.arguments);
        match res {
            Res::Item(id) => self.item(id, &args, scope, ns, span),
            Res::External(p) => self.external(&p, &args, scope, ns, span),
            Res::Module(_) => self.unresolved(
                segs.join("::"),
                scope,
                span,
                format!("`{}` is a module, not a type", segs.join("::")),
                "name a type".into(),
            ),
        }
    }

    /// A path that names nothing extract can see: an associated type of a type parameter
    /// (`Engine::PayloadAttributes`), a name a glob import of another crate may bring, or a
    /// type made by a macro. `[types]` can still describe it by the path reported.
    fn unresolvable_path(
        &mut self,
        segs: &[String],
        scope: &Scope,
        span: proc_macro2::Span,
    ) -> TypeNode {
        let module = &self.krate.modules[scope.module];
        if segs.len() == 2 && scope.generics.contains_key(&segs[0]) {
            let key = segs.join("::");
            if let Some(over) = self.config.type_override(&key) {
                return over.clone();
            }
            return self.unresolved(
                key.clone(),
                scope,
                span,
                format!(
                    "`{key}` is an associated type of the type parameter `{}`, which nothing binds",
                    segs[0]
                ),
                format!(
                    "bind `{}` in accord.toml's [generics], or {}",
                    segs[0],
                    Self::types_help(&key, None)
                ),
            );
        }
        let key = format!("{}::{}", module.path.join("::"), segs.join("::"));
        if let Some(over) = self.config.type_override(&key) {
            return over.clone();
        }
        // The globs in scope, split by whether extract read what they bring.
        let (read, unread): (Vec<String>, Vec<String>) = {
            let mut read = Vec::new();
            let mut unread = Vec::new();
            for u in module.uses.iter().filter(|u| u.name.is_none()) {
                let joined = u.path.join("::");
                match self.krate.resolve(scope.module, &u.path, false) {
                    Some(Res::Module(_)) => read.push(joined),
                    _ => unread.push(joined),
                }
            }
            (read, unread)
        };
        let help = match (read.is_empty(), unread.is_empty()) {
            (true, true) => format!(
                "a type made by a macro (or not in scope) cannot be read: {}",
                Self::types_help(&key, None)
            ),
            (_, false) => format!(
                "it may come from a glob import (`use {}::*`) whose source extract could not read (a dependency not on disk, or not a dependency of the crate): {}",
                unread.join("::*`, `use "),
                Self::types_help(&key, None)
            ),
            (false, true) => format!(
                "it is declared neither in the module nor in what `use {}::*` brings (read from its source): a type made by a macro cannot be read; {}",
                read.join("::*`, `use "),
                Self::types_help(&key, None)
            ),
        };
        self.unresolved(
            key,
            scope,
            span,
            format!(
                "cannot resolve type `{}` in module `{}`",
                segs.join("::"),
                module.path.join("::")
            ),
            help,
        )
    }

    fn external(
        &mut self,
        path: &[String],
        args: &[&Type],
        scope: &Scope,
        ns: &str,
        span: proc_macro2::Span,
    ) -> TypeNode {
        let joined = path.join("::");
        if let Some(over) = self.config.type_override(&joined) {
            return over.clone();
        }
        if path.first().is_some_and(|f| f == "std") {
            let last = path.last().map(String::as_str).unwrap_or("");
            match last {
                "String" | "str" | "OsStr" if path.len() <= 3 => {
                    return node(TypeKind::String(StringRules::default()));
                }
                "bool" => return node(TypeKind::Boolean),
                "char" => {
                    return node(TypeKind::String(StringRules {
                        min_length: Some(1),
                        max_length: Some(1),
                        ..Default::default()
                    }));
                }
                "f64" => return node(TypeKind::Number(NumberRules::default())),
                // serde_json reads any number into an f32 by rounding; past its range that is
                // infinity, which serde_json writes back as `null`.
                "f32" => {
                    let bound = f64::from(f32::MAX);
                    return node(TypeKind::Number(NumberRules {
                        min: Number::from_f64(-bound),
                        max: Number::from_f64(bound),
                        ..Default::default()
                    }));
                }
                _ => {}
            }
            if let Some((bits, signed)) = builtin::integer(&joined) {
                return self.integer(bits, signed, false, scope, span);
            }
            if let Some((bits, signed)) = builtin::non_zero(&joined) {
                return self.integer(bits, signed, true, scope, span);
            }
        }
        let by_generic = builtin::generic(&joined).or_else(|| {
            // `std::…::Vec` spelled through another std path: the last segment within std.
            let last = path.last()?;
            [
                "std::vec::Vec",
                "std::boxed::Box",
                "std::option::Option",
                "std::collections::HashMap",
                "std::collections::BTreeMap",
                "std::collections::HashSet",
                "std::collections::BTreeSet",
                "std::sync::Arc",
                "std::rc::Rc",
                "std::borrow::Cow",
            ]
            .iter()
            .find(|k| path[0] == "std" && k.ends_with(&format!("::{last}")))
            .and_then(|k| builtin::generic(k))
        });
        if let Some(g) = by_generic {
            let mut lowered = args.iter().map(|a| self.lower(a, scope, ns));
            let first = lowered.next();
            let Some(first) = first else {
                return self.unresolved(
                    joined.clone(),
                    scope,
                    span,
                    format!("`{joined}` without its type argument"),
                    "write the type argument".into(),
                );
            };
            return match g {
                Generic::Transparent => first,
                Generic::Option => nullable(first),
                Generic::Seq(unique) => node(TypeKind::Array(ArrayType {
                    items: Box::new(first),
                    min_items: None,
                    max_items: None,
                    unique_items: unique.then_some(true),
                    #[cfg(feature = "dummy-refinement-handled")]
                    dummy_items: None,
                })),
                Generic::Map => {
                    let values = lowered.next().unwrap_or_else(|| node(TypeKind::Any));
                    let keys = self.map_keys(first, scope, span);
                    node(TypeKind::Map(MapType {
                        keys: keys.map(Box::new),
                        values: Box::new(values),
                    }))
                }
                Generic::Result => {
                    let err = lowered.next().unwrap_or_else(|| node(TypeKind::Any));
                    node(TypeKind::Union(UnionType {
                        variants: vec![single_key("Ok", first), single_key("Err", err)],
                        discriminator: None,
                    }))
                }
            };
        }
        if let Some(value) = builtin::well_known(&joined) {
            return crate::config::type_node_from_value(value)
                .expect("the built-in table holds valid type nodes");
        }
        self.unresolved(
            joined.clone(),
            scope,
            span,
            match self.krate.externs.contains_key(&path[0]) {
                true => format!("`{joined}` is not declared in the source of `{}` (a type made by a macro?)", path[0]),
                false => format!("`{joined}` is an external type extract does not know and whose source it could not read"),
            },
            Self::types_help(&joined, None),
        )
    }

    fn integer(
        &mut self,
        bits: u32,
        signed: bool,
        non_zero: bool,
        scope: &Scope,
        span: proc_macro2::Span,
    ) -> TypeNode {
        let mut rules = NumberRules::default();
        if bits <= 64 {
            if signed {
                let max: i64 = if bits == 64 { i64::MAX } else { (1i64 << (bits - 1)) - 1 };
                rules.min = Some(Number::from(-max - 1));
                rules.max = Some(Number::from(max));
            } else {
                let max: u64 = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
                rules.min = Some(Number::from(if non_zero { 1u64 } else { 0 }));
                rules.max = Some(Number::from(max));
            }
        } else if !signed {
            rules.min = Some(Number::from(if non_zero { 1u64 } else { 0 }));
        }
        if non_zero && signed {
            self.diags.warn(
                "non-zero-signed",
                locate(&scope.file, span),
                "a signed NonZero type also refuses 0, which the contract cannot say with bounds"
                    .into(),
                None,
            );
        }
        if bits >= 64 {
            self.diags.warn(
                "js-unsafe-integer",
                locate(&scope.file, span),
                format!("a {}{bits} can exceed 2^53 - 1: JavaScript callers lose precision above it (the contract's bounds say so exactly)", if signed { "i" } else { "u" }),
                Some("narrow it with a refinement (max) in the contract if the values stay smaller".into()),
            );
        }
        if bits > 64 {
            self.diags.warn(
                "wide-integer",
                locate(&scope.file, span),
                format!(
                    "{}{bits} values past the 64-bit range cannot be bounded in the contract",
                    if signed { "i" } else { "u" }
                ),
                None,
            );
        }
        node(TypeKind::Integer(rules))
    }

    /// serde_json's key rules: strings as they are, integers as decimal strings, unit enums by
    /// name; anything else fails at run time with "key must be a string".
    fn map_keys(
        &mut self,
        key: TypeNode,
        scope: &Scope,
        span: proc_macro2::Span,
    ) -> Option<TypeNode> {
        let resolved = self.follow(&key);
        match resolved.kind.kind() {
            Kind::String => {
                if matches!(&resolved.kind, TypeKind::String(r) if *r == StringRules::default())
                    && key.kind.kind() == Kind::String
                {
                    None
                } else {
                    Some(key)
                }
            }
            Kind::Enum => Some(key),
            Kind::Integer => {
                // Keys are decimal strings; the pattern admits exactly the integer's range.
                let TypeKind::Integer(r) = &resolved.kind else { unreachable!("kind checked") };
                let max = r.max.as_ref().and_then(Number::as_u64);
                let min = r.min.as_ref().and_then(Number::as_i64).unwrap_or(0);
                let pattern = match max {
                    Some(max) if min < 0 => format!(
                        "^({}|-({}))$",
                        up_to(u128::from(max)),
                        up_to(min.unsigned_abs().into())
                    ),
                    Some(max) => format!("^({})$", up_to(u128::from(max))),
                    None => "^-?[0-9]+$".to_owned(),
                };
                self.int_keys.insert(pattern.clone());
                Some(node(TypeKind::String(StringRules {
                    pattern: Some(pattern),
                    ..Default::default()
                })))
            }
            _ => {
                self.diags.error(
                    "map-key",
                    locate(&scope.file, span),
                    format!("map keys of kind {} fail in serde_json at run time (\"key must be a string\")", resolved.kind.kind().name()),
                    Some("use a string, an integer, a unit-only enum or a newtype of one as the key".into()),
                );
                None
            }
        }
    }

    /// Whether `n` holds an integer-keyed map: serde buffers tagged, untagged and flattened
    /// content, and the buffered keys are strings that no longer deserialize as integers
    /// (serde#1183).
    fn buffered_hazard(&self, n: &TypeNode, seen: &mut HashSet<String>) -> bool {
        match &n.kind {
            TypeKind::Map(m) => {
                let int_keys = m.keys.as_ref().is_some_and(|k| {
                    matches!(&k.kind, TypeKind::String(r) if r.pattern.as_ref().is_some_and(|p| self.int_keys.contains(p)))
                });
                int_keys || self.buffered_hazard(&m.values, seen)
            }
            TypeKind::Ref(r) => {
                if !seen.insert(r.name.clone()) {
                    return false;
                }
                let target = self.follow(n);
                !matches!(target.kind, TypeKind::Ref(_)) && self.buffered_hazard(&target, seen)
            }
            TypeKind::Array(a) => self.buffered_hazard(&a.items, seen),
            TypeKind::Tuple(t) => t.elements.iter().any(|e| self.buffered_hazard(e, seen)),
            TypeKind::Object(o) => {
                o.fields.iter().flatten().any(|(_, f)| self.buffered_hazard(&f.ty, seen))
            }
            TypeKind::Union(u) => u.variants.iter().any(|v| self.buffered_hazard(v, seen)),
            _ => false,
        }
    }

    fn warn_buffered(&mut self, n: &TypeNode, at: Location, what: &str) {
        if self.buffered_hazard(n, &mut HashSet::new()) {
            self.diags.warn(
                "buffered-map-keys",
                at,
                format!("{what} holds a map with integer keys; serde buffers this content and then refuses those keys (serde#1183)"),
                Some("use string keys here, or an externally tagged representation".into()),
            );
        }
    }

    /// A node with refs to named types of this extraction followed.
    fn follow(&self, n: &TypeNode) -> TypeNode {
        let mut cur = n.clone();
        for _ in 0..16 {
            let TypeKind::Ref(r) = &cur.kind else { break };
            let found = self.types.iter().find_map(|(ns, t)| {
                (r.namespace.as_deref().is_none_or(|want| want == ns))
                    .then(|| t.get(&r.name))
                    .flatten()
            });
            match found {
                Some(t) => cur = t.clone(),
                None => break,
            }
        }
        cur
    }

    /// Canonical identity and display name of a type, for generic instantiations.
    fn ident_of(&self, ty: &Type, scope: &Scope) -> (String, String) {
        match ty {
            Type::Reference(r) => self.ident_of(&r.elem, scope),
            Type::Path(tp) if tp.qself.is_none() => {
                let segs = segments(&tp.path);
                if segs.len() == 1
                    && let Some(b) = scope.generics.get(&segs[0])
                {
                    return self.ident_of(&b.ty, &b.scope);
                }
                let last = tp.path.segments.last().expect("a path has a segment");
                let (key, name) = match self.krate.resolve(
                    scope.module,
                    &segs,
                    tp.path.leading_colon.is_some(),
                ) {
                    Some(Res::Item(id)) => (format!("#{id}"), self.krate.items[id].name.clone()),
                    Some(Res::External(p)) => (p.join("::"), p.last().cloned().unwrap_or_default()),
                    _ => (segs.join("::"), last.ident.to_string()),
                };
                let args: Vec<(String, String)> =
                    type_args(&last.arguments).iter().map(|a| self.ident_of(a, scope)).collect();
                if args.is_empty() {
                    (key, name)
                } else {
                    let k: Vec<_> = args.iter().map(|a| a.0.clone()).collect();
                    let n: Vec<_> = args.iter().map(|a| a.1.clone()).collect();
                    (format!("{key}<{}>", k.join(",")), format!("{name}<{}>", n.join(", ")))
                }
            }
            Type::Tuple(t) => {
                let parts: Vec<_> = t.elems.iter().map(|e| self.ident_of(e, scope)).collect();
                (
                    format!(
                        "({})",
                        parts.iter().map(|p| p.0.clone()).collect::<Vec<_>>().join(",")
                    ),
                    format!(
                        "({})",
                        parts.iter().map(|p| p.1.clone()).collect::<Vec<_>>().join(", ")
                    ),
                )
            }
            other => {
                let s = format!("{other:?}");
                (s.clone(), "T".into())
            }
        }
    }

    fn bind_generics(
        &self,
        generics: &syn::Generics,
        args: &[&Type],
        item_scope: &Scope,
        use_scope: &Scope,
    ) -> Scope {
        let mut map = HashMap::new();
        let params: Vec<&syn::Ident> = generics.type_params().map(|p| &p.ident).collect();
        for (i, p) in params.iter().enumerate() {
            let bound = match args.get(i) {
                Some(t) => Bound { ty: (*t).clone(), scope: use_scope.clone() },
                None => match generics.type_params().nth(i).and_then(|tp| tp.default.clone()) {
                    // A default may name the parameters before it (rgb's `Rgba<T, A = T>`):
                    // it is read with those already bound.
                    Some(d) => Bound {
                        ty: d,
                        scope: Scope {
                            module: item_scope.module,
                            file: item_scope.file.clone(),
                            generics: Rc::new(map.clone()),
                        },
                    },
                    None => Bound {
                        ty: syn::parse_quote!(serde_json::Value),
                        scope: item_scope.clone(),
                    },
                },
            };
            map.insert(p.to_string(), bound);
        }
        Scope { module: item_scope.module, file: item_scope.file.clone(), generics: Rc::new(map) }
    }

    fn item(
        &mut self,
        id: ItemId,
        args: &[&Type],
        use_scope: &Scope,
        ns: &str,
        span: proc_macro2::Span,
    ) -> TypeNode {
        let krate = self.krate;
        let def: &ItemDef = &krate.items[id];
        let item_scope = Scope::new(def.module, &def.file);
        let full = format!("{}::{}", krate.modules[def.module].path.join("::"), def.name);
        if let Some(over) = self.config.type_override(&full) {
            return over.clone();
        }
        match &def.kind {
            ItemKind::Alias(a) => {
                let scope = self.bind_generics(&a.generics, args, &item_scope, use_scope);
                self.lower(&a.ty, &scope, ns)
            }
            ItemKind::Trait(_) => self.unresolved(
                full.clone(),
                use_scope,
                span,
                format!("`{}` is a trait, not a type", def.name),
                "name a concrete type".into(),
            ),
            ItemKind::Struct(_) | ItemKind::Enum(_) => {
                let generics = match &def.kind {
                    ItemKind::Struct(s) => &s.generics,
                    ItemKind::Enum(e) => &e.generics,
                    _ => unreachable!("matched above"),
                };
                let scope = self.bind_generics(generics, args, &item_scope, use_scope);
                let flat = attrs::flatten(def.attrs());
                let docs = attrs::docs(&flat);
                if docs.has("inline") {
                    if self.inline_stack.contains(&id) {
                        self.diags.error(
                            "inline-recursive",
                            def.location(),
                            format!("`{}` is marked inline but contains itself", def.name),
                            Some("drop `inline` from its accord tag".into()),
                        );
                        return node(TypeKind::Any);
                    }
                    self.inline_stack.push(id);
                    let body = self.body(id, &scope, ns);
                    self.inline_stack.pop();
                    return body;
                }
                // The instantiation's identity: the item and its arguments, resolved.
                let mut key = format!("#{id}");
                let mut display =
                    docs.get("name").map(str::to_owned).unwrap_or_else(|| def.name.clone());
                if !args.is_empty() {
                    let parts: Vec<(String, String)> =
                        args.iter().map(|a| self.ident_of(a, use_scope)).collect();
                    key = format!(
                        "{key}<{}>",
                        parts.iter().map(|p| p.0.clone()).collect::<Vec<_>>().join(",")
                    );
                    display = format!(
                        "{display}<{}>",
                        parts.iter().map(|p| p.1.clone()).collect::<Vec<_>>().join(", ")
                    );
                }
                if let Some((at_ns, name)) = self.assigned.get(&key) {
                    let namespace = (at_ns != ns).then(|| at_ns.clone());
                    return node(TypeKind::Ref(RefType { name: name.clone(), namespace }));
                }
                let taken = self.types.get(ns).is_some_and(|t| t.contains_key(&display));
                let name = if taken {
                    let qualified =
                        format!("{}::{display}", krate.modules[def.module].path[1..].join("::"));
                    self.diags.warn("name-collision", def.location(), format!("two types are named `{display}`; this one is `{qualified}` in the contract"), Some("rename one, or name it with `accord: name = \"…\"`".into()));
                    qualified
                } else {
                    display
                };
                self.assigned.insert(key, (ns.to_owned(), name.clone()));
                // A placeholder holds the name's place (and order) while the body is lowered,
                // so recursive types end in a ref.
                self.types
                    .entry(ns.to_owned())
                    .or_default()
                    .insert(name.clone(), node(TypeKind::Any));
                self.type_sources.push(((ns.to_owned(), name.clone()), def.location()));
                if matches!(def.kind, ItemKind::Struct(_)) {
                    self.field_pointer = Some(format!(
                        "/namespaces/{}/types/{}",
                        crate::pointer_escape(ns),
                        crate::pointer_escape(&name)
                    ));
                }
                let body = self.body(id, &scope, ns);
                self.field_pointer = None;
                self.types.entry(ns.to_owned()).or_default().insert(name.clone(), body);
                node(TypeKind::Ref(RefType { name, namespace: None }))
            }
        }
    }

    /// The shape of a struct or enum, with its doc and deprecation.
    fn body(&mut self, id: ItemId, scope: &Scope, ns: &str) -> TypeNode {
        let krate = self.krate;
        let def = &krate.items[id];
        let flat = attrs::flatten(def.attrs());
        let docs = attrs::docs(&flat);
        let serde = Serde::read(&flat);
        self.report_unknown(&serde, &def.file);
        let mut out = if let Some(impls) = self.manual.get(&id).cloned() {
            let full = format!("{}::{}", krate.modules[def.module].path.join("::"), def.name);
            let help = Self::types_help(&full, shape_hint(def));
            for (trait_name, at) in impls {
                self.diags.undescribed(
                    "opaque-serde",
                    at,
                    format!("`{}` has a hand-written `impl {trait_name}`: its wire shape is not the derived one", def.name),
                    Some(help.clone()),
                );
            }
            node(TypeKind::Any)
        } else if let Some(opaque) = serde.opaque.first() {
            let full = format!("{}::{}", krate.modules[def.module].path.join("::"), def.name);
            self.diags.undescribed(
                "opaque-serde",
                def.location(),
                format!("`{}` is serialised through `#[serde({opaque})]`: its wire shape is not the derived one", def.name),
                Some(Self::types_help(&full, None)),
            );
            node(TypeKind::Any)
        } else {
            match &def.kind {
                ItemKind::Struct(s) => self.structure(s, &serde, &flat, scope, ns, &def.file),
                ItemKind::Enum(e) => self.enumeration(e, &serde, &flat, scope, ns, &def.file),
                _ => node(TypeKind::Any),
            }
        };
        if out.description.is_none() {
            out.description = docs.description.clone();
        }
        if let Some(d) = deprecated_of(&flat) {
            out.deprecated = Some(d);
        }
        crate::tag::refine(&mut out, &docs, &def.file, self.diags);
        out
    }

    pub(crate) fn report_unknown(&mut self, serde: &Serde, file: &str) {
        for (key, span) in &serde.unknown {
            self.diags.warn(
                "unknown-serde-attribute",
                locate(file, *span),
                format!("serde attribute `{key}` is not one extract knows; it was ignored"),
                None,
            );
        }
    }

    fn structure(
        &mut self,
        s: &syn::ItemStruct,
        serde: &Serde,
        _flat: &[RawAttr],
        scope: &Scope,
        ns: &str,
        file: &str,
    ) -> TypeNode {
        match &s.fields {
            syn::Fields::Unit => node(TypeKind::Null),
            syn::Fields::Unnamed(u) => {
                let kept: Vec<&syn::Field> = u
                    .unnamed
                    .iter()
                    .filter(|f| !Serde::read(&attrs::flatten(&f.attrs)).skip_serializing)
                    .collect();
                if kept.len() == 1 {
                    // serde writes a newtype as its inner value, with or without `transparent`.
                    let f = kept[0];
                    self.field_type(f, scope, ns, file)
                } else {
                    let elements =
                        kept.iter().map(|f| self.field_type(f, scope, ns, file)).collect();
                    node(TypeKind::Tuple(TupleType { elements }))
                }
            }
            syn::Fields::Named(named) => {
                if serde.transparent {
                    let inner = named
                        .named
                        .iter()
                        .find(|f| !Serde::read(&attrs::flatten(&f.attrs)).skip_serializing);
                    return match inner {
                        Some(f) => self.field_type(f, scope, ns, file),
                        None => node(TypeKind::Null),
                    };
                }
                let rename = serde.rename_all.clone();
                self.object(
                    named.named.iter(),
                    &rename,
                    serde.default,
                    serde.deny_unknown_fields,
                    scope,
                    ns,
                    file,
                )
            }
        }
    }

    /// A field's type, honouring field-level `with` (opaque).
    fn field_type(&mut self, f: &syn::Field, scope: &Scope, ns: &str, file: &str) -> TypeNode {
        let flat = attrs::flatten(&f.attrs);
        self.field_type_with(f, &flat, &Serde::read(&flat), scope, ns, file)
    }

    /// [`Self::field_type`] with the field's attributes already read.
    fn field_type_with(
        &mut self,
        f: &syn::Field,
        flat: &[RawAttr],
        serde: &Serde,
        scope: &Scope,
        ns: &str,
        file: &str,
    ) -> TypeNode {
        if let Some(opaque) = serde.opaque.first() {
            let span =
                f.ident.as_ref().map_or_else(|| syn::spanned::Spanned::span(&f.ty), |i| i.span());
            self.diags.undescribed(
                "opaque-serde",
                locate(file, span),
                format!("this field is serialised through `#[serde({opaque})]`: its wire shape is not its type's"),
                Some("describe the field's type in accord.toml's [types], or use a newtype with a derived shape".into()),
            );
            return node(TypeKind::Any);
        }
        let mut t = self.lower(&f.ty, scope, ns);
        let docs = attrs::docs(flat);
        if !docs.tag.is_empty() {
            crate::tag::refine(&mut t, &docs, file, self.diags);
        }
        t
    }

    /// A named-field object, as serde writes and reads it.
    #[allow(clippy::too_many_arguments)]
    fn object<'f>(
        &mut self,
        fields: impl Iterator<Item = &'f syn::Field>,
        rename_all: &attrs::PerDirection<RenameRule>,
        container_default: bool,
        deny_unknown: bool,
        scope: &Scope,
        ns: &str,
        file: &str,
    ) -> TypeNode {
        let mut out: IndexMap<String, Field> = IndexMap::new();
        let mut open_values: Option<TypeNode> = None;
        let mut flattened = false;
        // Only the named struct's own object records its fields' places.
        let pointer = self.field_pointer.take();
        for f in fields {
            let flat = attrs::flatten(&f.attrs);
            let fs = Serde::read(&flat);
            self.report_unknown(&fs, file);
            let Some(ident) = &f.ident else { continue };
            let at = locate(file, ident.span());
            if fs.skip_serializing && fs.skip_deserializing {
                continue;
            }
            if fs.flatten {
                flattened = true;
                let inner = self.field_type_with(f, &flat, &fs, scope, ns, file);
                let (inner, optional) = match &inner.kind {
                    TypeKind::Union(u)
                        if u.variants.len() == 2 && u.variants[1].kind == TypeKind::Null =>
                    {
                        (u.variants[0].clone(), true)
                    }
                    _ => (inner, false),
                };
                self.warn_buffered(
                    &inner,
                    at.clone(),
                    &format!("flattened field `{}`", unraw(ident)),
                );
                let followed = self.follow(&inner);
                match followed.kind {
                    TypeKind::Object(o) => {
                        for (name, mut field) in o.fields.unwrap_or_default() {
                            if optional {
                                field.optional = Some(true);
                                field.input_optional = None;
                                field.output_optional = None;
                            }
                            out.insert(name, field);
                        }
                    }
                    TypeKind::Map(m) => open_values = Some(*m.values),
                    TypeKind::Any => {}
                    other => {
                        self.diags.error("flatten", at.clone(), format!("a flattened field of kind {} has no object shape extract can merge", other.kind().name()), Some("flatten a struct or a map".into()));
                    }
                }
                continue;
            }
            let raw = unraw(ident);
            let ser = fs
                .rename
                .ser
                .clone()
                .or_else(|| rename_all.ser.map(|r| r.apply_to_field(&raw)))
                .unwrap_or_else(|| raw.clone());
            let de = fs
                .rename
                .de
                .clone()
                .or_else(|| rename_all.de.map(|r| r.apply_to_field(&raw)))
                .unwrap_or_else(|| raw.clone());
            if ser != de {
                let closed = if deny_unknown {
                    "; the object is closed, and serde refuses the written name in input, which the contract admits"
                } else {
                    ""
                };
                self.diags.warn("rename-per-direction", at.clone(), format!("field `{raw}` is written as `{ser}` and read as `{de}`: the contract lists both, `{ser}` as absent in input and `{de}` as absent in output{closed}"), None);
            }
            if !fs.aliases.is_empty() {
                self.diags.warn(
                    "alias",
                    at.clone(),
                    format!(
                        "field `{ser}` is also read as {}; the contract lists its main name only",
                        fs.aliases.iter().map(|a| format!("`{a}`")).collect::<Vec<_>>().join(", ")
                    ),
                    None,
                );
            }
            let ty = self.field_type_with(f, &flat, &fs, scope, ns, file);
            let is_option = self.is_option(&f.ty, scope);
            if is_option
                && matches!(&ty.kind, TypeKind::Union(u) if u.variants.first().is_some_and(|v| matches!(&v.kind, TypeKind::Union(inner) if inner.variants.len() == 2 && inner.variants[1].kind == TypeKind::Null)))
            {
                self.diags.warn(
                    "double-option",
                    at.clone(),
                    "`Option<Option<T>>` serialises `Some(None)` as `null`, the same as `None`"
                        .into(),
                    None,
                );
            }
            let presence = Presence {
                input: fs.skip_deserializing
                    || fs.default
                    || container_default
                    || (is_option && fs.opaque.is_empty()),
                output: fs.skip_serializing || fs.skip_serializing_if,
            };
            let docs = attrs::docs(&flat);
            let mut field = Field::new(ty);
            field.description = docs.description;
            field.deprecated = deprecated_of(&flat);
            // One name per direction (`rename(serialize = …, deserialize = …)`): two fields, the
            // written name never read (serde ignores it in input) and the read name never
            // written, so each direction's reading requires exactly what serde does.
            let mut named = Vec::with_capacity(2);
            if ser != de {
                let mut read = field.clone();
                Presence { input: presence.input, output: true }.apply(&mut read);
                named.push((de, read));
                Presence { input: true, output: presence.output }.apply(&mut field);
            } else {
                presence.apply(&mut field);
            }
            named.insert(0, (ser, field));
            for (name, field) in named {
                if let Some(p) = &pointer {
                    self.field_sources
                        .push((format!("{p}/fields/{}", crate::pointer_escape(&name)), at.clone()));
                }
                out.insert(name, field);
            }
        }
        if deny_unknown && flattened {
            self.diags.warn(
                "flatten-deny-unknown",
                Location { file: file.into(), line: 0, column: 0 },
                "`flatten` with `deny_unknown_fields` is unreliable in serde (serde#1358)".into(),
                None,
            );
        }
        if let Some(values) = open_values
            && out.is_empty()
        {
            return node(TypeKind::Map(MapType { keys: None, values: Box::new(values) }));
        }
        node(TypeKind::Object(ObjectType {
            fields: Some(out),
            closed: deny_unknown.then_some(true),
            reserved: None,
        }))
    }

    /// Whether `ty` is `Option<…>`, through aliases: serde then reads a missing key as `None`.
    pub(crate) fn is_option(&self, ty: &Type, scope: &Scope) -> bool {
        let mut seen = HashSet::new();
        self.is_option_in(ty, scope, &mut seen)
    }

    fn is_option_in(&self, ty: &Type, scope: &Scope, seen: &mut HashSet<ItemId>) -> bool {
        let Type::Path(tp) = ty else { return false };
        let segs = segments(&tp.path);
        if segs.len() == 1
            && let Some(b) = scope.generics.get(&segs[0])
        {
            return self.is_option_in(&b.ty, &b.scope, seen);
        }
        match self.krate.resolve(scope.module, &segs, tp.path.leading_colon.is_some()) {
            Some(Res::External(p)) => builtin::generic(&p.join("::")) == Some(Generic::Option),
            Some(Res::Item(id)) if seen.insert(id) => {
                let def = &self.krate.items[id];
                match &def.kind {
                    ItemKind::Alias(a) => {
                        let args =
                            type_args(&tp.path.segments.last().expect("a segment").arguments);
                        let s = self.bind_generics(
                            &a.generics,
                            &args,
                            &Scope::new(def.module, &def.file),
                            scope,
                        );
                        self.is_option_in(&a.ty, &s, seen)
                    }
                    _ => false,
                }
            }
            _ => false,
        }
    }

    /// The node for the `Ok` side when `ty` is a `Result` (through aliases such as
    /// `RpcResult<T>`), else `None`.
    pub(crate) fn result_ok(&self, ty: &Type, scope: &Scope) -> Option<(Type, Scope)> {
        let Type::Path(tp) = ty else { return None };
        let segs = segments(&tp.path);
        let last = tp.path.segments.last()?;
        let args = type_args(&last.arguments);
        match self.krate.resolve(scope.module, &segs, tp.path.leading_colon.is_some())? {
            Res::External(p) => {
                let joined = p.join("::");
                let is_result = builtin::generic(&joined) == Some(Generic::Result)
                    || joined.ends_with("::RpcResult")
                    || (p.first().is_some_and(|f| f != "std")
                        && p.last().is_some_and(|l| l == "Result"));
                if is_result { Some(((*args.first()?).clone(), scope.clone())) } else { None }
            }
            Res::Item(id) => match &self.krate.items[id].kind {
                ItemKind::Alias(a) => {
                    let def = &self.krate.items[id];
                    let s = self.bind_generics(
                        &a.generics,
                        &args,
                        &Scope::new(def.module, &def.file),
                        scope,
                    );
                    let (t, sc) = self.result_ok(&a.ty, &s)?;
                    Some((t, sc))
                }
                _ => None,
            },
            Res::Module(_) => None,
        }
    }

    fn enumeration(
        &mut self,
        e: &syn::ItemEnum,
        serde: &Serde,
        flat: &[RawAttr],
        scope: &Scope,
        ns: &str,
        file: &str,
    ) -> TypeNode {
        let repr =
            attrs::derives(flat, "Serialize_repr") || attrs::derives(flat, "Deserialize_repr");
        let variants: Vec<(&syn::Variant, Serde, Vec<RawAttr>)> = e
            .variants
            .iter()
            .map(|v| {
                let f = attrs::flatten(&v.attrs);
                (v, Serde::read(&f), f)
            })
            .filter(|(_, s, _)| !(s.skip_serializing && s.skip_deserializing))
            .collect();
        if repr {
            let mut next: i64 = 0;
            let mut values = Vec::new();
            for (v, _, _) in &variants {
                if let Some((_, syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(i), .. }))) =
                    &v.discriminant
                {
                    next = i.base10_parse().unwrap_or(next);
                }
                values.push(Value::from(next));
                next += 1;
            }
            return node(TypeKind::Enum(EnumType { values, open: None, reserved: None }));
        }
        let variant_name = |v: &syn::Variant, s: &Serde| -> String {
            let raw = unraw(&v.ident);
            s.rename
                .ser
                .clone()
                .or_else(|| serde.rename_all.ser.map(|r| r.apply_to_variant(&raw)))
                .unwrap_or(raw)
        };
        // A variant has one name in the contract: unlike a field it cannot be listed twice
        // (the reader would then admit the written name), so the serialize name is used.
        for (v, s, _) in &variants {
            let raw = unraw(&v.ident);
            let ser = variant_name(v, s);
            let de = s
                .rename
                .de
                .clone()
                .or_else(|| serde.rename_all.de.map(|r| r.apply_to_variant(&raw)))
                .unwrap_or(raw);
            if ser != de {
                self.diags.warn("rename-per-direction", locate(file, v.ident.span()), format!("variant `{}` is written as `{ser}` and read as `{de}`; the contract names it `{ser}`, so callers that send it are refused", v.ident), None);
            }
        }
        let all_unit =
            variants.iter().all(|(v, s, _)| matches!(v.fields, syn::Fields::Unit) && !s.untagged);
        if all_unit && serde.tag.is_none() && !serde.untagged {
            let values = variants
                .iter()
                .filter(|(_, s, _)| !s.other)
                .map(|(v, s, _)| Value::String(variant_name(v, s)))
                .collect();
            let open = variants.iter().any(|(_, s, _)| s.other).then_some(true);
            return node(TypeKind::Enum(EnumType { values, open, reserved: None }));
        }
        let mut arms = Vec::new();
        let mut untagged_arms = Vec::new();
        for (v, vs, vflat) in &variants {
            self.report_unknown(vs, file);
            let name = variant_name(v, vs);
            let at = locate(file, v.ident.span());
            let field_rule = attrs::PerDirection {
                ser: vs.rename_all.ser.or(serde.rename_all_fields.ser),
                de: vs.rename_all.de.or(serde.rename_all_fields.de),
            };
            let content = |l: &mut Self| -> TypeNode {
                if let Some(opaque) = vs.opaque.first() {
                    l.diags.undescribed(
                        "opaque-serde",
                        at.clone(),
                        format!("variant `{name}` is serialised through `#[serde({opaque})]`"),
                        Some("describe the enum in accord.toml's [types]".into()),
                    );
                    return node(TypeKind::Any);
                }
                match &v.fields {
                    syn::Fields::Unit => node(TypeKind::Null),
                    syn::Fields::Unnamed(u) if u.unnamed.len() == 1 => {
                        l.field_type(&u.unnamed[0], scope, ns, file)
                    }
                    syn::Fields::Unnamed(u) => {
                        let elements =
                            u.unnamed.iter().map(|f| l.field_type(f, scope, ns, file)).collect();
                        node(TypeKind::Tuple(TupleType { elements }))
                    }
                    syn::Fields::Named(n) => l.object(
                        n.named.iter(),
                        &field_rule,
                        false,
                        serde.deny_unknown_fields,
                        scope,
                        ns,
                        file,
                    ),
                }
            };
            let untagged = serde.untagged || vs.untagged;
            let mut arm = if untagged {
                content(self)
            } else if let Some(tag) = &serde.tag {
                match &serde.content {
                    Some(c) => {
                        let mut fields = IndexMap::new();
                        fields.insert(tag.clone(), Field::new(literal(&name)));
                        if !matches!(v.fields, syn::Fields::Unit) {
                            fields.insert(c.clone(), Field::new(content(self)));
                        }
                        node(TypeKind::Object(ObjectType {
                            fields: Some(fields),
                            closed: serde.deny_unknown_fields.then_some(true),
                            reserved: None,
                        }))
                    }
                    None => {
                        if matches!(&v.fields, syn::Fields::Unnamed(u) if u.unnamed.len() > 1) {
                            self.diags.error("internal-tag-tuple", at.clone(), format!("variant `{name}` is a tuple variant; serde refuses it under `tag = \"{tag}\"`"), None);
                        }
                        let inner = content(self);
                        let followed = self.follow(&inner);
                        let mut fields = IndexMap::new();
                        fields.insert(tag.clone(), Field::new(literal(&name)));
                        match followed.kind {
                            TypeKind::Object(o) => fields.extend(o.fields.unwrap_or_default()),
                            TypeKind::Null | TypeKind::Map(_) | TypeKind::Any => {}
                            other => {
                                self.diags.error("internal-tag-newtype", at.clone(), format!("variant `{name}` wraps a {}; under `tag = \"{tag}\"` serde needs a struct or a map", other.kind().name()), None);
                            }
                        }
                        node(TypeKind::Object(ObjectType {
                            fields: Some(fields),
                            closed: serde.deny_unknown_fields.then_some(true),
                            reserved: None,
                        }))
                    }
                }
            } else if matches!(v.fields, syn::Fields::Unit) {
                literal(&name)
            } else {
                single_key(&name, content(self))
            };
            if untagged || serde.tag.is_some() {
                self.warn_buffered(&arm, at.clone(), &format!("variant `{name}`"));
            }
            let docs = attrs::docs(vflat);
            if arm.description.is_none() {
                arm.description = docs.description.clone();
            }
            if let Some(d) = deprecated_of(vflat) {
                arm.deprecated = Some(d);
            }
            if untagged && !serde.untagged {
                untagged_arms.push(arm);
            } else {
                arms.push(arm);
            }
        }
        let discriminator = (serde.tag.is_some() && !serde.untagged && untagged_arms.is_empty())
            .then(|| serde.tag.clone())
            .flatten();
        arms.extend(untagged_arms);
        node(TypeKind::Union(UnionType { variants: arms, discriminator }))
    }
}

/// What the declaration of a type with a hand-written serde impl says of its wire shape, for
/// the `[types]` help: a struct with named fields is most likely an object, a newtype of a
/// string or number that scalar, a unit-only enum a string.
fn shape_hint(def: &ItemDef) -> Option<&'static str> {
    match &def.kind {
        ItemKind::Struct(s) => match &s.fields {
            syn::Fields::Named(_) => Some("object"),
            syn::Fields::Unnamed(u) if u.unnamed.len() == 1 => {
                let Type::Path(tp) = &u.unnamed[0].ty else { return None };
                let last = tp.path.segments.last()?.ident.to_string();
                match last.as_str() {
                    "String" | "str" => Some("string"),
                    "u8" | "u16" | "u32" | "u64" | "u128" | "usize" | "i8" | "i16" | "i32"
                    | "i64" | "i128" | "isize" => Some("integer"),
                    "f32" | "f64" => Some("number"),
                    "bool" => Some("boolean"),
                    _ => None,
                }
            }
            syn::Fields::Unnamed(_) => Some("tuple"),
            syn::Fields::Unit => None,
        },
        ItemKind::Enum(e) if e.variants.iter().all(|v| matches!(v.fields, syn::Fields::Unit)) => {
            Some("string")
        }
        _ => None,
    }
}

/// A regular expression for the decimal integers 0 to `n`, without leading zeros.
fn up_to(n: u128) -> String {
    let digits: Vec<u32> = n.to_string().chars().filter_map(|c| c.to_digit(10)).collect();
    let len = digits.len();
    let mut arms = vec!["[0-9]".to_owned()];
    if len == 1 {
        return format!("[0-{n}]");
    }
    for k in 2..len {
        arms.push(format!("[1-9][0-9]{{{}}}", k - 1));
    }
    for i in 0..len {
        let low = if i == 0 { 1 } else { 0 };
        if digits[i] > low {
            let prefix: String = digits[..i].iter().map(|d| d.to_string()).collect();
            let rest = len - i - 1;
            let tail = if rest > 0 { format!("[0-9]{{{rest}}}") } else { String::new() };
            arms.push(format!("{prefix}[{low}-{}]{tail}", digits[i] - 1));
        }
    }
    arms.push(n.to_string());
    arms.join("|")
}

/// `{"name": inner}`, closed: serde's externally tagged form refuses other keys.
fn single_key(name: &str, inner: TypeNode) -> TypeNode {
    let mut fields = IndexMap::new();
    fields.insert(name.to_owned(), Field::new(inner));
    node(TypeKind::Object(ObjectType { fields: Some(fields), closed: Some(true), reserved: None }))
}

#[cfg(test)]
mod tests {
    /// `up_to` writes patterns validate compiles with the `regex` crate; the test checks them
    /// with the same crate, so it tests the dialect they will run in.
    #[test]
    fn up_to_matches_exactly_the_range() {
        for n in [0u128, 7, 9, 10, 19, 99, 100, 127, 128, 255, 1000, 65535] {
            let pattern = format!("^({})$", super::up_to(n));
            let m = regex::Regex::new(&pattern).expect("up_to writes a valid pattern");
            for v in 0..=70000u128 {
                assert_eq!(m.is_match(&v.to_string()), v <= n, "{v} against 0..={n}");
            }
            assert!(!m.is_match("01"));
        }
    }
}
