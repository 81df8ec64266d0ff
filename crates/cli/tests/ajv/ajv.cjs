// ajv 8 in its default strict mode (JSON Schema 2020-12) with ajv-formats, for
// crates/cli/tests/it/export_ajv.rs. Reads one JSON request on stdin, a list of cases:
//   [{"schema": S, "values": [v…]}…]
//   → [{"errors": [text…], "warnings": [text…], "verdicts": [bool…]}…]
// `errors`: what stops compiling (every `$defs` entry is compiled too, since ajv compiles only
// what the root reaches); `warnings`: what strict mode logs (strictTypes, strictTuples), which
// the test holds to zero as well; `verdicts`: each value's validity.
"use strict";
const Ajv2020 = require("ajv/dist/2020").default;
const addFormats = require("ajv-formats").default;

function run(request) {
  const warnings = [];
  const logger = {
    log() {},
    warn: (...a) => warnings.push(a.join(" ")),
    error: (...a) => warnings.push(a.join(" ")),
  };
  const ajv = new Ajv2020({ logger });
  addFormats(ajv);
  const out = { errors: [], warnings, verdicts: [] };
  let validate;
  try {
    validate = ajv.compile(request.schema);
  } catch (e) {
    out.errors.push(String(e.message));
    return out;
  }
  for (const name of Object.keys(request.schema.$defs || {})) {
    const pointer = "#/$defs/" + name.replace(/~/g, "~0").replace(/\//g, "~1");
    try {
      ajv.compile({ $ref: pointer, $defs: request.schema.$defs });
    } catch (e) {
      out.errors.push(`${pointer}: ${e.message}`);
    }
  }
  out.verdicts = (request.values || []).map((v) => validate(v) === true);
  return out;
}

let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  process.stdout.write(JSON.stringify(JSON.parse(input).map(run)));
});
