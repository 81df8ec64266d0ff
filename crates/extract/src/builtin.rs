//! The built-in table of well-known external types, as serde serialises them with the crates'
//! default features. `accord.toml`'s `[types]` overrides any entry (and adds new ones).

use serde_json::{Value, json};

/// A date that exists, four-digit years (chrono writes other years with a sign, which the
/// contract does not admit): 1–28 in every month, 29–30 but in February, 31 in the long months,
/// February 29 in leap years.
const NAIVE_DATE: &str = "([0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])\
|[0-9]{4}-(0[13-9]|1[0-2])-(29|30)|[0-9]{4}-(0[13578]|1[02])-31\
|([0-9]{2}(0[48]|[2468][048]|[13579][26])|([02468][048]|[13579][26])00)-02-29)";

/// chrono's naive time: seconds up to a leap second `60`, up to nine fraction digits.
const NAIVE_TIME: &str = "([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\\.[0-9]{1,9})?";

/// The node for an external path that is a plain value (no type arguments that matter), if
/// the table knows it.
pub(crate) fn well_known(path: &str) -> Option<Value> {
    let hex = |pattern: &str| json!({"kind": "string", "pattern": pattern, "format": "hex"});
    // `0x` and 2n hex digits of either case (alloy and ethers write lower case, checksummed
    // mixed case for an alloy `Address`; both read either case).
    let fixed = |bytes: usize| hex(&format!("^0x[0-9a-fA-F]{{{}}}$", bytes * 2));
    // A quantity: `0x` and the minimal lower-case hex digits, `0x0` for zero (ruint's and
    // primitive-types' serde form).
    let quantity = || hex("^0x(0|[1-9a-f][0-9a-f]*)$");
    // Byte strings: `0x` alone is the empty one (eth_getCode of an ordinary account), which the
    // `hex` format refuses (it needs a digit), so the pattern alone says it.
    let bytes = || json!({"kind": "string", "pattern": "^0x([0-9a-fA-F]{2})*$"});
    let path = ethereum_path(path);
    Some(match path.as_str() {
        "chrono::DateTime" => json!({"kind": "string", "format": "date-time"}),
        "chrono::NaiveDate" => json!({"kind": "string", "format": "date"}),
        // No validator knows the `-local` formats, so the pattern says what chrono reads and
        // writes (`%Y-%m-%dT%H:%M:%S%.f`, four-digit years, a day that exists, leap second 60).
        "chrono::NaiveDateTime" => json!({"kind": "string", "format": "date-time-local",
            "pattern": format!("^{NAIVE_DATE}T{NAIVE_TIME}$")}),
        "chrono::NaiveTime" => json!({"kind": "string", "format": "time-local",
            "pattern": format!("^{NAIVE_TIME}$")}),
        "uuid::Uuid" => json!({"kind": "string", "format": "uuid"}),
        "url::Url" => json!({"kind": "string", "format": "uri"}),
        "serde_json::Value" => json!({"kind": "any"}),
        "serde_json::Number" => json!({"kind": "number"}),
        "serde_json::Map" => json!({"kind": "map", "values": {"kind": "any"}}),
        "rust_decimal::Decimal" => json!({"kind": "string", "pattern": "^-?[0-9]+(\\.[0-9]+)?$"}),
        "bytes::Bytes" | "bytes::BytesMut" => {
            json!({"kind": "array", "items": {"kind": "integer", "min": 0, "max": 255}})
        }
        "serde_json::value::Value" => json!({"kind": "any"}),
        // `Box<RawValue>`: any JSON text, kept as written.
        "serde_json::value::RawValue" | "serde_json::RawValue" => json!({"kind": "any"}),
        "eth::U8" | "eth::U16" | "eth::U32" | "eth::U64" | "eth::U128" | "eth::U160"
        | "eth::U256" | "eth::U512" => quantity(),
        "eth::Address" | "eth::H160" => fixed(20),
        "eth::B64" | "eth::H64" | "eth::BlockNonce" => fixed(8),
        "eth::B128" | "eth::H128" => fixed(16),
        "eth::B256" | "eth::H256" | "eth::TxHash" | "eth::BlockHash" | "eth::StorageKey"
        | "eth::Selector32" => fixed(32),
        "eth::B512" | "eth::H512" => fixed(64),
        "eth::Bloom" => fixed(256),
        "eth::Bytes" => bytes(),
        // alloy's plain-integer aliases (`pub type ChainId = u64;`): serde writes numbers.
        "eth::ChainId"
        | "eth::BlockNumber"
        | "eth::BlockTimestamp"
        | "eth::TxNumber"
        | "eth::TxIndex" => json!({"kind": "integer", "min": 0, "max": 18446744073709551615u64}),
        "std::net::IpAddr" => json!({"kind": "union", "variants": [
            {"kind": "string", "format": "ipv4"}, {"kind": "string", "format": "ipv6"}]}),
        "std::net::Ipv4Addr" => json!({"kind": "string", "format": "ipv4"}),
        "std::net::Ipv6Addr" => json!({"kind": "string", "format": "ipv6"}),
        "std::net::SocketAddr" | "std::net::SocketAddrV4" | "std::net::SocketAddrV6" => {
            json!({"kind": "string"})
        }
        "std::path::PathBuf" | "std::path::Path" => json!({"kind": "string"}),
        "std::time::Duration" => json!({"kind": "object", "fields": {
            "secs": {"type": {"kind": "integer", "min": 0, "max": 18446744073709551615u64}},
            "nanos": {"type": {"kind": "integer", "min": 0, "max": 999_999_999}}}, "closed": true}),
        // serde refuses a SystemTime past what the platform holds; the year 9999 bound keeps
        // every contract value readable.
        "std::time::SystemTime" => json!({"kind": "object", "fields": {
            "secs_since_epoch": {"type": {"kind": "integer", "min": 0, "max": 253_402_300_799u64}},
            "nanos_since_epoch": {"type": {"kind": "integer", "min": 0, "max": 999_999_999}}}, "closed": true}),
        "std::marker::PhantomData" => json!({"kind": "null"}),
        _ => return None,
    })
}

/// The alloy and ethers primitives under one spelling: `alloy_primitives::B256`,
/// `alloy::primitives::B256`, `ethers::types::H256`, `ethereum_types::H256` and
/// `primitive_types::H256` all become `eth::…` (each writes the same JSON).
fn ethereum_path(path: &str) -> String {
    const PREFIXES: &[&str] = &[
        "alloy_primitives::aliases::",
        "alloy_primitives::",
        "alloy::primitives::aliases::",
        "alloy::primitives::",
        "alloy_core::primitives::",
        "ethers::types::",
        "ethers::core::types::",
        "ethers_core::types::",
        "ethereum_types::",
        "primitive_types::",
    ];
    match PREFIXES.iter().find_map(|p| path.strip_prefix(p)) {
        Some(rest) if !rest.contains("::") => format!("eth::{rest}"),
        _ => path.to_owned(),
    }
}

/// How a std (or common collection crate) generic type is read, by its path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Generic {
    /// The wire shape of the first type argument (`Box`, `Arc`, `Cow`, `Mutex`, …).
    Transparent,
    Option,
    /// An array (`Vec`, `VecDeque`, …); `true`: unique items (sets).
    Seq(bool),
    Map,
    /// `Result<T, E>`: `{"Ok": T}` or `{"Err": E}`.
    Result,
}

pub(crate) fn generic(path: &str) -> Option<Generic> {
    Some(match path {
        "std::boxed::Box" | "std::Box" | "std::rc::Rc" | "std::sync::Arc" | "std::borrow::Cow"
        | "std::cell::RefCell" | "std::cell::Cell" | "std::sync::Mutex" | "std::sync::RwLock"
        | "std::num::Wrapping" | "std::cmp::Reverse" => Generic::Transparent,
        "std::option::Option" | "std::Option" => Generic::Option,
        "std::vec::Vec"
        | "std::Vec"
        | "std::collections::VecDeque"
        | "std::collections::LinkedList"
        | "std::collections::BinaryHeap"
        | "smallvec::SmallVec" => Generic::Seq(false),
        "std::collections::HashSet"
        | "std::collections::BTreeSet"
        | "indexmap::IndexSet"
        | "std::collections::hash_set::HashSet"
        | "std::collections::btree_set::BTreeSet" => Generic::Seq(true),
        "std::collections::HashMap"
        | "std::collections::BTreeMap"
        | "indexmap::IndexMap"
        | "std::collections::hash_map::HashMap"
        | "std::collections::btree_map::BTreeMap" => Generic::Map,
        "std::result::Result" | "std::Result" => Generic::Result,
        _ => return None,
    })
}

/// Integer widths: `(bits, signed)`.
pub(crate) fn integer(path: &str) -> Option<(u32, bool)> {
    let name = path.strip_prefix("std::")?;
    let name = name.rsplit("::").next()?;
    Some(match name {
        "u8" => (8, false),
        "u16" => (16, false),
        "u32" => (32, false),
        "u64" | "usize" => (64, false),
        "u128" => (128, false),
        "i8" => (8, true),
        "i16" => (16, true),
        "i32" => (32, true),
        "i64" | "isize" => (64, true),
        "i128" => (128, true),
        _ => return None,
    })
}

/// `NonZeroU32` and friends: the integer without 0.
pub(crate) fn non_zero(path: &str) -> Option<(u32, bool)> {
    let name = path.strip_prefix("std::num::NonZero")?;
    let lower = name.to_ascii_lowercase();
    integer(&format!("std::{lower}"))
}

#[cfg(test)]
mod tests {
    /// The byte strings admit `0x` (the empty code of an ordinary account), the fixed widths
    /// exactly their length, the quantities no leading zero; every spelling of a primitive
    /// reads the same.
    #[test]
    fn ethereum_primitives_have_their_serde_forms_under_every_spelling() {
        let pattern = |path: &str| {
            let node = super::well_known(path).unwrap_or_else(|| panic!("{path} is known"));
            regex::Regex::new(node["pattern"].as_str().unwrap()).unwrap()
        };
        let bytes = pattern("alloy_primitives::Bytes");
        assert!(bytes.is_match("0x") && bytes.is_match("0x00ff") && !bytes.is_match("0x0"));
        assert!(super::well_known("alloy_primitives::Bytes").unwrap().get("format").is_none());
        for path in
            ["alloy::primitives::TxHash", "ethers::types::H256", "alloy_primitives::BlockHash"]
        {
            assert!(pattern(path).is_match(&format!("0x{}", "ab".repeat(32))), "{path}");
            assert!(!pattern(path).is_match(&format!("0x{}", "ab".repeat(31))), "{path}");
        }
        assert!(pattern("alloy_primitives::B64").is_match("0x0000000000000042"));
        let q = pattern("primitive_types::U256");
        assert!(
            q.is_match("0x0") && q.is_match("0x1a") && !q.is_match("0x01") && !q.is_match("0x")
        );
        assert_eq!(super::well_known("alloy_primitives::ChainId").unwrap()["kind"], "integer");
    }
}
