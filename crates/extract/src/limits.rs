//! Bounds on hostile source: extract runs on pull requests in CI, where a source file must not
//! crash or exhaust the runner. The Rust parser (syn) and the lowering recurse once per level
//! of nesting, so a file nested past [`MAX_NESTING`] is refused before it is parsed, with the
//! place the limit is crossed; a module that is its own ancestor (`#[path = "lib.rs"] mod
//! again;`) is refused instead of being read again; the source read for one crate (its
//! dependencies included) stops at [`MAX_SOURCE_BYTES`]. Each is an error diagnostic whose code
//! is one of [`LIMIT_CODES`], which `extract_dir` turns into [`crate::Error::Limit`] (exit 2).

use crate::diagnostic::Location;

/// The deepest nesting of brackets (`(`, `[`, `{`) and generic angle brackets together that a
/// source file may have. Real code stays far below it.
pub const MAX_NESTING: usize = 128;

/// The deepest the lowering of one type may go, aliases expanded and named types' bodies
/// included (a type at [`MAX_NESTING`] behind a few aliases still reads).
pub const MAX_LOWERING: usize = 2 * MAX_NESTING;

/// The most type nodes the lowering of one type may make, aliases expanded in place: an alias
/// that contains itself twice (`type T = (T, T);`, which rustc refuses) would double at every
/// level before [`MAX_LOWERING`] stops it. Real types make a few thousand at most.
pub const MAX_LOWERED_NODES: usize = 250_000;

/// The stack `extract_dir` and `extract_dirs` run on (64 MiB, reserved rather than used):
/// room for [`MAX_NESTING`] in a debug build, with a wide margin.
pub(crate) const STACK_BYTES: usize = 64 << 20;

/// The most source extract reads for one crate, its dependencies included (64 MiB).
pub const MAX_SOURCE_BYTES: usize = 64 << 20;

/// The diagnostic codes of the limits above: an extraction that hits one stops as an input
/// error.
pub const LIMIT_CODES: [&str; 4] =
    ["nesting-too-deep", "type-too-large", "module-cycle", "source-too-large"];

/// Where `text` first nests deeper than [`MAX_NESTING`], if it does. A lexical scan: comments,
/// string, raw string, byte and char literals are skipped; every `<` but `<=` opens an angle
/// and every `>` but `->`, `=>` and `>=` closes one. Angles are counted per bracket level and
/// the level's count is dropped at `;` and when its bracket closes, so that comparisons and
/// shifts never add up, while no bracket inside a type (`A<{0}, A<…`) can hide its angles.
pub(crate) fn too_deep(file: &str, text: &str) -> Option<Location> {
    let chars: Vec<char> = text.chars().collect();
    let (mut line, mut col) = (1usize, 1usize);
    // The open angles of each open bracket level, the file's own level first.
    let mut angles: Vec<usize> = vec![0];
    let mut total_angles = 0usize;
    let mut i = 0;
    // Advances over `n` chars, keeping line and column.
    let step = |i: &mut usize, n: usize, line: &mut usize, col: &mut usize| {
        for _ in 0..n {
            if *i >= chars.len() {
                return;
            }
            if chars[*i] == '\n' {
                *line += 1;
                *col = 1;
            } else {
                *col += 1;
            }
            *i += 1;
        }
    };
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        match c {
            '/' if next == Some('/') => {
                while i < chars.len() && chars[i] != '\n' {
                    step(&mut i, 1, &mut line, &mut col);
                }
                continue;
            }
            '/' if next == Some('*') => {
                let mut depth = 0usize;
                while i < chars.len() {
                    if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                        depth += 1;
                        step(&mut i, 2, &mut line, &mut col);
                    } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                        depth -= 1;
                        step(&mut i, 2, &mut line, &mut col);
                        if depth == 0 {
                            break;
                        }
                    } else {
                        step(&mut i, 1, &mut line, &mut col);
                    }
                }
                continue;
            }
            'r' if matches!(next, Some('"' | '#'))
                && !i.checked_sub(1).is_some_and(|p| is_ident(chars[p])) =>
            {
                // A raw string `r#"…"#` (or an `r#ident`, which has no quote after the hashes).
                let mut j = i + 1;
                let mut hashes = 0;
                while chars.get(j) == Some(&'#') {
                    hashes += 1;
                    j += 1;
                }
                if chars.get(j) == Some(&'"') {
                    let n = j + 1 - i;
                    step(&mut i, n, &mut line, &mut col);
                    loop {
                        if i >= chars.len() {
                            break;
                        }
                        if chars[i] == '"' && (1..=hashes).all(|k| chars.get(i + k) == Some(&'#')) {
                            step(&mut i, 1 + hashes, &mut line, &mut col);
                            break;
                        }
                        step(&mut i, 1, &mut line, &mut col);
                    }
                    continue;
                }
            }
            '"' => {
                step(&mut i, 1, &mut line, &mut col);
                while i < chars.len() && chars[i] != '"' {
                    let n = if chars[i] == '\\' { 2 } else { 1 };
                    step(&mut i, n, &mut line, &mut col);
                }
                step(&mut i, 1, &mut line, &mut col);
                continue;
            }
            '\'' => {
                // A char literal (`'x'`, `'\n'`, `'\u{1F600}'`) or a lifetime (`'a`).
                if next == Some('\\') {
                    step(&mut i, 2, &mut line, &mut col);
                    while i < chars.len() && chars[i] != '\'' && chars[i] != '\n' {
                        step(&mut i, 1, &mut line, &mut col);
                    }
                    step(&mut i, 1, &mut line, &mut col);
                    continue;
                }
                if chars.get(i + 2) == Some(&'\'') {
                    step(&mut i, 3, &mut line, &mut col);
                    continue;
                }
            }
            '(' | '[' | '{' => angles.push(0),
            ')' | ']' | '}' if angles.len() > 1 => {
                total_angles -= angles.pop().unwrap_or(0);
            }
            ';' => {
                let level = angles.last_mut().expect("the file's level");
                total_angles -= *level;
                *level = 0;
            }
            '<' if next != Some('=') => {
                *angles.last_mut().expect("the file's level") += 1;
                total_angles += 1;
            }
            '>' if next != Some('=')
                && !i.checked_sub(1).is_some_and(|p| matches!(chars[p], '-' | '=')) =>
            {
                let level = angles.last_mut().expect("the file's level");
                if *level > 0 {
                    *level -= 1;
                    total_angles -= 1;
                }
            }
            _ => {}
        }
        if angles.len() - 1 + total_angles > MAX_NESTING {
            return Some(Location { file: file.to_owned(), line, column: col });
        }
        step(&mut i, 1, &mut line, &mut col);
    }
    None
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nesting_is_measured_and_literals_and_comparisons_do_not_count() {
        let deep = |open: &str, close: &str, n: usize| {
            format!("type T = {}u8{};", open.repeat(n), close.repeat(n))
        };
        assert!(too_deep("a.rs", &deep("Vec<", ">", MAX_NESTING)).is_none());
        let at = too_deep("a.rs", &deep("Vec<", ">", MAX_NESTING + 1)).unwrap();
        assert_eq!((at.line, at.column), (1, 10 + 4 * MAX_NESTING + 3));
        assert!(too_deep("a.rs", &deep("(", ")", MAX_NESTING + 1)).is_some());
        // Brackets in strings, raw strings, chars and comments; comparisons; lifetimes.
        let quiet = format!(
            "fn f<'a>(x: &'a str) -> bool {{ let s = \"{0}\"; let r = r#\"{0}\"#; let c = '('; // {0}\n /* {0} */ {1} true }}",
            "(".repeat(500),
            "let _ = a < b && c << 2 > 1; ".repeat(500)
        );
        assert!(too_deep("a.rs", &quiet).is_none(), "{:?}", too_deep("a.rs", &quiet));
        // A bracket inside a type does not hide the angles around it.
        let hidden = format!(
            "type T = {}u8{};",
            "A<{0}, ".repeat(MAX_NESTING + 1),
            ">".repeat(MAX_NESTING + 1)
        );
        assert!(too_deep("a.rs", &hidden).is_some());
    }
}
