//! A grammar-driven target: the fuzzer's bytes choose a JSON document shaped like a contract
//! (`schema: 1`, namespaces, methods, events, named types, type nodes of every kind with known
//! and unknown members, random nesting), so that inputs get past the JSON syntax and reach deep
//! into the reader. Most choices are valid; now and then one is not (a wrong type, a missing
//! required member, an unknown kind, a duplicate key, a bad version), so the error paths are
//! reached from deep inside a document too. The text is then checked exactly as the `parse`
//! target checks raw bytes (see `common.rs`).
#![no_main]

use std::fmt::Write;

use accord_schema_model::{NumberRules, StringRules};
use libfuzzer_sys::fuzz_target;

mod common;

fuzz_target!(|data: &[u8]| {
    let mut src = Src { data, at: 0 };
    let doc = document(&mut src);
    let mut text = String::new();
    let style = Style::pick(&mut src);
    emit(&doc, &style, 0, &mut text);
    common::check(text.as_bytes());
});

// ---------------------------------------------------------------------------------------------
// The bytes as a source of choices. Once they run out every choice is 0, and 0 always picks the
// smallest option, so generation ends.

struct Src<'a> {
    data: &'a [u8],
    at: usize,
}

impl Src<'_> {
    fn byte(&mut self) -> u8 {
        match self.data.get(self.at) {
            Some(&b) => {
                self.at += 1;
                b
            }
            None => 0,
        }
    }

    /// A choice in `0..n`.
    fn below(&mut self, n: usize) -> usize {
        if n <= 256 {
            self.byte() as usize % n
        } else {
            (self.byte() as usize | (self.byte() as usize) << 8) % n
        }
    }

    /// True with probability about `percent`/100; false once the bytes run out.
    fn chance(&mut self, percent: u8) -> bool {
        if self.at >= self.data.len() {
            return false;
        }
        (self.byte() as u32 * 100 / 256) < percent as u32
    }

    /// A count in `0..=max`, small ones likelier.
    fn count(&mut self, max: usize) -> usize {
        let b = self.byte() as usize;
        (b * b * (max + 1) / 65536).min(max)
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

// ---------------------------------------------------------------------------------------------
// A JSON tree that can say what a Value cannot: duplicate keys, and how a number or a string is
// spelled.

enum J {
    Null,
    Bool(bool),
    /// Number text as written.
    Num(String),
    /// A string and how to escape it.
    Str(String, Escape),
    Arr(Vec<J>),
    Obj(Vec<(String, J)>),
}

#[derive(Clone, Copy)]
enum Escape {
    /// Only what JSON requires.
    Plain,
    /// Every non-ASCII character (and `/`) as `\u` escapes.
    Ascii,
}

fn s(text: impl Into<String>) -> J {
    J::Str(text.into(), Escape::Plain)
}

fn num(n: i64) -> J {
    J::Num(n.to_string())
}

/// Builds an object member by member; `member` lets the fuzzer reorder, drop, duplicate or
/// mistype members.
struct Obj(Vec<(String, J)>);

impl Obj {
    fn new() -> Self {
        Obj(Vec::new())
    }

    /// Adds a member, unless the key is taken (duplicates come only from `finish`, rarely, so
    /// that most inputs get past the JSON reader's duplicate check).
    fn put(&mut self, key: &str, value: J) {
        if !self.0.iter().any(|(k, _)| k == key) {
            self.0.push((key.to_owned(), value));
        }
    }

    fn done(self) -> J {
        J::Obj(self.0)
    }

    /// Finishes the object: adds unknown members, maybe shuffles, maybe duplicates a key.
    fn finish(mut self, src: &mut Src<'_>, depth: usize) -> J {
        for _ in 0..src.count(3) {
            let key = unknown_key(src);
            let value = any_value(src, depth + 1);
            self.put(&key, value);
        }
        let n = self.0.len();
        if n > 1 && src.chance(30) {
            for i in (1..n).rev() {
                let j = src.below(i + 1);
                self.0.swap(i, j);
            }
        }
        if n > 0 && src.chance(1) {
            let i = src.below(n);
            let key = self.0[i].0.clone();
            let value = any_value(src, depth + 1);
            self.0.push((key, value));
        }
        J::Obj(self.0)
    }
}

/// A value for a member that wants `good`: `good` mostly, some other JSON now and then.
fn or_wrong(src: &mut Src<'_>, depth: usize, good: impl FnOnce(&mut Src<'_>) -> J) -> J {
    if src.chance(3) { any_value(src, depth + 1) } else { good(src) }
}

// ---------------------------------------------------------------------------------------------
// Names, numbers, strings.

const NAMES: &[&str] = &[
    "a",
    "pump",
    "start",
    "status",
    "valve.open",
    "x",
    "~",
    "/",
    "a/b~c",
    "",
    "é",
    "名前",
    "\u{1F600}",
    "kind",
    "type",
    "schema",
    "name",
    "values",
    "line 1",
    "\"q\"",
    "back\\slash",
    "tab\t",
    "nl\n",
    "nul\u{0}",
    "\u{7f}",
    "\u{2028}",
];

fn name(src: &mut Src<'_>) -> String {
    let mut out = src.pick(NAMES).to_owned();
    if src.chance(40) {
        let _ = write!(out, "{}", src.byte());
    }
    out
}

const KNOWN_KEYS: &[&str] = &[
    "kind",
    "description",
    "deprecated",
    "default",
    "examples",
    "min",
    "max",
    "exclusiveMin",
    "exclusiveMax",
    "multipleOf",
    "unit",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "value",
    "values",
    "open",
    "reserved",
    "items",
    "minItems",
    "maxItems",
    "uniqueItems",
    "elements",
    "fields",
    "closed",
    "keys",
    "variants",
    "discriminator",
    "name",
    "namespace",
    "type",
    "optional",
    "schema",
    "namespaces",
    "version",
    "component",
    "methods",
    "events",
    "types",
    "semantics",
    "paramStructure",
    "params",
    "result",
    "errors",
    "code",
    "message",
    "data",
    "payload",
    "note",
];

/// A key this record may or may not know: an `x-` member, or a known name of some record.
fn unknown_key(src: &mut Src<'_>) -> String {
    match src.below(4) {
        0 => format!("x-{}", src.pick(&["owner", "team", "since", "ui", ""])),
        1 | 2 => src.pick(KNOWN_KEYS).to_owned(),
        _ => name(src),
    }
}

const NUMBERS: &[&str] = &[
    "0",
    "-0",
    "1",
    "-1",
    "2",
    "0.5",
    "-0.0",
    "1e3",
    "1E-7",
    "1.5e+10",
    "100",
    "9007199254740993",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775808",
    "-9223372036854775809",
    "1.7976931348623157e308",
    "5e-324",
    "2.2250738585072011e-308",
    "0.1",
    "123456789012345678901234567890",
    "1e400",
    "-1e-400",
    "3.141592653589793238462643383279",
    "0.30000000000000004",
    "1e22",
    "9.999999999999999e22",
];

fn number(src: &mut Src<'_>) -> J {
    if src.chance(60) {
        return J::Num(src.pick(NUMBERS).to_owned());
    }
    // Digits from the bytes: mantissa, fraction, exponent.
    let mut out = String::new();
    if src.chance(30) {
        out.push('-');
    }
    let digits = 1 + src.count(20);
    for i in 0..digits {
        let d = src.below(10) as u8;
        // No leading zeros in JSON.
        out.push(char::from(b'0' + if i == 0 && digits > 1 { d.max(1) } else { d }));
    }
    if src.chance(40) {
        out.push('.');
        for _ in 0..1 + src.count(20) {
            out.push(char::from(b'0' + src.below(10) as u8));
        }
    }
    if src.chance(30) {
        out.push_str(src.pick(&["e", "E", "e-", "E+", "e+"]));
        let _ = write!(out, "{}", src.below(340));
    }
    J::Num(out)
}

fn text(src: &mut Src<'_>) -> J {
    let mut out = String::new();
    for _ in 0..src.count(4) {
        out.push_str(src.pick(NAMES));
        out.push(' ');
    }
    if src.chance(20) {
        // Raw characters from the bytes (kept valid: invalid scalars become U+FFFD).
        for _ in 0..src.count(8) {
            let c = src.byte() as u32 | (src.byte() as u32) << 8;
            out.push(char::from_u32(c).unwrap_or('\u{FFFD}'));
        }
    }
    let escape = if src.chance(20) { Escape::Ascii } else { Escape::Plain };
    J::Str(out, escape)
}

/// Any JSON value (defaults, examples, literals, unknown members).
fn any_value(src: &mut Src<'_>, depth: usize) -> J {
    let leaf = depth > 12;
    match src.below(if leaf { 5 } else { 7 }) {
        0 => J::Null,
        1 => J::Bool(src.chance(50)),
        2 => number(src),
        3 => text(src),
        4 => s(name(src)),
        5 => J::Arr((0..src.count(4)).map(|_| any_value(src, depth + 1)).collect()),
        _ => {
            let mut o = Obj::new();
            for _ in 0..src.count(4) {
                let key = unknown_key(src);
                let value = any_value(src, depth + 1);
                o.put(&key, value);
            }
            o.done()
        }
    }
}

fn boolean(src: &mut Src<'_>, depth: usize) -> J {
    or_wrong(src, depth, |src| J::Bool(src.chance(50)))
}

fn count_value(src: &mut Src<'_>, depth: usize) -> J {
    or_wrong(
        src,
        depth,
        |src| {
            if src.chance(10) { number(src) } else { num(src.below(300) as i64) }
        },
    )
}

fn deprecated(src: &mut Src<'_>, depth: usize) -> J {
    or_wrong(src, depth, |src| if src.chance(50) { J::Bool(src.chance(50)) } else { text(src) })
}

fn description(src: &mut Src<'_>, depth: usize) -> J {
    or_wrong(src, depth, text)
}

fn reserved(src: &mut Src<'_>, depth: usize) -> J {
    or_wrong(src, depth, |src| {
        J::Arr(
            (0..src.count(3))
                .map(|_| {
                    let mut r = Obj::new();
                    if !src.chance(3) {
                        r.put("name", or_wrong(src, depth + 2, |src| s(name(src))));
                    }
                    if src.chance(50) {
                        r.put("note", description(src, depth + 2));
                    }
                    r.finish(src, depth + 1)
                })
                .collect(),
        )
    })
}

/// Puts `key` with probability `percent`.
fn maybe(
    o: &mut Obj,
    src: &mut Src<'_>,
    percent: u8,
    key: &str,
    value: impl FnOnce(&mut Src<'_>) -> J,
) {
    if src.chance(percent) {
        let v = value(src);
        o.put(key, v);
    }
}

/// Puts a required `key`, except now and then.
fn required(o: &mut Obj, src: &mut Src<'_>, key: &str, value: impl FnOnce(&mut Src<'_>) -> J) {
    if !src.chance(2) {
        let v = value(src);
        o.put(key, v);
    }
}

// ---------------------------------------------------------------------------------------------
// The contract grammar.

const KINDS: &[&str] = &[
    "any", "null", "boolean", "integer", "number", "string", "literal", "enum", "array", "tuple",
    "object", "map", "union", "ref",
];

/// Deep enough to pass the reader's JSON depth limit now and then.
const TYPE_DEPTH: usize = 70;

fn type_node(src: &mut Src<'_>, depth: usize) -> J {
    if depth > 2 && src.chance(2) {
        return any_value(src, depth);
    }
    let mut t = Obj::new();
    // Leaves once deep, or once the bytes run out (`below` gives 0: `any`).
    let kind = if depth >= TYPE_DEPTH { src.below(8) } else { src.below(KINDS.len() + 1) };
    let kind = match KINDS.get(kind) {
        Some(kind) => *kind,
        None => src.pick(&["", "Object", "tensor", "integer ", "refs"]),
    };
    if !src.chance(1) {
        t.put("kind", or_wrong(src, depth, |_| s(kind)));
    }
    let d = depth + 1;
    match kind {
        "integer" | "number" => {
            // The grammar writes members by name; naming every field of the model's refinements
            // here makes a new one fail to compile until the grammar writes it too.
            let NumberRules {
                min: _,
                max: _,
                exclusive_min: _,
                exclusive_max: _,
                multiple_of: _,
                unit: _,
            } = NumberRules::default();
            for key in ["min", "max", "exclusiveMin", "exclusiveMax", "multipleOf"] {
                maybe(&mut t, src, 25, key, |src| or_wrong(src, d, number));
            }
            maybe(&mut t, src, 30, "unit", |src| {
                or_wrong(src, d, |src| s(src.pick(&["s", "ms", "rpm", "bar", "°C", ""])))
            });
        }
        "string" => {
            let StringRules { min_length: _, max_length: _, pattern: _, format: _ } =
                StringRules::default();
            maybe(&mut t, src, 25, "minLength", |src| count_value(src, d));
            maybe(&mut t, src, 25, "maxLength", |src| count_value(src, d));
            maybe(&mut t, src, 25, "pattern", |src| {
                or_wrong(src, d, |src| s(src.pick(&["^a$", "[", "\\d+", "(?i)x"])))
            });
            maybe(&mut t, src, 25, "format", |src| {
                or_wrong(src, d, |src| s(src.pick(&["date-time", "uuid", "nope"])))
            });
        }
        "literal" => required(&mut t, src, "value", |src| any_value(src, d)),
        "enum" => {
            required(&mut t, src, "values", |src| {
                or_wrong(src, d, |src| {
                    J::Arr(
                        (0..src.count(5))
                            .map(|_| match src.below(8) {
                                0 => any_value(src, d + 1),
                                1..=3 => number(src),
                                _ => s(name(src)),
                            })
                            .collect(),
                    )
                })
            });
            maybe(&mut t, src, 30, "open", |src| boolean(src, d));
            maybe(&mut t, src, 20, "reserved", |src| reserved(src, d));
        }
        "array" => {
            required(&mut t, src, "items", |src| type_node(src, d));
            maybe(&mut t, src, 25, "minItems", |src| count_value(src, d));
            maybe(&mut t, src, 25, "maxItems", |src| count_value(src, d));
            maybe(&mut t, src, 20, "uniqueItems", |src| boolean(src, d));
        }
        "tuple" => required(&mut t, src, "elements", |src| {
            or_wrong(src, d, |src| {
                J::Arr((0..src.count(4)).map(|_| type_node(src, d + 1)).collect())
            })
        }),
        "object" => {
            maybe(&mut t, src, 80, "fields", |src| or_wrong(src, d, |src| fields(src, d + 1)));
            maybe(&mut t, src, 30, "closed", |src| boolean(src, d));
            maybe(&mut t, src, 20, "reserved", |src| reserved(src, d));
        }
        "map" => {
            maybe(&mut t, src, 40, "keys", |src| type_node(src, d));
            required(&mut t, src, "values", |src| type_node(src, d));
        }
        "union" => {
            required(&mut t, src, "variants", |src| {
                or_wrong(src, d, |src| {
                    J::Arr((0..src.count(4)).map(|_| type_node(src, d + 1)).collect())
                })
            });
            maybe(&mut t, src, 30, "discriminator", |src| or_wrong(src, d, |src| s(name(src))));
        }
        "ref" => {
            required(&mut t, src, "name", |src| or_wrong(src, d, |src| s(name(src))));
            maybe(&mut t, src, 30, "namespace", |src| or_wrong(src, d, |src| s(name(src))));
        }
        _ => {}
    }
    maybe(&mut t, src, 30, "description", |src| description(src, d));
    maybe(&mut t, src, 10, "deprecated", |src| deprecated(src, d));
    maybe(&mut t, src, 10, "default", |src| any_value(src, d));
    maybe(&mut t, src, 10, "examples", |src| {
        or_wrong(src, d, |src| J::Arr((0..src.count(3)).map(|_| any_value(src, d + 1)).collect()))
    });
    t.finish(src, depth)
}

fn field(src: &mut Src<'_>, depth: usize, param: bool) -> J {
    let mut f = Obj::new();
    if param {
        required(&mut f, src, "name", |src| or_wrong(src, depth, |src| s(name(src))));
    }
    required(&mut f, src, "type", |src| type_node(src, depth + 1));
    maybe(&mut f, src, 30, "optional", |src| boolean(src, depth));
    maybe(&mut f, src, 30, "description", |src| description(src, depth));
    maybe(&mut f, src, 10, "deprecated", |src| deprecated(src, depth));
    f.finish(src, depth)
}

fn fields(src: &mut Src<'_>, depth: usize) -> J {
    let mut o = Obj::new();
    for _ in 0..src.count(5) {
        let key = name(src);
        let value = field(src, depth + 1, false);
        o.put(&key, value);
    }
    o.done()
}

fn method(src: &mut Src<'_>, depth: usize) -> J {
    let d = depth + 1;
    let mut m = Obj::new();
    maybe(&mut m, src, 60, "semantics", |src| {
        or_wrong(src, d, |src| {
            s(src.pick(&["read", "idempotent", "write", "destructive", "audited", ""]))
        })
    });
    maybe(&mut m, src, 40, "description", |src| description(src, d));
    maybe(&mut m, src, 10, "deprecated", |src| deprecated(src, d));
    maybe(&mut m, src, 20, "paramStructure", |src| {
        or_wrong(src, d, |src| s(src.pick(&["by-name", "by-position", "either", "both"])))
    });
    maybe(&mut m, src, 60, "params", |src| {
        or_wrong(src, d, |src| J::Arr((0..src.count(4)).map(|_| field(src, d + 1, true)).collect()))
    });
    required(&mut m, src, "result", |src| type_node(src, d));
    maybe(&mut m, src, 30, "errors", |src| {
        or_wrong(src, d, |src| {
            J::Arr(
                (0..src.count(3))
                    .map(|_| {
                        let mut e = Obj::new();
                        required(&mut e, src, "code", |src| {
                            or_wrong(src, d + 2, |src| {
                                if src.chance(20) {
                                    number(src)
                                } else {
                                    num(-32000 - src.below(100) as i64)
                                }
                            })
                        });
                        required(&mut e, src, "message", |src| or_wrong(src, d + 2, text));
                        maybe(&mut e, src, 30, "description", |src| description(src, d + 2));
                        maybe(&mut e, src, 30, "data", |src| type_node(src, d + 2));
                        e.finish(src, d + 1)
                    })
                    .collect(),
            )
        })
    });
    maybe(&mut m, src, 30, "examples", |src| {
        or_wrong(src, d, |src| {
            J::Arr(
                (0..src.count(2))
                    .map(|_| {
                        let mut x = Obj::new();
                        maybe(&mut x, src, 40, "name", |src| or_wrong(src, d + 2, text));
                        maybe(&mut x, src, 20, "description", |src| description(src, d + 2));
                        required(&mut x, src, "params", |src| {
                            if src.chance(5) {
                                any_value(src, d + 2)
                            } else if src.chance(50) {
                                J::Arr((0..src.count(3)).map(|_| any_value(src, d + 3)).collect())
                            } else {
                                let mut p = Obj::new();
                                for _ in 0..src.count(3) {
                                    let key = name(src);
                                    let value = any_value(src, d + 3);
                                    p.put(&key, value);
                                }
                                p.done()
                            }
                        });
                        maybe(&mut x, src, 60, "result", |src| any_value(src, d + 2));
                        x.finish(src, d + 1)
                    })
                    .collect(),
            )
        })
    });
    m.finish(src, depth)
}

fn event(src: &mut Src<'_>, depth: usize) -> J {
    let d = depth + 1;
    let mut e = Obj::new();
    maybe(&mut e, src, 40, "description", |src| description(src, d));
    maybe(&mut e, src, 10, "deprecated", |src| deprecated(src, d));
    required(&mut e, src, "payload", |src| type_node(src, d));
    maybe(&mut e, src, 20, "examples", |src| {
        or_wrong(src, d, |src| J::Arr((0..src.count(3)).map(|_| any_value(src, d + 1)).collect()))
    });
    e.finish(src, depth)
}

/// Records by name (namespaces, methods, events, types): `min..=max` of them (fewer only once
/// the bytes run out).
fn by_name(
    src: &mut Src<'_>,
    depth: usize,
    (min, max): (usize, usize),
    item: fn(&mut Src<'_>, usize) -> J,
) -> J {
    or_wrong(src, depth, |src| {
        let mut o = Obj::new();
        let n = if src.at < src.data.len() { min + src.count(max - min) } else { 0 };
        for _ in 0..n {
            let key = name(src);
            let value = item(src, depth + 1);
            o.put(&key, value);
        }
        o.done()
    })
}

const VERSIONS: &[&str] = &[
    "1.0.0",
    "0.1.0",
    "2.10.3",
    "1.0.0-alpha.1",
    "1.0.0+build.5",
    "1.0",
    "v1.0.0",
    "01.0.0",
    "",
    "1.0.0-",
    "18446744073709551616.0.0",
];

fn namespace(src: &mut Src<'_>, depth: usize) -> J {
    let d = depth + 1;
    let mut ns = Obj::new();
    required(&mut ns, src, "version", |src| or_wrong(src, d, |src| s(src.pick(VERSIONS))));
    maybe(&mut ns, src, 40, "description", |src| description(src, d));
    maybe(&mut ns, src, 10, "deprecated", |src| deprecated(src, d));
    maybe(&mut ns, src, 30, "component", |src| {
        or_wrong(src, d, |src| {
            let mut c = Obj::new();
            required(&mut c, src, "name", |src| or_wrong(src, d + 1, |src| s(name(src))));
            maybe(&mut c, src, 40, "description", |src| description(src, d + 1));
            c.finish(src, d)
        })
    });
    maybe(&mut ns, src, 80, "methods", |src| by_name(src, d, (1, 6), method));
    maybe(&mut ns, src, 40, "events", |src| by_name(src, d, (0, 4), event));
    maybe(&mut ns, src, 50, "types", |src| by_name(src, d, (0, 5), type_node));
    maybe(&mut ns, src, 20, "reserved", |src| reserved(src, d));
    ns.finish(src, depth)
}

fn document(src: &mut Src<'_>) -> J {
    let mut doc = Obj::new();
    // `schema: 1`, nearly always.
    let schema = if src.chance(3) { or_wrong(src, 1, number) } else { num(1) };
    if !src.chance(1) {
        doc.put("schema", schema);
    }
    maybe(&mut doc, src, 40, "name", |src| or_wrong(src, 1, text));
    maybe(&mut doc, src, 40, "description", |src| description(src, 1));
    maybe(&mut doc, src, 95, "namespaces", |src| by_name(src, 1, (1, 4), namespace));
    doc.finish(src, 0)
}

// ---------------------------------------------------------------------------------------------
// Writing the tree as text, in one of a few styles.

struct Style {
    /// Indentation per level; `None`: all on one line.
    indent: Option<&'static str>,
    /// Spaces around `:` and after `,` on one line.
    loose: bool,
    newline: &'static str,
}

impl Style {
    fn pick(src: &mut Src<'_>) -> Style {
        Style {
            indent: [None, Some("  "), Some("\t"), Some("    ")][src.below(4)],
            loose: src.chance(50),
            newline: if src.chance(10) { "\r\n" } else { "\n" },
        }
    }

    fn line(&self, depth: usize, out: &mut String) {
        if let Some(indent) = self.indent {
            out.push_str(self.newline);
            for _ in 0..depth {
                out.push_str(indent);
            }
        } else if self.loose {
            out.push(' ');
        }
    }
}

fn emit(j: &J, style: &Style, depth: usize, out: &mut String) {
    match j {
        J::Null => out.push_str("null"),
        J::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        J::Num(n) => out.push_str(n),
        J::Str(text, escape) => string(text, *escape, out),
        J::Arr(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                style.line(depth + 1, out);
                emit(item, style, depth + 1, out);
            }
            if !items.is_empty() {
                style.line(depth, out);
            }
            out.push(']');
        }
        J::Obj(members) => {
            out.push('{');
            for (i, (key, value)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                style.line(depth + 1, out);
                string(key, Escape::Plain, out);
                out.push_str(if style.loose || style.indent.is_some() { ": " } else { ":" });
                emit(value, style, depth + 1, out);
            }
            if !members.is_empty() {
                style.line(depth, out);
            }
            out.push('}');
        }
    }
}

fn string(text: &str, escape: Escape, out: &mut String) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '/' if matches!(escape, Escape::Ascii) => out.push_str("\\/"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c if !c.is_ascii() && matches!(escape, Escape::Ascii) => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{unit:04X}");
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}
