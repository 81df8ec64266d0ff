"""accord mcp driven by the Python `mcp` SDK, an independent client (docs/mcp.md).

Usage: python_client.py ACCORD_BINARY CONTRACTS_DIR

Runs with either SDK line: 1.x (`ClientSession`, camelCase fields) or 2.x (`Client`, snake_case
fields, its "legacy" and "auto" connect modes). Over stdio and Streamable HTTP, the client matrix's
checks (crates/mcp/tests/clients/expect.mjs holds the same for the TypeScript clients): every tool's
name and four annotations against the design note's table worked out from the contract's own JSON
(not from accord's code); a read tool whose result holds a tuple (pump_status' vibration), which the
SDK validates against the tool's outputSchema; an invalid and an unknown argument, each a tool error
in text with no structuredContent; the resources, listed and read. Then a destructive tool must be
absent by default and present with --allow destructive. Then, once, real public material: the
Ethereum execution API as accord imports it, its tools' annotations, and every tool whose method
has an example called with the example's params (the SDK must take each answer).
Prints "N of M checks passed"; exits 1 with the failures listed when any failed.
"""

import asyncio
import contextlib
import importlib.metadata
import json
import re
import sys

from mcp import StdioServerParameters

SDK = importlib.metadata.version("mcp")
MAJOR = int(SDK.split(".")[0])
NAME = re.compile(r"^[A-Za-z0-9_-]{1,48}$")
# readOnly, destructive, idempotent, openWorld (false: the fake): the design note's table.
TABLE = {
    "read": (True, False, True, False),
    "write": (False, False, False, False),
    "idempotent": (False, False, True, False),
    "destructive": (False, True, False, False),
}

passed = 0
failures = []


def check(name, condition, seen=None):
    global passed
    if condition:
        passed += 1
    else:
        failures.append(f"{name}: {seen!r}")


def field(obj, snake):
    """A model's field under the SDK's spelling: snake_case in 2.x, camelCase in 1.x."""
    if obj is None:
        return None
    if hasattr(obj, snake):
        return getattr(obj, snake)
    head, *rest = snake.split("_")
    return getattr(obj, head + "".join(w.capitalize() for w in rest), None)


def semantics(path):
    """Wire name -> semantics (or None) for every method."""
    with open(path) as f:
        contract = json.load(f)
    out = {}
    wire = contract.get("wire") or {}
    for ns, body in contract["namespaces"].items():
        ns_wire = body.get("wire") or {}
        separator = ns_wire.get("separator", wire.get("separator", "."))
        for name, method in (body.get("methods") or {}).items():
            wire_name = (ns_wire.get("methods") or {}).get(name, f"{ns}{separator}{name}")
            out[wire_name] = method.get("semantics")
    return out


@contextlib.asynccontextmanager
async def http_url(accord, args):
    """`accord mcp ARGS --http 127.0.0.1:0` running; yields the URL it prints."""
    child = await asyncio.create_subprocess_exec(
        accord, *args, "--http", "127.0.0.1:0",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
    )
    try:
        while True:
            line = await asyncio.wait_for(child.stdout.readline(), 20)
            if not line:
                raise RuntimeError("accord mcp --http exited before printing its URL")
            found = re.search(r"http://\S+", line.decode())
            if found:
                break
        yield found.group(0)
    finally:
        child.kill()
        await child.wait()


@contextlib.asynccontextmanager
async def connect(accord, args, transport, mode):
    """A session with `accord mcp ARGS` that answers list_tools, call_tool, list_resources and
    read_resource, whichever SDK line is installed."""
    async with contextlib.AsyncExitStack() as stack:
        if MAJOR >= 2:
            from mcp import Client

            if transport == "stdio":
                target = StdioServerParameters(command=accord, args=args)
            else:
                target = await stack.enter_async_context(http_url(accord, args))
            yield await stack.enter_async_context(Client(target, mode=mode))
            return
        from mcp import ClientSession

        if transport == "stdio":
            from mcp.client.stdio import stdio_client

            params = StdioServerParameters(command=accord, args=args)
            read, write = await stack.enter_async_context(stdio_client(params))
        else:
            from mcp.client.streamable_http import streamablehttp_client

            url = await stack.enter_async_context(http_url(accord, args))
            read, write, _ = await stack.enter_async_context(streamablehttp_client(url))
        session = await stack.enter_async_context(ClientSession(read, write))
        await session.initialize()
        yield session


def error_text(result):
    return "\n".join(getattr(c, "text", "") for c in result.content)


async def call(client, name, args):
    """A tool call; an exception (the SDK's own output-schema check) is what it answered."""
    try:
        return await client.call_tool(name, args)
    except Exception as e:  # noqa: BLE001 - any refusal is the finding
        return e


def tool_error(where, what, result, needles):
    ok = (
        not isinstance(result, Exception)
        and field(result, "is_error") is True
        and field(result, "structured_content") is None
        and all(n in error_text(result) for n in needles)
    )
    check(f"{where}: {what} is a tool error in text naming {', '.join(needles)}", ok, result)


async def run(accord, contracts, transport, mode):
    for name in ("pump-plant", "boiler-plant"):
        path = f"{contracts}/{name}.types.json"
        methods = semantics(path)
        where = f"{transport} {mode} {name}"
        async with connect(accord, ["mcp", path], transport, mode) as client:
            listed = (await client.list_tools()).tools
            for tool in listed:
                check(f"{where} {tool.name}: portable name", NAME.match(tool.name) is not None)
                a = tool.annotations
                hints = tuple(
                    field(a, h)
                    for h in ("read_only_hint", "destructive_hint", "idempotent_hint", "open_world_hint")
                )
                kind = "read" if tool.name == "collect_events" else methods.get(tool.title)
                check(f"{where} {tool.name}: annotations of {kind}", hints == TABLE.get(kind), hints)
            names = {t.name for t in listed}
            check(f"{where}: tank_drain (destructive) hidden by default", "tank_drain" not in names, names)
            if name != "pump-plant":
                continue
            result = await call(client, "pump_status", {"pump": "P-101"})
            structured = None if isinstance(result, Exception) else field(result, "structured_content")
            vibration = (structured or {}).get("result", {}).get("vibration")
            check(
                f"{where}: pump_status answers a vibration 3-tuple",
                isinstance(vibration, list) and len(vibration) == 3
                and all(isinstance(x, (int, float)) for x in vibration),
                result,
            )
            tool_error(where, "an invalid argument", await call(client, "pump_status", {"pump": 7}),
                       ["/pump: expected"])
            tool_error(where, "an unknown argument",
                       await call(client, "pump_status", {"pump": "P-101", "extra": 1}),
                       ["/extra: unknown argument `extra`", "`pump`"])
            uris = [str(r.uri) for r in (await client.list_resources()).resources]
            check(f"{where}: resources/list", {"accord://contract", "accord://types/pump"} <= set(uris), uris)
            for uri in ("accord://contract", "accord://types/pump"):
                try:
                    text = (await client.read_resource(uri)).contents[0].text
                    ok = isinstance(json.loads(text), dict)
                except Exception as e:  # noqa: BLE001 - any refusal is the finding
                    text, ok = e, False
                check(f"{where}: resources/read {uri}", ok, text)
    path = f"{contracts}/pump-plant.types.json"
    async with connect(accord, ["mcp", path, "--allow", "destructive"], transport, mode) as client:
        names = {t.name for t in (await client.list_tools()).tools}
        check(f"{transport} {mode}: tank_drain listed with --allow destructive", "tank_drain" in names, names)
        check(f"{transport} {mode}: undeclared still hidden with --allow destructive",
              "pump_runSelfTest" not in names, names)


async def ethereum(accord, contracts, mode):
    path = f"{contracts}/../import/execution-apis/expected.types.json"
    with open(path) as f:
        contract = json.load(f)
    methods = semantics(path)
    where = f"stdio {mode} execution-apis"
    async with connect(accord, ["mcp", path], "stdio", mode) as client:
        for tool in (await client.list_tools()).tools:
            a = tool.annotations
            hints = tuple(
                field(a, h)
                for h in ("read_only_hint", "destructive_hint", "idempotent_hint", "open_world_hint")
            )
            kind = methods.get(tool.title)
            check(f"{where} {tool.name}: annotations of {kind}", hints == TABLE.get(kind), hints)
            ns, _, name = tool.title.partition("_")
            method = contract["namespaces"].get(ns, {}).get("methods", {}).get(name) or {}
            example = next((e for e in method.get("examples") or [] if isinstance(e.get("params"), list)), None)
            if example is None:
                continue
            args = {method["params"][i]["name"]: v for i, v in enumerate(example["params"])}
            result = await call(client, tool.name, args)
            check(
                f"{where} {tool.name} with its example: answer taken by the client",
                not isinstance(result, Exception)
                and (field(result, "is_error") or field(result, "structured_content") is not None),
                result,
            )


async def main():
    accord, contracts = sys.argv[1], sys.argv[2]
    # 2.x connects in "legacy" (initialize handshake) or "auto" (discover, then fall back);
    # 1.x has the handshake only.
    modes = ("legacy", "auto") if MAJOR >= 2 else ("initialize",)
    for transport in ("stdio", "http"):
        for mode in modes:
            await run(accord, contracts, transport, mode)
    await ethereum(accord, contracts, modes[0])
    for failure in failures:
        print(f"FAIL {failure}")
    print(f"python sdk {SDK}: {passed} of {passed + len(failures)} checks passed")
    sys.exit(1 if failures else 0)


asyncio.run(main())
