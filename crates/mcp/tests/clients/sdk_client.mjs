// accord mcp driven by the TypeScript MCP SDK (@modelcontextprotocol/sdk, pinned in
// package.json), the SDK behind most MCP hosts, over stdio or Streamable HTTP.
//
// Usage: node sdk_client.mjs ACCORD_BINARY CONTRACTS_DIR stdio|http
//
// The SDK validates every structuredContent against the tool's outputSchema with ajv's draft-07
// class (its default AjvJsonSchemaValidator), so a schema it reads differently from accord fails
// the tuple check here. Then the same on real public material: the Ethereum execution API as
// accord imports it, every exposed tool called with its method's first example. Prints "N of M
// checks passed"; exits 1 when any failed.

import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Checks, INVALID, UNKNOWN, semantics } from "./expect.mjs";

const [accord, contracts, transport] = process.argv.slice(2);
if (!["stdio", "http"].includes(transport)) {
  console.error("usage: node sdk_client.mjs ACCORD_BINARY CONTRACTS_DIR stdio|http");
  process.exit(2);
}
const checks = new Checks(`typescript sdk (${transport})`);

/** A connected client for `accord mcp PATH`, and how to end it. */
async function connect(path) {
  const client = new Client({ name: "accord-matrix", version: "1.0.0" });
  if (transport === "stdio") {
    await client.connect(
      new StdioClientTransport({ command: accord, args: ["mcp", path], stderr: "ignore" }),
    );
    return { client, end: () => client.close() };
  }
  const child = spawn(accord, ["mcp", path, "--http", "127.0.0.1:0"], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("accord mcp --http printed no URL in 20 s")), 20000);
    child.once("exit", (code) => reject(new Error(`accord mcp --http exited (${code})`)));
    lines.on("line", (line) => {
      const found = line.match(/http:\/\/\S+/);
      if (found) {
        clearTimeout(timer);
        resolve(found[0]);
      }
    });
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return {
    client,
    end: async () => {
      await client.close();
      child.kill();
    },
  };
}

/** A tool call whose thrown error (the SDK's own output-schema check) becomes the result. */
async function call(client, name, args) {
  try {
    return await client.callTool({ name, arguments: args });
  } catch (e) {
    return { thrown: String(e) };
  }
}

for (const name of ["pump-plant", "boiler-plant"]) {
  const path = `${contracts}/${name}.types.json`;
  const { client, end } = await connect(path);
  try {
    const { tools } = await client.listTools();
    checks.tools(name, tools, semantics(path));
    if (name === "pump-plant") {
      checks.tuple(name, await call(client, "pump_status", { pump: "P-101" }));
      checks.toolError(name, "an invalid argument", await call(client, "pump_status", INVALID), [
        "/pump: expected",
      ]);
      checks.toolError(name, "an unknown argument", await call(client, "pump_status", UNKNOWN), [
        "/extra: unknown argument `extra`",
        "`pump`",
      ]);
      const { resources } = await client.listResources();
      await checks.resources(name, resources, async (uri) => {
        const { contents } = await client.readResource({ uri });
        return contents[0].text;
      });
    }
  } finally {
    await end();
  }
}
// The Ethereum execution API (fixtures/import/execution-apis, imported from
// ethereum/execution-apis): its annotations, and every exposed tool whose method has an example,
// called with the example's params; the client must take each answer (its outputSchema check
// passes), whatever the fake picks.
{
  const path = `${contracts}/../import/execution-apis/expected.types.json`;
  const contract = JSON.parse(readFileSync(path, "utf8"));
  const where = "execution-apis";
  const { client, end } = await connect(path);
  try {
    const { tools } = await client.listTools();
    checks.tools(where, tools, semantics(path), null);
    for (const tool of tools) {
      const [ns, ...rest] = tool.title.split("_");
      const method = contract.namespaces[ns]?.methods?.[rest.join("_")];
      const example = method?.examples?.find((e) => Array.isArray(e.params));
      if (!example) continue;
      const args = Object.fromEntries(
        example.params.map((value, i) => [method.params[i].name, value]),
      );
      const result = await call(client, tool.name, args);
      if (process.env.ACCORD_MATRIX_VERBOSE) console.error(tool.name, JSON.stringify(result));
      checks.check(
        `${where}: ${tool.name} with its example, answer taken by the client`,
        result.thrown === undefined && (result.isError || result.structuredContent !== undefined),
        { args, result },
      );
    }
  } finally {
    await end();
  }
}
checks.finish();
