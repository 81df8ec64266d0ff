//! Raw bytes into `Document::parse_bytes`: never a panic; a document that reads is rewritten
//! losslessly and idempotently (see `common.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;

mod common;

fuzz_target!(|data: &[u8]| {
    common::check(data);
});
