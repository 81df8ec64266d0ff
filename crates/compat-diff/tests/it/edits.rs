//! Random contracts and random edits: whatever the change, the diff neither panics nor
//! invents, every finding names a rule of the registry and a place in one of the documents,
//! documentation never breaks anyone, and a breaking change without a major bump is caught by
//! the version policy.

use crate::strategies::node;
use accord_compat_diff::{Level, Pairing, Report, Source, diff, rule};
use accord_schema_model::{Document, Field, Method, Namespace, Param, Semantics, TypeNode};
use indexmap::IndexMap;
use proptest::prelude::*;
use semver::Version;

const PARAM_NAMES: [&str; 4] = ["id", "rpm", "mode", "cursor"];

fn method() -> impl Strategy<Value = Method> {
    (
        proptest::sample::subsequence(PARAM_NAMES.to_vec(), 0..=3),
        proptest::collection::vec((node(), any::<bool>()), 3),
        node(),
        proptest::option::of(prop_oneof![Just(Semantics::Read), Just(Semantics::Write)]),
    )
        .prop_map(|(names, types, result, semantics)| {
            let params = names
                .into_iter()
                .zip(types)
                .map(|(name, (ty, optional))| {
                    let mut field = Field::new(ty);
                    field.optional = optional.then_some(true);
                    Param { name: name.to_owned(), field }
                })
                .collect();
            let mut m = Method::new(result);
            m.params = Some(params);
            m.semantics = semantics;
            m
        })
}

fn contract() -> impl Strategy<Value = Document> {
    (
        proptest::collection::vec(method(), 1..5),
        proptest::collection::vec(node(), 0..3),
        prop_oneof![Just("1.4.2"), Just("0.3.1"), Just("2.0.0")],
    )
        .prop_map(|(methods, types, version)| {
            let mut ns = Namespace { version: version.to_owned(), ..Namespace::default() };
            ns.methods =
                Some(methods.into_iter().enumerate().map(|(i, m)| (format!("m{i}"), m)).collect());
            if !types.is_empty() {
                ns.types = Some(
                    types.into_iter().enumerate().map(|(i, t)| (format!("T{i}"), t)).collect(),
                );
            }
            Document {
                namespaces: Some(IndexMap::from([("pump".to_owned(), ns)])),
                ..Document::default()
            }
        })
}

/// One edit of a contract; indexes wrap around what is there.
#[derive(Debug, Clone)]
enum Edit {
    RemoveMethod(usize),
    AddMethod(Box<Method>),
    RemoveParam(usize, usize),
    AddParam(usize, TypeNode, bool),
    RetypeParam(usize, usize, TypeNode),
    ToggleParamOptional(usize, usize),
    Result(usize, TypeNode),
    Semantics(usize, Option<Semantics>),
    RetypeNamed(usize, TypeNode),
    Describe(usize, String),
    Version(u8),
}

fn edit() -> impl Strategy<Value = Edit> {
    let i = 0usize..8;
    prop_oneof![
        i.clone().prop_map(Edit::RemoveMethod),
        method().prop_map(|m| Edit::AddMethod(Box::new(m))),
        (i.clone(), i.clone()).prop_map(|(m, p)| Edit::RemoveParam(m, p)),
        (i.clone(), node(), any::<bool>()).prop_map(|(m, t, o)| Edit::AddParam(m, t, o)),
        (i.clone(), i.clone(), node()).prop_map(|(m, p, t)| Edit::RetypeParam(m, p, t)),
        (i.clone(), i.clone()).prop_map(|(m, p)| Edit::ToggleParamOptional(m, p)),
        (i.clone(), node()).prop_map(|(m, t)| Edit::Result(m, t)),
        (i.clone(), proptest::option::of(Just(Semantics::Destructive)))
            .prop_map(|(m, s)| Edit::Semantics(m, s)),
        (i.clone(), node()).prop_map(|(t, n)| Edit::RetypeNamed(t, n)),
        (i, "[a-z ]{0,12}").prop_map(|(m, d)| Edit::Describe(m, d)),
        (0u8..3).prop_map(Edit::Version),
    ]
}

fn pump(doc: &mut Document) -> &mut Namespace {
    doc.namespaces.as_mut().and_then(|n| n.get_mut("pump")).expect("the strategy makes `pump`")
}

fn nth_method(ns: &mut Namespace, i: usize) -> Option<&mut Method> {
    let methods = ns.methods.as_mut()?;
    let len = methods.len();
    (len > 0).then(|| methods.get_index_mut(i % len).map(|(_, m)| m)).flatten()
}

fn apply(doc: &mut Document, edit: &Edit) {
    let ns = pump(doc);
    match edit {
        Edit::RemoveMethod(i) => {
            let methods = ns.methods.get_or_insert_with(IndexMap::new);
            if !methods.is_empty() {
                let i = i % methods.len();
                methods.shift_remove_index(i);
            }
        }
        Edit::AddMethod(m) => {
            let methods = ns.methods.get_or_insert_with(IndexMap::new);
            let name = format!("added{}", methods.len());
            methods.insert(name, (**m).clone());
        }
        Edit::RemoveParam(i, p) => {
            if let Some(params) = nth_method(ns, *i).and_then(|m| m.params.as_mut())
                && !params.is_empty()
            {
                let p = p % params.len();
                params.remove(p);
            }
        }
        Edit::AddParam(i, ty, optional) => {
            if let Some(m) = nth_method(ns, *i) {
                let params = m.params.get_or_insert_with(Vec::new);
                let name = PARAM_NAMES.iter().find(|n| params.iter().all(|p| p.name != **n));
                if let Some(name) = name {
                    let mut field = Field::new(ty.clone());
                    field.optional = optional.then_some(true);
                    params.push(Param { name: (*name).to_owned(), field });
                }
            }
        }
        Edit::RetypeParam(i, p, ty) => {
            if let Some(params) = nth_method(ns, *i).and_then(|m| m.params.as_mut())
                && !params.is_empty()
            {
                let p = p % params.len();
                params[p].field.ty = ty.clone();
            }
        }
        Edit::ToggleParamOptional(i, p) => {
            if let Some(params) = nth_method(ns, *i).and_then(|m| m.params.as_mut())
                && !params.is_empty()
            {
                let p = p % params.len();
                let field = &mut params[p].field;
                field.optional = (!field.is_optional()).then_some(true);
            }
        }
        Edit::Result(i, ty) => {
            if let Some(m) = nth_method(ns, *i) {
                m.result = ty.clone();
            }
        }
        Edit::Semantics(i, s) => {
            if let Some(m) = nth_method(ns, *i) {
                m.semantics = s.clone();
            }
        }
        Edit::RetypeNamed(t, ty) => {
            if let Some(types) = ns.types.as_mut()
                && !types.is_empty()
            {
                let len = types.len();
                if let Some((_, node)) = types.get_index_mut(t % len) {
                    *node = ty.clone();
                }
            }
        }
        Edit::Describe(i, text) => {
            if let Some(m) = nth_method(ns, *i) {
                m.description = Some(text.clone());
            }
        }
        Edit::Version(part) => {
            let mut v = Version::parse(&ns.version).expect("the strategy writes versions");
            match part {
                0 => v = Version::new(v.major + 1, 0, 0),
                1 => v = Version::new(v.major, v.minor + 1, 0),
                _ => v.patch += 1,
            }
            ns.version = v.to_string();
        }
    }
}

fn source(file: &str, doc: &Document) -> Source {
    // Through the canonical text, as a committed file would be read, so locations are real.
    Source::parse(file, &doc.to_canonical_string()).expect("canonical text reads back")
}

fn worst(report: &Report, pairing: Pairing) -> Level {
    report
        .findings
        .iter()
        .filter(|f| f.pairing == pairing && f.rule != "version-not-bumped")
        .map(|f| f.level)
        .max()
        .unwrap_or(Level::None)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_edits_give_sound_reports(
        old in contract(),
        edits in proptest::collection::vec(edit(), 1..4),
    ) {
        let mut new = old.clone();
        for e in &edits {
            apply(&mut new, e);
        }
        let (o, n) = (source("old.types.json", &old), source("new.types.json", &new));

        prop_assert!(diff(&o, &o).findings.is_empty(), "a contract against itself");
        prop_assert!(diff(&n, &n).findings.is_empty(), "the edited contract against itself");

        let report = diff(&o, &n);
        let again = diff(&o, &n);
        prop_assert_eq!(format!("{report:?}"), format!("{again:?}"), "a diff is deterministic");

        for f in &report.findings {
            let r = rule(f.rule);
            prop_assert!(r.is_some(), "`{}` is not in the registry", f.rule);
            prop_assert!(f.path.starts_with("pump"), "{} names no place in pump", f.path);
            prop_assert!(f.location.is_some(), "{} at {} has no location", f.rule, f.path);
            if let Some(w) = &f.witness {
                prop_assert!(
                    matches!(f.level, Level::Breaking | Level::Risky),
                    "a witness on a {:?} finding: {w}", f.level
                );
            }
        }

        if edits.iter().all(|e| matches!(e, Edit::Describe(..))) {
            prop_assert!(
                worst(&report, Pairing::OldCallersNewPlant) <= Level::Safe
                    && worst(&report, Pairing::NewCallersOldPlant) <= Level::Safe,
                "a description changed and someone breaks: {:#?}", report.findings
            );
        }

        // The version policy: a breaking change for old callers without a major bump (a minor
        // one in 0.x) is reported.
        let (ov, nv) = (
            Version::parse(&pump(&mut old.clone()).version).unwrap(),
            Version::parse(&pump(&mut new.clone()).version).unwrap(),
        );
        let major_step = if ov.major == 0 { nv.minor > ov.minor || nv.major > 0 } else { nv.major > ov.major };
        if worst(&report, Pairing::OldCallersNewPlant) == Level::Breaking && !major_step {
            prop_assert!(
                report.findings.iter().any(|f| f.rule == "version-not-bumped"),
                "breaking without a major bump and no version-not-bumped: {:#?}", report.findings
            );
        }
        if worst(&report, Pairing::OldCallersNewPlant) == Level::None && nv == ov {
            prop_assert!(
                report.findings.iter().all(|f| f.rule != "version-not-bumped"),
                "nothing changed for old callers, yet the version must move"
            );
        }
    }
}
