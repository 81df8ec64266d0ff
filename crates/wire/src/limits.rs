//! The limits of docs/wire.md §9: their names on the wire, and the nesting scan a plant runs
//! before it parses a body, so that too deep a body is `-32003 depth` and not a parse error.

/// `body-bytes`: an HTTP body or a WebSocket message.
pub const BODY_BYTES: &str = "body-bytes";
/// `depth`: JSON nesting.
pub const DEPTH: &str = "depth";
/// `batch-length`: requests in one batch.
pub const BATCH_LENGTH: &str = "batch-length";
/// `connections`: open connections, HTTP and WebSocket.
pub const CONNECTIONS: &str = "connections";
/// `answer-bytes`: the answer to one message (a response, or a batch's responses together).
pub const ANSWER_BYTES: &str = "answer-bytes";
/// `generation-nodes`: values in one generated result, error data or event payload
/// (accord-validate's `BudgetLimit::Nodes`).
pub const GENERATION_NODES: &str = "generation-nodes";
/// `generation-bytes`: bytes of one generated value's JSON (`BudgetLimit::Bytes`).
pub const GENERATION_BYTES: &str = "generation-bytes";
/// `body-memory`: the bytes all request bodies being read may hold together.
pub const BODY_MEMORY: &str = "body-memory";
/// `subscriptions`: subscriptions on one WebSocket.
pub const SUBSCRIPTIONS: &str = "subscriptions";

/// The default of `body-bytes` (docs/wire.md §9): 1 MiB.
pub const DEFAULT_BODY_BYTES: usize = 1 << 20;
/// The default of `depth`: 128, the JSON parser's own limit.
pub const DEFAULT_DEPTH: usize = 128;
/// The default of `batch-length`.
pub const DEFAULT_BATCH_LENGTH: usize = 100;
/// The default of `answer-bytes`: 16 MiB.
pub const DEFAULT_ANSWER_BYTES: usize = 16 << 20;
/// The default of `subscriptions` per WebSocket.
pub const DEFAULT_SUBSCRIPTIONS: usize = 64;

/// Whether `bytes` nest arrays and objects deeper than `max` anywhere, brackets inside strings
/// not counted. Works on any bytes (JSON or not) without allocating, and stops at the first
/// level past `max`, so it is cheap to run on every body before parsing it.
pub fn nests_deeper_than(bytes: &[u8], max: usize) -> bool {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for &byte in bytes {
        if in_string {
            if escaped {
                escaped = false;
            } else if byte == b'\\' {
                escaped = true;
            } else if byte == b'"' {
                in_string = false;
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > max {
                    return true;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::{GENERATION_BYTES, GENERATION_NODES, nests_deeper_than};

    #[test]
    fn generation_limits_are_the_generators_names() {
        use accord_validate::BudgetLimit;
        assert_eq!(GENERATION_NODES, BudgetLimit::Nodes.name());
        assert_eq!(GENERATION_BYTES, BudgetLimit::Bytes.name());
    }

    #[test]
    fn counts_containers_and_skips_strings() {
        assert!(!nests_deeper_than(br#"{"a": [1, [2]]}"#, 3));
        assert!(nests_deeper_than(br#"{"a": [1, [2]]}"#, 2));
        assert!(!nests_deeper_than(br#"{"a": "[[[[[[\"[[["}"#, 1));
        assert!(!nests_deeper_than(b"12", 0));
        assert!(nests_deeper_than(b"[", 0));
    }
}
