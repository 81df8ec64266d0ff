//! Documents and namespaces: namespaces, methods, events and named types appearing and
//! disappearing, with the lifecycle rules their removal and reuse answer to.

use accord_schema_model::Namespace;
use indexmap::IndexMap;

use super::{At, Comparison, PositionKind, deprecated, ptr, reserved_has, shape};
use crate::rules::{self, CompatRule, Polarity};

impl Comparison<'_> {
    pub(crate) fn documents(&mut self) {
        let empty = IndexMap::new();
        let olds = self.old.namespaces.as_ref().unwrap_or(&empty);
        let news = self.new.namespaces.as_ref().unwrap_or(&empty);
        for (name, o) in olds {
            let at = At {
                path: name.clone(),
                old: ptr(&["namespaces", name]),
                new: ptr(&["namespaces", name]),
                polarity: Polarity::Input,
                position: PositionKind::Surface,
                old_ns: name.clone(),
                new_ns: name.clone(),
                note: None,
                ack: true,
            };
            match news.get(name) {
                Some(n) => self.namespace(&at, o, n),
                None => self.emit(
                    &at,
                    &rules::NAMESPACE_REMOVED,
                    true,
                    format!("namespace `{name}` removed"),
                ),
            }
        }
        for name in news.keys().filter(|k| !olds.contains_key(*k)) {
            let at = At {
                path: name.clone(),
                old: ptr(&["namespaces", name]),
                new: ptr(&["namespaces", name]),
                polarity: Polarity::Input,
                position: PositionKind::Surface,
                old_ns: name.clone(),
                new_ns: name.clone(),
                note: None,
                ack: true,
            };
            self.emit(&at, &rules::NAMESPACE_ADDED, false, format!("namespace `{name}` added"));
        }
        self.named_types();
    }

    pub(super) fn namespace(&mut self, at: &At, o: &Namespace, n: &Namespace) {
        self.attr_deprecated(at, &o.deprecated, &n.deprecated, &format!("namespace `{}`", at.path));
        self.reserved_dropped(at, &o.reserved, &n.reserved, "namespace");
        let empty = IndexMap::new();
        let (om, nm) = (o.methods.as_ref().unwrap_or(&empty), n.methods.as_ref().unwrap_or(&empty));
        let mut removed = Vec::new();
        for (name, m) in om {
            let nmeth = nm.get(name);
            if nmeth == Some(m) {
                // An identical method yields no finding: refs inside it are compared as named
                // types, and it is neither added nor removed. Skipping it keeps a diff's cost in
                // what changed rather than in the size of the contract.
                continue;
            }
            let here = at.down(&format!(".{name}"), &["methods", name], &["methods", name]);
            match nmeth {
                Some(nmeth) => self.method(&here, name, m, nmeth),
                None => {
                    let reserved = reserved_has(&n.reserved, name);
                    self.surface_removed(
                        &here,
                        ("method", &rules::METHOD_REMOVED),
                        deprecated(&m.deprecated),
                        reserved,
                    );
                    removed.push(name);
                }
            }
        }
        for (name, m) in nm.iter().filter(|(k, _)| !om.contains_key(*k)) {
            let here = at.down(&format!(".{name}"), &["methods", name], &["methods", name]);
            let reserved = reserved_has(&o.reserved, name) || reserved_has(&n.reserved, name);
            self.surface_added(&here, ("method", &rules::METHOD_ADDED), reserved);
            for old_name in &removed {
                let om = &om[old_name.as_str()];
                if om.params == m.params && shape(&om.result) == shape(&m.result) {
                    self.emit(&here, &rules::PROBABLE_RENAME, false, format!("method `{}.{old_name}` was removed and `{}` added with the same params and result: probably a rename", at.path, here.path));
                }
            }
        }
        // Events: output (the plant writes payloads).
        let empty_e = IndexMap::new();
        let (oe, ne) =
            (o.events.as_ref().unwrap_or(&empty_e), n.events.as_ref().unwrap_or(&empty_e));
        let mut ev_at = at.clone();
        ev_at.polarity = Polarity::Output;
        let mut removed_e = Vec::new();
        for (name, e) in oe {
            let nev = ne.get(name);
            if nev == Some(e) {
                continue; // as for methods: nothing to report on an identical event
            }
            let here = ev_at.down(&format!(".{name}"), &["events", name], &["events", name]);
            match nev {
                Some(nev) => {
                    self.attr_deprecated(
                        &here,
                        &e.deprecated,
                        &nev.deprecated,
                        &format!("event `{}`", here.path),
                    );
                    let mut p = here.down(".payload", &["payload"], &["payload"]);
                    p.position = PositionKind::Event;
                    self.types(&p, &e.payload, &nev.payload);
                }
                None => {
                    let reserved = reserved_has(&n.reserved, name);
                    self.surface_removed(
                        &here,
                        ("event", &rules::EVENT_REMOVED),
                        deprecated(&e.deprecated),
                        reserved,
                    );
                    removed_e.push(name);
                }
            }
        }
        for (name, e) in ne.iter().filter(|(k, _)| !oe.contains_key(*k)) {
            let here = ev_at.down(&format!(".{name}"), &["events", name], &["events", name]);
            let reserved = reserved_has(&o.reserved, name) || reserved_has(&n.reserved, name);
            self.surface_added(&here, ("event", &rules::EVENT_ADDED), reserved);
            for old_name in &removed_e {
                if shape(&oe[old_name.as_str()].payload) == shape(&e.payload) {
                    self.emit(&here, &rules::PROBABLE_RENAME, false, format!("event `{}.{old_name}` was removed and `{}` added with the same payload: probably a rename", at.path, here.path));
                }
            }
        }
        // Named types removed or added (their content is compared in `named_types`).
        let empty_t = IndexMap::new();
        let (ot, nt) = (o.types.as_ref().unwrap_or(&empty_t), n.types.as_ref().unwrap_or(&empty_t));
        for (name, t) in ot.iter().filter(|(k, _)| !nt.contains_key(*k)) {
            let here = at.down(&format!(".types.{name}"), &["types", name], &["types", name]);
            self.removal_lifecycle(
                &here,
                "type",
                deprecated(&t.deprecated),
                reserved_has(&n.reserved, name),
            );
        }
        for name in nt.keys().filter(|k| !ot.contains_key(*k)) {
            if reserved_has(&o.reserved, name) || reserved_has(&n.reserved, name) {
                let here = at.down(&format!(".types.{name}"), &["types", name], &["types", name]);
                self.emit(
                    &here,
                    &rules::RESERVED_NAME_REUSED,
                    false,
                    format!("type `{}` uses a reserved name", here.path),
                );
            }
        }
    }

    /// A method or event (`what`, reported by `removed`) is gone: the removal and what its
    /// lifecycle lacked.
    pub(super) fn surface_removed(
        &mut self,
        at: &At,
        (what, removed): (&str, &'static CompatRule),
        was_deprecated: bool,
        reserved: bool,
    ) {
        self.emit(at, removed, true, format!("{what} `{}` removed", at.path));
        self.removal_lifecycle(at, what, was_deprecated, reserved);
    }

    /// A method or event (`what`, reported by `added`) is new; under a reserved name it reuses
    /// what was retired.
    pub(super) fn surface_added(
        &mut self,
        at: &At,
        (what, added): (&str, &'static CompatRule),
        reserved: bool,
    ) {
        self.emit(at, added, false, format!("{what} `{}` added", at.path));
        if reserved {
            self.emit(
                at,
                &rules::RESERVED_NAME_REUSED,
                false,
                format!("{what} `{}` uses a reserved name", at.path),
            );
        }
    }

    pub(super) fn removal_lifecycle(
        &mut self,
        at: &At,
        what: &str,
        was_deprecated: bool,
        reserved: bool,
    ) {
        if !was_deprecated {
            self.emit(
                at,
                &rules::REMOVED_WITHOUT_DEPRECATION,
                true,
                format!("{what} `{}` removed without being deprecated first", at.path),
            );
        }
        if !reserved {
            self.emit(
                at,
                &rules::REMOVED_WITHOUT_RESERVING,
                true,
                format!("{what} `{}` removed and its name not reserved", at.path),
            );
        }
    }

    pub(super) fn attr_deprecated(
        &mut self,
        at: &At,
        o: &Option<accord_schema_model::Deprecated>,
        n: &Option<accord_schema_model::Deprecated>,
        what: &str,
    ) {
        match (deprecated(o), deprecated(n)) {
            (false, true) => {
                self.emit(at, &rules::DEPRECATED_ADDED, false, format!("{what} is now deprecated"))
            }
            (true, false) => self.emit(
                at,
                &rules::DEPRECATED_REMOVED,
                false,
                format!("{what} is no longer deprecated"),
            ),
            _ => {}
        }
    }
}
