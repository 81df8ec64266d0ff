//! `--scenario FILE`: canned answers matched by method and params (the format is in
//! docs/serve.md). Every entry is checked against the contract when the plant starts, so a
//! canned answer is as valid as a generated one; a bad file is refused at `file:line:column`.

use std::sync::Arc;

use accord_schema_model::{Pointer, SourceMap};
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
    pub(crate) method: String,
    /// The params it answers, read by name; `None` answers any params.
    pub(crate) params: Option<Value>,
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
        canned.push(read_entry(&reader, &at.index(index), entry, table, contract)?);
    }
    Ok(canned)
}

fn read_entry(
    reader: &Reader<'_>,
    at: &Pointer,
    entry: &Value,
    table: &Table,
    contract: &Contract,
) -> Result<Canned, Error> {
    let Some(object) = entry.as_object() else {
        return Err(
            reader.refuse(at, "a canned answer is an object with `method` and `result` or `error`")
        );
    };
    let Some(method) = object.get("method").and_then(Value::as_str) else {
        return Err(reader.refuse(at, "`method` (namespace.method) is missing or not a string"));
    };
    let Some(info) = table.methods.get(method) else {
        return Err(
            reader.refuse(&at.key("method"), format!("the contract has no method `{method}`"))
        );
    };
    let params = match object.get("params") {
        None => None,
        Some(params @ (Value::Object(_) | Value::Array(_))) => {
            let what = format!("these params are not valid for `{method}`");
            reader.check(&at.key("params"), contract, &info.params, params, &what)?;
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
    let answer = match (object.get("result"), object.get("error")) {
        (Some(result), None) => {
            let what = format!("this result does not match `{method}`'s result type");
            reader.check(&at.key("result"), contract, &info.result, result, &what)?;
            CannedAnswer::Result(serde_json::to_vec(result).unwrap_or_default().into())
        }
        (None, Some(error)) => read_error(reader, &at.key("error"), error, info, contract)?,
        (Some(_), Some(_)) => {
            return Err(reader.refuse(at, "a canned answer has `result` or `error`, not both"));
        }
        (None, None) => return Err(reader.refuse(at, "a canned answer needs `result` or `error`")),
    };
    Ok(Canned { method: method.to_owned(), params, answer, delay_ms })
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
    let Some(declared) = info.errors.iter().find(|e| e.code == code) else {
        let codes: Vec<String> = info.errors.iter().map(|e| e.code.to_string()).collect();
        return Err(reader.refuse(
            &at.key("code"),
            format!(
                "`{}` declares no error {code} (it declares: {})",
                info.name,
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
        self.method == method && self.params.as_ref().is_none_or(|p| p == params)
    }
}
