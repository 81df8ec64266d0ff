//! Source positions: byte spans, lines and columns, and the map between JSON Pointers and the
//! places in the text where they stand.
//!
//! The reader itself works on a parsed JSON value, which carries no positions. Positions are
//! recovered from the text on demand by a small structural scan: it is tolerant (it never fails,
//! so it can also say where a syntax error stands) and iterative (100,000-deep nesting costs
//! memory, not stack).

use std::cell::{Cell, OnceCell};
use std::collections::HashMap;

use crate::Pointer;
use crate::pointer::{push_escaped_key as push_key, push_index_segment as push_index};

/// A byte range `start..end` into the document text. `start <= end` always holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Span {
    /// The first byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// The length in bytes.
    pub fn len(&self) -> usize {
        self.end - self.start
    }

    /// Whether the span covers no byte (a point, such as the end of a truncated file).
    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }
}

/// A place in the text: byte offset, and 1-based line and column (columns count Unicode
/// scalar values, as editors do).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Byte offset from the start of the text.
    pub offset: usize,
    /// 1-based line number.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

/// Where a JSON value stands in the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Located {
    /// The member's key (with its quotes), when the value is an object member.
    pub key: Option<Span>,
    /// The value's first token: the whole token for a scalar, the opening bracket for a container.
    pub value: Span,
}

impl Located {
    /// The span a diagnostic should point at: the key when there is one (it names the thing),
    /// else the value's first token.
    pub fn label(&self) -> Span {
        self.key.unwrap_or(self.value)
    }
}

/// The positions of one document's text.
///
/// Building it is free. The first [`SourceMap::locate`] scans the text for that one pointer;
/// a second builds an index of every value's place in one scan, so that reporting many
/// findings on a large document stays linear. Line starts are indexed on the first
/// [`SourceMap::position`].
#[derive(Clone, Debug)]
pub struct SourceMap<'a> {
    text: &'a str,
    lookups: Cell<u32>,
    index: OnceCell<HashMap<Box<str>, Located>>,
    line_starts: OnceCell<Vec<usize>>,
}

impl<'a> SourceMap<'a> {
    /// A map over `text`.
    pub fn new(text: &'a str) -> Self {
        SourceMap {
            text,
            lookups: Cell::new(0),
            index: OnceCell::new(),
            line_starts: OnceCell::new(),
        }
    }

    /// The text this map describes.
    pub fn text(&self) -> &'a str {
        self.text
    }

    /// Line and column of a byte offset (clamped to the text, and to a character boundary).
    pub fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let starts = self.line_starts.get_or_init(|| {
            std::iter::once(0).chain(self.text.match_indices('\n').map(|(at, _)| at + 1)).collect()
        });
        // The last line start at or before `offset`.
        let line = starts.partition_point(|&start| start <= offset);
        let line_start = starts[line - 1];
        Position { offset, line, column: self.text[line_start..offset].chars().count() + 1 }
    }

    /// The span of the one character at `offset` (moved back to a character boundary); empty
    /// at the end of the text.
    pub fn char_span(&self, offset: usize) -> Span {
        let mut start = offset.min(self.text.len());
        while !self.text.is_char_boundary(start) {
            start -= 1;
        }
        let end = self.text[start..].chars().next().map_or(start, |c| start + c.len_utf8());
        Span { start, end }
    }

    /// The byte offset of a 1-based line and a 1-based *byte* column, as serde_json reports them.
    pub fn offset_of_line_byte_column(&self, line: usize, column: usize) -> usize {
        let mut line_start = 0;
        for _ in 1..line {
            match self.text[line_start..].find('\n') {
                Some(at) => line_start += at + 1,
                None => return self.text.len(),
            }
        }
        (line_start + column.saturating_sub(1)).min(self.text.len())
    }

    /// Where the value named by `pointer` stands, if the text has it.
    pub fn locate(&self, pointer: &Pointer) -> Option<Located> {
        if let Some(index) = self.index.get() {
            return index.get(pointer.as_str()).copied();
        }
        if self.lookups.replace(self.lookups.get() + 1) == 0 {
            // One lookup (a parse error): a scan that stops at the value is cheaper than an index.
            let mut found = None;
            scan(self.text, usize::MAX, |path, located| {
                if path == pointer.as_str() {
                    found = Some(located);
                    return Flow::Stop;
                }
                Flow::Continue
            });
            return found;
        }
        let index = self.index.get_or_init(|| {
            let mut all = HashMap::new();
            scan(self.text, usize::MAX, |path, located| {
                all.insert(Box::from(path), located);
                Flow::Continue
            });
            all
        });
        index.get(pointer.as_str()).copied()
    }

    /// Where each of `pointers` stands, in one scan that descends only into containers on the
    /// way to a wanted pointer: locating a report's findings in a large document costs one pass
    /// and builds no index.
    pub fn locate_all(&self, pointers: &[&Pointer]) -> Vec<Option<Located>> {
        let mut found = vec![None; pointers.len()];
        let mut wanted: HashMap<&str, Vec<usize>> = HashMap::new();
        let mut on_the_way: std::collections::HashSet<&str> = std::collections::HashSet::new();
        for (i, p) in pointers.iter().enumerate() {
            let text = p.as_str();
            wanted.entry(text).or_default().push(i);
            on_the_way.insert("");
            for (at, _) in text.match_indices('/').skip(1) {
                on_the_way.insert(&text[..at]);
            }
        }
        let mut left = wanted.len();
        if left == 0 {
            return found;
        }
        let text = self.text;
        scan(text, usize::MAX, |path, located| {
            if let Some(indices) = wanted.get(path)
                && found[indices[0]].is_none()
            {
                for &i in indices {
                    found[i] = Some(located);
                }
                left -= 1;
                if left == 0 {
                    return Flow::Stop;
                }
            }
            let container = matches!(text.as_bytes().get(located.value.start), Some(b'{' | b'['));
            if container && !on_the_way.contains(path) { Flow::SkipValue } else { Flow::Continue }
        });
        found
    }

    /// Where the second value named by `pointer` stands: the member of a duplicate key that
    /// came second (the two share one pointer, so the first is what [`SourceMap::locate`] finds).
    pub(crate) fn locate_second(&self, pointer: &Pointer) -> Option<Located> {
        let mut seen = 0;
        let mut found = None;
        scan(self.text, usize::MAX, |path, located| {
            if path == pointer.as_str() {
                seen += 1;
                if seen == 2 {
                    found = Some(located);
                    return Flow::Stop;
                }
            }
            Flow::Continue
        });
        found
    }

    /// The first value whose token (a scalar's whole text, a container's opening bracket)
    /// satisfies `test`, with its pointer.
    pub(crate) fn find_token(&self, test: impl Fn(&str) -> bool) -> Option<(Pointer, Span)> {
        let mut found = None;
        scan(self.text, usize::MAX, |path, located| {
            if test(&self.text[located.value.start..located.value.end]) {
                found = Some((Pointer::from_escaped(path.to_owned()), located.value));
                return Flow::Stop;
            }
            Flow::Continue
        });
        found
    }

    /// The pointer of the innermost value being read at byte `offset`, and the key of the member
    /// read last there. Used to say where a syntax error stands.
    pub fn pointer_at(&self, offset: usize) -> (Pointer, Option<Span>) {
        // The visitor does nothing: copying the path at every value would make a deep
        // document quadratic (found by fuzzing: 60,000 `[` then a byte that is not UTF-8).
        match scan(self.text, offset, |_, _| Flow::Continue) {
            Some((path, key)) => (Pointer::from_escaped(path), key),
            // Past the end of the root value (trailing text): the root was read whole.
            None => (Pointer::root(), None),
        }
    }
}

enum Flow {
    Continue,
    Stop,
    /// Do not descend into the container that starts here (nothing wanted is inside it).
    SkipValue,
}

enum Frame {
    Object {
        key: Option<(String, Span)>,
        /// Whether the value of `key` has been read to its end.
        done: bool,
        path_len: usize,
    },

    Array {
        index: usize,
        path_len: usize,
    },
}

/// Scans `text` up to byte `limit`, calling `visit(pointer, located)` at the start of
/// every value. Returns the open path at `limit` (with the last key's span) when the scan
/// stopped there.
fn scan(
    text: &str,
    limit: usize,
    mut visit: impl FnMut(&str, Located) -> Flow,
) -> Option<(String, Option<Span>)> {
    let bytes = text.as_bytes();
    let mut path = String::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = 0;
    // Whether the next string token in an object is a key.
    let mut expect_key = false;
    let mut pending_key: Option<Span> = None;
    let mut root_seen = false;

    // The place the scan stands: inside the member being read, or, once its value has ended,
    // in the object that holds it (with that member's key, the last one read).
    let open_path = |path: &str, stack: &[Frame]| match stack.last() {
        Some(Frame::Object { key: Some((_, span)), done, path_len }) => {
            let at = if *done { &path[..*path_len] } else { path };
            (at.to_owned(), Some(*span))
        }
        _ => (path.to_owned(), None),
    };
    let member_done = |stack: &mut [Frame]| {
        if let Some(Frame::Object { done, .. }) = stack.last_mut() {
            *done = true;
        }
    };

    while i < bytes.len() {
        if i >= limit {
            return Some(open_path(&path, &stack));
        }
        let b = bytes[i];
        match b {
            b' ' | b'\t' | b'\n' | b'\r' | b':' => i += 1,
            b',' => {
                match stack.last_mut() {
                    Some(Frame::Object { .. }) => expect_key = true,
                    Some(Frame::Array { index, path_len }) => {
                        *index += 1;
                        path.truncate(*path_len);
                        let idx = *index;
                        push_index(&mut path, idx);
                    }
                    None => {}
                }
                i += 1;
            }
            b'}' | b']' => {
                if let Some(frame) = stack.pop() {
                    let len = match frame {
                        Frame::Object { path_len, .. } | Frame::Array { path_len, .. } => path_len,
                    };
                    path.truncate(len);
                }
                member_done(&mut stack);
                expect_key = false;
                i += 1;
            }
            b'"' if expect_key => {
                let end = string_end(bytes, i);
                let span = Span { start: i, end };
                let key = unescape(&text[i..end]);
                if let Some(Frame::Object { key: slot, done, path_len }) = stack.last_mut() {
                    path.truncate(*path_len);
                    push_key(&mut path, &key);
                    *slot = Some((key, span));
                    *done = false;
                }
                pending_key = Some(span);
                expect_key = false;
                i = end;
            }
            _ => {
                // The start of a value.
                if stack.is_empty() && root_seen {
                    // Trailing garbage after the root value: nothing more to map.
                    return None;
                }
                root_seen = true;
                let end = match b {
                    b'"' => string_end(bytes, i),
                    b'{' | b'[' => i + 1,
                    _ => scalar_end(bytes, i),
                };
                let located = Located { key: pending_key.take(), value: Span { start: i, end } };
                match visit(&path, located) {
                    Flow::Stop => return None,
                    Flow::SkipValue if matches!(b, b'{' | b'[') => {
                        // Only `locate_all` skips, and it never asks where a scan stopped.
                        i = container_end(bytes, i);
                        member_done(&mut stack);
                        continue;
                    }
                    _ => {}
                }
                match b {
                    b'{' => {
                        stack.push(Frame::Object { key: None, done: false, path_len: path.len() });
                        expect_key = true;
                    }
                    b'[' => {
                        let path_len = path.len();
                        stack.push(Frame::Array { index: 0, path_len });
                        push_index(&mut path, 0);
                    }
                    // A scalar that runs to the end of the text may be cut short.
                    _ if end < bytes.len() => member_done(&mut stack),
                    _ => {}
                }
                i = end;
            }
        }
        // An empty array `[]`: the index segment pushed for element 0 names nothing, and the
        // closing bracket above truncates it away.
    }
    if limit != usize::MAX {
        return Some(open_path(&path, &stack));
    }
    None
}

/// One past the bracket that closes the container opening at `start` (or the end of the text),
/// strings skipped whole so that brackets inside them do not count. No recursion.
fn container_end(bytes: &[u8], start: usize) -> usize {
    let mut depth = 0usize;
    let mut i = start;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i = string_end(bytes, i);
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    bytes.len()
}

/// One past the closing quote of the string starting at `start` (or the end of the text).
fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// One past the last byte of a number or a bare word (`true`, `null`, or garbage).
fn scalar_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < bytes.len()
        && !matches!(
            bytes[i],
            b',' | b'}' | b']' | b':' | b'"' | b' ' | b'\t' | b'\n' | b'\r' | b'{' | b'['
        )
    {
        i += 1;
    }
    i
}

/// The text of a quoted key, unescaped; the raw text between the quotes when it is malformed.
fn unescape(quoted: &str) -> String {
    if !quoted.contains('\\') {
        return quoted.trim_start_matches('"').trim_end_matches('"').to_owned();
    }
    serde_json::from_str::<String>(quoted)
        .unwrap_or_else(|_| quoted.trim_start_matches('"').trim_end_matches('"').to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = r#"{
  "a": {"b": [10, {"c~/": "x"}]},
  "d": []
}"#;

    #[test]
    fn locates_members_and_elements() {
        let map = SourceMap::new(TEXT);
        let c = map.locate(&Pointer::root().key("a").key("b").index(1).key("c~/")).unwrap();
        assert_eq!(&TEXT[c.value.start..c.value.end], r#""x""#);
        assert_eq!(&TEXT[c.label().start..c.label().end], r#""c~/""#);
        let ten = map.locate(&Pointer::root().key("a").key("b").index(0)).unwrap();
        assert_eq!(&TEXT[ten.value.start..ten.value.end], "10");
        assert!(map.locate(&Pointer::root().key("d").index(0)).is_none());
        assert_eq!(map.locate(&Pointer::root()).unwrap().value.start, 0);
    }

    #[test]
    fn the_index_answers_as_the_scan_does() {
        let pointers = [
            Pointer::root(),
            Pointer::root().key("a"),
            Pointer::root().key("a").key("b").index(1).key("c~/"),
            Pointer::root().key("d"),
            Pointer::root().key("nope"),
        ];
        let scanned: Vec<_> = pointers.iter().map(|p| SourceMap::new(TEXT).locate(p)).collect();
        let map = SourceMap::new(TEXT);
        let indexed: Vec<_> = pointers.iter().map(|p| map.locate(p)).collect();
        assert!(map.index.get().is_some(), "the second lookup builds the index");
        assert_eq!(scanned, indexed);
        for offset in 0..=TEXT.len() {
            let slow = {
                let before = &TEXT[..offset];
                let line_start = before.rfind('\n').map_or(0, |at| at + 1);
                (before.matches('\n').count() + 1, before[line_start..].chars().count() + 1)
            };
            let fast = map.position(offset);
            assert_eq!((fast.line, fast.column), slow, "at {offset}");
        }
    }

    #[test]
    fn locate_all_answers_as_locate_does() {
        let pointers = [
            Pointer::root().key("a").key("b").index(1).key("c~/"),
            Pointer::root().key("d"),
            Pointer::root().key("nope"),
            Pointer::root().key("a"),
            Pointer::root().key("a").key("b").index(0),
            Pointer::root().key("d"),
        ];
        let one_by_one: Vec<_> = pointers.iter().map(|p| SourceMap::new(TEXT).locate(p)).collect();
        let refs: Vec<&Pointer> = pointers.iter().collect();
        assert_eq!(SourceMap::new(TEXT).locate_all(&refs), one_by_one);
        // Brackets inside strings of a skipped container do not end it early.
        let text = r#"{"skip": {"x": "]}]}", "y": [1, "[["]}, "want": [0, {"k": true}]}"#;
        let want = Pointer::root().key("want").index(1).key("k");
        let got = SourceMap::new(text).locate_all(&[&want]);
        assert_eq!(got[0], SourceMap::new(text).locate(&want));
        assert!(got[0].is_some());
    }

    #[test]
    fn position_counts_characters() {
        let map = SourceMap::new("{\n  \"é\": x}");
        let at = map.position(10);
        assert_eq!((at.line, at.column), (2, 8));
    }

    #[test]
    fn pointer_at_a_truncation_is_the_open_container() {
        let text = r#"{"a": {"b": [1, 2"#;
        let (p, _) = SourceMap::new(text).pointer_at(text.len());
        assert_eq!(p.as_str(), "/a/b/1");
    }

    #[test]
    fn deep_nesting_does_not_recurse() {
        let text = "[".repeat(100_000);
        let (p, _) = SourceMap::new(&text).pointer_at(text.len());
        assert_eq!(p.as_str().len(), 2 * 100_000);
    }
}
