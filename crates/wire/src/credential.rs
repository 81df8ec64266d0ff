//! Credentials (docs/wire.md §8): absent and wrong are different states with different answers.

/// What a request presented, read from its `Authorization` header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Presented<'a> {
    /// No `Authorization` header.
    Nothing,
    /// `Authorization: Bearer TOKEN` with a non-empty token.
    Bearer(&'a str),
    /// An `Authorization` header that is not a non-empty bearer token: a wrong credential.
    Malformed,
}

impl<'a> Presented<'a> {
    /// Reads the header's value (`None` when the header is absent). The scheme is matched
    /// without regard to case, as RFC 9110 §11.1 says.
    pub fn from_header(value: Option<&'a str>) -> Presented<'a> {
        let Some(value) = value else { return Presented::Nothing };
        match value.split_once(' ') {
            Some((scheme, token)) if scheme.eq_ignore_ascii_case("bearer") => {
                let token = token.trim();
                if token.is_empty() { Presented::Malformed } else { Presented::Bearer(token) }
            }
            _ => Presented::Malformed,
        }
    }
}

/// The longest token a plant or a caller should use: far past any real secret, and well
/// within what HTTP servers take in one header (8 KiB and up).
pub const MAX_TOKEN_BYTES: usize = 4096;

/// Why no `Authorization: Bearer TOKEN` header can carry `token` so that it arrives as it is,
/// or `None` when one can. A plant that takes such a token refuses every caller, so both ends
/// check it before they start: it must be non-empty, at most [`MAX_TOKEN_BYTES`] bytes, printable
/// ASCII (a header value is a line of ASCII text; a control character, a line break or a byte
/// past ASCII is refused or mangled on the way), and without whitespace at either end (a header
/// value is read with its outer whitespace removed, and [`Presented::from_header`] trims too).
/// Spaces inside are carried as they are.
pub fn token_problem(token: &str) -> Option<String> {
    if token.is_empty() {
        return Some("the token is empty".to_owned());
    }
    if token.len() > MAX_TOKEN_BYTES {
        return Some(format!(
            "the token is {} bytes long; at most {MAX_TOKEN_BYTES} fit a header",
            token.len()
        ));
    }
    if let Some((at, c)) = token.char_indices().find(|(_, c)| !(' '..='~').contains(c)) {
        let what = match c {
            '\n' | '\r' => "a line break",
            '\0' => "a NUL byte",
            c if c.is_ascii_control() => "a control character",
            _ => "a character past ASCII",
        };
        return Some(format!(
            "the token holds {what} ({c:?} at byte {at}); a header carries printable ASCII only"
        ));
    }
    if token.starts_with(' ') || token.ends_with(' ') {
        return Some("the token begins or ends with a space, which no header keeps".to_owned());
    }
    None
}

/// What a request may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Everything: the right credential, or a plant without credentials.
    Full,
    /// No credential: the reduced `rpc.describe` and `-32001` for every other method.
    Reduced,
    /// A wrong credential: refused outright, describe included.
    Refused,
}

impl Access {
    /// Decides access for what was presented, given the plant's token (`None`: the plant has no
    /// credentials). Tokens are compared in constant time for equal lengths, so the comparison
    /// does not tell a caller how much of a guess was right.
    pub fn decide(expected: Option<&str>, presented: Presented<'_>) -> Access {
        let Some(expected) = expected else { return Access::Full };
        match presented {
            Presented::Nothing => Access::Reduced,
            Presented::Malformed => Access::Refused,
            Presented::Bearer(token) if same(token.as_bytes(), expected.as_bytes()) => Access::Full,
            Presented::Bearer(_) => Access::Refused,
        }
    }
}

fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_a_header_cannot_carry_is_named() {
        for (token, reason) in [
            ("", "empty"),
            ("tok\nen", "a line break"),
            ("tok\0en", "a NUL byte"),
            ("tok\ten", "a control character"),
            ("jeton-\u{e9}", "past ASCII"),
            (" token", "begins or ends with a space"),
        ] {
            let problem = token_problem(token).unwrap_or_default();
            assert!(problem.contains(reason), "{token:?}: {problem}");
        }
        let long = "a".repeat(MAX_TOKEN_BYTES + 1);
        assert!(token_problem(&long).unwrap_or_default().contains("4097 bytes"));
        for good in ["s3cret", "a b", "eyJhbGciOi.J9-_~+/=", &"a".repeat(MAX_TOKEN_BYTES)] {
            assert_eq!(token_problem(good), None, "{good:?}");
        }
    }
}
