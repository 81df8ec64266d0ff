//! UTF-8 on the bytes path, checked by the string scan itself: the same refusals as
//! `std::str::from_utf8` (overlong forms, surrogates, sequences cut short, bytes 0xF5..0xFF, a
//! continuation byte first), at the same byte, with the same error; and a string's other syntax
//! errors still come first.

use accord_schema_model::Document;
use accord_validate::{Contract, Target, ValidationRule, Validator};
use proptest::prelude::*;
use serde_json::{Value, json};

fn contract() -> Contract {
    let doc = json!({"schema": 1, "namespaces": {"t": {"version": "1.0.0", "types": {
        "Any": {"kind": "any"},
        "Text": {"kind": "string"},
        "Short": {"kind": "string", "maxLength": 1000},
        "Dict": {"kind": "map", "values": {"kind": "integer"}},
    }}}});
    Contract::compile(&Document::from_value(doc).expect("reads")).expect("compiles")
}

fn validator<'c>(contract: &'c Contract, name: &str) -> Validator<'c> {
    contract.validator(&Target::Type { namespace: "t".into(), name: name.into() }).expect(name)
}

/// One piece of a string's bytes: a character, a character cut short, one byte, a known
/// ill-formed sequence, or ASCII text.
fn piece() -> impl Strategy<Value = Vec<u8>> {
    let ill_formed: Vec<Vec<u8>> = vec![
        vec![0x80],
        vec![0xbf],
        vec![0xc0, 0x80],
        vec![0xc1, 0xbf],
        vec![0xe0, 0x80, 0x80],
        vec![0xe0, 0x9f, 0xbf],
        vec![0xed, 0xa0, 0x80],
        vec![0xed, 0xbf, 0xbf],
        vec![0xf0, 0x80, 0x80, 0x80],
        vec![0xf0, 0x8f, 0xbf, 0xbf],
        vec![0xf4, 0x90, 0x80, 0x80],
        vec![0xf5, 0x80, 0x80, 0x80],
        vec![0xf8, 0x88, 0x80, 0x80, 0x80],
        vec![0xfe],
        vec![0xff],
    ];
    prop_oneof![
        4 => any::<char>().prop_map(|c| c.to_string().into_bytes()),
        2 => (any::<char>(), 1..4usize).prop_map(|(c, keep)| {
            let bytes = c.to_string().into_bytes();
            bytes[..keep.min(bytes.len())].to_vec()
        }),
        2 => any::<u8>().prop_map(|b| vec![b]),
        1 => prop::sample::select(ill_formed),
        2 => "[a-z ]{1,12}".prop_map(String::into_bytes),
    ]
}

fn bytes() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(piece(), 0..24).prop_map(|pieces| pieces.concat())
}

/// `"` + `inner` + `"`.
fn quoted(inner: &[u8]) -> Vec<u8> {
    [b"\"", inner, b"\""].concat()
}

/// What the bytes path says of a string whose bytes are `inner` (no quote, backslash or control
/// character among them) is decided by `str::from_utf8` alone.
fn agrees_with_std(contract: &Contract, inner: &[u8]) {
    let want = std::str::from_utf8(inner).map_err(|e| e.valid_up_to());
    for name in ["Any", "Text", "Short"] {
        let v = validator(contract, name);
        let text = quoted(inner);
        assert_eq!(v.is_valid_bytes(&text), want.is_ok(), "{name}: {inner:02x?}");
        match want {
            Ok(_) => assert_eq!(v.validate_bytes(&text), Ok(()), "{name}: {inner:02x?}"),
            Err(valid_up_to) => {
                let errors = v.validate_bytes(&text).expect_err("not UTF-8");
                let [error] = &errors[..] else { panic!("{name}: {errors:?}") };
                let at = 1 + valid_up_to;
                assert_eq!(error.rule, ValidationRule::Syntax);
                assert_eq!(error.expected, "JSON: UTF-8 text");
                assert_eq!(error.found, format!("byte 0x{:02x} at byte {at}", text[at]));
            }
        }
        // As a key, the same.
        let object = [b"{", &text[..], b": 1}"].concat();
        assert_eq!(validator(contract, "Dict").is_valid_bytes(&object), want.is_ok());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2048, failure_persistence: None, ..ProptestConfig::default() })]

    /// Arbitrary bytes inside a string, but for the bytes that end it or are refused as JSON
    /// (quote, backslash, control characters): refused exactly when `std::str::from_utf8`
    /// refuses them, at the byte it names.
    #[test]
    fn utf8_is_refused_as_std_refuses_it(inner in bytes()) {
        let plain: Vec<u8> = inner
            .iter()
            .map(|&b| if matches!(b, b'"' | b'\\' | 0..=0x1f) { b'x' } else { b })
            .collect();
        agrees_with_std(&contract(), &plain);
    }

    /// Any bytes at all inside quotes: the bytes path's verdict is serde_json's.
    #[test]
    fn any_bytes_in_quotes_read_as_serde_json_reads_them(inner in bytes()) {
        let text = quoted(&inner);
        let want = serde_json::from_slice::<Value>(&text).is_ok();
        prop_assert_eq!(validator(&contract(), "Any").is_valid_bytes(&text), want, "{:02x?}", inner);
    }
}

#[test]
fn every_ill_formed_sequence_at_every_offset_of_a_word() {
    let c = contract();
    for bad in
        [&[0xc0, 0xaf][..], &[0xe0, 0x80, 0xaf], &[0xed, 0xa0, 0x80], &[0xf4, 0x90, 0x80, 0x80]]
    {
        for before in 0..17 {
            for cut in 1..=bad.len() {
                let inner =
                    [&b"abcdefghijklmnopq"[..before], &bad[..cut], "é…z".as_bytes()].concat();
                agrees_with_std(&c, &inner);
            }
        }
    }
    // Well-formed text of every length of sequence, across word boundaries.
    for before in 0..17 {
        let inner = [&b"abcdefghijklmnopq"[..before], "é€😀 ok".as_bytes()].concat();
        agrees_with_std(&c, &inner);
    }
}

#[test]
fn a_strings_other_errors_come_before_its_utf8() {
    let c = contract();
    let v = validator(&c, "Any");
    for (text, expected) in [
        (&b"\"\xff a\x01b\""[..], "JSON: no control characters inside a string (escape them)"),
        (b"\"\xc3 \\x\"", "JSON: a valid escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)"),
        (b"\"\xe2\x82", "JSON: the closing `\"` of a string"),
        (b"\"\xe2\x82\"", "JSON: UTF-8 text"),
    ] {
        let errors = v.validate_bytes(text).expect_err("refused");
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].expected, expected, "{:?}", String::from_utf8_lossy(text));
    }
}

/// `\u` takes four hexadecimal digits and nothing else: a sign, a space or a short count is
/// refused, as serde_json refuses it (the bytes path once read `\u+041` as `A`).
#[test]
fn unicode_escapes_read_as_serde_json_reads_them() {
    let c = contract();
    let v = validator(&c, "Text");
    for inner in [
        r"\u0041",
        r"\u00e9",
        r"\uD83D\uDE00",
        r"\uFFFF",
        r"\u+041",
        r"\u-041",
        r"\u 041",
        r"\u004",
        r"\u00g1",
        r"\u+0041",
        r"\uD83D\u+E00",
        r"\u0x41",
    ] {
        let text = format!("\"{inner}\"");
        let want = serde_json::from_str::<Value>(&text).is_ok();
        assert_eq!(v.is_valid_bytes(text.as_bytes()), want, "{text}");
    }
}
