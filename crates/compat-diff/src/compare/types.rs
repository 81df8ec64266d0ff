//! Type nodes: kinds, refs, unions, arrays and tuples, enums and objects, compared under the
//! polarity of their position.

use accord_schema_model::{ArrayType, ObjectType, TypeKind, TypeNode};
use indexmap::IndexMap;
use serde_json::Value;

use super::{
    At, Change, Comparison, PositionKind, deprecated, present_optional, ptr, reserved_has,
    same_field_shape,
};
use crate::rules::{self, Polarity};

impl Comparison<'_> {
    /// Compares two type nodes under `at.polarity`.
    pub(super) fn types(&mut self, at: &At, o: &TypeNode, n: &TypeNode) {
        if o == n && at.old_ns == at.new_ns {
            // Same node; refs inside are compared as named types.
            return;
        }
        self.defaults(at, o, n);
        match (&o.kind, &n.kind) {
            // A named type wrapped in a union that names it (`FELT` → `FELT | STORAGE_RESULT`),
            // or unwrapped from one, is variants added or removed, not a changed type: the
            // variant is matched by its name before the ref is resolved.
            (TypeKind::Ref(_), TypeKind::Union(u)) if union_names(u, o) => self.unions(at, o, n),
            (TypeKind::Union(u), TypeKind::Ref(_)) if union_names(u, n) => self.unions(at, o, n),
            (TypeKind::Ref(or), TypeKind::Ref(nr)) => {
                let ons = or.namespace_in(&at.old_ns);
                let nns = nr.namespace_in(&at.new_ns);
                if ons == nns && or.name == nr.name {
                    return; // compared once in `named_types`
                }
                self.through_refs(at, o, n);
            }
            (TypeKind::Ref(_), _) | (_, TypeKind::Ref(_)) => self.through_refs(at, o, n),
            (TypeKind::Any, TypeKind::Any) => {}
            (_, TypeKind::Any) => self.emit_with(
                at,
                &rules::TO_ANY,
                false,
                format!("`{}` became any", at.path),
                Self::types_witness(at, o, n),
            ),
            (TypeKind::Any, _) => self.emit_with(
                at,
                &rules::FROM_ANY,
                false,
                format!("`{}` was any and is now {}", at.path, n.kind.kind().name()),
                Self::types_witness(at, o, n),
            ),
            (TypeKind::Union(_), _) | (_, TypeKind::Union(_)) => self.unions(at, o, n),
            (TypeKind::Null, TypeKind::Null) | (TypeKind::Boolean, TypeKind::Boolean) => {}
            (TypeKind::Integer(a), TypeKind::Integer(b))
            | (TypeKind::Number(a), TypeKind::Number(b)) => {
                self.numbers(at, o, n, a, b);
            }
            (TypeKind::Integer(a), TypeKind::Number(b)) => {
                self.emit_with(
                    at,
                    &rules::TYPE_WIDENED,
                    false,
                    format!("`{}` changed from integer to number", at.path),
                    Self::types_witness(at, o, n),
                );
                self.numbers(at, o, n, a, b);
            }
            (TypeKind::Number(a), TypeKind::Integer(b)) => {
                self.emit_with(
                    at,
                    &rules::TYPE_NARROWED,
                    false,
                    format!("`{}` changed from number to integer", at.path),
                    Self::types_witness(at, o, n),
                );
                self.numbers(at, o, n, a, b);
            }
            (TypeKind::String(a), TypeKind::String(b)) => self.strings(at, o, n, a, b),
            (TypeKind::Literal { value: a }, TypeKind::Literal { value: b }) => {
                if a != b {
                    self.emit_with(
                        at,
                        &rules::LITERAL_CHANGED,
                        false,
                        format!("`{}` changed from literal {a} to literal {b}", at.path),
                        Self::types_witness(at, o, n),
                    );
                }
            }
            (TypeKind::Literal { value }, other) if admits_base(other, value) => {
                self.emit_with(
                    at,
                    &rules::TYPE_WIDENED,
                    false,
                    format!(
                        "`{}` changed from literal {value} to {}",
                        at.path,
                        other.kind().name()
                    ),
                    Self::types_witness(at, o, n),
                );
            }
            (other, TypeKind::Literal { value }) if admits_base(other, value) => {
                self.emit_with(
                    at,
                    &rules::TYPE_NARROWED,
                    false,
                    format!(
                        "`{}` changed from {} to literal {value}",
                        at.path,
                        other.kind().name()
                    ),
                    Self::types_witness(at, o, n),
                );
            }
            (TypeKind::String(_), TypeKind::Enum(_)) => {
                self.emit_with(
                    at,
                    &rules::BECAME_ENUMERATED,
                    false,
                    format!("`{}` changed from a free string to an enum", at.path),
                    Self::types_witness(at, o, n),
                );
            }
            (TypeKind::Enum(_), TypeKind::String(_)) => {
                self.emit_with(
                    at,
                    &rules::TYPE_WIDENED,
                    false,
                    format!("`{}` changed from an enum to a free string", at.path),
                    Self::types_witness(at, o, n),
                );
            }
            (TypeKind::Enum(a), TypeKind::Enum(b)) => self.enums(at, o, n, a, b),
            (TypeKind::Array(a), TypeKind::Array(b)) => self.arrays(at, o, n, a, b),
            (TypeKind::Tuple(a), TypeKind::Tuple(b)) => {
                if a.elements.len() != b.elements.len() {
                    self.emit_with(
                        at,
                        &rules::TUPLE_LENGTH_CHANGED,
                        false,
                        format!(
                            "`{}` changed from {} to {} elements",
                            at.path,
                            a.elements.len(),
                            b.elements.len()
                        ),
                        Self::types_witness(at, o, n),
                    );
                } else {
                    for (i, (x, y)) in a.elements.iter().zip(&b.elements).enumerate() {
                        let is = i.to_string();
                        let e = at.down(&format!("[{i}]"), &["elements", &is], &["elements", &is]);
                        self.types(&e, x, y);
                    }
                }
            }
            (TypeKind::Array(a), TypeKind::Tuple(b)) => {
                self.array_and_tuple(at, o, n, a, &b.elements, true)
            }
            (TypeKind::Tuple(a), TypeKind::Array(b)) => {
                self.array_and_tuple(at, o, n, b, &a.elements, false)
            }
            (TypeKind::Object(a), TypeKind::Object(b)) => self.objects(at, o, n, a, b),
            (TypeKind::Map(a), TypeKind::Map(b)) => {
                let any_string = TypeNode::new(TypeKind::String(Default::default()));
                let ok = a.keys.as_deref().unwrap_or(&any_string);
                let nk = b.keys.as_deref().unwrap_or(&any_string);
                let mut keys = at.down("{keys}", &["keys"], &["keys"]);
                if a.keys.is_none() {
                    keys.old = at.old.clone();
                }
                if b.keys.is_none() {
                    keys.new = at.new.clone();
                }
                self.types(&keys, ok, nk);
                let values = at.down("{}", &["values"], &["values"]);
                self.types(&values, &a.values, &b.values);
            }
            (TypeKind::Object(_), TypeKind::Map(_)) => self.emit(
                at,
                &rules::OBJECT_TO_MAP,
                false,
                format!("`{}` changed from an object to a map", at.path),
            ),
            (TypeKind::Map(_), TypeKind::Object(_)) => self.emit(
                at,
                &rules::MAP_TO_OBJECT,
                false,
                format!("`{}` changed from a map to an object", at.path),
            ),
            (a, b) => self.emit_with(
                at,
                &rules::TYPE_CHANGED,
                false,
                format!("`{}` changed from {} to {}", at.path, a.kind().name(), b.kind().name()),
                Self::types_witness(at, o, n),
            ),
        }
    }

    /// Two arrays: their bounds, uniqueness and items. Every member is named, so a new one does
    /// not compile until it is compared.
    fn arrays(&mut self, at: &At, o: &TypeNode, n: &TypeNode, a: &ArrayType, b: &ArrayType) {
        let w = Self::types_witness(at, o, n);
        let ArrayType {
            items: old_items,
            min_items: old_min,
            max_items: old_max,
            unique_items: old_unique,
            #[cfg(feature = "dummy-refinement-handled")]
                dummy_items: _,
        } = a;
        let ArrayType {
            items: new_items,
            min_items: new_min,
            max_items: new_max,
            unique_items: new_unique,
            #[cfg(feature = "dummy-refinement-handled")]
                dummy_items: _,
        } = b;
        self.bound_u(at, "minItems", *old_min, *new_min, true, &w);
        self.bound_u(at, "maxItems", *old_max, *new_max, false, &w);
        match (old_unique.unwrap_or(false), new_unique.unwrap_or(false)) {
            (false, true) => self.emit_with(
                at,
                &rules::BOUND_ADDED,
                false,
                format!("`{}` now requires unique items", at.path),
                w.clone(),
            ),
            (true, false) => self.emit_with(
                at,
                &rules::BOUND_REMOVED,
                false,
                format!("`{}` no longer requires unique items", at.path),
                w.clone(),
            ),
            _ => {}
        }
        let items = at.down("[]", &["items"], &["items"]);
        self.types(&items, old_items, new_items);
    }

    /// An array became a tuple (`to_tuple`) or a tuple an array. The same JSON when the array's
    /// length is fixed at the tuple's; otherwise the kind change is graded by direction, a
    /// tuple length the array's bounds exclude is reported apart, and each element is compared
    /// with the array's items.
    pub(super) fn array_and_tuple(
        &mut self,
        at: &At,
        o: &TypeNode,
        n: &TypeNode,
        array: &accord_schema_model::ArrayType,
        elements: &[TypeNode],
        to_tuple: bool,
    ) {
        let len = elements.len() as u64;
        let min = array.min_items.unwrap_or(0);
        let fixed = min == len && array.max_items == Some(len);
        let witness = Self::types_witness(at, o, n);
        if !fixed {
            let tuple = format!("a tuple of {len}");
            let (rule, from, to) = if to_tuple {
                (&rules::ARRAY_TO_TUPLE, "an array", tuple.as_str())
            } else {
                (&rules::TUPLE_TO_ARRAY, tuple.as_str(), "an array")
            };
            self.emit_with(
                at,
                rule,
                false,
                format!("`{}` changed from {from} to {to}", at.path),
                witness.clone(),
            );
        }
        if len < min || array.max_items.is_some_and(|max| len > max) {
            let bounds = match array.max_items {
                Some(max) => format!("{min} to {max}"),
                None => format!("at least {min}"),
            };
            self.emit_with(
                at,
                &rules::TUPLE_LENGTH_CHANGED,
                false,
                format!(
                    "`{}`: a tuple of {len} elements, where the array admits {bounds} items",
                    at.path
                ),
                witness,
            );
        }
        for (i, element) in elements.iter().enumerate() {
            let is = i.to_string();
            let (element_ptr, items_ptr) = (["elements", is.as_str()], ["items"]);
            if to_tuple {
                let e = at.down(&format!("[{i}]"), &items_ptr, &element_ptr);
                self.types(&e, &array.items, element);
            } else {
                let e = at.down(&format!("[{i}]"), &element_ptr, &items_ptr);
                self.types(&e, element, &array.items);
            }
        }
    }

    pub(super) fn through_refs(&mut self, at: &At, o: &TypeNode, n: &TypeNode) {
        let (ons, oname, otarget) = match &o.kind {
            TypeKind::Ref(r) => match self.old.named(&at.old_ns, r) {
                Some((ns, name, t)) => (ns.to_owned(), name.to_owned(), t),
                None => return,
            },
            _ => (at.old_ns.clone(), String::new(), o),
        };
        let (nns, nname, ntarget) = match &n.kind {
            TypeKind::Ref(r) => match self.new.named(&at.new_ns, r) {
                Some((ns, name, t)) => (ns.to_owned(), name.to_owned(), t),
                None => return,
            },
            _ => (at.new_ns.clone(), String::new(), n),
        };
        let key = (ons.clone(), oname.clone(), nns.clone(), nname.clone(), at.polarity);
        if !self.visited.insert(key) {
            return;
        }
        let mut inner = at.clone();
        inner.old_ns = ons.clone();
        inner.new_ns = nns.clone();
        if !oname.is_empty() {
            inner.old = ptr(&["namespaces", &ons, "types", &oname]);
        }
        if !nname.is_empty() {
            inner.new = ptr(&["namespaces", &nns, "types", &nname]);
        }
        // Compare the targets; refs inside with one name on both sides are named-type work.
        let (ot, nt) = (otarget.clone(), ntarget.clone());
        if matches!(ot.kind, TypeKind::Ref(_)) || matches!(nt.kind, TypeKind::Ref(_)) {
            self.through_refs(&inner, &ot, &nt);
        } else {
            self.types(&inner, &ot, &nt);
        }
    }

    pub(super) fn unions(&mut self, at: &At, o: &TypeNode, n: &TypeNode) {
        let single = |t: &TypeNode| vec![t.clone()];
        let (ov, od) = match &o.kind {
            TypeKind::Union(u) => (u.variants.clone(), u.discriminator.clone()),
            _ => (single(o), None),
        };
        let (nv, nd) = match &n.kind {
            TypeKind::Union(u) => (u.variants.clone(), u.discriminator.clone()),
            _ => (single(n), None),
        };
        let o_union = matches!(o.kind, TypeKind::Union(_));
        let n_union = matches!(n.kind, TypeKind::Union(_));
        if o_union && n_union && od != nd {
            self.emit_with(
                at,
                &rules::UNION_DISCRIMINATOR_CHANGED,
                false,
                format!(
                    "discriminator of `{}` changed from {} to {}",
                    at.path,
                    od.as_deref().map_or("none".to_owned(), |d| format!("`{d}`")),
                    nd.as_deref().map_or("none".to_owned(), |d| format!("`{d}`"))
                ),
                Self::types_witness(at, o, n),
            );
            return;
        }
        let okeys: Vec<String> = ov.iter().map(|v| variant_key(v, od.as_deref())).collect();
        let nkeys: Vec<String> = nv.iter().map(|v| variant_key(v, nd.as_deref())).collect();
        let matched_any = okeys.iter().any(|k| nkeys.contains(k));
        if !matched_any {
            self.emit_with(
                at,
                &rules::TYPE_CHANGED,
                false,
                format!("`{}` changed from {} to {}", at.path, describe(o), describe(n)),
                Self::types_witness(at, o, n),
            );
            return;
        }
        // Variants are matched one to one, in order, by key.
        let mut used = vec![false; nv.len()];
        for (i, (v, k)) in ov.iter().zip(&okeys).enumerate() {
            let is = i.to_string();
            let found = (0..nkeys.len()).find(|&j| !used[j] && nkeys[j] == *k);
            match found {
                Some(j) => {
                    used[j] = true;
                    let js = j.to_string();
                    let ov_ptr = ["variants", is.as_str()];
                    let nv_ptr = ["variants", js.as_str()];
                    let mut inner = at.down(
                        &format!("|{k}"),
                        if o_union { &ov_ptr[..] } else { &[] },
                        if n_union { &nv_ptr[..] } else { &[] },
                    );
                    if !o_union && !n_union {
                        inner = at.clone();
                    }
                    let before = self.changes.len();
                    self.types(&inner, v, &nv[j]);
                    if o_union != n_union {
                        // A type wrapped in a union (or unwrapped) is one cause: what differs
                        // below the matched variant is reported once per rule at the type.
                        self.fold_since(before, at, k, n_union);
                    }
                }
                None => {
                    let here = at.down(&format!("|{k}"), &["variants", &is], &[]);
                    let rule = if matches!(v.kind, TypeKind::Null) {
                        &rules::NULLABLE_REMOVED
                    } else {
                        &rules::UNION_VARIANT_REMOVED
                    };
                    self.emit_with(
                        &here,
                        rule,
                        false,
                        format!("`{}` no longer admits the variant {k}", at.path),
                        Self::types_witness(at, o, n),
                    );
                }
            }
        }
        for (j, (v, k)) in nv.iter().zip(&nkeys).enumerate() {
            if used[j] {
                continue;
            }
            let js = j.to_string();
            let here = at.down(&format!("|{k}"), &[], &["variants", &js]);
            let rule = if matches!(v.kind, TypeKind::Null) {
                &rules::NULLABLE_ADDED
            } else {
                &rules::UNION_VARIANT_ADDED
            };
            self.emit_with(
                &here,
                rule,
                false,
                format!("`{}` now admits the variant {k}", at.path),
                Self::types_witness(at, o, n),
            );
        }
    }

    /// Replaces the changes recorded since `before` (when there are several) by one change per
    /// rule at `at`, naming the places each was found at (the first few, and how many).
    fn fold_since(&mut self, before: usize, at: &At, variant: &str, wrapped: bool) {
        // The removal discipline (deprecate, reserve) is about names leaving the contract; a
        // member missing from one variant of the new union has not left it.
        let found: Vec<Change> = self
            .changes
            .drain(before..)
            .filter(|c| {
                !(c.rule.input == crate::rules::Level::Policy
                    && c.rule.output == crate::rules::Level::Policy)
            })
            .collect();
        if found.len() < 2 {
            // One change below the variant is its own finding, at its own place.
            self.changes.extend(found);
            return;
        }
        let mut rules_seen: Vec<&'static crate::rules::CompatRule> = Vec::new();
        for c in &found {
            if !rules_seen.iter().any(|r| r.id == c.rule.id) {
                rules_seen.push(c.rule);
            }
        }
        for rule in rules_seen {
            let same: Vec<&Change> = found.iter().filter(|c| c.rule.id == rule.id).collect();
            let mut places: Vec<&str> = same.iter().map(|c| c.path.as_str()).collect();
            places.dedup();
            let shown = places.iter().take(5).map(|p| format!("`{p}`")).collect::<Vec<_>>();
            let more = if places.len() > 5 {
                format!(" and {} more", places.len() - 5)
            } else {
                String::new()
            };
            let how = if wrapped { "became a union" } else { "is no longer a union" };
            let message = format!(
                "`{}` {how}, and its variant {variant} differs from the {} type: {} at {} place{} ({}{more})",
                at.path,
                if wrapped { "old" } else { "new" },
                rule.id,
                places.len(),
                if places.len() == 1 { "" } else { "s" },
                shown.join(", ")
            );
            let witness = same.iter().find_map(|c| c.witness.clone());
            let on_old = same.iter().all(|c| c.on_old);
            self.emit_with(at, rule, on_old, message, witness);
        }
    }

    pub(super) fn enums(
        &mut self,
        at: &At,
        o: &TypeNode,
        n: &TypeNode,
        a: &accord_schema_model::EnumType,
        b: &accord_schema_model::EnumType,
    ) {
        self.reserved_dropped(at, &a.reserved, &b.reserved, "enum");
        // The reader's declaration decides whether an unknown value is handled.
        let reader_open = match at.polarity {
            Polarity::Input => b.open.unwrap_or(false),
            Polarity::Output => a.open.unwrap_or(false),
        };
        let w = Self::types_witness(at, o, n);
        for v in a.values.iter().filter(|v| !b.values.contains(v)) {
            let rule = if reader_open {
                &rules::OPEN_ENUM_VALUE_REMOVED
            } else {
                &rules::ENUM_VALUE_REMOVED
            };
            let h = at.down("", &["values"], &[]);
            self.emit_with(
                &h,
                rule,
                true,
                format!("`{}` no longer admits {v}", at.path),
                w.clone(),
            );
            if !reserved_has(&b.reserved, &value_name(v)) {
                self.emit(
                    &h,
                    &rules::REMOVED_WITHOUT_RESERVING,
                    true,
                    format!("enum value {v} of `{}` removed and not reserved", at.path),
                );
            }
        }
        for v in b.values.iter().filter(|v| !a.values.contains(v)) {
            let rule =
                if reader_open { &rules::OPEN_ENUM_VALUE_ADDED } else { &rules::ENUM_VALUE_ADDED };
            let h = at.down("", &[], &["values"]);
            self.emit_with(&h, rule, false, format!("`{}` now admits {v}", at.path), w.clone());
            let name = value_name(v);
            if reserved_has(&a.reserved, &name) || reserved_has(&b.reserved, &name) {
                self.emit(
                    &h,
                    &rules::RESERVED_NAME_REUSED,
                    false,
                    format!("enum value {v} of `{}` is reserved", at.path),
                );
            }
        }
    }

    pub(super) fn objects(
        &mut self,
        at: &At,
        o: &TypeNode,
        n: &TypeNode,
        a: &ObjectType,
        b: &ObjectType,
    ) {
        self.reserved_dropped(at, &a.reserved, &b.reserved, "object");
        let w = Self::types_witness(at, o, n);
        let (oc, nc) = (a.closed.unwrap_or(false), b.closed.unwrap_or(false));
        match (oc, nc) {
            (false, true) => self.emit_with(
                at,
                &rules::OBJECT_CLOSED,
                false,
                format!("`{}` is now closed: members it does not declare are refused", at.path),
                w.clone(),
            ),
            (true, false) => self.emit_with(
                at,
                &rules::OBJECT_OPENED,
                false,
                format!("`{}` is no longer closed", at.path),
                w.clone(),
            ),
            _ => {}
        }
        let empty = IndexMap::new();
        let (of, nf) = (a.fields.as_ref().unwrap_or(&empty), b.fields.as_ref().unwrap_or(&empty));
        let mut removed = Vec::new();
        for (name, ofield) in of {
            match nf.get(name) {
                Some(nfield) => {
                    let here = at.down(&format!(".{name}"), &["fields", name], &["fields", name]);
                    match (
                        present_optional(ofield, here.polarity),
                        present_optional(nfield, here.polarity),
                    ) {
                        (true, false) => self.emit_with(
                            &here,
                            &rules::FIELD_BECAME_REQUIRED,
                            false,
                            format!("field `{}` became required", here.path),
                            w.clone(),
                        ),
                        (false, true) => self.emit_with(
                            &here,
                            &rules::FIELD_BECAME_OPTIONAL,
                            false,
                            format!("field `{}` became optional", here.path),
                            w.clone(),
                        ),
                        _ => {}
                    }
                    self.attr_deprecated(
                        &here,
                        &ofield.deprecated,
                        &nfield.deprecated,
                        &format!("field `{}`", here.path),
                    );
                    let t = here.down("", &["type"], &["type"]);
                    self.types(&t, &ofield.ty, &nfield.ty);
                }
                None => {
                    let here = at.down(&format!(".{name}"), &["fields", name], &[]);
                    let rule = if present_optional(ofield, here.polarity) {
                        &rules::OPTIONAL_FIELD_REMOVED
                    } else {
                        &rules::REQUIRED_FIELD_REMOVED
                    };
                    self.emit_with(
                        &here,
                        rule,
                        true,
                        format!(
                            "{} field `{}` removed",
                            if present_optional(ofield, here.polarity) {
                                "optional"
                            } else {
                                "required"
                            },
                            here.path
                        ),
                        w.clone(),
                    );
                    if nc {
                        self.emit_with(
                            &here,
                            &rules::FIELD_REMOVED_FROM_CLOSED_OBJECT,
                            true,
                            format!("field `{}` removed from a closed object", here.path),
                            w.clone(),
                        );
                    }
                    self.removal_lifecycle(
                        &here,
                        "field",
                        deprecated(&ofield.deprecated),
                        reserved_has(&b.reserved, name),
                    );
                    removed.push((name, ofield));
                }
            }
        }
        for (name, nfield) in nf.iter().filter(|(k, _)| !of.contains_key(*k)) {
            let here = at.down(&format!(".{name}"), &[], &["fields", name]);
            let rule = if present_optional(nfield, here.polarity) {
                &rules::OPTIONAL_FIELD_ADDED
            } else {
                &rules::REQUIRED_FIELD_ADDED
            };
            self.emit_with(
                &here,
                rule,
                false,
                format!(
                    "{} field `{}` added",
                    if present_optional(nfield, here.polarity) { "optional" } else { "required" },
                    here.path
                ),
                w.clone(),
            );
            // A new optional member of an object callers send asks the plant for something an
            // old plant ignores (the seed's "a new flag in a request body").
            if at.position == PositionKind::Params
                && at.polarity == Polarity::Input
                && !at.ack
                && present_optional(nfield, here.polarity)
                && !removed.iter().any(|(_, ofield)| same_field_shape(ofield, nfield))
            {
                self.emit(
                    &here,
                    &rules::REQUEST_OPTION_WITHOUT_ACK,
                    false,
                    format!(
                        "optional field `{}` added to params, but the result gains no field that only a plant implementing it produces",
                        here.path
                    ),
                );
            }
            if oc {
                self.emit_with(
                    &here,
                    &rules::FIELD_ADDED_TO_CLOSED_OBJECT,
                    false,
                    format!("field `{}` added to an object that was closed", here.path),
                    w.clone(),
                );
            }
            if reserved_has(&a.reserved, name) || reserved_has(&b.reserved, name) {
                self.emit(
                    &here,
                    &rules::RESERVED_NAME_REUSED,
                    false,
                    format!("field `{}` uses a reserved name", here.path),
                );
            }
            for (old_name, ofield) in &removed {
                if same_field_shape(ofield, nfield) {
                    self.emit(&here, &rules::PROBABLE_RENAME, false, format!("field `{old_name}` was removed and `{name}` added with the same type: probably a rename"));
                }
            }
        }
    }
}
pub(super) fn value_name(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Whether `kind` is the base kind of a literal `value` (literal "a" → string).
pub(super) fn admits_base(kind: &TypeKind, value: &Value) -> bool {
    match (kind, value) {
        (TypeKind::String(r), Value::String(_)) => *r == Default::default(),
        (TypeKind::Integer(r), Value::Number(n)) => {
            n.is_i64() || n.is_u64() && *r == Default::default()
        }
        (TypeKind::Number(r), Value::Number(_)) => *r == Default::default(),
        (TypeKind::Boolean, Value::Bool(_)) => true,
        (TypeKind::Null, Value::Null) => true,
        (TypeKind::Enum(e), v) => e.values.contains(v),
        _ => false,
    }
}

/// Whether one of `u`'s variants is the ref `r` (by the key variants are matched on).
fn union_names(u: &accord_schema_model::UnionType, r: &TypeNode) -> bool {
    let key = variant_key(r, None);
    u.variants.iter().any(|v| variant_key(v, u.discriminator.as_deref()) == key)
}

/// What identifies a union variant across versions.
pub(super) fn variant_key(v: &TypeNode, discriminator: Option<&str>) -> String {
    if let (Some(d), TypeKind::Object(o)) = (discriminator, &v.kind)
        && let Some(f) = o.fields.as_ref().and_then(|f| f.get(d))
        && let TypeKind::Literal { value } = &f.ty.kind
    {
        return format!("{d}={value}");
    }
    match &v.kind {
        TypeKind::Ref(r) => match &r.namespace {
            Some(ns) => format!("{ns}.{}", r.name),
            None => r.name.clone(),
        },
        TypeKind::Literal { value } => value.to_string(),
        // integer and number are one family, so integer | null → number | null is a widening.
        TypeKind::Integer(_) => "number".to_owned(),
        other => other.kind().name().to_owned(),
    }
}

pub(super) fn describe(t: &TypeNode) -> String {
    match &t.kind {
        TypeKind::Union(u) => {
            let parts: Vec<String> = u.variants.iter().map(|v| variant_key(v, None)).collect();
            parts.join(" | ")
        }
        other => other.kind().name().to_owned(),
    }
}
