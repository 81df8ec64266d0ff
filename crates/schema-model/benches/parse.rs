//! Reading and writing a large contract: the model's reader against serde_json's own `Value`
//! parse of the same text, and the canonical writer.
//!
//! The corpus is built in code, deterministically (a fixed-seed SplitMix64), once per run: a
//! realistic plant contract of about 10 MB of pretty-printed text — about a hundred namespaces,
//! each with methods (params, nested object results with units and bounds, enums, unions, refs,
//! declared errors, examples), events, named types, reserved names, descriptions and unknown
//! `x-…` members. See docs/benchmarks.md for the numbers and how to read them.
//!
//! Run: `cargo bench -p accord-schema-model --bench parse`. To look at the corpus, set
//! `ACCORD_BENCH_DUMP=path` and the text is written there before the benchmarks run.

use std::sync::OnceLock;

use accord_schema_model::Document;
use divan::{Bencher, counter::BytesCount};
use serde_json::{Map, Value, json};

fn main() {
    let corpus = corpus();
    eprintln!(
        "corpus: {} bytes of text, {} namespaces, {} methods; canonical text {} bytes",
        corpus.text.len(),
        corpus.namespaces,
        corpus.methods,
        corpus.canonical.len()
    );
    if let Some(path) = std::env::var_os("ACCORD_BENCH_DUMP") {
        std::fs::write(&path, &corpus.text).expect("the dump path is writable");
    }
    divan::main();
}

/// The text the benchmarks read, the document it reads as, and that document's canonical text.
struct Corpus {
    text: String,
    doc: Document,
    canonical: String,
    namespaces: usize,
    methods: usize,
}

/// Target size of the pretty-printed corpus, in bytes.
const TARGET_BYTES: usize = 10_000_000;

fn corpus() -> &'static Corpus {
    static CORPUS: OnceLock<Corpus> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let mut generator = Generator::new(0x5EED_ACC0_2D00_0001);
        let (value, namespaces, methods) = generator.document(TARGET_BYTES);
        let text = serde_json::to_string_pretty(&value).expect("a Value serializes") + "\n";
        let doc = Document::parse(&text).expect("the generated corpus is a valid document");
        let canonical = doc.to_canonical_string();
        Corpus { text, doc, canonical, namespaces, methods }
    })
}

/// (a) The model's reader: text to `Document` (strict JSON, then the reader's rules).
#[divan::bench(sample_count = 40)]
fn model_parse(bencher: Bencher) {
    let text = corpus().text.as_str();
    bencher
        .counter(BytesCount::of_str(text))
        .bench(|| Document::parse(divan::black_box(text)).expect("valid"));
}

/// (b) The peer: serde_json's own `Value` parse of the same text (nothing checked past syntax).
#[divan::bench(sample_count = 40)]
fn serde_json_value_parse(bencher: Bencher) {
    let text = corpus().text.as_str();
    bencher
        .counter(BytesCount::of_str(text))
        .bench(|| serde_json::from_str::<Value>(divan::black_box(text)).expect("valid JSON"));
}

/// (c) The writer: `Document` to canonical text. Bytes are those of the canonical output.
#[divan::bench(sample_count = 40)]
fn model_to_canonical_string(bencher: Bencher) {
    let corpus = corpus();
    bencher
        .counter(BytesCount::of_str(&corpus.canonical))
        .bench(|| divan::black_box(&corpus.doc).to_canonical_string());
}

// ---------------------------------------------------------------------------------------------
// The corpus generator.

/// SplitMix64: tiny, deterministic, good enough to vary a corpus.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `lo..=hi`.
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next() % (hi - lo + 1)
    }

    /// True with probability `percent`/100.
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[(self.next() % items.len() as u64) as usize]
    }

    /// A float in `lo..hi` with two decimals.
    fn decimal(&mut self, lo: f64, hi: f64) -> f64 {
        let x = lo + (self.next() % 1_000_000) as f64 / 1_000_000.0 * (hi - lo);
        (x * 100.0).round() / 100.0
    }
}

const NOUNS: &[&str] = &[
    "pump",
    "valve",
    "flow",
    "pressure",
    "tank",
    "level",
    "motor",
    "speed",
    "sensor",
    "alarm",
    "batch",
    "recipe",
    "dose",
    "filter",
    "heater",
    "cooler",
    "conveyor",
    "belt",
    "mixer",
    "line",
    "shift",
    "operator",
    "setpoint",
    "limit",
    "fault",
    "trip",
    "interlock",
    "drive",
    "boiler",
    "chiller",
    "compressor",
    "dryer",
    "hopper",
    "scale",
    "silo",
    "nozzle",
    "burner",
    "damper",
    "fan",
    "bearing",
    "gearbox",
    "spindle",
    "axis",
    "robot",
    "gripper",
    "camera",
    "label",
    "pallet",
    "order",
    "lot",
    "sample",
    "probe",
    "meter",
    "counter",
    "timer",
    "schedule",
    "maintenance",
    "inspection",
    "calibration",
    "firmware",
    "network",
    "gateway",
    "module",
];

const VERBS: &[&str] = &[
    "get",
    "set",
    "list",
    "start",
    "stop",
    "reset",
    "open",
    "close",
    "read",
    "write",
    "enable",
    "disable",
    "acknowledge",
    "calibrate",
    "schedule",
    "cancel",
    "pause",
    "resume",
    "describe",
    "configure",
    "clear",
    "purge",
    "arm",
    "disarm",
    "export",
    "import",
    "rotate",
    "jog",
    "home",
];

const ADJECTIVES: &[&str] = &[
    "current",
    "target",
    "maximum",
    "minimum",
    "average",
    "last",
    "next",
    "nominal",
    "actual",
    "raw",
    "filtered",
    "total",
    "pending",
    "active",
    "primary",
    "secondary",
    "inlet",
    "outlet",
    "upstream",
    "downstream",
    "ambient",
    "internal",
    "external",
    "peak",
];

const WORDS: &[&str] = &[
    "the",
    "of",
    "a",
    "when",
    "is",
    "in",
    "for",
    "and",
    "to",
    "by",
    "on",
    "while",
    "after",
    "before",
    "value",
    "reported",
    "measured",
    "requested",
    "plant",
    "unit",
    "reading",
    "cycle",
    "operator",
    "controller",
    "returns",
    "sets",
    "changes",
    "without",
    "until",
    "stopped",
    "running",
    "state",
    "since",
    "started",
    "cleared",
    "latched",
    "within",
    "tolerance",
    "every",
    "second",
    "window",
    "seconds",
    "configured",
    "station",
    "cell",
    "zone",
    "held",
    "released",
    "previous",
    "rounded",
    "down",
    "up",
    "nearest",
    "tenth",
    "safe",
    "only",
    "manual",
    "mode",
    "automatic",
    "remote",
    "local",
    "note",
    "ignored",
    "otherwise",
];

const UNITS: &[&str] = &[
    "s", "ms", "rpm", "bar", "kPa", "degC", "K", "l/min", "m3/h", "kg", "g", "mm", "m", "A", "V",
    "kW", "Hz", "%", "ppm", "Nm",
];

const FORMATS: &[&str] = &["date-time", "uuid", "hostname", "ipv4", "uri", "email", "date"];

const PATTERNS: &[&str] = &[
    "^[A-Z]{2}-[0-9]{4}$",
    "^[a-z][a-z0-9_]*$",
    "^LOT[0-9]{6}$",
    "^[0-9a-f]{8}$",
    "^(?:[0-9]{1,3}\\.){3}[0-9]{1,3}$",
];

const TEAMS: &[&str] =
    &["ops", "controls", "process", "quality", "maintenance", "mes", "automation", "safety"];

struct Generator {
    rng: Rng,
    /// Named types of the namespace being built: (name, node), for refs and for examples.
    named: Vec<(String, Value)>,
}

impl Generator {
    fn new(seed: u64) -> Self {
        Generator { rng: Rng(seed), named: Vec::new() }
    }

    /// A document of at least `target` bytes when pretty-printed (roughly: the estimate is
    /// summed namespace by namespace). Returns it with its namespace and method counts.
    fn document(&mut self, target: usize) -> (Value, usize, usize) {
        let mut namespaces = Map::new();
        let mut size = 0;
        let mut methods = 0;
        while size < target {
            let name = self.namespace_name(&namespaces);
            let (ns, count) = self.namespace();
            // A namespace stands two levels deep in the document: 4 more spaces a line.
            let text = serde_json::to_string_pretty(&ns).expect("a Value serializes");
            size += text.len() + 4 * text.lines().count() + name.len() + 8;
            methods += count;
            namespaces.insert(name, ns);
        }
        let count = namespaces.len();
        let doc = json!({
            "schema": 1,
            "name": "plant-north-7",
            "description": "Generated benchmark contract: every line of the north plant, as its controllers expose them.",
            "x-generated-by": { "tool": "accord-schema-model benches/parse.rs", "seed": "0x5EEDACC02D000001" },
            "namespaces": namespaces,
        });
        (doc, count, methods)
    }

    fn sentence(&mut self, lo: u64, hi: u64) -> String {
        let n = self.rng.range(lo, hi);
        let mut out = String::new();
        for i in 0..n {
            let word =
                if self.rng.chance(25) { *self.rng.pick(NOUNS) } else { *self.rng.pick(WORDS) };
            if i == 0 {
                let mut chars = word.chars();
                if let Some(first) = chars.next() {
                    out.extend(first.to_uppercase());
                    out.push_str(chars.as_str());
                }
            } else {
                out.push(' ');
                out.push_str(word);
            }
        }
        out.push('.');
        out
    }

    fn camel(&mut self, parts: &[&str]) -> String {
        let mut out = String::new();
        for (i, part) in parts.iter().enumerate() {
            if i == 0 {
                out.push_str(part);
            } else {
                let mut chars = part.chars();
                if let Some(first) = chars.next() {
                    out.extend(first.to_uppercase());
                    out.push_str(chars.as_str());
                }
            }
        }
        out
    }

    fn unique(name: String, taken: &Map<String, Value>) -> String {
        if !taken.contains_key(&name) {
            return name;
        }
        (2..)
            .map(|i| format!("{name}{i}"))
            .find(|n| !taken.contains_key(n))
            .expect("some suffix is free")
    }

    fn namespace_name(&mut self, taken: &Map<String, Value>) -> String {
        let line = self.rng.range(1, 40);
        let noun = *self.rng.pick(NOUNS);
        Self::unique(format!("line{line}.{noun}"), taken)
    }

    fn field_name(&mut self, taken: &Map<String, Value>) -> String {
        let name = if self.rng.chance(50) {
            let adjective = *self.rng.pick(ADJECTIVES);
            let noun = *self.rng.pick(NOUNS);
            self.camel(&[adjective, noun])
        } else {
            (*self.rng.pick(NOUNS)).to_owned()
        };
        Self::unique(name, taken)
    }

    fn version(&mut self) -> String {
        let major = self.rng.range(0, 4);
        let minor = self.rng.range(0, 30);
        let patch = self.rng.range(0, 12);
        if self.rng.chance(10) {
            format!("{major}.{minor}.{patch}-rc.{}", self.rng.range(1, 5))
        } else {
            format!("{major}.{minor}.{patch}")
        }
    }

    fn namespace(&mut self) -> (Value, usize) {
        self.named.clear();
        let mut ns = Map::new();
        ns.insert("version".into(), self.version().into());
        ns.insert("description".into(), self.sentence(6, 24).into());
        if self.rng.chance(8) {
            ns.insert(
                "deprecated".into(),
                format!("Use line{}.{} instead.", self.rng.range(1, 40), self.rng.pick(NOUNS))
                    .into(),
            );
        }
        let component = format!("{}-{}d", self.rng.pick(NOUNS), self.rng.pick(NOUNS));
        let team = *self.rng.pick(TEAMS);
        let mut c = Map::new();
        c.insert("name".into(), component.into());
        if self.rng.chance(70) {
            c.insert("description".into(), self.sentence(4, 12).into());
        }
        c.insert("x-team".into(), team.into());
        ns.insert("component".into(), Value::Object(c));

        // Named types first, so that refs in methods and events have something to point at.
        let mut types = Map::new();
        for _ in 0..self.rng.range(2, 8) {
            let name = {
                let adjective = *self.rng.pick(ADJECTIVES);
                let noun = *self.rng.pick(NOUNS);
                let mut n = self.camel(&[adjective, noun]);
                let first = n[..1].to_uppercase();
                n.replace_range(..1, &first);
                Self::unique(n, &types)
            };
            let node = if self.rng.chance(40) { self.enum_node() } else { self.object_node(2, 3) };
            types.insert(name.clone(), node.clone());
            self.named.push((name, node));
        }

        let mut methods = Map::new();
        let count = self.rng.range(6, 30) as usize;
        for _ in 0..count {
            let verb = *self.rng.pick(VERBS);
            let noun = *self.rng.pick(NOUNS);
            let name = Self::unique(self.camel(&[verb, noun]), &methods);
            let m = self.method(verb);
            methods.insert(name, m);
        }
        ns.insert("methods".into(), Value::Object(methods));

        if self.rng.chance(80) {
            let mut events = Map::new();
            for _ in 0..self.rng.range(1, 6) {
                let noun = *self.rng.pick(NOUNS);
                let what = *self.rng.pick(&["changed", "tripped", "cleared", "started", "done"]);
                let name = Self::unique(format!("{noun}.{what}"), &events);
                let payload = self.object_node(1, 3);
                let mut e = Map::new();
                e.insert("description".into(), self.sentence(5, 16).into());
                if self.rng.chance(50) {
                    let example = self.example_of(&payload, 0);
                    e.insert("payload".into(), payload);
                    e.insert("examples".into(), Value::Array(vec![example]));
                } else {
                    e.insert("payload".into(), payload);
                }
                if self.rng.chance(10) {
                    e.insert("deprecated".into(), true.into());
                }
                events.insert(name, Value::Object(e));
            }
            ns.insert("events".into(), Value::Object(events));
        }
        ns.insert("types".into(), Value::Object(types));
        if self.rng.chance(30) {
            let reserved = (0..self.rng.range(1, 3))
                .map(|_| {
                    let verb = *self.rng.pick(VERBS);
                    let noun = *self.rng.pick(NOUNS);
                    json!({
                        "name": self.camel(&[verb, noun, "legacy"]),
                        "note": format!("Removed in {}.", self.version()),
                    })
                })
                .collect();
            ns.insert("reserved".into(), Value::Array(reserved));
        }
        if self.rng.chance(40) {
            ns.insert("x-owner".into(), format!("{}@plant.example", self.rng.pick(TEAMS)).into());
        }
        (Value::Object(ns), count)
    }

    fn method(&mut self, verb: &str) -> Value {
        let mut m = Map::new();
        let semantics = match verb {
            "get" | "list" | "read" | "describe" | "export" => "read",
            "set" | "enable" | "disable" | "acknowledge" | "configure" | "arm" | "disarm" => {
                "idempotent"
            }
            "reset" | "clear" | "purge" | "cancel" => "destructive",
            _ => "write",
        };
        if self.rng.chance(95) {
            // Now and then a value from a newer format: kept as written, reads as undeclared.
            let semantics = if self.rng.chance(2) { "audited" } else { semantics };
            m.insert("semantics".into(), semantics.into());
        }
        m.insert("description".into(), self.sentence(6, 30).into());
        if self.rng.chance(5) {
            m.insert("deprecated".into(), self.sentence(3, 8).into());
        }
        if self.rng.chance(20) {
            let structure = *self.rng.pick(&["by-name", "by-position", "either"]);
            m.insert("paramStructure".into(), structure.into());
        }
        let mut param_types = Vec::new();
        if self.rng.chance(85) {
            let mut taken = Map::new();
            let mut params = Vec::new();
            for _ in 0..self.rng.range(1, 5) {
                let name = self.field_name(&taken);
                taken.insert(name.clone(), Value::Null);
                let ty = self.type_node(1);
                let mut p = Map::new();
                p.insert("name".into(), name.clone().into());
                p.insert("type".into(), ty.clone());
                let optional = self.rng.chance(25);
                if optional {
                    p.insert("optional".into(), true.into());
                }
                if self.rng.chance(60) {
                    p.insert("description".into(), self.sentence(4, 14).into());
                }
                params.push(Value::Object(p));
                param_types.push((name, ty, optional));
            }
            m.insert("params".into(), Value::Array(params));
        }
        let result = if self.rng.chance(75) { self.object_node(2, 4) } else { self.type_node(3) };
        m.insert("result".into(), result.clone());
        if self.rng.chance(50) {
            let errors = (0..self.rng.range(1, 3))
                .map(|_| {
                    let mut e = Map::new();
                    e.insert("code".into(), (-(self.rng.range(32000, 32099) as i64)).into());
                    let adjective = *self.rng.pick(ADJECTIVES);
                    let noun = *self.rng.pick(NOUNS);
                    e.insert("message".into(), format!("{adjective} {noun} unavailable").into());
                    e.insert("description".into(), self.sentence(4, 12).into());
                    if self.rng.chance(30) {
                        e.insert("data".into(), self.object_node(1, 2));
                    }
                    Value::Object(e)
                })
                .collect();
            m.insert("errors".into(), Value::Array(errors));
        }
        if self.rng.chance(40) {
            let mut params = Map::new();
            for (name, ty, optional) in &param_types {
                if !optional || self.rng.chance(50) {
                    params.insert(name.clone(), self.example_of(ty, 0));
                }
            }
            let example = json!({
                "name": format!("typical {}", self.rng.pick(NOUNS)),
                "params": params,
                "result": self.example_of(&result, 0),
            });
            m.insert("examples".into(), Value::Array(vec![example]));
        }
        if self.rng.chance(60) {
            m.insert("x-owner".into(), format!("team-{}", self.rng.pick(TEAMS)).into());
        }
        if self.rng.chance(10) {
            m.insert(
                "x-rate-limit".into(),
                json!({ "perSecond": self.rng.range(1, 100), "burst": self.rng.range(1, 20) }),
            );
        }
        Value::Object(m)
    }

    /// A type node of a random kind, nested at most `depth` more levels.
    fn type_node(&mut self, depth: u32) -> Value {
        let roll = self.rng.range(0, 99);
        let leaf = depth == 0;
        match roll {
            0..=19 => self.number_node(),
            20..=34 => self.string_node(),
            35..=41 => json!({ "kind": "boolean" }),
            42..=49 => self.enum_node(),
            50..=54 if !self.named.is_empty() => self.ref_node(),
            55..=57 => json!({ "kind": "literal", "value": self.rng.pick(NOUNS) }),
            58..=59 => json!({ "kind": "any", "description": self.sentence(3, 8) }),
            60 => json!({ "kind": "null" }),
            61..=70 if !leaf => {
                let mut a = Map::new();
                a.insert("kind".into(), "array".into());
                a.insert("items".into(), self.type_node(depth - 1));
                if self.rng.chance(40) {
                    a.insert("maxItems".into(), self.rng.range(1, 512).into());
                }
                if self.rng.chance(15) {
                    a.insert("uniqueItems".into(), true.into());
                }
                Value::Object(a)
            }
            71..=82 if !leaf => self.object_node(depth - 1, 2),
            83..=86 if !leaf => json!({
                "kind": "map",
                "keys": { "kind": "string", "pattern": self.rng.pick(PATTERNS) },
                "values": self.type_node(depth - 1),
            }),
            87..=92 if !leaf => self.union_node(depth - 1),
            93..=95 if !leaf => {
                let n = self.rng.range(2, 3);
                let elements: Vec<Value> = (0..n).map(|_| self.number_node()).collect();
                json!({ "kind": "tuple", "elements": elements, "description": self.sentence(3, 9) })
            }
            _ => self.number_node(),
        }
    }

    fn number_node(&mut self) -> Value {
        let mut n = Map::new();
        let integer = self.rng.chance(45);
        n.insert("kind".into(), if integer { "integer" } else { "number" }.into());
        if integer {
            let lo = self.rng.range(0, 100) as i64 - 50;
            if self.rng.chance(70) {
                n.insert("min".into(), lo.into());
            }
            if self.rng.chance(70) {
                n.insert("max".into(), (lo + self.rng.range(1, 100_000) as i64).into());
            }
            if self.rng.chance(10) {
                n.insert("multipleOf".into(), self.rng.range(2, 10).into());
            }
        } else {
            let lo = self.rng.decimal(-200.0, 200.0);
            if self.rng.chance(60) {
                n.insert("min".into(), json!(lo));
            }
            if self.rng.chance(40) {
                n.insert("exclusiveMax".into(), json!(lo + self.rng.decimal(1.0, 5000.0)));
            }
        }
        if self.rng.chance(70) {
            n.insert("unit".into(), (*self.rng.pick(UNITS)).into());
        }
        if self.rng.chance(30) {
            n.insert("description".into(), self.sentence(3, 12).into());
        }
        if self.rng.chance(10) {
            n.insert("default".into(), 0.into());
        }
        Value::Object(n)
    }

    fn string_node(&mut self) -> Value {
        let mut s = Map::new();
        s.insert("kind".into(), "string".into());
        match self.rng.range(0, 3) {
            0 => {
                s.insert("format".into(), (*self.rng.pick(FORMATS)).into());
            }
            1 => {
                s.insert("pattern".into(), (*self.rng.pick(PATTERNS)).into());
            }
            2 => {
                s.insert("minLength".into(), 1.into());
                s.insert("maxLength".into(), self.rng.range(8, 256).into());
            }
            _ => {}
        }
        if self.rng.chance(30) {
            s.insert("description".into(), self.sentence(3, 12).into());
        }
        if self.rng.chance(15) {
            s.insert(
                "examples".into(),
                json!([format!("{}-{}", self.rng.pick(NOUNS), self.rng.range(1, 999))]),
            );
        }
        Value::Object(s)
    }

    fn enum_node(&mut self) -> Value {
        let n = self.rng.range(2, 8);
        let mut values: Vec<Value> = Vec::new();
        while (values.len() as u64) < n {
            let v: Value = if self.rng.chance(50) {
                (*self.rng.pick(ADJECTIVES)).into()
            } else {
                (*self.rng.pick(WORDS)).into()
            };
            if !values.contains(&v) {
                values.push(v);
            }
        }
        let mut e = Map::new();
        e.insert("kind".into(), "enum".into());
        e.insert("values".into(), Value::Array(values));
        if self.rng.chance(30) {
            e.insert("open".into(), true.into());
        }
        if self.rng.chance(10) {
            e.insert("reserved".into(), json!([{ "name": "legacy", "note": "Dropped in 2.0.0." }]));
        }
        if self.rng.chance(40) {
            e.insert("description".into(), self.sentence(4, 12).into());
        }
        Value::Object(e)
    }

    fn ref_node(&mut self) -> Value {
        let at = (self.rng.next() % self.named.len() as u64) as usize;
        let name = self.named[at].0.clone();
        json!({ "kind": "ref", "name": name })
    }

    fn object_node(&mut self, depth: u32, max_fields: u64) -> Value {
        let mut fields = Map::new();
        for _ in 0..self.rng.range(1, max_fields + 2) {
            let name = self.field_name(&fields);
            let mut f = Map::new();
            f.insert("type".into(), self.type_node(depth));
            if self.rng.chance(20) {
                f.insert("optional".into(), true.into());
            }
            if self.rng.chance(50) {
                f.insert("description".into(), self.sentence(3, 14).into());
            }
            if self.rng.chance(3) {
                f.insert("deprecated".into(), true.into());
            }
            if self.rng.chance(5) {
                f.insert(
                    "x-ui-hint".into(),
                    (*self.rng.pick(&["gauge", "hidden", "graph"])).into(),
                );
            }
            fields.insert(name, Value::Object(f));
        }
        let mut o = Map::new();
        o.insert("kind".into(), "object".into());
        o.insert("fields".into(), Value::Object(fields));
        if self.rng.chance(30) {
            o.insert("closed".into(), true.into());
        }
        if self.rng.chance(20) {
            o.insert("description".into(), self.sentence(4, 16).into());
        }
        Value::Object(o)
    }

    fn union_node(&mut self, depth: u32) -> Value {
        if self.rng.chance(50) {
            // A discriminated union of object arms.
            let arms: Vec<Value> = (0..self.rng.range(2, 4))
                .map(|i| {
                    let mut arm = self.object_node(depth.saturating_sub(1), 2);
                    let tag = format!("{}{i}", self.rng.pick(NOUNS));
                    if let Some(Value::Object(fields)) = arm.get_mut("fields") {
                        fields.insert(
                            "type".into(),
                            json!({ "type": { "kind": "literal", "value": tag } }),
                        );
                    }
                    arm
                })
                .collect();
            json!({ "kind": "union", "variants": arms, "discriminator": "type" })
        } else {
            let arms: Vec<Value> =
                (0..self.rng.range(2, 3)).map(|_| self.type_node(depth)).collect();
            json!({ "kind": "union", "variants": arms })
        }
    }

    /// An example value of a type node (generated JSON, built like `type_node` builds nodes).
    fn example_of(&mut self, node: &Value, depth: u32) -> Value {
        let kind = node.get("kind").and_then(Value::as_str).unwrap_or("any");
        if depth > 8 {
            return Value::Null;
        }
        match kind {
            "integer" => {
                let lo = node.get("min").and_then(Value::as_i64).unwrap_or(0);
                (lo + self.rng.range(0, 500) as i64).into()
            }
            "number" => {
                let lo = node.get("min").and_then(Value::as_f64).unwrap_or(0.0);
                json!(lo + self.rng.decimal(0.0, 100.0))
            }
            "string" => match node.get("format").and_then(Value::as_str) {
                Some("date-time") => format!(
                    "2024-{:02}-{:02}T{:02}:{:02}:00Z",
                    self.rng.range(1, 12),
                    self.rng.range(1, 28),
                    self.rng.range(0, 23),
                    self.rng.range(0, 59)
                )
                .into(),
                Some("uuid") => format!(
                    "{:08x}-0000-4000-8000-{:012x}",
                    self.rng.next() as u32,
                    self.rng.next() & 0xFFFF_FFFF_FFFF
                )
                .into(),
                _ => format!("{}-{}", self.rng.pick(NOUNS), self.rng.range(1, 9999)).into(),
            },
            "boolean" => self.rng.chance(50).into(),
            "null" | "any" => Value::Null,
            "literal" | "enum" => match node.get("value") {
                Some(v) => v.clone(),
                None => node
                    .get("values")
                    .and_then(Value::as_array)
                    .and_then(|v| v.first().cloned())
                    .unwrap_or(Value::Null),
            },
            "array" => {
                let items = node.get("items").cloned().unwrap_or(Value::Null);
                let n = self.rng.range(0, 3);
                Value::Array((0..n).map(|_| self.example_of(&items, depth + 1)).collect())
            }
            "tuple" => {
                let elements = node.get("elements").and_then(Value::as_array).cloned();
                Value::Array(
                    elements
                        .unwrap_or_default()
                        .iter()
                        .map(|e| self.example_of(e, depth + 1))
                        .collect(),
                )
            }
            "object" => {
                let mut out = Map::new();
                if let Some(Value::Object(fields)) = node.get("fields") {
                    for (name, field) in fields {
                        if let Some(ty) = field.get("type") {
                            out.insert(name.clone(), self.example_of(ty, depth + 1));
                        }
                    }
                }
                Value::Object(out)
            }
            "map" => {
                let values = node.get("values").cloned().unwrap_or(Value::Null);
                let mut out = Map::new();
                out.insert(
                    format!("{}{}", self.rng.pick(NOUNS), self.rng.range(1, 9)),
                    self.example_of(&values, depth + 1),
                );
                Value::Object(out)
            }
            "union" => match node.get("variants").and_then(Value::as_array) {
                Some(arms) if !arms.is_empty() => {
                    let arm = arms[(self.rng.next() % arms.len() as u64) as usize].clone();
                    self.example_of(&arm, depth + 1)
                }
                _ => Value::Null,
            },
            "ref" => {
                let name = node.get("name").and_then(Value::as_str).unwrap_or_default();
                match self.named.iter().find(|(n, _)| n == name) {
                    Some((_, target)) => {
                        let target = target.clone();
                        self.example_of(&target, depth + 1)
                    }
                    None => Value::Null,
                }
            }
            _ => Value::Null,
        }
    }
}
