//! Methods and params: semantics, the params list (order, presence, structure), results and
//! declared errors.

use std::collections::BTreeSet;

use accord_schema_model::{Document, Method, ParamStructure, TypeKind, TypeNode};
use indexmap::IndexMap;

use super::{
    At, Comparison, PositionKind, WitnessPlan, deprecated, present_optional, same_field_shape,
};
use crate::rules::{self, Polarity};

impl Comparison<'_> {
    pub(super) fn method(&mut self, at: &At, name: &str, o: &Method, n: &Method) {
        self.attr_deprecated(at, &o.deprecated, &n.deprecated, &format!("method `{}`", at.path));
        if o.semantics != n.semantics {
            let show = |s: &Option<accord_schema_model::Semantics>| {
                s.as_ref().map_or("undeclared".to_owned(), |s| format!("`{}`", s.as_str()))
            };
            let mut here = at.down("", &[], &["semantics"]);
            if n.semantics.is_none() {
                here.new = at.new.clone();
            }
            self.emit(
                &here,
                &rules::SEMANTICS_CHANGED,
                false,
                format!(
                    "semantics of `{}` changed from {} to {}",
                    at.path,
                    show(&o.semantics),
                    show(&n.semantics)
                ),
            );
        }
        self.params(at, name, o, n);
        let mut r = at.down(".result", &["result"], &["result"]);
        r.position = PositionKind::Result;
        r.polarity = Polarity::Output;
        self.types(&r, &o.result, &n.result);
        // Errors: output.
        let mut e_at = at.clone();
        e_at.polarity = Polarity::Output;
        let oerr = o.errors.as_deref().unwrap_or(&[]);
        let nerr = n.errors.as_deref().unwrap_or(&[]);
        for (i, oe) in oerr.iter().enumerate() {
            let code = oe.code.to_string();
            match nerr.iter().enumerate().find(|(_, ne)| ne.code == oe.code) {
                Some((j, ne)) => {
                    let (is, js) = (i.to_string(), j.to_string());
                    let mut d = e_at.down(
                        &format!(".errors.{code}.data"),
                        &["errors", &is, "data"],
                        &["errors", &js, "data"],
                    );
                    d.position = PositionKind::ErrorData;
                    match (&oe.data, &ne.data) {
                        (Some(od), Some(nd)) => self.types(&d, od, nd),
                        (None, Some(nd)) => self.types(&d, &TypeNode::new(TypeKind::Null), nd),
                        (Some(od), None) => self.types(&d, od, &TypeNode::new(TypeKind::Null)),
                        (None, None) => {}
                    }
                }
                None => {
                    let is = i.to_string();
                    let here = e_at.down(&format!(".errors.{code}"), &["errors", &is], &[]);
                    self.emit(
                        &here,
                        &rules::ERROR_CODE_REMOVED,
                        true,
                        format!("`{}` no longer declares error {code}", at.path),
                    );
                }
            }
        }
        for (j, ne) in nerr.iter().enumerate() {
            if !oerr.iter().any(|oe| oe.code == ne.code) {
                let js = j.to_string();
                let here = e_at.down(&format!(".errors.{}", ne.code), &[], &["errors", &js]);
                self.emit(
                    &here,
                    &rules::ERROR_CODE_ADDED,
                    false,
                    format!("`{}` declares a new error {} ({})", at.path, ne.code, ne.message),
                );
            }
        }
        self.links(at, o, n);
        self.causes(at, o, n);
    }

    /// Links (format.md §5.11): promises the plant writes and chaining callers read, so judged
    /// as output, as events are.
    fn links(&mut self, at: &At, o: &Method, n: &Method) {
        let mut l_at = at.clone();
        l_at.polarity = Polarity::Output;
        let empty = IndexMap::new();
        let (ol, nl) = (o.links.as_ref().unwrap_or(&empty), n.links.as_ref().unwrap_or(&empty));
        let (ons, nns) = (at.old_ns.as_str(), at.new_ns.as_str());
        for (name, olink) in ol {
            let here = l_at.down(&format!(".links.{name}"), &["links", name], &["links", name]);
            let Some(nlink) = nl.get(name) else {
                let (ns, m) = olink.target(ons);
                self.emit(
                    &here,
                    &rules::LINK_REMOVED,
                    true,
                    format!("`{}` no longer links `{name}` to `{ns}.{m}`", at.path),
                );
                continue;
            };
            let (old_target, new_target) = (olink.target(ons), nlink.target(nns));
            if old_target != new_target {
                let mut there = here.clone();
                there.new.push_key(if olink.method == nlink.method {
                    "namespace"
                } else {
                    "method"
                });
                if olink.method == nlink.method && nlink.namespace.is_none() {
                    there.new = here.new.clone();
                }
                self.emit(
                    &there,
                    &rules::LINK_RETARGETED,
                    false,
                    format!(
                        "link `{name}` of `{}` led to `{}.{}` and now leads to `{}.{}`",
                        at.path, old_target.0, old_target.1, new_target.0, new_target.1
                    ),
                );
                continue;
            }
            let empty_p = IndexMap::new();
            let op = olink.params.as_ref().unwrap_or(&empty_p);
            let np = nlink.params.as_ref().unwrap_or(&empty_p);
            let mut changed: Vec<String> = Vec::new();
            for (param, ov) in op {
                match np.get(param) {
                    None => changed.push(format!("`{param}` ({ov}) is no longer given")),
                    Some(nv) if nv != ov => changed.push(format!("`{param}` was {ov}, is {nv}")),
                    Some(_) => {}
                }
            }
            for (param, nv) in np.iter().filter(|(p, _)| !op.contains_key(*p)) {
                changed.push(format!("`{param}` is given as {nv}"));
            }
            if !changed.is_empty() {
                let mut there = here.clone();
                if nlink.params.is_some() {
                    there.new.push_key("params");
                }
                self.emit(
                    &there,
                    &rules::LINK_PARAMS_CHANGED,
                    false,
                    format!(
                        "link `{name}` of `{}` gives `{}.{}` other params: {}",
                        at.path,
                        new_target.0,
                        new_target.1,
                        changed.join("; ")
                    ),
                );
            }
        }
        for (name, nlink) in nl.iter().filter(|(k, _)| !ol.contains_key(*k)) {
            let here = l_at.down(&format!(".links.{name}"), &[], &["links", name]);
            let (ns, m) = nlink.target(nns);
            self.emit(
                &here,
                &rules::LINK_ADDED,
                false,
                format!("`{}` links `{name}` to `{ns}.{m}`", at.path),
            );
        }
    }

    /// Causes (format.md §5.12): output, as the events they name.
    fn causes(&mut self, at: &At, o: &Method, n: &Method) {
        let mut c_at = at.clone();
        c_at.polarity = Polarity::Output;
        let (oc, nc) = (o.causes.as_deref().unwrap_or(&[]), n.causes.as_deref().unwrap_or(&[]));
        let (ons, nns) = (at.old_ns.as_str(), at.new_ns.as_str());
        for (i, cause) in oc.iter().enumerate() {
            let target = cause.target(ons);
            if nc.iter().any(|c| c.target(nns) == target) {
                continue;
            }
            let is = i.to_string();
            let here = c_at.down(&format!(".causes.{}", target.1), &["causes", &is], &[]);
            self.emit(
                &here,
                &rules::CAUSE_REMOVED,
                true,
                format!("`{}` no longer says it causes event `{}.{}`", at.path, target.0, target.1),
            );
        }
        for (j, cause) in nc.iter().enumerate() {
            let target = cause.target(nns);
            if oc.iter().any(|c| c.target(ons) == target) {
                continue;
            }
            let js = j.to_string();
            let here = c_at.down(&format!(".causes.{}", target.1), &[], &["causes", &js]);
            self.emit(
                &here,
                &rules::CAUSE_ADDED,
                false,
                format!("`{}` says it causes event `{}.{}`", at.path, target.0, target.1),
            );
        }
    }

    pub(super) fn params(&mut self, at: &At, method: &str, o: &Method, n: &Method) {
        let result_gains = self.result_gains_field(at, o, n);
        let mut p_at = at.down(".params", &[], &[]);
        p_at.position = PositionKind::Params;
        p_at.polarity = Polarity::Input;
        p_at.ack = result_gains;
        let os = o.param_structure.unwrap_or(ParamStructure::Either);
        let ns = n.param_structure.unwrap_or(ParamStructure::Either);
        if os != ns {
            let rule = match (os, ns) {
                (_, ParamStructure::Either) => &rules::PARAM_STRUCTURE_WIDENED,
                (ParamStructure::Either, _) => &rules::PARAM_STRUCTURE_NARROWED,
                _ => &rules::PARAM_STRUCTURE_CHANGED,
            };
            let mut here = p_at.clone();
            here.new.push_key("paramStructure");
            if n.param_structure.is_none() {
                here.new = at.new.clone();
            }
            self.emit(
                &here,
                rule,
                false,
                format!(
                    "paramStructure of `{}` changed from `{}` to `{}`",
                    at.path,
                    os.as_str(),
                    ns.as_str()
                ),
            );
        }
        let op = o.params.as_deref().unwrap_or(&[]);
        let np = n.params.as_deref().unwrap_or(&[]);
        let params_witness = Some(WitnessPlan::Params {
            old_ns: at.old_ns.clone(),
            new_ns: at.new_ns.clone(),
            method: method.to_owned(),
        });
        let positional = os != ParamStructure::ByName || ns != ParamStructure::ByName;
        let by_position_only = os == ParamStructure::ByPosition && ns == ParamStructure::ByPosition;
        // A param whose name is gone while a new name of the same shape stands at its position
        // is one rename, not a removal, an addition and an insertion: by-position callers put
        // the same value at the same place, by-name callers use the old name.
        let renamed: Vec<usize> = (0..op.len().min(np.len()))
            .filter(|&i| {
                !np.iter().any(|p| p.name == op[i].name)
                    && !op.iter().any(|p| p.name == np[i].name)
                    && same_field_shape(&op[i].field, &np[i].field)
            })
            .collect();
        for &i in &renamed {
            if by_position_only {
                continue; // nothing on the wire changes
            }
            let is = i.to_string();
            let here = p_at.down(&format!(".{}", op[i].name), &["params", &is], &["params", &is]);
            self.emit(
                &here,
                &rules::PROBABLE_RENAME,
                false,
                format!(
                    "param `{}` at position {i} is now called `{}`, with the same type: probably a rename (by-position callers are unaffected; by-name callers send the old name to the new plant, and the new name to the old plant)",
                    op[i].name, np[i].name
                ),
            );
        }
        let mut reordered = false;
        let mut removed = Vec::new();
        for (i, opar) in op.iter().enumerate() {
            if renamed.contains(&i) {
                continue;
            }
            let is = i.to_string();
            match np.iter().enumerate().find(|(_, p)| p.name == opar.name) {
                Some((j, npar)) => {
                    let js = j.to_string();
                    let here =
                        p_at.down(&format!(".{}", opar.name), &["params", &is], &["params", &js]);
                    if i != j && positional && !reordered {
                        reordered = true;
                        self.emit(
                            &here,
                            &rules::PARAMS_REORDERED,
                            false,
                            format!("param `{}` moved from position {i} to {j}", opar.name),
                        );
                    }
                    match (
                        present_optional(&opar.field, here.polarity),
                        present_optional(&npar.field, here.polarity),
                    ) {
                        (true, false) => self.emit_with(
                            &here,
                            &rules::PARAM_BECAME_REQUIRED,
                            false,
                            format!("param `{}` became required", here.path),
                            params_witness.clone(),
                        ),
                        (false, true) => self.emit(
                            &here,
                            &rules::PARAM_BECAME_OPTIONAL,
                            false,
                            format!("param `{}` became optional", here.path),
                        ),
                        _ => {}
                    }
                    self.attr_deprecated(
                        &here,
                        &opar.field.deprecated,
                        &npar.field.deprecated,
                        &format!("param `{}`", here.path),
                    );
                    let t = here.down("", &["type"], &["type"]);
                    self.types(&t, &opar.field.ty, &npar.field.ty);
                }
                None => {
                    let here = p_at.down(&format!(".{}", opar.name), &["params", &is], &[]);
                    // Whether the old plant required it decides new callers × old plant.
                    let (rule, what) = if opar.field.is_optional_in() {
                        (&rules::OPTIONAL_PARAM_REMOVED, "optional")
                    } else {
                        (&rules::PARAM_REMOVED, "required")
                    };
                    self.emit(&here, rule, true, format!("{what} param `{}` removed", here.path));
                    self.removal_lifecycle(
                        &here,
                        "param",
                        deprecated(&opar.field.deprecated),
                        true,
                    );
                    removed.push(opar);
                }
            }
        }
        for (j, npar) in np.iter().enumerate() {
            if op.iter().any(|p| p.name == npar.name) || renamed.contains(&j) {
                continue;
            }
            let js = j.to_string();
            let here = p_at.down(&format!(".{}", npar.name), &[], &["params", &js]);
            if present_optional(&npar.field, here.polarity) {
                self.emit(
                    &here,
                    &rules::PARAM_ADDED_OPTIONAL,
                    false,
                    format!("optional param `{}` added", here.path),
                );
                if !here.ack {
                    self.emit(&here, &rules::REQUEST_OPTION_WITHOUT_ACK, false, format!("optional param `{}` added, but the result gains no field that only a plant implementing it produces", here.path));
                }
            } else {
                self.emit_with(
                    &here,
                    &rules::PARAM_ADDED_REQUIRED,
                    false,
                    format!("required param `{}` added", here.path),
                    params_witness.clone(),
                );
            }
            if positional && j < op.len() && !reordered {
                reordered = true;
                self.emit(&here, &rules::PARAMS_REORDERED, false, format!("param `{}` inserted at position {j}, before params old callers send by position", npar.name));
            }
            for old in &removed {
                if same_field_shape(&old.field, &npar.field) {
                    self.emit(&here, &rules::PROBABLE_RENAME, false, format!("param `{}` was removed and `{}` added with the same type: probably a rename", old.name, npar.name));
                }
            }
        }
    }

    /// Whether the new result can hold something the old one cannot: a field or a union arm,
    /// anywhere in it (through refs, arrays and arms). Only a plant that implements a new
    /// request option sends it, so callers can tell the option done from ignored: the seed's
    /// acknowledgement. Deep, because real results acknowledge deep (a block's transactions gain
    /// `proof_facts` when `response_flags` asks for them) or with a new arm (`getStorageAt`
    /// answers `STORAGE_RESULT` instead of the bare value).
    pub(super) fn result_gains_field(&self, at: &At, o: &Method, n: &Method) -> bool {
        let old = vocabulary(self.old, &at.old_ns, &o.result);
        let new = vocabulary(self.new, &at.new_ns, &n.result);
        new.iter().any(|f| !old.contains(f))
    }
}

/// Everything a value of `node` can hold, named: `CONTEXT.field` for each field and
/// `CONTEXT|arm` for each union arm (by the key arms are matched on), where `CONTEXT` is the
/// nearest named type or the path from the top. Each named type is entered once; anonymous
/// nesting stops at a depth no real result reaches.
fn vocabulary(doc: &Document, ns: &str, node: &TypeNode) -> BTreeSet<String> {
    const DEPTH: usize = 32;
    let mut out = BTreeSet::new();
    let mut entered: BTreeSet<(String, String)> = BTreeSet::new();
    let mut stack: Vec<(String, &TypeNode, String, usize)> =
        vec![(ns.to_owned(), node, String::new(), 0)];
    while let Some((ns, node, context, depth)) = stack.pop() {
        if depth > DEPTH {
            continue;
        }
        match &node.kind {
            TypeKind::Ref(r) => {
                if let Some((tns, name, t)) = doc.named(&ns, r)
                    && entered.insert((tns.to_owned(), name.to_owned()))
                {
                    stack.push((tns.to_owned(), t, name.to_owned(), depth + 1));
                }
            }
            TypeKind::Object(obj) => {
                for (field, f) in obj.fields.iter().flatten() {
                    let here = format!("{context}.{field}");
                    out.insert(here.clone());
                    stack.push((ns.clone(), &f.ty, here, depth + 1));
                }
            }
            TypeKind::Union(u) => {
                for v in &u.variants {
                    let here = format!(
                        "{context}|{}",
                        super::types::variant_key(v, u.discriminator.as_deref())
                    );
                    out.insert(here.clone());
                    stack.push((ns.clone(), v, here, depth + 1));
                }
            }
            TypeKind::Array(a) => {
                stack.push((ns.clone(), &a.items, format!("{context}[]"), depth + 1))
            }
            TypeKind::Tuple(t) => {
                for (i, e) in t.elements.iter().enumerate() {
                    stack.push((ns.clone(), e, format!("{context}[{i}]"), depth + 1));
                }
            }
            TypeKind::Map(m) => {
                stack.push((ns.clone(), &m.values, format!("{context}{{}}"), depth + 1))
            }
            _ => {}
        }
    }
    out
}
