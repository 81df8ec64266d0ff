//! The `wire` section compared old → new (docs/format.md §15): how callers reach the plant.
//!
//! Both documents are resolved by the model's [`Dialect`]; every name and code compared here is
//! the Dialect's, never derived. A pair of documents without a `wire` section on either side is
//! not looked at (both are accord's own wire, and the findings stay what they were before the
//! section existed); a side whose section does not resolve is not compared (lint's
//! `wire-unresolved` refuses it).
//!
//! What one cause changes is reported once: a separator change in a namespace is one finding
//! naming what it renames (its methods' and its subscriptions' derived names), and a change of
//! the codes profile is one finding naming the codes whose meaning it changes. What a contract
//! gives by name (a `wire.methods` entry, a reserved code) is reported on its own.

use accord_schema_model::{
    Dialect, Document, EventRoute, Namespace, Pointer, ProtocolCodes, Pubsub, Wire,
    dialect::{ACCORD_NOTIFICATION, ACCORD_SUBSCRIBE},
};
use serde_json::Value;

use crate::compare::{Change, PositionKind};
use crate::rules::{self, CompatRule, Polarity};

/// Every wire finding between `old` and `new`.
pub(crate) fn changes(old: &Document, new: &Document) -> Vec<Change> {
    if !has_wire(old) && !has_wire(new) {
        return Vec::new();
    }
    let (Ok(old_dialect), Ok(new_dialect)) = (Dialect::of(old), Dialect::of(new)) else {
        return Vec::new();
    };
    let mut cx = WireDiff {
        old: Side { doc: old, value: old.to_value(), dialect: old_dialect },
        new: Side { doc: new, value: new.to_value(), dialect: new_dialect },
        out: Vec::new(),
    };
    cx.describe();
    cx.codes();
    cx.namespaces();
    cx.out
}

fn has_wire(doc: &Document) -> bool {
    doc.wire.is_some() || doc.namespaces.iter().flatten().any(|(_, ns)| ns.wire.is_some())
}

struct Side<'d> {
    doc: &'d Document,
    /// The document as JSON, to find which member a finding can point at.
    value: Value,
    dialect: Dialect,
}

impl<'d> Side<'d> {
    fn namespace(&self, name: &str) -> Option<&'d Namespace> {
        self.doc.namespaces.as_ref().and_then(|all| all.get(name))
    }

    /// The separator the namespace's section or the document's gives; `None` when neither does.
    fn separator(&self, ns: &str) -> Option<&str> {
        self.namespace(ns)
            .and_then(|n| n.wire.as_ref())
            .and_then(|w| w.separator.as_deref())
            .or_else(|| self.doc.wire.as_ref().and_then(|w| w.separator.as_deref()))
    }

    /// Whether the method's wire name is given by name (`wire.methods`), not by the separator.
    fn names_method(&self, ns: &str, method: &str) -> bool {
        self.namespace(ns)
            .and_then(|n| n.wire.as_ref())
            .and_then(|w| w.methods.as_ref())
            .is_some_and(|m| m.contains_key(method))
    }

    /// Whether one of an event's pubsub names (`member` picks it from an event's entry or a
    /// `pubsub` record) is given by name rather than derived from the separator.
    fn names_event_member(
        &self,
        ns: &str,
        event: &str,
        member: impl Fn(Option<&String>, Option<&String>, Option<&String>) -> bool,
    ) -> bool {
        let ns_wire = self.namespace(ns).and_then(|n| n.wire.as_ref());
        let entry = ns_wire.and_then(|w| w.events.as_ref()).and_then(|e| e.get(event));
        fn pubsub(w: Option<&Wire>) -> Option<&Pubsub> {
            w.and_then(|w| w.pubsub.as_ref())
        }
        let own =
            entry.map(|e| (e.subscribe.as_ref(), e.notification.as_ref(), e.unsubscribe.as_ref()));
        let shared = pubsub(ns_wire)
            .or_else(|| pubsub(self.doc.wire.as_ref()))
            .map(|p| (p.subscribe.as_ref(), p.notification.as_ref(), p.unsubscribe.as_ref()));
        [own, shared].into_iter().flatten().any(|(s, n, u)| member(s, n, u))
    }

    fn has(&self, pointer: &Pointer) -> bool {
        self.value.pointer(pointer.as_str()).is_some()
    }
}

struct WireDiff<'d> {
    old: Side<'d>,
    new: Side<'d>,
    out: Vec<Change>,
}

fn ptr(parts: &[&str]) -> Pointer {
    let mut p = Pointer::root();
    for k in parts {
        p.push_key(k);
    }
    p
}

/// `a`, `b`, … cut after `max` items.
fn some_of(items: &[String], max: usize) -> String {
    let mut shown: Vec<&str> = items.iter().take(max).map(String::as_str).collect();
    if items.len() > max {
        shown.push("…");
    }
    shown.join(", ")
}

fn plural(n: usize, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

impl WireDiff<'_> {
    /// The first of `candidates` (in the new document, then in the old) that stands in its
    /// document, so that every finding has a place.
    fn place(&self, candidates: &[&[&str]]) -> (bool, Pointer) {
        for (on_old, side) in [(false, &self.new), (true, &self.old)] {
            for parts in candidates {
                let p = ptr(parts);
                if side.has(&p) {
                    return (on_old, p);
                }
            }
        }
        (false, Pointer::root())
    }

    fn emit(
        &mut self,
        rule: &'static CompatRule,
        polarity: Polarity,
        namespace: &str,
        path: String,
        message: String,
        (on_old, pointer): (bool, Pointer),
    ) {
        self.out.push(Change {
            rule,
            polarity,
            position: PositionKind::Surface,
            // A plant-wide member (`describe`, `codes`) belongs to no namespace's version.
            namespace: namespace.to_owned(),
            path,
            message,
            on_old,
            pointer,
            witness: None,
        });
    }

    // ----- the describe method -----

    fn describe(&mut self) {
        let (old, new) = (self.old.dialect.describe.clone(), self.new.dialect.describe.clone());
        let (rule, message) = match (&old, &new) {
            (Some(o), Some(n)) if o != n => (
                &rules::DESCRIBE_METHOD_RENAMED,
                format!("the describe method is now `{n}` (was `{o}`)"),
            ),
            (Some(o), None) => (
                &rules::DESCRIBE_METHOD_REMOVED,
                format!("the plant no longer answers a describe method (was `{o}`)"),
            ),
            (None, Some(n)) => (
                &rules::DESCRIBE_METHOD_ADDED,
                format!("the plant now answers the describe method `{n}`"),
            ),
            _ => return,
        };
        let at = self.place(&[&["wire", "describe"], &["wire"]]);
        self.emit(rule, Polarity::Input, "", "wire.describe".to_owned(), message, at);
    }

    // ----- protocol codes -----

    fn codes(&mut self) {
        let (old, new) = (self.old.dialect.codes.clone(), self.new.dialect.codes.clone());
        let (old, new) = (&old, &new);
        let profile_changed = old.profile != new.profile;
        let (old_table, new_table) = (old.profile.codes(), new.profile.codes());
        let mut all: Vec<i64> = [old, new]
            .iter()
            .flat_map(|c| {
                c.reserved
                    .keys()
                    .copied()
                    .chain(c.method_not_found.iter().copied())
                    .chain(c.invalid_params.iter().copied())
            })
            .chain([old.limit, new.limit])
            .collect();
        all.sort_unstable_by(|a, b| b.cmp(a));
        all.dedup();
        let mut by_profile = Vec::new();
        let mut own = Vec::new();
        for code in all {
            let (o, n) = (describe_code(old, code), describe_code(new, code));
            if o == n {
                continue;
            }
            // A change the two profiles' tables make by themselves is the profile's finding.
            if profile_changed
                && o == describe_code(&old_table, code)
                && n == describe_code(&new_table, code)
            {
                by_profile.push((code, o, n));
            } else {
                own.push((code, o, n));
            }
        }
        if profile_changed {
            let codes: Vec<String> = by_profile.iter().map(|(c, _, _)| c.to_string()).collect();
            let example = by_profile
                .first()
                .map(|(c, o, n)| format!(": {c} {}", transition(o.as_deref(), n.as_deref())))
                .unwrap_or_default();
            let message = format!(
                "the wire's codes profile changed from `{}` to `{}`, which changes the meaning of {} ({}){example}",
                old.profile.as_str(),
                new.profile.as_str(),
                plural(codes.len(), "protocol code"),
                some_of(&codes, 8),
            );
            let at = self.place(&[&["wire", "codes", "profile"], &["wire", "codes"], &["wire"]]);
            self.emit(
                &rules::CODES_PROFILE_CHANGED,
                Polarity::Output,
                "",
                "wire.codes.profile".to_owned(),
                message,
                at,
            );
        }
        for (code, o, n) in own {
            let rule = match (&o, &n) {
                (Some(_), Some(_)) => &rules::PROTOCOL_CODE_MEANING_CHANGED,
                (None, Some(_)) => &rules::PROTOCOL_CODE_ADDED,
                (Some(_), None) => &rules::PROTOCOL_CODE_REMOVED,
                (None, None) => continue,
            };
            let key = code.to_string();
            let at = self.place(&[
                &["wire", "codes", "reserved", &key],
                &["wire", "codes", member_of(new, code)],
                &["wire", "codes", member_of(old, code)],
                &["wire", "codes"],
                &["wire"],
            ]);
            let message =
                format!("protocol code {code} {}", transition(o.as_deref(), n.as_deref()));
            self.emit(rule, Polarity::Output, "", format!("wire.codes.{code}"), message, at);
        }
    }

    // ----- namespaces: wire names and subscriptions -----

    fn namespaces(&mut self) {
        let names: Vec<String> =
            self.old.doc.namespaces.iter().flatten().map(|(name, _)| name.clone()).collect();
        for ns in names {
            let (Some(o), Some(n)) = (self.old.namespace(&ns), self.new.namespace(&ns)) else {
                continue; // namespace-added / namespace-removed say it
            };
            let separator_changed = self.old.separator(&ns) != self.new.separator(&ns);
            let mut renamed = Vec::new();
            for method in o.methods.iter().flatten().map(|(m, _)| m) {
                if !n.methods.as_ref().is_some_and(|m| m.contains_key(method)) {
                    continue; // method-removed says it
                }
                let (Some(was), Some(now)) = (
                    self.old.dialect.wire_name(&ns, method),
                    self.new.dialect.wire_name(&ns, method),
                ) else {
                    continue;
                };
                if was == now {
                    continue;
                }
                let (was, now) = (was.to_owned(), now.to_owned());
                if separator_changed
                    && !self.old.names_method(&ns, method)
                    && !self.new.names_method(&ns, method)
                {
                    renamed.push(format!("`{was}` is now `{now}`"));
                    continue;
                }
                let at = self.place(&[
                    &["namespaces", &ns, "wire", "methods", method],
                    &["namespaces", &ns, "methods", method],
                ]);
                self.emit(
                    &rules::WIRE_NAME_CHANGED,
                    Polarity::Input,
                    &ns,
                    format!("{ns}.{method}"),
                    format!("`{ns}.{method}` is now called `{now}` on the wire (was `{was}`)"),
                    at,
                );
            }
            let mut resubscribed = Vec::new();
            for event in o.events.iter().flatten().map(|(e, _)| e) {
                if !n.events.as_ref().is_some_and(|e| e.contains_key(event)) {
                    continue; // event-removed says it
                }
                let qualified = format!("{ns}.{event}");
                let (Some(was), Some(now)) =
                    (self.old.dialect.event(&qualified), self.new.dialect.event(&qualified))
                else {
                    continue;
                };
                if was == now {
                    continue;
                }
                let (was, now) = (was.clone(), now.clone());
                if separator_changed && self.derived_only(&ns, event, &was, &now) {
                    resubscribed.push(format!("`{qualified}`"));
                    continue;
                }
                let at = self.place(&[
                    &["namespaces", &ns, "wire", "events", event],
                    &["namespaces", &ns, "wire", "pubsub"],
                    &["wire", "pubsub"],
                    &["namespaces", &ns, "events", event],
                ]);
                self.emit(
                    &rules::SUBSCRIPTION_ROUTE_CHANGED,
                    Polarity::Input,
                    &ns,
                    qualified.clone(),
                    format!(
                        "event `{qualified}` is now subscribed {} (was {})",
                        route(&now),
                        route(&was)
                    ),
                    at,
                );
            }
            if separator_changed && !(renamed.is_empty() && resubscribed.is_empty()) {
                self.separator(&ns, &renamed, &resubscribed);
            }
        }
    }

    /// The one finding of a namespace's separator change, naming what it renames.
    fn separator(&mut self, ns: &str, renamed: &[String], resubscribed: &[String]) {
        let show = |s: Option<&str>| format!("`{}`", s.unwrap_or("."));
        let mut what = Vec::new();
        if !renamed.is_empty() {
            what.push(format!("{} ({})", plural(renamed.len(), "method"), some_of(renamed, 1)));
        }
        if !resubscribed.is_empty() {
            what.push(format!(
                "the subscription names of {} ({})",
                plural(resubscribed.len(), "event"),
                some_of(resubscribed, 3)
            ));
        }
        let message = format!(
            "the wire separator of namespace `{ns}` changed from {} to {}, which renames {} on the wire",
            show(self.old.separator(ns)),
            show(self.new.separator(ns)),
            what.join(" and ")
        );
        let at = self.place(&[&["namespaces", ns, "wire", "separator"], &["wire", "separator"]]);
        self.emit(
            &rules::WIRE_SEPARATOR_CHANGED,
            Polarity::Input,
            ns,
            format!("{ns}.wire.separator"),
            message,
            at,
        );
    }

    /// Whether an event's route changed only in names derived from the separator: pubsub on
    /// both sides, the same selector, and every name that moved given by name on neither side.
    fn derived_only(&self, ns: &str, event: &str, was: &EventRoute, now: &EventRoute) -> bool {
        let (EventRoute::Pubsub(was), EventRoute::Pubsub(now)) = (was, now) else {
            return false;
        };
        if was.params != now.params {
            return false;
        }
        let given = |pick: fn(Option<&String>, Option<&String>, Option<&String>) -> bool| {
            self.old.names_event_member(ns, event, pick)
                || self.new.names_event_member(ns, event, pick)
        };
        (was.subscribe == now.subscribe || !given(|s, _, _| s.is_some()))
            && (was.notification == now.notification || !given(|_, n, _| n.is_some()))
            && (was.unsubscribe == now.unsubscribe || !given(|_, _, u| u.is_some()))
    }
}

/// A code's protocol meaning on one side, with the roles the wire gives it; `None`: the code
/// has no protocol meaning there.
fn describe_code(codes: &ProtocolCodes, code: i64) -> Option<String> {
    let mut roles = Vec::new();
    if codes.is_method_not_found(code) {
        roles.push("method not found");
    }
    if codes.is_invalid_params(code) {
        roles.push("invalid params");
    }
    if codes.limit == code {
        roles.push("limit exceeded");
    }
    if codes.credential_required == Some(code) {
        roles.push("credential required");
    }
    if codes.credential_refused == Some(code) {
        roles.push("credential refused");
    }
    let meaning = match (codes.meaning(code), roles.first()) {
        (Some(meaning), _) => meaning,
        (None, Some(role)) => role,
        (None, None) => return None,
    };
    roles.retain(|r| *r != meaning);
    Some(if roles.is_empty() {
        format!("`{meaning}`")
    } else {
        format!("`{meaning}` (the wire's {} code)", roles.join(", "))
    })
}

/// How a code's meaning moved, for a message.
fn transition(old: Option<&str>, new: Option<&str>) -> String {
    match (old, new) {
        (Some(o), Some(n)) => format!("meant {o} and now means {n}"),
        (None, Some(n)) => format!("now means {n} (it had no protocol meaning)"),
        (Some(o), None) => format!("no longer has a protocol meaning (it meant {o})"),
        (None, None) => "is unchanged".to_owned(),
    }
}

/// The `wire.codes` member that gives `code` a role, for a finding's place.
fn member_of(codes: &ProtocolCodes, code: i64) -> &'static str {
    if codes.is_method_not_found(code) {
        "methodNotFound"
    } else if codes.is_invalid_params(code) {
        "invalidParams"
    } else if codes.limit == code {
        "limit"
    } else {
        "profile"
    }
}

/// An event route, for a message.
fn route(r: &EventRoute) -> String {
    match r {
        EventRoute::Accord => {
            format!(
                "in accord's style (`{ACCORD_SUBSCRIBE}`, notifications `{ACCORD_NOTIFICATION}`)"
            )
        }
        EventRoute::Pubsub(p) => format!(
            "with `{}` {}, notifications `{}`, ended with `{}`",
            p.subscribe,
            Value::Array(p.params.clone()),
            p.notification,
            p.unsubscribe
        ),
    }
}
