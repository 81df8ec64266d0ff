//! Attributes read at token level: `cfg_attr` unwrapped (its attributes are taken as if present:
//! extract describes the union of configurations), serde's wire-shaping attributes, doc
//! comments, `#[deprecated]` and the `accord:` doc tag.

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use syn::{Attribute, Expr, ExprLit, Lit, Meta, meta::ParseNestedMeta, parse::Parser};

use crate::case::RenameRule;

/// One attribute after `cfg_attr` was unwrapped: its path's last segment, the tokens in its
/// parentheses (or after its `=`), and where it stands.
#[derive(Debug, Clone)]
pub(crate) struct RawAttr {
    pub(crate) name: String,
    pub(crate) args: TokenStream,
    /// The string of the `#[name = "value"]` form.
    pub(crate) value: Option<String>,
    pub(crate) span: Span,
}

/// The attributes extract reads; others (`allow`, `cfg`, `inline`, …) are not kept.
const READ: &[&str] = &[
    "serde",
    "doc",
    "deprecated",
    "derive",
    "rpc",
    "method",
    "subscription",
    "pubsub",
    "argument",
    "cfg_attr",
];

/// Every attribute, with `cfg_attr(pred, a, b)` replaced by `a` and `b` (recursively).
pub(crate) fn flatten(attrs: &[Attribute]) -> Vec<RawAttr> {
    let mut out = Vec::new();
    for attr in attrs {
        let Some(last) = attr.path().segments.last() else { continue };
        if !READ.iter().any(|r| last.ident == r) {
            continue;
        }
        let name = last.ident.to_string();
        let span = attr.path().segments.first().map_or_else(Span::call_site, |s| s.ident.span());
        match &attr.meta {
            Meta::Path(_) => {
                out.push(RawAttr { name, args: TokenStream::new(), value: None, span })
            }
            Meta::List(list) if name == "cfg_attr" => {
                let chunks = split_commas(list.tokens.clone());
                for chunk in chunks.into_iter().skip(1) {
                    push_chunk(chunk, span, &mut out);
                }
            }
            Meta::List(list) => {
                out.push(RawAttr { name, args: list.tokens.clone(), value: None, span })
            }
            Meta::NameValue(nv) => {
                let value = match &nv.value {
                    Expr::Lit(ExprLit { lit: Lit::Str(s), .. }) => Some(s.value()),
                    _ => None,
                };
                out.push(RawAttr { name, args: TokenStream::new(), value, span })
            }
        }
    }
    out
}

/// One `cfg_attr` chunk (`serde(rename = "x")`, `rpc(server, namespace = "eth")`, `doc = ".."`).
fn push_chunk(chunk: Vec<TokenTree>, span: Span, out: &mut Vec<RawAttr>) {
    let mut path = Vec::new();
    let mut i = 0;
    while i < chunk.len() {
        match &chunk[i] {
            TokenTree::Ident(id) => path.push(id.to_string()),
            TokenTree::Punct(p) if p.as_char() == ':' => {}
            _ => break,
        }
        i += 1;
    }
    let Some(name) = path.last().cloned() else { return };
    if name == "cfg_attr" {
        if let Some(TokenTree::Group(g)) = chunk.get(i) {
            for inner in split_commas(g.stream()).into_iter().skip(1) {
                push_chunk(inner, span, out);
            }
        }
        return;
    }
    match chunk.get(i) {
        Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis => {
            out.push(RawAttr { name, args: g.stream(), value: None, span })
        }
        Some(TokenTree::Punct(p)) if p.as_char() == '=' => {
            let value: TokenStream = chunk[i + 1..].iter().cloned().collect();
            out.push(RawAttr { name, args: TokenStream::new(), value: lit_str(&value), span })
        }
        _ => out.push(RawAttr { name, args: TokenStream::new(), value: None, span }),
    }
}

/// Splits a token stream at its top-level commas. Groups are single trees, so `=>` and generic
/// types inside them never confuse the split (syn's `Meta` parser fails on both).
pub(crate) fn split_commas(tokens: TokenStream) -> Vec<Vec<TokenTree>> {
    let mut chunks = vec![Vec::new()];
    let mut depth = 0usize; // angle brackets, for `item = Foo<A, B>`
    for tt in tokens {
        match &tt {
            TokenTree::Punct(p) if p.as_char() == ',' && depth == 0 => {
                chunks.push(Vec::new());
                continue;
            }
            TokenTree::Punct(p) if p.as_char() == '<' => depth += 1,
            TokenTree::Punct(p) if p.as_char() == '>' => {
                // `=>` is a joint `=` then `>`; only count a `>` that closes an angle bracket.
                depth = depth.saturating_sub(1)
            }
            _ => {}
        }
        if let Some(last) = chunks.last_mut() {
            last.push(tt);
        }
    }
    chunks.retain(|c| !c.is_empty());
    chunks
}

/// A string literal's value, if the tokens are one.
pub(crate) fn lit_str(tokens: &TokenStream) -> Option<String> {
    let lit: Lit = syn::parse2(tokens.clone()).ok()?;
    match lit {
        Lit::Str(s) => Some(s.value()),
        _ => None,
    }
}

/// A name for each direction (`rename = "x"` sets both; `rename(serialize = "a")` one).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PerDirection<T> {
    pub(crate) ser: Option<T>,
    pub(crate) de: Option<T>,
}

impl<T> Default for PerDirection<T> {
    fn default() -> Self {
        PerDirection { ser: None, de: None }
    }
}

/// What `#[serde(...)]` says on a container, a field or a variant. One struct for all three:
/// serde rejects misplaced keys at compile time, so a plant that builds has none to worry about.
#[derive(Debug, Clone, Default)]
pub(crate) struct Serde {
    pub(crate) rename: PerDirection<String>,
    pub(crate) rename_all: PerDirection<RenameRule>,
    pub(crate) rename_all_fields: PerDirection<RenameRule>,
    pub(crate) aliases: Vec<String>,
    pub(crate) tag: Option<String>,
    pub(crate) content: Option<String>,
    pub(crate) untagged: bool,
    pub(crate) transparent: bool,
    pub(crate) deny_unknown_fields: bool,
    pub(crate) default: bool,
    pub(crate) flatten: bool,
    pub(crate) skip_serializing: bool,
    pub(crate) skip_deserializing: bool,
    pub(crate) skip_serializing_if: bool,
    pub(crate) other: bool,
    /// `with`, `serialize_with`, `deserialize_with`, `from`, `try_from`, `into`, `remote`,
    /// `getter`: the attribute that makes the shape unknowable, with its value.
    pub(crate) opaque: Vec<String>,
    /// Keys serde has but extract does not know (`expecting`, `bound`, …) are wire-neutral and
    /// skipped; a key serde itself does not have is reported.
    pub(crate) unknown: Vec<(String, Span)>,
    pub(crate) span: Option<Span>,
}

const NEUTRAL: &[&str] =
    &["bound", "borrow", "crate", "expecting", "variant_identifier", "field_identifier"];

impl Serde {
    /// Reads every `serde(...)` among `attrs`.
    pub(crate) fn read(attrs: &[RawAttr]) -> Serde {
        let mut s = Serde::default();
        for attr in attrs.iter().filter(|a| a.name == "serde") {
            s.span.get_or_insert(attr.span);
            let parser = syn::meta::parser(|meta| s.one(meta));
            if let Err(e) = parser.parse2(attr.args.clone()) {
                s.unknown.push((format!("unreadable serde attribute: {e}"), attr.span));
            }
        }
        s
    }

    fn one(&mut self, meta: ParseNestedMeta<'_>) -> syn::Result<()> {
        let key = meta.path.get_ident().map(|i| i.to_string()).unwrap_or_default();
        match key.as_str() {
            "rename" => self.rename = names(&meta, |s| Some(s.to_owned()))?,
            "rename_all" => self.rename_all = names(&meta, RenameRule::from_name)?,
            "rename_all_fields" => self.rename_all_fields = names(&meta, RenameRule::from_name)?,
            "alias" => self.aliases.push(string(&meta)?),
            "tag" => self.tag = Some(string(&meta)?),
            "content" => self.content = Some(string(&meta)?),
            "untagged" => self.untagged = true,
            "transparent" => self.transparent = true,
            "deny_unknown_fields" => self.deny_unknown_fields = true,
            "flatten" => self.flatten = true,
            "other" => self.other = true,
            "default" => {
                self.default = true;
                skip_value(&meta)?;
            }
            "skip" => {
                self.skip_serializing = true;
                self.skip_deserializing = true;
            }
            "skip_serializing" => self.skip_serializing = true,
            "skip_deserializing" => self.skip_deserializing = true,
            "skip_serializing_if" => {
                self.skip_serializing_if = true;
                skip_value(&meta)?;
            }
            "with" | "serialize_with" | "deserialize_with" | "from" | "try_from" | "into"
            | "remote" | "getter" => {
                let value = if meta.input.peek(syn::Token![=]) {
                    let v = meta.value()?;
                    let lit: Lit = v.parse()?;
                    match lit {
                        Lit::Str(s) => s.value(),
                        _ => String::new(),
                    }
                } else {
                    String::new()
                };
                self.opaque.push(format!("{key} = \"{value}\""));
            }
            other => {
                if !NEUTRAL.contains(&other) {
                    self.unknown.push((other.to_owned(), meta.path.segments[0].ident.span()));
                }
                skip_value(&meta)?;
            }
        }
        Ok(())
    }
}

fn string(meta: &ParseNestedMeta<'_>) -> syn::Result<String> {
    let lit: syn::LitStr = meta.value()?.parse()?;
    Ok(lit.value())
}

fn skip_value(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        let _: Expr = meta.value()?.parse()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|inner| skip_value(&inner))?;
    }
    Ok(())
}

/// `key = "x"` (both directions) or `key(serialize = "a", deserialize = "b")`.
fn names<T>(
    meta: &ParseNestedMeta<'_>,
    conv: impl Fn(&str) -> Option<T>,
) -> syn::Result<PerDirection<T>> {
    let mut out = PerDirection { ser: None, de: None };
    let bad = |s: &str, m: &ParseNestedMeta<'_>| m.error(format!("unknown value `{s}`"));
    if meta.input.peek(syn::Token![=]) {
        let s = string(meta)?;
        let v = conv(&s).ok_or_else(|| bad(&s, meta))?;
        let again = conv(&s).ok_or_else(|| bad(&s, meta))?;
        out.ser = Some(v);
        out.de = Some(again);
    } else {
        meta.parse_nested_meta(|inner| {
            let s = string(&inner)?;
            let v = conv(&s).ok_or_else(|| bad(&s, &inner))?;
            if inner.path.is_ident("serialize") {
                out.ser = Some(v);
            } else if inner.path.is_ident("deserialize") {
                out.de = Some(v);
            }
            Ok(())
        })?;
    }
    Ok(out)
}

/// Doc comments, with the `accord:` tag lines taken out.
#[derive(Debug, Clone, Default)]
pub(crate) struct Docs {
    /// Paragraphs joined by a blank line, the lines of a paragraph by a space: wrapped source
    /// comments give one-line descriptions.
    pub(crate) description: Option<String>,
    /// `key = value` pairs of every `accord:` line, in order.
    pub(crate) tag: Vec<(String, Option<String>)>,
    pub(crate) tag_span: Option<Span>,
}

pub(crate) fn docs(attrs: &[RawAttr]) -> Docs {
    let mut paragraphs: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut out = Docs::default();
    for attr in attrs.iter().filter(|a| a.name == "doc") {
        let Some(text) = attr.value.as_deref() else { continue };
        // `split`, not `lines`: a bare `///` is an empty doc attribute, which has no lines but
        // is the blank line between two paragraphs.
        for line in text.split('\n') {
            let line = line.trim();
            if let Some(rest) = line.strip_prefix("accord:") {
                out.tag.extend(parse_tag(rest));
                out.tag_span.get_or_insert(attr.span);
            } else if line.is_empty() {
                if !current.is_empty() {
                    paragraphs.push(std::mem::take(&mut current));
                }
            } else {
                if !current.is_empty() {
                    current.push(' ');
                }
                current.push_str(line);
            }
        }
    }
    if !current.is_empty() {
        paragraphs.push(current);
    }
    if !paragraphs.is_empty() {
        out.description = Some(paragraphs.join("\n\n"));
    }
    out
}

/// `semantics = write, version = "2.3.0", inline` → pairs. Values may be quoted.
fn parse_tag(text: &str) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        let key_end = rest.find(['=', ',']).unwrap_or(rest.len());
        let key = rest[..key_end].trim().to_owned();
        rest = &rest[key_end..];
        let mut value = None;
        if let Some(after) = rest.strip_prefix('=') {
            let after = after.trim_start();
            if let Some(quoted) = after.strip_prefix('"') {
                let end = quoted.find('"').unwrap_or(quoted.len());
                value = Some(quoted[..end].to_owned());
                rest = quoted.get(end + 1..).unwrap_or("");
            } else {
                let end = after.find(',').unwrap_or(after.len());
                value = Some(after[..end].trim().to_owned());
                rest = &after[end..];
            }
        }
        rest = rest.trim_start().strip_prefix(',').unwrap_or(rest).trim_start();
        if !key.is_empty() {
            out.push((key, value));
        }
    }
    out
}

impl Docs {
    /// The value of tag key `key`, if given.
    pub(crate) fn get(&self, key: &str) -> Option<&str> {
        self.tag.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_deref().unwrap_or(""))
    }

    /// Whether the tag names `key` (with or without a value).
    pub(crate) fn has(&self, key: &str) -> bool {
        self.tag.iter().any(|(k, _)| k == key)
    }
}

/// `#[deprecated]`: `Some(None)` without a note, `Some(Some(note))` with one.
pub(crate) fn deprecated(attrs: &[RawAttr]) -> Option<Option<String>> {
    let attr = attrs.iter().find(|a| a.name == "deprecated")?;
    if attr.value.is_some() {
        return Some(attr.value.clone());
    }
    let mut note = None;
    let parser = syn::meta::parser(|meta| {
        if meta.path.is_ident("note") {
            note = Some(string(&meta)?);
        } else {
            skip_value(&meta)?;
        }
        Ok(())
    });
    let _ = parser.parse2(attr.args.clone());
    Some(note)
}

/// Whether `#[derive(..)]` names `what` (`Serialize`, `Deserialize`, `Serialize_repr`).
pub(crate) fn derives(attrs: &[RawAttr], what: &str) -> bool {
    attrs
        .iter()
        .filter(|a| a.name == "derive")
        .any(|a| a.args.clone().into_iter().any(|t| matches!(&t, TokenTree::Ident(i) if i == what)))
}

/// Whether the attributes hold `#[cfg(test)]`: such items are not part of the plant.
pub(crate) fn is_cfg_test(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && matches!(&a.meta, Meta::List(l) if l.tokens.to_string().trim() == "test")
    })
}

/// `#[path = "x.rs"]` on a `mod`.
pub(crate) fn path_attr(attrs: &[Attribute]) -> Option<String> {
    attrs.iter().find_map(|a| match &a.meta {
        Meta::NameValue(nv) if nv.path.is_ident("path") => match &nv.value {
            Expr::Lit(ExprLit { lit: Lit::Str(s), .. }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    })
}
