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
