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
    Some(match path {
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
        "alloy_primitives::U256" | "alloy_primitives::U64" | "alloy_primitives::U128" => {
            hex("^0x(0|[1-9a-f][0-9a-f]*)$")
        }
        "alloy_primitives::Address" => hex("^0x[0-9a-fA-F]{40}$"),
        "alloy_primitives::B256" => hex("^0x[0-9a-fA-F]{64}$"),
        "alloy_primitives::Bytes" => hex("^0x([0-9a-fA-F]{2})*$"),
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
