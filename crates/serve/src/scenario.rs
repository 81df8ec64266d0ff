//! `--scenario FILE`: canned answers matched by method and params, exactly or by rules on the
//! values at JSON Pointers (the format is in docs/serve.md). Every entry is checked against the
//! contract when the plant starts, so a canned answer is as valid as a generated one; a bad file
//! is refused at `file:line:column`.

use std::sync::Arc;

use accord_schema_model::{Dialect, Pointer, SourceMap};
use accord_validate::Contract;
use accord_wire::RpcError;
use serde_json::Value;

use crate::Error;
use crate::table::{MethodInfo, Table};

/// The scenario format numbers this build reads.
const FORMAT: u64 = 1;

/// One canned answer.
#[derive(Debug)]
pub(crate) struct Canned {
    /// The method, `namespace.method`.
    pub(crate) method: String,
    /// The params it answers, read by name; `None` answers any params.
    pub(crate) params: Option<Value>,
    /// Rules every one of which the params (read by name) must pass.
    pub(crate) rules: Vec<Rule>,
    pub(crate) answer: CannedAnswer,
    pub(crate) delay_ms: u64,
}

/// What a canned entry answers.
#[derive(Debug)]
pub(crate) enum CannedAnswer {
    /// A result, serialized once.
    Result(Arc<[u8]>),
    /// One of the method's declared errors.
    Error(RpcError),
    /// A generated value of this arm of the result's union.
    Arm(usize),
    /// Nothing: after the delay the call is answered as if no entry had matched.
    Continue,
}

/// A test of the value at a JSON Pointer into the params, read by name.
#[derive(Debug)]
pub(crate) struct Rule {
    /// The pointer, its first segment a param's name.
    pointer: String,
    test: Test,
}

#[derive(Debug)]
enum Test {
    /// The value equals this one.
    Equals(Value),
    /// The value is a string this pattern matches (anywhere, as `pattern` types do).
    Pattern(regex::Regex),
    /// The value equals one of these.
    OneOf(Vec<Value>),
}

impl Rule {
    fn holds(&self, params: &Value) -> bool {
        let Some(value) = params.pointer(&self.pointer) else { return false };
        match &self.test {
            Test::Equals(wanted) => value == wanted,
            Test::Pattern(pattern) => value.as_str().is_some_and(|text| pattern.is_match(text)),
            Test::OneOf(choices) => choices.contains(value),
        }
    }
}

/// The scenario text as the caller read it, with the name it should be reported under.
#[derive(Debug, Clone)]
pub struct ScenarioSource {
    /// The file name, as errors report it.
    pub file: String,
    /// Its text.
    pub text: String,
}

struct Reader<'a> {
    file: &'a str,
    map: SourceMap<'a>,
}

impl Reader<'_> {
    /// Refuses `value` (at `at`) unless `target`'s validator accepts it, at its first error.
    fn check(
        &self,
        at: &Pointer,
        contract: &Contract,
        target: &accord_validate::Target,
        value: &Value,
        what: &str,
    ) -> Result<(), Error> {
        match contract.validator(target)?.validate(value) {
            Ok(()) => Ok(()),
            Err(errors) => {
                let first = &errors[0];
                Err(self.refuse(&pointer_under(at, &first.pointer), format!("{what}: {first}")))
            }
        }
    }

    fn refuse(&self, pointer: &Pointer, reason: impl Into<String>) -> Error {
        let offset = self.map.locate(pointer).map_or(0, |l| l.label().start);
        let position = self.map.position(offset);
        Error::Scenario {
            file: self.file.to_owned(),
            line: position.line,
            column: position.column,
            reason: format!("{} (at {})", reason.into(), display(pointer)),
        }
    }
}

fn display(pointer: &Pointer) -> String {
    if pointer.is_root() { "the top".to_owned() } else { pointer.to_string() }
}

/// Reads and checks a scenario file against the served contract.
pub(crate) fn load(
    source: &ScenarioSource,
    table: &Table,
    contract: &Contract,
    dialect: &Dialect,
) -> Result<Vec<Canned>, Error> {
    let reader = Reader { file: &source.file, map: SourceMap::new(&source.text) };
    // The model's strict JSON: a duplicate key would silently lose one canned answer.
    let value: Value = accord_schema_model::parse_json(&source.text).map_err(|err| {
        let (line, column) = err.position.map_or((1, 1), |p| (p.line, p.column));
        Error::Scenario {
            file: source.file.clone(),
            line,
            column,
            reason: format!("not JSON as accord reads it: {}", err.kind),
        }
    })?;
    let root = Pointer::root();
    let Some(top) = value.as_object() else {
        return Err(
            reader.refuse(&root, "a scenario is an object {\"scenario\": 1, \"answers\": [...]}")
        );
    };
    match top.get("scenario").and_then(Value::as_u64) {
        Some(FORMAT) => {}
        Some(other) => {
            return Err(reader.refuse(
                &root.key("scenario"),
                format!("scenario format {other} is not one this accord reads (it reads 1)"),
            ));
        }
        None => {
            return Err(reader
                .refuse(&root, "`scenario` (the format number, 1) is missing or not an integer"));
        }
    }
    let at = root.key("answers");
    let Some(answers) = top.get("answers").and_then(Value::as_array) else {
        return Err(reader.refuse(&root, "`answers` must be an array of canned answers"));
    };
    let mut canned = Vec::with_capacity(answers.len());
    for (index, entry) in answers.iter().enumerate() {
        let what = Context { table, contract, dialect };
        canned.push(read_entry(&reader, &at.index(index), entry, &what)?);
    }
    Ok(canned)
}

/// What an entry is checked against.
struct Context<'a> {
    table: &'a Table,
    contract: &'a Contract,
    dialect: &'a Dialect,
}

fn read_entry(
    reader: &Reader<'_>,
    at: &Pointer,
    entry: &Value,
    cx: &Context<'_>,
) -> Result<Canned, Error> {
    let contract = cx.contract;
    let Some(object) = entry.as_object() else {
        return Err(
            reader.refuse(at, "a canned answer is an object with `method` and `result` or `error`")
        );
    };
    let Some(method) = object.get("method").and_then(Value::as_str) else {
        return Err(reader.refuse(at, "`method` (namespace.method) is missing or not a string"));
    };
    // The method by its wire name or by `namespace.method`, as the Dialect resolves it.
    let found = cx.dialect.resolve(method).map(|r| r.wire_name.as_str());
    let Some(info) = found.and_then(|wire_name| cx.table.methods.get(wire_name)) else {
        return Err(
            reader.refuse(&at.key("method"), format!("the contract has no method `{method}`"))
        );
    };
    let method = info.name();
    let params = match object.get("params") {
        None => None,
        Some(params @ (Value::Object(_) | Value::Array(_))) => {
            let what = format!("these params are not valid for `{method}`");
            reader.check(&at.key("params"), contract, info.params(), params, &what)?;
            Some(info.by_name(Some(params)).into_owned())
        }
        Some(_) => {
            return Err(reader.refuse(&at.key("params"), "`params` must be an object or an array"));
        }
    };
    let delay_ms = match object.get("delayMs") {
        None => 0,
        Some(v) => match v.as_u64() {
            Some(ms) if ms <= accord_wire::fake::MAX_DELAY_MS => ms,
            _ => {
                return Err(reader
                    .refuse(&at.key("delayMs"), "`delayMs` must be an integer from 0 to 60000"));
            }
        },
    };
    let rules = match object.get("match") {
        None => Vec::new(),
        Some(rules) => read_rules(reader, &at.key("match"), rules, info)?,
    };
    let given: Vec<&str> = ANSWERS.iter().copied().filter(|k| object.contains_key(*k)).collect();
    let answer = match given.as_slice() {
        ["result"] => {
            let result = &object["result"];
            let what = format!("this result does not match `{method}`'s result type");
            reader.check(&at.key("result"), contract, info.result(), result, &what)?;
            CannedAnswer::Result(serde_json::to_vec(result).unwrap_or_default().into())
        }
        ["error"] => read_error(reader, &at.key("error"), &object["error"], info, contract)?,
        ["example"] => read_example(reader, &at.key("example"), &object["example"], info)?,
        ["arm"] => read_arm(reader, &at.key("arm"), &object["arm"], info, contract)?,
        [] if object.contains_key("delayMs") => CannedAnswer::Continue,
        [] => {
            return Err(reader.refuse(
                at,
                "a canned answer needs one of `result`, `error`, `example`, `arm`, or a `delayMs`",
            ));
        }
        ["result", "error"] => {
            return Err(reader.refuse(at, "a canned answer has `result` or `error`, not both"));
        }
        _ => {
            return Err(reader.refuse(
                at,
                format!(
                    "a canned answer has one of {}, not {}",
                    ANSWERS.join(", "),
                    given.join(" and ")
                ),
            ));
        }
    };
    Ok(Canned { method: method.to_owned(), params, rules, answer, delay_ms })
}

/// The members that say what an entry answers; at most one is given.
const ANSWERS: [&str; 4] = ["result", "error", "example", "arm"];

/// `match`: `{POINTER: {"equals": V} | {"pattern": RE} | {"oneOf": [V, ...]}, ...}`. A
/// pointer's first segment is a param's name, or its position (`/1`), which is read as the
/// name of the param at that position, since params are matched read by name.
fn read_rules(
    reader: &Reader<'_>,
    at: &Pointer,
    rules: &Value,
    info: &MethodInfo,
) -> Result<Vec<Rule>, Error> {
    let Some(rules) = rules.as_object() else {
        return Err(reader.refuse(at, "`match` is an object of JSON Pointer → rule"));
    };
    let mut out = Vec::with_capacity(rules.len());
    for (pointer, rule) in rules {
        let here = at.key(pointer);
        let Some(rest) = pointer.strip_prefix('/') else {
            return Err(reader.refuse(
                &here,
                format!("`{pointer}` is not a JSON Pointer into the params (it starts with `/`)"),
            ));
        };
        let (first, tail) = rest.split_once('/').map_or((rest, None), |(f, t)| (f, Some(t)));
        let name = match first.parse::<usize>() {
            Ok(position) if !info.param_names.iter().any(|n| n == first) => {
                match info.param_names.get(position) {
                    Some(name) => name.replace('~', "~0").replace('/', "~1"),
                    None => {
                        return Err(reader.refuse(
                            &here,
                            format!("`{}` has no param at position {position}", info.name()),
                        ));
                    }
                }
            }
            _ => first.to_owned(),
        };
        let pointer = match tail {
            Some(tail) => format!("/{name}/{tail}"),
            None => format!("/{name}"),
        };
        let test = match rule.as_object().map(|r| r.iter().collect::<Vec<_>>()).as_deref() {
            Some([(key, value)]) => match (key.as_str(), value) {
                ("equals", value) => Test::Equals((*value).clone()),
                ("oneOf", Value::Array(choices)) => Test::OneOf(choices.clone()),
                ("pattern", Value::String(pattern)) => match regex::Regex::new(pattern) {
                    Ok(pattern) => Test::Pattern(pattern),
                    Err(error) => {
                        return Err(
                            reader.refuse(&here.key("pattern"), format!("not a pattern: {error}"))
                        );
                    }
                },
                _ => return Err(reader.refuse(&here, RULE_SHAPE)),
            },
            _ => return Err(reader.refuse(&here, RULE_SHAPE)),
        };
        out.push(Rule { pointer, test });
    }
    Ok(out)
}

const RULE_SHAPE: &str =
    "a rule is one of {\"equals\": VALUE}, {\"pattern\": \"REGEX\"}, {\"oneOf\": [VALUE, ...]}";

/// `example`: a method example's name, or its index in the method's `examples`; it must have
/// a result that passed the result type at startup.
fn read_example(
    reader: &Reader<'_>,
    at: &Pointer,
    wanted: &Value,
    info: &MethodInfo,
) -> Result<CannedAnswer, Error> {
    let found = info.examples.iter().find(|e| match wanted {
        Value::String(name) => e.name.as_deref() == Some(name.as_str()),
        Value::Number(n) => n.as_u64() == Some(e.index as u64),
        _ => false,
    });
    match found {
        Some(example) => Ok(CannedAnswer::Result(example.result.clone())),
        None => Err(reader
            .refuse(at, format!("`{}` has no example {wanted} with a valid result", info.name()))),
    }
}

/// `arm`: the index of an arm of the method's result type, which must be a union.
fn read_arm(
    reader: &Reader<'_>,
    at: &Pointer,
    arm: &Value,
    info: &MethodInfo,
    contract: &Contract,
) -> Result<CannedAnswer, Error> {
    let arms = contract.validator(info.result())?.union_arms();
    match (arm.as_u64(), arms) {
        (Some(index), Some(arms)) if (index as usize) < arms => {
            Ok(CannedAnswer::Arm(index as usize))
        }
        (_, Some(arms)) => Err(reader.refuse(
            at,
            format!(
                "`arm` is the index of an arm of `{}`'s result (0 to {})",
                info.name(),
                arms - 1
            ),
        )),
        (_, None) => Err(reader.refuse(
            at,
            format!("`{}`'s result is not a union, so it has no arm to pick", info.name()),
        )),
    }
}

fn read_error(
    reader: &Reader<'_>,
    at: &Pointer,
    error: &Value,
    info: &MethodInfo,
    contract: &Contract,
) -> Result<CannedAnswer, Error> {
    let Some(code) = error.get("code").and_then(Value::as_i64) else {
        return Err(reader.refuse(at, "`error` is an object with an integer `code` (and `data`)"));
    };
    let Some(declared) = info.errors().iter().find(|e| e.code == code) else {
        let codes: Vec<String> = info.errors().iter().map(|e| e.code.to_string()).collect();
        return Err(reader.refuse(
            &at.key("code"),
            format!(
                "`{}` declares no error {code} (it declares: {})",
                info.name(),
                if codes.is_empty() { "none".to_owned() } else { codes.join(", ") }
            ),
        ));
    };
    let data = error.get("data");
    match (&declared.data, data) {
        (Some(target), Some(data)) => {
            let what = format!("this data does not match error {code}'s data type");
            reader.check(&at.key("data"), contract, target, data, &what)?;
        }
        (Some(_), None) => {
            return Err(reader.refuse(at, format!("error {code} carries `data`; give it")));
        }
        (None, Some(_)) => {
            return Err(reader.refuse(&at.key("data"), format!("error {code} declares no `data`")));
        }
        (None, None) => {}
    }
    Ok(CannedAnswer::Error(RpcError::declared(code, &declared.message, data.cloned())))
}

/// `base` followed by the segments of a validation error's pointer (already escaped).
fn pointer_under(base: &Pointer, inner: &str) -> Pointer {
    let mut out = base.clone();
    for segment in inner.split('/').skip(1) {
        // An array index and an object key of the same digits are the same pointer segment.
        out.push_key(&segment.replace("~1", "/").replace("~0", "~"));
    }
    out
}

impl Canned {
    /// Whether this entry answers `params` (read by name).
    pub(crate) fn matches(&self, method: &str, params: &Value) -> bool {
        self.method == method
            && self.params.as_ref().is_none_or(|p| p == params)
            && self.rules.iter().all(|rule| rule.holds(params))
    }
}
