"""Drive an MCP server with the official Python SDK's client, for tests/it/mcp_server.rs.

    python mcp_client.py COMMAND ARGS...     (stdio: the server is started with this command)
    python mcp_client.py --http URL          (streamable HTTP)

Standard input is a JSON list of calls, `{"tool": NAME, "args": {...}}`; standard output is a
JSON object: the tool names `tools/list` gave, and per call either the result (`is_error`,
the first text, `structured`) or the JSON-RPC error the client raised (`error`). The server
keeps serving after an error, which the calls after it show.
"""

import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError


async def drive(session, calls):
    await session.initialize()
    listed = await session.list_tools()
    out = {"tools": [t.name for t in listed.tools], "calls": []}
    for call in calls:
        try:
            r = await session.call_tool(call["tool"], call.get("args", {}))
            text = next((c.text for c in r.content if c.type == "text"), None)
            out["calls"].append(
                {"is_error": bool(r.is_error), "text": text, "structured": r.structured_content}
            )
        except MCPError as e:
            out["calls"].append({"error": e.error.message, "code": e.error.code})
    return out


async def main():
    calls = json.load(sys.stdin)
    if sys.argv[1] == "--http":
        from mcp.client.streamable_http import streamable_http_client

        async with streamable_http_client(sys.argv[2]) as streams:
            async with ClientSession(streams[0], streams[1]) as s:
                out = await drive(s, calls)
    else:
        params = StdioServerParameters(command=sys.argv[1], args=sys.argv[2:])
        async with stdio_client(params) as (r, w):
            async with ClientSession(r, w) as s:
                out = await drive(s, calls)
    json.dump(out, sys.stdout)


asyncio.run(main())
