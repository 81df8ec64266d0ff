//! The lexing half of the bytes path: JSON read in place (whitespace, literals, strings and
//! their escapes, numbers, objects' members and arrays' elements, values skipped or captured),
//! with its syntax, UTF-8, depth and duplicate-key errors. `super` checks what it reads.

use std::borrow::Cow;

use serde_json::Value;

use std::hash::{BuildHasher, BuildHasherDefault, Hasher};

use super::{ByteCheck, Fatal, Res, Str};
use crate::checks;
use crate::number::Num;
use crate::program::{Members, Seen};
use crate::report::{Seg, ValidationError, ValidationRule, found};

impl<'b> ByteCheck<'_, 'b> {
    pub(super) fn ws(&mut self) {
        while let Some(&b) = self.bytes.get(self.pos) {
            if matches!(b, b' ' | b'\n' | b'\r' | b'\t') {
                self.pos += 1;
            } else {
                break;
            }
        }
    }

    pub(super) fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    pub(super) fn eat(&mut self, b: u8, expected: &str) -> Res<()> {
        self.ws();
        if self.peek() == Some(b) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.syntax(expected))
        }
    }

    pub(super) fn word(&mut self, word: &'static [u8]) -> Res<()> {
        if self.bytes[self.pos..].starts_with(word) {
            self.pos += word.len();
            Ok(())
        } else {
            Err(self.syntax("`true`, `false` or `null`"))
        }
    }

    /// A string token at `pos` (which holds `"`). Each byte is read once: UTF-8 is checked by
    /// the same scan that finds the escapes and the closing quote.
    pub(super) fn string(&mut self) -> Res<Str<'b>> {
        let bytes = self.bytes;
        let start = self.pos + 1;
        let mut i = start;
        let mut escaped = false;
        // The first byte of the first sequence that is not UTF-8: said only once the string is
        // otherwise well formed (a control character or a bad escape after it is the error).
        let mut not_utf8 = None;
        loop {
            i = skip_plain(bytes, i);
            match bytes.get(i) {
                Some(b'"') => break,
                Some(b'\\') => {
                    escaped = true;
                    i = self.escape(i)?;
                }
                Some(0x80..) => i = utf8_run(bytes, i, &mut not_utf8),
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
        if let Some(at) = not_utf8 {
            self.pos = at;
            return Err(self.syntax("UTF-8 text"));
        }
        self.pos = i + 1;
        Ok(Str { raw: &bytes[start..i], escaped })
    }

    /// Checks the escape at `at` (a backslash); returns the index after it.
    pub(super) fn escape(&mut self, at: usize) -> Res<usize> {
        let bytes = self.bytes;
        match bytes.get(at + 1) {
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => Ok(at + 2),
            Some(b'u') => {
                // Four hex digits exactly: `from_str_radix` alone would also take a leading `+`
                // (`\u+041`), which JSON does not.
                let unit = |i: usize| -> Option<u16> {
                    let hex = bytes.get(i..i + 4)?;
                    if !hex.iter().all(u8::is_ascii_hexdigit) {
                        return None;
                    }
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
    pub(super) fn number(&mut self) -> Res<&'b [u8]> {
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
        let token = &bytes[start..i];
        // Past the range of a double (`1e400`) is not a number serde_json reads; only an
        // exponent or a long mantissa can get there.
        if (exponent || i - start > 300) && !ascii(token).parse::<f64>().is_ok_and(f64::is_finite) {
            self.pos = start;
            return Err(self.syntax("a number within the range of a double"));
        }
        self.pos = i;
        Ok(token)
    }

    // ----- decoding (only where a rule needs the text) -----

    // Out of line: inlined (into `declared_members`, where only errors read a key's text), it
    // cost every object's loop of twitter 1% more instructions.
    #[inline(never)]
    pub(super) fn decode(s: Str<'b>) -> Cow<'b, str> {
        if !s.escaped {
            return Cow::Borrowed(s.text());
        }
        Cow::Owned(unescape(s.text()))
    }

    /// Consumes the scalar or container at `pos` and describes it as errors do.
    pub(super) fn describe_and_skip(&mut self) -> Res<String> {
        match self.peek() {
            Some(b'"') => {
                let s = self.string()?;
                Ok(found::string(&Self::decode(s)))
            }
            Some(b'-' | b'0'..=b'9') => Ok(found::number(Num::parse(ascii(self.number()?)))),
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
    pub(super) fn skip(&mut self) -> Res<bool> {
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
                self.members(None, |this, key, _| {
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
    pub(super) fn skip_scalar(&mut self) -> Res<()> {
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
    pub(super) fn enter(&mut self) -> bool {
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
    pub(super) fn skip_too_deep(&mut self) -> Res<bool> {
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

    /// Iterates an object's members: `each(self, key, found)` consumes the member's value,
    /// where `found` is the position of the member among `declared` that the key names. A key
    /// named twice is counted and reported (`duplicate-key`, at the second one) but does not stop
    /// the iteration: a JSON reader keeps one of the two, and which is the ambiguity. Declared
    /// members are told apart by the returned [`Seen`] bits, other keys by [`Keys`].
    pub(super) fn members(
        &mut self,
        declared: Option<&Members>,
        mut each: impl FnMut(&mut Self, Str<'b>, Option<usize>) -> Res<bool>,
    ) -> Res<(bool, Seen)> {
        // At `{`.
        self.pos += 1;
        self.ws();
        let mut ok = true;
        let mut seen = Seen::new(declared.map_or(0, Members::len));
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok((true, seen));
        }
        let mut keys = Keys::default();
        let mut hint = 0;
        let ended = loop {
            self.ws();
            if self.peek() != Some(b'"') {
                break Err(self.syntax("a member name in double quotes"));
            }
            let key = self.string()?;
            self.eat(b':', "`:` after a member name")?;
            let found = declared.and_then(|members| self.find_member(members, key, hint));
            let fresh = match found {
                Some(i) => {
                    hint = i + 1;
                    let fresh = !seen.has(i);
                    seen.set(i);
                    fresh
                }
                None if self.track_keys => keys.insert(self, key),
                None => true,
            };
            if !fresh {
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
            ok &= each(self, key, found)?;
            if !ok && !self.detailed {
                break Ok((false, seen));
            }
            self.ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    break Ok((ok, seen));
                }
                _ => break Err(self.syntax("`,` or `}`")),
            }
        };
        keys.release(self);
        ended
    }

    /// The declared member a key names: compared as bytes when the key has no escapes (no text
    /// built), decoded first (into the reused buffer) when it has.
    fn find_member(&mut self, members: &Members, key: Str<'b>, hint: usize) -> Option<usize> {
        if key.escaped {
            self.with_text(key, |_, name| members.find(name))
        } else {
            members.find_from(key.raw, hint)
        }
    }

    /// `f` on the text of string `s`: in place without escapes, else decoded into the buffer
    /// this check keeps for it (kept across runs on the thread: no allocation once warm).
    pub(super) fn with_text<R>(&mut self, s: Str<'b>, f: impl FnOnce(&mut Self, &str) -> R) -> R {
        if !s.escaped {
            return f(self, s.text());
        }
        let mut text = std::mem::take(&mut self.scratch.text);
        text.clear();
        unescape_into(s.text(), &mut text);
        let result = f(self, &text);
        self.scratch.text = text;
        result
    }

    /// Iterates an array's elements: `each(self, index)` consumes the element. Returns the count.
    pub(super) fn elements(
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

    /// The value at `pos` as a `Value` (for literals and discriminator tags).
    pub(super) fn capture(&mut self) -> Res<Value> {
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
    pub(super) fn skip_quietly(&mut self) -> Res<()> {
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
}

/// What a `duplicate-key` error expects.
pub(super) const DUPLICATE_EXPECTED: &str = "each key named once";

/// The keys of one object read so far (those no declared member names): compared in place
/// while there are few (no allocation for a value without escapes), then hashed into a table
/// taken from the check's pool (a hostile object of 100,000 members costs one insertion each,
/// not a comparison with every other; the table's memory is reused from object to object and
/// run to run).
#[derive(Default)]
struct Keys<'b> {
    few: [Option<Str<'b>>; FEW_KEYS],
    count: usize,
    many: Option<KeyTable>,
}

/// How many keys are compared in place before they are hashed (few: the array is on the stack
/// of every object level, up to the depth limit).
const FEW_KEYS: usize = 8;

/// The keys of one object that are hashed: [`Table`] of where each is in the input.
pub(super) type KeyTable = Table<Span>;

/// Entries by a hash of their meaning (keyed per thread, so input cannot aim at collisions): the
/// first entry of each hash, and any other entry of the same hash (never seen in practice). For
/// the keys of large objects and the items of `uniqueItems` arrays; taken from a pool, cleared
/// and reused, so that a table costs no allocation once warm.
pub(super) struct Table<T> {
    first: std::collections::HashMap<u64, T, BuildHasherDefault<Prehashed>>,
    collided: Vec<(u64, T)>,
}

impl<T> Default for Table<T> {
    fn default() -> Self {
        Table { first: std::collections::HashMap::default(), collided: Vec::new() }
    }
}

impl<T: Copy> Table<T> {
    pub(super) fn clear(&mut self) {
        self.first.clear();
        self.collided.clear();
    }

    /// Adds `entry`, of hash `hash`, unless an entry that is `same` as it is there already:
    /// then returns that one (the earliest added, of those of its hash).
    pub(super) fn insert(
        &mut self,
        hash: u64,
        entry: T,
        mut same: impl FnMut(T) -> bool,
    ) -> Option<T> {
        let first = match self.first.entry(hash) {
            std::collections::hash_map::Entry::Vacant(vacant) => {
                vacant.insert(entry);
                return None;
            }
            std::collections::hash_map::Entry::Occupied(occupied) => *occupied.get(),
        };
        if same(first) {
            return Some(first);
        }
        let earlier = self.collided.iter().find(|&&(h, other)| h == hash && same(other));
        if let Some(&(_, other)) = earlier {
            return Some(other);
        }
        self.collided.push((hash, entry));
        None
    }
}

/// Where a key's raw text is in the input, and whether it has escapes.
#[derive(Clone, Copy)]
pub(super) struct Span {
    start: usize,
    len: usize,
    escaped: bool,
}

/// A hasher for keys that are hashes already.
#[derive(Default)]
struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

impl<'b> Keys<'b> {
    /// Adds `key`; `false` when it was there already.
    fn insert(&mut self, check: &mut ByteCheck<'_, 'b>, key: Str<'b>) -> bool {
        if let Some(table) = &mut self.many {
            return check.table_insert(table, key);
        }
        if self.few[..self.count].iter().flatten().any(|k| k.same_text(key)) {
            return false;
        }
        if self.count < FEW_KEYS {
            self.few[self.count] = Some(key);
            self.count += 1;
        } else {
            let mut table = check.scratch.tables.pop().unwrap_or_default();
            table.clear();
            for k in self.few.iter().flatten().chain([&key]) {
                check.table_insert(&mut table, *k);
            }
            self.many = Some(table);
        }
        true
    }

    /// Gives the table (if one was taken) back to the pool.
    fn release(self, check: &mut ByteCheck<'_, 'b>) {
        if let Some(table) = self.many {
            check.scratch.tables.push(table);
        }
    }
}

impl<'b> ByteCheck<'_, 'b> {
    fn span(&self, key: Str<'b>) -> Span {
        // `raw` is a slice of `bytes`: its offset is the distance between their starts.
        let start = key.raw.as_ptr() as usize - self.bytes.as_ptr() as usize;
        Span { start, len: key.raw.len(), escaped: key.escaped }
    }

    fn key_at(&self, span: Span) -> Str<'b> {
        Str { raw: &self.bytes[span.start..span.start + span.len], escaped: span.escaped }
    }

    /// Adds `key` to `table`; `false` when a key of the same text is there already.
    fn table_insert(&mut self, table: &mut KeyTable, key: Str<'b>) -> bool {
        let hasher = self.scratch.hasher.clone();
        let hash = self.with_text(key, |_, text| hasher.hash_one(text));
        let span = self.span(key);
        table.insert(hash, span, |other| self.key_at(other).same_text(key)).is_none()
    }
}

/// The index of the first byte from `i` that a string's scan must look at: `"`, `\\`, a control
/// character, or a byte past 0x7f (UTF-8 to check); the end of `bytes` if none. Eight bytes at a
/// time, SWAR: a byte equal to `c` is a zero byte of `word ^ c…`, flagged by `(x - 0x01…) & !x
/// & 0x80…`; a byte below 0x20 is flagged by `(word - 0x20…) & !word & 0x80…`; a byte past 0x7f
/// by `word & 0x80…`. A borrow runs only upwards from a flagged byte, so the lowest flag of a
/// word is exact and its bit gives the position.
fn skip_plain(bytes: &[u8], mut i: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let has_zero = |w: u64| w.wrapping_sub(ONES) & !w & HIGH;
    while let Some(chunk) = bytes.get(i..i + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        let flagged = has_zero(w ^ (ONES * u64::from(b'"')))
            | has_zero(w ^ (ONES * u64::from(b'\\')))
            | (w.wrapping_sub(ONES * 0x20) & !w & HIGH)
            | (w & HIGH);
        if flagged != 0 {
            return i + (flagged.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    // The tail, shorter than a word.
    while bytes.get(i).is_some_and(|&b| !matches!(b, b'"' | b'\\' | 0..=0x1f | 0x80..)) {
        i += 1;
    }
    i
}

/// Checks the UTF-8 sequences from `i` (a byte past 0x7f) up to the next ASCII byte, and returns
/// its index. The first byte of the first sequence that is not UTF-8 goes into `not_utf8` (only
/// the first is reported, as `str::from_utf8` finds it).
/// A number token as text. The lexer took only ASCII into it, so this never falls back; it is
/// asked only where the number is read (a bound, an enum, an error), never to skip one: on
/// canada, whose numbers no rule reads, the conversion was a fifth of the bytes path.
pub(super) fn ascii(token: &[u8]) -> &str {
    std::str::from_utf8(token).unwrap_or_default()
}

fn utf8_run(bytes: &[u8], mut i: usize, not_utf8: &mut Option<usize>) -> usize {
    while let Some(rest) = bytes.get(i..)
        && rest.first().is_some_and(|&b| b > 0x7f)
    {
        match utf8_sequence(rest) {
            Some(len) => i += len,
            None => {
                not_utf8.get_or_insert(i);
                i += 1;
            }
        }
    }
    i
}

/// The length of the UTF-8 sequence that `bytes` starts with (at a byte past 0x7f), or `None`
/// when it is not one: a continuation byte first, an overlong form, a surrogate, past U+10FFFF,
/// or cut short. The well-formed sequences of the Unicode standard (table 3-7), which
/// `str::from_utf8` accepts.
fn utf8_sequence(bytes: &[u8]) -> Option<usize> {
    // The commonest first (the order of the arms is the order of the tests: 9.63 M -> 9.27 M
    // instructions per run of twitter): a character of U+1000..U+CFFF or U+E000..U+FFFF, which
    // holds most of CJK, then two bytes.
    let len = match *bytes {
        [0xe1..=0xec | 0xee..=0xef, 0x80..=0xbf, 0x80..=0xbf, ..] => 3,
        [0xc2..=0xdf, 0x80..=0xbf, ..] => 2,
        [0xe0, 0xa0..=0xbf, 0x80..=0xbf, ..] | [0xed, 0x80..=0x9f, 0x80..=0xbf, ..] => 3,
        [0xf0, 0x90..=0xbf, 0x80..=0xbf, 0x80..=0xbf, ..]
        | [0xf1..=0xf3, 0x80..=0xbf, 0x80..=0xbf, 0x80..=0xbf, ..]
        | [0xf4, 0x80..=0x8f, 0x80..=0xbf, 0x80..=0xbf, ..] => 4,
        _ => return None,
    };
    Some(len)
}

/// The text of a string whose escapes the scanner checked (so every escape is well formed and
/// surrogates come in pairs). One allocation, for the result.
pub(super) fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    unescape_into(raw, &mut out);
    out
}

/// [`unescape`] into `out` (appended), for a buffer that is reused.
pub(super) fn unescape_into(raw: &str, out: &mut String) {
    let mut chars = raw.chars();
    // The four digits read in place (no `String` per escape: this runs on the valid path).
    let hex = |chars: &mut std::str::Chars<'_>| -> u32 {
        let rest = chars.as_str();
        let (digits, after) = rest.split_at_checked(4).unwrap_or((rest, ""));
        *chars = after.chars();
        u32::from_str_radix(digits, 16).unwrap_or(0xfffd)
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
}

#[cfg(test)]
mod tests {
    use super::skip_plain;

    #[test]
    fn skip_plain_stops_at_the_first_byte_to_look_at() {
        for special in [b'"', b'\\', 0x00, 0x1f, b'\n', 0x80, 0xc3, 0xff] {
            for at in 0..48 {
                let mut text = vec![b'a'; 48];
                text[at] = special;
                // Every byte that needs no attention, around it.
                text[(at + 7) % 48] = 0x7f;
                text[(at + 9) % 48] = b' ';
                assert_eq!(skip_plain(&text, 0), at, "{special:#x} at {at}");
                // Another flagged byte after it does not move the stop (a borrow runs upwards).
                text[(at + 1).min(47)] = 0x00;
                assert_eq!(skip_plain(&text, 0), at, "{special:#x} at {at}, 0x00 after it");
            }
        }
        assert_eq!(skip_plain(&[b'x'; 20], 0), 20, "the tail shorter than a word");
        assert_eq!(skip_plain(&[b'x'; 20], 3), 20);
    }

    #[test]
    fn utf8_sequences_are_those_std_accepts() {
        // Every lead byte with every second byte, and a third and fourth byte in and out of the
        // continuation range: the length agrees with `str::from_utf8` of the sequence alone.
        for lead in 0x80..=0xffu8 {
            for second in 0..=0xffu8 {
                for rest in [[0x80, 0x80], [0xbf, 0xbf], [0x80, 0x41], [0x41, 0x80], [0xc0, 0xbf]] {
                    let bytes = [lead, second, rest[0], rest[1]];
                    let want = (1..=4).find(|&n| std::str::from_utf8(&bytes[..n]).is_ok());
                    let got = super::utf8_sequence(&bytes);
                    assert_eq!(got, want, "{bytes:02x?}");
                }
            }
        }
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
