//! JUnit XML, written by hand (the format is a handful of elements; no crate is needed for
//! it): `check --format junit` and `conform --format junit` both render through here.

use std::fmt::Write as _;

/// One `<testsuite>`.
pub(crate) struct Suite {
    pub(crate) name: String,
    pub(crate) cases: Vec<Case>,
}

/// One `<testcase>`.
pub(crate) struct Case {
    pub(crate) classname: String,
    pub(crate) name: String,
    /// `(type, message, body)` of a failed case.
    pub(crate) failure: Option<(String, String, Option<String>)>,
    /// `<system-out>` of a passed case.
    pub(crate) out: Option<String>,
    /// `<skipped message=…>` of a skipped case.
    pub(crate) skipped: Option<String>,
}

/// The document: `<testsuites name=…>` over `suites`.
pub(crate) fn render(name: &str, suites: &[Suite]) -> String {
    let tests: usize = suites.iter().map(|s| s.cases.len()).sum();
    let failures: usize =
        suites.iter().flat_map(|s| &s.cases).filter(|c| c.failure.is_some()).count();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"{}\" tests=\"{tests}\" failures=\"{failures}\">",
        xml(name)
    );
    for suite in suites {
        let failures = suite.cases.iter().filter(|c| c.failure.is_some()).count();
        let _ = writeln!(
            out,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\">",
            xml(&suite.name),
            suite.cases.len()
        );
        for case in &suite.cases {
            let head = format!(
                "    <testcase classname=\"{}\" name=\"{}\"",
                xml(&case.classname),
                xml(&case.name)
            );
            match (&case.failure, &case.out, &case.skipped) {
                (Some((kind, message, body)), _, _) => {
                    let attrs = format!("type=\"{}\" message=\"{}\"", xml(kind), xml(message));
                    match body {
                        Some(body) => {
                            let _ = writeln!(
                                out,
                                "{head}>\n      <failure {attrs}>{}</failure>\n    </testcase>",
                                xml(body)
                            );
                        }
                        None => {
                            let _ =
                                writeln!(out, "{head}>\n      <failure {attrs}/>\n    </testcase>");
                        }
                    }
                }
                (None, _, Some(reason)) => {
                    let _ = writeln!(
                        out,
                        "{head}>\n      <skipped message=\"{}\"/>\n    </testcase>",
                        xml(reason)
                    );
                }
                (None, Some(text), None) => {
                    let _ = writeln!(
                        out,
                        "{head}>\n      <system-out>{}</system-out>\n    </testcase>",
                        xml(text)
                    );
                }
                (None, None, None) => {
                    let _ = writeln!(out, "{head}/>");
                }
            }
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

/// Text escaped for an attribute or element; control characters XML 1.0 cannot hold dropped.
fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\t') => {}
            c => out.push(c),
        }
    }
    out
}
