//! The common shape of a contract's `pattern` decided without the regex engine: anchored at the
//! start, then pieces that are each an ASCII byte class repeated `min..=max` times (a literal
//! byte is a class of one), or an alternation of such sequences that the next byte decides;
//! anchored at the end or not. `^0x[0-9a-f]{64}$`, `^0x(0|[1-9a-f][0-9a-f]*)$`,
//! `^[A-Z]+-[0-9]+$`: the Ethereum contract's hashes and quantities, a sensor's name. Such a
//! pattern is matched in one pass over the bytes, without backtracking, because it is accepted
//! here only when no choice is ever open: a piece of variable count has a class no byte of
//! which can start what follows it, and an alternation's arms start with different bytes and
//! match no empty string. Any other pattern (and any class with a non-ASCII character, so that
//! counting bytes is counting characters) is left to the `regex` crate. The regex engine's
//! lazy DFA costs about 2 ns a byte plus a call and a cache lookup per string; this is a
//! table lookup per byte.

use regex_syntax::hir::{Class, Hir, HirKind, Look};

/// A set of ASCII bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Set(u128);

impl Set {
    fn has(self, b: u8) -> bool {
        b < 128 && self.0 >> b & 1 == 1
    }

    fn union(self, other: Set) -> Set {
        Set(self.0 | other.0)
    }

    fn meets(self, other: Set) -> bool {
        self.0 & other.0 != 0
    }

    fn range(lo: u32, hi: u32) -> Option<Set> {
        if hi >= 128 || lo > hi {
            return None;
        }
        let ones = if hi - lo == 127 { u128::MAX } else { (1u128 << (hi - lo + 1)) - 1 };
        Some(Set(ones << lo))
    }
}

#[derive(Debug, Clone)]
enum Piece {
    /// A byte of `set`, `min..=max` times, as many as there are. `table` is `set` as one flag
    /// per byte value: the loop's test is one load (a shift of a `u128` is several).
    Run { set: Set, table: Box<[bool; 256]>, min: u32, max: u32 },
    /// These bytes exactly (consecutive literal bytes, joined once the shape is known).
    Literal(Box<[u8]>),
    /// One of the arms, picked by the first byte.
    Either(Vec<(Set, Vec<Piece>)>),
}

impl Piece {
    fn run(set: Set, min: u32, max: u32) -> Piece {
        let mut table = Box::new([false; 256]);
        for b in 0..128u8 {
            table[usize::from(b)] = set.has(b);
        }
        Piece::Run { set, table, min, max }
    }

    /// The one byte this piece matches, if it is one byte exactly.
    fn byte(&self) -> Option<u8> {
        match self {
            Piece::Run { set, min: 1, max: 1, .. } if set.0.count_ones() == 1 => {
                u8::try_from(set.0.trailing_zeros()).ok()
            }
            _ => None,
        }
    }
}

/// `pieces` with each run of one-byte pieces joined into a [`Piece::Literal`], in alternations
/// too.
fn join(pieces: Vec<Piece>) -> Vec<Piece> {
    let mut out = Vec::with_capacity(pieces.len());
    let mut literal = Vec::new();
    for piece in pieces {
        if let Some(b) = piece.byte() {
            literal.push(b);
            continue;
        }
        if !literal.is_empty() {
            out.push(Piece::Literal(std::mem::take(&mut literal).into()));
        }
        out.push(match piece {
            Piece::Either(arms) => {
                Piece::Either(arms.into_iter().map(|(first, arm)| (first, join(arm))).collect())
            }
            other => other,
        });
    }
    if !literal.is_empty() {
        out.push(Piece::Literal(literal.into()));
    }
    out
}

/// A pattern this module decides.
#[derive(Debug, Clone)]
pub(crate) struct Classes {
    pieces: Vec<Piece>,
    /// Whether the pattern ends with `$`: the match must end with the text.
    to_end: bool,
}

impl Classes {
    /// The matcher of `pattern`, when it has the shape (see the module doc).
    pub(crate) fn new(pattern: &str) -> Option<Classes> {
        let hir = regex_syntax::Parser::new().parse(pattern).ok()?;
        let mut parts: Vec<&Hir> = match hir.kind() {
            HirKind::Concat(parts) => parts.iter().collect(),
            _ => vec![&hir],
        };
        if !matches!(parts.first()?.kind(), HirKind::Look(Look::Start)) {
            return None;
        }
        parts.remove(0);
        let to_end = matches!(parts.last().map(|h| h.kind()), Some(HirKind::Look(Look::End)));
        if to_end {
            parts.pop();
        } else {
            // Without `$`, a trailing piece that can match nothing never decides a match.
            while let Some(HirKind::Repetition(r)) = parts.last().map(|h| h.kind()) {
                if r.min != 0 {
                    break;
                }
                parts.pop();
            }
        }
        let mut pieces = Vec::new();
        for part in parts {
            sequence(part, &mut pieces)?;
        }
        decided(&pieces, Set::default()).then(|| Classes { pieces: join(pieces), to_end })
    }

    /// The one text the pattern matches, when it is a literal anchored at both ends
    /// (`^0x2$`: a transaction's `type`).
    pub(crate) fn literal(&self) -> Option<&[u8]> {
        match (self.to_end, &self.pieces[..]) {
            (true, [Piece::Literal(bytes)]) => Some(bytes),
            (true, []) => Some(&[]),
            _ => None,
        }
    }

    /// Whether `text` matches.
    #[inline]
    pub(crate) fn is_match(&self, text: &str) -> bool {
        self.is_match_bytes(text.as_bytes())
    }

    /// Whether the text of `bytes` (UTF-8) matches: every class and literal is ASCII, and no
    /// byte of a multi-byte character is, so bytes and characters answer alike.
    #[inline]
    pub(crate) fn is_match_bytes(&self, bytes: &[u8]) -> bool {
        match run(&self.pieces, bytes, 0) {
            Some(end) => !self.to_end || end == bytes.len(),
            None => false,
        }
    }
}

/// Appends `hir`'s pieces to `out`; `None` when it is not of the shape.
fn sequence(hir: &Hir, out: &mut Vec<Piece>) -> Option<()> {
    match hir.kind() {
        HirKind::Empty => {}
        HirKind::Literal(lit) => {
            for &b in lit.0.iter() {
                // A non-ASCII literal's bytes match as bytes: UTF-8 is a prefix code.
                let set = if b < 128 { Set::range(b.into(), b.into())? } else { return None };
                out.push(Piece::run(set, 1, 1));
            }
        }
        HirKind::Class(class) => out.push(Piece::run(class_set(class)?, 1, 1)),
        HirKind::Repetition(rep) => {
            let set = match rep.sub.kind() {
                HirKind::Class(class) => class_set(class)?,
                HirKind::Literal(lit) if lit.0.len() == 1 && lit.0[0] < 128 => {
                    Set::range(lit.0[0].into(), lit.0[0].into())?
                }
                _ => return None,
            };
            let max = rep.max.unwrap_or(u32::MAX);
            out.push(Piece::run(set, rep.min, max));
        }
        HirKind::Capture(capture) => sequence(&capture.sub, out)?,
        HirKind::Concat(parts) => {
            for part in parts {
                sequence(part, out)?;
            }
        }
        HirKind::Alternation(arms) => {
            let mut either = Vec::new();
            for arm in arms {
                let mut pieces = Vec::new();
                sequence(arm, &mut pieces)?;
                let (first, empty) = first(&pieces);
                if empty {
                    return None;
                }
                either.push((first, pieces));
            }
            out.push(Piece::Either(either));
        }
        HirKind::Look(_) => return None,
    }
    Some(())
}

/// The ASCII bytes of `class`; `None` if it has any other character.
fn class_set(class: &Class) -> Option<Set> {
    let mut set = Set::default();
    match class {
        Class::Unicode(c) => {
            for r in c.ranges() {
                set = set.union(Set::range(r.start().into(), r.end().into())?);
            }
        }
        Class::Bytes(c) => {
            for r in c.ranges() {
                set = set.union(Set::range(r.start().into(), r.end().into())?);
            }
        }
    }
    Some(set)
}

/// The bytes that can start `pieces`, and whether they can match the empty string.
fn first(pieces: &[Piece]) -> (Set, bool) {
    let mut set = Set::default();
    for piece in pieces {
        match piece {
            Piece::Run { set: s, min, .. } => {
                set = set.union(*s);
                if *min > 0 {
                    return (set, false);
                }
            }
            Piece::Literal(bytes) => {
                // Joined only after the shape is checked; a literal is never empty.
                let b = u32::from(bytes[0]);
                return (set.union(Set::range(b, b).unwrap_or_default()), false);
            }
            Piece::Either(arms) => {
                // Every arm matches something (checked when it was built).
                return (arms.iter().fold(set, |acc, (s, _)| acc.union(*s)), false);
            }
        }
    }
    (set, true)
}

/// Whether matching `pieces` greedily, followed by something that starts with a byte of
/// `follow` (or by nothing), never has a choice to make.
fn decided(pieces: &[Piece], follow: Set) -> bool {
    for (i, piece) in pieces.iter().enumerate() {
        let (rest, empty) = first(&pieces[i + 1..]);
        let after = if empty { rest.union(follow) } else { rest };
        match piece {
            Piece::Run { set, min, max, .. } => {
                if min != max && set.meets(after) {
                    return false;
                }
            }
            Piece::Literal(_) => {}
            Piece::Either(arms) => {
                let mut seen = Set::default();
                for (start, arm) in arms {
                    if start.meets(seen) || !decided(arm, after) {
                        return false;
                    }
                    seen = seen.union(*start);
                }
            }
        }
    }
    true
}

/// Matches `pieces` from `at`: where the match ends.
fn run(pieces: &[Piece], bytes: &[u8], mut at: usize) -> Option<usize> {
    for piece in pieces {
        match piece {
            Piece::Run { table, min, max, .. } => {
                let limit = bytes.len().min(at.saturating_add(*max as usize));
                let start = at;
                while at < limit && table[usize::from(bytes[at])] {
                    at += 1;
                }
                if at - start < *min as usize {
                    return None;
                }
            }
            Piece::Literal(literal) => {
                if !bytes[at..].starts_with(literal) {
                    return None;
                }
                at += literal.len();
            }
            Piece::Either(arms) => {
                let b = *bytes.get(at)?;
                let (_, arm) = arms.iter().find(|(start, _)| start.has(b))?;
                at = run(arm, bytes, at)?;
            }
        }
    }
    Some(at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex::Regex;

    /// Every pattern of the shape, against texts around its edges, answers as `regex` does.
    #[test]
    fn answers_as_the_regex_crate_does() {
        let shaped = [
            "^0x[0-9a-f]{64}$",
            "^0x[0-9a-f]*$",
            "^0x[0-9a-f]{0,64}$",
            "^0x[0-9a-f]{1,2}$",
            "^0x(0|[1-9a-f][0-9a-f]{0,7})$",
            "^0x(0|[1-9a-f][0-9a-f]*)$",
            "^(0|[1-9][0-9]*)$",
            "^[A-Z]+-[0-9]+$",
            "^P-[0-9]+$",
            "^0x3$",
            "^vm execution error.*",
            "^abc",
            "^a?b$",
            "^(?i)ab[c-e]$",
            "^[a-c]{2,3}d?$",
        ];
        for p in shaped {
            assert!(Classes::new(p).is_some(), "{p} should have the shape");
        }
        let not_shaped = [
            "0x[0-9a-f]+$",
            "^[a-z]+[a-c]$",
            "^(a|ab)$",
            "^(a|)$",
            "^é+$",
            "^.+$",
            "^a\\b",
            "^(ab)+$",
            "^[a-z]*[a-z]$",
        ];
        for p in not_shaped {
            assert!(Classes::new(p).is_none(), "{p} should be left to regex");
        }
        let hex64 = format!("0x{}", "ab12".repeat(16));
        let texts = [
            "",
            "0",
            "0x",
            "0x0",
            "0x00",
            "0x1",
            "0xa",
            "0xA",
            "0x1f",
            "0x1ff",
            "0xg",
            "P-1",
            "P-",
            "P-12a",
            "PT-100",
            "PT100",
            "AB-",
            "-1",
            "0",
            "01",
            "10",
            "abc",
            "abcd",
            "ab",
            "ABc",
            "abd",
            "abf",
            "aab",
            "b",
            "ab",
            "aad",
            "abcd",
            "aaad",
            "vm execution error",
            "vm execution error: x\n",
            "vm execution",
            "é",
            "0xé",
            &hex64,
            &hex64[..65],
            &format!("{hex64}0"),
            "0x12345678",
            "0x123456789",
        ];
        for p in shaped {
            let fast = Classes::new(p).unwrap();
            let slow = Regex::new(p).unwrap();
            for t in texts {
                assert_eq!(fast.is_match(t), slow.is_match(t), "{p} on {t:?}");
            }
        }
    }
}
