"""accord mcp driven by the Python `mcp` SDK, an independent client (docs/mcp.md).

Usage: python_client.py ACCORD_BINARY CONTRACTS_DIR

Over stdio, in the SDK's "legacy" (initialize handshake) and "auto" (discover, then fall back)
modes: every tool's name and its four annotations are checked against expectations worked out
here from the contract's own JSON (not from accord's code), a read tool is called on the fake,
and a destructive tool must be absent by default and present with --allow destructive.
Exits 1 with the failures listed, 0 when all hold.
"""

import asyncio
import json
import re
import sys

from mcp import Client, StdioServerParameters

NAME = re.compile(r"^[A-Za-z0-9_-]{1,48}$")
# readOnly, destructive, idempotent: the design note's table.
TABLE = {
    "read": (True, False, True),
    "write": (False, False, False),
    "idempotent": (False, False, True),
    "destructive": (False, True, False),
}

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def expected(contract):
    """Wire name -> (semantics or None) for every method."""
    out = {}
    wire = contract.get("wire") or {}
    for ns, body in contract["namespaces"].items():
        ns_wire = body.get("wire") or {}
        separator = ns_wire.get("separator", wire.get("separator", "."))
        for name, method in (body.get("methods") or {}).items():
            wire_name = (ns_wire.get("methods") or {}).get(name, f"{ns}{separator}{name}")
            out[wire_name] = method.get("semantics")
    return out



async def run(accord, contracts, mode):
    for name in ("pump-plant", "boiler-plant"):
        path = f"{contracts}/{name}.types.json"
        with open(path) as f:
            methods = expected(json.load(f))
        params = StdioServerParameters(command=accord, args=["mcp", path])
        async with Client(params, mode=mode) as client:
            listed = (await client.list_tools()).tools
            for tool in listed:
                where = f"{mode} {name} {tool.name}"
                check(NAME.match(tool.name) is not None, f"{where}: name is not portable")
                a = tool.annotations
                check(a is not None, f"{where}: no annotations")
                if a is None:
                    continue
                hints = (a.read_only_hint, a.destructive_hint, a.idempotent_hint, a.open_world_hint)
                check(None not in hints, f"{where}: a hint is missing: {hints}")
                if tool.name == "collect_events":
                    check(hints == (True, False, True, False), f"{where}: {hints}")
                    continue
                check(tool.title in methods, f"{where}: title {tool.title!r} is no wire name")
                semantics = methods.get(tool.title)
                if semantics in TABLE:
                    check(hints == (*TABLE[semantics], False), f"{where}: {semantics} gave {hints}")
                else:
                    check(False, f"{where}: undeclared {semantics!r} exposed by default")
                check(tool.output_schema is not None and tool.output_schema.get("type") == "object",
                      f"{where}: outputSchema is not an object schema")
            if name == "pump-plant":
                names = {t.name for t in listed}
                check("tank_drain" not in names, f"{mode}: tank_drain exposed by default")
                result = await client.call_tool("pump_status", {"pump": "P-101"})
                check(not result.is_error, f"{mode}: pump_status answered an error: {result}")
                structured = result.structured_content or {}
                check(structured.get("result", {}).get("pump") == "P-101",
                      f"{mode}: pump_status structuredContent {structured}")
                refused = await client.call_tool("pump_status", {"pump": 7})
                check(refused.is_error, f"{mode}: an invalid argument was not a tool error")
    path = f"{contracts}/pump-plant.types.json"
    params = StdioServerParameters(command=accord, args=["mcp", path, "--allow", "destructive"])
    async with Client(params, mode=mode) as client:
        names = {t.name for t in (await client.list_tools()).tools}
        check("tank_drain" in names, f"{mode}: tank_drain absent with --allow destructive")
        check("pump_runSelfTest" not in names, f"{mode}: undeclared exposed by --allow destructive")


async def main():
    accord, contracts = sys.argv[1], sys.argv[2]
    for mode in ("legacy", "auto"):
        await run(accord, contracts, mode)
    if failures:
        print("\n".join(failures))
        sys.exit(1)
    print("python mcp client: all checks passed")


asyncio.run(main())
