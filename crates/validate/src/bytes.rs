//! Validation of raw JSON bytes against a compiled program, while parsing: nothing is built
//! for valid input (no `Value`, no allocation on the fast path). Syntax, UTF-8 and depth are
//! checked as fully as a JSON parser checks them; every type rule as the value path checks it,
//! through the same `checks` and the same wording.

use std::borrow::Cow;

use serde_json::Value;

use crate::checks;
use crate::number::{Num, json_equal};
use crate::program::{Members, Node, NodeId, Params, Program, Record, Seen};
use crate::report::{Path, Seg, ValidationError, ValidationRule, expected, found, member};
use crate::value::ValueCheck;

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
    /// Inside a value being skipped (with errors wanted): the path below `path`, kept apart
    /// because the value path reports what a skip finds (depth) at the skipped value itself, and
    /// only a key named twice is reported deeper, at its own place.
    inner: Vec<Seg<'b>>,
    pub(crate) errors: Vec<ValidationError>,
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
            inner: Vec::new(),
            errors: Vec::new(),
        }
    }

    /// Checks the whole input against `root`: one value, white space around it, nothing else.
    pub(crate) fn run(&mut self, root: NodeId) -> bool {
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

    // ----- lexing -----

    fn ws(&mut self) {
        while let Some(&b) = self.bytes.get(self.pos) {
            if matches!(b, b' ' | b'\n' | b'\r' | b'\t') {
                self.pos += 1;
            } else {
                break;
            }
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn eat(&mut self, b: u8, expected: &str) -> Res<()> {
        self.ws();
        if self.peek() == Some(b) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.syntax(expected))
        }
    }

    fn word(&mut self, word: &'static [u8]) -> Res<()> {
        if self.bytes[self.pos..].starts_with(word) {
            self.pos += word.len();
            Ok(())
        } else {
            Err(self.syntax("`true`, `false` or `null`"))
        }
    }

    /// A string token at `pos` (which holds `"`).
    fn string(&mut self) -> Res<Str<'b>> {
        let bytes = self.bytes;
        let start = self.pos + 1;
        let mut i = start;
        let mut escaped = false;
        let mut high = 0u8;
        loop {
            // The common case: plain bytes, eight at a time.
            let (after, any_high) = skip_plain(bytes, i);
            high |= u8::from(any_high) << 7;
            i = after;
            while i < bytes.len() && !matches!(bytes[i], b'"' | b'\\' | 0..=0x1f) {
                high |= bytes[i];
                i += 1;
            }

            match bytes.get(i) {
                Some(b'"') => break,
                Some(b'\\') => {
                    escaped = true;
                    i = self.escape(i)?;
                }
                Some(_) => {
                    self.pos = i;
                    return Err(self.syntax("no control characters inside a string (escape them)"));
                }
                None => {
                    self.pos = i;
                    return Err(self.syntax("the closing `\"` of a string"));
                }
            }
        }
        let raw = &bytes[start..i];
        // ASCII is UTF-8: only a string with a byte past 0x7f needs the check.
        if high & 0x80 != 0
            && let Err(e) = std::str::from_utf8(raw)
        {
            self.pos = start + e.valid_up_to();
            return Err(self.syntax("UTF-8 text"));
        }
        self.pos = i + 1;
        Ok(Str { raw, escaped })
    }

    /// Checks the escape at `at` (a backslash); returns the index after it.
    fn escape(&mut self, at: usize) -> Res<usize> {
        let bytes = self.bytes;
        match bytes.get(at + 1) {
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => Ok(at + 2),
            Some(b'u') => {
                let unit = |i: usize| -> Option<u16> {
                    let hex = bytes.get(i..i + 4)?;
                    u16::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()
                };
                let Some(first) = unit(at + 2) else {
                    self.pos = at;
                    return Err(self.syntax("four hexadecimal digits after `\\u`"));
                };
                match first {
                    0xD800..=0xDBFF => {
                        // A high surrogate must be followed by an escaped low one.
                        let low = (bytes.get(at + 6..at + 8) == Some(b"\\u"))
                            .then(|| unit(at + 8))
                            .flatten();
                        match low {
                            Some(0xDC00..=0xDFFF) => Ok(at + 12),
                            _ => {
                                self.pos = at;
                                Err(self.syntax("a low surrogate escape after a high one"))
                            }
                        }
                    }
                    0xDC00..=0xDFFF => {
                        self.pos = at;
                        Err(self.syntax("no lone low surrogate escape"))
                    }
                    _ => Ok(at + 6),
                }
            }
            _ => {
                self.pos = at;
                Err(self.syntax("a valid escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)"))
            }
        }
    }

    /// A number token at `pos`, checked against JSON's number grammar.
    fn number(&mut self) -> Res<&'b str> {
        let bytes = self.bytes;
        let start = self.pos;
        let mut i = start;
        let digits = |i: &mut usize| {
            let from = *i;
            while *i < bytes.len() && bytes[*i].is_ascii_digit() {
                *i += 1;
            }
            *i > from
        };
        if bytes.get(i) == Some(&b'-') {
            i += 1;
        }
        match bytes.get(i) {
            Some(b'0') => i += 1,
            Some(b'1'..=b'9') => {
                digits(&mut i);
            }
            _ => {
                self.pos = i;
                return Err(self.syntax("a digit"));
            }
        }
        if bytes.get(i) == Some(&b'.') {
            i += 1;
            if !digits(&mut i) {
                self.pos = i;
                return Err(self.syntax("a digit after the decimal point"));
            }
        }
        let exponent = matches!(bytes.get(i), Some(b'e' | b'E'));
        if exponent {
            i += 1;

            if matches!(bytes.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            if !digits(&mut i) {
                self.pos = i;
                return Err(self.syntax("a digit in the exponent"));
            }
        }
        // The token is ASCII by construction.
        let token = std::str::from_utf8(&bytes[start..i]).unwrap_or_default();
        // Past the range of a double (`1e400`) is not a number serde_json reads; only an
        // exponent or a long mantissa can get there.
        if (exponent || i - start > 300) && !token.parse::<f64>().is_ok_and(f64::is_finite) {
            self.pos = start;
            return Err(self.syntax("a number within the range of a double"));
        }
        self.pos = i;
        Ok(token)
    }

    // ----- decoding (only where a rule needs the text) -----

    fn decode(s: Str<'b>) -> Cow<'b, str> {
        if !s.escaped {
            return Cow::Borrowed(s.text());
        }
        Cow::Owned(unescape(s.text()))
    }

    /// Consumes the scalar or container at `pos` and describes it as errors do.
    fn describe_and_skip(&mut self) -> Res<String> {
        match self.peek() {
            Some(b'"') => {
                let s = self.string()?;
                Ok(found::string(&Self::decode(s)))
            }
            Some(b'-' | b'0'..=b'9') => Ok(found::number(Num::parse(self.number()?))),
            Some(b't') => self.word(b"true").map(|()| found::boolean(true)),
            Some(b'f') => self.word(b"false").map(|()| found::boolean(false)),
            Some(b'n') => self.word(b"null").map(|()| found::null()),
            // The value is already wrong: its insides are not reported (nor on the value path).
            Some(b'{') => self.skip_quietly().map(|()| found::object()),
            Some(b'[') => self.skip_quietly().map(|()| found::array()),
            _ => Err(self.syntax("a value")),
        }
    }

    /// Consumes one value of any type, checking its syntax and depth. Ok(false) when it nests
    /// past the limit (reported, and the rest of it skipped).
    fn skip(&mut self) -> Res<bool> {
        self.ws();
        match self.peek() {
            Some(b'{') => {
                if !self.enter() {
                    return self.skip_too_deep();
                }
                // Skipping consumes the whole value whatever it finds: a depth error inside is
                // remembered, not a reason to stop reading (which `members` does for failures
                // when errors are not wanted).
                let mut within = true;
                self.members(|this, key| {
                    if this.detailed {
                        this.inner.push(Seg::Key(Self::decode(key)));
                    }
                    let skipped = this.skip();
                    if this.detailed {
                        this.inner.pop();
                    }
                    within &= skipped?;
                    Ok(true)
                })?;
                self.depth -= 1;
                Ok(within)
            }
            Some(b'[') => {
                if !self.enter() {
                    return self.skip_too_deep();
                }
                let mut within = true;
                self.elements(|this, i| {
                    if this.detailed {
                        this.inner.push(Seg::Index(i));
                    }
                    let skipped = this.skip();
                    if this.detailed {
                        this.inner.pop();
                    }
                    within &= skipped?;
                    Ok(true)
                })?;
                self.depth -= 1;
                Ok(within)
            }
            _ => self.skip_scalar().map(|()| true),
        }
    }

    /// Consumes one scalar, checking its syntax and nothing else (no text decoded, no number
    /// read: skipping is on the hot path of every unknown member and every `any`).
    fn skip_scalar(&mut self) -> Res<()> {
        match self.peek() {
            Some(b'"') => self.string().map(|_| ()),
            Some(b'-' | b'0'..=b'9') => self.number().map(|_| ()),
            Some(b't') => self.word(b"true"),
            Some(b'f') => self.word(b"false"),
            Some(b'n') => self.word(b"null"),
            _ => Err(self.syntax("a value")),
        }
    }

    /// Whether one more level of nesting is allowed; reports when it is not.
    fn enter(&mut self) -> bool {
        if self.depth >= self.limit {
            let limit = self.limit;
            let found = if self.peek() == Some(b'{') { found::object() } else { found::array() };
            self.fail(ValidationRule::Depth, checks::depth_expected(limit), found);
            return false;
        }
        self.depth += 1;
        true
    }

    /// Past the depth limit: consumes the container without recursion, checking strings and
    /// bracket balance (the verdict is already "invalid").
    fn skip_too_deep(&mut self) -> Res<bool> {
        let mut open: Vec<u8> = Vec::new();
        loop {
            self.ws();
            match self.peek() {
                Some(b @ (b'{' | b'[')) => {
                    open.push(if b == b'{' { b'}' } else { b']' });
                    self.pos += 1;
                }
                Some(b @ (b'}' | b']')) => {
                    if open.pop() != Some(b) {
                        return Err(self.syntax("matching brackets"));
                    }
                    self.pos += 1;
                    if open.is_empty() {
                        return Ok(false);
                    }
                }
                Some(b'"') => {
                    self.string()?;
                }
                Some(b',' | b':') => self.pos += 1,
                Some(b'-' | b'0'..=b'9') => {
                    self.number()?;
                }
                Some(b't') => self.word(b"true")?,
                Some(b'f') => self.word(b"false")?,
                Some(b'n') => self.word(b"null")?,
                _ => return Err(self.syntax("a value")),
            }
        }
    }

    /// Iterates an object's members: `each(self, key)` consumes the member's value. A key
    /// named twice is counted and reported (`duplicate-key`, at the second one) but does not
    /// stop the iteration: a JSON reader keeps one of the two, and which is the ambiguity.
    fn members(&mut self, mut each: impl FnMut(&mut Self, Str<'b>) -> Res<bool>) -> Res<bool> {
        // At `{`.
        self.pos += 1;
        self.ws();
        let mut ok = true;
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(true);
        }
        let mut keys = Keys::default();
        loop {
            self.ws();
            if self.peek() != Some(b'"') {
                return Err(self.syntax("a member name in double quotes"));
            }
            let key = self.string()?;
            self.eat(b':', "`:` after a member name")?;
            if !keys.insert(key) {
                self.duplicates += 1;
                if self.detailed {
                    let name = Self::decode(key);
                    let found = format!("`{name}` named twice");
                    let len = self.path.len();
                    for seg in self.inner.clone() {
                        self.path.push(seg);
                    }
                    self.path.push(Seg::Key(name));
                    self.fail(ValidationRule::DuplicateKey, DUPLICATE_EXPECTED, found);
                    self.path.truncate(len);
                }
            }
            ok &= each(self, key)?;
            if !ok && !self.detailed {
                return Ok(false);
            }
            self.ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(ok);
                }
                _ => return Err(self.syntax("`,` or `}`")),
            }
        }
    }

    /// Iterates an array's elements: `each(self, index)` consumes the element. Returns the count.
    fn elements(
        &mut self,
        mut each: impl FnMut(&mut Self, usize) -> Res<bool>,
    ) -> Res<(bool, usize)> {
        // At `[`.
        self.pos += 1;
        self.ws();
        let mut ok = true;
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok((true, 0));
        }
        let mut n = 0;
        loop {
            ok &= each(self, n)?;
            n += 1;
            if !ok && !self.detailed {
                return Ok((false, n));
            }
            self.ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return Ok((ok, n));
                }
                _ => return Err(self.syntax("`,` or `]`")),
            }
        }
    }

    /// The value at `pos` as a `Value` (for literals, unique items and discriminator tags).
    fn capture(&mut self) -> Res<Value> {
        self.ws();
        let start = self.pos;
        self.skip_quietly()?;
        // Past serde_json's own depth limit the value cannot be built; it then equals no
        // literal, as on the value path (which never gets such a value from serde_json).
        Ok(serde_json::from_slice(&self.bytes[start..self.pos]).unwrap_or(Value::Null))
    }

    /// Consumes one value, checking its syntax, reporting nothing but a syntax error: for
    /// values whose verdict is already known (a type mismatch, an undeclared member of a closed
    /// object, items past a tuple's end), whose insides the value path does not look at either.
    fn skip_quietly(&mut self) -> Res<()> {
        let start = self.pos;
        let depth = self.depth;
        let detailed = std::mem::replace(&mut self.detailed, false);
        let skipped = self.skip();
        self.detailed = detailed;
        match skipped {
            Ok(_) => Ok(()),
            Err(Fatal) => {
                if detailed {
                    // Read it again with errors wanted, to report the syntax error.
                    self.pos = start;
                    self.depth = depth;
                    let detailed_errors = self.errors.len();
                    let again = self.skip();
                    // Keep only the syntax error, not depth errors met on the way.
                    let syntax: Vec<ValidationError> = self
                        .errors
                        .drain(detailed_errors..)
                        .filter(|e| e.rule == ValidationRule::Syntax)
                        .collect();
                    self.errors.extend(syntax);
                    again?;
                }
                Err(Fatal)
            }
        }
    }

    // ----- checking -----

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
                let plain = !token.bytes().any(|c| matches!(c, b'.' | b'e' | b'E'));
                let no_rules = rules.is_unbounded();
                // Fast: a short plain integer fits i64, so it is an integer without parsing.
                if no_rules && (!integer_only || (plain && token.len() <= 18 && token != "-0")) {
                    return Ok(true);
                }
                let n = Num::parse(token);
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
                let text = Self::decode(s);
                let mut errs = Vec::new();
                let ok = checks::text(rules, &text, |r, e, f| errs.push((r, e, f)));
                for (r, e, f) in errs {
                    self.fail(r, e, f);
                }
                Ok(ok)
            }
            Node::Literal(lit @ Value::String(want)) if b == b'"' => {
                // A string literal (a discriminator's tag, usually) is compared in place.
                let s = self.string()?;
                let text = Self::decode(s);
                let ok = text == want.as_str();
                if !ok {
                    self.fail(
                        ValidationRule::Literal,
                        expected::exactly(lit),
                        found::string(&text),
                    );
                }
                Ok(ok)
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
                        let text = Self::decode(s);
                        (checks::enum_has_string(c, &text), found::string(&text))
                    }
                    b'-' | b'0'..=b'9' => {
                        let n = Num::parse(self.number()?);
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
                let items = list.items;
                let mut spans = Vec::new();
                let (mut ok, n) = self.elements(|this, i| {
                    this.push(Seg::Index(i));
                    this.ws();
                    let start = this.pos;
                    let ok = this.check(items);
                    this.pop();
                    if list.unique_items {
                        spans.push((start, this.pos));
                    }
                    ok
                })?;
                if ok || self.detailed {
                    ok &= self.count(n, list.min_items, list.max_items);
                }
                if list.unique_items && (ok || self.detailed) {
                    ok &= self.unique(&spans);
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
                let ok = self.members(|this, key| {
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
                if let Some(d) = &union.discriminator {
                    if b != b'{' {
                        return self.mismatch(id);
                    }
                    let start = self.pos;
                    let path_len = self.path.len();
                    let detailed = std::mem::replace(&mut self.detailed, false);
                    let mut tag = None;
                    let scanned = self.members(|this, key| {
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
                    let ok = self.declared_members(&params.members, false, "param")?;
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

    fn count(&mut self, len: usize, min: Option<u64>, max: Option<u64>) -> bool {
        let mut errs = Vec::new();
        let ok = checks::item_count(len, min, max, |r, e, f| errs.push((r, e, f)));
        for (rule, expected, found) in errs {
            self.fail(rule, expected, found);
        }
        ok
    }

    fn unique(&mut self, spans: &[(usize, usize)]) -> bool {
        let values: Vec<Value> = spans
            .iter()
            .map(|&(a, b)| serde_json::from_slice(&self.bytes[a..b]).unwrap_or(Value::Null))
            .collect();
        self.unique_values(&values)
    }

    fn unique_values(&mut self, values: &[Value]) -> bool {
        let mut errs = Vec::new();
        let ok = checks::unique_items(values, |r, e, f| errs.push((r, e, f)));
        for (rule, expected, found) in errs {
            self.fail(rule, expected, found);
        }
        ok
    }

    fn record(&mut self, record: &Record) -> Res<bool> {
        if record.closed {
            let mut seen = Seen::new(record.members.len());
            let mut hint = 0;
            let ok = self.members(|this, key| {
                let found = find_member(&record.members, key, hint);
                if this.detailed {
                    this.path.push(Seg::Key(Self::decode(key)));
                }
                let ok = match found {
                    Some(i) => {
                        hint = i + 1;
                        seen.set(i);
                        this.check(record.members.list[i].node)?
                    }
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
            self.declared_members(&record.members, true, "member")
        }
    }

    /// An open object or by-name params: declared members checked, others skipped.
    fn declared_members(&mut self, members: &Members, _open: bool, what: &str) -> Res<bool> {
        let mut seen = Seen::new(members.len());
        let mut hint = 0;
        let ok = self.members(|this, key| {
            let found = find_member(members, key, hint);
            if this.detailed {
                this.path.push(Seg::Key(Self::decode(key)));
            }
            let ok = match found {
                Some(i) => {
                    hint = i + 1;
                    seen.set(i);
                    this.check(members.list[i].node)?
                }
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
        let program = self.program;
        let quick = match program.node(program.resolve(keys)) {
            Node::Any => Some(true),
            Node::String(rules) => Some(checks::text(rules, key, |_, _, _| {})),
            Node::Enum(c) => Some(checks::enum_has_string(c, key)),
            Node::Literal(Value::String(s)) => Some(s == key),
            _ => None,
        };
        if quick == Some(true) {
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
            let nearest = probe.errors.into_iter().map(|mut e| {
                e.pointer = pointer.clone();
                e
            });
            self.errors.push(ValidationError {
                pointer: pointer.clone(),
                rule: ValidationRule::MapKey,
                expected: expected::map_key(),
                found: found::key(key),
                nearest: nearest.collect(),
            });
        }
        false
    }

    /// A union without a discriminator: the value matches when any arm does.
    fn any_arm(&mut self, id: NodeId, arms: &[NodeId]) -> Res<bool> {
        let start = self.pos;
        for &arm in arms {
            let mut probe = ByteCheck::new(self.program, self.bytes, false, self.limit);
            probe.pos = start;
            probe.depth = self.depth;
            match probe.check(arm) {
                Ok(true) => {
                    self.pos = probe.pos;
                    return Ok(true);
                }
                Ok(false) => {}
                Err(Fatal) => {
                    // Malformed whatever the arm: re-read with errors wanted, to report it.
                    self.pos = start;
                    return self.skip();
                }
            }
        }
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

/// The declared member a key names: compared as bytes when the key has no escapes (no text
/// built), decoded first when it has.
/// What a `duplicate-key` error expects.
const DUPLICATE_EXPECTED: &str = "each key named once";

/// The keys of one object read so far: compared in place while there are few (no allocation
/// for a value without escapes), hashed once there are many (a hostile object of 100,000
/// members costs one insertion each, not a comparison with every other).
#[derive(Default)]
struct Keys<'b> {
    few: [Option<Str<'b>>; FEW_KEYS],
    count: usize,
    many: Option<std::collections::HashSet<Cow<'b, str>>>,
}

/// How many keys are compared in place before they are hashed (few: the array is on the stack
/// of every object level, up to the depth limit).
const FEW_KEYS: usize = 8;

impl<'b> Keys<'b> {
    /// Adds `key`; `false` when it was there already.
    fn insert(&mut self, key: Str<'b>) -> bool {
        if let Some(many) = &mut self.many {
            return many.insert(ByteCheck::decode(key));
        }
        let same = |a: Str<'b>, b: Str<'b>| {
            if a.escaped || b.escaped {
                ByteCheck::decode(a) == ByteCheck::decode(b)
            } else {
                a.raw == b.raw
            }
        };
        if self.few[..self.count].iter().flatten().any(|k| same(*k, key)) {
            return false;
        }
        if self.count < FEW_KEYS {
            self.few[self.count] = Some(key);
            self.count += 1;
        } else {
            let mut many: std::collections::HashSet<Cow<'b, str>> =
                self.few.iter().flatten().map(|k| ByteCheck::decode(*k)).collect();
            many.insert(ByteCheck::decode(key));
            self.many = Some(many);
        }
        true
    }
}

fn find_member(members: &Members, key: Str<'_>, hint: usize) -> Option<usize> {
    if key.escaped { members.find(&unescape(key.text())) } else { members.find_from(key.raw, hint) }
}

/// Skips, eight bytes at a time, the bytes from `i` that need no attention inside a string
/// (anything but `"`, `\` and control characters); stops at or before the first that does.
/// SWAR: a word has a byte equal to `c` when `haszero(word ^ c…)`, and a byte below 0x20 when
/// `(word - 0x20…) & !word & 0x80…` is set (exact as to whether, which is all this needs).
fn skip_plain(bytes: &[u8], mut i: usize) -> (usize, bool) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let has_zero = |w: u64| w.wrapping_sub(ONES) & !w & HIGH;
    let mut high = 0;
    while let Some(chunk) = bytes.get(i..i + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        let special = has_zero(w ^ (ONES * u64::from(b'"')))
            | has_zero(w ^ (ONES * u64::from(b'\\')))
            | (w.wrapping_sub(ONES * 0x20) & !w & HIGH);
        if special != 0 {
            break;
        }
        high |= w & HIGH;
        i += 8;
    }
    (i, high != 0)
}

/// The text of a string whose escapes the scanner checked (so every escape is well formed and
/// surrogates come in pairs). One allocation, for the result.
fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    let hex = |chars: &mut std::str::Chars<'_>| -> u32 {
        let digits: String = chars.by_ref().take(4).collect();
        u32::from_str_radix(&digits, 16).unwrap_or(0xfffd)
    };
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('b') => out.push('\u{8}'),
            Some('f') => out.push('\u{c}'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('u') => {
                let unit = hex(&mut chars);
                let code = if (0xd800..0xdc00).contains(&unit) {
                    // `\uXXXX` of the low surrogate follows (the scanner made sure).
                    chars.next();
                    chars.next();
                    let low = hex(&mut chars);
                    0x10000 + ((unit - 0xd800) << 10) + (low.wrapping_sub(0xdc00) & 0x3ff)
                } else {
                    unit
                };
                out.push(char::from_u32(code).unwrap_or('\u{fffd}'));
            }
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::skip_plain;

    #[test]
    fn skip_plain_stops_at_or_before_every_special_byte() {
        for special in [b'"', b'\\', 0x00, 0x1f, b'\n'] {
            for at in 0..40 {
                let mut text = vec![b'a'; 48];
                text[at] = special;
                // Non-ASCII bytes are plain here (UTF-8 is checked over the whole string).
                text[(at + 7) % 48] = 0xc3;
                let (stop, _) = skip_plain(&text, 0);
                assert!(stop <= at, "skipped past {special:#x} at {at}: stopped at {stop}");
                assert!(at - stop < 8, "stopped too early for {special:#x} at {at}: {stop}");
            }
        }
        assert_eq!(
            skip_plain(&[b'x'; 20], 0),
            (16, false),
            "the tail shorter than a word is left to the byte loop"
        );
        assert_eq!(skip_plain("ééééé".as_bytes(), 0), (8, true), "a byte past 0x7f is seen");
    }

    #[test]
    fn unescape_agrees_with_serde_json() {
        for raw in
            [r#"plain"#, r#"a\"b\\c\/d\b\f\n\r\t"#, r#"caf\u00e9 \ud83d\ude00 \u0000"#, "é\\u00e9"]
        {
            let want: String = serde_json::from_str(&format!("\"{raw}\"")).expect("JSON string");
            assert_eq!(super::unescape(raw), want, "{raw}");
        }
    }
}
