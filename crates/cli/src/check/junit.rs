//! The JUnit XML report (`--format junit`): a failed test case per finding that fails the run.

use super::items::Item;

/// One test suite per contract, one test case per finding.
pub(super) fn report(per_contract: &[(String, Vec<Item>)]) -> String {
    let suites: Vec<crate::junit::Suite> = per_contract
        .iter()
        .map(|(file, items)| {
            let mut cases: Vec<crate::junit::Case> = items
                .iter()
                .map(|i| {
                    let place = i
                        .location
                        .as_ref()
                        .map_or(String::new(), |(f, l, c)| format!(" at {f}:{l}:{c}"));
                    let name = format!("{}[{}]{place}", i.level, i.rule);
                    let failure = i.fails.then(|| (i.level.to_owned(), i.message.clone(), None));
                    let out = (!i.fails).then(|| i.message.clone());
                    crate::junit::Case {
                        classname: i.rule.to_owned(),
                        name,
                        failure,
                        out,
                        skipped: None,
                    }
                })
                .collect();
            if cases.is_empty() {
                cases.push(crate::junit::Case {
                    classname: "accord".to_owned(),
                    name: "check".to_owned(),
                    failure: None,
                    out: None,
                    skipped: None,
                });
            }
            crate::junit::Suite { name: file.clone(), cases }
        })
        .collect();
    crate::junit::render("accord check", &suites)
}
