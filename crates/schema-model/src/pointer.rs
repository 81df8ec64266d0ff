//! JSON Pointers (RFC 6901), the way every error and every later layer names a place in a document.

use std::fmt;

/// A JSON Pointer such as `/namespaces/pump/methods/start/params/0`.
///
/// The empty pointer names the document root. Segments are escaped as RFC 6901 says
/// (`~` as `~0`, `/` as `~1`), so a pointer names exactly one place.
#[derive(Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pointer(String);

impl Pointer {
    /// The pointer to the document root.
    pub fn root() -> Self {
        Pointer(String::new())
    }

    /// The pointer text as RFC 6901 writes it (empty for the root).
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether this is the root pointer.
    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }

    /// This pointer with one object key appended.
    pub fn key(&self, key: &str) -> Self {
        self.below(&[key], None)
    }

    /// This pointer with one array index appended.
    pub fn index(&self, index: usize) -> Self {
        self.below(&[], Some(index))
    }

    /// This pointer with `keys` and then `index` appended, in one allocation (a pointer is made
    /// for every node of a walk; growing a copy segment by segment reallocated it each time).
    pub fn below(&self, keys: &[&str], index: Option<usize>) -> Self {
        // Room for unescaped keys and a 20-digit index; an escape may still grow it.
        let room = keys.iter().map(|k| k.len() + 1).sum::<usize>() + index.map_or(0, |_| 21);
        let mut text = String::with_capacity(self.0.len() + room);
        text.push_str(&self.0);
        for key in keys {
            push_escaped_key(&mut text, key);
        }
        if let Some(i) = index {
            push_index_segment(&mut text, i);
        }
        Pointer(text)
    }

    /// Appends one object key, escaped.
    pub fn push_key(&mut self, key: &str) {
        push_escaped_key(&mut self.0, key);
    }

    /// Appends one array index.
    pub fn push_index(&mut self, index: usize) {
        push_index_segment(&mut self.0, index);
    }

    /// A pointer from text that is already escaped (built by `push_escaped_key`).
    pub(crate) fn from_escaped(text: String) -> Self {
        Pointer(text)
    }

    /// Removes the last segment; the root stays the root.
    pub fn pop(&mut self) {
        match self.0.rfind('/') {
            Some(at) => self.0.truncate(at),
            None => self.0.clear(),
        }
    }
}

/// Appends `/key` to raw pointer text, escaped as RFC 6901 says.
pub(crate) fn push_escaped_key(buf: &mut String, key: &str) {
    buf.push('/');
    // Keys rarely need escaping: most are copied whole rather than a character at a time.
    if !key.bytes().any(|b| b == b'~' || b == b'/') {
        buf.push_str(key);
        return;
    }
    for c in key.chars() {
        match c {
            '~' => buf.push_str("~0"),
            '/' => buf.push_str("~1"),
            c => buf.push(c),
        }
    }
}

/// Appends `/index` to raw pointer text.
pub(crate) fn push_index_segment(buf: &mut String, index: usize) {
    use fmt::Write;
    // Writing to a String cannot fail.
    let _ = write!(buf, "/{index}");
}

impl fmt::Display for Pointer {
    /// The root is shown as `/` would be ambiguous (it names the key `""`), so it is shown as `(root)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() { f.write_str("(root)") } else { f.write_str(&self.0) }
    }
}

impl fmt::Debug for Pointer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Pointer({:?})", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::Pointer;

    #[test]
    fn escapes_tilde_and_slash() {
        let p = Pointer::root().key("a/b").key("c~d").index(3);
        assert_eq!(p.as_str(), "/a~1b/c~0d/3");
        assert_eq!(Pointer::root().key("~/~é/").as_str(), "/~0~1~0é~1");
        assert_eq!(Pointer::root().key("").as_str(), "/");
        let below = Pointer::root().key("a").below(&["fields", "x/y", "type"], Some(12));
        assert_eq!(below.as_str(), "/a/fields/x~1y/type/12");
    }

    #[test]
    fn pop_returns_to_parent_and_stops_at_root() {
        let mut p = Pointer::root().key("x").key("y");
        p.pop();
        assert_eq!(p.as_str(), "/x");
        p.pop();
        p.pop();
        assert!(p.is_root());
        assert_eq!(p.to_string(), "(root)");
    }
}
