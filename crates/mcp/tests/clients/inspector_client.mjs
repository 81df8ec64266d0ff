// accord mcp driven by the MCP Inspector's CLI (@modelcontextprotocol/inspector --cli, pinned
// in package.json), one command per request as a user types them, over stdio.
//
// Usage: node inspector_client.mjs ACCORD_BINARY CONTRACTS_DIR
//
// tools/list runs with --strict, the Inspector's tool-schema portability check (exit 6 on an
// error-severity problem, such as the bare `false` a draft-07 reader takes for "nothing").
// Prints "N of M checks passed"; exits 1 when any failed.

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Checks, INVALID, UNKNOWN, semantics } from "./expect.mjs";

const [accord, contracts] = process.argv.slice(2);
if (!contracts) {
  console.error("usage: node inspector_client.mjs ACCORD_BINARY CONTRACTS_DIR");
  process.exit(2);
}
const launcher = fileURLToPath(
  new URL(
    "./node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js",
    import.meta.url,
  ),
);
// The Inspector keeps a server catalog (~/.mcp-inspector/mcp.json by default): a throwaway one.
const home = mkdtempSync(join(tmpdir(), "accord-inspector-"));
const checks = new Checks("mcp inspector cli");

/** One Inspector command against `accord mcp PATH`: its exit code and its JSON answer. */
function inspect(path, args) {
  const run = spawnSync(process.execPath, [launcher, "--cli", accord, "mcp", path, ...args], {
    encoding: "utf8",
    timeout: 60000,
    env: { ...process.env, MCP_CATALOG_PATH: join(home, "mcp.json") },
  });
  let answer;
  try {
    answer = JSON.parse(run.stdout);
  } catch {
    answer = { unparsed: run.stdout, stderr: run.stderr?.slice(-2000), error: String(run.error ?? "") };
  }
  return { status: run.status, answer, stderr: run.stderr ?? "" };
}

/** `--tool-arg` pairs; values as JSON, as the Inspector parses them. */
function toolArgs(args) {
  return ["--tool-arg", ...Object.entries(args).map(([k, v]) => `${k}=${JSON.stringify(v).replace(/^"(.*)"$/, "$1")}`)];
}

try {
  for (const name of ["pump-plant", "boiler-plant"]) {
    const path = `${contracts}/${name}.types.json`;
    const listed = inspect(path, ["--method", "tools/list", "--strict"]);
    const portability = listed.stderr.split("\n").filter((l) => /^(Error|Warning):|Issue:|Path:/.test(l));
    checks.check(`${name}: tools/list --strict (schema portability)`, listed.status === 0, {
      status: listed.status,
      portability,
    });
    checks.tools(name, listed.answer.tools ?? [], semantics(path));
    if (name !== "pump-plant") continue;
    const call = (args) =>
      inspect(path, ["--method", "tools/call", "--tool-name", "pump_status", ...toolArgs(args)]).answer;
    checks.tuple(name, call({ pump: "P-101" }));
    checks.toolError(name, "an invalid argument", call(INVALID), ["/pump: expected"]);
    checks.toolError(name, "an unknown argument", call(UNKNOWN), [
      "/extra: unknown argument `extra`",
      "`pump`",
    ]);
    const resources = inspect(path, ["--method", "resources/list"]).answer.resources ?? [];
    await checks.resources(name, resources, async (uri) => {
      const read = inspect(path, ["--method", "resources/read", "--uri", uri]).answer;
      return read.contents?.[0]?.text;
    });
  }
  // Real public material: the Ethereum execution API as accord imports it (all 86 methods
  // declare semantics that the default policy exposes), through the same portability check; the
  // warnings it prints for results the specification leaves untyped are not errors.
  const ethereum = `${contracts}/../import/execution-apis/expected.types.json`;
  const all = inspect(ethereum, ["--method", "tools/list", "--strict"]);
  const errors = all.stderr.split("\n").filter((l) => /^Error:|Issue:|Path:/.test(l));
  checks.check("execution-apis: tools/list --strict (schema portability)", all.status === 0 && (all.answer.tools ?? []).length > 0, {
    status: all.status,
    errors,
  });
  checks.tools("execution-apis", all.answer.tools ?? [], semantics(ethereum), null);
} finally {
  rmSync(home, { recursive: true, force: true });
}
checks.finish();
