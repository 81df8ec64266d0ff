//! Reading a token file (`--token-file` of serve and conform): the file's text with its
//! trailing whitespace removed (the newline an editor or `echo` leaves), and nothing else
//! removed. A token that no `Authorization: Bearer` header could carry as it is (accord-wire's
//! check: empty, a line break or other control character, a byte past ASCII, a space at its
//! start, over 4 KiB) is refused here, naming the file and the reason, rather than accepted
//! and then refusing, or being refused by, every peer.

use std::path::Path;

/// The token in `path`, or `None` after an error naming the file is printed.
pub(crate) fn read(path: &Path) -> Option<String> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(err) => {
            eprintln!("error: cannot read the token file {}: {err}", path.display());
            return None;
        }
    };
    match parse(&text) {
        Ok(token) => Some(token.to_owned()),
        Err(reason) => {
            eprintln!("error: the token file {}: {reason}", path.display());
            None
        }
    }
}

/// The token a token file's text holds, or why no header could carry it.
pub(crate) fn parse(text: &str) -> Result<&str, String> {
    let token = text.trim_end();
    match accord_wire::credential::token_problem(token) {
        None => Ok(token),
        Some(_) if token.is_empty() => Err("the token file is empty (or only whitespace)".into()),
        Some(reason) if token.starts_with(char::is_whitespace) => {
            Err(format!("{reason} (a token file loses only its trailing whitespace)"))
        }
        Some(reason) => Err(reason),
    }
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn only_trailing_whitespace_is_removed() {
        assert_eq!(parse("s3cret\n"), Ok("s3cret"));
        assert_eq!(parse("s3cret \t\r\n\n"), Ok("s3cret"));
        assert_eq!(parse("two words\n"), Ok("two words"));
        let leading = parse("  s3cret\n").unwrap_err();
        assert!(leading.contains("begins or ends with a space"), "{leading}");
        let inner = parse("s3cret\nsecond line\n").unwrap_err();
        assert!(inner.contains("a line break"), "{inner}");
        assert!(parse("\n\n").unwrap_err().contains("the token file is empty"));
    }
}
