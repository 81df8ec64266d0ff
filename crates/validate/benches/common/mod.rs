//! What the validate benchmarks share: the workloads (the standard corpora, the 100,000-message
//! JSON Lines stream of plant telemetry, the 1,000-type contract), their accord contracts and
//! JSON Schemas, and the check that every workload means the same to both validators.
//!
//! The corpora are read from `../shared/bench-data/` beside the workspace; the contracts are in
//! `fixtures/bench/`. Everything else is generated here, deterministically (a fixed-seed
//! SplitMix64), so every run measures the same bytes.

// Each bench binary uses its own part of this module.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use accord_schema_model::Document;
use accord_validate::{Contract, Target, Validator};
use serde_json::{Value, json};

/// The folder of the standard corpora: `$ACCORD_BENCH_DATA` when set (a worktree that does not
/// stand beside `shared/`), else `../shared/bench-data/` beside the workspace.
pub(crate) fn bench_data() -> PathBuf {
    let dir = match std::env::var_os("ACCORD_BENCH_DATA") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/bench-data"),
    };
    if !dir.join("README.md").is_file() {
        panic!(
            "the benchmark corpora are not at {}: the validate benchmarks read twitter.min.json, \
             citm_catalog.min.json, canada.min.json and their JSON Schemas from `shared/bench-data/` \
             beside the workspace (the folder the project's shared/ provides), or from \
             $ACCORD_BENCH_DATA",
            dir.display()
        );
    }
    dir
}

/// `fixtures/bench/` of the workspace: the accord contracts of the benchmarks.
fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/bench")
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn json_file(path: &Path) -> Value {
    serde_json::from_slice(&read(path))
        .unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

/// A contract, compiled and kept for the whole run, and the validator of one of its types.
fn accord(contract: &str, namespace: &str, name: &str) -> Validator<'static> {
    let path = fixtures().join(contract);
    let doc =
        Document::parse_bytes(&read(&path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let contract: &'static Contract = Box::leak(Box::new(
        Contract::compile(&doc).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
    ));
    contract
        .validator(&Target::Type { namespace: namespace.into(), name: name.into() })
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The peer: jsonschema's draft 7 validator. Formats are asserted (`should_validate_formats(true)`,
/// as accord checks the formats it knows); every other option is jsonschema's default.
fn jsonschema(schema: &Path) -> jsonschema::Validator {
    jsonschema::draft7::options()
        .should_validate_formats(true)
        .build(&json_file(schema))
        .unwrap_or_else(|e| panic!("{}: {e}", schema.display()))
}

/// One standard corpus: one document, valid, and a variant with one value changed deep inside.
pub(crate) struct Corpus {
    pub(crate) name: &'static str,
    pub(crate) bytes: Vec<u8>,
    pub(crate) value: Value,
    /// Where the invalid variant differs, and how.
    pub(crate) broken: &'static str,
    pub(crate) invalid_bytes: Vec<u8>,
    pub(crate) invalid_value: Value,
    pub(crate) accord: Validator<'static>,
    pub(crate) schema: jsonschema::Validator,
}

/// The corpora, by the names the benchmarks take as arguments.
pub(crate) const CORPORA: [&str; 3] = ["twitter", "citm_catalog", "canada"];

pub(crate) fn corpus(name: &str) -> &'static Corpus {
    static ALL: OnceLock<Vec<Corpus>> = OnceLock::new();
    let all = ALL.get_or_init(|| {
        let data = bench_data();
        vec![
            load(
                "twitter",
                data.join("twitter.min.json"),
                ("twitter.types.json", "twitter", "SearchResult"),
                fixtures().join("twitter.schema.json"),
                (
                    "/statuses/99/user/followers_count",
                    json!("262"),
                    "the last status' `user.followers_count` is a string",
                ),
            ),
            load(
                "citm_catalog",
                data.join("citm_catalog.min.json"),
                ("citm_catalog.types.json", "citm", "Catalog"),
                data.join("citm_catalog.schema.json"),
                (
                    "/performances/242/prices/0/amount",
                    json!("90250"),
                    "the last performance's first price `amount` is a string",
                ),
            ),
            load(
                "canada",
                data.join("canada.min.json"),
                ("geojson.types.json", "geojson", "FeatureCollection"),
                data.join("geojson.schema.json"),
                (
                    "/features/0/geometry/coordinates/479/0/1",
                    json!("43.4"),
                    "a latitude in the last ring is a string",
                ),
            ),
        ]
    });
    all.iter().find(|c| c.name == name).unwrap_or_else(|| panic!("no corpus `{name}`"))
}

fn load(
    name: &'static str,
    data: PathBuf,
    (contract, namespace, ty): (&str, &str, &str),
    schema: PathBuf,
    (pointer, replacement, broken): (&str, Value, &'static str),
) -> Corpus {
    let bytes = read(&data);
    let value: Value =
        serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{}: {e}", data.display()));
    let mut invalid_value = value.clone();
    *invalid_value
        .pointer_mut(pointer)
        .unwrap_or_else(|| panic!("{name}: no {pointer} to break")) = replacement;
    let invalid_bytes = serde_json::to_vec(&invalid_value).expect("a Value serializes");
    Corpus {
        name,
        bytes,
        value,
        broken,
        invalid_bytes,
        invalid_value,
        accord: accord(contract, namespace, ty),
        schema: jsonschema(&schema),
    }
}

// ----- the small messages -----

/// How many telemetry messages the JSON Lines stream has.
pub(crate) const MESSAGES: usize = 100_000;

/// 100,000 plant telemetry messages of 200 B to 2 KB, one per line, and the same messages each
/// with one value broken.
pub(crate) struct Jsonl {
    pub(crate) text: Vec<u8>,
    pub(crate) lines: Vec<(usize, usize)>,
    pub(crate) values: Vec<Value>,
    pub(crate) invalid_text: Vec<u8>,
    pub(crate) invalid_lines: Vec<(usize, usize)>,
    pub(crate) invalid_values: Vec<Value>,
    pub(crate) accord: Validator<'static>,
    pub(crate) schema: jsonschema::Validator,
}

impl Jsonl {
    pub(crate) fn line(&self, (a, b): (usize, usize)) -> &[u8] {
        &self.text[a..b]
    }

    pub(crate) fn invalid_line(&self, (a, b): (usize, usize)) -> &[u8] {
        &self.invalid_text[a..b]
    }
}

pub(crate) fn jsonl() -> &'static Jsonl {
    static JSONL: OnceLock<Jsonl> = OnceLock::new();
    JSONL.get_or_init(|| jsonl_first(MESSAGES))
}

/// The first `count` messages of the stream [`jsonl`] holds (the same messages: one seeded
/// sequence), for a run that needs fewer (the instruction counts of `interleaved`).
pub(crate) fn jsonl_first(count: usize) -> Jsonl {
    let mut rng = SplitMix64(0x5EED_ACC0_7E1E_0001);
    let mut text = Vec::new();
    let mut lines = Vec::with_capacity(count);
    let mut values = Vec::with_capacity(count);
    let mut invalid_text = Vec::new();
    let mut invalid_lines = Vec::with_capacity(count);
    let mut invalid_values = Vec::with_capacity(count);
    for seq in 0..count {
        let (value, line) = loop {
            let value = message(&mut rng, seq);
            let line = serde_json::to_vec(&value).expect("a Value serializes");
            if (200..=2048).contains(&line.len()) {
                break (value, line);
            }
        };
        let start = text.len();
        text.extend_from_slice(&line);
        lines.push((start, text.len()));
        text.push(b'\n');
        let broken = break_message(&value, seq);
        let start = invalid_text.len();
        invalid_text.extend_from_slice(&serde_json::to_vec(&broken).expect("a Value serializes"));
        invalid_lines.push((start, invalid_text.len()));
        invalid_text.push(b'\n');
        values.push(value);
        invalid_values.push(broken);
    }
    Jsonl {
        text,
        lines,
        values,
        invalid_text,
        invalid_lines,
        invalid_values,
        accord: accord("plant-telemetry.types.json", "telemetry", "Sample"),
        schema: jsonschema(&fixtures().join("plant-telemetry.schema.json")),
    }
}

/// A fixed-seed SplitMix64: the same workload on every run and machine.
pub(crate) struct SplitMix64(pub(crate) u64);

impl SplitMix64 {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// A number in `lo..=hi` with two decimals.
    pub(crate) fn decimal(&mut self, lo: f64, hi: f64) -> f64 {
        let x = lo + (hi - lo) * (self.next() >> 11) as f64 / (1u64 << 53) as f64;
        (x * 100.0).round() / 100.0
    }

    pub(crate) fn pick<'a, T>(&mut self, from: &'a [T]) -> &'a T {
        &from[self.below(from.len() as u64) as usize]
    }
}

const PLANTS: [&str; 4] = ["riverside-pumping-station", "north-basin", "line-7", "Kläranlage Süd"];
const STATES: [&str; 5] = ["stopped", "starting", "running", "stopping", "fault"];
const SEVERITIES: [&str; 3] = ["info", "warning", "critical"];
/// Alarm texts: ASCII, non-ASCII, and some that need escapes on the wire (quotes, a newline).
const ALARMS: [&str; 8] = [
    "discharge pressure above the high limit",
    "motor winding temperature rising",
    "suction pressure low: check the strainer",
    "Überdruck an der Druckseite",
    "température du moteur élevée",
    "valve \"V-201\" did not open within 30 s",
    "bearing vibration above 7.1 mm/s (ISO 10816 zone C)",
    "seal flush flow lost\nswitched to standby seal water",
];
const TAGS: [(&str, &str); 6] = [
    ("line", "7"),
    ("skid", "A"),
    ("operator", "shift-2"),
    ("firmware", "vfd-4.12.0"),
    ("area", "raw water"),
    ("loop", "FIC-101"),
];

/// `2026-03-01T00:00:00Z` plus `tenths` tenths of a second.
fn timestamp(tenths: u64) -> String {
    let (s, t) = (tenths / 10, tenths % 10);
    format!("2026-03-01T{:02}:{:02}:{:02}.{t}00Z", s / 3600 % 24, s / 60 % 60, s % 60)
}

/// One telemetry message; valid under the contract and the JSON Schema.
fn message(rng: &mut SplitMix64, seq: usize) -> Value {
    let at = seq as u64 * 10;
    let state = *rng.pick(&STATES);
    let vibration: Vec<f64> = (0..3 + rng.below(62)).map(|_| rng.decimal(0.0, 11.0)).collect();
    let alarms: Vec<Value> = (0..rng.below(9))
        .map(|k| {
            json!({
                "code": 1000 + rng.below(9000),
                "severity": rng.pick(&SEVERITIES),
                "message": rng.pick(&ALARMS),
                "raisedAt": timestamp(at.saturating_sub(10 * k)),
                "acknowledged": rng.below(2) == 0,
            })
        })
        .collect();
    let last_fault = if state == "fault" {
        json!({"code": 1 + rng.below(999), "text": "motor overtemperature trip", "at": timestamp(at.saturating_sub(25))})
    } else {
        Value::Null
    };
    let mut sample = json!({
        "plant": rng.pick(&PLANTS),
        "pump": format!("P-{}", 101 + rng.below(12)),
        "seq": seq,
        "at": timestamp(at),
        "state": state,
        "speed": if state == "stopped" { 0 } else { 600 + rng.below(2400) },
        "dischargePressure": rng.decimal(0.0, 16.0),
        "suctionPressure": rng.decimal(-0.9, 6.0),
        "motorTemperature": rng.decimal(-10.0, 120.0),
        "flow": rng.decimal(0.0, 4000.0),
        "load": rng.decimal(0.0, 100.0),
        "vibration": vibration,
        "alarms": alarms,
        "lastFault": last_fault,
    });
    let tags = rng.below(7) as usize;
    if tags > 0 {
        let map: serde_json::Map<String, Value> =
            TAGS.iter().take(tags).map(|&(k, v)| (k.to_owned(), Value::from(v))).collect();
        sample["tags"] = Value::Object(map);
    }
    sample
}

/// The message with one value broken, one way of five in turn: a bound, a pattern, a format, an
/// array item's bound and an enum.
fn break_message(valid: &Value, seq: usize) -> Value {
    let mut v = valid.clone();
    match seq % 5 {
        0 => v["speed"] = json!(4000),
        1 => v["pump"] = json!("P-1O1"),
        2 => v["at"] = json!("2026-13-01T00:00:00Z"),
        3 => v["vibration"][1] = json!(-0.5),
        _ => v["state"] = json!("exploded"),
    }
    v
}

// ----- the 1,000-type contract -----

/// A generated contract of 1,000 named types in 10 namespaces: objects with bounded scalar
/// fields and refs (within and across namespaces), enums, strings with patterns and formats,
/// arrays, maps, and discriminated and nullable unions.
pub(crate) fn contract_1000() -> Document {
    contract(10, 100)
}

/// A generated contract of `namespaces` namespaces of `per_namespace` named types each, of the
/// shape [`contract_1000`] describes.
pub(crate) fn contract(namespaces: usize, per_namespace: usize) -> Document {
    let mut rng = SplitMix64(0x5EED_ACC0_C0DE_1000);
    let mut all = serde_json::Map::new();
    for ns in 0..namespaces {
        let mut types = serde_json::Map::new();
        for j in 0..per_namespace {
            types.insert(format!("T{j}"), type_node(&mut rng, ns, j, per_namespace));
        }
        all.insert(format!("area{ns}"), json!({"version": "1.0.0", "types": types}));
    }
    let doc = json!({"schema": 1, "name": "generated", "namespaces": all});
    Document::from_value(doc).expect("the generated contract is a valid document")
}

/// A ref to an earlier type (of this namespace or the one before): no ref dangles.
fn earlier(rng: &mut SplitMix64, ns: usize, j: usize, per: usize) -> Value {
    if j == 0 || (ns > 0 && rng.below(4) == 0) {
        if ns == 0 {
            return json!({"kind": "string"});
        }
        json!({"kind": "ref", "namespace": format!("area{}", ns - 1), "name": format!("T{}", rng.below(per as u64))})
    } else {
        json!({"kind": "ref", "name": format!("T{}", rng.below(j as u64))})
    }
}

fn scalar(rng: &mut SplitMix64) -> Value {
    match rng.below(6) {
        0 => json!({"kind": "integer", "min": 0, "max": 1 + rng.below(100_000), "unit": "count"}),
        1 => json!({"kind": "number", "min": -40, "max": 180, "unit": "degC"}),
        2 => json!({"kind": "string", "maxLength": 64}),
        3 => json!({"kind": "boolean"}),
        4 => json!({"kind": "string", "format": "date-time"}),
        _ => json!({"kind": "enum", "values": ["auto", "manual", "off"]}),
    }
}

fn type_node(rng: &mut SplitMix64, ns: usize, j: usize, per: usize) -> Value {
    match j % 20 {
        0..=7 => {
            let mut fields = serde_json::Map::new();
            for f in 0..3 + rng.below(10) {
                let ty = match rng.below(4) {
                    0 => earlier(rng, ns, j, per),
                    1 => {
                        json!({"kind": "array", "items": earlier(rng, ns, j, per), "maxItems": 64})
                    }
                    _ => scalar(rng),
                };
                let mut field = json!({"type": ty, "description": format!("Field {f} of T{j}.")});
                if rng.below(4) == 0 {
                    field["optional"] = json!(true);
                }
                fields.insert(format!("field{f}"), field);
            }
            json!({"kind": "object", "fields": fields, "closed": rng.below(3) == 0, "description": format!("Record {j}.")})
        }
        8..=10 => {
            let values: Vec<String> = (0..3 + rng.below(8)).map(|v| format!("value{v}")).collect();
            json!({"kind": "enum", "values": values})
        }
        11..=13 => match rng.below(3) {
            0 => {
                json!({"kind": "string", "pattern": format!("^[A-Z]{{2}}-[0-9]{{{},{}}}$", 1 + j % 3, 4 + j % 5)})
            }
            1 => json!({"kind": "string", "minLength": 1, "maxLength": 8 + rng.below(200)}),
            _ => json!({"kind": "string", "format": "uuid"}),
        },
        14 | 15 => scalar(rng),
        16 => {
            json!({"kind": "array", "items": earlier(rng, ns, j, per), "minItems": 1, "maxItems": 1000})
        }
        17 => json!({"kind": "map", "values": earlier(rng, ns, j, per)}),
        18 => {
            let arms: Vec<Value> = (0..2 + rng.below(3))
                .map(|a| {
                    json!({"kind": "object", "fields": {
                        "kind": {"type": {"kind": "literal", "value": format!("arm{a}")}},
                        "payload": {"type": earlier(rng, ns, j, per)},
                    }})
                })
                .collect();
            json!({"kind": "union", "variants": arms, "discriminator": "kind"})
        }
        _ => json!({"kind": "union", "variants": [{"kind": "null"}, earlier(rng, ns, j, per)]}),
    }
}

// ----- the equivalence check -----

/// Asserts, before anything is timed, that every workload means the same to accord and to
/// jsonschema: each corpus document and each message is valid under both (bytes path and value
/// path for accord), and each invalid variant invalid under both. Prints what it checked.
pub(crate) fn check_workloads() {
    for name in CORPORA {
        let c = corpus(name);
        assert!(
            c.accord.is_valid_bytes(&c.bytes),
            "{name}: accord refuses the corpus bytes: {:?}",
            c.accord.validate_bytes(&c.bytes)
        );
        assert!(
            c.accord.validate_bytes(&c.bytes).is_ok(),
            "{name}: accord validate_bytes disagrees with is_valid_bytes"
        );
        assert!(
            c.accord.is_valid(&c.value),
            "{name}: accord refuses the corpus value: {:?}",
            c.accord.validate(&c.value)
        );
        assert!(
            c.schema.is_valid(&c.value),
            "{name}: jsonschema refuses the corpus: {:?}",
            c.schema.iter_errors(&c.value).map(|e| e.to_string()).collect::<Vec<_>>()
        );
        assert!(
            !c.accord.is_valid_bytes(&c.invalid_bytes),
            "{name}: accord admits the invalid variant"
        );
        assert!(
            !c.accord.is_valid(&c.invalid_value),
            "{name}: accord admits the invalid variant value"
        );
        assert!(
            !c.schema.is_valid(&c.invalid_value),
            "{name}: jsonschema admits the invalid variant"
        );
        let accord_errors = c.accord.validate(&c.invalid_value).expect_err("invalid");
        let byte_errors = c.accord.validate_bytes(&c.invalid_bytes).expect_err("invalid");
        let schema_errors: Vec<String> = c
            .schema
            .iter_errors(&c.invalid_value)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        eprintln!(
            "{name}: {} bytes, valid under both; invalid variant ({}): accord {} error(s) [{} at {}], bytes path {}, jsonschema {} [{}]",
            c.bytes.len(),
            c.broken,
            accord_errors.len(),
            accord_errors[0].rule.id(),
            accord_errors[0].pointer,
            byte_errors.len(),
            schema_errors.len(),
            schema_errors.join("; ").chars().take(200).collect::<String>(),
        );
    }
    let j = jsonl();
    for (i, (&line, &bad)) in j.lines.iter().zip(&j.invalid_lines).enumerate() {
        let (value, broken) = (&j.values[i], &j.invalid_values[i]);
        assert!(
            j.accord.is_valid_bytes(j.line(line)),
            "message {i}: accord refuses it: {:?}",
            j.accord.validate_bytes(j.line(line))
        );
        assert!(j.accord.is_valid(value), "message {i}: accord refuses its value");
        assert!(
            j.schema.is_valid(value),
            "message {i}: jsonschema refuses it: {:?}",
            j.schema.iter_errors(value).map(|e| e.to_string()).collect::<Vec<_>>()
        );
        assert!(
            !j.accord.is_valid_bytes(j.invalid_line(bad)),
            "broken message {i}: accord admits it"
        );
        assert!(!j.accord.is_valid(broken), "broken message {i}: accord admits its value");
        assert!(!j.schema.is_valid(broken), "broken message {i}: jsonschema admits it");
    }
    let sizes: Vec<usize> = j.lines.iter().map(|(a, b)| b - a).collect();
    eprintln!(
        "plant JSON Lines: {MESSAGES} messages, {} bytes without the line feeds ({}..={} B each, mean {} B), all valid under both; every broken one invalid under both",
        sizes.iter().sum::<usize>(),
        sizes.iter().min().unwrap_or(&0),
        sizes.iter().max().unwrap_or(&0),
        sizes.iter().sum::<usize>() / MESSAGES,
    );
}
