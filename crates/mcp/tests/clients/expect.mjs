// What every client of the matrix checks, worked out from the contract's own JSON (not from
// accord's code): the design note's semantics → annotations table, the portable tool name, and
// the calls of the pump plant. Shared by sdk_client.mjs and inspector_client.mjs; the Python
// client (../python_client.py) holds the same table.

import { readFileSync } from "node:fs";

export const NAME = /^[A-Za-z0-9_-]{1,48}$/;

// readOnly, destructive, idempotent, openWorld (false: the fake).
export const TABLE = {
  read: [true, false, true, false],
  write: [false, false, false, false],
  idempotent: [false, false, true, false],
  destructive: [false, true, false, false],
};

/** Wire name -> semantics (or undefined) for every method of the contract at `path`. */
export function semantics(path) {
  const contract = JSON.parse(readFileSync(path, "utf8"));
  const wire = contract.wire ?? {};
  const out = new Map();
  for (const [ns, body] of Object.entries(contract.namespaces)) {
    const nsWire = body.wire ?? {};
    const separator = nsWire.separator ?? wire.separator ?? ".";
    for (const [name, method] of Object.entries(body.methods ?? {})) {
      const wireName = (nsWire.methods ?? {})[name] ?? `${ns}${separator}${name}`;
      out.set(wireName, method.semantics);
    }
  }
  return out;
}

/** The checks of one client: each named, counted, failures kept with what was seen. */
export class Checks {
  constructor(client) {
    this.client = client;
    this.passed = 0;
    this.failures = [];
  }

  check(name, ok, seen) {
    if (ok) {
      this.passed += 1;
    } else {
      this.failures.push(`${name}: ${typeof seen === "string" ? seen : JSON.stringify(seen)}`);
    }
  }

  /** Every listed tool: a portable name, and its four hints as the table says; `hidden`, a
   * destructive tool the default policy must not list. */
  tools(where, tools, methods, hidden = "tank_drain") {
    for (const tool of tools) {
      const a = tool.annotations ?? {};
      const hints = [a.readOnlyHint, a.destructiveHint, a.idempotentHint, a.openWorldHint];
      this.check(`${where} ${tool.name}: portable name`, NAME.test(tool.name), tool.name);
      const want =
        tool.name === "collect_events" ? TABLE.read : TABLE[methods.get(tool.title)] ?? null;
      this.check(
        `${where} ${tool.name}: annotations of ${methods.get(tool.title) ?? "collect_events"}`,
        want !== null && JSON.stringify(hints) === JSON.stringify(want),
        { hints, want },
      );
    }
    const names = tools.map((t) => t.name);
    if (hidden) {
      this.check(`${where}: ${hidden} (destructive) hidden by default`, !names.includes(hidden), names);
    }
  }

  /** pump_status on the fake: a result whose `vibration` is a 3-tuple of numbers. */
  tuple(where, result) {
    const v = result?.structuredContent?.result?.vibration;
    this.check(
      `${where}: pump_status answers a vibration 3-tuple`,
      !result?.isError && Array.isArray(v) && v.length === 3 && v.every((x) => typeof x === "number"),
      result,
    );
  }

  /** A tool error: `isError`, no structuredContent, a text that holds every `needle`. */
  toolError(where, what, result, needles) {
    const text = (result?.content ?? []).map((c) => c.text ?? "").join("\n");
    this.check(
      `${where}: ${what} is a tool error in text naming ${needles.join(", ")}`,
      result?.isError === true &&
        result.structuredContent === undefined &&
        needles.every((n) => text.includes(n)),
      result,
    );
  }

  /** resources/list holds the contract and a namespace's types; both read as JSON. */
  resources(where, listed, readText) {
    const uris = listed.map((r) => r.uri);
    this.check(`${where}: resources/list`, uris.includes("accord://contract") && uris.includes("accord://types/pump"), uris);
    return Promise.all(
      ["accord://contract", "accord://types/pump"].map(async (uri) => {
        let ok = false;
        let seen;
        try {
          seen = await readText(uri);
          ok = typeof seen === "string" && JSON.parse(seen) !== null && seen.length > 2;
        } catch (e) {
          seen = String(e);
        }
        this.check(`${where}: resources/read ${uri}`, ok, seen);
      }),
    );
  }

  /** Prints the count (and failures); exits 1 when any check failed. */
  finish() {
    const total = this.passed + this.failures.length;
    for (const f of this.failures) console.log(`FAIL ${f}`);
    console.log(`${this.client}: ${this.passed} of ${total} checks passed`);
    process.exit(this.failures.length === 0 ? 0 : 1);
  }
}

/** The arguments of the error calls: an invalid value, and an argument pump_status lacks. */
export const INVALID = { pump: 7 };
export const UNKNOWN = { pump: "P-101", extra: 1 };
