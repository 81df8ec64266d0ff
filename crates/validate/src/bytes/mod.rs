//! Validation of raw JSON bytes against a compiled program, while parsing: nothing is built
//! for valid input (no `Value`, no allocation on the fast path). Syntax, UTF-8 and depth are
//! checked as fully as a JSON parser checks them; every type rule as the value path checks it,
//! through the same `checks` and the same wording.
//!
//! `lex.rs` reads the JSON itself (whitespace, strings, numbers, members, elements, skipping
//! what need not be checked); this file checks what it reads against the program's nodes.

use std::borrow::Cow;

use serde_json::Value;

use crate::checks;
use crate::number::{Num, json_equal};
use crate::program::{Members, Node, NodeId, Params, Program, Record, Seen, Text};
use crate::report::{
    Path, Seg, ValidationError, ValidationRule, expected, found, map_key_error, member,
};
use crate::value::ValueCheck;

mod lex;
mod unique;

use lex::DUPLICATE_EXPECTED;

/// The input is not JSON; the syntax error, when errors are wanted, is in `errors`.
#[derive(Debug)]
pub(crate) struct Fatal;

type Res<T> = Result<T, Fatal>;

/// A string token: its raw bytes between the quotes (valid UTF-8: checked while scanning when
/// any byte is not ASCII) and whether it has escapes.
#[derive(Clone, Copy)]
struct Str<'b> {
    raw: &'b [u8],
    escaped: bool,
}

impl<'b> Str<'b> {
    /// The raw text. Scanning proved it UTF-8 (or ASCII), so this never falls back.
    fn text(self) -> &'b str {
        std::str::from_utf8(self.raw).unwrap_or_default()
    }

    /// Whether two strings have the same text: compared raw when neither has escapes, decoded
    /// (an allocation each) when one has.
    fn same_text(self, other: Str<'_>) -> bool {
        if self.escaped || other.escaped {
            ByteCheck::decode(self) == ByteCheck::decode(other)
        } else {
            self.raw == other.raw
        }
    }
}

/// A discriminator's tag as read: text in place (the usual case), anything else as a `Value`.
enum Tag<'b> {
    Text(Cow<'b, str>),
    Other(Value),
}

/// One validation run over one byte slice.
pub(crate) struct ByteCheck<'p, 'b> {
    program: &'p Program,
    bytes: &'b [u8],
    pos: usize,
    detailed: bool,
    limit: usize,
    depth: usize,
    path: Path<'b>,
    /// Keys named twice in one object, anywhere (however the object was read: checked, skipped
    /// or captured); any makes the input invalid.
    duplicates: usize,
    /// Whether objects read now record their keys to find one named twice: off only while a
    /// quiet union scans for its tag (the arm then reads the object again, recording them).
    track_keys: bool,
    /// Inside a value being skipped (with errors wanted): the path below `path`, kept apart
    /// because the value path reports what a skip finds (depth) at the skipped value itself, and
    /// only a key named twice is reported deeper, at its own place.
    inner: Vec<Seg<'b>>,
    pub(crate) errors: Vec<ValidationError>,
    /// Buffers reused from run to run on this thread (see [`Scratch`]).
    scratch: Scratch,
}

/// What a run needs memory for, kept on the thread between runs so that a valid value costs no
/// allocation once the buffers have grown: the text of escaped strings that a rule reads, and
/// the key tables of objects of many keys, the item tables of `uniqueItems` arrays.
#[derive(Default)]
struct Scratch {
    text: String,
    tables: Vec<lex::KeyTable>,
    items: Vec<unique::ItemTable>,
    hasher: std::hash::RandomState,
}

thread_local! {
    static SCRATCH: std::cell::Cell<Scratch> = std::cell::Cell::new(Scratch::default());
}

impl<'p, 'b> ByteCheck<'p, 'b> {
    pub(crate) fn new(program: &'p Program, bytes: &'b [u8], detailed: bool, limit: usize) -> Self {
        ByteCheck {
            program,
            bytes,
            pos: 0,
            detailed,
            limit,
            depth: 0,
            path: Path::default(),
            duplicates: 0,
            track_keys: true,
            inner: Vec::new(),
            errors: Vec::new(),
            scratch: Scratch::default(),
        }
    }

    /// Checks the whole input against `root`: one value, white space around it, nothing else.
    pub(crate) fn run(&mut self, root: NodeId) -> bool {
        self.scratch = SCRATCH.try_with(std::cell::Cell::take).unwrap_or_default();
        let ok = self.run_with_scratch(root);
        let scratch = std::mem::take(&mut self.scratch);
        let _ = SCRATCH.try_with(|kept| kept.set(scratch));
        ok
    }

    fn run_with_scratch(&mut self, root: NodeId) -> bool {
        let Ok(ok) = self.check(root) else { return false };
        if !ok && !self.detailed {
            return false;
        }
        self.ws();
        if self.pos != self.bytes.len() {
            let _ = self.syntax("the end of the input after the value");
            return false;
        }
        if self.duplicates > 0
            && self.detailed
            && !self.errors.iter().any(|e| e.rule == ValidationRule::DuplicateKey)
        {
            // Met only where errors were not being kept (inside a value read for its verdict
            // alone): still said, at the whole value.
            self.errors.push(ValidationError {
                pointer: String::new(),
                rule: ValidationRule::DuplicateKey,
                expected: DUPLICATE_EXPECTED.to_owned(),
                found: "a key named twice inside the value".to_owned(),
                nearest: Vec::new(),
            });
        }
        ok && self.duplicates == 0
    }

    // ----- reporting -----

    fn fail(&mut self, rule: ValidationRule, expected: impl Into<String>, found: String) {
        if self.detailed {
            let pointer = self.path.pointer();
            self.errors.push(ValidationError {
                pointer,
                rule,
                expected: expected.into(),
                found,
                nearest: Vec::new(),
            });
        }
    }

    fn syntax(&mut self, expected: &str) -> Fatal {
        if self.detailed {
            let found = match self.bytes.get(self.pos) {
                None => "the end of the input".to_owned(),
                Some(&b) if b.is_ascii_graphic() => {
                    // The text from here up to a line break, a little of it.
                    let rest = &self.bytes[self.pos..];
                    let end = rest
                        .iter()
                        .take(16)
                        .position(|&c| c == b'\n' || c == b'\r')
                        .unwrap_or(rest.len().min(16));
                    format!("`{}` at byte {}", String::from_utf8_lossy(&rest[..end]), self.pos)
                }
                Some(&b) => format!("byte 0x{b:02x} at byte {}", self.pos),
            };

            let pointer = self.path.pointer();
            self.errors.push(ValidationError {
                pointer,
                rule: ValidationRule::Syntax,
                expected: format!("JSON: {expected}"),
                found,
                nearest: Vec::new(),
            });
        }
        Fatal
    }

    fn push(&mut self, seg: Seg<'b>) {
        if self.detailed {
            self.path.push(seg);
        }
    }

    fn pop(&mut self) {
        if self.detailed {
            self.path.pop();
        }
    }
}

impl<'b> ByteCheck<'_, 'b> {
    fn mismatch(&mut self, id: NodeId) -> Res<bool> {
        if !self.detailed {
            // The verdict is known and nothing reads on after a failure when errors are not
            // wanted (a union arm rewinds): the value need not be consumed.
            return Ok(false);
        }
        let found = self.describe_and_skip()?;
        let noun = self.program.node(id).noun();
        self.fail(ValidationRule::Type, noun, found);
        Ok(false)
    }

    /// Whether the value at `pos` checks against node `id`; consumes it either way.
    pub(crate) fn check(&mut self, id: NodeId) -> Res<bool> {
        self.ws();
        let program = self.program;
        let Some(b) = self.peek() else { return Err(self.syntax("a value")) };
        match program.node(id) {
            Node::Any => self.skip(),
            Node::Null => match b {
                b'n' => self.word(b"null").map(|()| true),
                _ => self.mismatch(id),
            },
            Node::Boolean => match b {
                b't' => self.word(b"true").map(|()| true),
                b'f' => self.word(b"false").map(|()| true),
                _ => self.mismatch(id),
            },
            Node::Integer(rules) | Node::Number(rules) => {
                if !matches!(b, b'-' | b'0'..=b'9') {
                    return self.mismatch(id);
                }
                let start = self.pos;
                let token = self.number()?;
                let integer_only = matches!(program.node(id), Node::Integer(_));
                let plain = !token.iter().any(|c| matches!(c, b'.' | b'e' | b'E'));
                let no_rules = rules.is_unbounded();
                // Fast: a short plain integer fits i64, so it is an integer without parsing.
                if no_rules && (!integer_only || (plain && token.len() <= 18 && token != b"-0")) {
                    return Ok(true);
                }
                let n = Num::parse(lex::ascii(token));
                if integer_only && !n.is_integer() {
                    self.pos = start;
                    return self.mismatch(id);
                }
                let mut errs = Vec::new();
                let ok = checks::numeric(rules, n, |r, e, f| errs.push((r, e, f)));
                for (r, e, f) in errs {
                    self.fail(r, e, f);
                }
                Ok(ok)
            }
            Node::String(rules) => {
                if b != b'"' {
                    return self.mismatch(id);
                }
                let s = self.string()?;
                if rules.is_unbounded() {
                    return Ok(true);
                }
                // Quiet, a pattern alone, of the shape matched by byte table, on text without
                // escapes: matched on the raw bytes, without making them a `&str` first (the
                // Ethereum contract's hashes and quantities: a tenth of a block's check). Past
                // the cost bound it falls through, to fail as before.
                if !self.detailed
                    && let Text {
                        min_length: None,
                        max_length: None,
                        pattern: Some(p),
                        format: None,
                    } = rules
                    && !s.escaped
                    && let Some(verdict) = p.matches_bytes(s.raw)
                {
                    return Ok(verdict);
                }
                Ok(self.with_text(s, |this, text| {
                    let mut errs = Vec::new();
                    let ok = checks::text(rules, text, |r, e, f| errs.push((r, e, f)));
                    for (r, e, f) in errs {
                        this.fail(r, e, f);
                    }
                    ok
                }))
            }
            Node::Literal(lit @ Value::String(want)) if b == b'"' => {
                // A string literal (a discriminator's tag, usually) is compared in place.
                let s = self.string()?;
                Ok(self.with_text(s, |this, text| {
                    let ok = text == want.as_str();
                    if !ok {
                        this.fail(
                            ValidationRule::Literal,
                            expected::exactly(lit),
                            found::string(text),
                        );
                    }
                    ok
                }))
            }
            Node::Literal(lit) => {
                let value = self.capture()?;
                let ok = json_equal(lit, &value);
                if !ok {
                    self.fail(
                        ValidationRule::Literal,
                        expected::exactly(lit),
                        crate::value::describe(&value),
                    );
                }
                Ok(ok)
            }
            Node::Enum(c) => {
                let (ok, found) = match b {
                    b'"' => {
                        let s = self.string()?;
                        let ok = self.with_text(s, |_, text| checks::enum_has_string(c, text));
                        if ok {
                            return Ok(true);
                        }
                        (false, found::string(&Self::decode(s)))
                    }
                    b'-' | b'0'..=b'9' => {
                        let n = Num::parse(lex::ascii(self.number()?));
                        (checks::enum_has_number(c, n), found::number(n))
                    }
                    _ => (false, self.describe_and_skip()?),
                };
                if !ok {
                    self.fail(ValidationRule::Enum, checks::enum_expected(c), found);
                }
                Ok(ok)
            }
            Node::Array(list) => {
                if b != b'[' {
                    return self.mismatch(id);
                }
                if !self.enter() {
                    return self.skip_too_deep();
                }
                let (mut ok, n, equal) = if list.unique_items {
                    self.unique_elements(list.items)?
                } else {
                    let (ok, n) = self.elements(|this, i| this.item(list.items, i))?;
                    (ok, n, None)
                };
                if ok || self.detailed {
                    ok &= self.count(n, list.min_items, list.max_items);
                }
                // Items, then the count, then uniqueness: the value path's order.
                if let Some((i, j)) = equal {
                    checks::equal_items(i, j, |rule, expected, found| {
                        self.fail(rule, expected, found);
                    });
                }
                self.depth -= 1;
                Ok(ok)
            }
            Node::Tuple(elements) => {
                if b != b'[' {
                    return self.mismatch(id);
                }
                if !self.enter() {
                    return self.skip_too_deep();
                }
                let (mut ok, n) = self.elements(|this, i| match elements.get(i) {
                    Some(&element) => {
                        this.push(Seg::Index(i));
                        let ok = this.check(element);
                        this.pop();
                        ok
                    }
                    None => this.skip_quietly().map(|()| false),
                })?;
                if n != elements.len() && (ok || self.detailed) {
                    ok = false;
                    let want = elements.len();
                    self.fail(
                        ValidationRule::Length,
                        expected::array_of_exactly(want),
                        found::array_of(n),
                    );
                }
                self.depth -= 1;
                Ok(ok)
            }
            Node::Object(record) => {
                if b != b'{' {
                    return self.mismatch(id);
                }
                if !self.enter() {
                    return self.skip_too_deep();
                }
                let ok = self.record(record)?;
                self.depth -= 1;
                Ok(ok)
            }
            Node::Map(dict) => {
                if b != b'{' {
                    return self.mismatch(id);
                }
                if !self.enter() {
                    return self.skip_too_deep();
                }
                let (ok, _) = self.members(None, |this, key, _| {
                    let name = Self::decode(key);
                    let key_ok = match dict.keys {
                        Some(keys) => this.map_key(keys, &name),
                        None => true,
                    };
                    this.push(Seg::Key(name));
                    let ok = if key_ok || this.detailed {
                        this.check(dict.values)?
                    } else {
                        this.skip()?
                    };
                    this.pop();
                    Ok(key_ok && ok)
                })?;
                self.depth -= 1;
                Ok(ok)
            }
            Node::Union(union) => {
                // A tag the contract implies picks the arm only when errors are not wanted:
                // the detailed walk reports the nearest arm, as before (`Union::implied`).
                let tag =
                    if self.detailed { union.discriminator.as_ref() } else { union.quiet_tag() };
                if let Some(d) = tag {
                    if b != b'{' {
                        return self.mismatch(id);
                    }
                    let start = self.pos;
                    let path_len = self.path.len();
                    let detailed = std::mem::replace(&mut self.detailed, false);
                    // Quiet, the scan need not look for keys named twice: the arm reads the
                    // whole object again and finds them, and without an arm it fails anyway.
                    self.track_keys = detailed;
                    let mut tag = None;
                    let scanned = self.members(None, |this, key, _| {
                        if tag.is_none() && Self::decode(key) == *d.member {
                            this.ws();
                            tag = Some(if this.peek() == Some(b'"') {
                                let s = this.string()?;
                                Tag::Text(Self::decode(s))
                            } else {
                                Tag::Other(this.capture()?)
                            });
                            // Stop at the tag (usually the first member): the arm reads the
                            // object again from its start. Errors are off during the scan, so
                            // a false ends it here.
                            Ok(false)
                        } else {
                            this.skip()
                        }
                    });
                    self.detailed = detailed;
                    self.track_keys = true;
                    self.path.truncate(path_len);
                    if scanned.is_err() {
                        // Re-read with errors wanted, to report the syntax error.
                        self.pos = start;
                        return self.skip();
                    }
                    let Some(tag) = tag else {
                        self.fail(
                            ValidationRule::Discriminator,
                            expected::discriminator(&d.member),
                            found::object(),
                        );
                        return Ok(false);
                    };
                    let arm = match &tag {
                        Tag::Text(text) => d.arm_for_str(text),
                        Tag::Other(value) => d.arm_for(value),
                    };
                    match arm {
                        Some(arm) => {
                            self.pos = start;
                            self.check(arm)
                        }
                        None => {
                            let tags: Vec<String> =
                                d.arms.iter().map(|(t, _)| t.to_string()).collect();
                            self.push(Seg::Key(Cow::Owned(d.member.to_string())));
                            self.fail(
                                ValidationRule::Discriminator,
                                expected::one_of_tags(&tags),
                                match &tag {
                                    Tag::Text(text) => found::string(text),
                                    Tag::Other(value) => crate::value::describe(value),
                                },
                            );
                            self.pop();
                            // The scan stopped at the tag: consume the rest of the object.
                            self.pos = start;
                            self.skip_quietly()?;
                            Ok(false)
                        }
                    }
                } else {
                    self.any_arm(id, &union.variants)
                }
            }
            Node::Ref(target) => self.check(*target),
            Node::Params(params) => match b {
                b'{' if params.by_name => {
                    if !self.enter() {
                        return self.skip_too_deep();
                    }
                    let ok = self.declared_members(&params.members, "param")?;
                    self.depth -= 1;
                    Ok(ok)
                }
                b'[' if params.by_position => {
                    if !self.enter() {
                        return self.skip_too_deep();
                    }
                    let ok = self.positional(params)?;
                    self.depth -= 1;
                    Ok(ok)
                }
                _ => self.mismatch(id),
            },
        }
    }

    /// Item `i` of an array, checked against `items`.
    fn item(&mut self, items: NodeId, i: usize) -> Res<bool> {
        self.push(Seg::Index(i));
        let ok = self.check(items);
        self.pop();
        ok
    }

    fn count(&mut self, len: usize, min: Option<u64>, max: Option<u64>) -> bool {
        let mut errs = Vec::new();
        let ok = checks::item_count(len, min, max, |r, e, f| errs.push((r, e, f)));
        for (rule, expected, found) in errs {
            self.fail(rule, expected, found);
        }
        ok
    }

    fn record(&mut self, record: &Record) -> Res<bool> {
        if record.closed {
            let (ok, seen) = self.members(Some(&record.members), |this, key, found| {
                if this.detailed {
                    this.path.push(Seg::Key(Self::decode(key)));
                }
                let ok = match found {
                    Some(i) => this.check(record.members.list[i].node)?,
                    None => {
                        let name = Self::decode(key);
                        this.fail(ValidationRule::Closed, expected::closed(record), member(&name));
                        this.skip_quietly()?;
                        false
                    }
                };
                this.pop();
                Ok(ok)
            })?;
            Ok(self.required(&record.members, &seen, ok, "member"))
        } else {
            self.declared_members(&record.members, "member")
        }
    }

    /// An open object or by-name params: declared members checked, others skipped.
    fn declared_members(&mut self, members: &Members, what: &str) -> Res<bool> {
        let (ok, seen) = self.members(Some(members), |this, key, found| {
            if this.detailed {
                this.path.push(Seg::Key(Self::decode(key)));
            }
            let ok = match found {
                Some(i) => this.check(members.list[i].node)?,
                None => this.skip()?,
            };
            this.pop();
            Ok(ok)
        })?;
        Ok(self.required(members, &seen, ok, what))
    }

    fn required(&mut self, members: &Members, seen: &Seen, mut ok: bool, what: &str) -> bool {
        if !ok && !self.detailed {
            return false;
        }
        for (i, m) in members.list.iter().enumerate() {
            if m.required && !seen.has(i) {
                ok = false;
                if what == "param" {
                    self.fail(
                        ValidationRule::Required,
                        expected::param(&m.name),
                        found::params_without(&m.name),
                    );
                } else {
                    self.fail(
                        ValidationRule::Required,
                        member(&m.name),
                        found::object_without(&m.name),
                    );
                }
                if !self.detailed {
                    return false;
                }
            }
        }
        ok
    }

    fn positional(&mut self, params: &Params) -> Res<bool> {
        let list = &params.members.list;
        let (mut ok, n) = self.elements(|this, i| match list.get(i) {
            Some(m) => {
                this.push(Seg::Index(i));
                let ok = this.check(m.node);
                this.pop();
                ok
            }
            None => this.skip_quietly().map(|()| false),
        })?;
        if !ok && !self.detailed {
            return Ok(false);
        }
        for (i, m) in list.iter().enumerate().skip(n) {
            if m.required {
                ok = false;
                self.fail(
                    ValidationRule::Required,
                    expected::param_at(&m.name, i),
                    found::array_of(n),
                );
                if !self.detailed {
                    return Ok(false);
                }
            }
        }
        if n > list.len() {
            ok = false;
            self.fail(
                ValidationRule::Length,
                expected::at_most_params(list.len()),
                found::array_of(n),
            );
        }
        Ok(ok)
    }

    /// A map key against the key type: the value path's check on the key as a string, so the
    /// wording is the same by construction.
    fn map_key(&mut self, keys: NodeId, key: &str) -> bool {
        // The common key types are decided on the text itself, without building a `Value`.
        if checks::quick_key(self.program, keys, key) == Some(true) {
            return true;
        }
        let as_value = Value::String(key.to_owned());

        let mut probe = ValueCheck::new(self.program, self.detailed, self.limit);
        if probe.check(keys, &as_value) {
            return true;
        }
        if self.detailed {
            self.path.push(Seg::Key(Cow::Owned(key.to_owned())));
            let pointer = self.path.pointer();
            self.path.pop();
            self.errors.push(map_key_error(pointer, key, probe.errors));
        }
        false
    }

    /// A union without a discriminator: the value matches when any arm does.
    fn any_arm(&mut self, id: NodeId, arms: &[NodeId]) -> Res<bool> {
        let start = self.pos;
        // Each arm is probed by this check itself with errors off (nothing is kept of a
        // probe but its verdict and, when it passes, where it ended).
        let (depth, duplicates) = (self.depth, self.duplicates);
        let detailed = std::mem::replace(&mut self.detailed, false);
        for &arm in arms {
            self.pos = start;
            let probed = self.check(arm);
            self.depth = depth;
            match probed {
                Ok(true) => {
                    // The arm that passes keeps the keys it found named twice: the value has
                    // them whichever arm reads it (errors were off, so they are said at the
                    // whole value).
                    self.detailed = detailed;
                    return Ok(true);
                }
                Ok(false) => self.duplicates = duplicates,
                Err(Fatal) => {
                    self.duplicates = duplicates;
                    // Malformed whatever the arm: re-read with errors wanted, to report it.
                    self.detailed = detailed;
                    self.pos = start;
                    return self.skip();
                }
            }
        }
        self.detailed = detailed;
        self.pos = start;
        if !self.detailed {
            return Ok(false);
        }
        // No arm: find the nearest, reporting its errors under the union's error.
        let mut nearest: Option<Vec<ValidationError>> = None;
        for &arm in arms {
            let mut probe = ByteCheck::new(self.program, self.bytes, true, self.limit);
            probe.pos = start;
            probe.depth = self.depth;
            let _ = probe.check(arm);
            if nearest.as_ref().is_none_or(|b| probe.errors.len() < b.len()) {
                nearest = Some(probe.errors);
            }
        }
        let base = self.path.pointer();
        let nearest = nearest
            .unwrap_or_default()
            .into_iter()
            .map(|mut e| {
                e.pointer = format!("{base}{}", e.pointer);
                e
            })
            .collect();
        self.pos = start;
        let found = self.describe_and_skip()?;
        let program = self.program;
        let Node::Union(union) = program.node(id) else {
            unreachable!("any_arm is called for unions")
        };
        let names: Vec<&str> =
            union.variants.iter().map(|&a| program.node(program.resolve(a)).noun()).collect();
        self.errors.push(ValidationError {
            pointer: base,
            rule: ValidationRule::Union,
            expected: expected::union_arms(&names),
            found,
            nearest,
        });
        Ok(false)
    }
}
