//! One test per row of the evolution seed (schema-evolution: the additive-only table, the
//! request-option paragraph, optional/defaulted/nullable, the credential section, the
//! version-guard section and "reserve what you remove"), each change made in params, in a
//! result and in an event payload, and judged in both pairings: old callers × new plant (`p1`)
//! and new callers × old plant (`p2`). Each expected level is the seed's words for that row,
//! applied to the side that reads: params are read by the plant, results and event payloads by
//! callers. Rows the format cannot know (a meaning change with no change of type, unit,
//! format or default) say so and assert that nothing is reported.

use accord_compat_diff::{Level, Pairing, Report, Source, diff};
use serde_json::{Value, json};

use Level::{Breaking, Policy, Risky, Safe};

/// Where the changed type stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum At {
    /// The object param `config` of `pump.set`: callers write, the plant reads.
    Params,
    /// The result of `pump.get`: the plant writes, callers read.
    Result,
    /// The payload of the event `pump.changed`: the plant writes, subscribers read.
    Event,
}

const EVERYWHERE: [At; 3] = [At::Params, At::Result, At::Event];

/// A contract with `t` at `at`.
fn document(version: &str, at: At, t: &Value) -> Value {
    let (methods, events) = match at {
        At::Params => (
            json!({"set": {"semantics": "write", "params": [{"name": "config", "type": t}], "result": {"kind": "null"}}}),
            json!({}),
        ),
        At::Result => (json!({"get": {"semantics": "read", "result": t}}), json!({})),
        At::Event => (
            json!({"get": {"semantics": "read", "result": {"kind": "null"}}}),
            json!({"changed": {"payload": t}}),
        ),
    };
    let mut ns = json!({"version": version, "methods": methods});
    if events.as_object().is_some_and(|e| !e.is_empty()) {
        ns["events"] = events;
    }
    json!({"schema": 1, "namespaces": {"pump": ns}})
}

fn source(name: &str, doc: &Value) -> Source {
    Source::parse(name, &serde_json::to_string_pretty(doc).expect("json")).expect(name)
}

/// Compares `old` with `new` standing at `at`; the version moves a major step, so the version
/// policy stays quiet unless a test asks for it.
fn compare(at: At, old: &Value, new: &Value) -> Report {
    diff(
        &source("old.types.json", &document("1.0.0", at, old)),
        &source("new.types.json", &document("2.0.0", at, new)),
    )
}

/// The level of `rule` in `pairing` (`Level::None` when it is not reported there).
fn level(report: &Report, rule: &str, pairing: Pairing) -> Level {
    report
        .findings
        .iter()
        .filter(|f| f.rule == rule && f.pairing == pairing)
        .map(|f| f.level)
        .max()
        .unwrap_or(Level::None)
}

/// Asserts `rule`'s level in both pairings.
#[track_caller]
fn expect(report: &Report, at: At, rule: &str, p1: Level, p2: Level) {
    let got = (
        level(report, rule, Pairing::OldCallersNewPlant),
        level(report, rule, Pairing::NewCallersOldPlant),
    );
    assert_eq!(got, (p1, p2), "{rule} in {at:?} (p1, p2):\n{}", report.to_text());
}

fn object(fields: Value) -> Value {
    json!({"kind": "object", "fields": fields})
}

fn int() -> Value {
    json!({"type": {"kind": "integer"}})
}

fn optional(t: Value) -> Value {
    json!({"type": t, "optional": true})
}

/// The side that reads a result or an event is the callers: `(p1, p2)` of a change whose level
/// is `input` when the plant reads it and `output` when callers read it.
fn by_reader(
    at: At,
    when_plant_reads: (Level, Level),
    when_callers_read: (Level, Level),
) -> (Level, Level) {
    if at == At::Params { when_plant_reads } else { when_callers_read }
}

// ---------------------------------------------------------------------------------------------
// The additive-only table.

/// "Add an optional field — Yes — Readers ignore unknowns; absent must be meaningful. If the
/// field asks the receiver to act, see the paragraph below the table": safe for every reader;
/// in params, new callers × old plant is the paragraph's risk (see
/// `request_option_without_acknowledgment`).
#[test]
fn additive_add_an_optional_field_yes() {
    for at in EVERYWHERE {
        let r = compare(
            at,
            &object(json!({"a": int()})),
            &object(json!({"a": int(), "b": optional(json!({"kind": "integer"}))})),
        );
        expect(&r, at, "optional-field-added", Safe, Level::None);
        let option = by_reader(at, (Level::None, Risky), (Level::None, Level::None));
        expect(&r, at, "request-option-without-ack", option.0, option.1);
    }
}

/// "Add a required field — No — Old data has no value for it": breaking wherever the reader
/// requires it of a writer that predates it: the new plant reading old callers' params (p1),
/// new callers reading the old plant's results and events (p2).
#[test]
fn additive_add_a_required_field_no() {
    for at in EVERYWHERE {
        let r = compare(at, &object(json!({"a": int()})), &object(json!({"a": int(), "b": int()})));
        let (p1, p2) = by_reader(at, (Breaking, Level::None), (Safe, Breaking));
        expect(&r, at, "required-field-added", p1, p2);
    }
}

/// "Add an enum value — Only if — Every reader had an explicit unknown branch before you
/// shipped it". A closed enum says its readers have none: breaking for whoever reads the new
/// value with the old contract (the old plant reading new callers' params, old callers reading
/// the new plant's results and events). An `open` enum promises the branch: safe.
#[test]
fn additive_add_an_enum_value_only_if_every_reader_had_an_unknown_branch() {
    for at in EVERYWHERE {
        let closed =
            |values: Value| object(json!({"state": {"type": {"kind": "enum", "values": values}}}));
        let r =
            compare(at, &closed(json!(["on", "off"])), &closed(json!(["on", "off", "stalled"])));
        let (p1, p2) = by_reader(at, (Safe, Breaking), (Breaking, Level::None));
        expect(&r, at, "enum-value-added", p1, p2);

        let open = |values: Value| {
            object(json!({"state": {"type": {"kind": "enum", "values": values, "open": true}}}))
        };
        let r = compare(at, &open(json!(["on", "off"])), &open(json!(["on", "off", "stalled"])));
        expect(&r, at, "open-enum-value-added", Safe, Level::None);
        assert_eq!(r.worst(Pairing::NewCallersOldPlant), Level::None, "{}", r.to_text());
    }
}

/// "Widen a type (int32→int64, add a union arm) — Usually — Old readers may still truncate or
/// reject; verify the reader, not the schema". The contract declares the reader: an old
/// reader declared `integer` refuses 1.5, and one declared `string` refuses a number; so the
/// widening is breaking for the old reader and safe for the new one.
#[test]
fn additive_widen_a_type_usually() {
    for at in EVERYWHERE {
        let field = |t: Value| object(json!({"v": {"type": t}}));
        let r = compare(at, &field(json!({"kind": "integer"})), &field(json!({"kind": "number"})));
        let (p1, p2) = by_reader(at, (Safe, Breaking), (Breaking, Level::None));
        expect(&r, at, "type-widened", p1, p2);

        let union = json!({"kind": "union", "variants": [{"kind": "string"}, {"kind": "integer"}]});
        let r = compare(at, &field(json!({"kind": "string"})), &field(union));
        expect(&r, at, "union-variant-added", p1, p2);
    }
}

/// "Narrow a type, tighten a constraint — No — Existing data violates the new rule by
/// definition": breaking for the new reader of old writers' data (the new plant reading old
/// callers' params; new callers reading the old plant's results and events), including an enum
/// value removed from what old callers send (a narrowing).
#[test]
fn additive_narrow_a_type_or_tighten_a_constraint_no() {
    for at in EVERYWHERE {
        let (p1, p2) = by_reader(at, (Breaking, Level::None), (Safe, Breaking));
        let bounded = |max: u64| object(json!({"v": {"type": {"kind": "integer", "max": max}}}));
        let r = compare(at, &bounded(100), &bounded(50));
        expect(&r, at, "bound-tightened", p1, p2);

        let field = |t: Value| object(json!({"v": {"type": t}}));
        let r = compare(at, &field(json!({"kind": "number"})), &field(json!({"kind": "integer"})));
        expect(&r, at, "type-narrowed", p1, p2);

        let mode =
            |values: Value| object(json!({"mode": {"type": {"kind": "enum", "values": values}}}));
        let r = compare(at, &mode(json!(["eco", "boost"])), &mode(json!(["eco"])));
        expect(&r, at, "enum-value-removed", p1, p2);
    }
}

/// "Remove a field — No — Deprecate, stop writing, reserve; deletion is step 6, not step 1": a
/// required field removed breaks whoever still requires it (new callers' params at the old
/// plant; old callers reading the new plant), and in every position the skipped steps
/// (deprecate first, reserve the name) are policy findings in both pairings.
#[test]
fn additive_remove_a_field_no() {
    for at in EVERYWHERE {
        let r = compare(at, &object(json!({"a": int(), "b": int()})), &object(json!({"a": int()})));
        let (p1, p2) = by_reader(at, (Safe, Breaking), (Breaking, Level::None));
        expect(&r, at, "required-field-removed", p1, p2);
        expect(&r, at, "removed-without-deprecation", Policy, Policy);
        expect(&r, at, "removed-without-reserving", Policy, Policy);

        let r = compare(
            at,
            &object(json!({"a": int(), "b": optional(json!({"kind": "integer"}))})),
            &object(json!({"a": int()})),
        );
        expect(&r, at, "optional-field-removed", Safe, Level::None);
        expect(&r, at, "removed-without-reserving", Policy, Policy);
    }
}

/// "Change units, timezone, precision, or nullability semantics — No — Silent corruption with
/// no error anywhere — the worst class": a unit or format change is breaking in both pairings
/// (both sides read the other's values with the wrong meaning); admitting `null` breaks the
/// reader that never expected it.
#[test]
fn additive_change_units_timezone_precision_or_nullability_no() {
    for at in EVERYWHERE {
        let field = |t: Value| object(json!({"v": {"type": t}}));
        let r = compare(
            at,
            &field(json!({"kind": "integer", "unit": "ms"})),
            &field(json!({"kind": "integer", "unit": "s"})),
        );
        expect(&r, at, "unit-changed", Breaking, Breaking);

        let r = compare(
            at,
            &field(json!({"kind": "string", "format": "date"})),
            &field(json!({"kind": "string", "format": "date-time"})),
        );
        expect(&r, at, "format-changed", Breaking, Breaking);

        let nullable =
            json!({"kind": "union", "variants": [{"kind": "integer"}, {"kind": "null"}]});
        let r = compare(at, &field(json!({"kind": "integer"})), &field(nullable));
        let (p1, p2) = by_reader(at, (Safe, Breaking), (Breaking, Level::None));
        expect(&r, at, "nullable-added", p1, p2);
    }
}

/// "Rename — No — It is add plus dual-write plus backfill plus remove": breaking in both
/// pairings, one finding (not a removal, an addition and a reorder). A param renamed at its
/// position is the same for by-name callers, and nothing for by-position ones.
#[test]
fn additive_rename_no() {
    for at in EVERYWHERE {
        let r = compare(at, &object(json!({"rampMs": int()})), &object(json!({"rampTime": int()})));
        expect(&r, at, "probable-rename", Breaking, Breaking);
    }
    let method = |structure: &str, name: &str| {
        let version = if name == "blockHash" { "1.0.0" } else { "2.0.0" };
        json!({"schema": 1, "namespaces": {"pump": {"version": version, "methods": {"block": {
            "semantics": "read", "paramStructure": structure,
            "params": [{"name": name, "type": {"kind": "string"}}, {"name": "full", "type": {"kind": "boolean"}}],
            "result": {"kind": "null"}}}}}})
    };
    for structure in ["either", "by-name"] {
        let r = diff(
            &source("old", &method(structure, "blockHash")),
            &source("new", &method(structure, "BlockHash")),
        );
        expect(&r, At::Params, "probable-rename", Breaking, Breaking);
        for rule in ["params-reordered", "param-removed", "param-added-required"] {
            expect(&r, At::Params, rule, Level::None, Level::None);
        }
        assert_eq!(r.findings.len(), 2, "one finding per pairing: {}", r.to_text());
    }
    let r = diff(
        &source("old", &method("by-position", "blockHash")),
        &source("new", &method("by-position", "BlockHash")),
    );
    assert!(r.findings.is_empty(), "by-position callers see no change: {}", r.to_text());
}

/// "A field's meaning is part of its contract. Changing seconds to milliseconds … is a breaking
/// change that no type checker, schema validator, or test of the schema itself will catch."
/// The format cannot know a meaning that changed under an unchanged type, unit, format and
/// default (only the description moved): nothing is reported, and docs/compat-rules.md says
/// so. Give the new meaning a new name instead.
#[test]
fn a_meaning_change_with_no_type_or_unit_change_cannot_be_seen() {
    for at in EVERYWHERE {
        let field =
            |d: &str| object(json!({"timeout": {"type": {"kind": "integer", "description": d}}}));
        let r = compare(at, &field("seconds to wait"), &field("milliseconds to wait"));
        assert!(r.findings.is_empty(), "{at:?}: {}", r.to_text());
    }
}

// ---------------------------------------------------------------------------------------------
// The paragraph below the table: an addition that asks the other side to act.

/// "The receiver is safe. The sender is not, because its success path cannot tell 'done' from
/// 'ignored' … Test the pair that will exist mid-rollout, the new sender against the old
/// receiver": an optional param, or an optional member of an object param, with no new result
/// field is risky for new callers × old plant only; a result field derived from the outcome
/// (the acknowledgment) removes the finding. Results and events ask callers for nothing.
#[test]
fn request_option_without_acknowledgment() {
    let method = |params: Value, result: Value| {
        let version =
            if params.as_array().is_some_and(|p| p.len() > 1) { "2.0.0" } else { "1.0.0" };
        json!({"schema": 1, "namespaces": {"pump": {"version": version, "methods": {"start": {
            "semantics": "write", "params": params, "result": result}}}}})
    };
    let rpm = json!({"name": "rpm", "type": {"kind": "integer"}});
    let dry = json!({"name": "dryRun", "type": {"kind": "boolean"}, "optional": true});
    let null = json!({"kind": "null"});
    let r = diff(
        &source("old", &method(json!([rpm]), null.clone())),
        &source("new", &method(json!([rpm, dry]), null.clone())),
    );
    expect(&r, At::Params, "request-option-without-ack", Level::None, Risky);
    expect(&r, At::Params, "param-added-optional", Safe, Risky);

    let acked = object(json!({"dryRunApplied": {"type": {"kind": "boolean"}}}));
    let r = diff(
        &source("old", &method(json!([rpm]), null.clone())),
        &source("new", &method(json!([rpm, dry]), acked)),
    );
    expect(&r, At::Params, "request-option-without-ack", Level::None, Level::None);

    // Nested in an object param: "a new flag in a request body".
    let r = compare(
        At::Params,
        &object(json!({"rpm": int()})),
        &object(json!({"rpm": int(), "dryRun": optional(json!({"kind": "boolean"}))})),
    );
    expect(&r, At::Params, "request-option-without-ack", Level::None, Risky);
    for at in [At::Result, At::Event] {
        let r = compare(
            at,
            &object(json!({"rpm": int()})),
            &object(json!({"rpm": int(), "dryRun": optional(json!({"kind": "boolean"}))})),
        );
        expect(&r, at, "request-option-without-ack", Level::None, Level::None);
    }
}

// ---------------------------------------------------------------------------------------------
// Optional, defaulted, nullable.

/// "Optional — Absent — 'Not provided', distinguishable from any value — Use for new fields":
/// safe for the reader in every position (see `additive_add_an_optional_field_yes`).
/// "Defaulted — Absent, filled by the reader — a concrete value indistinguishable from one that
/// was written — Only when the default is correct for all historical data": the contract
/// cannot show that, so a default added is risky in both pairings, in every position ("A
/// reader-side default hides the difference between old data and a real value").
/// "Nullable — Present, explicitly null": admitting null is a widening the old reader refuses.
#[test]
fn optional_defaulted_nullable() {
    for at in EVERYWHERE {
        let opt = object(json!({"a": int()}));
        let r = compare(
            at,
            &opt,
            &object(json!({"a": int(), "b": optional(json!({"kind": "integer"}))})),
        );
        assert!(
            level(&r, "optional-field-added", Pairing::OldCallersNewPlant) == Safe
                && r.findings
                    .iter()
                    .filter(|f| f.rule != "request-option-without-ack")
                    .all(|f| f.level <= Safe),
            "{at:?}: {}",
            r.to_text()
        );

        let ramp = |t: Value| object(json!({"rampMs": optional(t)}));
        let r = compare(
            at,
            &ramp(json!({"kind": "integer"})),
            &ramp(json!({"kind": "integer", "default": 0})),
        );
        expect(&r, at, "default-added", Risky, Risky);
        let r = compare(
            at,
            &ramp(json!({"kind": "integer", "default": 0})),
            &ramp(json!({"kind": "integer"})),
        );
        expect(&r, at, "default-removed", Risky, Risky);

        let nullable =
            json!({"kind": "union", "variants": [{"kind": "integer"}, {"kind": "null"}]});
        let r =
            compare(at, &object(json!({"v": int()})), &object(json!({"v": {"type": nullable}})));
        let (p1, p2) = by_reader(at, (Safe, Breaking), (Breaking, Level::None));
        expect(&r, at, "nullable-added", p1, p2);
    }
}

// ---------------------------------------------------------------------------------------------
// A new credential is a required field.

/// "Adding authentication to a channel that already has clients is the Add a required field
/// row above … Every client already running sends nothing for it": a required credential param
/// is breaking for old callers × new plant. "The expand step is what the table already
/// prescribes for a required field: optional, with a defined absent-case": an optional one is
/// safe for them. "The same holds for any tightening of that channel, such as a required
/// handshake field": a field the reader newly requires of what it receives breaks that reader,
/// in results and events too (new callers reading the old plant).
#[test]
fn credential_a_new_credential_is_a_required_field() {
    let method = |params: Value| {
        let version = if params.as_array().is_some_and(Vec::is_empty) { "1.0.0" } else { "2.0.0" };
        json!({"schema": 1, "namespaces": {"pump": {"version": version, "methods": {"status": {
            "semantics": "read", "params": params, "result": {"kind": "null"}}}}}})
    };
    let token =
        |optional: bool| json!({"name": "token", "type": {"kind": "string"}, "optional": optional});
    let r =
        diff(&source("old", &method(json!([]))), &source("new", &method(json!([token(false)]))));
    expect(&r, At::Params, "param-added-required", Breaking, Level::None);
    let r = diff(&source("old", &method(json!([]))), &source("new", &method(json!([token(true)]))));
    expect(&r, At::Params, "param-added-optional", Safe, Risky);
    assert_eq!(r.worst(Pairing::OldCallersNewPlant), Safe, "{}", r.to_text());

    for at in EVERYWHERE {
        let r = compare(
            at,
            &object(json!({"data": int()})),
            &object(json!({"data": int(), "handshake": {"type": {"kind": "string"}}})),
        );
        let (p1, p2) = by_reader(at, (Breaking, Level::None), (Safe, Breaking));
        expect(&r, at, "required-field-added", p1, p2);
    }
}

// ---------------------------------------------------------------------------------------------
// A version guard has to know which kind of change moved the number.

/// "A version field that inherits a whole-record default instead of being absent when it was
/// never written" (a red flag): a default on a version field is `default-added`, risky in
/// both pairings, in every position. Which kind of change moved a counter ("where it
/// increments because a meaning changed, the readable set is exact equality") is not in the
/// format: a version field whose documented rule changes gives nothing, and the test says so.
/// The contract's own version is policy: no reader fails on a number, so an unbumped release
/// is `version-not-bumped` at level policy (old callers × new plant only), never breaking.
#[test]
fn version_guard_a_defaulted_version_field_and_the_contract_version() {
    for at in EVERYWHERE {
        let version = |t: Value| object(json!({"version": optional(t)}));
        let r = compare(
            at,
            &version(json!({"kind": "integer"})),
            &version(json!({"kind": "integer", "default": 1})),
        );
        expect(&r, at, "default-added", Risky, Risky);

        let counter =
            |d: &str| object(json!({"version": {"type": {"kind": "integer", "description": d}}}));
        let r = compare(
            at,
            &counter("bumped on additive changes"),
            &counter("bumped when a field's meaning changes"),
        );
        assert!(
            r.findings.is_empty(),
            "the format cannot know why a counter moves: {}",
            r.to_text()
        );
    }
    for (new_t, what) in [
        (
            object(json!({"a": int(), "b": optional(json!({"kind": "integer"}))})),
            "an additive change",
        ),
        (object(json!({"a": int(), "b": int()})), "a breaking change"),
    ] {
        let old = document("1.0.0", At::Params, &object(json!({"a": int()})));
        let new = document("1.0.0", At::Params, &new_t);
        let r = diff(&source("old", &old), &source("new", &new));
        expect(&r, At::Params, "version-not-bumped", Policy, Level::None);
        assert!(r.findings.iter().any(|f| f.message.contains(what)), "{}", r.to_text());
    }
}

// ---------------------------------------------------------------------------------------------
// Reserve what you remove.

/// "When a field … or enum ordinal is removed, mark the identifier reserved in the schema and
/// never reuse it. Reuse is a silent data-corruption bug": a removal not reserved and a
/// reservation dropped are policy in both pairings (no reader fails on them yet); a reserved
/// name reused is breaking in both; a removal that reserves its name gives no reservation
/// finding.
#[test]
fn reserve_what_you_remove() {
    for at in EVERYWHERE {
        let with = |fields: Value, reserved: &[&str]| {
            let mut t = object(fields);
            if !reserved.is_empty() {
                t["reserved"] = reserved.iter().map(|n| json!({"name": n})).collect();
            }
            t
        };
        let before = with(json!({"a": int(), "b": optional(json!({"kind": "integer"}))}), &[]);
        let r = compare(at, &before, &with(json!({"a": int()}), &[]));
        expect(&r, at, "removed-without-reserving", Policy, Policy);
        let r = compare(at, &before, &with(json!({"a": int()}), &["b"]));
        expect(&r, at, "removed-without-reserving", Level::None, Level::None);

        let reserved = with(json!({"a": int()}), &["b"]);
        let r = compare(
            at,
            &reserved,
            &with(json!({"a": int(), "b": optional(json!({"kind": "string"}))}), &["b"]),
        );
        expect(&r, at, "reserved-name-reused", Breaking, Breaking);
        let r = compare(at, &reserved, &with(json!({"a": int()}), &[]));
        expect(&r, at, "reserved-name-removed", Policy, Policy);

        let mode = |values: Value, reserved: Value| {
            object(
                json!({"mode": {"type": {"kind": "enum", "values": values, "reserved": reserved}}}),
            )
        };
        let r = compare(
            at,
            &mode(json!(["eco", "boost"]), json!([])),
            &mode(json!(["eco"]), json!([])),
        );
        expect(&r, at, "removed-without-reserving", Policy, Policy);
    }
}
