//! Seeds for generated answers: the same inputs give the same seed on every run and machine
//! (FNV-1a over the bytes, then a SplitMix64 finish), so a stable-mode answer can be replayed.

use serde_json::Value;

/// How generated answers are seeded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// The same request (method and params, read by name) always gets the same answer.
    #[default]
    Stable,
    /// The n-th call of a method gets the n-th value of that method's sequence, whatever the
    /// params; a restart with the same seed replays the sequence.
    Sequence,
}

/// A seed from the plant's seed, a name and some bytes.
pub(crate) fn derive(seed: u64, name: &str, bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325 ^ seed;
    for &byte in name.as_bytes().iter().chain([0u8].iter()).chain(bytes) {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    splitmix(hash)
}

/// A seed from the plant's seed, a name and a sequence number.
pub(crate) fn derive_nth(seed: u64, name: &str, n: u64) -> u64 {
    derive(seed, name, &n.to_le_bytes())
}

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A value's canonical text: object members sorted by key at every level, no whitespace. Two
/// values that are equal as JSON (member order aside) have the same canonical text.
pub(crate) fn canonical(value: &Value, out: &mut Vec<u8>) {
    match value {
        Value::Object(object) => {
            let mut keys: Vec<&String> = object.keys().collect();
            keys.sort();
            out.push(b'{');
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                out.extend_from_slice(Value::String(key.clone()).to_string().as_bytes());
                out.push(b':');
                canonical(&object[key], out);
            }
            out.push(b'}');
        }
        Value::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                canonical(item, out);
            }
            out.push(b']');
        }
        scalar => out.extend_from_slice(scalar.to_string().as_bytes()),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{canonical, derive};

    #[test]
    fn member_order_does_not_change_the_seed() {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        canonical(&json!({"b": [1, {"y": 2, "x": 1}], "a": "s"}), &mut a);
        canonical(&json!({"a": "s", "b": [1, {"x": 1, "y": 2}]}), &mut b);
        assert_eq!(a, b);
        assert_eq!(String::from_utf8(a.clone()).unwrap(), r#"{"a":"s","b":[1,{"x":1,"y":2}]}"#);
        assert_eq!(derive(1, "pump.status", &a), derive(1, "pump.status", &b));
        assert_ne!(derive(1, "pump.status", &a), derive(2, "pump.status", &a));
        assert_ne!(derive(1, "pump.status", &a), derive(1, "pump.list", &a));
    }
}
