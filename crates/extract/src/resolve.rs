//! Name resolution through the module tree: `crate::`, `self::`, `super::`, items, child
//! modules, `use` (renames, groups, globs, re-exports), and at last the prelude and extern
//! crates. Never by last segment: two `Status` types in two modules are two types.

use std::collections::HashSet;

use crate::modules::{Crate, ItemId, ModId};

/// What a path names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Res {
    Item(ItemId),
    Module(ModId),
    /// A path outside the crate, from its crate name on (`chrono::DateTime`); std, core and
    /// alloc are spelled `std`.
    External(Vec<String>),
}

/// Prelude and primitive type names: found when no item of the crate has the name.
const PRELUDE: &[&str] = &[
    "bool", "char", "str", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64",
    "i128", "isize", "f32", "f64", "String", "Option", "Vec", "Box", "Result",
];

impl Crate {
    /// Resolves `segments` as written in `module`.
    pub(crate) fn resolve(
        &self,
        module: ModId,
        segments: &[String],
        leading_colon: bool,
    ) -> Option<Res> {
        if leading_colon {
            return Some(Res::External(canonical(segments.to_vec())));
        }
        let mut seen = HashSet::new();
        let (first, rest) = segments.split_first()?;
        let start = self.start(module, first, &mut seen, true)?;
        let found = self.walk(start, rest, &mut seen)?;
        Some(self.follow(found, &mut seen))
    }

    /// An external path into a dependency that was read: what it names there (through the
    /// dependency's modules, `use` and re-exports). Paths the built-in table or a `[types]`
    /// entry describes are kept as written, so the table wins over the dependency's source.
    fn follow(&self, res: Res, seen: &mut HashSet<(ModId, String)>) -> Res {
        let Res::External(path) = &res else { return res };
        let Some(&root) = path.first().and_then(|f| self.externs.get(f)) else { return res };
        if self.is_known(path) {
            return res;
        }
        match self.walk(Res::Module(root), &path[1..], seen) {
            Some(found @ (Res::Item(_) | Res::Module(_))) => found,
            Some(Res::External(other)) if other != *path => self.follow(Res::External(other), seen),
            _ => res,
        }
    }

    /// Whether an external path is described without reading its crate.
    pub(crate) fn is_known(&self, path: &[String]) -> bool {
        let joined = path.join("::");
        path.first().is_some_and(|f| f == "std")
            || crate::builtin::well_known(&joined).is_some()
            || crate::builtin::generic(&joined).is_some()
            || self.overrides.iter().any(|o| {
                *o == joined || (o.contains('*') && crate::config::glob_matches(o, &joined))
            })
    }

    fn start(
        &self,
        module: ModId,
        first: &str,
        seen: &mut HashSet<(ModId, String)>,
        prelude: bool,
    ) -> Option<Res> {
        match first {
            "crate" => Some(Res::Module(self.modules[module].root)),
            "self" => Some(Res::Module(module)),
            "super" => self.modules[module].parent.map(Res::Module),
            "Self" => None,
            name => self.lookup(module, name, seen).or_else(|| {
                if prelude && PRELUDE.contains(&name) {
                    Some(Res::External(vec!["std".into(), name.into()]))
                } else if name.chars().next().is_some_and(|c| c.is_ascii_lowercase()) {
                    // 2018 paths: a first segment not in scope names an extern crate.
                    Some(Res::External(canonical(vec![name.into()])))
                } else {
                    None
                }
            }),
        }
    }

    fn walk(
        &self,
        mut at: Res,
        rest: &[String],
        seen: &mut HashSet<(ModId, String)>,
    ) -> Option<Res> {
        for seg in rest {
            at = match at {
                Res::Module(m) if seg == "super" => Res::Module(self.modules[m].parent?),
                Res::Module(m) => self.lookup(m, seg, seen)?,
                Res::External(mut p) => {
                    p.push(seg.clone());
                    Res::External(p)
                }
                // An associated item or a variant: not a type extract can name.
                Res::Item(_) => return None,
            };
        }
        Some(at)
    }

    /// `name` inside `module`: its items, child modules, `use` names, then its globs.
    fn lookup(
        &self,
        module: ModId,
        name: &str,
        seen: &mut HashSet<(ModId, String)>,
    ) -> Option<Res> {
        // `seen` guards the lookups in progress (a `use` cycle), not every lookup ever made: a
        // glob may ask for a name another branch asked for and gave up on.
        let key = (module, name.to_owned());
        if !seen.insert(key.clone()) {
            return None;
        }
        let found = self.lookup_in(module, name, seen);
        seen.remove(&key);
        found
    }

    fn lookup_in(
        &self,
        module: ModId,
        name: &str,
        seen: &mut HashSet<(ModId, String)>,
    ) -> Option<Res> {
        let m = &self.modules[module];
        if let Some(&id) = m.items.get(name) {
            return Some(Res::Item(id));
        }
        if let Some(&child) = m.children.get(name) {
            return Some(Res::Module(child));
        }
        for u in m.uses.iter().filter(|u| u.name.as_deref() == Some(name)) {
            if let Some(r) = self.resolve_use(module, &u.path, seen) {
                return Some(r);
            }
        }
        for u in m.uses.iter().filter(|u| u.name.is_none()) {
            if let Some(Res::Module(target)) = self.resolve_use(module, &u.path, seen)
                && let Some(r) = self.lookup(target, name, seen)
            {
                return Some(r);
            }
        }
        None
    }

    fn resolve_use(
        &self,
        module: ModId,
        path: &[String],
        seen: &mut HashSet<(ModId, String)>,
    ) -> Option<Res> {
        let (first, rest) = path.split_first()?;
        let start = self.start(module, first, seen, false).or_else(|| {
            // `use Foo;` of an uppercase extern name is rare; read it as an extern path.
            Some(Res::External(canonical(vec![first.clone()])))
        })?;
        let found = self.walk(start, rest, seen)?;
        Some(self.follow(found, seen))
    }
}

/// `core::…` and `alloc::…` are `std::…`.
fn canonical(mut path: Vec<String>) -> Vec<String> {
    if let Some(first) = path.first_mut()
        && (first == "core" || first == "alloc")
    {
        *first = "std".into();
    }
    path
}
